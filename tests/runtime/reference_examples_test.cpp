// reference_permute and permuted_shape on small cases whose answers are written out by hand.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "gentt/reference.h"

namespace {

using Shape = std::vector<std::int64_t>;
using Perm = std::vector<int>;

// Permutes the tensor holding 0, 1, 2, ... (as T) and returns the output values.
template <typename T>
std::vector<T> permute_iota(const Shape& shape, const Perm& perm) {
  std::int64_t count = 1;
  for (const std::int64_t extent : shape) count *= extent;
  std::vector<T> in(static_cast<std::size_t>(count));
  std::iota(in.begin(), in.end(), T{0});
  std::vector<T> out(in.size(), T{99});
  gentt::reference_permute(in.data(), out.data(), sizeof(T), shape, perm);
  return out;
}

}  // namespace

TEST_CASE("2x3 matrix transpose", "[reference]") {
  // [[0 1 2]      [[0 3]
  //  [3 4 5]]  ->  [1 4]
  //                [2 5]]
  CHECK(permute_iota<std::int32_t>({2, 3}, {1, 0}) == std::vector<std::int32_t>{0, 3, 1, 4, 2, 5});
  CHECK(permute_iota<std::uint8_t>({3, 2}, {1, 0}) == std::vector<std::uint8_t>{0, 2, 4, 1, 3, 5});
}

TEST_CASE("rank-3 permutations follow the NumPy axes convention", "[reference]") {
  // out[a, b, c] = in[i] with i[perm[k]] = j[k].
  // perm (2,0,1): out[a,b,c] = in[b,c,a] = 4b + 2c + a.
  CHECK(permute_iota<std::int16_t>({2, 2, 2}, {2, 0, 1}) ==
        std::vector<std::int16_t>{0, 2, 4, 6, 1, 3, 5, 7});
  // perm (1,2,0): out[a,b,c] = in[c,a,b] = 4c + 2a + b.
  CHECK(permute_iota<std::int16_t>({2, 2, 2}, {1, 2, 0}) ==
        std::vector<std::int16_t>{0, 4, 1, 5, 2, 6, 3, 7});
  // np.transpose(np.arange(24).reshape(2,3,4), (2,0,1)): output shape (4,2,3).
  CHECK(permute_iota<std::int64_t>({2, 3, 4}, {2, 0, 1}) ==
        std::vector<std::int64_t>{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                                  2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23});
}

TEST_CASE("an unchanged inner axis moves whole rows", "[reference]") {
  // (2,2,3) with perm (1,0,2): the 3-element rows [i][j] are reordered to [j][i].
  CHECK(permute_iota<float>({2, 2, 3}, {1, 0, 2}) ==
        std::vector<float>{0, 1, 2, 6, 7, 8, 3, 4, 5, 9, 10, 11});
}

TEST_CASE("size-1 axes", "[reference]") {
  CHECK(permute_iota<std::int32_t>({3, 1, 2}, {2, 1, 0}) == std::vector<std::int32_t>{0, 2, 4, 1, 3, 5});
  // Moving only size-1 axes leaves the bytes in place.
  CHECK(permute_iota<std::int32_t>({1, 3}, {1, 0}) == std::vector<std::int32_t>{0, 1, 2});
  CHECK(permute_iota<double>({1, 1, 1}, {2, 0, 1}) == std::vector<double>{0});
}

TEST_CASE("identity permutations copy", "[reference]") {
  CHECK(permute_iota<std::int32_t>({2, 3, 2}, {0, 1, 2}) ==
        std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(permute_iota<std::uint16_t>({5}, {0}) == std::vector<std::uint16_t>{0, 1, 2, 3, 4});
}

TEST_CASE("rank 0 copies one element, like a NumPy scalar", "[reference]") {
  const std::array<unsigned char, 3> in{0x12, 0x34, 0x56};
  std::array<unsigned char, 4> out{0, 0, 0, 0xEE};
  gentt::reference_permute(in.data(), out.data(), 3, {}, {});
  CHECK(out == std::array<unsigned char, 4>{0x12, 0x34, 0x56, 0xEE});
}

TEST_CASE("odd element sizes move whole elements", "[reference]") {
  // Four 3-byte elements "abc" "def" / "ghi" "jkl" in a 2x2 matrix.
  const std::string in = "abcdefghijkl";
  std::string out(in.size(), '.');
  gentt::reference_permute(in.data(), out.data(), 3, std::vector<std::int64_t>{2, 2},
                           std::vector<int>{1, 0});
  CHECK(out == "abcghidefjkl");

  // 5-byte elements, 2x3 -> 3x2.
  const std::string in5 = "AAAAABBBBBCCCCCDDDDDEEEEEFFFFF";
  std::string out5(in5.size(), '.');
  gentt::reference_permute(in5.data(), out5.data(), 5, std::vector<std::int64_t>{2, 3},
                           std::vector<int>{1, 0});
  CHECK(out5 == "AAAAADDDDDBBBBBEEEEECCCCCFFFFF");
}

TEST_CASE("16-byte elements", "[reference]") {
  struct Pair {
    std::uint64_t lo, hi;
    bool operator==(const Pair&) const = default;
  };
  const std::vector<Pair> in{{0, 10}, {1, 11}, {2, 12}, {3, 13}, {4, 14}, {5, 15}};
  std::vector<Pair> out(in.size());
  gentt::reference_permute(in.data(), out.data(), sizeof(Pair), std::vector<std::int64_t>{3, 2},
                           std::vector<int>{1, 0});
  CHECK(out == std::vector<Pair>{{0, 10}, {2, 12}, {4, 14}, {1, 11}, {3, 13}, {5, 15}});
}

TEST_CASE("float bit patterns are preserved", "[reference]") {
  // A signalling NaN, a NaN with a payload, -0.0 and +inf, as raw bits: copying through a
  // floating-point register could quiet the signalling NaN; moving bytes must not.
  const std::vector<std::uint32_t> bits{0x7F800001u, 0xFFC12345u, 0x80000000u, 0x7F800000u};
  std::vector<float> in(bits.size()), out(bits.size());
  std::memcpy(in.data(), bits.data(), bits.size() * sizeof(float));
  gentt::reference_permute(in.data(), out.data(), sizeof(float), std::vector<std::int64_t>{2, 2},
                           std::vector<int>{1, 0});
  std::vector<std::uint32_t> out_bits(bits.size());
  std::memcpy(out_bits.data(), out.data(), bits.size() * sizeof(float));
  CHECK(out_bits == std::vector<std::uint32_t>{0x7F800001u, 0x80000000u, 0xFFC12345u, 0x7F800000u});
}

TEST_CASE("permuted_shape", "[reference]") {
  CHECK(gentt::permuted_shape(std::vector<std::int64_t>{2, 3, 4}, std::vector<int>{2, 0, 1}) ==
        std::vector<std::int64_t>{4, 2, 3});
  CHECK(gentt::permuted_shape(std::vector<std::int64_t>{7}, std::vector<int>{0}) ==
        std::vector<std::int64_t>{7});
  CHECK(gentt::permuted_shape({}, {}).empty());
}
