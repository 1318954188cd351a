#include "backends/skeleton.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/assembly.h"
#include "ir/band.h"
#include "ir/error.h"
#include "ir/stream.h"
#include "ir/target_features.h"

namespace gentt {

namespace {

int64_t inner_product(const std::vector<LoopDim>& loops, size_t from) {
  int64_t n = 1;
  for (size_t d = from; d < loops.size(); ++d) n *= loops[d].count;
  return n;
}

// `var += delta;` written naturally (nothing for 0, `-=` for negative deltas).
void add_to(CodeWriter& w, const char* var, int64_t delta) {
  if (delta > 0) w.linef("{} += {};", var, delta);
  if (delta < 0) w.linef("{} -= {};", var, -delta);
}

// The block call for program `p` (or its unrolled form) at the current offsets.
std::string block_call(const std::string& n, int p, int unroll = 1) {
  return unroll > 1 ? fmt::format("{}_block{}_x{}(in + in_off, out + out_off);", n, p, unroll)
                    : fmt::format("{}_block{}(in + in_off, out + out_off);", n, p);
}

// The innermost loop's run [i, stop) for one combination of outer tails (`outer_program`):
// a tight loop of full blocks, then the innermost loop's own tail block if the run reaches it.
void emit_inner_run(CodeWriter& w, const Kernel& k, const std::vector<LoopDim>& loops, int outer_program) {
  const size_t d = loops.size() - 1;
  const LoopDim& L = loops[d];
  const std::string step =
      fmt::format("++i{}, in_off += {}, out_off += {}", d, L.in_stride, L.out_stride);
  std::string limit = "stop";
  if (L.tail_bit >= 0) {
    w.linef("const std::int64_t full_stop = stop < {0} ? stop : {0};", L.count - 1);
    limit = "full_stop";
  }
  const bool per_block = k.prefetch_ahead && !k.prefetch_row_chunks;  // else once per row (emit_nest)
  if (k.unroll > 1 && per_block)
    w.linef("for (; i{0} + {1} <= {2}; i{0} += {1}, in_off += {3}, out_off += {4}) {{ for (int u = 0; u < {1}; ++u) "
            "{6}_prefetch(in + in_off + u * {7}); {5} }}",
            d, k.unroll, limit, k.unroll * L.in_stride, k.unroll * L.out_stride,
            block_call(k.name, outer_program, k.unroll), k.name, L.in_stride);
  else if (k.unroll > 1)
    w.linef("for (; i{0} + {1} <= {2}; i{0} += {1}, in_off += {3}, out_off += {4}) {5}", d, k.unroll, limit,
            k.unroll * L.in_stride, k.unroll * L.out_stride, block_call(k.name, outer_program, k.unroll));
  if (per_block)
    w.linef("for (; i{0} < {1}; {2}) {{ {4}_prefetch(in + in_off); {3} }}", d, limit, step,
            block_call(k.name, outer_program), k.name);
  else
    w.linef("for (; i{0} < {1}; {2}) {3}", d, limit, step, block_call(k.name, outer_program));
  if (L.tail_bit < 0) return;
  w.block(fmt::format("if (i{} < stop)", d), [&] {
    w.line(block_call(k.name, outer_program | (1 << L.tail_bit)));
    w.linef("{};", step);
  });
}

// `fname`: the loop nest `L` over flat iterations [begin, end).
void emit_nest(CodeWriter& w, const Kernel& k, const std::vector<LoopDim>& L, const std::string& fname,
               const std::string& elem) {
  const std::string& n = k.name;
  w.comment("Runs flat iterations [begin, end) of the loop nest (outermost first):");
  for (size_t d = 0; d < L.size(); ++d)
    w.comment(fmt::format("  i{}: count {}, in_stride {}, out_stride {}{}  ({})", d, L[d].count, L[d].in_stride,
                          L[d].out_stride, L[d].tail_bit >= 0 ? fmt::format(", tail bit {}", L[d].tail_bit) : "",
                          L[d].what));
  if (L.empty()) w.comment("  (no loops: the whole tensor is one block)");
  w.block(fmt::format("void {0}(const {1}* in, {1}* out, std::int64_t begin, std::int64_t end)", fname, elem),
          [&] {
            if (L.empty()) {
              w.linef("if (begin < end) {}_block0(in, out);", n);
              return;
            }
            const size_t last = L.size() - 1;
            w.comment("Decode the first iteration once; afterwards offsets step incrementally.");
            std::vector<std::string> in_terms, out_terms;
            for (size_t d = 0; d < L.size(); ++d) {
              const int64_t inner = inner_product(L, d + 1);
              std::string expr = inner == 1 ? "begin" : fmt::format("begin / {}", inner);
              if (d > 0) expr = fmt::format("{} % {}", expr, L[d].count);
              w.linef("std::int64_t i{} = {};", d, expr);
              in_terms.push_back(fmt::format("i{} * {}", d, L[d].in_stride));
              out_terms.push_back(fmt::format("i{} * {}", d, L[d].out_stride));
            }
            w.linef("std::int64_t in_off = {};", fmt::join(in_terms, " + "));
            w.linef("std::int64_t out_off = {};", fmt::join(out_terms, " + "));
            w.block("for (std::int64_t it = begin; it < end;)", [&] {
              w.comment(fmt::format("One run of the innermost loop, to its end or to the part's end."));
              w.linef("const std::int64_t stop = i{0} + (end - it < {1} - i{0} ? end - it : {1} - i{0});", last,
                      L[last].count);
              w.linef("it += stop - i{};", last);
              if (k.prefetch_ahead && k.prefetch_row_chunks) {
                w.comment("A run that begins a kept row prefetches the next rows' bytes (ir/prefetch.h).");
                w.linef("if (i{} == 0) {}_prefetch(in + in_off);", last, n);
              }
              // Outer loops' tails select the program for the whole run.
              std::vector<std::string> tails;
              for (size_t d = 0; d < last; ++d)
                if (L[d].tail_bit >= 0)
                  tails.push_back(fmt::format("(i{} == {} ? {} : 0)", d, L[d].count - 1, 1 << L[d].tail_bit));
              if (tails.empty()) {
                emit_inner_run(w, k, L, 0);
              } else {
                const std::string select = tails.size() == 1 ? tails[0].substr(1, tails[0].size() - 2)
                                                             : fmt::format("{}", fmt::join(tails, " | "));
                const int inner_bit = L[last].tail_bit >= 0 ? 1 << L[last].tail_bit : 0;
                w.block(fmt::format("switch ({})", select), [&] {
                  for (int p = 0; p < static_cast<int>(k.programs.size()); ++p) {
                    if (p & inner_bit) continue;
                    w.block(fmt::format("case {}:", p), [&] {
                      emit_inner_run(w, k, L, p);
                      w.line("break;");
                    });
                  }
                });
              }
              if (last == 0) return;
              // Carry: rewind the innermost loop and step the next, and so on outwards.
              std::function<void(size_t)> carry = [&](size_t d) {
                w.linef("i{} = 0;", d);
                add_to(w, "in_off", L[d - 1].in_stride - L[d].count * L[d].in_stride);
                add_to(w, "out_off", L[d - 1].out_stride - L[d].count * L[d].out_stride);
                if (d - 1 == 0) {
                  w.line("++i0;");
                  return;
                }
                w.block(fmt::format("if (++i{} == {})", d - 1, L[d - 1].count), [&] { carry(d - 1); });
              };
              w.block(fmt::format("if (i{} == {})", last, L[last].count), [&] { carry(last); });
            });
          });
}

// NAME_run: flat iterations [begin, end) of the kernel: its loop nest, or its regions' nests
// one after the other (cache tiles with remainders, ir/tiling.h).
void emit_run(CodeWriter& w, const Kernel& k, const std::string& elem) {
  if (k.regions.empty()) return emit_nest(w, k, k.loops, k.name + "_run", elem);
  std::vector<int64_t> start, count;
  for (size_t g = 0; g < k.regions.size(); ++g) {
    const int64_t c = k.regions[g].iterations();
    start.push_back(g == 0 ? 0 : start.back() + count.back());
    count.push_back(c);
    w.comment(fmt::format("Region {}: flat iterations [{}, {}), blocks from in + {}, out + {}.", g, start[g],
                          start[g] + c, k.regions[g].in_offset, k.regions[g].out_offset));
    emit_nest(w, k, k.regions[g].loops, fmt::format("{}_run_r{}", k.name, g), elem);
    w.line("");
  }
  w.comment("Runs flat iterations [begin, end): each region's share, in region order.");
  w.block(fmt::format("void {0}_run(const {1}* in, {1}* out, std::int64_t begin, std::int64_t end)", k.name, elem),
          [&] {
            for (size_t g = 0; g < k.regions.size(); ++g) {
              const int64_t s0 = start[g], s1 = start[g] + count[g];
              if (s0 == 0)
                w.linef("if (begin < {0}) {1}_run_r{2}(in, out, begin, end < {0} ? end : {0});", s1, k.name, g);
              else
                w.linef("if (begin < {1} && end > {0}) {2}_run_r{3}(in + {4}, out + {5}, begin > {0} ? begin - {0} : 0, "
                        "(end < {1} ? end : {1}) - {0});",
                        s0, s1, k.name, g, k.regions[g].in_offset, k.regions[g].out_offset);
            }
          });
}

// K_prefetch(in): prefetches the lines that program 0 loads from the block prefetch_ahead
// elements past `in` (ir/prefetch.h, ir/band.h) and that its own loads do not touch: for each load's
// byte run, its run `ahead` bytes on less the run itself (a band's next step along the same rows:
// the bytes after the run), one address a line apart from the last byte down to the first. The
// input need not start on a line (NumPy's and malloc's large buffers start 16 bytes into one), so
// a run of a line may touch two: the last byte of the next step's run is in the line the current
// run does not touch, aligned or not. The address is formed as an integer: the block ahead may
// lie past the tensor, and a prefetch never faults.
// always_inline: GCC 12 deems a function of prefetches alone free of side effects, and at -O1
// and above its IPA pure-const pass marks a prefetch function that is not inlined early (one of
// 16 or more lines) pure and deletes every call to it, unused result and all: no prefetch was
// left in such kernels (objdump) until 2026-12-01. Inlined before that pass, the builtins stay.
void emit_prefetch(CodeWriter& w, const Kernel& k, const std::string& elem) {
  const int64_t ahead = k.prefetch_ahead * k.elem_bytes;
  if (k.prefetch_window > 0) {
    // A kept row's prefetch (choose_row_prefetch): every line of the window, whatever the
    // input's alignment: an address a line apart from its first byte, and its last byte.
    w.line("");
    w.comment(fmt::format("Software prefetch of a kept row's next rows: the {} input bytes from {} bytes past the row "
                          "(ir/prefetch.h's choose_row_prefetch).",
                          k.prefetch_window, ahead));
    w.block(fmt::format("__attribute__((always_inline)) inline void {}_prefetch(const {}* in)", k.name, elem), [&] {
      w.linef("const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(in) {} {};", ahead < 0 ? '-' : '+',
              ahead < 0 ? -ahead : ahead);
      for (int64_t a = 0; a < k.prefetch_window; a += kLineBytes)
        w.linef("__builtin_prefetch(reinterpret_cast<const void*>(at + {}), 0, {});", a, k.prefetch_locality);
      if ((k.prefetch_window - 1) % kLineBytes != 0)
        w.linef("__builtin_prefetch(reinterpret_cast<const void*>(at + {}), 0, {});", k.prefetch_window - 1,
                k.prefetch_locality);
    });
    return;
  }
  std::vector<int64_t> at;  // byte offsets from the block's base plus `ahead`
  for (const Op& op : k.programs.front().ops) {
    if (op.kind != OpKind::load) continue;
    const int64_t run = op.count * k.elem_bytes, first = op.offset * k.elem_bytes;
    int64_t lo = first + ahead, hi = lo + run;  // [lo, hi): the run ahead, less the run itself
    if (lo < first + run && hi > first) {
      if (ahead > 0) lo = first + run;
      else hi = first;
    }
    auto add = [&](int64_t x) {
      if (std::find(at.begin(), at.end(), x - ahead) == at.end()) at.push_back(x - ahead);
    };
    int64_t a = hi - 1;
    for (; a >= lo; a -= kLineBytes) add(a);
    // The last address is less than a line above lo, so lo may lie in the line before it, unless
    // the range starts where the run ends: lo's line is then the run's last one (or that address's).
    if (a + kLineBytes > lo && lo != first + run) add(lo);
  }
  w.line("");
  w.comment(fmt::format("Software prefetch: {} addresses of the runs that block 0 loads, {} bytes ahead (each run's "
                        "bytes there that it does not load itself, a line apart).",
                        at.size(), ahead));
  w.block(fmt::format("__attribute__((always_inline)) inline void {}_prefetch(const {}* in)", k.name, elem), [&] {
    w.linef("const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(in) {} {};", ahead < 0 ? '-' : '+',
            ahead < 0 ? -ahead : ahead);
    for (int64_t a : at)
      w.linef("__builtin_prefetch(reinterpret_cast<const void*>(at + {}), 0, {});", a, k.prefetch_locality);
  });
}

// The block programs and NAME_run of one kernel (the unit's, or its streaming variant).
void emit_programs_and_run(CodeWriter& w, const Kernel& k, const std::string& elem, const SkeletonHooks& hooks) {
  auto emit_program = [&](const BlockProgram& prog, int index, const std::string& fn) {
    int loads = 0, shuffles = 0, stores = 0, streamed = 0;
    for (const auto& op : prog.ops) {
      loads += op.kind == OpKind::load;
      shuffles += op.kind == OpKind::shuffle;
      stores += op.kind == OpKind::store;
      streamed += op.stream;
    }
    w.line("");
    w.comment(fmt::format("{} ({}): {} loads, {} shuffles, {} stores{}.", fn, prog.what, loads, shuffles, stores,
                          streamed ? fmt::format(" ({} streaming)", streamed) : ""));
    w.block(fmt::format("inline void {}(const {}* in, {}* out)", fn, elem, elem),
            [&] { hooks.block_body(w, k, prog, index); });
  };
  for (int i = 0; i < static_cast<int>(k.programs.size()); ++i)
    emit_program(k.programs[i], i, fmt::format("{}_block{}", k.name, i));
  for (int i = 0; i < static_cast<int>(k.unrolled.size()); ++i)
    if (!k.unrolled[i].ops.empty()) emit_program(k.unrolled[i], i, fmt::format("{}_block{}_x{}", k.name, i, k.unroll));
  if (k.prefetch_ahead) emit_prefetch(w, k, elem);
  w.line("");
  emit_run(w, k, elem);
}

// A hook's statements, one a line.
void emit_lines(CodeWriter& w, const std::string& text) {
  for (size_t at = 0; at < text.size();) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    w.line(text.substr(at, nl - at));
    at = nl + 1;
  }
}

// Tile `first`'s place, decoded once: its indices t0..t{n-1} in the loops `outer` above a tile,
// and its output offset in elements as `out_var` (its input offset as `in_var`, unless null).
void emit_tile_start(CodeWriter& w, const std::vector<LoopDim>& outer, const char* out_var, const char* in_var) {
  std::int64_t below = 1;
  std::vector<std::int64_t> div(outer.size());
  for (size_t d = outer.size(); d-- > 0;) {
    div[d] = below;
    below *= outer[d].count;
  }
  for (size_t d = 0; d < outer.size(); ++d) {
    const std::string quotient = div[d] == 1 ? "first" : fmt::format("first / {}", div[d]);
    if (d == 0)
      w.linef("std::int64_t t0 = {};", quotient);
    else
      w.linef("std::int64_t t{} = {} % {};", d, quotient, outer[d].count);
  }
  auto offset = [&](const char* var, int64_t LoopDim::*stride) {
    std::string base = "0";
    for (size_t d = 0; d < outer.size(); ++d) base += fmt::format(" + t{} * {}", d, outer[d].*stride);
    w.linef("std::int64_t {} = {};", var, outer.empty() ? "0" : base.substr(4));
  };
  offset(out_var, &LoopDim::out_stride);
  if (in_var) offset(in_var, &LoopDim::in_stride);
}

// The step to the next tile: an odometer over `outer` (non-empty) that moves the offsets
// emit_tile_start declared.
void emit_tile_step(CodeWriter& w, const std::vector<LoopDim>& outer, const char* out_var, const char* in_var) {
  std::function<void(size_t)> step = [&](size_t d) {
    add_to(w, out_var, outer[d].out_stride);
    if (in_var) add_to(w, in_var, outer[d].in_stride);
    if (d == 0) {
      w.line("++t0;");
      return;
    }
    w.block(fmt::format("if (++t{} == {})", d, outer[d].count), [&] {
      w.linef("t{} = 0;", d);
      add_to(w, out_var, -outer[d].count * outer[d].out_stride);
      if (in_var) add_to(w, in_var, -outer[d].count * outer[d].in_stride);
      step(d - 1);
    });
  };
  step(outer.size() - 1);
}

// The buffer of a staged or assembled walk's whole tiles, `bytes` of it on a line as `stage`
// (std::malloc once per call: `when` the condition to allocate, or empty for always; without one,
// NAME_run runs everything), after the iterations before the first whole tile (`per` each) ran
// straight into `out`.
void emit_tile_buffer(CodeWriter& w, const Kernel& k, int64_t bytes, int64_t per, const std::string& when) {
  w.linef("void* const mem = {};", when.empty() ? fmt::format("std::malloc({})", bytes + kLineBytes)
                                                : fmt::format("{} ? std::malloc({}) : nullptr", when, bytes + kLineBytes));
  w.block("if (!mem)", [&] {
    w.linef("{}_run(in, out, begin, end);", k.name);
    w.line("return;");
  });
  w.linef("if (begin < first * {0}) {1}_run(in, out, begin, first * {0});", per, k.name);
  w.linef("unsigned char* const stage = static_cast<unsigned char*>(mem) + ({0} - reinterpret_cast<std::uintptr_t>(mem) % {0});",
          kLineBytes);
}

// The most loops with a tail bit that NAME_stage_tile unrolls into their full and last
// iterations (the code doubles with each); staged kernels with more call NAME_run per tile.
constexpr int kStageTileMaxTails = 3;

// Whether a staged kernel's tiles run through NAME_stage_tile (emit_stage_tile).
bool stage_tile_nested(const Kernel& k) {
  int tails = 0;
  for (size_t d = k.stage_level; d < k.loops.size(); ++d) tails += k.loops[d].tail_bit >= 0;
  return !k.stage_rows && tails <= kStageTileMaxTails && k.stage_level < static_cast<int>(k.loops.size());
}

// NAME_stage_tile(in, out): one whole tile of a staged walk, loops [stage_level, depth) as plain
// nested loops of constant counts from `in` and `out` (the tile's input and its buffer): no
// flat-iteration decoding or carries per tile, which NAME_run's range form costs on every tile
// (tiles of 12 kept rows of 120 bytes: 0.80 of the best copy through NAME_run, 1.07 nested, Intel
// server core). A loop with a tail bit runs its full iterations, then its last with the bit set in
// the program of every block below it; all of a staged walk's block axes are inside the tile.
// Not inlined into NAME_run_staged: inlined, 16^6 float64 (3,0,4,2,5,1) on AVX2 (tiles of 8
// blocks that prefetch) ran at 0.63-0.69 of the best copy, 0.91-0.97 as a call (GCC 12, -O3).
void emit_stage_tile(CodeWriter& w, const Kernel& k, const std::string& elem) {
  const std::vector<LoopDim> L(k.loops.begin() + k.stage_level, k.loops.end());
  const size_t last = L.size() - 1;
  const bool per_block = k.prefetch_ahead && !k.prefetch_row_chunks;
  const bool per_row = k.prefetch_ahead && k.prefetch_row_chunks;
  w.line("");
  w.comment(fmt::format("One whole tile of NAME_run_staged: loops {}..{} as nested loops from in and out.",
                        k.stage_level, k.loops.size() - 1));
  w.block(fmt::format("__attribute__((noinline)) void {0}_stage_tile(const {1}* in, {1}* out)", k.name, elem), [&] {
    // Loop d at index variable j{d}: its offsets are the sums of j * stride of the loops above.
    std::function<void(size_t, int, const std::string&, const std::string&)> loop =
        [&](size_t d, int mask, const std::string& in_at, const std::string& out_at) {
          if (d == L.size()) {
            if (per_block) w.linef("{}_prefetch({});", k.name, in_at);
            w.linef("{}_block{}({}, {});", k.name, mask, in_at, out_at);
            return;
          }
          const LoopDim& l = L[d];
          auto at = [&](const std::string& base, int64_t stride, const std::string& index) {
            return stride == 0 ? base : fmt::format("{} + {} * {}", base, index, stride);
          };
          if (per_row && d == last) w.linef("{}_prefetch({});", k.name, in_at);
          const int64_t full = l.tail_bit >= 0 ? l.count - 1 : l.count;
          const std::string j = fmt::format("j{}", d);
          if (full == 1) {
            loop(d + 1, mask, in_at, out_at);
          } else if (full > 1) {
            w.block(fmt::format("for (std::int64_t {0} = 0; {0} < {1}; ++{0})", j, full),
                    [&] { loop(d + 1, mask, at(in_at, l.in_stride, j), at(out_at, l.out_stride, j)); });
          }
          if (l.tail_bit < 0) return;
          const auto plus = [](const std::string& base, int64_t delta) {
            return delta == 0 ? base : delta > 0 ? fmt::format("{} + {}", base, delta) : fmt::format("{} - {}", base, -delta);
          };
          w.comment(fmt::format("The last iteration of {}: tail bit {}.", l.what, l.tail_bit));
          loop(d + 1, mask | (1 << l.tail_bit), plus(in_at, (l.count - 1) * l.in_stride),
               plus(out_at, (l.count - 1) * l.out_stride));
        };
    loop(0, 0, "in", "out");
  });
}

// NAME_run_staged: flat iterations [begin, end) as NAME_run, each whole tile of them (ir/staging.h)
// run into a heap buffer (std::malloc, once per call; without one, NAME_run) that has the tile's
// offset within a line, then copied out with
// whole-line non-temporal stores (for streamed rows, Kernel::stage_rows, copied from the input
// row itself); the partial tiles at the ends of a part run straight into `out`.
void emit_staged_run(CodeWriter& w, const Kernel& k, const std::string& elem, const SkeletonHooks& hooks) {
  const int level = k.stage_level;
  const int64_t per = k.stage_tile_iterations, tile_bytes = k.stage_tile_elements * k.elem_bytes;
  std::vector<LoopDim> outer(k.loops.begin(), k.loops.begin() + level);
  // Rows (Kernel::stage_rows): each tile is one kept row, contiguous in `in` too, copied straight
  // from there: no blocks, no buffer.
  const bool rows = k.stage_rows;
  const bool nested = stage_tile_nested(k);
  if (nested) emit_stage_tile(w, k, elem);
  w.line("");
  if (rows) {
    if (k.stage_row_group > 1) {
      w.comment(fmt::format("Streamed rows (ir/staging.h): each tile of {} flat iterations (loop {}) is a block's {} rows",
                            per, level, k.stage_row_group));
      w.comment(fmt::format("of {} bytes ({} and {} elements apart in `in` and `out`{}),", tile_bytes,
                            k.stage_row_group_in, k.stage_row_group_out,
                            k.stage_row_group_rest ? fmt::format("; {} in the last chunk", k.stage_row_group_rest) : ""));
      w.comment("each contiguous in `in` and in `out`: copied straight across, the whole lines of `out` with");
      w.comment("non-temporal stores (no read of the output's lines first), the partial lines at its ends with");
      w.comment("plain ones.");
    } else {
      w.comment(fmt::format(
          "Streamed rows (ir/staging.h): each tile of {} flat iterations (loop {}) is one row of {} bytes,", per, level,
          tile_bytes));
      w.comment("contiguous in `in` and in `out`: copied straight across, the whole lines of `out` with non-temporal");
      w.comment("stores (no read of the output's lines first), the partial lines at its ends with plain ones.");
    }
  } else {
    w.comment(fmt::format("Staged output (ir/staging.h): each tile of {} flat iterations (loops {}..{}) writes {}",
                          per, level, k.loops.size() - 1, tile_bytes));
    w.comment(fmt::format("contiguous bytes of `out`: they go to a buffer with the tile's offset within a {}-byte line,",
                          kLineBytes));
    w.comment("then out in whole lines with non-temporal stores (no read of the output's lines first).");
  }
  w.block(fmt::format("void {0}_run_staged(const {1}* in, {1}* out, std::int64_t begin, std::int64_t end)", k.name,
                      elem),
          [&] {
            w.linef("const std::int64_t first = (begin + {0}) / {1}, last = end / {1};  // whole tiles", per - 1, per);
            w.block("if (first >= last)", [&] {
              w.linef("{}_run(in, out, begin, end);", k.name);
              w.line("return;");
            });
            if (rows) {
              w.linef("if (begin < first * {0}) {1}_run(in, out, begin, first * {0});", per, k.name);
            } else {
              w.comment(fmt::format("The buffer ({} bytes and a line), on a line.", tile_bytes));
              emit_tile_buffer(w, k, tile_bytes + kLineBytes, per, "");
            }
            // The tile's output (and, for rows, input) offset in elements, from the loops above it:
            // decoded once, then an odometer.
            emit_tile_start(w, outer, "tile_off", rows || nested ? "in_off" : nullptr);
            // One row (or buffer) from dst and buf: its partial first line, whole lines streamed, the rest.
            const auto send = [&] {
              w.linef("std::int64_t head = ({0} - static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst) % {0})) "
                      "% {0};",
                      kLineBytes);
              w.linef("if (head > {0}) head = {0};", tile_bytes);
              w.line("std::memcpy(dst, buf, static_cast<std::size_t>(head));");
              w.line("std::int64_t i = head;");
              w.block(fmt::format("for (; i + {0} <= {1}; i += {0})", kLineBytes, tile_bytes), [&] {
                w.line("unsigned char* const to = dst + i;");
                w.line("const unsigned char* const from = buf + i;");
                emit_lines(w, hooks.stream_line);
              });
              w.linef("std::memcpy(dst + i, buf + i, static_cast<std::size_t>({} - i));", tile_bytes);
            };
            w.block("for (std::int64_t t = first; t < last; ++t)", [&] {
              if (rows && k.stage_row_group > 1) {
                // A block's rows (Kernel::stage_row_group), each copied straight across.
                if (k.stage_row_group_rest) {
                  const LoopDim& g = k.loops[k.stage_row_group_loop];
                  w.linef("const int rows = t{} == {} ? {} : {};  // the last chunk of {}", k.stage_row_group_loop,
                          g.count - 1, k.stage_row_group_rest, k.stage_row_group, g.what);
                } else {
                  w.linef("constexpr int rows = {};", k.stage_row_group);
                }
                w.block("for (int r = 0; r < rows; ++r)", [&] {
                  w.linef("unsigned char* dst = reinterpret_cast<unsigned char*>(out + tile_off + r * {});",
                          k.stage_row_group_out);
                  w.linef("const unsigned char* buf = reinterpret_cast<const unsigned char*>(in + in_off + r * {});",
                          k.stage_row_group_in);
                  send();
                });
                if (!outer.empty()) emit_tile_step(w, outer, "tile_off", "in_off");
                return;
              }
              w.line("unsigned char* dst = reinterpret_cast<unsigned char*>(out + tile_off);");
              if (rows) {
                w.line("const unsigned char* buf = reinterpret_cast<const unsigned char*>(in + in_off);");
              } else if (nested) {
                w.linef("unsigned char* buf = stage + reinterpret_cast<std::uintptr_t>(dst) % {};", kLineBytes);
                w.linef("{0}_stage_tile(in + in_off, reinterpret_cast<{1}*>(buf));", k.name, elem);
              } else {
                w.linef("unsigned char* buf = stage + reinterpret_cast<std::uintptr_t>(dst) % {};", kLineBytes);
                w.comment("The blocks write from out + tile_off: give them buf moved back by tile_off elements");
                w.comment("(as an integer: that address lies outside any object).");
                w.linef(
                    "{}_run(in, reinterpret_cast<{}*>(reinterpret_cast<std::uintptr_t>(buf) - tile_off * {}), t * {}, "
                    "(t + 1) * {});",
                    k.name, elem, k.elem_bytes, per, per);
              }
              send();
              if (!outer.empty()) emit_tile_step(w, outer, "tile_off", rows || nested ? "in_off" : nullptr);
            });
            w.line(hooks.stream_fence);
            if (!rows) w.line("std::free(mem);");
            w.linef("if (last * {0} < end) {1}_run(in, out, last * {0}, end);", per, k.name);
          });
}

// NAME_run_assembled: flat iterations [begin, end) as NAME_run, each whole tile of them
// (ir/assembly.h) run by NAME_tile_run into a buffer whose streams have their output offsets
// within a line, then sent out stream by stream, whole lines streamed, partial ones carried to
// the next tile; the partial tiles at the ends of a part run straight into `out`.
void emit_assembled_run(CodeWriter& w, const Kernel& k, const std::string& elem, const SkeletonHooks& hooks) {
  const int level = k.assembly_level;
  const Kernel& tile = k.assembly_tile.front();
  const int64_t per = tile.iterations();
  const int64_t streams = static_cast<int64_t>(k.assembly_stream_out.size());
  const int64_t piece = k.assembly_piece * k.elem_bytes;
  const int64_t buffer = assembly_stage_bytes(k.assembly_buffer_elements * k.elem_bytes);
  const int64_t carry = streams * kLineBytes;
  std::vector<LoopDim> outer(k.loops.begin(), k.loops.begin() + level);
  const size_t chain = outer.size() - 1;
  auto table = [&](const char* name, const std::vector<int64_t>& v) {
    w.linef("static const std::int64_t {}_{}[{}] = {{", k.name, name, v.size());
    for (size_t i = 0; i < v.size(); i += 8) {
      std::vector<int64_t> row;
      for (size_t j = i; j < std::min(v.size(), i + 8); ++j) row.push_back(v[j] * k.elem_bytes);
      w.linef("    {},", fmt::join(row, ", "));
    }
    w.line("};");
  };
  w.line("");
  w.comment(fmt::format("Output lines assembled (ir/assembly.h): each tile (loops {}..{}, {} flat iterations) reads its",
                        level, k.loops.size() - 1, per));
  w.comment(fmt::format("input rows and writes a piece of {} bytes to each of {} output streams, which loop",
                        piece, streams));
  w.comment(fmt::format("{} ({}) continues tile after tile. Byte offsets of each stream's piece from the tile's",
                        chain, outer[chain].what));
  w.comment("output base, and from the buffer's base:");
  table("stream_out", k.assembly_stream_out);
  table("stream_buf", k.assembly_stream_buf);
  w.line("");
  w.block(fmt::format("void {0}_run_assembled(const {1}* in, {1}* out, std::int64_t begin, std::int64_t end)", k.name,
                      elem),
          [&] {
            if (k.regions.empty()) {
              w.linef("const std::int64_t first = (begin + {0}) / {1}, last = end / {1};  // whole tiles", per - 1, per);
            } else {
              const int64_t tiled = LoopRegion{0, 0, k.loops}.iterations();
              w.comment(fmt::format("Whole tiles: the first nest's {} flat iterations; the other nests run as NAME_run.", tiled));
              w.linef("const std::int64_t first = (begin + {0}) / {1}, last = (end < {2} ? end : {2}) / {1};", per - 1, per,
                      tiled);
            }
            w.comment(fmt::format("The buffer ({} bytes) and the carry lines ({} bytes), on a line.", buffer, carry));
            emit_tile_buffer(w, k, buffer + carry, per, "first < last");
            w.linef("unsigned char* const carry = stage + {};", buffer);
            w.linef("const std::int64_t piece = {};", piece);
            emit_tile_start(w, outer, "out_off", "in_off");
            w.block("for (std::int64_t t = first; t < last; ++t)", [&] {
              w.line("unsigned char* const dst = reinterpret_cast<unsigned char*>(out + out_off);");
              w.linef("unsigned char* const buf = stage + reinterpret_cast<std::uintptr_t>(dst) % {};", kLineBytes);
              w.linef("{}_run(in + in_off, reinterpret_cast<{}*>(buf), 0, {});", tile.name, elem, per);
              w.linef("const bool cont_in = t > first && t{} != 0;", chain);
              w.linef("const bool cont_out = t + 1 < last && t{} != {};", chain, outer[chain].count - 1);
              w.block(fmt::format("for (std::int64_t s = 0; s < {}; ++s)", streams), [&] {
                w.linef("unsigned char* const d = dst + {}_stream_out[s];", k.name);
                w.linef("const unsigned char* const b = buf + {}_stream_buf[s];", k.name);
                w.linef("unsigned char* const c = carry + s * {};", kLineBytes);
                emit_lines(w, hooks.assemble_stream);
              });
              emit_tile_step(w, outer, "out_off", "in_off");
            });
            w.line(hooks.stream_fence);
            w.line("std::free(mem);");
            w.linef("if (last * {0} < end) {1}_run(in, out, last * {0}, end);", per, k.name);
          });
}

}  // namespace

std::string emit_kernel_skeleton(const KernelUnit& unit,
                                 const std::function<void(CodeWriter&, const Kernel&, const BlockProgram&)>& body,
                                 const std::string& stream_fence, const std::string& stream_line,
                                 const std::string& assemble_stream) {
  SkeletonHooks hooks;
  hooks.elem_type = fmt::format("gentt_bytes<{}>", unit.problem.dtype.bytes);
  hooks.block_body = [&](CodeWriter& w, const Kernel& k, const BlockProgram& prog, int) { body(w, k, prog); };
  hooks.stream_fence = stream_fence;
  hooks.stream_line = stream_line;
  hooks.assemble_stream = assemble_stream;
  return emit_kernel_skeleton(unit, hooks);
}

std::string emit_kernel_skeleton(const KernelUnit& unit, const SkeletonHooks& hooks) {
  const Kernel& k = unit.kernel;
  const Problem& p = unit.problem;
  const std::string& n = k.name;
  const Kernel* stream = unit.stream_kernel ? &*unit.stream_kernel : nullptr;
  GENTT_CHECK(!stream || !hooks.stream_fence.empty(), "a streaming variant needs the backend's stream fence");
  GENTT_CHECK(!stream || stream->iterations() > 0, "empty streaming variant");
  const std::string elem = n + "_elem";
  CodeWriter w;
  w.comment(fmt::format("---- kernel {} ----", n));
  w.line("namespace {");
  w.line("");
  w.linef("using {} = {};", elem, hooks.elem_type);
  emit_programs_and_run(w, k, elem, hooks);
  const bool staged = k.stage_level >= 0;
  GENTT_CHECK(!staged || (!hooks.stream_line.empty() && !hooks.stream_fence.empty()),
              "a staged kernel needs the backend's streaming line copy and fence");
  GENTT_CHECK(!staged || k.regions.empty(), "a staged kernel has one loop nest");
  if (staged) emit_staged_run(w, k, elem, hooks);
  const bool assembled = k.assembly_level >= 0;
  GENTT_CHECK(!assembled || (!hooks.assemble_stream.empty() && !hooks.stream_fence.empty()),
              "an assembled kernel needs the backend's stream assembly and fence");
  GENTT_CHECK(!assembled || ((k.regions.empty() || (k.regions.front().in_offset == 0 && k.regions.front().out_offset == 0)) &&
                              !staged && k.assembly_tile.size() == 1 && k.assembly_level >= 1),
              "an assembled kernel has its tiles in its first loop nest, a chain loop and a tile");
  if (assembled) {
    w.line("");
    w.comment("The tile's blocks and loops, writing into the buffer (its own output strides).");
    emit_programs_and_run(w, k.assembly_tile.front(), elem, hooks);
    emit_assembled_run(w, k, elem, hooks);
  }
  if (stream) {
    w.line("");
    w.comment(fmt::format("The streaming variant (used when `out` is {}-byte aligned): loops {}, "
                          "whole-line stores around the cache.",
                          kLineBytes, stream->banded ? "in band tiles" : stream->tiled ? "in cache tiles" : stream->order));
    emit_programs_and_run(w, *stream, elem, hooks);
  }
  const Kernel* unbanded = unit.unbanded_stream_kernel ? &*unit.unbanded_stream_kernel : nullptr;
  GENTT_CHECK(!unbanded || (stream && stream->banded && unbanded->iterations() > 0),
              "an unbanded twin needs a banded streaming variant");
  if (unbanded) {
    w.line("");
    w.comment(fmt::format("The banded variant's unbanded twin, run instead on {} (gentt_bands_pay): loops {}.",
                          kBandVendorRule, unbanded->tiled ? "in cache tiles" : unbanded->order));
    emit_programs_and_run(w, *unbanded, elem, hooks);
  }
  w.line("");
  w.line("}  // namespace");
  // NAME_run (or the streaming NAME_stream_run) over all flat iterations, or over the part's.
  auto run_call = [&](const Kernel& kk, bool part) {
    const int64_t t = kk.iterations();
    const std::string args = fmt::format("static_cast<const {0}*>(in), static_cast<{0}*>(out)", elem);
    const std::string run = kk.stage_level >= 0 ? "_run_staged" : kk.assembly_level >= 0 ? "_run_assembled" : "_run";
    if (!part) return w.linef("{}{}({}, 0, {});", kk.name, run, args, t);
    w.linef("{}{}({},", kk.name, run, args);
    w.linef("    gentt_part_begin({0}, part, nparts), gentt_part_begin({0}, part + 1, nparts));", t);
  };
  auto body = [&](bool part) {
    if (!hooks.entry_check.empty()) w.line(hooks.entry_check);
    if (part) w.line("if (nparts < 1 || part < 0 || part >= nparts) return;");
    if (!stream) return run_call(k, part);
    w.comment(fmt::format("Whole-line stores need `out` on a {}-byte line; otherwise the cached variant.", kLineBytes));
    w.block(fmt::format("if (reinterpret_cast<std::uintptr_t>(out) % {} == 0)", kLineBytes), [&] {
      if (unbanded) {
        w.if_else("gentt_bands_pay()", [&] { run_call(*stream, part); }, [&] { run_call(*unbanded, part); });
      } else {
        run_call(*stream, part);
      }
      w.line(hooks.stream_fence);
      w.line("return;");
    });
    run_call(k, part);
  };
  w.line("");
  w.block(fmt::format("extern \"C\" void {}(const void* in, void* out)", n), [&] { body(false); });
  if (p.threads) {
    w.line("");
    w.block(fmt::format("extern \"C\" void {}_part(const void* in, void* out, int part, int nparts)", n),
            [&] { body(true); });
  }
  w.line("");
  w.linef("static const long long {}_shape[] = {{{}}};", n, fmt::join(p.shape, ", "));
  w.linef("static const int {}_perm[] = {{{}}};", n, fmt::join(p.perm, ", "));
  w.linef("extern \"C\" const gentt_kernel_info {}_info = {{", n);
  const std::uint64_t features = isa_features(p.target.isa);
  w.linef("    GENTT_KERNEL_INFO_VERSION, \"{0}\", \"{1}\", {2}, {3}, {4}, {0}_shape, {0}_perm, {0}, {5},", n,
          isa_name(p.target.isa), p.target.vector_bits, p.dtype.bytes, p.shape.size(),
          p.threads ? n + "_part" : "nullptr");
  w.linef("    {}, \"{}\"}};", feature_macros(features), feature_list(features));
  return w.str();
}

}  // namespace gentt
