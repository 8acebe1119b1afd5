# Helpers to build multi-PE test programs and register them with CTest as launcher runs.
#
#   shoal_add_mpp_test(NAME <name> SOURCES <src...>
#                      NP <k...>                 # one CTest entry per PE count: <name>_np<k>
#                      [ENV VAR=value ...]       # extra environment for every entry
#                      [LABELS <label...>]
#                      [ARGS <arg...>]           # program arguments
#                      [LIBS <lib...>]           # linked before the OpenSHMEM library
#                      [DEFINES <def...>]
#                      [TIMEOUT <seconds>]       # default SHOAL_TEST_TIMEOUT
#                      [UCX_TOO]                 # also <name>_ucx_np<k> with SMA_SHARED_MEMORY=0,
#                                                #   for the k of NP from 2 to 4
#                      [UCX_NP <k...>]           # ... for these PE counts instead (never 1)
#                      [SINGLETON]               # also <name>_singleton: run without launcher
#                      [NO_HARNESS]              # plain program with its own main()
#                      [OPTIMIZED])              # compiled at -O1: its own code dominates its runs
#
# By default a program is linked with the gtest harness (tests/mpp/mpp_main.cpp), which
# runs the tests on every PE, prints PE 0's report and the failures of every other PE, and
# exits non-zero on every PE if any PE failed.
#
#   shoal_add_mpp_runs(NAME <test base name> TARGET <executable target> NP <k...> ...)
# registers runs of an existing executable (same options as above except SOURCES, LIBS,
# DEFINES, NO_HARNESS).

set(SHOAL_TEST_TIMEOUT 120 CACHE STRING "Default timeout (seconds) of each multi-PE test")
# Sanitizer builds run several times slower (CMakePresets.json sets 3 for asan and tsan).
set(SHOAL_TEST_TIMEOUT_FACTOR 1 CACHE STRING
    "Multiplies the timeout of every run registered by shoal_add_mpp_runs")
# The type-table tests instantiate hundreds of templates: at -O2 -g they take minutes to
# compile on a 2-core machine, at -O0 -g1 a sixth of that (a third less than -Og), and the
# programs spend their time in the library, which keeps the build type's options.
set(SHOAL_TEST_COMPILE_OPTIONS "-O0;-g1" CACHE STRING
    "Compile options appended for test programs (a CMake list; empty keeps the build type's)")
# A program registered OPTIMIZED spends most of its run time in its own code, filling and
# checking data element by element through the harness's small functions: at -O0 a call each,
# at -O1 inlined, which makes such a program's runs several times cheaper in CPU for about a
# second more to compile (it cannot reuse the -O0 precompiled header).
set(SHOAL_TEST_OPTIMIZED_COMPILE_OPTIONS "-O1;-g1" CACHE STRING
    "Compile options appended for test programs registered OPTIMIZED (a CMake list)")
# Appended after either of the above for the multi-PE test programs and their harness, not for
# the unit tests (which compile library sources): how the sanitizer builds instrument the
# programs' own code. The asan preset leaves UndefinedBehaviorSanitizer out of them (their own
# arithmetic is not the library's; the library and the unit tier keep it): with AddressSanitizer
# alone, the large templated programs compile in about half the time. It also leaves out
# use-after-scope checks, which find the tests' own scoping mistakes (a library that overruns a
# test's stack buffer still hits its redzones): rma_sized_test.cpp took 19.5 s of CPU instead
# of 26.5.
set(SHOAL_TEST_PROGRAM_SANITIZE_OPTIONS "" CACHE STRING
    "Compile options appended for the multi-PE test programs in sanitizer builds (a CMake list)")
# The sanitizer presets test a sample (tests/mpp/type_lists.hpp): one row of each element shape
# of the type tables, and in-process teams of up to 8 PEs (tests/coll/inproc/harness.hpp). The
# default build tests every row, and teams of 9, 12 and 16 too.
option(SHOAL_TEST_SAMPLE "Test one type per element size and kind, and in-process teams up to 8"
       OFF)
set(SHOAL_TEST_LAUNCHER "" CACHE STRING
    "Launcher for multi-PE tests (empty: the oshrun target of this build)")
set(SHOAL_TEST_LAUNCHER_ARGS "" CACHE STRING
    "Extra launcher arguments placed before -np (a CMake list)")

# How many ctest -j slots (PROCESSORS) a test of n PEs takes. Most of a job's time is launch
# and waiting (the PEs' waits yield and nap), so two jobs side by side use two cores better than
# one alone: a test takes at most SHOAL_TEST_MAX_SLOTS slots, and `ctest -j4` (scripts/test.sh,
# the test presets) runs two multi-PE jobs at once on two cores.
set(SHOAL_TEST_MAX_SLOTS 2 CACHE STRING "Most ctest -j slots one multi-PE test takes")
function(shoal_test_slots out np)
  if(np GREATER SHOAL_TEST_MAX_SLOTS)
    set(np ${SHOAL_TEST_MAX_SLOTS})
  endif()
  set(${out} ${np} PARENT_SCOPE)
endfunction()

# The COST (ctest's start order on a build without timing data yet, a fresh clone in CI) of a
# test that holds the namespace test bed (RESOURCE_LOCK netns_test_bed). Those tests run one at
# a time, about 100 s in all: started last, as they were by default, they ran alone at the end
# of a fresh suite; started first, they run beside the others.
set(SHOAL_TEST_BED_COST 1000)

# SHOAL_TEST_SANITIZER_REPORT: a sanitizer report anywhere in a run's output fails it.
include(${CMAKE_CURRENT_LIST_DIR}/sanitizer_report.cmake)

# A run at another PE count than two, of a program that the same call also registers at two,
# gets the label `other_pe_count`, unless one of its labels is in SHOAL_PE_COUNT_AREAS. The
# default build runs every count; the asan preset leaves these runs out: AddressSanitizer checks
# the memory each code path touches, and the paths of RMA, AMOs, contexts, waits, the heap and
# the queries are the same at one, three or four PEs as at two (a PE, a peer, and itself as a
# target; the private heap of a PE whose heap no peer maps, which a 1-PE run takes, the UCX runs
# and the collectives' 1-PE runs take too), while the collectives' and teams' paths (trees,
# folds, strides, splits) change with the count. 320 s of the asan suite's 1140.
set(SHOAL_PE_COUNT_AREAS coll team active_set)
list(JOIN SHOAL_PE_COUNT_AREAS "|" SHOAL_PE_COUNT_AREAS_REGEX)

function(_shoal_test_launcher out)
  if(SHOAL_TEST_LAUNCHER)
    set(${out} "${SHOAL_TEST_LAUNCHER}" PARENT_SCOPE)
  else()
    set(${out} "$<TARGET_FILE:oshrun>" PARENT_SCOPE)
  endif()
endfunction()

function(shoal_add_mpp_runs)
  cmake_parse_arguments(PARSE_ARGV 0 A "UCX_TOO;SINGLETON" "NAME;TARGET;TIMEOUT"
                        "NP;UCX_NP;ENV;LABELS;ARGS")
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT ${SHOAL_TEST_TIMEOUT})
  endif()
  math(EXPR A_TIMEOUT "${A_TIMEOUT} * ${SHOAL_TEST_TIMEOUT_FACTOR}")
  _shoal_test_launcher(launcher)

  # UCX_TOO: the UCX runs at the PE counts of NP up to 4. At 8 PEs on 2 CPUs such a run cost
  # about twice its 4-PE run in CPU (13 programs: 72 s against 33; ctx_threads 16.7 against
  # 6.6) for no path the 4-PE run does not take: below the shared-memory switch every PE count
  # takes the same UCX code, the 8-PE shared-memory runs load the machine 4 times over, and the
  # network tier runs 6 PEs through UCX across hosts (tests/multihost/). UCX_NP 8 asks for an
  # 8-PE UCX run where the count itself matters (ctx_progress: the progress threads of 8 PEs on
  # 2 CPUs).
  if(A_UCX_TOO AND NOT A_UCX_NP)
    set(A_UCX_NP ${A_NP})
    list(FILTER A_UCX_NP EXCLUDE REGEX "^([5-9]|[1-9][0-9]+)$")
  endif()
  # No UCX run of one PE: it has no peer to reach, and no other PE maps its heap whatever
  # SMA_SHARED_MEMORY says (core/runtime.cpp), so such a run repeats the np1 run exactly.
  list(REMOVE_ITEM A_UCX_NP 1)
  set(runs)
  foreach(np IN LISTS A_NP)
    list(APPEND runs shm:${np})
  endforeach()
  foreach(np IN LISTS A_UCX_NP)
    list(APPEND runs ucx:${np})
  endforeach()
  foreach(run IN LISTS runs)
    string(REPLACE ":" ";" run "${run}")
    list(GET run 0 variant)
    list(GET run 1 np)
    if(variant STREQUAL "shm")
      set(test_name ${A_NAME}_np${np})
      set(shm_env SMA_SHARED_MEMORY=1)
    else()
      set(test_name ${A_NAME}_ucx_np${np})
      set(shm_env SMA_SHARED_MEMORY=0)
    endif()
    add_test(NAME ${test_name}
             COMMAND ${launcher} ${SHOAL_TEST_LAUNCHER_ARGS} -np ${np}
                     $<TARGET_FILE:${A_TARGET}> ${A_ARGS})
    shoal_test_slots(slots ${np})
    set(env ${shm_env} ${A_ENV})
    set(labels mpp np${np} ${variant} ${A_LABELS})
    if(variant STREQUAL "shm")
      set(counts ${A_NP})
    else()
      set(counts ${A_UCX_NP})
    endif()
    set(count_matters ${A_LABELS})
    list(FILTER count_matters INCLUDE REGEX "^(${SHOAL_PE_COUNT_AREAS_REGEX})$")
    if(NOT np EQUAL 2 AND 2 IN_LIST counts AND NOT count_matters)
      list(APPEND labels other_pe_count)
    endif()
    set_tests_properties(${test_name} PROPERTIES
      TIMEOUT ${A_TIMEOUT}
      PROCESSORS ${slots}
      ENVIRONMENT "${env}"
      LABELS "${labels}"
      FAIL_REGULAR_EXPRESSION "${SHOAL_TEST_SANITIZER_REPORT}")
  endforeach()

  if(A_SINGLETON)
    add_test(NAME ${A_NAME}_singleton COMMAND $<TARGET_FILE:${A_TARGET}> ${A_ARGS})
    set(env SHOAL_TEST_EXPECT_SINGLETON=1 ${A_ENV})
    set(labels mpp singleton ${A_LABELS})
    set_tests_properties(${A_NAME}_singleton PROPERTIES
      TIMEOUT ${A_TIMEOUT}
      ENVIRONMENT "${env}"
      LABELS "${labels}"
      FAIL_REGULAR_EXPRESSION "${SHOAL_TEST_SANITIZER_REPORT}")
  endif()
endfunction()

function(shoal_add_mpp_test)
  cmake_parse_arguments(PARSE_ARGV 0 A "UCX_TOO;SINGLETON;NO_HARNESS;OPTIMIZED" "NAME;TIMEOUT"
                        "SOURCES;NP;UCX_NP;ENV;LABELS;ARGS;LIBS;DEFINES")
  add_executable(${A_NAME} ${A_SOURCES})
  if(A_NO_HARNESS)
    target_link_libraries(${A_NAME} PRIVATE ${A_LIBS} shoal)
  else()
    target_link_libraries(${A_NAME} PRIVATE ${A_LIBS} shoal_mpp_main shoal)
  endif()
  target_include_directories(${A_NAME} PRIVATE ${SHOAL_TEST_TYPES_DIR})
  if(A_OPTIMIZED)
    target_compile_options(${A_NAME} PRIVATE ${SHOAL_TEST_OPTIMIZED_COMPILE_OPTIONS})
  else()
    target_compile_options(${A_NAME} PRIVATE ${SHOAL_TEST_COMPILE_OPTIONS})
  endif()
  target_compile_options(${A_NAME} PRIVATE ${SHOAL_TEST_PROGRAM_SANITIZE_OPTIONS})
  # A gtest program of C++ sources only parses the common headers from the harness's
  # precompiled header (tests/CMakeLists.txt), an optimized one from the same header built at
  # its options; a C source has none to reuse.
  set(not_cxx ${A_SOURCES})
  list(FILTER not_cxx EXCLUDE REGEX "\\.cpp$")
  if(NOT A_NO_HARNESS AND NOT not_cxx AND TARGET shoal_mpp_main)
    if(A_OPTIMIZED)
      target_precompile_headers(${A_NAME} REUSE_FROM shoal_mpp_pch_optimized)
    else()
      target_precompile_headers(${A_NAME} REUSE_FROM shoal_mpp_main)
    endif()
  endif()
  if(A_DEFINES)
    target_compile_definitions(${A_NAME} PRIVATE ${A_DEFINES})
  endif()

  set(forward)
  foreach(flag UCX_TOO SINGLETON)
    if(A_${flag})
      list(APPEND forward ${flag})
    endif()
  endforeach()
  if(A_TIMEOUT)
    list(APPEND forward TIMEOUT ${A_TIMEOUT})
  endif()
  if(A_UCX_NP)
    list(APPEND forward UCX_NP ${A_UCX_NP})
  endif()
  shoal_add_mpp_runs(NAME ${A_NAME} TARGET ${A_NAME} NP ${A_NP} ENV ${A_ENV}
                     LABELS ${A_LABELS} ARGS ${A_ARGS} ${forward})
endfunction()
