#include "runtime/shifted_out.h"

namespace gentt::detail {

namespace {

// `sp` as a PermuteDesc view: its axes in canonical input order, strides in elements, with
// `axis` cut to `count` elements (the caller moves the pointers to the view's first element).
PermuteDesc view_of(const engine::StridedProblem& sp, int axis, std::int64_t count, int threads,
                    const std::string& isa) {
  PermuteDesc d;
  d.elem_bytes = sp.elem_bytes;
  d.threads = threads;
  d.isa = isa;
  for (size_t a = 0; a < sp.axes.size(); ++a) {
    d.shape.push_back(static_cast<int>(a) == axis ? count : sp.axes[a].extent);
    d.in_strides.push_back(sp.axes[a].in_stride);
  }
  d.perm = sp.perm;
  for (int a : sp.perm) d.out_strides.push_back(sp.axes[a].out_stride);
  return d;
}

}  // namespace

std::shared_ptr<ShiftedOut> ShiftedOut::make(const engine::StridedProblem& sp, int threads, const std::string& isa,
                                             StreamsFn streams) {
  if (sp.perm.empty()) return nullptr;
  const int axis = sp.perm.back();
  const engine::StridedAxis& row = sp.axes[axis];
  if (row.out_stride != 1 || row.extent * sp.elem_bytes < kMinRowBytes) return nullptr;
  std::shared_ptr<ShiftedOut> s(new ShiftedOut);
  s->sp_ = sp;
  s->axis_ = axis;
  s->threads_ = threads;
  s->isa_ = isa;
  s->streams_ = streams;
  return s;
}

const ShiftedOut::Split* ShiftedOut::split(std::int64_t offset) const {
  if (offset <= 0 || offset >= kLine || offset % sp_.elem_bytes != 0) return nullptr;
  std::call_once(once_[offset], [&] {
    const engine::StridedAxis& row = sp_.axes[axis_];
    const std::int64_t head = (kLine - offset) / sp_.elem_bytes;  // elements before the line boundary
    if (head >= row.extent) return;
    auto s = std::make_unique<Split>();
    s->head = plan_permute(view_of(sp_, axis_, head, threads_, isa_));
    s->body = plan_permute(view_of(sp_, axis_, row.extent - head, threads_, isa_));
    if (!streams_(s->body)) return;
    s->in_offset = head * row.in_stride * sp_.elem_bytes;
    s->out_offset = head * sp_.elem_bytes;
    splits_[offset] = std::move(s);
  });
  return splits_[offset].get();
}

std::string ShiftedOut::describe() const {
  return "where out is off its line by whole elements, the output's innermost axis (" +
         std::to_string(sp_.axes[axis_].extent) +
         " elements) is split at out's first line boundary: the elements before it with cached stores, the rest "
         "streamed (both planned at the first call with each offset)";
}

}  // namespace gentt::detail
