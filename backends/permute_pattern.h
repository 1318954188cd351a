// Recognizes the cheap fixed shuffles of ARM (NEON and SVE: zip1/zip2, uzp1/uzp2, trn1/trn2,
// ext) in a shuffle's index list, so that a backend can emit one such instruction instead of a
// table lookup. The instructions act on whole registers the same way on both ISAs, so one
// recognizer serves both: NEON's 128-bit register is an SVE register of length 128.
//
// The index list is given in "slots" (a backend's units: bytes for NEON, the LaneUnit for SVE):
// slot l of the result = slot index[l] of concat(a, b), with slots [0, n) in a and [n, 2n) in b;
// -1 = don't care. A pattern of width w slots treats each group of w slots as one element:
//   zip1 x,y: x0 y0 x1 y1 ...  (low halves)      zip2: the same from the high halves
//   uzp1 x,y: x0 x2 x4 ... y0 y2 y4 ...          uzp2: x1 x3 ... y1 y3 ...
//   trn1 x,y: x0 y0 x2 y2 ...                    trn2: x1 y1 x3 y3 ...
//   ext  x,y, k: slots k .. k+n-1 of concat(x, y) (width 1)
// where x and y are each a or b (so one-source shuffles match zip1 a,a and the like).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gentt {

struct PermutePattern {
  enum class Op { copy, zip1, zip2, uzp1, uzp2, trn1, trn2, ext };
  Op op = Op::copy;
  int width = 1;       // slots per element of the instruction (a power of two)
  bool x_is_b = false;  // first operand: b (true) or a (false); copy: the copied register
  bool y_is_b = true;   // second operand
  int ext_slots = 0;    // ext: the first slot taken from concat(x, y)

  static const char* name(Op op);  // "zip1", ...
};

// Slot indices of a shuffle given in elements: element index i (-1 don't care) of `lanes`
// lanes becomes `per_elem` slot indices; b's slots start at `per_reg`. Slots past the last
// lane are don't care (-1).
std::vector<int> expand_to_slots(const std::vector<int>& index, int lanes, int per_elem, int per_reg);

// The first pattern that produces `slots` (n = slots.size() entries, a power of two), trying
// copy, then zip/uzp/trn with the widest element first up to `max_width` slots, then ext.
// `one_source`: the shuffle reads a only (indices < n), so b may stand for a.
std::optional<PermutePattern> recognize_permute(const std::vector<int>& slots, int max_width, bool one_source);

}  // namespace gentt
