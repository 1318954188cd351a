// gentt::plan_permute / PermutePlan / permute: validation, planning, the plan cache and the
// registry of generated kernels. The engines are in runtime/engine/.
#include "gentt/permute.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <concepts>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "gentt/arguments.h"
#include "gentt/cpu.h"
#include "ir/assembly.h"
#include "ir/band.h"
#include "ir/interleave.h"
#include "ir/line_pairs.h"
#include "ir/loops.h"
#include "ir/plan.h"
#include "ir/problem.h"
#include "ir/prefetch.h"
#include "ir/staging.h"
#include "ir/stream.h"
#include "ir/tiling.h"
#include "runtime/engine/assembled.h"
#include "runtime/engine/block_tables.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/row_copy.h"
#include "runtime/engine/interleave.h"
#include "runtime/engine/staged.h"
#include "runtime/engine/strided_problem.h"
#include "runtime/engine/thread_pool.h"
#include "runtime/engine/transform.h"
#include "runtime/engine/walk.h"
#include "runtime/shifted_out.h"
#include "runtime/slab_conversion.h"

namespace gentt {

namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();
// Work below this many output bytes per part is not worth handing to another thread (waking a
// worker costs a few microseconds; a core copies about 64 KiB in that time).
constexpr std::int64_t kMinBytesPerPart = 64 << 10;
constexpr int kMaxThreads = 1024;
// The run-time AVX-512 engine's assembled walks (ir/assembly.h) take tiles of at least this many
// input bytes; the generated kernels take kAssemblyMinTileBytes (2 KiB), whose tiles of a few
// blocks cost the engine its per-tile calls more than the kernel's inlined nest. Zen 5, against
// 2 KiB, the 29 problems of the bench sets and of 600 random large ones that change
// (docs/performance.md): median 1.09x; 17^6 float64 with 17 x 17 tiles (3 x 3 blocks, 5 of them
// tails) -> 17^3 tiles 1.17-1.88x; losses of 0.75-0.79x on four, three of them problems that leave
// the assembled walk (uint8 (181,154,25,109) (1,0,3,2)). 8 KiB ranged 0.68-2.16x against 4 KiB:
// the tile's size wants a cost model (issue 8).
constexpr std::int64_t kRuntimeAssemblyMinTileBytes = std::int64_t{4} << 10;
// ... unless tiles of that size would write more than this many output streams (a carry line and a
// page each) where the generated kernels' minimum writes fewer, or take no assembled walk at all.
// Intel server core (2026-11-29), 17^6 float64, 4 KiB tiles of 289 streams against 2 KiB ones of
// 17, run-time GB/s: (2,0,5,3,1,4) 0.73x, (3,2,5,0,1,4) and (3,5,2,0,1,4) 0.82x; (5,2,1,3,4,0),
// assembled only with 2 KiB tiles: 0.57x. Where the larger tile keeps 17 streams and lengthens
// their pieces (2,0,5,4,3,1), (5,3,2,4,1,0), (3,5,4,0,2,1) it stays: 1.07-1.14x. Of the bench
// sets and 600 random 17-96 MiB problems, 17 change plan: median 1.18x (0.92-2.56x).
constexpr std::int64_t kRuntimeAssemblyMaxStreams = 64;

// A plan's description, written with << as into a stream but appended to a string: a
// std::ostringstream cost about a tenth of a large problem's planning time.
class Text {
 public:
  Text() { s_.reserve(1024); }
  Text& operator<<(std::string_view v) {
    s_ += v;
    return *this;
  }
  Text& operator<<(char c) {
    s_ += c;
    return *this;
  }
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>)
  Text& operator<<(T v) {
    char buf[24];
    s_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
  }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// describe()'s line "canonical: shape (...) perm (...)", without its end.
void canonical_line(Text& text, const Canonical& c) {
  text << "canonical: shape (" << join(c.shape) << ") perm (";
  for (int k = 0; k < c.rank(); ++k) text << (k ? "," : "") << c.perm[k];
  text << ")";
}

// The C-contiguous strides (elements) of a shape.
std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (int a = static_cast<int>(shape.size()) - 2; a >= 0; --a) s[a] = s[a + 1] * shape[a + 1];
  return s;
}

// The lowest and one past the highest byte a strided view touches, relative to its base.
struct Span {
  std::int64_t lo = 0, hi = 0;
};
Span view_span(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
               std::int64_t elem_bytes, const char* field) {
  Span s;
  for (size_t a = 0; a < shape.size(); ++a) {
    std::int64_t reach = 0;
    if (__builtin_mul_overflow(shape[a] - 1, strides[a], &reach) ||
        __builtin_mul_overflow(reach, elem_bytes, &reach) ||
        __builtin_add_overflow(reach < 0 ? s.lo : s.hi, reach, reach < 0 ? &s.lo : &s.hi))
      throw Error(field, "offsets overflow 64 bits");
  }
  if (__builtin_add_overflow(s.hi, elem_bytes, &s.hi)) throw Error(field, "offsets overflow 64 bits");
  return s;
}

// "1 entry", "3 entries".
std::string entries(std::size_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

// No two output elements may share an address: sorted by |stride|, each axis must step past
// the whole extent of the axes inside it, together (sufficient, and true of every array NumPy
// makes). The span of the inner axes is the sum of theirs, not the largest: strides (4, -3, -1)
// over extents (19, 2, 3) reach 6 elements below an element, so the step of 4 lands on another
// (found by tests/fuzz/runtime_fuzz.cpp).
void check_out_strides(const std::vector<std::int64_t>& out_shape, const std::vector<std::int64_t>& strides) {
  std::vector<std::pair<std::int64_t, std::int64_t>> axes;  // |stride|, extent
  for (size_t k = 0; k < out_shape.size(); ++k)
    if (out_shape[k] > 1) axes.push_back({std::llabs(strides[k]), out_shape[k]});
  std::sort(axes.begin(), axes.end());
  std::int64_t reach = 1;  // 1 + the elements spanned by the axes so far (saturating)
  for (const auto& [stride, extent] : axes) {
    if (stride < reach)
      throw Error("out_strides",
                  "(" + join(strides) + ") may let two output elements share an address: gentt takes output layouts "
                  "whose axes, by increasing |stride|, each step past the span of the smaller ones (as NumPy's slices "
                  "and transposes do), and cannot tell other layouts from overlapping ones");
    std::int64_t span = 0;
    if (__builtin_mul_overflow(stride, extent - 1, &span) || __builtin_add_overflow(reach, span, &reach))
      reach = std::numeric_limits<std::int64_t>::max();
  }
}

std::int64_t resolve_elem_bytes(const PermuteDesc& d, std::string* dtype_name) {
  if (d.dtype == "bool") {  // not a generator dtype (ir/problem.h); a 1-byte element that converts
    if (d.elem_bytes != 0 && d.elem_bytes != 1)
      throw Error("elem_bytes", std::to_string(d.elem_bytes) + " disagrees with dtype bool (1 byte)");
    *dtype_name = "bool";
    return 1;
  }
  if (!d.dtype.empty()) {
    const auto dt = parse_dtype(d.dtype);
    if (!dt) throw Error("dtype", "unknown dtype \"" + d.dtype + "\" (a name such as float32, uint8, complex128, bfloat16, or bytesN)");
    if (d.elem_bytes != 0 && d.elem_bytes != dt->bytes)
      throw Error("elem_bytes", std::to_string(d.elem_bytes) + " disagrees with dtype " + d.dtype + " (" +
                                    std::to_string(dt->bytes) + " bytes)");
    *dtype_name = d.dtype;
    return dt->bytes;
  }
  if (d.elem_bytes < 1 || d.elem_bytes > kMaxElemBytes)
    throw Error("elem_bytes", "must be 1.." + std::to_string(kMaxElemBytes) + " (or set dtype), got " +
                                  std::to_string(d.elem_bytes));
  *dtype_name = "bytes" + std::to_string(d.elem_bytes);
  return d.elem_bytes;
}

// avx512: AVX-512 F/BW/VL with VBMI (byte shuffles in one vpermt2b); avx512skx: the same
// engine without VBMI (Skylake-SP, Cascade Lake: byte shuffles from word permutes).
enum class EngineIsa { avx512, avx512skx, avx2, scalar };
bool is_avx512(EngineIsa isa) { return isa == EngineIsa::avx512 || isa == EngineIsa::avx512skx; }
// The name PermutePlan::isa() reports for an engine.
const char* engine_isa_name(EngineIsa isa) {
  switch (isa) {
    case EngineIsa::avx512: return "avx512";
    case EngineIsa::avx512skx: return "avx512skx";
    case EngineIsa::avx2: return "avx2";
    case EngineIsa::scalar: break;
  }
  return "scalar";
}

// The vector width an engine's plans are made for.
std::int64_t vector_bytes(EngineIsa isa) { return isa == EngineIsa::avx2 ? 32 : 64; }

// GENTT_NO_SIMD_ENGINES (CMake option GENTT_RUNTIME_SIMD_ENGINES=OFF): the library was built
// without its AVX2 and AVX-512 block engines; every plan runs the portable engine.
#if defined(GENTT_NO_SIMD_ENGINES)
constexpr bool kSimdEngines = false;
#else
constexpr bool kSimdEngines = true;
#endif

EngineIsa resolve_isa(const std::string& isa) {
  if (!kSimdEngines && (isa == "avx512" || isa == "avx512skx" || isa == "avx2"))
    throw Error("isa", "this gentt runtime was built without its SIMD engines (GENTT_RUNTIME_SIMD_ENGINES=OFF): " +
                           isa + " is not available; use \"auto\" or \"scalar\"");
  if (isa == "auto")
    return !kSimdEngines                 ? EngineIsa::scalar
           : cpu_supports("avx512")    ? EngineIsa::avx512
           : cpu_supports("avx512skx") ? EngineIsa::avx512skx
           : cpu_supports("avx2")      ? EngineIsa::avx2
                                       : EngineIsa::scalar;
  if (isa == "scalar") return EngineIsa::scalar;
  if (isa == "avx512" || isa == "avx512skx") {
    // "avx512" takes VBMI where the CPU has it; "avx512skx" never does (as on Skylake-SP).
    if (!cpu_supports("avx512skx")) throw Error("isa", "this CPU does not run " + isa + " (AVX-512 F, BW, VL)");
    return isa == "avx512" && cpu_supports("avx512") ? EngineIsa::avx512 : EngineIsa::avx512skx;
  }
  if (isa == "avx2") {
    if (!cpu_supports("avx2")) throw Error("isa", "this CPU does not run avx2");
    return EngineIsa::avx2;
  }
  if (isa == "neon" || isa == "sve" || isa == "sve2" || isa == "sunway")
    throw Error("isa", "the run-time library has no " + isa +
                           " engine yet (it has avx512, avx512skx, avx2 and scalar); use \"auto\" or \"scalar\"");
  throw Error("isa", "unknown ISA \"" + isa + "\" (auto, avx512, avx512skx, avx2, scalar)");
}

// ---- the registry ------------------------------------------------------------------------------

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::vector<const gentt_kernel_info*>& registry() {
  static std::vector<const gentt_kernel_info*> r;
  return r;
}

const gentt_kernel_info* find_registered(std::int64_t elem_bytes, const std::vector<std::int64_t>& shape,
                                         const std::vector<int>& perm) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  const auto& r = registry();
  for (auto it = r.rbegin(); it != r.rend(); ++it) {
    const gentt_kernel_info* k = *it;
    if (k->elem_bytes != elem_bytes || k->rank != static_cast<int>(shape.size()) || !cpu_has(k->features)) continue;
    if (!std::equal(shape.begin(), shape.end(), k->shape) || !std::equal(perm.begin(), perm.end(), k->perm)) continue;
    return k;
  }
  return nullptr;
}

}  // namespace

// ---- the plan ----------------------------------------------------------------------------------

struct PermutePlan::Impl {
  std::string description;
  std::string isa;
  std::int64_t elements = 0;
  std::int64_t in_elem_bytes = 0, out_elem_bytes = 0;
  Span in_span, out_span;
  int parts = 1;
  std::unique_ptr<engine::PreparedBlocks> cached;  // output-order loops
  std::unique_ptr<engine::PreparedBlocks> stream;  // streaming stores (out 64-byte aligned): tiles or input-order loops

  bool stream_any_alignment = false;                // the row engine streams wherever rows start
  std::shared_ptr<detail::ShiftedOut> shifted;      // streaming for an out off its line (shifted_out.h), or null
  // The streaming plan when there is one and `out` starts on a line (or it needs not), else the
  // cached one.
  const engine::PreparedBlocks* blocks_for(const void* out) const {
    if (!stream) return cached.get();
    return stream_any_alignment || (reinterpret_cast<std::uintptr_t>(out) % kLineBytes) == 0 ? stream.get() : cached.get();
  }
  // For an `out` off its line: the split that streams the rest of each row (shifted_out.h), or null.
  const detail::ShiftedOut::Split* shifted_for(const void* out) const {
    const auto offset = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out) % kLineBytes);
    return shifted && offset != 0 ? shifted->split(offset) : nullptr;
  }
  std::shared_ptr<const engine::Transform> transform;  // conversion / scaling, or null
  std::string transform_note;  // for describe(): why a conversion is not through slabs
  const gentt_kernel_info* registered = nullptr;
};

PermutePlan::PermutePlan() = default;
PermutePlan::~PermutePlan() = default;
PermutePlan::PermutePlan(const PermutePlan&) = default;
PermutePlan& PermutePlan::operator=(const PermutePlan&) = default;
PermutePlan::PermutePlan(PermutePlan&&) noexcept = default;
PermutePlan& PermutePlan::operator=(PermutePlan&&) noexcept = default;

std::string PermutePlan::describe() const { return impl_ ? impl_->description : "(empty plan)"; }
std::string PermutePlan::isa() const { return impl_ ? impl_->isa : ""; }
std::int64_t PermutePlan::in_bytes() const { return impl_ ? impl_->elements * impl_->in_elem_bytes : 0; }
std::int64_t PermutePlan::out_bytes() const { return impl_ ? impl_->elements * impl_->out_elem_bytes : 0; }

namespace {

void check_buffers(const PermutePlan::Impl* impl, const void* in, const void* out);

}  // namespace

void PermutePlan::execute(const void* in, void* out) const {
  check_buffers(impl_.get(), in, out);
  const Impl& p = *impl_;
  const char* src = static_cast<const char*>(in);
  char* dst = static_cast<char*>(out);

  if (p.registered) {
    const gentt_kernel_info* k = p.registered;
    if (p.parts <= 1 || !k->run_part) return k->run(in, out);
    return engine::run_parts(p.parts, [&](int part) { k->run_part(in, out, part, p.parts); });
  }
  if (const detail::ShiftedOut::Split* s = p.shifted_for(out)) {
    s->head.execute(in, out);
    s->body.execute(src + s->in_offset, dst + s->out_offset);
    return;
  }
  const engine::PreparedBlocks* blocks = p.blocks_for(out);
  const std::int64_t t = blocks->iterations();
  const int n = static_cast<int>(std::min<std::int64_t>(p.parts, t));
  if (n <= 1) return blocks->run(src, dst, 0, t);
  engine::run_parts(n, [&](int part) {
    blocks->run(src, dst, engine::part_begin(t, part, n), engine::part_begin(t, part + 1, n));
  });
}

void PermutePlan::execute_part(const void* in, void* out, int part, int nparts) const {
  check_buffers(impl_.get(), in, out);
  if (nparts < 1) throw Error("nparts", "must be >= 1, got " + std::to_string(nparts));
  if (part < 0 || part >= nparts)
    throw Error("part", "must be in [0, " + std::to_string(nparts) + "), got " + std::to_string(part));
  const Impl& p = *impl_;
  if (p.registered) {
    if (p.registered->run_part) return p.registered->run_part(in, out, part, nparts);
    if (part == 0) p.registered->run(in, out);
    return;
  }
  if (const detail::ShiftedOut::Split* s = p.shifted_for(out)) {
    s->head.execute_part(in, out, part, nparts);
    s->body.execute_part(static_cast<const char*>(in) + s->in_offset, static_cast<char*>(out) + s->out_offset, part,
                         nparts);
    return;
  }
  const engine::PreparedBlocks* blocks = p.blocks_for(out);
  const std::int64_t t = blocks->iterations();
  blocks->run(static_cast<const char*>(in), static_cast<char*>(out), engine::part_begin(t, part, nparts),
              engine::part_begin(t, part + 1, nparts));
}

namespace {

void check_buffers(const PermutePlan::Impl* p, const void* in, const void* out) {
  if (!p) throw Error("plan", "is empty (default-constructed); make one with gentt::plan_permute");
  if (in == nullptr) throw Error("in", "must not be null");
  if (out == nullptr) throw Error("out", "must not be null");
  const auto i = reinterpret_cast<std::intptr_t>(in), o = reinterpret_cast<std::intptr_t>(out);
  if (o + p->out_span.lo < i + p->in_span.hi && i + p->in_span.lo < o + p->out_span.hi)
    throw Error("out", "overlaps in");
}

}  // namespace

namespace {

// The row engine for a permutation that keeps its innermost axis. The cached walk runs the other
// axes in output order, so consecutive rows are neighbours in the output; for outputs of 8 MiB
// and more in the generated kernels' balanced order, and staged where short rows end inside
// lines (both below). The streaming walk
// (large outputs) reads in input order, with the loop over the output's next axis split so that
// groups of up to engine::kMaxRowGroup rows that are neighbours in the output are copied
// together, line by line (the group's loads in flight together, then its stores): a group's
// streamed lines are contiguous (alone, a row of one line would go out as a single scattered
// line). The generated kernels make the same walk with blocks of 8 registers along that axis.
// Rows are not cache-tiled: as in the generated kernels, the row is the unit that reads in order.

void plan_rows(PermutePlan::Impl& impl, const engine::StridedProblem& sp, EngineIsa isa, std::int64_t out_total,
               bool out_contiguous, Text& text) {
  const engine::StridedAxis row = sp.axes.back();
  const std::int64_t in_bytes = sp.elem_bytes, out_bytes = impl.out_elem_bytes;
  std::vector<LoopDim> out_order;
  for (size_t a = 0; a + 1 < sp.axes.size(); ++a)
    out_order.push_back(LoopDim{sp.axes[a].extent, sp.axes[a].in_stride, sp.axes[a].out_stride, -1,
                                "axis " + std::to_string(a), static_cast<int>(a)});
  std::stable_sort(out_order.begin(), out_order.end(),
                   [](const LoopDim& x, const LoopDim& y) { return std::llabs(x.out_stride) > std::llabs(y.out_stride); });
  engine::RowSink sink;
  if (impl.transform) sink = impl.transform->sink();
  engine::RowCopySpec spec;
  spec.row_elems = row.extent;
  spec.in_elem_bytes = in_bytes;
  spec.out_elem_bytes = out_bytes;
  spec.isa = is_avx512(isa) ? engine::RowIsa::avx512
             : isa == EngineIsa::avx2  ? engine::RowIsa::avx2
                                       : engine::RowIsa::portable;
  spec.sink = impl.transform ? &sink : nullptr;  // copied by the engine
  // A loop nest with the rows each of its iterations copies (groups along `W`, below).
  struct Nest {
    std::vector<LoopDim> loops;
    std::int64_t group = 1, rest = 0;
  };
  LoopDim W;
  auto prepare = [&](const Nest& n, bool stream) {
    engine::RowCopySpec s = spec;
    s.stream = stream;
    s.group = n.group;
    s.group_rest = n.rest;
    s.group_in_stride = W.in_stride;
    s.group_out_stride = W.out_stride;
    return engine::prepare_row_copy(n.loops, s);
  };
  // `order`'s loops with the loop over the output's next axis walking groups of rows (the
  // rows of a group are copied together by one iteration), or ungrouped.
  const bool groups = !out_order.empty() && row.extent * in_bytes <= 2 * engine::kRowPieceBytes;
  if (groups) W = out_order.back();
  const std::int64_t group = groups ? std::min(engine::kMaxRowGroup, W.count) : 1;
  auto grouped = [&](const std::vector<LoopDim>& order) {
    if (!groups) return Nest{order, 1, 0};
    const std::int64_t rest = W.count % group;
    Nest n{{}, group, rest};
    for (const auto& l : order) {
      if (l.what != W.what) {
        n.loops.push_back(l);
        continue;
      }
      LoopDim outer = W;
      outer.count = (W.count + group - 1) / group;
      outer.in_stride *= group;
      outer.out_stride *= group;
      outer.tail_bit = rest ? 0 : -1;  // the last group has `rest` rows
      outer.what += " (groups)";
      n.loops.push_back(outer);
    }
    return n;
  };
  // Cached: one row at a time in output order (groups measured slower there: 8 MiB (1,0,2)
  // float32 73 -> 53 GB/s); for an output past the last-level cache, in the generated kernels'
  // balanced order (ir/loops.h: from the row outwards, each loop continuing the shorter of the
  // input's and the output's runs; short rows whose input neighbour output order reaches only
  // after more than an L2 of output walk that neighbour first, ir/row_order.h), so that both walk
  // the same rows in the same order.
  std::vector<LoopDim> cached_order = out_order;
  std::string row_order_note;
  // The rows as a plan whose block is one whole row (no loop over it), for the loop order and
  // the staging rule of ir/.
  Plan rows_plan;
  rows_plan.problem = sp.canonical();
  rows_plan.lanes = 1;
  rows_plan.block_axes.push_back(BlockAxis{static_cast<int>(sp.axes.size()) - 1, row.extent, row.extent, 0, 0, 0});
  for (const auto& a : sp.axes) {
    rows_plan.in_strides.push_back(a.in_stride);
    rows_plan.out_strides.push_back(a.out_stride);
  }
  if (out_total >= kBalancedMinBytes && !cached_order.empty()) {
    std::vector<LoopDim> balanced = make_block_loops(rows_plan, LoopOrder::balanced).loops;
    bool same = true;
    for (size_t k = 0; k < balanced.size(); ++k) same &= balanced[k].what == cached_order[k].what;
    if (!same) {
      row_order_note = "from the row outwards, each loop continuing the shorter of the input's and the output's "
                       "runs, as the generated kernels walk outputs of 8 MiB and more (";
      for (size_t k = 0; k < balanced.size(); ++k) row_order_note += (k ? ", " : "") + balanced[k].what;
      row_order_note += ", outermost first)";
    }
    cached_order = std::move(balanced);
  }
  impl.isa = engine_isa_name(isa);
  const std::int64_t row_bytes = row.extent * out_bytes;
  const bool large = !impl.transform && out_total >= kStreamMinBytes;  // streaming pays from here
  // Staged output (ir/staging.h), as the generated kernels stage these rows: where short rows
  // end inside lines (most of their lines shared with neighbouring rows), a large contiguous
  // output is assembled in tiles of whole rows (the innermost output axes) in a buffer and
  // streamed out in whole lines. Longer rows stream their own whole lines (below;
  // ir/staging.h's kStageMaxKeptRowBytes). Decided before the cached walk is prepared: a cut
  // loop changes its nest.
  std::optional<StagePlan> stage;
  std::string cut_note;
  bool row_tiles = false;
  if (spec.isa != engine::RowIsa::portable && large && out_contiguous && out_total >= kStageMinBytes &&
      row_bytes % kLineBytes != 0) {
    stage = plan_staging(rows_plan, cached_order, nullptr, kStageMinTileBytes, kStageMaxTileBytes,
                         kStageMaxKeptRowBytes);
    // Where one loop (the output's next axis) takes the tile past the window, that loop in chunks.
    if (!stage) {
      if (std::optional<StageCut> cut = split_for_staging(rows_plan, cached_order)) {
        cached_order = std::move(cut->loops);
        cut_note = " (" + cut->note + ")";
        stage = plan_staging(rows_plan, cached_order, nullptr, kStageMinTileBytes, kStageMaxTileBytes,
                             kStageMaxKeptRowBytes);
      }
    }
    // Where none stages, the nest reordered into row tiles (ir/staging.h, tile_rows_for_staging).
    if (!stage) {
      if (std::optional<RowTiles> tiles = tile_rows_for_staging(rows_plan, cached_order)) {
        cached_order = std::move(tiles->loops);
        cut_note = " (" + tiles->note + ")";
        stage = std::move(tiles->stage);
        row_tiles = true;
        row_order_note = "in row tiles (";
        for (size_t k = 0; k < cached_order.size(); ++k) row_order_note += (k ? ", " : "") + cached_order[k].what;
        row_order_note += ", outermost first)";
      }
    }
  }
  impl.cached = prepare(Nest{cached_order, 1, 0}, false);
  std::string stage_note;
  if (stage) {
    engine::StageGeometry g;
    for (int l = 0; l < stage->level; ++l) {
      g.outer_counts.push_back(cached_order[l].count);
      g.outer_out_steps.push_back(cached_order[l].out_stride * out_bytes);
      g.outer_in_steps.push_back(cached_order[l].in_stride * in_bytes);
      g.outer_tails |= cached_order[l].tail_bit >= 0;
    }
    g.from_base = true;  // rows copied whole: every access inside a row
    g.tile_iterations = stage->tile_iterations;
    g.tile_bytes = stage->tile_elements * out_bytes;
    g.isa = spec.isa == engine::RowIsa::avx512 ? engine::StageIsa::avx512 : engine::StageIsa::avx2;
    impl.cached = engine::make_staged(std::move(impl.cached), std::move(g));
    stage_note = "staged: " + stage->reason + cut_note;
  }
  // Each row streams its own whole lines; the lines it shares with its neighbours are written
  // through the cache, next to the streamed ones. Short rows are mostly such lines: rows of 120
  // bytes (15^6 float64, axes (0,3,2,4,1,5)) ran at 0.40 of the best copy streamed against 0.52
  // cached on AVX-512, 0.14 against 0.69 on AVX2, whose two half-line stores per line also lost
  // on rows of 1032 bytes (0.46 against 0.62; AVX-512 0.74 against 0.61). Rows of whole lines
  // (256 and 1472 bytes) gained on both (AVX2 0.44 -> 0.69, 0.78 -> 1.09).
  const bool stream_rows =
      spec.isa == engine::RowIsa::avx512 ? row_bytes >= 2 * kLineBytes || row_bytes % kLineBytes == 0
      : spec.isa == engine::RowIsa::avx2 ? row_bytes % kLineBytes == 0
                                         : false;
  if (stream_rows && large && stage_note.empty()) {
    impl.stream_any_alignment = true;  // each row streams its own whole lines
    std::vector<LoopDim> in_order = out_order;
    std::stable_sort(in_order.begin(), in_order.end(),
                     [](const LoopDim& x, const LoopDim& y) { return std::llabs(x.in_stride) > std::llabs(y.in_stride); });
    impl.stream = prepare(grouped(in_order), true);
  }
  canonical_line(text, sp.canonical());
  text << ": the innermost axis is kept\n";
  text << "engine: " << impl.cached->describe() << ", " << impl.cached->iterations() << " rows or pieces, "
       << impl.parts << " part(s)\n";
  if (impl.transform) text << "transform: " << impl.transform->describe() << impl.transform_note << "\n";
  text << "loops: " << (row_order_note.empty() ? "output order" : row_order_note)
       << (row_tiles ? ", each tile's rows read on by the loop above it\n" : ", no tiling: each row reads in order\n");
  text << "stores: ";
  if (!impl.stream && large && stage_note.empty() && spec.isa == engine::RowIsa::avx512)
    text << "cached (rows of " << row_bytes << " bytes: most of their lines are shared with neighbouring rows)";
  else if (!impl.stream && large && stage_note.empty() && spec.isa == engine::RowIsa::avx2)
    text << "cached (AVX2 streams only rows of whole 64-byte lines; these have " << row_bytes << " bytes)";
  else if (!impl.stream && !stage_note.empty())
    text << "cached; " << stage_note;
  else if (!impl.stream)
    text << "cached";
  else
    text << "streaming for each row's whole lines, wherever out starts (input-order loops, " << group
         << " rows that are output neighbours at a time)";
  text << "\n";
  impl.description = text.str();
}

// A short axis moved innermost (planar to interleaved, engine/interleave.h): the interleave
// engine where it takes the problem (AVX-512 or AVX2, a plain permutation, ir/interleave.h's
// rule: C = 3 whatever the size, other C past the caches, where its C x C permutes per C vectors
// pay off; warm in cache float32 (6,20000) (1,0) ran 0.57 -> 0.42 of the best copy with it).
// False: the block engines plan it.
bool plan_interleave(PermutePlan::Impl& impl, const engine::StridedProblem& sp, EngineIsa isa, std::int64_t out_total,
                     Text& text) {
  if ((!is_avx512(isa) && isa != EngineIsa::avx2) || impl.transform || sp.axes.size() < 2) return false;
  const int d = static_cast<int>(sp.axes.size());
  const engine::StridedAxis& pixels = sp.axes.back();
  const int channel = sp.perm.back();  // the output's innermost axis
  if (channel == d - 1 || pixels.in_stride != 1 || sp.axes[channel].out_stride != 1) return false;
  const std::int64_t c = sp.axes[channel].extent, e = sp.elem_bytes;
  // The generated kernels' rule (ir/interleave.h: C = 3 in cache, every C it takes past the caches;
  // AVX2 shuffles bytes in lanes, no VBMI needed).
  // (The engine takes every problem the rule does: prepare_interleave checks.)
  const bool avx2 = isa == EngineIsa::avx2, bytes_ok = isa == EngineIsa::avx512 || avx2;
  const Canonical canon = sp.canonical();
  if (interleave_channels(canon, static_cast<int>(vector_bytes(isa) / e), out_total, false, bytes_ok) != c ||
      pixels.out_stride != c)
    return false;
  engine::InterleaveSpec spec;
  spec.channels = c;
  spec.pixels = pixels.extent;
  spec.elem_bytes = e;
  spec.plane_in_stride = sp.axes[channel].in_stride;
  spec.vbmi = isa == EngineIsa::avx512;
  spec.avx2 = avx2;
  spec.stream = out_total >= kStreamMinBytes;
  // The other axes, one output row each, in output order.
  std::vector<engine::StridedAxis> outer;
  for (int a = 0; a < d - 1; ++a)
    if (a != channel) outer.push_back(sp.axes[a]);
  std::stable_sort(outer.begin(), outer.end(), [](const engine::StridedAxis& x, const engine::StridedAxis& y) {
    return std::llabs(x.out_stride) > std::llabs(y.out_stride);
  });
  for (const engine::StridedAxis& a : outer) {
    spec.outer_counts.push_back(a.extent);
    spec.outer_in_steps.push_back(a.in_stride * e);
    spec.outer_out_steps.push_back(a.out_stride * e);
  }
  impl.cached = engine::prepare_interleave(spec);
  if (!impl.cached) return false;
  impl.isa = engine_isa_name(isa);
  canonical_line(text, canon);
  text << ": a short axis (" << c << " elements) moved innermost\n";
  text << "engine: " << impl.cached->describe() << ", " << impl.cached->iterations() << " groups, " << impl.parts
       << " part(s)\n";
  text << "loops: the other axes in output order, each row's groups in order\n";
  text << "stores: " << (spec.stream ? "streaming (whole vectors) where a row starts on a 64-byte line, else cached"
                                     : "cached (whole vectors)")
       << "\n";
  impl.description = text.str();
  return true;
}

// The block's lanes at most this many for the next plan_permute on this thread (0: the ISA's
// vector); plan_permute reads and clears it first, so the plans it makes inside start at 0.
thread_local int t_lane_cap = 0;

}  // namespace

PermutePlan plan_permute(const PermuteDesc& d) {
  const int lane_cap = std::exchange(t_lane_cap, 0);
  auto impl = std::make_shared<PermutePlan::Impl>();
  std::string dtype_name;
  const std::int64_t elem_bytes = resolve_elem_bytes(d, &dtype_name);
  if (d.shape.size() > static_cast<size_t>(kMaxRank))
    throw Error("shape", "has " + std::to_string(d.shape.size()) + " axes; at most " + std::to_string(kMaxRank));
  check_permute_arguments(static_cast<std::size_t>(elem_bytes), d.shape, d.perm);
  const int rank = static_cast<int>(d.shape.size());
  std::vector<std::int64_t> out_shape(rank);
  for (int k = 0; k < rank; ++k) out_shape[k] = d.shape[d.perm[k]];

  if (d.threads < 0 || d.threads > kMaxThreads)
    throw Error("threads", "must be 0 (every core) or 1.." + std::to_string(kMaxThreads) + ", got " +
                               std::to_string(d.threads));
  const EngineIsa isa = resolve_isa(d.isa);

  // Conversion and scaling.
  impl->transform = engine::make_transform(dtype_name, d.out_dtype.empty() ? dtype_name : d.out_dtype, d.alpha, d.beta);
  impl->in_elem_bytes = elem_bytes;
  impl->out_elem_bytes = impl->transform ? impl->transform->out_elem_bytes() : elem_bytes;

  // Strides.
  const bool in_dense = d.in_strides.empty(), out_dense = d.out_strides.empty();
  if (!in_dense && d.in_strides.size() != d.shape.size())
    throw Error("in_strides", "has " + entries(d.in_strides.size()) + " but shape has " +
                                  std::to_string(rank) + " axes");
  if (!out_dense && d.out_strides.size() != d.shape.size())
    throw Error("out_strides", "has " + entries(d.out_strides.size()) + " but shape has " +
                                   std::to_string(rank) + " axes");
  const std::vector<std::int64_t> in_strides = in_dense ? contiguous_strides(d.shape) : d.in_strides;
  const std::vector<std::int64_t> out_strides = out_dense ? contiguous_strides(out_shape) : d.out_strides;
  impl->in_span = view_span(d.shape, in_strides, impl->in_elem_bytes, "in_strides");
  // The span first: it reports offsets that overflow (a stride of INT64_MIN, whose magnitude
  // check_out_strides could not take) before the overlap rule looks at the strides.
  impl->out_span = view_span(out_shape, out_strides, impl->out_elem_bytes, "out_strides");
  if (!out_dense) check_out_strides(out_shape, out_strides);
  impl->elements = element_count(d.shape);

  // Threads: parts of at least kMinBytesPerPart of output.
  const int threads = d.threads == 0 ? engine::machine_threads() : d.threads;
  const std::int64_t out_total = impl->elements * impl->out_elem_bytes;
  impl->parts = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, out_total / kMinBytesPerPart)));

  Text text;
  text << "problem: " << dtype_name << " shape (" << join(d.shape) << ") perm (";
  for (int k = 0; k < rank; ++k) text << (k ? "," : "") << d.perm[k];
  text << ")";
  if (!in_dense) text << " in_strides (" << join(in_strides) << ")";
  if (!out_dense) text << " out_strides (" << join(out_strides) << ")";
  text << "\n";

  // A registered generated kernel for exactly this problem comes first.
  const bool in_contiguous = in_dense || in_strides == contiguous_strides(d.shape);
  const bool out_contiguous = out_dense || out_strides == contiguous_strides(out_shape);
  const bool contiguous = in_contiguous && out_contiguous;
  if (contiguous && !impl->transform) {
    if (const gentt_kernel_info* k = find_registered(elem_bytes, d.shape, d.perm)) {
      if (d.isa == "auto" || d.isa == k->isa) {
        impl->registered = k;
        impl->isa = std::string("registered:") + k->name;
        text << "engine: the registered generated kernel " << k->name << " (" << k->isa << "), " << impl->parts
             << " part(s)\n";
        impl->description = text.str();
        PermutePlan plan;
        plan.impl_ = std::move(impl);
        return plan;
      }
    }
  }

  // The GenTT plan of the canonical problem, with the views' strides.
  const engine::StridedProblem sp = engine::make_strided_problem(elem_bytes, d.shape, d.perm, in_strides, out_strides);
  const Canonical canon = sp.canonical();
  const bool simd = isa != EngineIsa::scalar;

  // Conversion and scaling into a contiguous output: through output slabs where they apply.
  if (impl->transform && out_contiguous) {
    std::string why;
    const std::int64_t target = detail::slab_target_bytes(sp.elements * elem_bytes, impl->parts);
    if (const std::optional<detail::SlabGeometry> g = detail::choose_slabs(sp, elem_bytes, &why, target)) {
      PermutePlan full = plan_permute(detail::slab_desc(d, sp, *g, g->chunk));
      PermutePlan tail;
      if (g->extent % g->chunk != 0) tail = plan_permute(detail::slab_desc(d, sp, *g, g->extent % g->chunk));
      impl->isa = full.isa();
      canonical_line(text, canon);
      text << "\n";
      text << "transform: " << impl->transform->describe() << ", through " << g->reason << ": each slab moved as "
           << dtype_name << " into a buffer in cache by the plan below, then converted (one row-transform call per "
           << "output run); " << impl->parts << " part(s)\n";
      std::string sub = full.describe();
      for (size_t at = 0; at < sub.size();) {  // the slab's plan, indented
        const size_t end = std::min(sub.find('\n', at), sub.size());
        text << "  slab " << sub.substr(at, end - at) << "\n";
        at = end + 1;
      }
      // The slab conversion is the plan's blocks (no streaming plan: `cached` runs for every out).
      impl->cached = std::make_unique<detail::SlabConversion>(*g, std::move(full), std::move(tail),
                                                              impl->transform->sink(), elem_bytes);
      impl->description = text.str();
      PermutePlan result;
      result.impl_ = std::move(impl);
      return result;
    }
    impl->transform_note = ", fused into the blocks or rows (no output slabs: " + why + ")";
  } else if (impl->transform) {
    impl->transform_note = ", fused into the blocks or rows (no output slabs: the output is strided)";
  }

  // A permutation that keeps the innermost axis moves whole rows (engine/row_copy.h).
  if (!sp.axes.empty() && sp.axes.back().in_stride == 1 && sp.axes.back().out_stride == 1 &&
      sp.axes.back().extent * elem_bytes >= engine::kRowMinBytes) {
    plan_rows(*impl, sp, isa, out_total, out_contiguous, text);
    PermutePlan result;
    result.impl_ = std::move(impl);
    return result;
  }
  if (plan_interleave(*impl, sp, isa, out_total, text)) {
    PermutePlan result;
    result.impl_ = std::move(impl);
    return result;
  }
  const int max_lanes = static_cast<int>(std::bit_floor(
      static_cast<std::uint64_t>(std::max<std::int64_t>(1, (simd ? vector_bytes(isa) : 64) / elem_bytes))));
  std::optional<engine::BlockTables> tables;
  Plan plan;
  // Strided views whose rows are not contiguous take a narrower block, down to one element.
  const int first_lanes = simd ? (lane_cap > 0 ? std::min(max_lanes, lane_cap) : max_lanes) : std::min(max_lanes, 16);
  // AVX-512 byte blocks split their input rows (ir/plan.h's register_limit: 32 registers of two
  // half rows), as the generated kernels' do, where the split-row engine takes every program
  // (engine/split_rows.h; else the 64-register block) and, for large outputs, the split pads not
  // much more than 32 lanes would (split_pads_more: ir/pipeline.cpp's rule).
  const int register_limit = simd && is_avx512(isa) && elem_bytes == 1 && !impl->transform ? 32 : 0;
  for (int lanes = first_lanes; lanes >= 1 && !tables; lanes /= 2) {
    for (const int limit : {register_limit, 0}) {
      plan = make_plan(canon, lanes, kMinRegisterBits, limit);
      if (plan.split_row && out_total >= kStageMinBytes && split_pads_more(plan)) break;  // the next lanes
      if (!sp.axes.empty())
        for (size_t a = 0; a < sp.axes.size(); ++a) {
          plan.in_strides[a] = sp.axes[a].in_stride;
          plan.out_strides[a] = sp.axes[a].out_stride;
        }
      tables = engine::make_block_tables(plan, LoopOrder::output);
      if (tables || !plan.split_row) break;
    }
  }
  if (!tables) throw std::logic_error("gentt: no block plan for a one-element block (internal error)");

  // Cache tiling of the two loops that read and write in order (ir/tiling.h), for outputs
  // far larger than the caches; tiles that do not divide the loops leave remainder regions.
  // The input bytes of one full block of `t` (ir/tiling.h's rules).
  auto block_in_bytes = [&](const engine::BlockTables& t) {
    std::int64_t block_in = 0;
    for (int c : t.programs.front().load_count) block_in += c * elem_bytes;
    for (int c : t.programs.front().load_count2) block_in += c * elem_bytes;  // split rows' second runs
    return block_in;
  };
  auto tile = [&](engine::BlockTables& t) {
    // AVX-512 blocks of whole-line registers that read at most 1 KiB: tiles from 8 MiB only.
    return tile_block_loops(t.loops, out_total, kTileMinBytes, is_avx512(isa) && plan.lanes * elem_bytes == kLineBytes,
                            block_in_bytes(t), kTileCacheBytes);
  };
  TileChoice tiling;
  if (simd) tiling = tile(*tables);
  if (tiling.untiled_large && out_total >= kBalancedMinBytes) {
    *tables = engine::with_loop_order(*tables, plan, LoopOrder::balanced);
    tiling.reason += kBalancedReason;
  }

  // Streaming stores (ir/stream.h's rule) for an output far larger than the caches, with
  // registers of whole vectors of the engine (a 64-byte line on AVX-512, half of one on AVX2).
  const std::int64_t vector = plan.lanes * elem_bytes;
  const bool stream = simd && !impl->transform && out_total >= kStreamMinBytes &&
                      vector == (is_avx512(isa) ? kLineBytes : isa == EngineIsa::avx2 ? kLineBytes / 2 : 0);

  // Whole-vector loads of partial rows (PrepareOptions::in_lo/in_hi) only for a C-contiguous
  // input: every byte of its span is an element. A strided view's span also holds bytes that are
  // not the view's (padding, other slices of its parent, which another thread may be writing).
  engine::PrepareOptions cached_options;
  if (in_contiguous) {
    cached_options.in_lo = impl->in_span.lo;
    cached_options.in_hi = impl->in_span.hi;
  }
  engine::RowSink sink;
  if (impl->transform) {
    sink = impl->transform->sink();
    cached_options.sink = &sink;
  }
  // The engine `which` over the tables' blocks, walking every region of the tiles `tl` (the
  // engines prepare the programs once for all regions: PrepareOptions::regions).
  auto prepare = [&](const engine::BlockTables& t, const TileChoice& tl, const engine::PrepareOptions& o,
                     const std::string& which) -> std::unique_ptr<engine::PreparedBlocks> {
    engine::PrepareOptions ro = o;
    if (tl.regions.size() > 1) ro.regions = &tl.regions;
    if (which == "avx512") return engine::prepare_avx512(t, elem_bytes, ro, isa == EngineIsa::avx512);
    if (which == "avx2") return engine::prepare_avx2(t, elem_bytes, ro);
    return engine::prepare_portable(t, elem_bytes, ro);
  };
  const char* simd_engine = !simd ? nullptr : is_avx512(isa) ? "avx512" : isa == EngineIsa::avx2 ? "avx2" : nullptr;
  // Output lines assembled across tiles (ir/assembly.h), as the generated kernels do: a large
  // output written with cached stores, contiguous tensors, the AVX-512 or AVX2 engine. The walk
  // replaces the cached one (tiled or not); iterations outside whole tiles run it directly. Tried
  // first: the cached walk's blocks are only prepared where it does not apply (they are the
  // direct walk's programs, so the engine takes them if it took the direct walk's).
  std::string stage_note;
  // Staged output (ir/staging.h, below): a large contiguous output written with cached stores goes
  // out through tiles assembled in a buffer and streamed in whole lines (untiled nests only: the
  // tiled ones' regions are walked one after the other). Planned once here: the assembled walk
  // asks whether the cached walk would stage.
  std::optional<StagePlan> stage;
  if (simd && !impl->transform && out_contiguous && out_total >= kStageMinBytes && !tiling.tiled &&
      tiling.regions.size() <= 1) {
    std::string why;
    stage = plan_staging(plan, tables->loops.loops, &why);
  }
  std::optional<BlockLoops> assembled_walk;
  if (simd_engine && !impl->transform && in_contiguous && out_contiguous && out_total >= kStageMinBytes) {
    // The engines' run of a tile costs more than the generated kernel's (a call through the walk,
    // calls for its tail runs): tiles of at least kRuntimeAssemblyMinTileBytes on AVX-512, of at
    // least 16 KiB on AVX2 (17^6 float64 (2,0,5,3,1,4), tiles of 2312 bytes -> 39304: 0.49 ->
    // 0.63 of the generated AVX-512 kernel; (3,2,5,0,1,4) 0.52 -> 0.59; Zen 4).
    const std::int64_t min_tile = is_avx512(isa) ? kRuntimeAssemblyMinTileBytes : std::int64_t{16} << 10;
    // The generated kernels' order (ir/assembly.h's choose_assembly): whole axes, a strided tile
    // unless the cached walk stages (below), a split problem, chunked loops.
    const auto choose = [&](std::int64_t min_tile_bytes) {
      return choose_assembly(plan, [&] { return stage.has_value(); }, kAssemblyMaxTileBytes, min_tile_bytes);
    };
    AssemblyChoice choice = choose(min_tile);
    // Where the larger minimum leaves no assembled walk, or reaches it only with many more output
    // streams (17^6 float64 (2,0,5,3,1,4): 289 streams of 136 bytes where the 2 KiB tile has 17),
    // the generated kernels' tile (kRuntimeAssemblyMaxStreams). On AVX2 too: without it the 38
    // such problems of the bench and /tmp sets kept the cached walk (Intel server core, 1 thread,
    // x best copy, same process): 1.0-3.2x, none slower; float32 (22,14,34,9,9,28)
    // (5,0,1,3,4,2) 0.20 -> 0.63 (the generated kernel 0.69), (26,50,128,85) reversed 0.20 ->
    // 0.49, uint16 (48,48,15,31,49) (2,4,0,3,1) 0.19 -> 0.55; 2 threads 1.6-3.4x.
    const auto streams = [](const AssemblyChoice& c) {
      return c.assembly ? static_cast<std::int64_t>(c.assembly->stream_out.size()) : 0;
    };
    if (!choice.staged &&
        (!choice.assembly || streams(choice) > kRuntimeAssemblyMaxStreams)) {
      AssemblyChoice small = choose(kAssemblyMinTileBytes);
      if (small.assembly && !small.staged && (!choice.assembly || streams(small) < streams(choice)))
        choice = std::move(small);
    }
    const std::optional<AssemblyPlan>& a = choice.assembly;
    const std::optional<SplitAssembly>& split = choice.split;
    if (a) {
      const std::optional<engine::BlockTables> split_tables =
          split ? engine::make_block_tables(split->plan, a->walk) : std::nullopt;
      const std::optional<engine::BlockTables> tile_tables =
          split && !split_tables ? std::nullopt : engine::make_block_tables(a->tile_plan, a->tile_walk);
      engine::PrepareOptions tile_options;  // whole-vector loads inside the tile's input region
      tile_options.in_hi = a->span_elements * elem_bytes;
      tile_options.prefetch_ahead =
          tile_prefetch_ahead(a->walk.loops[a->level - 1].in_stride, elem_bytes) * elem_bytes;
      tile_options.cached_tile = true;
      const TileChoice untiled;
      TileChoice chunked;  // plan_chunked_assembly's nests: whole tiles first, then the remainders
      chunked.regions = a->regions;
      std::unique_ptr<engine::PreparedBlocks> tile_blocks =
          tile_tables ? prepare(*tile_tables, untiled, tile_options, simd_engine) : nullptr;
      std::unique_ptr<engine::PreparedBlocks> direct =
          !tile_blocks ? nullptr
          : split      ? prepare(*split_tables, untiled, cached_options, simd_engine)
                       : prepare(engine::with_loops(*tables, a->walk), chunked, cached_options, simd_engine);
      if (direct) {
        engine::AssemblyGeometry g;
        for (int l = 0; l < a->level; ++l) {
          g.outer_counts.push_back(a->walk.loops[l].count);
          g.outer_in_steps.push_back(a->walk.loops[l].in_stride * elem_bytes);
          g.outer_out_steps.push_back(a->walk.loops[l].out_stride * elem_bytes);
        }
        g.tile_iterations = a->tile_iterations;
        g.tiled_iterations = a->regions.empty() ? 0 : a->regions.front().iterations();
        g.piece_bytes = a->piece * elem_bytes;
        for (size_t k = 0; k < a->stream_out.size(); ++k) {
          g.stream_out.push_back(a->stream_out[k] * elem_bytes);
          g.stream_buf.push_back(a->stream_buf[k] * elem_bytes);
        }
        g.buffer_bytes = a->buffer_elements * elem_bytes;
        g.avx512 = is_avx512(isa);
        impl->cached = engine::make_assembled(std::move(direct), std::move(tile_blocks), std::move(g));
        impl->isa = engine_isa_name(isa);
        stage_note = "; assembled: " + a->reason;
        assembled_walk = a->walk;
      }
    }
  }
  if (assembled_walk) stage.reset();
  // Neither assembled nor staged: where one loop takes the tile past the window, that loop in
  // chunks (ir/staging.h's split_for_staging), as the generated kernels stage.
  std::string cut_note;
  if (!assembled_walk && !stage && !impl->cached && simd && !impl->transform && out_contiguous &&
      out_total >= kStageMinBytes && !tiling.tiled && tiling.regions.size() <= 1) {
    if (std::optional<StageCut> cut = split_for_staging(plan, tables->loops.loops)) {
      BlockLoops loops = tables->loops;
      loops.loops = std::move(cut->loops);
      *tables = engine::with_loops(*tables, loops);
      stage = plan_staging(plan, tables->loops.loops, nullptr);
      cut_note = " (" + cut->note + ")";
    }
  }
  // A staged tile reads a run of each of many input rows (225 of 120 bytes for 15^6 float64
  // (4,1,0,5,2,3)), which the next tile continues: more streams than the hardware prefetchers
  // follow. Its blocks prefetch the next tile's lines (one step of the loop above the tile).
  // Intel server core (2026-11-29), the 67 problems of the bench sets and 600 random large ones
  // whose block walk is staged, ABBA, 1 thread, AVX-512: 14 at 1.1-2.6x (17^6 float64
  // (4,3,2,5,0,1) 1.81x, (4,1,2,5,3,0) 1.44x, uint16 (67,143,27,188) (2,1,3,0) 2.60x), the others
  // 0.91-1.08x (the noise of the unchanged ones). AVX2 (the 32 staged problems of the bench and
  // /tmp sets, same process, both orders): 15^6 and 17^6 float64 1.2-1.7x ((4,1,2,5,3,0) 0.23 ->
  // 0.39 of the best copy), uint16 (58,28,40,29,37) (2,1,3,4,0) 1.23x, float64 (55,52,335,22)
  // (2,0,3,1) 1.25x; float64 (14,3,60,25,72) (3,2,4,1,0) 0.89-0.93x (1.0 -> 0.9, its tiles read
  // runs of 576 bytes), bytes 0.96-1.13x.
  // (`stage` is planned for the SIMD engines only, both of which prefetch.)
  const bool staged_prefetch = stage && stage->level >= 1;
  if (!impl->cached) {
    engine::PrepareOptions options = cached_options;
    if (staged_prefetch)
      options.prefetch_ahead =
          tile_prefetch_ahead(tables->loops.loops[stage->level - 1].in_stride, elem_bytes) * elem_bytes;
    if (simd_engine) impl->cached = prepare(*tables, tiling, options, simd_engine);
    impl->isa = engine_isa_name(impl->cached ? isa : EngineIsa::scalar);
    if (!impl->cached) impl->cached = prepare(*tables, tiling, cached_options, "scalar");
  }
  if (stage && impl->isa != "scalar") {
    engine::StageGeometry g;
    for (int l = 0; l < stage->level; ++l) {
      g.outer_counts.push_back(tables->loops.loops[l].count);
      g.outer_out_steps.push_back(tables->loops.loops[l].out_stride * elem_bytes);
    }
    g.tile_iterations = stage->tile_iterations;
    g.tile_bytes = stage->tile_elements * elem_bytes;
    g.isa = is_avx512(isa) ? engine::StageIsa::avx512 : engine::StageIsa::avx2;
    impl->cached = engine::make_staged(std::move(impl->cached), std::move(g));
    stage_note = "; staged: " + stage->reason + cut_note +
                 (staged_prefetch ? "; the next tile's input prefetched" : "");
  }
  // The streaming blocks of plan `p` (tables `t`, tiled as `tl`): every loop, every region's
  // base and every full store on a whole vector when `out` is on a line; tiled loops keep their
  // tiles unless blocks are small and runs short (ir/tiling.h's stream_keeps_tiles), others read
  // in input order (or from the block outwards: ir/loops.h's streaming_order) as the generated
  // kernels' streaming variant does (on AVX2 too: in output order it measured 0.1-0.3 of the
  // best copy slower on 16^6 float64). Null blocks: no streaming, `why` says why (or "").
  struct StreamTry {
    std::unique_ptr<engine::PreparedBlocks> blocks;
    std::string why;
    bool tiled = false;
    LoopOrder order = LoopOrder::input;  // where untiled
    bool read_rows_limited = false;      // the untiled walk's row limit fired (ir/loops.h)
    bool left_tiles = false;             // the cached walk is tiled, this one not (stream_keeps_tiles)
    std::string paired_lines = {};       // the untiled walk's paired output lines (ir/line_pairs.h), or empty
    std::string band = {};               // the band walk's reason (ir/band.h), or empty
  };
  // Why the nests of tables `tb` (plan `p`) cannot stream, or "" where they can: every nest's base
  // and loop step and every full store on a whole vector when `out` is on a line (else "-", no
  // streaming plan and nothing to say), and on AVX2's half-line vectors each line's halves written
  // one after the other (ir/stream.h's halves_apart).
  auto stream_problem = [&](const Plan& p, const engine::BlockTables& tb, const std::vector<LoopRegion>& nests) {
    // Split-row blocks that store each half apart (ProgramTables::split_stores) write no whole line.
    if (tb.programs.front().split_stores) return std::string("-");
    for (const auto& g : nests) {
      if ((g.out_offset * elem_bytes) % vector != 0) return std::string("-");
      for (const auto& l : g.loops)
        if ((l.out_stride * elem_bytes) % vector != 0) return std::string("-");
    }
    std::vector<std::int64_t> full_stores;
    for (const auto& prog : tb.programs)
      for (size_t r = 0; r < prog.store_count.size(); ++r)
        if (prog.store_count[r] == p.lanes) {
          if ((prog.store_offset[r] * elem_bytes) % vector != 0) return std::string("-");
          if (&prog == &tb.programs.front()) full_stores.push_back(prog.store_offset[r]);
        }
    return vector < kLineBytes ? halves_apart(full_stores, p.lanes, nests) : std::string();
  };
  // `line_rows`: the block's rows are whole lines (AVX-512 line vectors, AVX2's block of one more
  // register bit), so that its untiled walk may pair its output lines (ir/line_pairs.h).
  auto try_stream_walk = [&](const Plan& p, const engine::BlockTables& t, const TileChoice& cached_tiles,
                             bool line_rows, bool bands) -> StreamTry {
    // Bands of tiles that prefetch the next tile (ir/band.h), as the generated kernels' streaming
    // variants walk where such tiles exist.
    // (Blocks that transpose: rows copied whole keep theirs. AVX2's half lines where each line's
    // halves are written one after the other: halves_apart, as the generated kernels check.)
    if (bands && out_total >= kTileMinBytes && p.shuffle_steps > 0) {
      const engine::BlockTables ordered = engine::with_loop_order(t, p, LoopOrder::output);
      std::vector<std::pair<std::int64_t, std::int64_t>> loads;
      const engine::ProgramTables& full = ordered.programs.front();
      for (size_t r = 0; r < full.load_offset.size(); ++r)
        if (full.load_count[r] > 0) loads.push_back({full.load_offset[r], full.load_count[r]});
      for (size_t r = 0; r < full.load_offset2.size(); ++r)  // split rows' second runs
        if (full.load_count2[r] > 0) loads.push_back({full.load_offset2[r], full.load_count2[r]});
      const BandChoice band = band_loops(ordered.loops, elem_bytes, loads);
      if (band.banded) {
        TileChoice bands;
        bands.tiled = true;
        bands.regions = band.regions;
        BlockLoops first = ordered.loops;
        first.loops = band.regions.front().loops;
        const engine::BlockTables banded = engine::with_loops(ordered, first);
        const std::string why = stream_problem(p, banded, band.regions);
        if (why == "-") return {};
        if (why.empty()) {
          engine::PrepareOptions o = cached_options;
          o.stream = true;
          // The engines prefetch each load's address plus this: the last byte of its run one tile
          // on, which is in the line the run there does not share with the run before it whether
          // or not the input starts on a line (the generated kernels' K_prefetch). Runs of a vector,
          // or of half of one where the rows are split (engine/split_rows.h).
          const std::int64_t run = t.split_rows ? vector / 2 : vector;
          o.prefetch_ahead = band.prefetch_ahead * elem_bytes + (run - 1);
          StreamTry s{prepare(banded, bands, o, is_avx512(isa) ? "avx512" : "avx2"), "", true};
          s.band = band.reason;
          return s;
        }
      }
    }
    // Small blocks with short runs stream untiled even where the cached walk is tiled
    // (ir/tiling.h's stream_keeps_tiles), as the generated kernels' streaming variants do.
    const LoopOrder untiled_order = streaming_order(p);
    std::optional<engine::BlockTables> untiled = engine::with_loop_order(t, p, untiled_order);
    const TileChoice untiled_walk;
    // Blocks of whole-line rows pair their output lines untiled where the untiled walk writes them
    // far apart (ir/line_pairs.h).
    const LinePairing pairing = pair_output_lines(untiled->loops, elem_bytes, line_rows, block_in_bytes(t));
    const bool left_tiles =
        cached_tiles.tiled &&
        !stream_keeps_tiles(block_in_bytes(t), innermost_run_bytes(untiled->loops.loops, elem_bytes), pairing.paired);
    const TileChoice& tl = left_tiles ? untiled_walk : cached_tiles;
    const LoopOrder order = tl.tiled ? LoopOrder::input : untiled_order;
    const bool paired = pairing.paired && !tl.tiled;
    TileChoice paired_walk;
    if (paired) {
      BlockLoops first = untiled->loops;
      first.loops = pairing.regions.front().loops;
      untiled = engine::with_loops(*untiled, first);
      paired_walk.regions = pairing.regions;
    }
    std::vector<LoopRegion> nests = paired ? pairing.regions : tl.regions;
    if (nests.empty()) nests.push_back(LoopRegion{0, 0, tl.tiled ? t.loops.loops : untiled->loops.loops});
    // Half-line vectors (AVX2) stream only where the walk writes every line whole at once.
    if (const std::string why = stream_problem(p, t, nests); !why.empty()) return why == "-" ? StreamTry{} : StreamTry{nullptr, why};
    engine::PrepareOptions o = cached_options;  // no sink: streaming plans have no transform
    o.stream = true;
    return {prepare(tl.tiled ? t : *untiled, paired ? paired_walk : tl, o, is_avx512(isa) ? "avx512" : "avx2"),
            "",
            tl.tiled,
            order,
            !tl.tiled && untiled->loops.read_rows_limited,
            left_tiles,
            paired ? pairing.reason : std::string()};
  };
  // Bands first where they pay (ir/band.h's vendor rule, cpu_bands_pay); elsewhere the walk
  // without them (the generated kernels' unbanded twin), and the bands only where that cannot
  // stream.
  const bool bands_pay = cpu_bands_pay();
  auto try_stream = [&](const Plan& p, const engine::BlockTables& t, const TileChoice& cached_tiles,
                        bool line_rows) -> StreamTry {
    if (bands_pay) return try_stream_walk(p, t, cached_tiles, line_rows, true);
    StreamTry s = try_stream_walk(p, t, cached_tiles, line_rows, false);
    if (s.blocks) return s;
    StreamTry b = try_stream_walk(p, t, cached_tiles, line_rows, true);
    return b.blocks && !b.band.empty() ? std::move(b) : std::move(s);
  };
  std::string stream_note;  // why there is no streaming plan, or how it differs from the cached one
  bool stream_tiled = false;
  LoopOrder stream_order = LoopOrder::input;
  bool stream_rows_limited = false;
  bool stream_left_tiles = false;
  std::string stream_paired;
  std::string stream_band;
  if (stream && impl->cached && impl->isa != "scalar") {
    StreamTry s = try_stream(plan, *tables, tiling, is_avx512(isa) && vector == kLineBytes);
    // Half lines from blocks far apart: a block with one more register bit, the next output bit,
    // stores both halves of each of its lines (float32 blocks of 8 x 8 become 16 registers). Where
    // the plan's own streaming walk keeps the cached walk's tiles, that block is taken too when
    // its untiled walk pairs its output lines (as the generated kernels' ir/pipeline.cpp does).
    if (vector < kLineBytes && ((!s.blocks && !s.why.empty()) || (s.blocks && s.tiled))) {
      const std::optional<Plan> wide = plan_with_whole_lines(plan);
      std::optional<engine::BlockTables> wide_tables;
      if (wide) wide_tables = engine::make_block_tables(*wide, LoopOrder::output);
      if (wide_tables) {
        const TileChoice wide_tiling = tile(*wide_tables);
        StreamTry w = try_stream(*wide, *wide_tables, wide_tiling, true);
        if (w.blocks && (!s.blocks || !w.paired_lines.empty())) {
          s = std::move(w);
          s.why = "; its block has " + std::to_string(1 << wide_tables->reg_bits) +
                  " registers (one more output bit), so that each block stores whole lines; " +
                  (s.tiled ? wide_tiling.reason + "; " : std::string()) + s.blocks->describe();
        }
      }
    }
    impl->stream = std::move(s.blocks);
    stream_tiled = s.tiled;
    stream_order = s.order;
    stream_rows_limited = s.read_rows_limited;
    stream_left_tiles = s.left_tiles;
    stream_paired = s.paired_lines;
    stream_band = s.band;
    if (!s.why.empty()) stream_note = impl->stream ? s.why : " (" + s.why + ")";
  }

  // Byte blocks of 64 registers (twice the register file, spilled on every block) whose large
  // output is written with plain cached stores (no streaming, assembled or staged walk): each
  // block's 64 stores go to 64 output rows, off their lines, behind the spills. Blocks of 32
  // lanes (32 registers) instead. Intel server core, 1 thread, x best copy: uint8
  // (10311,6,76,31) (3,2,0,1) 0.055 -> 0.144, (13,23,32,23,24,14) (3,4,5,0,2,1) 0.063 -> 0.134,
  // (34,43,4,14,33,25) (5,4,2,3,1,0) 0.098 -> 0.134, (38,3,31,23,39,22) (0,4,5,3,1,2) 0.24 ->
  // 0.34; (86,37,5,66,50) reversed 0.21 -> 0.20. Where the 64-lane plan streams or assembles, 32
  // lanes lost (0.51-0.97x on 16 such uint8 problems).
  if (lane_cap == 0 && simd_engine && is_avx512(isa) && elem_bytes == 1 && plan.lanes == 64 && !plan.split_row &&
      !impl->stream &&
      !assembled_walk && !stage && !impl->transform && out_total >= kStageMinBytes) {
    t_lane_cap = 32;
    return plan_permute(d);
  }

  canonical_line(text, canon);
  text << "\n";
  text << "engine: " << impl->isa << ", " << plan.lanes << " lanes of " << elem_bytes << " bytes, "
       << (1 << tables->reg_bits) << " registers, " << tables->programs.front().pass_count
       << (tables->butterfly ? " butterfly step(s)" : " reorder pass(es)") << ", " << tables->programs.size()
       << " block program(s), " << impl->cached->iterations() << " blocks, " << impl->parts << " part(s)\n";
  text << "  " << impl->cached->describe() << "\n";
  if (lane_cap > 0)
    text << "  blocks of " << plan.lanes << " lanes: the " << max_lanes << "-lane block (" << max_lanes
         << " registers, spilled) would write this large output with plain cached stores\n";
  if (impl->transform) text << "transform: " << impl->transform->describe() << impl->transform_note << "\n";
  for (const auto& r : plan.reasons) text << "  " << r << "\n";
  text << (assembled_walk ? "loops: no cache tiles (the assembled walk: tiles of the input's innermost axes)"
                          : tiling.reason)
       << "\n";
  // The cached variant's loop nest, as the generated kernel's NAME_run comment prints it.
  if (assembled_walk || tiling.regions.size() <= 1)
    for (const LoopDim& l : assembled_walk ? assembled_walk->loops : tables->loops.loops)
      text << "  loop: count " << l.count << ", in_stride " << l.in_stride << ", out_stride " << l.out_stride
           << (l.tail_bit >= 0 ? ", tail bit " + std::to_string(l.tail_bit) : std::string()) << "  (" << l.what
           << ")\n";
  text << "stores: "
       << (!impl->stream ? "cached" + stream_note
           : !stream_band.empty() ? "streaming when out is 64-byte aligned (" + stream_band + ")"
           : stream_tiled ? "streaming when out is 64-byte aligned (tiled output-order loops)"
                          : std::string("streaming when out is 64-byte aligned (loops ") + order_text(stream_order) +
                                (stream_rows_limited ? std::string(", ") + kReadRowsLimitText : std::string()) +
                                (stream_left_tiles ? std::string(", not tiled: ") +
                                                         (stream_paired.empty() ? kStreamUntiledReason
                                                                                : kStreamPairedReason)
                                                   : std::string()) +
                                (stream_paired.empty() ? std::string() : "; " + stream_paired) + ")")
       << (impl->stream && vector < kLineBytes ? ", two 32-byte stores per line" + stream_note : "")
       << (impl->stream && !stage_note.empty() ? "; otherwise cached" : "") << stage_note << "\n";
  // An out off its line (malloc's 16 bytes, NumPy's arrays): the rows' rest streamed where they
  // are whole lines apart. Measured (Intel server core, 1 thread, out 16 bytes into a line, x best
  // copy): float32 7248^2 0.51 -> 0.95, 8192^2 0.48 -> 0.80, 43408x1216 0.47 -> 0.92, 4096x16384
  // 0.49 -> 0.81, float64 5120^2 0.59 -> 0.90; the aligned plan 0.96, 0.80, 0.93, 0.82, 0.89.
  // AVX-512 only: the AVX2 engine's streaming views of the same splits ran at 0.16-0.28 (its
  // cached walks 0.36-0.49).
  if (impl->stream && !impl->stream_any_alignment && is_avx512(isa)) {
    impl->shifted = detail::ShiftedOut::make(sp, d.threads, d.isa,
                                             [](const PermutePlan& p) { return p.impl_ && p.impl_->stream != nullptr; });
    if (impl->shifted) text << "out off its line: " << impl->shifted->describe() << "\n";
  }
  impl->description = text.str();
  PermutePlan result;
  result.impl_ = std::move(impl);
  return result;
}

// ---- the cache ---------------------------------------------------------------------------------

namespace {

// The plan cache's key: every field of the description, as raw bytes with each string and array
// preceded by its length, so that two descriptions share a key only if they are equal (alpha and
// beta compared bit for bit). Built with a few appends: formatting numbers as text made the key
// most of a cached call's cost.
std::string cache_key(const PermuteDesc& d) {
  std::string k;
  k.reserve(96 + d.dtype.size() + d.out_dtype.size() + d.isa.size() +
            8 * (d.shape.size() + d.perm.size() + d.in_strides.size() + d.out_strides.size()));
  const auto bytes = [&k](const void* p, std::size_t n) { k.append(static_cast<const char*>(p), n); };
  const auto sized = [&](const void* p, std::size_t count, std::size_t elem) {
    const std::uint64_t n = count;
    bytes(&n, sizeof n);
    bytes(p, count * elem);
  };
  sized(d.dtype.data(), d.dtype.size(), 1);
  bytes(&d.elem_bytes, sizeof d.elem_bytes);
  sized(d.shape.data(), d.shape.size(), sizeof(std::int64_t));
  sized(d.perm.data(), d.perm.size(), sizeof(int));
  sized(d.in_strides.data(), d.in_strides.size(), sizeof(std::int64_t));
  sized(d.out_strides.data(), d.out_strides.size(), sizeof(std::int64_t));
  sized(d.out_dtype.data(), d.out_dtype.size(), 1);
  const double scale[4] = {d.alpha.real(), d.alpha.imag(), d.beta.real(), d.beta.imag()};
  bytes(scale, sizeof scale);
  bytes(&d.threads, sizeof d.threads);
  sized(d.isa.data(), d.isa.size(), 1);
  return k;
}

}  // namespace

void permute(const void* in, void* out, const PermuteDesc& desc) {
  static std::mutex mutex;
  static std::unordered_map<std::string, PermutePlan> cache;
  constexpr std::size_t kMaxEntries = 1024;
  const std::string key = cache_key(desc);
  PermutePlan plan;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) plan = it->second;
  }
  if (!plan.isa().empty()) return plan.execute(in, out);
  plan = plan_permute(desc);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= kMaxEntries) cache.clear();
    cache.emplace(key, plan);
  }
  plan.execute(in, out);
}

void register_kernel(const gentt_kernel_info* info) {
  if (info == nullptr) throw Error("info", "must not be null");
  if (info->version != GENTT_KERNEL_INFO_VERSION)
    throw Error("info", "has version " + std::to_string(info->version) + ", this library reads version " +
                            std::to_string(GENTT_KERNEL_INFO_VERSION));
  if (info->run == nullptr || info->elem_bytes < 1 || info->rank < 0 || info->rank > kMaxRank ||
      (info->rank > 0 && (info->shape == nullptr || info->perm == nullptr)))
    throw Error("info", "is not a valid kernel descriptor");
  std::vector<std::int64_t> shape(info->shape, info->shape + info->rank);
  std::vector<int> perm(info->perm, info->perm + info->rank);
  try {
    check_permute_arguments(static_cast<std::size_t>(info->elem_bytes), shape, perm);
  } catch (const Error& e) {
    throw Error("info", std::string("describes an invalid problem: ") + e.what());
  }
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(info);
}

int hardware_threads() { return engine::machine_threads(); }

}  // namespace gentt
