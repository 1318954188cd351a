#include "backends/sunway_vshff.h"

#include <optional>
#include <string>

#include "ir/error.h"

namespace gentt {

namespace {

using Lanes = std::array<int, 4>;  // the concat index held by each lane

constexpr Lanes kA = {0, 1, 2, 3};
constexpr Lanes kB = {4, 5, 6, 7};

Lanes apply(const Lanes& hi, const Lanes& lo, int imm) {
  return {lo[imm & 3], lo[(imm >> 2) & 3], hi[(imm >> 4) & 3], hi[(imm >> 6) & 3]};
}

bool matches(const Lanes& value, const Lanes& want) {
  for (int l = 0; l < 4; ++l)
    if (want[l] >= 0 && value[l] != want[l]) return false;
  return true;
}

// Which lane of `value` holds concat index `t` (any lane, 0, for a don't care); -1 if none.
int lane_of(const Lanes& value, int t) {
  if (t < 0) return 0;
  for (int l = 0; l < 4; ++l)
    if (value[l] == t) return l;
  return -1;
}

// One vshff computing `want` from the values whose ids are `usable`, if one exists: its lo
// operand must hold want[0] and want[1], its hi operand want[2] and want[3].
std::optional<VshffStep> one_step(const std::vector<Lanes>& values, const std::vector<int>& usable,
                                  const Lanes& want) {
  for (int lo : usable) {
    const int l0 = lane_of(values[lo], want[0]), l1 = lane_of(values[lo], want[1]);
    if (l0 < 0 || l1 < 0) continue;
    for (int hi : usable) {
      const int l2 = lane_of(values[hi], want[2]), l3 = lane_of(values[hi], want[3]);
      if (l2 < 0 || l3 < 0) continue;
      return VshffStep{hi, lo, l0 | l1 << 2 | l2 << 4 | l3 << 6};
    }
  }
  return std::nullopt;
}

VshffProgram search(const Lanes& want, bool has_b) {
  std::vector<Lanes> values = {kA, kB};  // ids as in VshffStep
  std::vector<int> inputs = {0};
  if (has_b) inputs.push_back(1);
  // No step: a or b is already the permutation.
  for (int v : inputs)
    if (matches(values[v], want)) return {{}, v};
  // One step from the inputs.
  if (auto step = one_step(values, inputs, want)) return {{*step}, 2};
  // Two steps: an intermediate (value 2) from the inputs, then one step from the inputs and it.
  std::vector<int> with_intermediate = inputs;
  with_intermediate.push_back(2);
  values.push_back({});
  for (int hi : inputs)
    for (int lo : inputs)
      for (int imm = 0; imm < 256; ++imm) {
        values[2] = apply(values[hi], values[lo], imm);
        if (auto step = one_step(values, with_intermediate, want)) return {{VshffStep{hi, lo, imm}, *step}, 3};
      }
  throw InternalError("no two-step simd_vshff sequence found (the search's premise is broken)");
}

}  // namespace

std::array<int, 4> simulate_vshff(const VshffProgram& program) {
  std::vector<Lanes> values = {kA, kB};
  for (const VshffStep& s : program.steps) {
    GENTT_CHECK(s.hi >= 0 && s.hi < static_cast<int>(values.size()) && s.lo >= 0 &&
                    s.lo < static_cast<int>(values.size()) && s.imm >= 0 && s.imm < 256,
                "malformed vshff step");
    values.push_back(apply(values[s.hi], values[s.lo], s.imm));
  }
  GENTT_CHECK(program.result >= 0 && program.result < static_cast<int>(values.size()), "malformed vshff result");
  return values[program.result];
}

VshffProgram plan_vshff(const std::array<int, 4>& index, bool has_b) {
  for (int t : index)
    GENTT_CHECK(t >= -1 && t < (has_b ? 8 : 4), "vshff index out of range: " + std::to_string(t));
  VshffProgram program = search(index, has_b);
  // The search builds steps from its own model; the simulator re-checks the result.
  GENTT_CHECK(matches(simulate_vshff(program), index), "vshff program does not compute its permutation");
  for (const VshffStep& s : program.steps)
    GENTT_CHECK(has_b || (s.hi != 1 && s.lo != 1), "one-source vshff program reads b");
  return program;
}

}  // namespace gentt
