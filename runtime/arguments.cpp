#include "gentt/arguments.h"

#include <limits>
#include <string>
#include <vector>

#include "gentt/error.h"

namespace gentt {
namespace {

std::string count(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void check_axis_count(std::size_t entries, std::size_t rank) {
  if (entries != rank) {
    throw Error("perm", "has " + count(entries, "entry", "entries") + " but shape has " +
                            count(rank, "axis", "axes"));
  }
}

}  // namespace

void check_permutation(std::span<const int> perm, std::size_t rank) {
  check_axis_count(perm.size(), rank);
  std::vector<bool> seen(rank, false);
  for (std::size_t k = 0; k < perm.size(); ++k) {
    const int axis = perm[k];
    if (axis < 0 || static_cast<std::size_t>(axis) >= rank) {
      throw Error("perm[" + std::to_string(k) + "]", "axis " + std::to_string(axis) +
                                                         " is out of range for " +
                                                         count(rank, "axis", "axes"));
    }
    if (seen[static_cast<std::size_t>(axis)]) {
      throw Error("perm", "axis " + std::to_string(axis) + " appears twice");
    }
    seen[static_cast<std::size_t>(axis)] = true;
  }
}

std::int64_t check_permute_arguments(std::size_t elem_size, std::span<const std::int64_t> shape,
                                     std::span<const int> perm) {
  if (elem_size < 1) throw Error("elem_size", "must be >= 1");
  check_axis_count(perm.size(), shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] < 1) {
      throw Error("shape[" + std::to_string(a) + "]",
                  "extent must be >= 1, got " + std::to_string(shape[a]));
    }
  }
  check_permutation(perm, shape.size());

  // Offsets inside the tensors are int64_t byte counts, so the whole tensor must fit in one.
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const auto overflow = [] { return Error("shape", "element count * elem_size overflows 64 bits"); };
  if (elem_size > static_cast<std::uint64_t>(kMax)) throw overflow();
  std::int64_t bytes = static_cast<std::int64_t>(elem_size);
  for (const std::int64_t extent : shape) {
    if (bytes > kMax / extent) throw overflow();
    bytes *= extent;
  }
  return bytes;
}

void check_buffers(const void* src, const void* dst, std::int64_t bytes) {
  if (src == nullptr) throw Error("src", "must not be null");
  if (dst == nullptr) throw Error("dst", "must not be null");
  // Compared as addresses: relational operators on pointers into different objects are unspecified.
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  const auto n = static_cast<std::uintptr_t>(bytes);
  if (d < s + n && s < d + n) throw Error("dst", "overlaps src");
}

}  // namespace gentt
