# Runs a job through the launcher and checks its exit status and output:
#
#   cmake [-DWRAP=a|b] -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DNP=<n> -DPROGRAM=<exe>
#         [-DARGS=a|b] [-DEXPECT_FAILURE=1] -DEXPECT=<regex>@@<regex>... [-DLIMIT=<seconds>]
#         -P check_output.cmake
#
# WRAP: a command that starts the launcher (taskset -c 0: the job on one CPU).
#
# Passes when the job ends by itself within LIMIT seconds (default 30), its status is zero
# (non-zero with EXPECT_FAILURE), and its output (stdout and stderr together) matches every
# regex of EXPECT. The environment of the test (ENVIRONMENT property) reaches the PEs through
# the launcher. Lists use "|" and "@@" as ";" would split the CTest command line.
#
# A regex of the form SECTION:<start>:<name>... checks that after the first line containing
# <start>, before the next line containing "_ALGORITHM=", there is a line that begins (after
# blanks) with each <name>: how SMA_INFO lists the algorithms of one collective.
# A regex of the form NOT:<regex> must match nowhere in the output.
cmake_minimum_required(VERSION 3.22)

foreach(v LAUNCHER NP PROGRAM EXPECT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_output.cmake: ${v} not set")
  endif()
endforeach()
if(NOT DEFINED LIMIT)
  set(LIMIT 30)
endif()
if(DEFINED LAUNCHER_ARGS)
  string(REPLACE "|" ";" LAUNCHER_ARGS "${LAUNCHER_ARGS}")
endif()
if(DEFINED WRAP)
  string(REPLACE "|" ";" WRAP "${WRAP}")
endif()
if(DEFINED ARGS)
  string(REPLACE "|" ";" ARGS "${ARGS}")
endif()

execute_process(
  COMMAND ${WRAP} "${LAUNCHER}" ${LAUNCHER_ARGS} -np ${NP} "${PROGRAM}" ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT ${LIMIT})
set(all "${out}${err}")
message("---- stdout ----\n${out}---- stderr ----\n${err}----")

if(NOT rc MATCHES "^-?[0-9]+$")
  message(FATAL_ERROR "the job did not end by itself within ${LIMIT} s (${rc})")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/sanitizer_report.cmake)
if(all MATCHES "${SHOAL_TEST_SANITIZER_REPORT}")
  message(FATAL_ERROR "a sanitizer reported a problem (above)")
endif()
if(EXPECT_FAILURE AND rc EQUAL 0)
  message(FATAL_ERROR "the job exited with status 0; it should have failed")
endif()
if(NOT EXPECT_FAILURE AND NOT rc EQUAL 0)
  message(FATAL_ERROR "the job failed with status ${rc}")
endif()

string(REPLACE "@@" ";" expects "${EXPECT}")
string(REPLACE "\r" "" all "${all}")
set(missing)
foreach(e IN LISTS expects)
  if(e MATCHES "^SECTION:([^:]+):(.*)$")
    set(start "${CMAKE_MATCH_1}")
    string(REPLACE ":" ";" names "${CMAKE_MATCH_2}")
    string(FIND "${all}" "${start}" at)
    if(at EQUAL -1)
      list(APPEND missing "'${start}' (section heading)")
      continue()
    endif()
    string(SUBSTRING "${all}" ${at} -1 section)
    # Cut at the end of the heading line, then at the next heading.
    string(FIND "${section}" "\n" eol)
    if(eol EQUAL -1)
      set(section "")
    else()
      math(EXPR eol "${eol} + 1")
      string(SUBSTRING "${section}" ${eol} -1 section)
    endif()
    string(FIND "${section}" "_ALGORITHM=" next)
    if(NOT next EQUAL -1)
      string(SUBSTRING "${section}" 0 ${next} section)
    endif()
    set(section "\n${section}")
    foreach(name IN LISTS names)
      if(NOT section MATCHES "\n[ \t]*${name}[ \t\n]")
        list(APPEND missing "'${name}' listed under '${start}'")
      endif()
    endforeach()
  elseif(e MATCHES "^NOT:(.*)$")
    if(all MATCHES "${CMAKE_MATCH_1}")
      list(APPEND unwanted "'${CMAKE_MATCH_1}' (matched '${CMAKE_MATCH_0}')")
    endif()
  elseif(NOT all MATCHES "${e}")
    list(APPEND missing "'${e}'")
  endif()
endforeach()
if(missing)
  string(REPLACE ";" ", " missing "${missing}")
  message(FATAL_ERROR "the output lacks: ${missing}")
endif()
if(unwanted)
  string(REPLACE ";" ", " unwanted "${unwanted}")
  message(FATAL_ERROR "the output has what it must not: ${unwanted}")
endif()
message("OK: status ${rc}, every expected message present")
