#include "backends/word_byte_shuffle.h"

#include <algorithm>

#include "ir/error.h"

namespace gentt {

namespace {

constexpr int kLane = 16;  // vpshufb's reach, in bytes

// Byte shuffles of a and b directly, when every byte comes from its own lane of a or b.
bool try_in_lane(const std::vector<int>& index, int R, WordByteShuffle& s) {
  bool uses[2] = {false, false};
  for (int i = 0; i < R; ++i) {
    const int src = index[i];
    if (src < 0) continue;
    if ((src % R) / kLane != i / kLane) return false;
    uses[src / R] = true;
  }
  s.in_lane = true;
  s.bytes[0].assign(R, 0);
  s.bytes[1].assign(R, 0);
  // With one source used, it is source "0" of the recipe; with two, a then b.
  const int first = uses[0] || !uses[1] ? 0 : 1;
  s.sources = uses[0] && uses[1] ? 2 : 1;
  s.words[0] = {first};  // which register the single source is (0 = a, 1 = b)
  for (int i = 0; i < R; ++i) {
    const int src = index[i];
    if (src < 0) continue;
    const int which = src / R == first ? 0 : 1;
    s.bytes[which][i] = src % kLane;
    if (which == 1) s.second |= std::uint64_t{1} << i;
  }
  return true;
}

}  // namespace

WordByteShuffle word_byte_shuffle(const std::vector<int>& index, int R) {
  GENTT_CHECK(R == 16 || R == 32 || R == 64, "word_byte_shuffle: register of 16, 32 or 64 bytes");
  GENTT_CHECK(static_cast<int>(index.size()) == R, "word_byte_shuffle: one index per byte");
  for (int v : index) GENTT_CHECK(v >= -1 && v < 2 * R, "word_byte_shuffle: index out of range");
  WordByteShuffle s;
  if (try_in_lane(index, R, s)) return s;

  const int words_per_lane = kLane / 2;
  // Each lane's distinct words, in first use order; the slot of a word is its position there.
  std::vector<std::vector<int>> lane_words(R / kLane);
  for (int i = 0; i < R; ++i) {
    if (index[i] < 0) continue;
    auto& w = lane_words[i / kLane];
    const int word = index[i] / 2;
    if (std::find(w.begin(), w.end(), word) == w.end()) w.push_back(word);
  }
  size_t most = 0;
  for (const auto& w : lane_words) most = std::max(most, w.size());
  s.sources = most > static_cast<size_t>(words_per_lane) ? 2 : 1;
  for (int p = 0; p < s.sources; ++p) {
    s.words[p].assign(R / 2, 0);
    s.bytes[p].assign(R, 0);
  }
  for (int lane = 0; lane < R / kLane; ++lane) {
    const auto& w = lane_words[lane];
    for (size_t k = 0; k < w.size(); ++k)
      s.words[k / words_per_lane][lane * words_per_lane + k % words_per_lane] = w[k];
  }
  s.shuffle_first = false;
  for (int i = 0; i < R; ++i) {
    if (index[i] < 0) continue;
    const auto& w = lane_words[i / kLane];
    const int k = static_cast<int>(std::find(w.begin(), w.end(), index[i] / 2) - w.begin());
    const int p = k / words_per_lane;
    const int byte = 2 * (k % words_per_lane) + (index[i] & 1);
    s.bytes[p][i] = byte;
    if (p == 1) s.second |= std::uint64_t{1} << i;
    if (p == 0 && byte != i % kLane) s.shuffle_first = true;
  }
  return s;
}

std::vector<std::uint8_t> apply_word_byte_shuffle(const WordByteShuffle& s, const std::vector<std::uint8_t>& a,
                                                  const std::vector<std::uint8_t>& b) {
  const int R = static_cast<int>(a.size());
  auto shuffle = [&](const std::vector<std::uint8_t>& v, const std::vector<int>& bytes) {
    std::vector<std::uint8_t> r(R);
    for (int i = 0; i < R; ++i) r[i] = v[(i / kLane) * kLane + bytes[i]];
    return r;
  };
  auto permute = [&](const std::vector<int>& words) {
    std::vector<std::uint8_t> r(R);
    for (int w = 0; w < R / 2; ++w)
      for (int h = 0; h < 2; ++h) {
        const int src = 2 * words[w] + h;
        r[2 * w + h] = src < R ? a[src] : b[src - R];
      }
    return r;
  };
  std::vector<std::uint8_t> regs[2];
  if (s.in_lane) {
    regs[0] = s.words[0][0] == 0 ? a : b;
    regs[1] = b;
  } else {
    for (int p = 0; p < s.sources; ++p) regs[p] = permute(s.words[p]);
  }
  std::vector<std::uint8_t> r = s.in_lane || s.shuffle_first ? shuffle(regs[0], s.bytes[0]) : regs[0];
  if (s.sources == 2) {
    const auto second = shuffle(regs[1], s.bytes[1]);
    for (int i = 0; i < R; ++i)
      if ((s.second >> i) & 1) r[i] = second[i];
  }
  return r;
}

}  // namespace gentt
