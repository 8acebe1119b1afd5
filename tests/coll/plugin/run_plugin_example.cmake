# Builds the example plug-in with the wrapper (`oshcc -shared -fPIC`), builds the program that
# forces its algorithms by name, runs it under the launcher and checks what every PE and
# SMA_INFO printed.
#
#   cmake -DCC=<oshcc> -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DPLUGIN=<ring_plugin.c>
#         -DNESTED=<nested_plugin.c> -DPROGRAM=<plugin_check.c> -DOUT=<directory> -DNP=<n>
#         [-DDEBUG=1] [-DUCX=1] -P run_plugin_example.cmake
# Both plug-ins are loaded; fcollect runs the nested one, whose inner fcollect must be built-in.
cmake_minimum_required(VERSION 3.22)

foreach(v CC LAUNCHER PLUGIN NESTED PROGRAM OUT NP)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_plugin_example.cmake: ${v} not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(so "${OUT}/ring_plugin.so")
set(nested "${OUT}/nested_plugin.so")
set(exe "${OUT}/plugin_check")
foreach(step "-shared;-fPIC;-o;${so};${PLUGIN}" "-shared;-fPIC;-o;${nested};${NESTED}"
             "-o;${exe};${PROGRAM}")
  execute_process(COMMAND "${CC}" ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CC} ${step} failed (${rc}):\n${out}\n${err}")
  endif()
endforeach()

if(DEFINED LAUNCHER_ARGS)
  string(REPLACE "|" ";" LAUNCHER_ARGS "${LAUNCHER_ARGS}")
endif()
set(bcast_rules "ring:bytes<=4k,binomial")
set(env SMA_COLL_PLUGINS=${so}:${nested} SMA_BARRIER_ALGORITHM=ring
        SMA_BCAST_ALGORITHM=${bcast_rules}
        SMA_REDUCE_ALGORITHM=gather_fold:bytes<=4k,recursive_doubling
        SMA_FCOLLECT_ALGORITHM=nested SMA_INFO=1
        COLL_PLUGIN_EXAMPLE=${so} COLL_PLUGIN_NESTED=${nested})
if(DEBUG)
  list(APPEND env SHMEM_DEBUG=1)
endif()
if(UCX)
  list(APPEND env SMA_SHARED_MEMORY=0)
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${env} "${LAUNCHER}" ${LAUNCHER_ARGS} -np ${NP} "${exe}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT 100)
message("${out}")
if(NOT rc EQUAL 0)
  string(LENGTH "${err}" len)
  if(len GREATER 20000)
    string(SUBSTRING "${err}" 0 20000 err)
  endif()
  message(FATAL_ERROR "the plug-in check failed on ${NP} PEs (${rc}):\n${err}")
endif()

string(REPLACE ";" "," lines "${out}")
string(REPLACE "\n" ";" lines "${lines}")
math(EXPR last "${NP} - 1")
foreach(pe RANGE 0 ${last})
  set(n 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^plugin check ok on PE ${pe} of ${NP}$")
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "PE ${pe} did not report 'plugin check ok' exactly once (${n})")
  endif()
endforeach()
# SMA_INFO lists the plug-in's algorithms under their collectives, naming the file, and the
# rules in force that name them.
foreach(re "broadcast +SMA_BCAST_ALGORITHM=ring:bytes<=4k,binomial "
           "\n +ring +example plug-in: the message from PE to PE along the ring \\(plug-in ${so}\\)"
           "\n +gather_fold +example plug-in: every vector to every PE's scratch, folded in team order \\(plug-in ${so}\\)"
           "\n +ring +example plug-in: a token twice around the team \\(plug-in ${so}\\)"
           "\n +nested +test plug-in: shmem_fcollectmem from inside the algorithm \\(plug-in ${nested}\\)")
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "SMA_INFO output lacks '${re}'")
  endif()
endforeach()
message("plug-in example OK on ${NP} PEs")
