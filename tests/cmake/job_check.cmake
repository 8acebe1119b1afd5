# shoal_check_job(<result var> CASE <arg> MODE fatal|return [EXPECT <regex>] [QUIET]
#                 [WENT_ON <regex>] [LIMIT <seconds>] [ENV <VAR=value>...])
# Runs `LAUNCHER LAUNCHER_ARGS -np NP PROGRAM <arg>` (variables of the including script) and
# checks how the job ends; sets <result var> to "" when it ended as expected, otherwise to the
# reason, and then prints the job's output.
#   fatal:  non-zero exit status within LIMIT seconds (default 30), output matching EXPECT,
#           no line matching WENT_ON (what a program prints when a PE carries on after the
#           error; default "UNREACHABLE|RETURNED");
#   return: exit status 0 within LIMIT seconds (every PE got the documented return value),
#           output matching EXPECT when given.
#   QUIET:  nothing on stderr names an error or a warning (a legal call).
# Any sanitizer report in the output fails the job, even one that was expected to fail.
include(${CMAKE_CURRENT_LIST_DIR}/sanitizer_report.cmake)

function(shoal_check_job result)
  cmake_parse_arguments(PARSE_ARGV 1 J "QUIET" "CASE;MODE;EXPECT;WENT_ON;LIMIT" "ENV")
  if(NOT J_LIMIT)
    set(J_LIMIT 30)
  endif()
  if(NOT DEFINED J_WENT_ON)
    set(J_WENT_ON "UNREACHABLE|RETURNED")
  endif()
  set(env_prefix)
  if(J_ENV)
    set(env_prefix ${CMAKE_COMMAND} -E env ${J_ENV})
  endif()
  string(TIMESTAMP t0 "%s")
  execute_process(
    COMMAND ${env_prefix} "${LAUNCHER}" ${LAUNCHER_ARGS} -np ${NP} "${PROGRAM}" "${J_CASE}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT ${J_LIMIT})
  string(TIMESTAMP t1 "%s")
  math(EXPR elapsed "${t1} - ${t0}")

  set(why "")
  if(NOT rc MATCHES "^-?[0-9]+$")
    set(why "the job did not end by itself within ${J_LIMIT} s (${rc})")
  elseif("${out}${err}" MATCHES "${SHOAL_TEST_SANITIZER_REPORT}")
    set(why "a sanitizer reported a problem")
  elseif(DEFINED J_EXPECT AND NOT J_EXPECT STREQUAL "" AND NOT "${out}${err}" MATCHES "${J_EXPECT}")
    set(why "no message matching '${J_EXPECT}'")
  elseif(J_QUIET AND "${err}" MATCHES "[Ee]rror|[Ww]arn")
    set(why "a legal call printed an error or a warning")
  elseif(J_MODE STREQUAL "return")
    if(NOT rc EQUAL 0)
      set(why "exit status ${rc}; expected 0 (every PE returns the error)")
    endif()
  elseif(J_MODE STREQUAL "fatal")
    if(rc EQUAL 0)
      set(why "the job exited with status 0; expected a fatal error")
    elseif("${out}${err}" MATCHES "${J_WENT_ON}")
      set(why "a PE went on after the fatal error")
    endif()
  else()
    set(why "MODE must be return or fatal, not '${J_MODE}'")
  endif()

  if(why STREQUAL "")
    message("${J_CASE}: OK (${J_MODE}), exit status ${rc} after ${elapsed} s")
  else()
    message("---- ${J_CASE}: stdout ----\n${out}---- ${J_CASE}: stderr ----\n${err}----")
    message("${J_CASE}: FAILED: ${why}")
  endif()
  set(${result} "${why}" PARENT_SCOPE)
endfunction()
