// Writes the case list of the ARM kernel checker (arm_cases.h): a C++ file that declares each
// kernel's NAME_info and lists its problem, compiled for aarch64 and linked with the kernels.
// Used by e2e_make_specs (random cases) and by write_arm_cases (the checked-in kernels).
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gentt::test {

struct ArmCaseEntry {
  std::string name;  // the kernel's C symbol, as its spec names it
  std::int64_t elem_bytes;
  std::vector<std::int64_t> shape;
  std::vector<int> perm;
};

template <class T>
std::string join_numbers(const std::vector<T>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// Writes `path`; `origin` says in its first line what the cases are.
inline void write_arm_cases(const std::string& path, const std::vector<ArmCaseEntry>& cases,
                            const std::string& origin) {
  std::ostringstream declarations, table;
  for (const ArmCaseEntry& c : cases) {
    declarations << "extern \"C\" const gentt_kernel_info " << c.name << "_info;\n";
    table << "    {&" << c.name << "_info, \"" << c.name << "\", " << c.elem_bytes << ", {"
          << join_numbers(c.shape) << "}, {" << join_numbers(c.perm) << "}},\n";
  }
  std::ofstream(path) << "// Written by " << origin << ".\n"
                      << "#include \"tests/e2e/arm_cases.h\"\n\n"
                      << declarations.str() << "\nconst ArmCase kArmCases[] = {\n"
                      << table.str() << "};\nconst int kArmCaseCount = " << cases.size() << ";\n";
}

}  // namespace gentt::test
