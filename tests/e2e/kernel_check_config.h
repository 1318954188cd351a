// What one kernel-check test checks (tests/e2e/kernel_check_test.cpp, compiled once): defined
// by the file gentt_kernel_check() generates for each test (tests/CMakeLists.txt).
#pragma once

extern const char* const gentt_kernel_module;  // path of the module of compiled kernels (dlopen)
extern const char* const gentt_kernel_specs;   // the spec files, separated by '|'
extern const bool gentt_kernel_emulated;       // true: the kernels run on any CPU (emulation header)
