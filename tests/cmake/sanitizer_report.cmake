# The first line of every AddressSanitizer, LeakSanitizer and ThreadSanitizer report, and of
# every UndefinedBehaviorSanitizer finding ("file:line:col: runtime error: ...", which UBSan
# prints without a summary line when it stops the program). Any run whose output matches fails,
# even a run that is expected to fail (a misuse test passing on its error message would
# otherwise hide the report). Included by ShoalMppTest.cmake (FAIL_REGULAR_EXPRESSION) and by
# the -P scripts that check a job's output themselves (expect_job.cmake,
# tests/coll/check_output.cmake).
set(SHOAL_TEST_SANITIZER_REPORT "(Address|Leak|Thread|UndefinedBehavior)Sanitizer:|: runtime error: ")
