# libshoal keeps spdlog and fmt to itself (issue 18, item 3): it needs neither libspdlog.so nor
# libfmt.so, and its dynamic symbol table neither defines nor refers to a spdlog or fmt symbol,
# so a program that brings its own spdlog or fmt cannot interpose them. Both checks run and
# every offender is listed before the test fails.
#   cmake -DLIBRARY=<libshoal.so> -P check_private_logging.cmake
set(problems "")

execute_process(COMMAND readelf -d ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE dynamic)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*" needed "${dynamic}")
string(REPLACE ";" "\n  " needed_lines "${needed}")
message("${LIBRARY} needs:\n  ${needed_lines}")
string(REGEX MATCHALL "\\[[^]\n]*(spdlog|libfmt)[^]\n]*\\]" shared_logging "${needed}")
if(shared_logging)
  string(APPEND problems "libshoal is linked to a shared spdlog or fmt: ${shared_logging}\n")
endif()

# Every dynamic symbol, defined or undefined, demangled.
execute_process(COMMAND nm -D -C ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE symbols)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm -D ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "\n" lines "${symbols}")
list(LENGTH lines count)
if(count LESS 100)
  message(FATAL_ERROR "nm -D listed only ${count} symbols: is ${LIBRARY} the library?")
endif()
string(REGEX MATCHALL "[^\n]*(spdlog|fmt::)[^\n]*" leaked "${symbols}")
if(leaked)
  list(LENGTH leaked leaked_count)
  string(REPLACE ";" "\n" leaked "${leaked}")
  string(APPEND problems "libshoal's dynamic symbol table names ${leaked_count} spdlog or fmt "
                         "symbols (U: taken from another library, else exported):\n${leaked}\n")
endif()

if(problems)
  message(FATAL_ERROR "${problems}")
endif()
message("no spdlog or fmt library needed, and no spdlog or fmt symbol among the ${count} "
        "dynamic symbols")
