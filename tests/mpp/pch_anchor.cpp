// The source of the object libraries whose precompiled headers other test targets reuse
// (shoal_unit_pch, shoal_mpp_pch_optimized: tests/CMakeLists.txt). It has nothing of its own.
