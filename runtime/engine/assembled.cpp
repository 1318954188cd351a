#include "runtime/engine/assembled.h"

#include <cstring>
#include <string>

#include "ir/assembly.h"
#include "runtime/engine/tile_walk.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gentt::engine {

#if defined(__x86_64__)

namespace {

constexpr std::int64_t kLine = 64;

// One stream's piece: `d` in the output, `b` in the buffer (same offset within a line), `c` the
// stream's carry line; cont_in: the carry holds the bytes of d's line before d; cont_out: the
// next tile continues the stream. The generated kernels' AVX-512 backend emits the same steps
// (backends/avx512.cpp, kAssembleStream).
__attribute__((target("avx512f,avx512bw"))) inline void send_piece(char* d, const char* b, char* c,
                                                                  std::int64_t piece, bool cont_in, bool cont_out) {
  const unsigned a = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) % kLine);
  char* const line = d - a;
  const char* const from = b - a;
  const std::int64_t stop = a + piece;
  std::int64_t i = 0;
  if (a) {
    const __m512i v = _mm512_load_si512(from);
    const __mmask64 m = _cvtu64_mask64(~0ull << a);
    if (cont_in)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(line), _mm512_mask_blend_epi8(m, _mm512_load_si512(c), v));
    else
      _mm512_mask_storeu_epi8(line, m, v);
    i = kLine;
  }
  for (; i + kLine <= stop; i += kLine)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(line + i), _mm512_load_si512(from + i));
  if (i < stop) {
    const __m512i v = _mm512_load_si512(from + i);
    if (cont_out)
      _mm512_store_si512(c, v);
    else
      _mm512_mask_storeu_epi8(line + i, _cvtu64_mask64(~0ull >> (kLine - (stop - i))), v);
  }
}

// The same with AVX2 (backends/avx2.cpp's kAssembleStream): two 32-byte halves per line, the
// carry merged by a byte blend, a chain's partial ends copied with memcpy.
__attribute__((target("avx2"))) inline void send_piece_avx2(char* d, const char* b, char* c, std::int64_t piece,
                                                           bool cont_in, bool cont_out) {
  const unsigned a = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) % kLine);
  char* const line = d - a;
  const char* const from = b - a;
  const std::int64_t stop = a + piece;
  std::int64_t i = 0;
  if (a) {
    if (cont_in) {
      const __m256i at = _mm256_set1_epi8(static_cast<char>(a));
      const __m256i i0 = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                          22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
      const __m256i i1 = _mm256_add_epi8(i0, _mm256_set1_epi8(32));
      const __m256i* const v = reinterpret_cast<const __m256i*>(from);
      const __m256i* const k = reinterpret_cast<const __m256i*>(c);
      _mm256_stream_si256(reinterpret_cast<__m256i*>(line),
                          _mm256_blendv_epi8(_mm256_load_si256(v), _mm256_load_si256(k), _mm256_cmpgt_epi8(at, i0)));
      _mm256_stream_si256(reinterpret_cast<__m256i*>(line + 32), _mm256_blendv_epi8(_mm256_load_si256(v + 1),
                                                                                   _mm256_load_si256(k + 1),
                                                                                   _mm256_cmpgt_epi8(at, i1)));
    } else {
      std::memcpy(d, b, static_cast<std::size_t>(kLine - a));
    }
    i = kLine;
  }
  for (; i + kLine <= stop; i += kLine) {
    const __m256i* const v = reinterpret_cast<const __m256i*>(from + i);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(line + i), _mm256_load_si256(v));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(line + i + 32), _mm256_load_si256(v + 1));
  }
  if (i < stop) {
    const __m256i* const v = reinterpret_cast<const __m256i*>(from + i);
    if (cont_out) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(c), _mm256_load_si256(v));
      _mm256_store_si256(reinterpret_cast<__m256i*>(c + 32), _mm256_load_si256(v + 1));
    } else {
      std::memcpy(line + i, from + i, static_cast<std::size_t>(stop - i));
    }
  }
}

class AssembledBlocks final : public PreparedBlocks {
 public:
  AssembledBlocks(std::unique_ptr<PreparedBlocks> direct, std::unique_ptr<PreparedBlocks> tile, AssemblyGeometry g)
      : direct_(std::move(direct)), tile_(std::move(tile)), g_(std::move(g)) {}

  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    if (g_.avx512)
      run_avx512(in, out, begin, end);
    else
      run_avx2(in, out, begin, end);
  }

  std::int64_t iterations() const override { return direct_->iterations(); }

  std::string describe() const override {
    return direct_->describe() + "; output lines assembled across tiles: " + std::to_string(g_.stream_out.size()) +
           " streams, pieces of " + std::to_string(g_.piece_bytes) + " bytes";
  }

 private:
  __attribute__((target("avx512f,avx512bw"))) void run_avx512(const char* in, char* out, std::int64_t begin,
                                                              std::int64_t end) const {
    run_with<true>(in, out, begin, end);
  }
  __attribute__((target("avx2"))) void run_avx2(const char* in, char* out, std::int64_t begin,
                                                std::int64_t end) const {
    run_with<false>(in, out, begin, end);
  }

  template <bool Avx512>
  __attribute__((always_inline)) inline void run_with(const char* in, char* out, std::int64_t begin,
                                                      std::int64_t end) const {
    const std::int64_t per = g_.tile_iterations;
    // Whole tiles [first, last), in the first nest only where there are several.
    const std::int64_t tiled_end = g_.tiled_iterations > 0 && g_.tiled_iterations < end ? g_.tiled_iterations : end;
    const std::int64_t first = (begin + per - 1) / per, last = tiled_end / per;
    if (first >= last) return direct_->run(in, out, begin, end);
    if (begin < first * per) direct_->run(in, out, begin, first * per);
    const int depth = static_cast<int>(g_.outer_counts.size());
    const std::int64_t streams = static_cast<std::int64_t>(g_.stream_out.size());
    const std::int64_t buffer = assembly_stage_bytes(g_.buffer_bytes);  // then the carry lines
    char* const stage = line_buffer(buffer + streams * kLine);
    char* const carry = stage + buffer;
    TileOdometer now(g_.outer_counts, &g_.outer_in_steps, g_.outer_out_steps, first);
    const std::int64_t chain_count = g_.outer_counts[depth - 1];
    for (std::int64_t t = first; t < last; ++t) {
      char* const dst = out + now.out;
      char* const buf = stage + reinterpret_cast<std::uintptr_t>(dst) % kLine;
      tile_->run(in + now.in, buf, 0, per);
      const bool cont_in = t > first && now.idx[depth - 1] != 0;
      const bool cont_out = t + 1 < last && now.idx[depth - 1] != chain_count - 1;
      for (std::int64_t s = 0; s < streams; ++s) {
        if constexpr (Avx512)
          send_piece(dst + g_.stream_out[s], buf + g_.stream_buf[s], carry + s * kLine, g_.piece_bytes, cont_in,
                     cont_out);
        else
          send_piece_avx2(dst + g_.stream_out[s], buf + g_.stream_buf[s], carry + s * kLine, g_.piece_bytes, cont_in,
                          cont_out);
      }
      now.step();
    }
    _mm_sfence();
    if (last * per < end) direct_->run(in, out, last * per, end);
  }


  std::unique_ptr<PreparedBlocks> direct_, tile_;
  AssemblyGeometry g_;
};

}  // namespace

std::unique_ptr<PreparedBlocks> make_assembled(std::unique_ptr<PreparedBlocks> direct,
                                               std::unique_ptr<PreparedBlocks> tile, AssemblyGeometry geometry) {
  const auto depth = geometry.outer_counts.size();
  if (!direct || !tile || depth < 1 || depth > 64 || geometry.outer_in_steps.size() != depth ||
      geometry.outer_out_steps.size() != depth || geometry.tile_iterations < 1 || geometry.piece_bytes < kLine ||
      geometry.stream_out.empty() || geometry.stream_buf.size() != geometry.stream_out.size() ||
      tile->iterations() != geometry.tile_iterations || geometry.tiled_iterations < 0 ||
      geometry.tiled_iterations % geometry.tile_iterations != 0)
    return direct;
  return std::make_unique<AssembledBlocks>(std::move(direct), std::move(tile), std::move(geometry));
}

#else

std::unique_ptr<PreparedBlocks> make_assembled(std::unique_ptr<PreparedBlocks> direct, std::unique_ptr<PreparedBlocks>,
                                               AssemblyGeometry) {
  return direct;
}

#endif

}  // namespace gentt::engine
