// Where the bytes of an IR value sit in its AVX2 register. Most values use the IR's own order
// (byte j of the value in register byte j). A load or store of 16 to 31 bytes can instead move
// two overlapping 16-byte halves, bytes [0, 16) and [n - 16, n): no mask, nothing touched
// past byte n, and often no cross-half permute afterwards, since the high half then starts
// n - 16 bytes in (the "halves" layout). Shuffles read and write values through their layouts:
// the IR's logical byte map is composed with them into the register byte map that gets lowered.
#pragma once

#include <array>

#include "backends/avx2_shuffle.h"

namespace gentt {

struct Avx2Layout {
  int halves_bytes = 0;  // 0: the IR's order; 16..31: the halves layout of that many bytes

  static Avx2Layout natural() { return {}; }
  static Avx2Layout halves(int bytes);
  bool operator==(const Avx2Layout&) const = default;

  // The value byte held by register byte p (-1: none, the register byte is junk).
  int byte_at(int p) const;
  // The register byte holding value byte j, preferring register half `half` when j is in both
  // (-1: not held).
  int position_of(int j, int half) const;
};

// The register byte map of a shuffle: `logical` is the IR's byte map (avx2_byte_map) of
// concat(a, b) into the result, and the three values have the given layouts.
Avx2ByteMap avx2_register_map(const Avx2ByteMap& logical, const Avx2Layout& a, const Avx2Layout& b,
                              const Avx2Layout& result);

}  // namespace gentt
