// The case list of the ARM kernel checker (arm_kernel_check.cpp): e2e_make_specs writes
// <dir>/cases.cpp defining it for the kernels of <dir>/cases_*.json, which are linked in
// statically (no dlopen on the cross-compiled side).
#pragma once

#include <cstdint>
#include <vector>

#include "gentt/kernel_info.h"

struct ArmCase {
  const gentt_kernel_info* info;  // the kernel's NAME_info
  const char* name;               // as the spec names it
  long long elem_bytes;           // the spec's problem, checked against the descriptor
  std::vector<std::int64_t> shape;
  std::vector<int> perm;
};

extern const ArmCase kArmCases[];
extern const int kArmCaseCount;
