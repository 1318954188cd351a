// A two-source byte shuffle without byte permutes (AVX-512 without VBMI: no vpermt2b), as word
// permutes across the register (vpermt2w) followed by byte shuffles inside 16-byte lanes
// (vpshufb). ISA-neutral: this computes the index tables; backends/avx512.cpp emits them.
//
// Output byte i of lane L = i / 16 needs source byte s = index[i] of a||b. Its word s / 2 must
// sit somewhere in lane L of a permuted register P, and byte i then takes byte 2j + (s & 1) of
// P's lane, j being the word's slot there. A lane needs at most 16 distinct words (one per byte),
// so two permutes always suffice:
// - in_lane: every byte's source lies in the same 16-byte lane of a or of b: no permute at all,
//   vpshufb a (and a masked vpshufb of b over the bytes b gives);
// - one permute when no lane needs more than 8 distinct words;
// - else two: P0 holds each lane's first 8 words, P1 the rest; a masked vpshufb of P1 writes the
//   bytes P1 gives over vpshufb(P0).
#pragma once

#include <cstdint>
#include <vector>

namespace gentt {

struct WordByteShuffle {
  bool in_lane = false;                   // no word permutes: byte shuffles of a and b directly
  int sources = 1;                        // registers shuffled: 1 or 2 (P0, P1 or a, b)
  std::vector<int> words[2];              // word index tables of P0, P1 (over a||b words)
  std::vector<int> bytes[2];              // vpshufb tables (0..15 within each 16-byte lane)
  std::uint64_t second = 0;               // output bytes taken from the second source
  bool shuffle_first = true;              // false: P0's bytes are already in place (no vpshufb)
};

// `index`: register_bytes entries, the source byte of each output byte in a||b (0 ..
// 2 * register_bytes - 1), -1 for don't care. register_bytes: 16, 32 or 64.
WordByteShuffle word_byte_shuffle(const std::vector<int>& index, int register_bytes);

// What a WordByteShuffle computes, for tests: the output register from a and b.
std::vector<std::uint8_t> apply_word_byte_shuffle(const WordByteShuffle& s, const std::vector<std::uint8_t>& a,
                                                  const std::vector<std::uint8_t>& b);

}  // namespace gentt
