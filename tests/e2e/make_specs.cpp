// Writes the end-to-end case specs: `e2e_make_specs OUT_DIR SHARDS CASES SEED ISA [VECTOR_BITS]`
// writes OUT_DIR/cases_<i>.json for i < SHARDS, CASES random kernels for ISA in all (fixed
// seed), as ordinary gentt specs so that the real gentt-gen generates them. VECTOR_BITS (sve,
// sve2) goes into every kernel's spec and name. It also writes OUT_DIR/cases.cpp, the case list
// of the statically linked checker of cross-compiled kernels (arm_cases.h).
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/ir/random_problem.h"

namespace {

// A dtype name of the given size; opaque bytesN for the sizes without a named type, and
// sometimes for the others too (no alignment promised).
std::string dtype_for(int64_t bytes, std::mt19937_64& rng) {
  if (rng() % 4 == 0) return "bytes" + std::to_string(bytes);
  switch (bytes) {
    case 1: return rng() % 2 ? "uint8" : "int8";
    case 2: return rng() % 2 ? "float16" : "uint16";
    case 4: return rng() % 2 ? "float32" : "int32";
    case 8: return rng() % 2 ? "float64" : "complex64";
    case 16: return "complex128";
    default: return "bytes" + std::to_string(bytes);
  }
}

template <class T>
std::string join(const std::vector<T>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::cerr << "usage: e2e_make_specs OUT_DIR SHARDS CASES SEED ISA [VECTOR_BITS]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const int shards = std::atoi(argv[2]);
  const int cases = std::atoi(argv[3]);
  std::mt19937_64 rng(std::strtoull(argv[4], nullptr, 10));
  const std::string isa = argv[5];
  const int vector_bits = argc == 7 ? std::atoi(argv[6]) : 0;
  const std::string prefix = "e2e_" + isa + (vector_bits ? "_" + std::to_string(vector_bits) : "") + "_case";
  std::vector<nlohmann::ordered_json> specs(shards, {{"kernels", nlohmann::ordered_json::array()}});
  std::ostringstream declarations, table;
  for (int c = 0; c < cases; ++c) {
    const auto p = gentt::test::random_problem(rng, 16, 40000);
    nlohmann::ordered_json k;
    const std::string name = prefix + std::to_string(c);
    k["name"] = name;
    k["dtype"] = dtype_for(p.elem_bytes, rng);
    k["shape"] = p.shape;
    k["perm"] = p.perm;
    k["isa"] = isa;
    if (vector_bits) k["vector_bits"] = vector_bits;
    specs[c % shards]["kernels"].push_back(k);
    declarations << "extern \"C\" const gentt_kernel_info " << name << "_info;\n";
    table << "    {&" << name << "_info, \"" << name << "\", " << p.elem_bytes << ", {" << join(p.shape) << "}, {"
          << join(p.perm) << "}},\n";
  }
  for (int s = 0; s < shards; ++s) {
    const std::string path = dir + "/cases_" + std::to_string(s) + ".json";
    std::ofstream(path) << specs[s].dump(1) << "\n";
  }
  std::ofstream(dir + "/cases.cpp") << "// Written by e2e_make_specs: the cases of cases_*.json.\n"
                                    << "#include \"tests/e2e/arm_cases.h\"\n\n"
                                    << declarations.str() << "\nconst ArmCase kArmCases[] = {\n"
                                    << table.str() << "};\nconst int kArmCaseCount = " << cases << ";\n";
  return 0;
}
