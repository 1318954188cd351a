// Canonicalization: extent-1 axes dropped, adjacent axes fused. The worked examples are
// seed 002's table (its perm_idx is NumPy's axes convention).
#include <catch2/catch.hpp>

#include "ir/canonical.h"

using gentt::canonicalize;
using Shape = std::vector<int64_t>;
using Perm = std::vector<int>;

TEST_CASE("seed 002: extent-1 axes are dropped and the perm renumbered", "[canonical]") {
  // perm [2,3,5,4,1,7,0,6], shape [1,9,12,6,4,6,1,10] -> perm [1,2,4,3,0,5], shape [9,12,6,4,6,10]
  // (before fusion; 9 and 12 then stay apart since perm keeps 1,2 adjacent: they fuse).
  const auto c = canonicalize(2, Shape{1, 9, 12, 6, 4, 6, 1, 10}, Perm{2, 3, 5, 4, 1, 7, 0, 6});
  // After dropping: axes (9,12,6,4,6,10) perm (1,2,4,3,0,5); 1,2 are adjacent -> fused.
  CHECK(c.shape == Shape{9, 72, 4, 6, 10});
  CHECK(c.perm == Perm{1, 3, 2, 0, 4});
}

TEST_CASE("seed 002: consecutive permuted axes are fused", "[canonical]") {
  SECTION("[2,3,4,5,0,1,6,7] -> [1,0,2]") {
    const auto c = canonicalize(2, Shape{8, 9, 12, 6, 4, 6, 9, 10}, Perm{2, 3, 4, 5, 0, 1, 6, 7});
    CHECK(c.shape == Shape{8 * 9, 12 * 6 * 4 * 6, 9 * 10});
    CHECK(c.perm == Perm{1, 0, 2});
    CHECK(c.groups == std::vector<std::vector<int>>{{0, 1}, {2, 3, 4, 5}, {6, 7}});
  }
  SECTION("[2,3,4,5,6,7,0,1] -> [1,0]") {
    const auto c = canonicalize(2, Shape{8, 9, 12, 6, 4, 6, 9, 10}, Perm{2, 3, 4, 5, 6, 7, 0, 1});
    CHECK(c.shape == Shape{8 * 9, 12 * 6 * 4 * 6 * 9 * 10});
    CHECK(c.perm == Perm{1, 0});
  }
  SECTION("[2,3,5,4,6,7,0,1] -> [1,3,2,4,0]") {
    const auto c = canonicalize(2, Shape{8, 9, 12, 6, 4, 6, 9, 10}, Perm{2, 3, 5, 4, 6, 7, 0, 1});
    CHECK(c.shape == Shape{8 * 9, 12 * 6, 4, 6, 9 * 10});
    CHECK(c.perm == Perm{1, 3, 2, 4, 0});
  }
}

TEST_CASE("seed 002: dropping an extent-1 axis keeps the others apart", "[canonical]") {
  // perm [2,3,5,4,1,7,0,6], shape [8,9,12,6,4,6,1,10] -> drop axis 6.
  const auto c = canonicalize(2, Shape{8, 9, 12, 6, 4, 6, 1, 10}, Perm{2, 3, 5, 4, 1, 7, 0, 6});
  // Kept axes (8,9,12,6,4,6,10), perm (2,3,5,4,1,6,0): 2,3 fuse.
  CHECK(c.shape == Shape{8, 9, 12 * 6, 4, 6, 10});
  CHECK(c.perm == Perm{2, 4, 3, 1, 5, 0});
}

TEST_CASE("identity detection", "[canonical]") {
  SECTION("identity perm fuses to one axis") {
    const auto c = canonicalize(4, Shape{3, 4, 5}, Perm{0, 1, 2});
    CHECK(c.is_identity());
    CHECK(c.shape == Shape{60});
  }
  SECTION("a perm that only moves extent-1 axes is the identity") {
    const auto c = canonicalize(4, Shape{1, 7, 1, 5}, Perm{2, 1, 0, 3});
    CHECK(c.is_identity());
    CHECK(c.shape == Shape{35});
  }
  SECTION("all extents 1: one element") {
    const auto c = canonicalize(8, Shape{1, 1, 1}, Perm{2, 0, 1});
    CHECK(c.is_identity());
    CHECK(c.shape == Shape{1});
    CHECK(c.perm == Perm{0});
  }
  SECTION("a real transpose is not") {
    const auto c = canonicalize(4, Shape{3, 4}, Perm{1, 0});
    CHECK_FALSE(c.is_identity());
    CHECK(c.shape == Shape{3, 4});
    CHECK(c.perm == Perm{1, 0});
  }
}

TEST_CASE("canonical rank is minimal: no two canonical axes stay adjacent", "[canonical]") {
  const auto c = canonicalize(1, Shape{2, 3, 4, 5, 6, 7}, Perm{4, 5, 0, 1, 3, 2});
  CHECK(c.shape == Shape{6, 4, 5, 42});
  CHECK(c.perm == Perm{3, 0, 2, 1});
  for (size_t k = 1; k < c.perm.size(); ++k) CHECK(c.perm[k] != c.perm[k - 1] + 1);
}
