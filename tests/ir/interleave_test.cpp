// ir/interleave.h: which problems interleave their planes, and their kernels (both variants)
// through the verifier and the interpreter against the reference, in random parts.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "ir/canonical.h"
#include "ir/interleave.h"
#include "ir/plan.h"
#include "ir/stream.h"
#include "ir/verify.h"
#include "tests/ir/parts_check.h"

using namespace gentt;

TEST_CASE("interleave: the problems it takes", "[interleave]") {
  const auto ch = [](int64_t e, std::vector<int64_t> shape, std::vector<int> perm, int64_t out_bytes = 0,
                     bool asked = false, bool vbmi = true) {
    return interleave_channels(canonicalize(e, shape, perm), static_cast<int>(64 / e), out_bytes, asked, vbmi);
  };
  // CHW -> HWC with C = 3: (3, H*W) (1,0); NCHW -> NHWC batched.
  CHECK(ch(4, {3, 224, 224}, {1, 2, 0}) == 3);
  CHECK(ch(1, {8, 3, 64, 64}, {0, 2, 3, 1}) == 3);
  CHECK(ch(1, {3, 224, 224}, {1, 2, 0}, 0, false, false) == 0);  // bytes need VBMI
  // The reverse (HWC -> CHW), powers of two, 16 lanes or more of bytes, rows under 4 vectors.
  CHECK(ch(4, {224, 224, 3}, {2, 0, 1}) == 0);
  CHECK(ch(4, {4, 5000}, {1, 0}) == 0);
  CHECK(ch(4, {16, 5000}, {1, 0}) == 0);
  CHECK(ch(8, {9, 5000}, {1, 0}) == 0);
  CHECK(ch(4, {3, 63}, {1, 0}) == 0);
  // The output's next axis is not the input's innermost: a transpose below (the split walks').
  CHECK(ch(2, {3, 4096, 2000}, {2, 1, 0}) == 0);
  // C = 5: past kStreamMinBytes or where streaming stores are asked for.
  CHECK(ch(4, {5, 5000}, {1, 0}) == 0);
  CHECK(ch(4, {5, 5000}, {1, 0}, kStreamMinBytes) == 5);
  CHECK(ch(4, {5, 5000}, {1, 0}, 0, true) == 5);
  // AVX2 (vectors of half a line): at most 7 planes of 1- and 2-byte elements.
  const auto ch2 = [](int64_t e, std::vector<int64_t> shape, std::vector<int> perm, int64_t out_bytes) {
    return interleave_channels(canonicalize(e, shape, perm), static_cast<int>(32 / e), out_bytes, false, true);
  };
  CHECK(ch2(1, {3, 224, 224}, {1, 2, 0}, 0) == 3);
  CHECK(ch2(1, {7, 5000}, {1, 0}, kStreamMinBytes) == 7);
  CHECK(ch2(2, {9, 5000}, {1, 0}, kStreamMinBytes) == 0);
  CHECK(ch2(4, {12, 5000}, {1, 0}, kStreamMinBytes) == 12);
}

TEST_CASE("interleave: random kernels match the reference", "[interleave][property]") {
  std::mt19937_64 rng(20261132);
  int streamed = 0;
  for (int i = 0; i < 300; ++i) {
    static const int64_t sizes[] = {1, 2, 4, 8};
    static const int64_t channels[] = {3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15};
    const int64_t e = sizes[rng() % 4];
    const int lanes = static_cast<int>((rng() % 2 ? 64 : 32) / e);  // AVX-512 or AVX2 vectors
    int64_t c = channels[rng() % std::size(channels)];
    while (c * e >= 64 || (lanes < 64 / e && e < 4 && c > 7)) c = channels[rng() % 4];
    const int64_t n = kInterleaveMinVectors * lanes + static_cast<int64_t>(rng() % (3 * lanes));
    // (b0, c, n) -> (b0, n, c) or with a second batch axis moved in front.
    std::vector<int64_t> shape = {1 + static_cast<int64_t>(rng() % 3), c, n};
    std::vector<int> perm = {0, 2, 1};
    if (rng() % 2) {
      shape = {2, 1 + static_cast<int64_t>(rng() % 3), c, n};
      perm = {1, 0, 3, 2};
    }
    const Canonical canon = canonicalize(e, shape, perm);
    REQUIRE(interleave_channels(canon, lanes, 0, true, true) == c);
    INFO(fmt::format("elem {} shape ({}) perm ({})", e, fmt::join(shape, ","), fmt::join(perm, ",")));
    for (bool streaming : {false, true}) {
      const Plan plan = make_plan(canon, lanes);
      const std::optional<Kernel> k = lower_interleave(plan, "k", streaming);
      if (!k) {
        REQUIRE(streaming);
        CHECK_FALSE(nests_off_lines(*lower_interleave(plan, "k", false)).empty());
        continue;
      }
      streamed += streaming ? 1 : 0;
      verify_kernel(*k);
      CHECK(k->programs.size() == (n % lanes ? 2u : 1u));
      CHECK(test::parts_match_reference(*k, rng, e, shape, perm));
    }
  }
  CHECK(streamed >= 30);
}
