# Runs one case of a program through the launcher and checks how it ends (job_check.cmake):
#
#   cmake -DLAUNCHER=<oshrun> [-DLAUNCHER_ARGS=a|b] -DNP=<n> -DPROGRAM=<exe> -DCASE=<arg>
#         [-DMODE=fatal|return] [-DEXPECT=<regex>] [-DWENT_ON=<regex>] [-DLIMIT=<seconds>]
#         [-DQUIET=1] -P expect_job.cmake
#
# (LAUNCHER_ARGS separated by "|" as a ";" would split the CTest command line.) Many cases of
# one program run as one test through expect_jobs.cmake instead.
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/job_check.cmake)

foreach(v LAUNCHER NP PROGRAM CASE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "expect_job.cmake: ${v} not set")
  endif()
endforeach()
if(NOT DEFINED MODE)
  set(MODE fatal)
endif()
if(DEFINED LAUNCHER_ARGS)
  string(REPLACE "|" ";" LAUNCHER_ARGS "${LAUNCHER_ARGS}")
endif()
if(NOT DEFINED EXPECT)
  set(EXPECT "")
endif()
if(NOT DEFINED WENT_ON)
  set(WENT_ON "UNREACHABLE|RETURNED")
endif()
if(NOT DEFINED LIMIT)
  set(LIMIT 30)
endif()
set(quiet)
if(QUIET)
  set(quiet QUIET)
endif()
# Each value as its own argument: a regex's unbalanced "\]" would break a CMake list.
shoal_check_job(why CASE "${CASE}" MODE ${MODE} EXPECT "${EXPECT}" WENT_ON "${WENT_ON}"
                LIMIT ${LIMIT} ${quiet})
if(NOT why STREQUAL "")
  message(FATAL_ERROR "${CASE}: ${why}")
endif()
