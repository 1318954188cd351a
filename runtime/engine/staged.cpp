#include "runtime/engine/staged.h"

#include <cstring>
#include <string>

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

// The calling thread's tile buffer: on the heap (a thread_local array this size would take
// static TLS space, which a dlopen'ed library such as the Python module may not get).
char* stage_buffer(std::int64_t bytes) {
  thread_local std::unique_ptr<char[]> buffer;
  thread_local std::int64_t size = 0;
  if (size < bytes) {
    buffer.reset(new char[static_cast<std::size_t>(bytes + kLine)]);
    size = bytes;
  }
  const auto p = reinterpret_cast<std::uintptr_t>(buffer.get());
  return buffer.get() + (kLine - p % kLine) % kLine;
}

// Tile t's place: its index in each loop above the tile, its output and input offsets (bytes).
struct Odometer {
  std::int64_t idx[64] = {};
  std::int64_t out = 0, in = 0;
  Odometer(const StageGeometry& g, std::int64_t t) {
    for (int d = static_cast<int>(g.outer_counts.size()) - 1; d >= 0; --d) {
      idx[d] = t % g.outer_counts[d];
      t /= g.outer_counts[d];
      out += idx[d] * g.outer_out_steps[d];
      in += idx[d] * g.outer_in_steps[d];
    }
  }
  void step(const StageGeometry& g) {
    for (int d = static_cast<int>(g.outer_counts.size()) - 1; d >= 0; --d) {
      out += g.outer_out_steps[d];
      in += g.outer_in_steps[d];
      if (++idx[d] < g.outer_counts[d]) return;
      out -= idx[d] * g.outer_out_steps[d];
      in -= idx[d] * g.outer_in_steps[d];
      idx[d] = 0;
    }
  }
};

class StagedBlocks final : public PreparedBlocks {
 public:
  StagedBlocks(std::unique_ptr<PreparedBlocks> inner, StageGeometry g) : inner_(std::move(inner)), g_(std::move(g)) {}

  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    const std::int64_t per = g_.tile_iterations;
    const std::int64_t first = (begin + per - 1) / per, last = end / per;  // whole tiles [first, last)
    if (first >= last) return inner_->run(in, out, begin, end);
    if (begin < first * per) inner_->run(in, out, begin, first * per);
    // The tile's output and input offsets: an odometer over the loops above the tile (no
    // division per tile), one for the tile being written and one for the next (prefetched).
    Odometer now(g_, first), next = now;
    next.step(g_);
    char* const buffer = stage_buffer(g_.tile_bytes + kLine);
    for (std::int64_t t = first; t < last; ++t) {
      if (t + 1 < last) prefetch_tile(in + next.in);
      char* dst = out + now.out;
      char* stage = buffer + reinterpret_cast<std::uintptr_t>(dst) % kLine;
      // The blocks write at out + offset, offset in [now.out, now.out + tile_bytes): give them
      // the buffer shifted by -now.out (as an integer: the shifted address lies outside any object).
      char* shifted =
          reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(stage) - static_cast<std::uintptr_t>(now.out));
      inner_->run(in, shifted, t * per, (t + 1) * per);
      if (g_.isa == StageIsa::avx512)
        stream_avx512(dst, stage, g_.tile_bytes);
      else
        stream_avx2(dst, stage, g_.tile_bytes);
      now = next;
      next.step(g_);
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
  // The lines of a tile's input, into L2 (prefetcht1): the tile's reads are many short runs far
  // apart (15 runs of 1800 bytes for 15^6 float64 (0,1,3,5,2,4)), too many streams for the
  // hardware prefetchers; one tile ahead, they arrive while the current tile is written.
  void prefetch_tile(const char* base) const {
    const int n = static_cast<int>(g_.in_loops.size());
    std::int64_t idx[64] = {};
    for (;;) {
      for (std::int64_t o = 0; o < g_.run_bytes; o += kLine) _mm_prefetch(base + o, _MM_HINT_T1);
      _mm_prefetch(base + g_.run_bytes - 1, _MM_HINT_T1);
      int d = n - 1;
      for (; d >= 0; --d) {
        base += g_.in_loops[d].second;
        if (++idx[d] < g_.in_loops[d].first) break;
        base -= idx[d] * g_.in_loops[d].second;
        idx[d] = 0;
      }
      if (d < 0) return;
    }
  }

  std::unique_ptr<PreparedBlocks> inner_;
  StageGeometry g_;
};

}  // namespace

std::unique_ptr<PreparedBlocks> make_staged(std::unique_ptr<PreparedBlocks> inner, StageGeometry geometry) {
  if (geometry.outer_counts.size() > 64 || geometry.in_loops.size() > 64 || geometry.tile_iterations < 1 ||
      geometry.tile_bytes < 1 || geometry.run_bytes < 1 || geometry.outer_in_steps.size() != geometry.outer_counts.size())
    return inner;
  return std::make_unique<StagedBlocks>(std::move(inner), std::move(geometry));
}

#else

std::unique_ptr<PreparedBlocks> make_staged(std::unique_ptr<PreparedBlocks> inner, StageGeometry) { return inner; }

#endif

}  // namespace gentt::engine
