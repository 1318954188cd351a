#include "backends/lane_unit.h"

#include "ir/error.h"

namespace gentt {

LaneUnit LaneUnit::choose(int64_t elem_bytes, int register_bytes) {
  GENTT_CHECK(elem_bytes >= 1 && elem_bytes <= register_bytes, "element does not fit a register");
  LaneUnit u;
  for (int b : {8, 4, 2, 1}) {
    if (elem_bytes % b == 0) {
      u.bytes = b;
      break;
    }
  }
  u.per_elem = static_cast<int>(elem_bytes / u.bytes);
  u.per_reg = register_bytes / u.bytes;
  return u;
}

std::vector<int> LaneUnit::expand_index(const std::vector<int>& index, int lanes, int dont_care) const {
  std::vector<int> units(per_reg, dont_care);
  for (int l = 0; l < lanes; ++l) {
    const int i = index[l];
    if (i < 0) continue;
    const int source_base = i < lanes ? 0 : per_reg;
    const int elem = i % lanes;
    for (int j = 0; j < per_elem; ++j) units[l * per_elem + j] = source_base + elem * per_elem + j;
  }
  return units;
}

WideShuffle widest_shuffle(const std::vector<int>& index, int lanes, int64_t elem_bytes, int register_bytes) {
  const LaneUnit base = LaneUnit::choose(elem_bytes, register_bytes);
  const bool power_of_two = (elem_bytes & (elem_bytes - 1)) == 0;
  if (power_of_two && lanes * elem_bytes == register_bytes) {
    for (int unit_bytes : {8, 4, 2}) {
      if (unit_bytes <= base.bytes || unit_bytes < elem_bytes) continue;
      const int g = static_cast<int>(unit_bytes / elem_bytes);  // elements per unit
      const int groups = lanes / g;
      std::vector<int> units(groups, 0);
      bool ok = true;
      for (int q = 0; q < groups && ok; ++q) {
        bool defined = false;
        int first = 0;  // the source element of the group's lane 0, from any defined lane
        for (int j = 0; j < g && ok; ++j) {
          const int i = index[q * g + j];
          if (i < 0) continue;
          if (!defined) first = i - j;  // may be negative: then not on a unit boundary
          defined = true;
          ok = i == first + j;
        }
        if (!ok || !defined) continue;
        // The group must lie within one source and start on a unit boundary.
        ok = first % g == 0 && first % lanes + g <= lanes;
        units[q] = first < lanes ? first / g : groups + (first - lanes) / g;
      }
      if (ok) {
        LaneUnit u;
        u.bytes = unit_bytes;
        u.per_elem = 1;  // not meaningful: an element is part of a unit
        u.per_reg = register_bytes / unit_bytes;
        return {u, units};
      }
    }
  }
  return {base, base.expand_index(index, lanes)};
}

uint64_t LaneUnit::mask(int count) const {
  const int bits = count * per_elem;
  GENTT_CHECK(bits <= 64, "mask wider than 64 units");
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

}  // namespace gentt
