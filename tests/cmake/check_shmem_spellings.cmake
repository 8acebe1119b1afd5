# Runs PROGRAM as one PE with SHMEM_<KEY> set for every implementation row of DEF (the
# config table) and checks that each draws the warning naming it and its SMA_ spelling, while a
# specification variable spelled SHMEM_ (read by the library) draws none. Issue 18, item 3: a
# SHMEM_ spelling of an implementation variable is never ignored silently.
#   cmake -DPROGRAM=<exe> -DDEF=<config_table.def> -P check_shmem_spellings.cmake
file(STRINGS ${DEF} rows REGEX "^SMA_CONFIG\\([a-z0-9_]+, *[A-Z0-9_]+,.* impl,")
set(env)
set(keys)
foreach(row IN LISTS rows)
  string(REGEX REPLACE "^SMA_CONFIG\\([a-z0-9_]+, *([A-Z0-9_]+),.*" "\\1" key "${row}")
  list(APPEND keys ${key})
  list(APPEND env SHMEM_${key}=1)
endforeach()
list(LENGTH keys count)
if(count LESS 5)
  message(FATAL_ERROR "found only ${count} implementation rows in ${DEF}: the pattern is stale")
endif()
execute_process(COMMAND env -u PMIX_NAMESPACE ${env} SHMEM_SYMMETRIC_SIZE=64M ${PROGRAM} spellings
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
message("${out}${err}")
set(missing)
foreach(key IN LISTS keys)
  string(FIND "${err}" "SHMEM_${key} is not read: this implementation's variable is SMA_${key}"
         at)
  if(at EQUAL -1)
    list(APPEND missing SHMEM_${key})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "no warning names ${missing}")
endif()
if(err MATCHES "SHMEM_SYMMETRIC_SIZE is not read")
  message(FATAL_ERROR "a specification variable, SHMEM_SYMMETRIC_SIZE, drew the warning")
endif()
message("all ${count} SHMEM_ spellings of implementation variables were named (exit status ${rc})")
