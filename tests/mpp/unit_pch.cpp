// The object whose precompiled header (gtest and the standard headers) the in-process unit
// tests reuse (shoal_add_unit_test in tests/CMakeLists.txt). It has nothing of its own.
