// Helpers for permutation tests: random tensors and permutations with fixed seeds, the
// permutation algebra (inverse, composition), an independent model of the NumPy definition,
// and mismatch reports that name the first differing element.
//
// For use by every test folder: #include "tests/runtime/permute_test_util.h"
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace gentt::test {

using Shape = std::vector<std::int64_t>;
using Perm = std::vector<int>;

inline std::int64_t element_count(std::span<const std::int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

// Bytes from a seeded engine (std::mt19937_64 is specified exactly, so tests repeat everywhere).
inline std::vector<std::byte> random_bytes(std::mt19937_64& rng, std::size_t count) {
  // Eight bytes per draw: one draw per byte was a fifth of the large-output tests' time.
  std::vector<std::byte> bytes(count);
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const std::uint64_t word = rng();
    for (std::size_t b = 0; b < 8; ++b) bytes[i + b] = static_cast<std::byte>(word >> (8 * b));  // any byte order
  }
  for (; i < count; ++i) bytes[i] = static_cast<std::byte>(rng() & 0xFF);
  return bytes;
}

inline Perm random_permutation(std::mt19937_64& rng, std::size_t rank) {
  Perm perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  // Fisher-Yates with our own draws: std::shuffle's algorithm is implementation-defined.
  for (std::size_t i = rank; i > 1; --i) std::swap(perm[i - 1], perm[rng() % i]);
  return perm;
}

// A random shape of the given rank whose element count does not exceed max_elements.
inline Shape random_shape(std::mt19937_64& rng, std::size_t rank, std::int64_t max_extent,
                          std::int64_t max_elements) {
  Shape shape(rank);
  std::int64_t count = 1;
  for (std::int64_t& extent : shape) {
    const std::int64_t limit = std::max<std::int64_t>(1, std::min(max_extent, max_elements / count));
    extent = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(limit));
    count *= extent;
  }
  return shape;
}

// inverse(p)[p[k]] = k: transposing by p and then by inverse(p) gives the input back.
inline Perm inverse(std::span<const int> perm) {
  Perm inv(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) inv[static_cast<std::size_t>(perm[k])] = static_cast<int>(k);
  return inv;
}

// transpose(transpose(a, p), q) == transpose(a, then(p, q)), with then(p, q)[k] = p[q[k]].
inline Perm then(std::span<const int> p, std::span<const int> q) {
  Perm r(q.size());
  for (std::size_t k = 0; k < q.size(); ++k) r[k] = p[static_cast<std::size_t>(q[k])];
  return r;
}

// The definition, written independently of the library: for each output linear index, decode
// the output multi-index j with division, set i[perm[k]] = j[k], encode i in the input.
inline std::vector<std::byte> model_permute(std::span<const std::byte> in, std::size_t elem_size,
                                            std::span<const std::int64_t> shape,
                                            std::span<const int> perm) {
  const std::size_t rank = shape.size();
  const std::int64_t count = element_count(shape);
  std::vector<std::byte> out(static_cast<std::size_t>(count) * elem_size);
  std::vector<std::int64_t> j(rank), i(rank);
  for (std::int64_t linear = 0; linear < count; ++linear) {
    std::int64_t rest = linear;
    for (std::size_t k = rank; k-- > 0;) {
      const std::int64_t extent = shape[static_cast<std::size_t>(perm[k])];
      j[k] = rest % extent;
      rest /= extent;
    }
    for (std::size_t k = 0; k < rank; ++k) i[static_cast<std::size_t>(perm[k])] = j[k];
    std::int64_t source = 0;
    for (std::size_t a = 0; a < rank; ++a) source = source * shape[a] + i[a];
    std::memcpy(out.data() + static_cast<std::size_t>(linear) * elem_size,
                in.data() + static_cast<std::size_t>(source) * elem_size, elem_size);
  }
  return out;
}

inline std::string to_string(std::span<const std::int64_t> values) {
  std::string text = "(";
  for (std::size_t k = 0; k < values.size(); ++k) text += (k ? "," : "") + std::to_string(values[k]);
  return text + ")";
}

inline std::string to_string(std::span<const int> values) {
  std::string text = "(";
  for (std::size_t k = 0; k < values.size(); ++k) text += (k ? "," : "") + std::to_string(values[k]);
  return text + ")";
}

// "" when expected and actual are equal; otherwise where they first differ: the linear element
// index, its multi-index in a tensor of shape out_shape, and both elements' bytes in hex.
inline std::string first_difference(std::span<const std::byte> expected,
                                    std::span<const std::byte> actual, std::size_t elem_size,
                                    std::span<const std::int64_t> out_shape) {
  if (expected.size() != actual.size()) {
    return "sizes differ: expected " + std::to_string(expected.size()) + " bytes, got " +
           std::to_string(actual.size());
  }
  if (expected.empty() || std::memcmp(expected.data(), actual.data(), expected.size()) == 0) return "";
  const auto at = std::mismatch(expected.begin(), expected.end(), actual.begin());  // they differ
  const std::size_t element = static_cast<std::size_t>(at.first - expected.begin()) / elem_size;
  Shape index(out_shape.size());
  std::int64_t rest = static_cast<std::int64_t>(element);
  for (std::size_t k = out_shape.size(); k-- > 0;) {
    index[k] = rest % out_shape[k];
    rest /= out_shape[k];
  }
  std::ostringstream text;
  const auto hex = [&](std::span<const std::byte> bytes) {
    text << std::hex;
    for (std::size_t b = 0; b < elem_size; ++b) {
      const auto value = static_cast<unsigned>(bytes[element * elem_size + b]);
      text << (value < 16 ? "0" : "") << value;
    }
    text << std::dec;
  };
  text << "first difference at element " << element << ", index " << to_string(index)
       << ": expected ";
  hex(expected);
  text << ", got ";
  hex(actual);
  return text.str();
}

}  // namespace gentt::test
