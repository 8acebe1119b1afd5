# cmake -DFC=<Fortran compiler> -DINCLUDE_DIR=<include> -DWORK=<dir> -P check_header_forms.cmake
# shmem.fh and mpp/shmem.fh compile as fixed form and as free form, under the standards from
# Fortran 95 to 2018 as well as gfortran's legacy mode (-fsyntax-only: nothing is linked).
cmake_minimum_required(VERSION 3.22)
file(MAKE_DIRECTORY ${WORK})
foreach(header shmem.fh mpp/shmem.fh)
  string(MAKE_C_IDENTIFIER ${header} id)
  set(body "      program t\n      include '${header}'\n      integer n\n"
           "      n = SHMEM_REDUCE_SYNC_SIZE + SHMEM_CMP_GE\n"
           "      print *, n, SHMEM_VENDOR_STRING\n      end\n")
  file(WRITE ${WORK}/${id}.f ${body})
  file(WRITE ${WORK}/${id}.f90 ${body})
  foreach(std legacy f95 f2003 f2008 f2018)
    foreach(form fixed free)
      if(form STREQUAL "fixed")
        set(src ${WORK}/${id}.f)
      else()
        set(src ${WORK}/${id}.f90)
      endif()
      execute_process(COMMAND ${FC} -fsyntax-only -std=${std} -f${form}-form -I${INCLUDE_DIR} ${src}
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(SEND_ERROR "${header}, ${form} form, -std=${std}: ${out}${err}")
      endif()
    endforeach()
  endforeach()
endforeach()
message(STATUS "shmem.fh and mpp/shmem.fh compile as fixed and free form, legacy to f2018")
