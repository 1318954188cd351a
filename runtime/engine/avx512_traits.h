// The AVX-512 engine's ISA traits (simd_body.h), shared by its two translation units:
// - avx512_engine.cpp (F/BW/VL): units 1..8; a 1-byte shuffle without VBMI is two word permutes
//   (vpermt2w) and two in-lane byte shuffles (vpshufb), as the avx512skx generated kernels do;
// - avx512_vbmi_engine.cpp (F/BW/VL/VBMI, GENTT_AVX512_VBMI): units 1..8, a 1-byte shuffle one
//   vpermt2b.
// Each unit defines GENTT_SIMD_TARGET (its target attribute) before including this inside its
// anonymous namespace, so that no function compiled without VBMI can hold a VBMI instruction.
struct Avx512 {
  using V = __m512i;
  static constexpr int kBytes = 64;
  static constexpr unsigned kUnits = 1 | 2 | 4 | 8;
  // Lean bodies up to 32 registers (16-bit elements; seed 002's uint16 (2,0,1,6,7,3,4,5) went
  // from 0.55 to 1.23 of the generated kernel). Byte plans with 64 registers measured no faster
  // lean (64^4 uint8 (2,0,3,1)), and their bodies would add 20 s to the engine's compile (32:
  // 2.5 s).
  static constexpr int kLeanRegBits = 5;
  // Tab lean bodies (register offsets from per-bit steps: all-size-2 tensors) up to 16
  // registers, plain and in the fixed forms: 16 data registers and the plain body's index
  // vectors (two per pass) fit the 32 zmm registers.
  static constexpr int kTabledRegBits = 4;
  // Lean bodies in the fixed forms but for the last pass, which runs from its index vectors
  // (LeanBody's HeldLast), up to 16 registers: padded rows whose last pass also closes the
  // padding's gaps (float32 (7,9,5,11,13) reversed) ran the plain lean body, a dispatch on every
  // pass' unit in every block. 20 random shapes that take it (1- to 8-byte elements): 1.09x at
  // the median, 0.86-1.35x (Zen 5); its 9 bodies add about a minute to this engine's compile.
  static constexpr int kHeldLastRegBits = 4;
  // No separate form for byte passes that stay within 16-byte lanes: with VBMI a byte shuffle
  // is one vpermt2b either way. Without VBMI (permute_bytes) such a pass could skip the word
  // permutes; not tried, since no CPU without VBMI was at hand to measure it.
  static constexpr bool kLaneLocal = false;
  // Masked loads and stores of any byte mask (simd_body.h: LeanBody::masked_runs).
  static constexpr bool kMaskedAccess = true;
  // AVX-512 blocks prefetch only where asked (PrepareOptions::prefetch_ahead: the next tile of an
  // assembled walk, ir/assembly.h), into L2: prefetcht1 measured 0.48 of the best copy on 17^6
  // float64 (2,5,4,0,1,3) in the generated kernels, prefetcht0 0.43.
  static constexpr int kPrefetchLocality = 2;
  GENTT_SIMD_TARGET static V load(const char* p) { return _mm512_loadu_si512(p); }
  GENTT_SIMD_TARGET static V load_part(const char* p, int, unsigned long long mask) {
    return _mm512_maskz_loadu_epi8(mask, p);
  }
  GENTT_SIMD_TARGET static void store(char* p, V v) { _mm512_storeu_si512(p, v); }
  GENTT_SIMD_TARGET static void store_part(char* p, V v, int, unsigned long long mask) {
    _mm512_mask_storeu_epi8(p, mask, v);
  }
  GENTT_SIMD_TARGET static void stream(char* p, V v) { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }
  GENTT_SIMD_TARGET static void fence() { _mm_sfence(); }
  GENTT_SIMD_TARGET static V load_index(const unsigned char* p) { return _mm512_loadu_si512(p); }
#if !defined(GENTT_AVX512_VBMI)
  // vpermt2b without VBMI. Output byte i takes byte index[i] (0..127) of a||b: the even bytes'
  // words by one vpermt2w, the odd bytes' by another, then each byte picks the low or high half
  // of its word with vpshufb (index bit 0), the odd bytes merged under a mask. The derived
  // vectors depend on the index only: in the lean body, whose indices stay in registers, the
  // compiler computes them once per run.
  GENTT_SIMD_TARGET static V permute_bytes(V a, V index, V b) {
    const V even_words = _mm512_srli_epi16(_mm512_and_si512(index, _mm512_set1_epi16(0x00fe)), 1);
    const V odd_words = _mm512_srli_epi16(index, 9);
    // The byte of word k of a lane is 2k (low) or 2k + 1 (high): (i mod 16 rounded down to even) | bit 0.
    const V pairs = _mm512_set4_epi32(0x0e0e0c0c, 0x0a0a0808, 0x06060404, 0x02020000);
    const V pick = _mm512_or_si512(_mm512_and_si512(index, _mm512_set1_epi8(1)), pairs);
    const V even = _mm512_shuffle_epi8(_mm512_permutex2var_epi16(a, even_words, b), pick);
    return _mm512_mask_shuffle_epi8(even, static_cast<__mmask64>(0xaaaaaaaaaaaaaaaaull),
                                    _mm512_permutex2var_epi16(a, odd_words, b), pick);
  }
#endif
  // The plain exchange of byte-lane bit L (simd_tables.h, kButterflyLane) for every L, with no
  // index vector: the 256-bit halves by vshufi64x2, 16-byte lanes by a masked vpermq, 8- and
  // 4-byte lanes by unpack and a masked vpshufd, 2- and 1-byte lanes by a shift and a masked
  // blend. With them a lean plan whose passes are an ordinary transpose's runs LeanBody's fixed
  // form: whole runs of full blocks, several at a time, loads first (simd_body.h).
  static constexpr unsigned kButterflyLanes = 0x3F;
  // Each form is written with a merge source under a full mask where the plain intrinsic has
  // none: GCC 12's plain forms pass _mm512_undefined_epi32() and warn (-Wmaybe-uninitialized)
  // wherever they inline; a full constant mask compiles to the same unmasked instruction.
  template <int L>
  GENTT_SIMD_TARGET static void butterfly(V a, V b, V& lo, V& hi) {
    if constexpr (L == 5) {
      lo = _mm512_mask_shuffle_i64x2(a, 0xFF, a, b, 0x44);  // a.lo256, b.lo256
      hi = _mm512_mask_shuffle_i64x2(a, 0xFF, a, b, 0xEE);  // a.hi256, b.hi256
    } else if constexpr (L == 4) {
      lo = _mm512_mask_permutex_epi64(a, 0xCC, b, 0x44);  // qwords 2,3 (6,7) of each half: b's 0,1
      hi = _mm512_mask_permutex_epi64(b, 0x33, a, 0xEE);  // qwords 0,1 (4,5) of each half: a's 2,3
    } else if constexpr (L == 3) {
      lo = _mm512_mask_unpacklo_epi64(a, 0xFF, a, b);
      hi = _mm512_mask_unpackhi_epi64(a, 0xFF, a, b);
    } else if constexpr (L == 2) {
      lo = _mm512_mask_shuffle_epi32(a, 0xAAAA, b, static_cast<_MM_PERM_ENUM>(0xA0));  // odd dwords: b's even
      hi = _mm512_mask_shuffle_epi32(b, 0x5555, a, static_cast<_MM_PERM_ENUM>(0xF5));  // even dwords: a's odd
    } else if constexpr (L == 1) {
      lo = _mm512_mask_blend_epi16(0xAAAAAAAAu, a, _mm512_mask_slli_epi32(b, 0xFFFF, b, 16));
      hi = _mm512_mask_blend_epi16(0xAAAAAAAAu, _mm512_mask_srli_epi32(a, 0xFFFF, a, 16), b);
    } else {
      static_assert(L == 0, "AVX-512 has byte-lane bits 0..5");
      lo = _mm512_mask_blend_epi8(0xAAAAAAAAAAAAAAAAull, a, _mm512_mask_slli_epi16(b, 0xFFFFFFFFu, b, 8));
      hi = _mm512_mask_blend_epi8(0xAAAAAAAAAAAAAAAAull, _mm512_mask_srli_epi16(a, 0xFFFFFFFFu, a, 8), b);
    }
  }
  template <int Unit>
  GENTT_SIMD_TARGET static V permute2(V a, V index, V b) {
#if defined(GENTT_AVX512_VBMI)
    if constexpr (Unit == 1) return _mm512_permutex2var_epi8(a, index, b);
#else
    if constexpr (Unit == 1) return permute_bytes(a, index, b);
#endif
    if constexpr (Unit == 2) return _mm512_permutex2var_epi16(a, index, b);
    if constexpr (Unit == 4) return _mm512_permutex2var_epi32(a, index, b);
    if constexpr (Unit == 8) return _mm512_permutex2var_epi64(a, index, b);
  }
};

constexpr int kMaxRegBits = 6;  // 64 registers: byte elements (lanes 64) with a full butterfly
