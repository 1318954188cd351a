// Streaming stores for an `out` that starts off a line. A plan's streaming variant needs every
// whole-vector store on a 64-byte line, so it runs only where `out` is on one; a buffer from
// malloc or std::vector (16 bytes into a line) or a NumPy array got the cached walk, at about
// half the speed on large transposes. Where the output's rows are whole lines apart, every row
// is off its line by the same number of bytes: the output's innermost axis (stride one element)
// split where `out`'s first line boundary falls leaves two views of the problem, the head (the
// elements of every row before that boundary: a narrow problem, cached stores) and the body (the
// rest, whose rows then start on lines: the streaming plan). Both are PermutePlans over views of
// the canonical problem, made at the first call with each offset of `out` within its line.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "gentt/permute.h"
#include "runtime/engine/strided_problem.h"

namespace gentt::detail {

class ShiftedOut {
 public:
  // Whether a plan has a streaming variant (PermutePlan's own data: plan_permute supplies it).
  using StreamsFn = bool (*)(const PermutePlan&);

  // The split problem for `sp` (a plan's canonical problem with strides) whose plan streams:
  // null where the output has no innermost axis of stride one element, or its rows are shorter
  // than kMinRowBytes. `threads` and `isa` as the plan's.
  static std::shared_ptr<ShiftedOut> make(const engine::StridedProblem& sp, int threads, const std::string& isa,
                                          StreamsFn streams);

  struct Split {
    PermutePlan head, body;
    std::int64_t in_offset = 0, out_offset = 0;  // bytes: where the body's views start
  };
  // The split for an `out` that is `offset` bytes past a line (1..63), or null where it does not
  // stream (an offset that is not a whole number of elements, a body without a streaming plan).
  const Split* split(std::int64_t offset) const;

  // For describe(): how an `out` off its line is written.
  std::string describe() const;

  static constexpr std::int64_t kLine = 64;
  // The head, up to a line of every row, is a narrow problem that runs far below the copy: rows
  // of 16 lines or more only (Intel server core, TTC set, out 16 bytes into a line: rows of 320-
  // 384 bytes split ran at 0.29-0.36 of the best copy, cached at 0.39-0.60; rows of 1472 bytes
  // and more split at 0.73-0.91, the generated kernels' cached walk at 0.36-0.51).
  static constexpr std::int64_t kMinRowBytes = 16 * kLine;

 private:
  ShiftedOut() = default;
  engine::StridedProblem sp_;
  int axis_ = 0;  // the axis of sp_ with output stride 1
  int threads_ = 1;
  std::string isa_;
  StreamsFn streams_ = nullptr;
  mutable std::array<std::once_flag, kLine> once_;
  mutable std::array<std::unique_ptr<Split>, kLine> splits_;
};

}  // namespace gentt::detail
