# cmake -DBUILD_DIR=... -DPREFIX=... -DWORK=... -DSOURCE_DIR=... -P check_install.cmake
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${WORK})
file(MAKE_DIRECTORY ${WORK})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})

foreach(f lib/libshoal.so lib/libshoal.a include/shmem.h include/mpp/shmem.h include/pshmem.h
          include/shmemx.h include/shoal/coll_plugin.h bin/oshcc bin/oshc++ bin/oshrun bin/shmemrun lib/pkgconfig/shoal.pc
          lib/cmake/Shoal/ShoalConfig.cmake)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "the install prefix lacks ${f}")
  endif()
endforeach()

# The installed wrapper must point into the prefix, not into the build or source tree.
run(${PREFIX}/bin/oshcc -showme)
string(FIND "${last_output}" "-I${PREFIX}/include" uses_prefix)
string(FIND "${last_output}" "-L${BUILD_DIR}/lib " uses_build_tree)
if(uses_prefix EQUAL -1 OR NOT uses_build_tree EQUAL -1)
  message(FATAL_ERROR "installed oshcc does not use the prefix: ${last_output}")
endif()

# A C program through the installed wrapper and launcher.
run(${PREFIX}/bin/oshcc ${SOURCE_DIR}/consumer/ring.c -o ${WORK}/ring_c)
run(${PREFIX}/bin/oshrun -np 3 ${WORK}/ring_c)
if(NOT last_output MATCHES "ring ok on 3 PEs")
  message(FATAL_ERROR "unexpected output of the installed ring program: ${last_output}")
endif()

# A collective plug-in built with the installed header and wrapper (-shared -fPIC), loaded by
# the installed library: its barrier forced by name, listed by SMA_INFO.
if(PLUGIN_SOURCE)
  run(${PREFIX}/bin/oshcc -shared -fPIC -o ${WORK}/ring_plugin.so ${PLUGIN_SOURCE})
  run(${CMAKE_COMMAND} -E env SMA_COLL_PLUGINS=${WORK}/ring_plugin.so SMA_BARRIER_ALGORITHM=ring
      SMA_INFO=1 ${PREFIX}/bin/oshrun -np 3 ${WORK}/ring_c)
  if(NOT last_output MATCHES "ring ok on 3 PEs" OR
     NOT last_output MATCHES "barrier +SMA_BARRIER_ALGORITHM=ring " OR
     NOT last_output MATCHES "\n +ring +[^\n]*\\(plug-in ${WORK}/ring_plugin.so\\)")
    message(FATAL_ERROR "the installed plug-in did not run as expected: ${last_output}")
  endif()
endif()

# The Fortran interface: the headers, the installed oshfort, and a 1.0-style Fortran program
# (START_PES, COMMON blocks, typed puts, a pSync reduction, a lock) at 1 to 4 PEs.
if(FORTRAN)
  foreach(f include/shmem.fh include/mpp/shmem.fh bin/oshfort)
    if(NOT EXISTS ${PREFIX}/${f})
      message(FATAL_ERROR "the install prefix lacks ${f}")
    endif()
  endforeach()
  run(${PREFIX}/bin/oshfort -showme)
  string(FIND "${last_output}" "-I${PREFIX}/include" uses_prefix)
  if(uses_prefix EQUAL -1)
    message(FATAL_ERROR "installed oshfort does not use the prefix: ${last_output}")
  endif()
  run(${PREFIX}/bin/oshfort ${FORTRAN_PROGRAM} -o ${WORK}/legacy_f)
  foreach(np 1 2 3 4)
    run(${PREFIX}/bin/oshrun -np ${np} ${WORK}/legacy_f)
    if(NOT last_output MATCHES "legacy: passed on +${np} PEs")
      message(FATAL_ERROR "unexpected output of the installed Fortran program: ${last_output}")
    endif()
  endforeach()
  run(pkg-config --variable=fortran ${PREFIX}/lib/pkgconfig/shoal.pc)
  if(NOT last_output MATCHES "yes")
    message(FATAL_ERROR "shoal.pc does not say the Fortran interface is there: ${last_output}")
  endif()
endif()

# A CMake project that finds the installed library with find_package(Shoal).
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK}/consumer -DCMAKE_PREFIX_PATH=${PREFIX})
run(${CMAKE_COMMAND} --build ${WORK}/consumer)
run(${PREFIX}/bin/oshrun -np 2 ${WORK}/consumer/ring)
if(NOT last_output MATCHES "ring ok on 2 PEs")
  message(FATAL_ERROR "unexpected output of the find_package ring program: ${last_output}")
endif()
message(STATUS "install prefix ${PREFIX} works")
