# libshoal keeps spdlog and fmt to itself (issue 18, item 3): it needs neither libspdlog.so nor
# libfmt.so, and its dynamic symbol table neither defines nor refers to a spdlog or fmt symbol,
# so a program that brings its own spdlog or fmt cannot interpose them.
#   cmake -DLIBRARY=<libshoal.so> -P check_private_logging.cmake
execute_process(COMMAND readelf -d ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE dynamic)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*" needed "${dynamic}")
message("${LIBRARY} needs:\n${needed}")
if(needed MATCHES "spdlog|libfmt")
  message(FATAL_ERROR "libshoal is linked to a shared spdlog or fmt: ${needed}")
endif()
# Every dynamic symbol, defined or undefined, demangled.
execute_process(COMMAND nm -D -C ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE symbols)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm -D ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "[^\n]*(spdlog|fmt::)[^\n]*" leaked "${symbols}")
if(leaked)
  string(REPLACE ";" "\n" leaked "${leaked}")
  message(FATAL_ERROR "libshoal's dynamic symbol table names spdlog or fmt:\n${leaked}")
endif()
string(REGEX MATCHALL "\n" lines "${symbols}")
list(LENGTH lines count)
if(count LESS 100)
  message(FATAL_ERROR "nm -D listed only ${count} symbols: is ${LIBRARY} the library?")
endif()
message("no spdlog or fmt symbol among the ${count} dynamic symbols")
