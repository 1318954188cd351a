// reference_permute on random cases (fixed seeds): it agrees with an independent model of the
// definition, inverse permutations undo it, and permutations compose as NumPy's do.
// Tensors live in guarded buffers, so any access outside them crashes the test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gentt/reference.h"
#include "tests/runtime/guarded_buffer.h"
#include "tests/runtime/permute_test_util.h"

namespace {

using gentt::test::GuardedBuffer;
using gentt::test::Perm;
using gentt::test::Shape;

// Element sizes: the fast paths (1, 2, 4, 8, 16) and odd sizes that must be moved as bytes.
constexpr std::size_t kElemSizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 24, 32};

struct Case {
  std::size_t elem_size;
  Shape shape;
  Perm perm;
};

Case random_case(std::mt19937_64& rng) {
  Case c;
  c.elem_size = kElemSizes[rng() % std::size(kElemSizes)];
  const std::size_t rank = rng() % 7;
  c.shape = gentt::test::random_shape(rng, rank, 9, 4096);
  c.perm = gentt::test::random_permutation(rng, rank);
  return c;
}

std::vector<std::byte> permute(const std::vector<std::byte>& in, const Case& c,
                               GuardedBuffer::Align align = GuardedBuffer::Align::end) {
  GuardedBuffer src(in.size(), align), dst(in.size(), align);
  std::copy(in.begin(), in.end(), src.data());
  gentt::reference_permute(src.data(), dst.data(), c.elem_size, c.shape, c.perm);
  return {dst.data(), dst.data() + dst.size()};
}

std::vector<std::byte> random_tensor(std::mt19937_64& rng, const Case& c) {
  return gentt::test::random_bytes(
      rng, static_cast<std::size_t>(gentt::test::element_count(c.shape)) * c.elem_size);
}

}  // namespace

TEST_CASE("reference_permute agrees with the model of the definition", "[reference][property]") {
  std::mt19937_64 rng(20240601);
  for (int trial = 0; trial < 400; ++trial) {
    const Case c = random_case(rng);
    const auto in = random_tensor(rng, c);
    INFO("trial " << trial << ": elem_size " << c.elem_size << ", shape "
                  << gentt::test::to_string(c.shape) << ", perm " << gentt::test::to_string(c.perm));
    const auto expected = gentt::test::model_permute(in, c.elem_size, c.shape, c.perm);
    const auto out_shape = gentt::permuted_shape(c.shape, c.perm);
    for (const auto align : {GuardedBuffer::Align::end, GuardedBuffer::Align::start}) {
      const std::string difference =
          gentt::test::first_difference(expected, permute(in, c, align), c.elem_size, out_shape);
      INFO(difference);
      REQUIRE(difference.empty());
    }
  }
}

TEST_CASE("permuting by the inverse permutation gives the input back", "[reference][property]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const Case c = random_case(rng);
    const auto in = random_tensor(rng, c);
    INFO("trial " << trial << ": elem_size " << c.elem_size << ", shape "
                  << gentt::test::to_string(c.shape) << ", perm " << gentt::test::to_string(c.perm));
    const Case back{c.elem_size, gentt::permuted_shape(c.shape, c.perm), gentt::test::inverse(c.perm)};
    REQUIRE(gentt::permuted_shape(back.shape, back.perm) == c.shape);
    const std::string difference =
        gentt::test::first_difference(in, permute(permute(in, c), back), c.elem_size, c.shape);
    INFO(difference);
    REQUIRE(difference.empty());
  }
}

TEST_CASE("permuting by p then q equals permuting by p[q]", "[reference][property]") {
  // np.transpose(np.transpose(a, p), q) == np.transpose(a, [p[k] for k in q]).
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const Case c = random_case(rng);
    const Perm q = gentt::test::random_permutation(rng, c.perm.size());
    const auto in = random_tensor(rng, c);
    INFO("trial " << trial << ": elem_size " << c.elem_size << ", shape "
                  << gentt::test::to_string(c.shape) << ", p " << gentt::test::to_string(c.perm)
                  << ", q " << gentt::test::to_string(q));
    const Case second{c.elem_size, gentt::permuted_shape(c.shape, c.perm), q};
    const Case composed{c.elem_size, c.shape, gentt::test::then(c.perm, q)};
    const auto out_shape = gentt::permuted_shape(composed.shape, composed.perm);
    REQUIRE(gentt::permuted_shape(second.shape, second.perm) == out_shape);
    const std::string difference = gentt::test::first_difference(
        permute(in, composed), permute(permute(in, c), second), c.elem_size, out_shape);
    INFO(difference);
    REQUIRE(difference.empty());
  }
}

TEST_CASE("high ranks and large tensors", "[reference][property]") {
  std::mt19937_64 rng(3);
  SECTION("rank 16 to 24, mostly size-1 and size-2 axes") {
    for (int trial = 0; trial < 40; ++trial) {
      Case c;
      c.elem_size = kElemSizes[rng() % std::size(kElemSizes)];
      const std::size_t rank = 16 + rng() % 9;
      c.shape = gentt::test::random_shape(rng, rank, 3, 20000);
      c.perm = gentt::test::random_permutation(rng, rank);
      const auto in = random_tensor(rng, c);
      INFO("trial " << trial << ": shape " << gentt::test::to_string(c.shape) << ", perm "
                    << gentt::test::to_string(c.perm));
      const auto expected = gentt::test::model_permute(in, c.elem_size, c.shape, c.perm);
      REQUIRE(gentt::test::first_difference(expected, permute(in, c), c.elem_size,
                                            gentt::permuted_shape(c.shape, c.perm)) == "");
    }
  }
  SECTION("a million elements, there and back") {
    const Case c{4, {64, 16, 32, 32}, {3, 1, 0, 2}};
    const auto in = random_tensor(rng, c);
    const Case back{c.elem_size, gentt::permuted_shape(c.shape, c.perm), gentt::test::inverse(c.perm)};
    REQUIRE(gentt::test::first_difference(in, permute(permute(in, c), back), c.elem_size, c.shape) == "");
  }
}
