#include "python/move_layout.h"

#include <cstdlib>
#include <numeric>

#include "ir/problem.h"

namespace gentt::python {

namespace {

std::vector<std::int64_t> out_shape_of(const std::vector<std::int64_t>& shape, const std::vector<int>& perm) {
  std::vector<std::int64_t> out(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) out[k] = shape[static_cast<std::size_t>(perm[k])];
  return out;
}

// gcd(g, |stride| of every axis longer than 1).
std::int64_t common_unit(const std::vector<std::int64_t>& shape,
                         const std::optional<std::vector<std::int64_t>>& strides, std::int64_t g) {
  if (!strides) return g;
  for (std::size_t a = 0; a < shape.size(); ++a)
    if (shape[a] > 1) g = std::gcd(g, std::llabs((*strides)[a]));
  return g;
}

// Strides in units, or empty when they are C-contiguous for `shape`.
std::vector<std::int64_t> unit_strides(const std::vector<std::int64_t>& shape, std::vector<std::int64_t> strides) {
  std::vector<std::int64_t> dense(shape.size(), 1);
  for (int a = static_cast<int>(shape.size()) - 2; a >= 0; --a) dense[a] = dense[a + 1] * shape[a + 1];
  if (same_layout(shape, strides, dense)) return {};
  return strides;
}

}  // namespace

std::vector<std::int64_t> contiguous_byte_strides(const std::vector<std::int64_t>& shape, std::int64_t itemsize) {
  std::vector<std::int64_t> s(shape.size(), itemsize);
  for (int a = static_cast<int>(shape.size()) - 2; a >= 0; --a) s[a] = s[a + 1] * shape[a + 1];
  return s;
}

bool same_layout(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& a,
                 const std::vector<std::int64_t>& b) {
  if (a.size() != shape.size() || b.size() != shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 1 && a[i] != b[i]) return false;
  return true;
}

bool strides_divisible(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                       std::int64_t itemsize) {
  for (std::size_t a = 0; a < shape.size(); ++a)
    if (shape[a] > 1 && strides[a] % itemsize != 0) return false;
  return true;
}

MoveLayout move_layout(std::int64_t in_itemsize, std::int64_t out_itemsize, const std::vector<std::int64_t>& shape,
                       const std::vector<int>& perm, const std::optional<std::vector<std::int64_t>>& in_bytes,
                       const std::optional<std::vector<std::int64_t>>& out_bytes, bool whole_elements) {
  const std::vector<std::int64_t> out_shape = out_shape_of(shape, perm);
  std::int64_t in_unit = in_itemsize, out_unit = out_itemsize;
  if (!whole_elements) {
    std::int64_t g = common_unit(shape, in_bytes, in_itemsize);
    g = common_unit(out_shape, out_bytes, g);
    // The largest divisor of g that gentt takes as an element (kMaxElemBytes).
    in_unit = g;
    if (in_unit > kMaxElemBytes)
      for (in_unit = kMaxElemBytes; g % in_unit != 0; --in_unit) {
      }
    out_unit = in_unit;
  }

  MoveLayout m;
  m.unit_bytes = in_unit;
  m.shape = shape;
  m.perm = perm;
  std::vector<std::int64_t> in = in_bytes ? *in_bytes : contiguous_byte_strides(shape, in_itemsize);
  std::vector<std::int64_t> out = out_bytes ? *out_bytes : contiguous_byte_strides(out_shape, out_itemsize);
  for (auto& s : in) s /= in_unit;
  for (auto& s : out) s /= out_unit;
  std::vector<std::int64_t> unit_out_shape = out_shape;
  if (in_unit != in_itemsize) {
    // Each item becomes itemsize/unit consecutive units on an innermost axis kept in place.
    m.shape.push_back(in_itemsize / in_unit);
    unit_out_shape.push_back(in_itemsize / in_unit);
    m.perm.push_back(static_cast<int>(shape.size()));
    in.push_back(1);
    out.push_back(1);
  }
  m.in_strides = unit_strides(m.shape, std::move(in));
  m.out_strides = unit_strides(unit_out_shape, std::move(out));
  return m;
}

}  // namespace gentt::python
