// A C++ exception that escapes the library ends the job loudly (issue 18, item 3): every C
// entry point is noexcept, so an escaping exception calls std::terminate, and the handler
// shmem_init installs reports it through the fatal-error path (a line naming the PE and the
// exception, then PMIx_Abort) instead of a silent abort on one PE while the others hang.
//
// Why no exception from inside the library itself: nothing in it throws on a user's input (bad
// arguments are fatal errors of their own, tests/errors), and the one real source, a failed
// allocation, could not be provoked reliably (under a small RLIMIT_AS, UCX's mallocs fail
// first and return an error status, and where the first failure lands varies from run to run).
// A test-only hook in the library would test the hook. So the cases below raise the exception
// the way an entry point would meet one: thrown inside a noexcept function (noexcept_throw), and
// an exception the program leaves uncaught (uncaught_in_program), which reaches the same
// std::terminate. Either way the handler is the library's, and the job must end.
#include <new>
#include <stdexcept>

#include "error_case.h"

namespace {

// What a noexcept entry point does when something it calls throws.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wterminate"  // the point: this throw calls std::terminate
void entry_point_like() noexcept { throw std::bad_alloc(); }
#pragma GCC diagnostic pop

void noexcept_throw() { entry_point_like(); }

void uncaught_in_program() { throw std::runtime_error("an error the program left uncaught"); }

const struct error_case cases[] = {
    {"noexcept_throw", noexcept_throw, nullptr, nullptr},
    {"uncaught_in_program", uncaught_in_program, nullptr, nullptr},
};

}  // namespace

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  const struct error_case *c = find_case(cases, sizeof cases / sizeof cases[0], which);
  if (c == nullptr) unknown_case(argv[0], cases, sizeof cases / sizeof cases[0], which);
  shmem_init();
  return run_case(c);
}
