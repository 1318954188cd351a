// gentt common prelude: what every generated kernel file needs whatever its ISA.
// Embedded verbatim into generated files; compiled on its own by templates/compile_check.cpp.
#ifndef GENTT_COMMON_PRELUDE_H
#define GENTT_COMMON_PRELUDE_H

#include <cstdint>

// First flat iteration of part `part` of `nparts` over `total` iterations. Parts are balanced
// (sizes differ by at most one), disjoint, and cover [0, total): the IR's partition rule.
static inline std::int64_t gentt_part_begin(std::int64_t total, std::int64_t part, std::int64_t nparts) {
  return (total / nparts) * part + (part < total % nparts ? part : total % nparts);
}

// An opaque element of N bytes with alignment 1: odd sizes, bytesN, 16-byte complex, and the
// pointer type of SIMD kernels (which move bits, never values).
template <int N>
struct gentt_bytes {
  unsigned char b[N];
};

#endif  // GENTT_COMMON_PRELUDE_H
