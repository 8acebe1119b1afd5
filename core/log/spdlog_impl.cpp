// spdlog's compiled part, built into libshoal once (issue 18, item 3). The library builds in
// spdlog's compiled-library mode (SPDLOG_COMPILED_LIB, without SPDLOG_SHARED_LIB): every other
// file includes only spdlog's declarations, and the definitions they call are here, hidden like
// the rest of the library (-fvisibility=hidden, SPDLOG_API left empty, api/libshoal.map):
// libshoal does not need libspdlog.so and a program's own spdlog cannot interpose them. The
// top-level CMakeLists.txt has the build settings; tests/install/check_private_logging.cmake
// checks the result.
//
// Only the parts the library uses: the logger and its pattern formatter, and the stderr sink
// (log.cpp). spdlog's registry, default logger, color, file and async sinks are left out; a
// use of one is an undefined symbol when libshoal is linked (-Wl,--no-undefined) until its
// -inl.h is added here.
#if !defined(SPDLOG_COMPILED_LIB) || defined(SPDLOG_HEADER_ONLY) || defined(SPDLOG_SHARED_LIB)
#error "spdlog must be built in compiled-library mode, not shared (top-level CMakeLists.txt)"
#endif

#include <spdlog/common-inl.h>
#include <spdlog/details/backtracer-inl.h>
#include <spdlog/details/log_msg-inl.h>
#include <spdlog/details/log_msg_buffer-inl.h>
#include <spdlog/details/os-inl.h>
#include <spdlog/logger-inl.h>
#include <spdlog/pattern_formatter-inl.h>
#include <spdlog/sinks/sink-inl.h>
#include <spdlog/sinks/stdout_sinks-inl.h>

template class spdlog::sinks::stdout_sink_base<spdlog::details::console_mutex>;
template class spdlog::sinks::stderr_sink<spdlog::details::console_mutex>;
