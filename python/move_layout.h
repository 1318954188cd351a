// The unit gentt moves and the two views in that unit.
//
// NumPy strides are bytes; gentt's are elements. Most arrays have strides that are multiples of
// the item size. Those that do not (a field of a packed record, np.ndarray(buffer, offset=1,
// strides=...)), and items larger than gentt's 4096-byte limit, are moved as units of g bytes, g
// the largest common divisor of the item size and every stride (at most 4096), with one more
// innermost axis of itemsize/g units that the permutation keeps last. The bytes moved are the
// same; only conversion and scaling need whole elements.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gentt::python {

struct MoveLayout {
  std::int64_t unit_bytes = 0;  // the input's unit (the output's is the same unless converting)
  std::vector<std::int64_t> shape;  // input shape in units (one more axis when split)
  std::vector<int> perm;
  std::vector<std::int64_t> in_strides;   // units, per input axis; empty: C-contiguous
  std::vector<std::int64_t> out_strides;  // units, per output axis; empty: C-contiguous
};

// in_bytes: the input's byte strides (per input axis), out_bytes: the output's (per output
// axis); nullopt: C-contiguous. shape has every extent >= 1.
// whole_elements (conversion, scaling): the unit is the element on each side (in_itemsize in,
// out_itemsize out); callers have checked strides_divisible. Otherwise the item sizes are equal
// and the unit may be a part of an item, as above.
MoveLayout move_layout(std::int64_t in_itemsize, std::int64_t out_itemsize, const std::vector<std::int64_t>& shape,
                       const std::vector<int>& perm, const std::optional<std::vector<std::int64_t>>& in_bytes,
                       const std::optional<std::vector<std::int64_t>>& out_bytes, bool whole_elements);

// Whether every stride of an axis longer than 1 is a multiple of itemsize.
bool strides_divisible(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                       std::int64_t itemsize);

// The C-contiguous byte strides of a shape.
std::vector<std::int64_t> contiguous_byte_strides(const std::vector<std::int64_t>& shape, std::int64_t itemsize);

// Whether two stride lists describe the same layout of `shape` (strides of axes of extent 1 do
// not matter, as for NumPy's contiguity flags).
bool same_layout(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& a,
                 const std::vector<std::int64_t>& b);

}  // namespace gentt::python
