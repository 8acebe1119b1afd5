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
