// A lowered kernel run through the interpreter in a random number of parts, in random order,
// against the reference permutation: shared by the property tests of tiling and loop orders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "gentt/reference.h"
#include "ir/interpret.h"
#include "ir/kernel.h"
#include "tests/ir/random_problem.h"

namespace gentt::test {

// True when k, run as 1-5 parts in shuffled order on random input, writes what the reference does.
inline bool parts_match_reference(const Kernel& k, std::mt19937_64& rng, int64_t elem_bytes,
                                  const std::vector<int64_t>& shape, const std::vector<int>& perm) {
  const int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  const auto in = random_bytes(rng, static_cast<size_t>(n * elem_bytes));
  std::vector<unsigned char> want(in.size()), got(in.size(), 0xEE);
  reference_permute(in.data(), want.data(), elem_bytes, shape, perm);
  const int parts = 1 + static_cast<int>(rng() % 5);
  std::vector<int> order(static_cast<size_t>(parts));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (int part : order) interpret_part(k, in.data(), got.data(), part, parts);
  return got == want;
}

}  // namespace gentt::test
