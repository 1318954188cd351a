// The row engine (row_copy.h) for AVX-512: 64-byte loads and stores, four per step, and one
// byte-masked load and store for a row's last partial vector. Compiled for AVX-512 F/BW by
// function attributes (no -m flags), used only when gentt::cpu_supports("avx512skx") (F/BW/VL:
// every avx512 and avx512skx CPU).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// The walk (walk.h) is compiled for the ISA too, so that the row copy inlines into it.
#if defined(__x86_64__)
#define GENTT_WALK_TARGET __attribute__((target("avx512f,avx512bw")))
#endif
#include "runtime/engine/row_copy_isa.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

struct Avx512Rows {
  static constexpr const char* kName = "avx512";
  using Line = __m512i;
  using Vec = __m512i;
  static constexpr int kVec = 64;
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline Vec load_vec(const char* p) { return load_line(p); }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void store_vec(char* p, Vec v) { put<false>(p, v); }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline Line load_line(const char* p) { return _mm512_loadu_si512(p); }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void stream_line(char* p, Line v) { put<true>(p, v); }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void tail(const char* in, char* out, std::int64_t n) {
    const __mmask64 m = (1ull << n) - 1;  // 0 < n < 64
    _mm512_mask_storeu_epi8(out, m, _mm512_maskz_loadu_epi8(m, in));
  }
  template <bool Stream>
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void put(char* p, __m512i v) {
    if constexpr (Stream)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
    else
      _mm512_storeu_si512(p, v);
  }
  // The whole 64-byte lines of [in, in + n), four at a time, ordinary or streaming stores (then
  // `out` is line-aligned); in, out and n step past them.
  template <bool Stream>
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void lines(const char*& in, char*& out,
                                                                            std::int64_t& n) {
    for (; n >= 256; n -= 256, in += 256, out += 256) {
      const __m512i a = _mm512_loadu_si512(in), b = _mm512_loadu_si512(in + 64);
      const __m512i c = _mm512_loadu_si512(in + 128), d = _mm512_loadu_si512(in + 192);
      put<Stream>(out, a);
      put<Stream>(out + 64, b);
      put<Stream>(out + 128, c);
      put<Stream>(out + 192, d);
    }
    for (; n >= 64; n -= 64, in += 64, out += 64) put<Stream>(out, _mm512_loadu_si512(in));
  }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void copy(const char* in, char* out, std::int64_t n) {
    lines<false>(in, out, n);
    if (n > 0) tail(in, out, n);
  }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void stream(const char* in, char* out, std::int64_t n) {
    // The partial first line with an ordinary store, the whole lines streamed, the rest.
    const std::int64_t head = static_cast<std::int64_t>((64 - (reinterpret_cast<std::uintptr_t>(out) & 63)) & 63);
    if (n < head + 64) return copy(in, out, n);
    if (head) {
      tail(in, out, head);
      in += head, out += head, n -= head;
    }
    lines<true>(in, out, n);
    if (n > 0) tail(in, out, n);
  }
  GENTT_WALK_TARGET static void fence() { _mm_sfence(); }
};

#include "runtime/engine/row_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> make_rows_avx512(std::vector<WalkLoop> loops, const RowGeometry& g, bool stream,
                                                 const RowSink* sink, std::int64_t pieces) {
  return std::make_unique<RowBlocks<Avx512Rows>>(std::move(loops), g, stream, sink, pieces);
}

}  // namespace gentt::engine

#else

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> make_rows_avx512(std::vector<WalkLoop>, const RowGeometry&, bool, const RowSink*,
                                                 std::int64_t) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
