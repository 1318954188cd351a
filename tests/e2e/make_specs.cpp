// Writes the end-to-end case specs: `e2e_make_specs OUT_DIR SHARDS CASES SEED ISA` writes
// OUT_DIR/cases_<i>.json for i < SHARDS, CASES random kernels for ISA in all (fixed seed), as
// ordinary gentt specs so that the real gentt-gen generates them.
#include <cstdlib>
#include <fstream>
#include <iostream>
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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: e2e_make_specs OUT_DIR SHARDS CASES SEED ISA\n";
    return 2;
  }
  const std::string dir = argv[1];
  const int shards = std::atoi(argv[2]);
  const int cases = std::atoi(argv[3]);
  std::mt19937_64 rng(std::strtoull(argv[4], nullptr, 10));
  std::vector<nlohmann::ordered_json> specs(shards, {{"kernels", nlohmann::ordered_json::array()}});
  for (int c = 0; c < cases; ++c) {
    const auto p = gentt::test::random_problem(rng, 16, 40000);
    nlohmann::ordered_json k;
    k["name"] = std::string("e2e_") + argv[5] + "_case" + std::to_string(c);
    k["dtype"] = dtype_for(p.elem_bytes, rng);
    k["shape"] = p.shape;
    k["perm"] = p.perm;
    k["isa"] = argv[5];
    specs[c % shards]["kernels"].push_back(k);
  }
  for (int s = 0; s < shards; ++s) {
    const std::string path = dir + "/cases_" + std::to_string(s) + ".json";
    std::ofstream(path) << specs[s].dump(1) << "\n";
  }
  return 0;
}
