# shoal_leak_check_full_stacks(<test>...): in an asan build, these tests' processes record
# every allocation's whole stack (fast_unwind_on_malloc=0) and match the leaks PMIx leaves
# against lsan_full_stacks.supp, which names PMIx's own functions (so they symbolize, which
# the other asan runs do not: scripts/sanitizers/README.md). Every other asan run records
# stacks with the fast unwinder, which stops inside PMIx (no frame pointers), and suppresses
# any leak with a PMIx frame (lsan.supp); these runs catch what that hides, memory PMIx hands
# to Shoal (PMIx_Get's values, say) that Shoal never frees. The slow unwinder costs about
# 0.15 s of CPU per process, so only runs that take each of Shoal's PMIx paths use it
# (scripts/sanitizers/README.md). Call it in the directory that adds the tests.
function(shoal_leak_check_full_stacks)
  if(NOT SHOAL_SANITIZE MATCHES "address")
    return()
  endif()
  set(supp ${PROJECT_SOURCE_DIR}/scripts/sanitizers/lsan_full_stacks.supp)
  # Later settings override earlier ones, those of the preset's variables included.
  set_tests_properties(${ARGN} PROPERTIES ENVIRONMENT_MODIFICATION
    "ASAN_OPTIONS=string_append::fast_unwind_on_malloc=0:symbolize=1;LSAN_OPTIONS=string_append::suppressions=${supp}")
endfunction()

# The asan test preset runs every test with copies of the sanitizer runtimes (libasan,
# libubsan) that have no debug information: <build>/sanitizer-runtime, first on
# LD_LIBRARY_PATH (CMakePresets.json). At the exit of each process LeakSanitizer matches every
# leak PMIx leaves against the suppressions (scripts/sanitizers/lsan.supp), which symbolizes
# its stack, the runtime's own malloc frame first; reading the runtime's DWARF (5 MB in GCC
# 12's libasan) for that was most of the 0.45 s a 2-PE job spent on leak checking. The
# reports are the same, except that the runtime's own frames name no source line.
if(NOT SHOAL_SANITIZE MATCHES "address" OR NOT CMAKE_OBJCOPY)
  return()
endif()
set(SHOAL_SANITIZER_RUNTIME_DIR ${PROJECT_BINARY_DIR}/sanitizer-runtime)
file(MAKE_DIRECTORY ${SHOAL_SANITIZER_RUNTIME_DIR})
foreach(runtime asan ubsan)
  # lib<runtime>.so, the compiler's link to the runtime, is named after its soname
  # (../../../x86_64-linux-gnu/libasan.so.8), the name the programs load it by.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=lib${runtime}.so
                  OUTPUT_VARIABLE link OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_SYMLINK "${link}")
    continue()
  endif()
  file(READ_SYMLINK ${link} soname)
  get_filename_component(soname ${soname} NAME)
  file(REAL_PATH ${link} library)
  execute_process(COMMAND ${CMAKE_OBJCOPY} --strip-debug ${library}
                          ${SHOAL_SANITIZER_RUNTIME_DIR}/${soname}
                  RESULT_VARIABLE failed)
  if(failed)
    message(WARNING "Shoal: could not copy ${library} without its debug information: the asan "
                    "tests use it as it is (slower leak checks)")
    file(REMOVE ${SHOAL_SANITIZER_RUNTIME_DIR}/${soname})
  endif()
endforeach()
