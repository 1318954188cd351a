#include "runtime/engine/staged.h"

#include <cstring>
#include <string>

#include "runtime/engine/tile_walk.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gentt::engine {

#if defined(__x86_64__)

namespace {

constexpr std::int64_t kLine = 64;

// dst <- src, n bytes: memcpy up to dst's first line, whole lines with non-temporal stores, the
// partial last line with memcpy. src has dst's offset within a line, so its lines are aligned too.
__attribute__((target("avx512f"))) void stream_avx512(char* dst, const char* src, std::int64_t n) {
  std::int64_t head = (kLine - static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst) % kLine)) % kLine;
  if (head > n) head = n;
  std::memcpy(dst, src, static_cast<std::size_t>(head));
  std::int64_t i = head;
  for (; i + kLine <= n; i += kLine)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i), _mm512_load_si512(src + i));
  std::memcpy(dst + i, src + i, static_cast<std::size_t>(n - i));
}

__attribute__((target("avx2"))) void stream_avx2(char* dst, const char* src, std::int64_t n) {
  std::int64_t head = (kLine - static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst) % kLine)) % kLine;
  if (head > n) head = n;
  std::memcpy(dst, src, static_cast<std::size_t>(head));
  std::int64_t i = head;
  for (; i + kLine <= n; i += kLine) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_load_si256(reinterpret_cast<const __m256i*>(src + i)));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 32),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(src + i + 32)));
  }
  std::memcpy(dst + i, src + i, static_cast<std::size_t>(n - i));
}



class StagedBlocks final : public PreparedBlocks {
 public:
  StagedBlocks(std::unique_ptr<PreparedBlocks> inner, StageGeometry g)
      : inner_(std::move(inner)), g_(std::move(g)),
        from_base_(g_.from_base && !g_.outer_tails && g_.outer_in_steps.size() == g_.outer_counts.size()) {}

  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    const std::int64_t per = g_.tile_iterations;
    const std::int64_t first = (begin + per - 1) / per, last = end / per;  // whole tiles [first, last)
    if (first >= last) return inner_->run(in, out, begin, end);
    if (begin < first * per) inner_->run(in, out, begin, first * per);
    // The tile's offsets: an odometer over the loops above the tile (no division per tile).
    TileOdometer now(g_.outer_counts, from_base_ ? &g_.outer_in_steps : nullptr, g_.outer_out_steps, first);
    char* const buffer = line_buffer(g_.tile_bytes + kLine);
    for (std::int64_t t = first; t < last; ++t) {
      char* dst = out + now.out;
      char* stage = buffer + reinterpret_cast<std::uintptr_t>(dst) % kLine;
      if (from_base_) {
        // The tile's blocks from its own base: iterations [0, per), so that the walk decodes no flat
        // iteration per tile (the generated kernels' NAME_stage_tile: 0.80 -> 1.07 of the best copy
        // on tiles of 12 kept rows of 120 bytes).
        inner_->run(in + now.in, stage, 0, per);
      } else {
        // The blocks write at out + offset, offset in [now.out, now.out + tile_bytes): give them
        // the buffer shifted by -now.out (as an integer: the shifted address lies outside any object).
        char* shifted =
            reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(stage) - static_cast<std::uintptr_t>(now.out));
        inner_->run(in, shifted, t * per, (t + 1) * per);
      }
      if (g_.isa == StageIsa::avx512)
        stream_avx512(dst, stage, g_.tile_bytes);
      else
        stream_avx2(dst, stage, g_.tile_bytes);
      now.step();
    }
    _mm_sfence();
    if (last * per < end) inner_->run(in, out, last * per, end);
  }

  std::int64_t iterations() const override { return inner_->iterations(); }

  std::string describe() const override {
    return inner_->describe() + "; output staged in tiles of " + std::to_string(g_.tile_bytes) +
           " bytes, streamed out in whole lines";
  }

 private:
  std::unique_ptr<PreparedBlocks> inner_;
  StageGeometry g_;
  bool from_base_;
};

}  // namespace

std::unique_ptr<PreparedBlocks> make_staged(std::unique_ptr<PreparedBlocks> inner, StageGeometry geometry) {
  if (geometry.outer_counts.size() > 64 || geometry.outer_out_steps.size() != geometry.outer_counts.size() ||
      geometry.tile_iterations < 1 || geometry.tile_bytes < 1)
    return inner;
  return std::make_unique<StagedBlocks>(std::move(inner), std::move(geometry));
}

#else

std::unique_ptr<PreparedBlocks> make_staged(std::unique_ptr<PreparedBlocks> inner, StageGeometry) { return inner; }

#endif

}  // namespace gentt::engine
