# Runs every case of a list, each as its own job of one program through the launcher, and
# checks how each ends (job_check.cmake); fails naming every case that did not end as expected.
#
#   cmake -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DNP=<n> -DPROGRAM=<exe>
#         -DJOBS=<file> [-DLIMIT=<seconds>] -P expect_jobs.cmake
#
# JOBS is a CMake file of job(<case> <fatal|return> <regex> <QUIET or ""> <VAR=value|...>)
# calls, one per case, written at configure time by shoal_add_job_batch (ShoalJobBatch.cmake).
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/job_check.cmake)

foreach(v LAUNCHER NP PROGRAM JOBS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "expect_jobs.cmake: ${v} not set")
  endif()
endforeach()
if(DEFINED LAUNCHER_ARGS)
  string(REPLACE "|" ";" LAUNCHER_ARGS "${LAUNCHER_ARGS}")
endif()
if(NOT DEFINED LIMIT)
  set(LIMIT 30)
endif()

# The reasons go in a string, not a list: they quote regexes with unbalanced brackets and ";".
set(failed "")
set(nfailed 0)
set(count 0)
# A function, not a macro: a macro would substitute the regex into its body, where its
# backslashes would be read as escapes a second time.
function(job case mode expect quiet env)
  math(EXPR n "${count} + 1")
  set(count ${n} PARENT_SCOPE)
  set(options)
  if(quiet STREQUAL "QUIET")
    list(APPEND options QUIET)
  endif()
  if(NOT env STREQUAL "")
    string(REPLACE "|" ";" env_list "${env}")
    list(APPEND options ENV ${env_list})
  endif()
  shoal_check_job(why CASE "${case}" MODE ${mode} EXPECT "${expect}" LIMIT ${LIMIT} ${options})
  if(NOT why STREQUAL "")
    math(EXPR n "${nfailed} + 1")
    set(nfailed ${n} PARENT_SCOPE)
    set(failed "${failed}\n  ${case}: ${why}" PARENT_SCOPE)
  endif()
endfunction()
include(${JOBS})

if(count EQUAL 0)
  message(FATAL_ERROR "expect_jobs.cmake: ${JOBS} lists no case")
endif()
if(nfailed GREATER 0)
  message(FATAL_ERROR "${nfailed} of ${count} cases did not end as expected:${failed}")
endif()
message("all ${count} cases ended as expected")
