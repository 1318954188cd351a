// gentt's Sunway emulation: the swgcc SIMD types and intrinsics that gentt's generated Sunway
// kernels use, in portable C++, so that those kernels compile and run on any machine (gentt's
// tests run them on x86, bit for bit against the reference). Generated Sunway files include
// <simd.h> when a Sunway compiler builds them (__sw_64__ or __sw_slave__) and this header
// otherwise. It is header-only and needs nothing but the C++ standard library.
//
// Only what generated code uses is defined, with the semantics pinned down in gentt's ISA
// notes; nothing speculative (no arithmetic, no other shuffles, no floatv4/floatv8 whose
// register format is not a plain bit copy of memory):
//
//   type        chip          register
//   intv16      SW26010-Pro   512 bits = 16 32-bit words
//   doublev4    SW26010       256 bits = 4 64-bit lanes
//
//   simd_load(v, p)  / simd_loadu(v, p)    v = the register's bytes at p (aligned / any address)
//   simd_store(v, p) / simd_storeu(v, p)   the register's bytes to p     (aligned / any address)
//   simd_vshfw(a, b, ctl)                  word shuffle of two intv16 (SW26010-Pro)
//   simd_vshff(hi, lo, imm)                lane shuffle of two doublev4 (SW26010)
//
// Lane numbering: lane 0 is the lowest address, as on the hardware (little-endian): a load
// puts the 4 (8) bytes at p + 4*i (p + 8*i) in word (lane) i.
//
// Registers are bit containers: lanes are never interpreted as numbers, so every bit pattern
// (NaN payloads, signalling NaNs, -0.0) moves unchanged, as a pure permute does on hardware.
//
// Alignment: simd_load / simd_store need an address aligned to the register size (64 bytes
// for intv16, 32 for doublev4). What misaligned aligned-forms do on hardware is not pinned
// down, so the emulation refuses them (prints and aborts) instead of guessing; generated
// kernels use the aligned forms only on their own aligned constants and stack buffers.
#ifndef GENTT_SUNWAY_EMU_H
#define GENTT_SUNWAY_EMU_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// The types are plain structs without the hardware's register alignment (over-aligned
// by-value parameters only earn ABI notes from GCC; nothing here depends on alignment).
// SW26010-Pro: 16 32-bit words; w[i] is word i (lane 0 = lowest address).
struct intv16 {
  std::int32_t w[16];
};

// SW26010: 4 64-bit lanes, kept as bits (never as double values); d[i] is lane i.
struct doublev4 {
  std::uint64_t d[4];
};

namespace gentt_sunway_emu {

template <class V>
inline void require_aligned(const void* p, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(p) % sizeof(V) != 0) {
    std::fprintf(stderr, "gentt Sunway emulation: %s of a %zu-byte register at %p is not %zu-byte aligned\n",
                 what, sizeof(V), p, sizeof(V));
    std::abort();
  }
}

// Unaligned forms: exactly sizeof(V) bytes from / to p, nothing else.
inline void loadu(intv16& v, const void* p) { std::memcpy(v.w, p, sizeof v.w); }
inline void loadu(doublev4& v, const void* p) { std::memcpy(v.d, p, sizeof v.d); }
inline void storeu(const intv16& v, void* p) { std::memcpy(p, v.w, sizeof v.w); }
inline void storeu(const doublev4& v, void* p) { std::memcpy(p, v.d, sizeof v.d); }

// Aligned forms: the same bytes, and p must be aligned to the register size.
template <class V>
inline void load(V& v, const void* p) {
  require_aligned<V>(p, "simd_load");
  loadu(v, p);
}
template <class V>
inline void store(const V& v, void* p) {
  require_aligned<V>(p, "simd_store");
  storeu(v, p);
}

}  // namespace gentt_sunway_emu

// The load and store macros assign to (or read) their first argument, as swgcc's do.
#define simd_load(v, p) ::gentt_sunway_emu::load((v), (p))
#define simd_loadu(v, p) ::gentt_sunway_emu::loadu((v), (p))
#define simd_store(v, p) ::gentt_sunway_emu::store((v), (p))
#define simd_storeu(v, p) ::gentt_sunway_emu::storeu((v), (p))

// SW26010-Pro word shuffle: result word i = concat(a, b)[sel_i], where sel_i is bits
// [5i+4 : 5i] of the control's low 80 bits; sel 0..15 picks a's words, 16..31 b's.
// Control encoding: the control's bit k is bit (k % 32) of its word k / 32 (the register's
// little-endian bit order), so the 80 selector bits fill words 0, 1 and the low 16 bits of
// word 2; the control's other bits are ignored.
inline intv16 simd_vshfw(intv16 a, intv16 b, intv16 ctl) {
  intv16 r;
  for (int i = 0; i < 16; ++i) {
    int sel = 0;
    for (int j = 0; j < 5; ++j) {
      const int k = 5 * i + j;
      sel |= static_cast<int>((static_cast<std::uint32_t>(ctl.w[k / 32]) >> (k % 32)) & 1u) << j;
    }
    r.w[i] = sel < 16 ? a.w[sel] : b.w[sel - 16];
  }
  return r;
}

// SW26010 lane shuffle: r0 = lo[imm & 3], r1 = lo[(imm >> 2) & 3], r2 = hi[(imm >> 4) & 3],
// r3 = hi[(imm >> 6) & 3] (SSE's shuffle_ps with the operands swapped). imm is a constant
// 0..255 on hardware; only its low 8 bits are used.
inline doublev4 simd_vshff(doublev4 hi, doublev4 lo, int imm) {
  doublev4 r;
  r.d[0] = lo.d[imm & 3];
  r.d[1] = lo.d[(imm >> 2) & 3];
  r.d[2] = hi.d[(imm >> 4) & 3];
  r.d[3] = hi.d[(imm >> 6) & 3];
  return r;
}

#endif  // GENTT_SUNWAY_EMU_H
