# Runs a program that must die of a fatal OpenSHMEM error and checks how it dies:
#
#   cmake -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DNP=<n> -DPROGRAM=<exe> -DCASE=<arg>
#         -DEXPECT=<regex> [-DLIMIT=<seconds>] -P expect_fatal.cmake
#
# Passes when the job exits non-zero within LIMIT seconds (default 30), its output (stdout and
# stderr) matches EXPECT, and no "UNREACHABLE" line shows that a PE went on after the error.
# (LAUNCHER_ARGS separated by "|" as a ";" would split the CTest command line.)
cmake_minimum_required(VERSION 3.22)

foreach(v LAUNCHER NP PROGRAM CASE EXPECT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "expect_fatal.cmake: ${v} not set")
  endif()
endforeach()
if(NOT DEFINED LIMIT)
  set(LIMIT 30)
endif()
if(DEFINED LAUNCHER_ARGS)
  string(REPLACE "|" ";" LAUNCHER_ARGS "${LAUNCHER_ARGS}")
endif()

string(TIMESTAMP t0 "%s")
execute_process(
  COMMAND "${LAUNCHER}" ${LAUNCHER_ARGS} -np ${NP} "${PROGRAM}" "${CASE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT ${LIMIT})
string(TIMESTAMP t1 "%s")
math(EXPR elapsed "${t1} - ${t0}")
message("---- stdout ----\n${out}---- stderr ----\n${err}----")

if(NOT rc MATCHES "^-?[0-9]+$")
  message(FATAL_ERROR "${CASE}: the job did not end by itself within ${LIMIT} s (${rc})")
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "${CASE}: the job exited with status 0 after a fatal AMO error")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${CASE}: no message matching '${EXPECT}'")
endif()
if("${out}${err}" MATCHES "UNREACHABLE")
  message(FATAL_ERROR "${CASE}: a PE went on after the fatal error")
endif()
message("${CASE}: OK, exit status ${rc} after ${elapsed} s")
