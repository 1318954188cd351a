// Random permutation problems with fixed seeds, shared by the property tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace gentt::test {

struct RandomProblem {
  std::vector<int64_t> shape;
  std::vector<int> perm;
  int64_t elem_bytes = 4;
};

// Rank 1..max_rank; extents mostly small (1-5), sometimes up to 70, total elements
// <= max_elements; element sizes from the usual ones and odd ones.
inline RandomProblem random_problem(std::mt19937_64& rng, int max_rank, int64_t max_elements) {
  RandomProblem p;
  const int rank = 1 + static_cast<int>(rng() % max_rank);
  int64_t total = 1;
  for (int a = 0; a < rank; ++a) {
    const int kind = static_cast<int>(rng() % 6);
    int64_t n = kind == 0 ? 1 : kind < 4 ? 1 + static_cast<int64_t>(rng() % 5) : 1 + static_cast<int64_t>(rng() % 70);
    if (total * n > max_elements) n = 1;
    total *= n;
    p.shape.push_back(n);
  }
  p.perm.resize(rank);
  std::iota(p.perm.begin(), p.perm.end(), 0);
  std::shuffle(p.perm.begin(), p.perm.end(), rng);
  static const int64_t sizes[] = {1, 2, 4, 8, 16, 3, 5, 6, 7, 12};
  p.elem_bytes = sizes[rng() % std::size(sizes)];
  return p;
}

inline std::vector<unsigned char> random_bytes(std::mt19937_64& rng, size_t n) {
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  return v;
}

}  // namespace gentt::test
