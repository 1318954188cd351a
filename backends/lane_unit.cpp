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

std::vector<int> LaneUnit::expand_index(const std::vector<int>& index, int lanes) const {
  std::vector<int> units(per_reg, 0);
  for (int l = 0; l < lanes; ++l) {
    const int i = index[l];
    if (i < 0) continue;
    const int source_base = i < lanes ? 0 : per_reg;
    const int elem = i % lanes;
    for (int j = 0; j < per_elem; ++j) units[l * per_elem + j] = source_base + elem * per_elem + j;
  }
  return units;
}

uint64_t LaneUnit::mask(int count) const {
  const int bits = count * per_elem;
  GENTT_CHECK(bits <= 64, "mask wider than 64 units");
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

}  // namespace gentt
