// runtime/engine/interleave.h: every element size and channel count the engine takes, AVX-512
// and AVX2 groups, on random rows (tails of any length), batch loops with any steps, random ranges
// of flat iterations (as the parts of a plan call it), cached and streaming stores, guard pages
// on both sides of the output.
#include "runtime/engine/interleave.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "gentt/cpu.h"
#include "tests/runtime/guarded_buffer.h"

namespace {

using gentt::test::GuardedBuffer;

// Random rows of every element size and C the engine takes (AVX2 or AVX-512 groups); the runs.
int check_engine(bool avx2) {
  const bool vbmi = avx2 || gentt::cpu_supports("avx512");  // AVX2 shuffles bytes in lanes
  std::mt19937_64 rng(avx2 ? 20261133 : 20261131);
  int runs = 0;
  for (std::int64_t e : {1, 2, 4, 8})
    for (std::int64_t ch = 2; ch <= 16; ++ch) {
      if (!gentt::engine::interleave_supported(e, ch, vbmi)) continue;
      for (int trial = 0; trial < 3; ++trial) {
        const std::int64_t v = 64 / e, pixels = 1 + static_cast<std::int64_t>(rng() % (5 * v));
        const std::int64_t rows = 1 + static_cast<std::int64_t>(rng() % 4);
        const std::int64_t plane = pixels + static_cast<std::int64_t>(rng() % 3);  // padded planes
        const std::int64_t row_in = ch * plane, row_out = pixels * ch + static_cast<std::int64_t>(rng() % 2) * 16;
        gentt::engine::InterleaveSpec s;
        s.channels = ch;
        s.pixels = pixels;
        s.elem_bytes = e;
        s.plane_in_stride = plane;
        s.outer_counts = {rows};
        s.outer_in_steps = {row_in * e};
        s.outer_out_steps = {row_out * e};
        s.stream = trial > 0;
        s.vbmi = vbmi;
        s.avx2 = avx2;
        const auto blocks = gentt::engine::prepare_interleave(s);
        REQUIRE(blocks);
        const auto in_bytes = static_cast<size_t>(rows * row_in * e), out_bytes = static_cast<size_t>(rows * row_out * e);
        std::vector<std::byte> in(in_bytes);
        for (auto& b : in) b = static_cast<std::byte>(rng());
        std::vector<std::byte> expected(out_bytes, std::byte{0x5a});
        for (std::int64_t r = 0; r < rows; ++r)
          for (std::int64_t p = 0; p < pixels; ++p)
            for (std::int64_t c = 0; c < ch; ++c)
              std::memcpy(expected.data() + (r * row_out + p * ch + c) * e, in.data() + (r * row_in + c * plane + p) * e,
                          static_cast<size_t>(e));
        // The output page-aligned (streamed rows) and ending at its guard page; the flat
        // iterations in up to four random ranges, last first.
        for (auto align : {GuardedBuffer::Align::start, GuardedBuffer::Align::end}) {
          GuardedBuffer out(out_bytes, align);
          std::memset(out.data(), 0x5a, out_bytes);
          const std::int64_t n = blocks->iterations();
          std::vector<std::int64_t> cuts = {0, n};
          for (int k = 0; k < 3; ++k) cuts.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n + 1)));
          std::sort(cuts.begin(), cuts.end());
          for (size_t k = cuts.size() - 1; k-- > 0;)
            blocks->run(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out.data()), cuts[k],
                        cuts[k + 1]);
          INFO((avx2 ? "avx2" : "avx512") << " elem " << e << " channels " << ch << " pixels " << pixels << " rows "
                                          << rows << " stream " << s.stream);
          REQUIRE(std::memcmp(expected.data(), out.data(), out_bytes) == 0);
          ++runs;
        }
      }
    }
  return runs;
}

}  // namespace

TEST_CASE("interleave engine: every element size and channel count against the model", "[interleave]") {
  for (const bool avx2 : {false, true}) {
    if (!gentt::cpu_supports(avx2 ? "avx2" : "avx512skx")) {
      WARN("this CPU lacks " << (avx2 ? "AVX2" : "AVX-512 F/BW") << ": that interleave engine is not checked here");
      continue;
    }
    CHECK(check_engine(avx2) >= 140);
  }
}

TEST_CASE("interleave engine: what it takes", "[interleave]") {
  using gentt::engine::interleave_supported;
  CHECK(interleave_supported(4, 3, false));
  CHECK(interleave_supported(1, 3, true));
  CHECK_FALSE(interleave_supported(1, 3, false));  // vpermb is VBMI (AVX2's in-lane shuffles pass true)
  CHECK_FALSE(interleave_supported(4, 4, true));   // a power of two: no padding in the block
  CHECK_FALSE(interleave_supported(8, 9, true));   // 72 bytes: more than a line
  CHECK_FALSE(interleave_supported(2, 17, true));  // more than 15 channels
  CHECK_FALSE(interleave_supported(3, 3, true));   // 3-byte elements
}
