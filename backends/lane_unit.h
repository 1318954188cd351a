// How a SIMD backend moves elements of any size: as whole-register "units" of 1, 2, 4 or 8
// bytes (the widest that divides the element size), each element being `per_elem` units.
// Native sizes (1, 2, 4, 8 bytes) are one unit per element; 16-byte elements are two 8-byte
// units; odd sizes (3, 5, 7) are bytes, 6 is three 2-byte units, 12 three 4-byte units.
// The IR's element-level shuffle indices and masks are expanded to units here, once, for all
// backends.
#pragma once

#include <cstdint>
#include <vector>

namespace gentt {

struct LaneUnit {
  int bytes = 1;       // unit size: 1, 2, 4 or 8
  int per_elem = 1;    // units per element
  int per_reg = 1;     // units per vector register

  static LaneUnit choose(int64_t elem_bytes, int register_bytes);
  // Unit indices of a two-source shuffle: element index i (-1 don't care) of `lanes` lanes
  // becomes per_elem unit indices; b's units start at per_reg. Units past the last lane, and
  // don't-care lanes, get `dont_care` (0: any valid index, for tables; -1 keeps them marked).
  std::vector<int> expand_index(const std::vector<int>& index, int lanes, int dont_care = 0) const;
  // Bit mask of the units of the first `count` elements.
  uint64_t mask(int count) const;
  bool full(int count, int lanes) const { return count == lanes && lanes * per_elem == per_reg; }
};

// A shuffle in the widest unit that keeps it exact: when every group of G consecutive lanes
// takes G consecutive, G-aligned lanes of one source (don't-cares fit anything), the shuffle
// moves units of G elements. Byte and word permutes cost more than dword and qword ones on
// AVX-512 (vpermt2b/w: three uops; vpermt2d/q: one), so this matters for 1- and 2-byte
// elements. `index` is the IR's element index list (kernel.h); the result's `index` is in
// units of `unit.bytes` (per_reg entries; b's units from per_reg on; don't-cares 0).
struct WideShuffle {
  LaneUnit unit;
  std::vector<int> index;
};
WideShuffle widest_shuffle(const std::vector<int>& index, int lanes, int64_t elem_bytes, int register_bytes);

}  // namespace gentt
