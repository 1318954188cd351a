// backends/word_byte_shuffle.h: byte shuffles without byte permutes (avx512skx), checked against
// the byte index they implement on random, structured and don't-care-heavy indices, for every
// register size; the kernels that emit them run end to end in e2e_avx512skx_test.
#include <catch2/catch.hpp>

#include <random>

#include "backends/word_byte_shuffle.h"

using namespace gentt;

namespace {

// out[i] = (a||b)[index[i]] for every index that is not a don't care.
void check(const std::vector<int>& index, int R, std::mt19937_64& rng) {
  const WordByteShuffle s = word_byte_shuffle(index, R);
  std::vector<std::uint8_t> a(R), b(R);
  for (auto& x : a) x = static_cast<std::uint8_t>(rng());
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  const auto out = apply_word_byte_shuffle(s, a, b);
  for (int i = 0; i < R; ++i) {
    if (index[i] < 0) continue;
    INFO("R " << R << " byte " << i << " index " << index[i] << " in_lane " << s.in_lane << " sources " << s.sources);
    REQUIRE(out[i] == (index[i] < R ? a[index[i]] : b[index[i] - R]));
  }
  // Table ranges the instructions accept: word indices over a||b, byte indices within a lane.
  for (int p = 0; p < s.sources; ++p) {
    for (int w : s.words[p]) CHECK((s.in_lane ? (w == 0 || w == 1) : (w >= 0 && w < R)));
    for (int x : s.bytes[p]) CHECK((x >= 0 && x < 16));
  }
}

}  // namespace

TEST_CASE("word_byte_shuffle: random two-source indices with don't cares", "[word_byte_shuffle]") {
  std::mt19937_64 rng(13);
  for (int R : {16, 32, 64})
    for (int t = 0; t < 400; ++t) {
      std::vector<int> index(R);
      const int dont_care = static_cast<int>(rng() % 4);  // 0: none; else about 1 in 4, 2, 4/3
      for (auto& v : index) v = dont_care && rng() % 4 < static_cast<unsigned>(dont_care) ? -1 : static_cast<int>(rng() % (2 * R));
      check(index, R, rng);
    }
}

TEST_CASE("word_byte_shuffle: the forms it picks", "[word_byte_shuffle]") {
  std::mt19937_64 rng(5);
  const int R = 64;
  std::vector<int> in_lane_b(R), pairs(R), interleave(R), one_source(R);
  for (int i = 0; i < R; ++i) {
    in_lane_b[i] = R + (i / 16) * 16 + (15 - i % 16);      // each lane of b reversed: one vpshufb of b
    pairs[i] = ((i / 2) % 2 ? R : 0) + (i / 4) * 2 + i % 2;  // whole words: one vpermt2w, no vpshufb
    interleave[i] = (i % 2 ? R : 0) + i / 2 + 1;             // odd byte offsets from both: two permutes
    one_source[i] = (i * 7) % R;                             // a stride-7 gather from a alone
  }
  const auto lane = word_byte_shuffle(in_lane_b, R);
  CHECK(lane.in_lane);
  CHECK(lane.sources == 1);
  CHECK(lane.words[0][0] == 1);
  const auto words = word_byte_shuffle(pairs, R);
  CHECK_FALSE(words.in_lane);
  CHECK(words.sources == 1);
  CHECK_FALSE(words.shuffle_first);
  const auto two = word_byte_shuffle(interleave, R);
  CHECK(two.sources == 2);
  for (const auto* index : {&in_lane_b, &pairs, &interleave, &one_source}) check(*index, R, rng);
}
