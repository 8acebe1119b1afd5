# Runs one case of an error-checking program through the launcher and checks how it ends:
#
#   cmake -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DNP=<n> -DPROGRAM=<exe> -DCASE=<arg>
#         [-DMODE=fatal|return] [-DEXPECT=<regex>] [-DWENT_ON=<regex>] [-DLIMIT=<seconds>]
#         -P expect_job.cmake
#
# MODE fatal (default): the job exits non-zero within LIMIT seconds (default 30), its output
#   (stdout and stderr) matches EXPECT, and no line matches WENT_ON (what the program prints
#   when a PE carries on after the error; default "UNREACHABLE|RETURNED").
# MODE return: the job exits 0 within LIMIT seconds (every PE got the documented return value)
#   and its output matches EXPECT when given.
# QUIET=1: nothing on stderr names an error or a warning (a legal call).
# (LAUNCHER_ARGS separated by "|" as a ";" would split the CTest command line.)
cmake_minimum_required(VERSION 3.22)

foreach(v LAUNCHER NP PROGRAM CASE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "expect_job.cmake: ${v} not set")
  endif()
endforeach()
if(NOT DEFINED MODE)
  set(MODE fatal)
endif()
if(NOT DEFINED LIMIT)
  set(LIMIT 30)
endif()
if(NOT DEFINED WENT_ON)
  set(WENT_ON "UNREACHABLE|RETURNED")
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
include(${CMAKE_CURRENT_LIST_DIR}/sanitizer_report.cmake)
if("${out}${err}" MATCHES "${SHOAL_TEST_SANITIZER_REPORT}")
  message(FATAL_ERROR "${CASE}: a sanitizer reported a problem (above)")
endif()
if(DEFINED EXPECT AND NOT EXPECT STREQUAL "" AND NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${CASE}: no message matching '${EXPECT}'")
endif()
if(QUIET AND "${err}" MATCHES "[Ee]rror|[Ww]arn")
  message(FATAL_ERROR "${CASE}: a legal call printed an error or a warning (stderr above)")
endif()
if(MODE STREQUAL "return")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CASE}: exit status ${rc}; expected 0 (every PE returns the error)")
  endif()
elseif(MODE STREQUAL "fatal")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${CASE}: the job exited with status 0; expected a fatal error")
  endif()
  if("${out}${err}" MATCHES "${WENT_ON}")
    message(FATAL_ERROR "${CASE}: a PE went on after the fatal error")
  endif()
else()
  message(FATAL_ERROR "expect_job.cmake: MODE must be return or fatal, not ${MODE}")
endif()
message("${CASE}: OK (${MODE}), exit status ${rc} after ${elapsed} s")
