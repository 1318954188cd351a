// gentt NEON prelude: embedded verbatim into every generated NEON kernel file (AArch64 Advanced
// SIMD, 128-bit registers). The ARM tests compile it with aarch64-linux-gnu-g++
// (tests/e2e/arm.cmake); it needs no flags beyond the aarch64 baseline.
//
// Registers are uint8x16_t whatever the element size: a kernel moves bytes. Shuffles are one
// TBL over one or two registers with a byte index table, or, when the index list is one of
// them, a single zip1/zip2/uzp1/uzp2/trn1/trn2 at the element width W (bytes) or an EXT.
//
// NEON has no masked loads or stores. A load or store of B < 16 bytes (a tail, or a register of
// odd-sized elements such as 4 x 3 bytes) moves exactly B bytes as 8-, 4-, 2- and 1-byte scalar
// accesses assembled in a register, so nothing outside the tensor's elements is ever read or
// written (paper 000, section 5.2).
#ifndef GENTT_NEON_PRELUDE_H
#define GENTT_NEON_PRELUDE_H

#if !defined(__aarch64__)
#error "gentt NEON kernels are AArch64 code: compile them with an AArch64 compiler (e.g. aarch64-linux-gnu-g++)"
#endif
#if defined(__ARM_BIG_ENDIAN)
#error "gentt NEON kernels assume little-endian lane order (lane 0 = lowest address)"
#endif

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gentt_neon {

// Lanes 0..B-1 = the B bytes at p; lanes B..15 = 0. Reads exactly [p, p + B).
template <int B>
inline uint8x16_t load(const void* p) {
  static_assert(B >= 1 && B <= 16, "a NEON register holds 16 bytes");
  const auto* s = static_cast<const std::uint8_t*>(p);
  if constexpr (B == 16) {
    return vld1q_u8(s);
  } else if constexpr (B == 8) {
    return vcombine_u8(vld1_u8(s), vdup_n_u8(0));
  } else {
    std::uint64_t lo = 0, hi = 0;  // little-endian: byte 0 of memory is lane 0
    std::memcpy(&lo, s, B < 8 ? B : 8);
    if constexpr (B > 8) std::memcpy(&hi, s + 8, B - 8);
    return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)));
  }
}

// The B bytes at p = lanes 0..B-1 of v. Writes exactly [p, p + B).
template <int B>
inline void store(void* p, uint8x16_t v) {
  static_assert(B >= 1 && B <= 16, "a NEON register holds 16 bytes");
  auto* d = static_cast<std::uint8_t*>(p);
  if constexpr (B == 16) {
    vst1q_u8(d, v);
  } else if constexpr (B == 8) {
    vst1_u8(d, vget_low_u8(v));
  } else {
    const std::uint64_t lo = vgetq_lane_u64(vreinterpretq_u64_u8(v), 0);
    std::memcpy(d, &lo, B < 8 ? B : 8);
    if constexpr (B > 8) {
      const std::uint64_t hi = vgetq_lane_u64(vreinterpretq_u64_u8(v), 1);
      std::memcpy(d + 8, &hi, B - 8);
    }
  }
}

// Byte l of the result = byte index[l] of concat(a, b) (0..31): the IR's two-source shuffle.
inline uint8x16_t shuffle2(uint8x16_t a, uint8x16_t b, const std::uint8_t* index) {
  const uint8x16x2_t table = {{a, b}};
  return vqtbl2q_u8(table, vld1q_u8(index));
}

// Byte l of the result = byte index[l] of a (0..15): the one-source shuffle.
inline uint8x16_t shuffle1(uint8x16_t a, const std::uint8_t* index) { return vqtbl1q_u8(a, vld1q_u8(index)); }

// zip1/zip2/uzp1/uzp2/trn1/trn2 of x and y with elements of W bytes (1, 2, 4 or 8).
#define GENTT_NEON_PAIR_OP(op)                                                                            \
  template <int W>                                                                                        \
  inline uint8x16_t op(uint8x16_t x, uint8x16_t y) {                                                      \
    if constexpr (W == 1) {                                                                               \
      return v##op##q_u8(x, y);                                                                           \
    } else if constexpr (W == 2) {                                                                        \
      return vreinterpretq_u8_u16(v##op##q_u16(vreinterpretq_u16_u8(x), vreinterpretq_u16_u8(y)));        \
    } else if constexpr (W == 4) {                                                                        \
      return vreinterpretq_u8_u32(v##op##q_u32(vreinterpretq_u32_u8(x), vreinterpretq_u32_u8(y)));        \
    } else {                                                                                              \
      static_assert(W == 8, "element width 1, 2, 4 or 8 bytes");                                          \
      return vreinterpretq_u8_u64(v##op##q_u64(vreinterpretq_u64_u8(x), vreinterpretq_u64_u8(y)));        \
    }                                                                                                     \
  }
GENTT_NEON_PAIR_OP(zip1)
GENTT_NEON_PAIR_OP(zip2)
GENTT_NEON_PAIR_OP(uzp1)
GENTT_NEON_PAIR_OP(uzp2)
GENTT_NEON_PAIR_OP(trn1)
GENTT_NEON_PAIR_OP(trn2)
#undef GENTT_NEON_PAIR_OP

}  // namespace gentt_neon

#endif  // GENTT_NEON_PRELUDE_H
