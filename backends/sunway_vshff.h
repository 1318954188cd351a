// SW26010's only pinned-down lane permute is simd_vshff(hi, lo, imm) on 4-lane doublev4:
//   r0 = lo[imm & 3], r1 = lo[(imm >> 2) & 3], r2 = hi[(imm >> 4) & 3], r3 = hi[(imm >> 6) & 3].
// It is not a general two-source permute (lanes 0-1 come from one operand, lanes 2-3 from
// one operand), so every IR shuffle of four lanes becomes a short vshff sequence, found here
// at generation time by an exhaustive search over at most two steps and checked by
// simulation. Two steps always suffice: a lane pair drawn from one source is one operand; a
// pair drawn from both sources fits, together with the other pair, into one intermediate
// whose low half holds two lanes of one source and whose high half two of the other.
#pragma once

#include <array>
#include <vector>

namespace gentt {

// The operands of a step name values: 0 = a, 1 = b, 2 + k = the result of step k.
struct VshffStep {
  int hi = 0;
  int lo = 0;
  int imm = 0;  // 0..255
};

struct VshffProgram {
  std::vector<VshffStep> steps;  // in order; empty when a or b already is the permutation
  int result = 0;                // the value holding the permutation
};

// A program with the fewest steps (0, 1 or 2) whose result lane l is concat(a, b)[index[l]]
// (0-3 are a's lanes, 4-7 b's; -1 = don't care). Without `has_b` only a may be used (every
// index < 4). Throws InternalError if the index list is malformed.
VshffProgram plan_vshff(const std::array<int, 4>& index, bool has_b);

// Runs `program` on symbolic inputs (a = 0 1 2 3, b = 4 5 6 7): the concat index each lane of
// the result holds.
std::array<int, 4> simulate_vshff(const VshffProgram& program);

}  // namespace gentt
