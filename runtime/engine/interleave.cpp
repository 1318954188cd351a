#include "runtime/engine/interleave.h"

#include <cstring>
#include <string>
#include <utility>

#include "runtime/engine/tile_walk.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gentt::engine {

bool interleave_supported(std::int64_t elem_bytes, std::int64_t channels, bool vbmi) {
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8) return false;
  if (channels < 3 || channels > 15 || (channels & (channels - 1)) == 0 || channels * elem_bytes >= 64) return false;
  return elem_bytes != 1 || vbmi;
}

#if defined(__x86_64__)

namespace {

constexpr std::int64_t kLine = 64;
constexpr int kMaxChannels = 15;

// For output vector j of a group: the pixel each lane takes (in its plane's vector, as lanes of
// the element size) and, per channel, the lanes that take it.
struct Tables {
  alignas(64) unsigned char index[kMaxChannels][64];
  std::uint64_t mask[kMaxChannels][kMaxChannels];
  // AVX2: for output chunk k of each 16-byte lane and plane c, the vpshufb control that moves that
  // plane's bytes of the chunk into place (0x80: zero), the same in both lanes.
  alignas(32) unsigned char shuffle[kMaxChannels][kMaxChannels][32];
};

#define GENTT_INTERLEAVE_TARGET __attribute__((target("avx512f,avx512bw")))
#define GENTT_INTERLEAVE_VBMI_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi")))

// One masked cross-lane permute per element size: `first` zeroes the lanes outside the mask,
// `next` keeps them from acc. Bytes (vpermb) need VBMI, so they have a target of their own.
template <int E>
struct Permute {
  GENTT_INTERLEAVE_TARGET static inline __m512i first(std::uint64_t m, __m512i idx, __m512i a) {
    return next(_mm512_setzero_si512(), m, idx, a);
  }
  GENTT_INTERLEAVE_TARGET static inline __m512i next(__m512i acc, std::uint64_t m, __m512i idx, __m512i a) {
    static_assert(E == 8 || E == 4 || E == 2);
    if constexpr (E == 8)
      return _mm512_mask_permutexvar_epi64(acc, static_cast<__mmask8>(m), idx, a);
    else if constexpr (E == 4)
      return _mm512_mask_permutexvar_epi32(acc, static_cast<__mmask16>(m), idx, a);
    else
      return _mm512_mask_permutexvar_epi16(acc, static_cast<__mmask32>(m), idx, a);
  }
};
template <>
struct Permute<1> {
  GENTT_INTERLEAVE_VBMI_TARGET static inline __m512i first(std::uint64_t m, __m512i idx, __m512i a) {
    return next(_mm512_setzero_si512(), m, idx, a);
  }
  GENTT_INTERLEAVE_VBMI_TARGET static inline __m512i next(__m512i acc, std::uint64_t m, __m512i idx, __m512i a) {
    return _mm512_mask_permutexvar_epi8(acc, static_cast<__mmask64>(m), idx, a);
  }
};

using GroupsFn = void (*)(const char* in, std::int64_t plane_bytes, char* out, std::int64_t g0, std::int64_t g1,
                          const Tables& t);

// Groups [g0, g1) of one row: each 64 bytes of every plane in, C whole vectors out. Defined
// twice, for AVX-512 F/BW (2-, 4- and 8-byte elements) and with VBMI (bytes, vpermb): a function
// may only inline the permutes of its own target.
#define GENTT_ROW_GROUPS(NAME, TARGET)                                                                        \
  template <int E, int C, bool Stream>                                                                        \
  TARGET void NAME(const char* in, std::int64_t plane_bytes, char* out, std::int64_t g0, std::int64_t g1,     \
                   const Tables& t) {                                                                         \
    __m512i idx[C];                                                                                           \
    std::uint64_t m[C][C];                                                                                    \
    for (int j = 0; j < C; ++j) {                                                                             \
      idx[j] = _mm512_load_si512(t.index[j]);                                                                 \
      for (int c = 0; c < C; ++c) m[j][c] = t.mask[j][c];                                                     \
    }                                                                                                         \
    for (std::int64_t g = g0; g < g1; ++g) {                                                                  \
      const char* src = in + g * kLine;                                                                       \
      __m512i p[C];                                                                                           \
      _Pragma("GCC unroll 16") for (int c = 0; c < C; ++c) p[c] = _mm512_loadu_si512(src + c * plane_bytes); \
      char* dst = out + g * kLine * C;                                                                        \
      _Pragma("GCC unroll 16") for (int j = 0; j < C; ++j) {                                                  \
        __m512i acc = Permute<E>::first(m[j][0], idx[j], p[0]);                                               \
        _Pragma("GCC unroll 16") for (int c = 1; c < C; ++c) acc = Permute<E>::next(acc, m[j][c], idx[j], p[c]); \
        if constexpr (Stream)                                                                                 \
          _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + j * kLine), acc);                              \
        else                                                                                                  \
          _mm512_storeu_si512(dst + j * kLine, acc);                                                          \
      }                                                                                                       \
    }                                                                                                         \
  }
GENTT_ROW_GROUPS(row_groups, GENTT_INTERLEAVE_TARGET)
GENTT_ROW_GROUPS(row_groups_vbmi, GENTT_INTERLEAVE_VBMI_TARGET)
#undef GENTT_ROW_GROUPS

// AVX2 groups: 32 bytes of each plane, two 16-byte lanes of 16 / E pixels each. vpshufb moves
// bytes only within a lane, so each lane builds its own C output chunks of 16 bytes: chunk k is the
// OR of the C planes' bytes shuffled into place. r[k] holds chunk k of lane 0 (output bytes
// 16k..) and of lane 1 (16 (C + k)..); output vector m (bytes 32m..) is chunks 2m and 2m + 1,
// picked from those halves by vperm2i128.
template <int C, int M>
__attribute__((target("avx2"), always_inline)) inline __m256i avx2_output(const __m256i* r) {
  constexpr int lo = 2 * M, hi = 2 * M + 1;  // the output chunks, numbered over both lanes
  constexpr int imm = (lo < C ? 0 : 1) | ((hi < C ? 2 : 3) << 4);
  return _mm256_permute2x128_si256(r[lo % C], r[hi % C], imm);
}

template <int C, bool Stream, int... M>
__attribute__((target("avx2"), always_inline)) inline void avx2_stores(char* dst, const __m256i* r,
                                                                       std::integer_sequence<int, M...>) {
  if constexpr (Stream)
    (_mm256_stream_si256(reinterpret_cast<__m256i*>(dst + 32 * M), avx2_output<C, M>(r)), ...);
  else
    (_mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32 * M), avx2_output<C, M>(r)), ...);
}

template <int E, int C, bool Stream>
__attribute__((target("avx2"))) void row_groups_avx2(const char* in, std::int64_t plane_bytes, char* out,
                                                     std::int64_t g0, std::int64_t g1, const Tables& t) {
  for (std::int64_t g = g0; g < g1; ++g) {
    const char* src = in + g * 32;
    __m256i p[C], r[C];
#pragma GCC unroll 16
    for (int c = 0; c < C; ++c) p[c] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + c * plane_bytes));
#pragma GCC unroll 16
    for (int k = 0; k < C; ++k) {
      r[k] = _mm256_shuffle_epi8(p[0], _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shuffle[k][0])));
#pragma GCC unroll 16
      for (int c = 1; c < C; ++c)
        r[k] = _mm256_or_si256(
            r[k], _mm256_shuffle_epi8(p[c], _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shuffle[k][c]))));
    }
    avx2_stores<C, Stream>(out + g * 32 * C, r, std::make_integer_sequence<int, C>{});
  }
}

// The groups function of C planes of E-byte elements: AVX2's, or AVX-512's (bytes with VBMI).
template <int E, bool Stream, bool Avx2>
GroupsFn pick(std::int64_t channels) {
  switch (channels) {
#define GENTT_INTERLEAVE_CASE(C)                                                        \
  case C:                                                                               \
    if constexpr (C * E < 64 && Avx2) return row_groups_avx2<E, C, Stream>;             \
    if constexpr (C * E < 64 && !Avx2 && E == 1) return row_groups_vbmi<E, C, Stream>;  \
    if constexpr (C * E < 64 && !Avx2 && E != 1) return row_groups<E, C, Stream>;       \
    return nullptr;
    GENTT_INTERLEAVE_CASE(3)
    GENTT_INTERLEAVE_CASE(5)
    GENTT_INTERLEAVE_CASE(6)
    GENTT_INTERLEAVE_CASE(7)
    GENTT_INTERLEAVE_CASE(9)
    GENTT_INTERLEAVE_CASE(10)
    GENTT_INTERLEAVE_CASE(11)
    GENTT_INTERLEAVE_CASE(12)
    GENTT_INTERLEAVE_CASE(13)
    GENTT_INTERLEAVE_CASE(14)
    GENTT_INTERLEAVE_CASE(15)
#undef GENTT_INTERLEAVE_CASE
    default:
      return nullptr;
  }
}

template <bool Stream>
GroupsFn pick_for(std::int64_t elem_bytes, std::int64_t channels, bool avx2) {
  switch (elem_bytes) {
    case 1: return avx2 ? pick<1, Stream, true>(channels) : pick<1, Stream, false>(channels);
    case 2: return avx2 ? pick<2, Stream, true>(channels) : pick<2, Stream, false>(channels);
    case 4: return avx2 ? pick<4, Stream, true>(channels) : pick<4, Stream, false>(channels);
    case 8: return avx2 ? pick<8, Stream, true>(channels) : pick<8, Stream, false>(channels);
    default: return nullptr;
  }
}

class InterleaveBlocks final : public PreparedBlocks {
 public:
  InterleaveBlocks(InterleaveSpec s, GroupsFn cached, GroupsFn streamed)
      : s_(std::move(s)), cached_(cached), streamed_(streamed) {
    const std::int64_t e = s_.elem_bytes, c = s_.channels;
    group_ = s_.avx2 ? 32 : kLine;
    const std::int64_t v = group_ / e;  // pixels per group
    full_ = s_.pixels / v;
    per_row_ = (s_.pixels + v - 1) / v;
    rows_ = 1;
    for (std::int64_t n : s_.outer_counts) rows_ *= n;
    plane_bytes_ = s_.plane_in_stride * e;
    std::memset(&t_, 0, sizeof t_);
    if (!s_.avx2) {
      for (std::int64_t j = 0; j < c; ++j)
        for (std::int64_t lane = 0; lane < v; ++lane) {
          const std::int64_t element = j * v + lane, pixel = element / c, channel = element % c;
          std::memcpy(t_.index[j] + lane * e, &pixel, static_cast<std::size_t>(e));  // little-endian low bytes
          t_.mask[j][channel] |= std::uint64_t{1} << lane;
        }
    } else {
      // Byte b of chunk k in a 16-byte lane is byte b % e of element (16k + b) / e of the lane's
      // output: pixel element / c of plane element % c, at byte pixel * e + b % e of its lane.
      for (std::int64_t k = 0; k < c; ++k)
        for (std::int64_t b = 0; b < 16; ++b) {
          const std::int64_t byte = 16 * k + b, element = byte / e, pixel = element / c, channel = element % c;
          for (std::int64_t ch = 0; ch < c; ++ch)
            for (std::int64_t half : {0, 16})
              t_.shuffle[k][ch][half + b] =
                  ch == channel ? static_cast<unsigned char>(pixel * e + byte % e) : static_cast<unsigned char>(0x80);
        }
    }
  }

  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    if (begin >= end) return;
    TileOdometer row(s_.outer_counts, &s_.outer_in_steps, s_.outer_out_steps, begin / per_row_);
    std::int64_t g = begin % per_row_;
    bool streamed = false;
    for (std::int64_t it = begin; it < end; g = 0, row.step()) {
      const std::int64_t g_end = std::min(per_row_, g + (end - it));
      const char* row_in = in + row.in;
      char* row_out = out + row.out;
      const std::int64_t full_end = std::min(g_end, full_);
      if (g < full_end) {
        const bool nt = s_.stream && reinterpret_cast<std::uintptr_t>(row_out) % kLine == 0;
        (nt ? streamed_ : cached_)(row_in, plane_bytes_, row_out, g, full_end, t_);
        streamed = streamed || nt;
      }
      if (g_end == per_row_ && full_ < per_row_) tail(row_in, row_out);
      it += g_end - g;
    }
    if (streamed) _mm_sfence();
  }

  std::int64_t iterations() const override { return rows_ * per_row_; }

  std::string describe() const override {
    const std::int64_t v = group_ / s_.elem_bytes;
    return std::string(s_.avx2 ? "avx2" : "avx512") + " interleave engine: " + std::to_string(s_.channels) + " planes of " + std::to_string(s_.pixels) +
           " elements interleaved into each output row, " + std::to_string(rows_) + " row(s); groups of " +
           std::to_string(v) + " elements: " + std::to_string(s_.channels) + " whole-vector loads, " +
           std::to_string(s_.channels * s_.channels) + (s_.avx2 ? " in-lane byte shuffles, " : " masked permutes, ") +
           std::to_string(s_.channels) +
           " whole-vector stores" + (s_.stream ? " (streaming where a row starts on a 64-byte line)" : "") +
           (full_ < per_row_ ? "; the last " + std::to_string(s_.pixels - full_ * v) + " of each row element by element"
                             : "");
  }

 private:
  // The row's last pixels (fewer than a group), element by element.
  void tail(const char* in, char* out) const {
    const std::int64_t e = s_.elem_bytes, c = s_.channels;
    for (std::int64_t p = full_ * (group_ / e); p < s_.pixels; ++p)
      for (std::int64_t ch = 0; ch < c; ++ch)
        std::memcpy(out + (p * c + ch) * e, in + ch * plane_bytes_ + p * e, static_cast<std::size_t>(e));
  }

  InterleaveSpec s_;
  GroupsFn cached_, streamed_;
  Tables t_;
  std::int64_t group_ = kLine;  // bytes of each plane per group (a vector)
  std::int64_t full_ = 0, per_row_ = 0, rows_ = 0, plane_bytes_ = 0;
};

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_interleave(const InterleaveSpec& spec) {
  if (!interleave_supported(spec.elem_bytes, spec.channels, spec.vbmi || spec.avx2) || spec.pixels < 1 ||
      spec.outer_counts.size() > 64 || spec.outer_in_steps.size() != spec.outer_counts.size() ||
      spec.outer_out_steps.size() != spec.outer_counts.size())
    return nullptr;
  const GroupsFn cached = pick_for<false>(spec.elem_bytes, spec.channels, spec.avx2);
  const GroupsFn streamed = pick_for<true>(spec.elem_bytes, spec.channels, spec.avx2);
  if (!cached || !streamed) return nullptr;
  return std::make_unique<InterleaveBlocks>(spec, cached, streamed);
}

#else

std::unique_ptr<PreparedBlocks> prepare_interleave(const InterleaveSpec&) { return nullptr; }

#endif

}  // namespace gentt::engine
