// A program that brings its own fmt::vformat and spdlog::logger::log_it_, as a program linked
// with another fmt or spdlog does (issue 18, item 3). A library that takes either from the
// global scope calls these instead of its own, and its error message comes out as
// "INTERPOSED ..."; libshoal, which keeps both to itself, prints its own message.
// The test logging_not_interposed runs it as a single PE (tests/install/CMakeLists.txt).
#include <shmem.h>
#include <spdlog/logger.h>

#include <cstdio>
#include <string>

FMT_BEGIN_NAMESPACE
std::string vformat(string_view, format_args) { return "INTERPOSED fmt::vformat"; }
FMT_END_NAMESPACE

void spdlog::logger::log_it_(const spdlog::details::log_msg &msg, bool, bool) {
  std::fprintf(stderr, "INTERPOSED spdlog::logger::log_it_: %.*s\n",
               static_cast<int>(msg.payload.size()), msg.payload.data());
}

int main() {
  shmem_init();
  static int x;
  shmem_int_p(&x, 1, 99);  // PE 99 does not exist: libshoal formats and logs an error, and exits
  shmem_finalize();
  return 0;
}
