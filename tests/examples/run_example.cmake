# Compiles an example with the installed-style wrapper, runs it under the launcher and
# checks that every PE printed its line.
#
#   cmake -DCC=<oshcc> -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DSOURCE=<file.c>
#         -DOUT=<executable> -DNP=<n> -DEXPECT=<line regex with %PE% and %NP%>
#         -P run_example.cmake
# (LAUNCHER_ARGS separated by "|" as a ";" would split the CTest command line.)
# Every PE k in [0, NP) must print exactly one line matching EXPECT (whole line).
cmake_minimum_required(VERSION 3.22)

foreach(v CC LAUNCHER SOURCE OUT NP EXPECT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_example.cmake: ${v} not set")
  endif()
endforeach()

get_filename_component(outdir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${outdir}")
file(REMOVE "${OUT}")

execute_process(
  COMMAND "${CC}" -o "${OUT}" "${SOURCE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} with ${CC} failed (${rc}):\n${out}\n${err}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "${CC} succeeded but produced no ${OUT}")
endif()

if(DEFINED LAUNCHER_ARGS)
  string(REPLACE "|" ";" LAUNCHER_ARGS "${LAUNCHER_ARGS}")
endif()
execute_process(
  COMMAND "${LAUNCHER}" ${LAUNCHER_ARGS} -np ${NP} "${OUT}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT 100)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "running ${OUT} with ${LAUNCHER} -np ${NP} failed (${rc}):\n${err}")
endif()

string(REPLACE ";" "," out_nosemi "${out}")
string(REPLACE "\r" "" out_nosemi "${out_nosemi}")
string(REPLACE "\n" ";" lines "${out_nosemi}")
math(EXPR last "${NP} - 1")
foreach(pe RANGE 0 ${last})
  string(REPLACE "%PE%" "${pe}" re "${EXPECT}")
  string(REPLACE "%NP%" "${NP}" re "${re}")
  set(n 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^${re}$")
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected exactly one line matching '^${re}$', found ${n}")
  endif()
endforeach()
message("example OK: ${NP} PEs reported")
