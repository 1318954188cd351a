#include "ir/pipeline.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/assembly.h"
#include "ir/band.h"
#include "ir/canonical.h"
#include "ir/error.h"
#include "ir/interleave.h"
#include "ir/lower.h"
#include "ir/prefetch.h"
#include "ir/staging.h"
#include "ir/stream.h"
#include "ir/tiling.h"
#include "ir/vector_width.h"
#include "ir/verify.h"

namespace gentt {

int lanes_for(const Target& target, int64_t elem_bytes) {
  GENTT_CHECK(elem_bytes >= 1, "element size < 1");
  // The scalar backend keeps a "vector" of about one cache line (64 bytes), at most 16 lanes
  // so that emitted shuffle tables stay small.
  const int64_t bytes = target.isa == Isa::scalar ? 64 : target.vector_bits / 8;
  const int64_t fit = std::max<int64_t>(1, bytes / elem_bytes);
  const int64_t lanes = std::bit_floor(static_cast<uint64_t>(fit));
  return static_cast<int>(target.isa == Isa::scalar ? std::min<int64_t>(lanes, 16) : lanes);
}

namespace {

// Short kept rows off their lines past the caches (ir/staging.h's kStageMaxKeptRowBytes, neither
// whole lines nor streamed straight across): run_pipeline tries blocks of one row chunk, no
// register bits (`row_blocks`), as the run-time row engine walks them.
bool short_rows_off_lines(const Problem& problem, const Canonical& c) {
  const int64_t kept_row = c.rank() >= 2 && c.perm.back() == c.rank() - 1 ? c.shape.back() * c.elem_bytes : 0;
  int64_t total = c.elem_bytes;
  for (int64_t x : c.shape) total *= x;
  return kept_row > 0 && kept_row < kStageMaxKeptRowBytes && kept_row % kLineBytes != 0 &&
         target_streams(problem.target) && problem.stores != StoreMode::cached &&
         (problem.stores == StoreMode::streaming || total >= kStreamMinBytes);
}

Lowered run_pipeline_with(const Problem& given, bool row_blocks);

}  // namespace

Lowered run_pipeline(const Problem& given) {
  Lowered out = run_pipeline_with(given, false);
  // Short kept rows off their lines whose walk is neither staged nor assembled: blocks of one row
  // chunk instead, where their walk is not staged either. The balanced loop order then sees one
  // row, as the run-time row engine's does (ir/loops.h's rows_follow_input), where the block's
  // register bits had made it follow the input's next axis across rows far apart in the output.
  // Intel server core, AVX-512, 1 thread, x best copy, ABBA of 2 processes, the 10 such cases of
  // two random sets: uint16 (96,64,14,165) (2,0,1,3) 0.33 -> 0.60, uint8 (27,12,50,39,150)
  // (3,1,2,0,4) 0.23 -> 0.61, float32 (6,29,29,45,97) (3,1,0,2,4) 0.35 -> 0.54, (8,14,65,38,83)
  // (3,0,2,1,4) 0.42 -> 0.59, float64 (98,55,63,31) (2,0,1,3) 0.46 -> 0.57, but (2078,328,17)
  // (1,0,2) 0.35 -> 0.26; geomean 1.38x.
  // Where the one-chunk blocks' walk is staged, it lost without a prefetch (geomean 0.89x over 17
  // cases: staged tiles of one-register blocks reading many rows, float32 (64,103,87,23) (2,0,1,3)
  // 0.40 -> 0.22); with each row prefetching the next rows' bytes (ir/prefetch.h's
  // choose_row_prefetch), as the run-time row engine's staged walks do, it won: ABBA of 2
  // processes, the 30 cases of the random, keptrows and shortkept sets it changes, geomean 1.35x
  // (float32 (45,54,45,99) (1,2,0,3) 0.32 -> 0.67, float64 (136,775,53) (1,0,2) 0.34 -> 0.59, uint16
  // (45,62,69,7,33) (0,2,3,1,4) 0.16 -> 0.35; one loss, uint16 (392,1610,57) (1,0,2) 0.40 -> 0.35).
  // Staged in row tiles (ir/staging.h's tile_rows_for_staging: at most 16 input runs a tile) it is
  // taken without a prefetch too (uint16 (96,64,14,165) (2,0,1,3)).
  Problem tuned = given;
  tuned.target = out.target;
  if (out.kernel.stage_level < 0 && out.kernel.assembly_level < 0 && !out.stream_kernel &&
      short_rows_off_lines(tuned, canonicalize(given.dtype.bytes, given.shape, given.perm))) {
    Lowered rows = run_pipeline_with(given, true);
    const bool staged = rows.kernel.stage_level >= 0, prefetched = rows.kernel.prefetch_window > 0;
    if ((!staged || prefetched || rows.kernel.stage_row_tiles) && rows.kernel.assembly_level < 0 && !rows.stream_kernel &&
        rows.plan.block_axes != out.plan.block_axes) {
      rows.plan.reasons.push_back(fmt::format(
          "short kept rows off their lines, walk not staged: blocks of one row chunk (no register bits), so that the "
          "loop order sees one row, as the run-time row engine walks them{}",
          staged && prefetched ? "; that walk is staged, each row prefetching the next rows' bytes"
          : staged             ? "; that walk is staged"
          : prefetched         ? "; each row prefetches the next rows' bytes"
                               : ""));
      return rows;
    }
  }
  return out;
}

namespace {

Lowered run_pipeline_with(const Problem& given, bool row_blocks) {
  check_store_mode(given.target, given.stores, "stores");
  // A tuned target (Tune::znver4) chooses its width first; the rest plans for that width.
  const WidthChoice width = choose_vector_bits(given);
  Problem problem = given;
  problem.target.vector_bits = width.vector_bits;
  const Canonical c = canonicalize(problem.dtype.bytes, problem.shape, problem.perm);
  Lowered out;
  out.target = problem.target;
  // AVX-512 zmm blocks split their input rows past 32 registers (ir/plan.h's register_limit):
  // byte blocks of 64 rows become 32 registers of two half rows.
  const int register_limit = is_avx512_level(problem.target.isa) && problem.target.vector_bits == 512 ? 32 : 0;
  const int64_t bytes = c.elem_bytes;
  int64_t total = c.elem_bytes;
  for (int64_t x : c.shape) total *= x;
  // Kept rows past the caches, where the output streams (ir/stream.h's size rule): blocks of rows
  // that are neighbours in the output (make_plan's kept_row_groups), as the run-time row engine
  // copies them, so that the streamed lines of a block's rows are one run of the output and its
  // loads come from a few rows read in order. Rows of kStageMaxKeptRowBytes and more, streamed
  // straight across in the blocks' groups (ir/staging.h's plan_row_streaming), take that plan for
  // every variant: TTC (2307,64,368) (1,0,2) float32, whose next output axis is odd, took its
  // register bits from the input's next axis (8 output rows 94 KB apart per block) and ran at 0.70
  // of the best copy against the run-time library's 1.05, uint16 (365,298,393) (1,0,2) was not
  // streamed at all (Intel server core). Shorter rows of whole lines take it for the streaming
  // variant only: its cached variant stages them through a buffer, whose tiles need make_plan's
  // own blocks (float64 (273,19,93,16) (2,1,0,3): streamed 0.72 -> 0.98 of the best copy, the
  // cached variant unstaged in groups 0.46 -> 0.27 where `out` is off its line).
  const int lanes = lanes_for(problem.target, problem.dtype.bytes);
  const int64_t kept_row = c.rank() >= 2 && c.perm.back() == c.rank() - 1 ? c.shape.back() * c.elem_bytes : 0;
  const bool kept_row_groups = kept_row > 0 && target_streams(problem.target) && problem.stores != StoreMode::cached &&
                               (problem.stores == StoreMode::streaming || total >= kStreamMinBytes);
  out.plan = make_plan(c, lanes, row_blocks ? 0 : kMinRegisterBits, register_limit,
                       kept_row_groups && kept_row >= kStageMaxKeptRowBytes);
  std::optional<Plan> stream_plan;  // the streaming variant's, where it differs
  if (kept_row_groups && kept_row < kStageMaxKeptRowBytes && kept_row % kLineBytes == 0) {
    Plan groups = make_plan(c, lanes, kMinRegisterBits, register_limit, true);
    if (groups.block_axes != out.plan.block_axes) stream_plan = std::move(groups);
  }
  if (!width.reason.empty()) out.plan.reasons.insert(out.plan.reasons.begin(), width.reason);
  const bool avx512_target = is_avx512_level(problem.target.isa);  // ir/tiling.h's tile_min_bytes_for
  // Interleaved planes (ir/interleave.h): a short axis moved innermost, on AVX-512 levels' zmm and
  // on AVX2 (whose byte shuffles need no VBMI: they are in-lane vpshufb and blends).
  if (((avx512_target && problem.target.vector_bits == 512) || problem.target.isa == Isa::avx2) &&
      interleave_channels(c, out.plan.lanes, total, problem.stores == StoreMode::streaming,
                          problem.target.isa == Isa::avx512 || problem.target.isa == Isa::avx2) > 0) {
    out.kernel = *lower_interleave(out.plan, problem.name, false);
    verify_kernel(out.kernel);
    // The GenTT plan's reasons describe blocks this kernel does not run.
    out.plan.reasons.clear();
    if (!width.reason.empty()) out.plan.reasons.push_back(width.reason);
    out.plan.reasons.push_back(
        fmt::format("interleaved planes: the output's innermost axis is short ({} x {} bytes) and not the input's, "
                    "the output's next axis is the input's: whole output vectors built from the planes instead of the "
                    "GenTT block, which pads that axis to {} lanes and stores parts of lines (ir/interleave.h)",
                    c.shape[c.perm.back()], bytes, std::bit_ceil(static_cast<uint64_t>(c.shape[c.perm.back()]))));
    const bool stream = problem.stores == StoreMode::streaming ||
                        (problem.stores == StoreMode::automatic && total >= kStreamMinBytes);
    if (stream) out.stream_kernel = lower_interleave(out.plan, problem.name + "_stream", true);
    // Half-line vectors (AVX2): a block's stores are consecutive and so are the blocks of the
    // innermost loop, so each line's two halves are written one after the other (halves_apart's
    // pairing rule, made for blocks whose stores go to several rows, does not see that).
    if (out.stream_kernel) verify_kernel(*out.stream_kernel);
    out.plan.reasons.push_back(out.stream_kernel ? "stores: streaming when out is 64-byte aligned (whole vectors)"
                               : stream          ? "stores: cached (" + nests_off_lines(out.kernel) + ")"
                                                 : "stores: cached");
    return out;
  }
  out.kernel = lower(out.plan, problem.name, LowerOptions{.avx512_target = avx512_target});
  verify_kernel(out.kernel);
  // Tiling is only considered for large outputs: small kernels' explanations stay as they were.
  if (out.kernel.in_elements * problem.dtype.bytes >= kTileMinBytes) out.plan.reasons.push_back(out.kernel.tiling);
  const int64_t vector_bytes = problem.target.vector_bits / 8;
  StreamChoice choice = choose_streaming(out.kernel, problem.stores, target_streams(problem.target), vector_bytes);
  // The streaming variant named `name`, with or without band tiles (ir/band.h); nullopt with the
  // reason where half-line vectors (AVX2) would write a line's halves apart. `wide_note` says
  // where it took a block of one more register bit.
  auto make_stream_kernel = [&](const std::string& name, bool bands, std::string* why_not,
                                std::string* wide_note) -> std::optional<Kernel> {
    const Plan& plan = stream_plan ? *stream_plan : out.plan;
    Kernel sk = lower(plan, name, LowerOptions{.streaming = true, .avx512_target = avx512_target, .bands = bands});
    verify_kernel(sk);
    if (vector_bytes >= kLineBytes) return sk;
    // Half-line vectors (AVX2) stream only where the walk writes every line whole at once. When
    // the plan's blocks store half lines (float32 blocks of 8 x 8), a block with one more
    // register bit, the next output bit, stores both halves of each of its lines. Where the
    // plan's own streaming walk keeps the cached walk's tiles, that block is taken too when its
    // untiled walk pairs its output lines (ir/line_pairs.h).
    std::string why = halves_apart(sk);
    if (!why.empty() || sk.tiled) {
      if (const std::optional<Plan> wide = plan_with_whole_lines(plan)) {
        Kernel k = lower(*wide, name,
                         LowerOptions{.streaming = true, .avx512_target = avx512_target, .whole_line_rows = true,
                                      .bands = bands});
        verify_kernel(k);
        if (halves_apart(k).empty() && (!why.empty() || !k.paired_lines.empty())) {
          sk = std::move(k);
          why.clear();
          const auto& ops = sk.programs.front().ops;
          *wide_note = fmt::format(
              "; the streaming variant's block has {} registers (one more output bit) so that each block stores "
              "whole lines",
              std::count_if(ops.begin(), ops.end(), [](const Op& op) { return op.kind == OpKind::store; }));
        }
      }
    }
    if (!why.empty()) {
      *why_not = why;
      return std::nullopt;
    }
    return sk;
  };
  std::string wide_note;  // the AVX2 streaming variant's block of one more register bit, where it took one
  if (choice.stream) {
    std::string why;
    out.stream_kernel = make_stream_kernel(problem.name + "_stream", true, &why, &wide_note);
    if (!out.stream_kernel) choice = {false, fmt::format("stores: cached ({})", why)};
    // A banded variant comes with its unbanded twin, which CPUs where bands do not pay run
    // (ir/band.h's kBandVendorRule, templates/x86_bands_prelude.h). Where the twin cannot stream, every CPU takes the bands.
    if (out.stream_kernel && out.stream_kernel->banded) {
      std::string twin_why, twin_note;
      out.unbanded_stream_kernel = make_stream_kernel(problem.name + "_stream_unbanded", false, &twin_why, &twin_note);
    }
  }
  // The reason names the walk the streaming variant took (tiles or input order: ir/tiling.h's
  // stream_keeps_tiles), which only the lowered variant knows.
  if (out.stream_kernel) {
    choice = choose_streaming(out.kernel, problem.stores, target_streams(problem.target), vector_bytes,
                              &*out.stream_kernel);
    choice.reason += wide_note;
    if (stream_plan) {
      std::vector<std::string> axes;
      for (const BlockAxis& b : stream_plan->block_axes)
        if (b.reg_bits > 0 && b.axis != c.rank() - 1) axes.push_back(fmt::format("{} rows of axis {}", b.chunk, b.axis));
      choice.reason += fmt::format(
          "; the streaming variant's block copies {} (register bits of the output's next axis: rows that are "
          "neighbours in the output)",
          fmt::join(axes, ", "));
    }
  }
  if (out.unbanded_stream_kernel)
    choice.reason += fmt::format("; on {} the unbanded twin {} runs instead: {}", kBandVendorRule,
                                 out.unbanded_stream_kernel->name,
                                 streaming_walk(out.kernel, &*out.unbanded_stream_kernel) +
                                     (out.unbanded_stream_kernel->read_rows_limited
                                          ? fmt::format(" ({})", kReadRowsLimitText)
                                          : std::string()));
  if (out.stream_kernel && out.stream_kernel->read_rows_limited)
    choice.reason += fmt::format("; the streaming walk from the block outwards: {} (prefetchers follow few rows)",
                                 kReadRowsLimitText);
  out.plan.reasons.push_back(choice.reason);
  // Output lines assembled across tiles (ir/assembly.h) for the cached kernel, on AVX-512 and AVX2
  // (backends with the stream assembly): outputs past the last-level cache, or any output where
  // the spec asks for streaming stores. It replaces the cached walk (tiled or not), except where
  // long kept rows are streamed straight across below (ir/staging.h, plan_row_streaming).
  const int64_t out_bytes = out.kernel.in_elements * problem.dtype.bytes;
  const std::optional<StagePlan> rows = !out.kernel.tiled && out.kernel.regions.empty()
                                           ? plan_row_streaming(out.plan, out.kernel.loops, nullptr)
                                           : std::nullopt;
  bool assembled = false;
  if ((is_avx512_level(problem.target.isa) || problem.target.isa == Isa::avx2) &&
      problem.stores != StoreMode::cached && !rows &&
      (problem.stores == StoreMode::streaming || out_bytes >= kStageMinBytes)) {
    AssemblyChoice choice = choose_assembly(out.plan, [&] {
      std::string stage_why;
      return !out.kernel.tiled && out.kernel.regions.empty() &&
             plan_staging(out.plan, out.kernel.loops, &stage_why, kStageMinTileBytes, kStageMaxGeneratedTileBytes,
                          kStageMaxKeptRowBytes);
    });
    const std::optional<AssemblyPlan>& a = choice.assembly;
    const std::optional<SplitAssembly>& split = choice.split;
    if (a) {
      const Plan& plan = split ? split->plan : out.plan;
      Kernel k = lower_walk(plan, a->walk, problem.name);
      k.order = "in tiles of the input's innermost axes, the chain loop above them";
      k.tiling = "loops: no cache tiles (" + a->reason + ")";
      k.assembly_level = a->level;
      k.assembly_piece = a->piece;
      k.assembly_buffer_elements = a->buffer_elements;
      k.assembly_stream_out = a->stream_out;
      k.assembly_stream_buf = a->stream_buf;
      if (!a->regions.empty()) k.regions = a->regions;
      Kernel tile = lower_walk(a->tile_plan, a->tile_walk, problem.name + "_tile");
      tile.prefetch_ahead = a->walk.loops[a->level - 1].in_stride;
      // Into L2 (prefetcht1): 17^6 float64 (2,5,4,0,1,3) 0.48 of the best copy, into L1 0.43,
      // none 0.41 (Zen 4, 1 thread, generated kernels in one process).
      tile.prefetch_locality = 2;
      k.assembly_tile.push_back(std::move(tile));
      verify_kernel(k);
      // The cached walk's tiling reason (pushed above for large outputs) no longer applies.
      std::erase(out.plan.reasons, out.kernel.tiling);
      out.kernel = std::move(k);
      if (split) {
        // The cached kernel is lowered from the split problem's plan: explain and the banner
        // describe that plan, after the whole problem's reasons.
        std::vector<std::string> reasons = std::move(out.plan.reasons);
        reasons.push_back(fmt::format("not assembled with whole axes: {}; the cached variant's plan below is for the "
                                      "canonical problem with {} split",
                                      choice.whole_why, split->split));
        for (const std::string& r : split->plan.reasons) reasons.push_back("split plan: " + r);
        out.plan = split->plan;
        out.plan.reasons = std::move(reasons);
      }
      out.plan.reasons.push_back(fmt::format("assembled{}: {}", out.stream_kernel ? " (the cached variant)" : "",
                                             a->reason));
      assembled = true;
    } else {
      out.plan.reasons.push_back("not assembled: " + choice.why);
    }
  }
  // Staged output (ir/staging.h) for the cached kernel, on targets with streaming stores: outputs
  // past the last-level cache, or any output where the spec asks for streaming stores.
  if (!assembled && target_streams(problem.target) && problem.stores != StoreMode::cached && !out.kernel.tiled &&
      out.kernel.regions.empty() && (problem.stores == StoreMode::streaming || out_bytes >= kStageMinBytes)) {
    std::string why;
    const bool asked = problem.stores == StoreMode::streaming;
    const int64_t min_tile = asked ? 1 : kStageMinTileBytes, max_kept = asked ? 0 : kStageMaxKeptRowBytes;
    std::optional<StagePlan> stage =
        rows ? std::nullopt
             : plan_staging(out.plan, out.kernel.loops, &why, min_tile, kStageMaxGeneratedTileBytes, max_kept);
    // Where one loop takes the tile past the window (ir/staging.h), that loop in chunks.
    if (!rows && !stage) {
      if (std::optional<StageCut> cut =
              split_for_staging(out.plan, out.kernel.loops, min_tile, kStageCutMaxTileBytes,
                                asked ? 0 : kStageCutMaxKeptRowBytes)) {
        out.kernel.loops = std::move(cut->loops);
        verify_kernel(out.kernel);
        stage = plan_staging(out.plan, out.kernel.loops, &why, min_tile, kStageMaxGeneratedTileBytes, max_kept);
        if (stage) stage->reason += " (" + cut->note + ")";
      }
    }
    // Short kept rows that still stage no tile: the nest reordered into row tiles.
    if (!rows && !stage) {
      if (std::optional<RowTiles> tiles = tile_rows_for_staging(out.plan, out.kernel.loops)) {
        out.kernel.loops = std::move(tiles->loops);
        out.kernel.stage_row_tiles = true;
        verify_kernel(out.kernel);
        stage = std::move(tiles->stage);
        stage->reason += " (" + tiles->note + ")";
      }
    }
    if (rows) {
      out.kernel.stage_level = rows->level;
      out.kernel.stage_tile_elements = rows->tile_elements;
      out.kernel.stage_tile_iterations = rows->tile_iterations;
      out.kernel.stage_rows = true;
      out.kernel.stage_row_group = rows->row_group;
      out.kernel.stage_row_group_rest = rows->row_group_rest;
      out.kernel.stage_row_group_in = rows->row_group_in;
      out.kernel.stage_row_group_out = rows->row_group_out;
      out.kernel.stage_row_group_loop = rows->row_group_loop;
      out.plan.reasons.push_back(fmt::format("rows streamed{}: {}", out.stream_kernel ? " (the cached variant)" : "",
                                             rows->reason));
    } else if (stage) {
      out.kernel.stage_level = stage->level;
      out.kernel.stage_tile_elements = stage->tile_elements;
      out.kernel.stage_tile_iterations = stage->tile_iterations;
      out.plan.reasons.push_back(fmt::format("staged{}: {}", out.stream_kernel ? " (the cached variant)" : "",
                                             stage->reason));
    } else {
      out.plan.reasons.push_back("not staged: " + why);
    }
  }
  // Kept rows of one block each past the caches: each row prefetches the next rows' bytes, as the
  // run-time row engine (ir/prefetch.h's choose_row_prefetch). x86 only, where it was measured;
  // in place of the AVX2 block rule below where both apply.
  if ((is_avx512_level(problem.target.isa) || problem.target.isa == Isa::avx2) && kept_row > 0 &&
      out.kernel.in_elements * problem.dtype.bytes >= kTileMinBytes) {
    const auto row_prefetch = [&](Kernel& k, const char* which) {
      const PrefetchChoice p = choose_row_prefetch(k, c.shape.back());
      if (p.ahead == 0) return;
      k.prefetch_ahead = p.ahead;
      k.prefetch_window = p.window;
      k.prefetch_row_chunks = p.row_chunks;
      k.prefetch_locality = p.locality;
      out.plan.reasons.push_back(which + p.reason);
    };
    row_prefetch(out.kernel, "");
    if (out.stream_kernel) row_prefetch(*out.stream_kernel, "streaming variant's ");
    if (out.unbanded_stream_kernel) row_prefetch(*out.unbanded_stream_kernel, "unbanded streaming variant's ");
  }
  // Software prefetch of blocks: AVX2 only, where it was measured; for outputs past the caches.
  if (problem.target.isa == Isa::avx2 && out.kernel.in_elements * problem.dtype.bytes >= kTileMinBytes) {
    std::string cached_reason;
    if (!out.kernel.prefetch_window) {
      const PrefetchChoice cached = choose_prefetch(out.kernel);
      out.kernel.prefetch_ahead = cached.ahead;
      out.plan.reasons.push_back(cached_reason = cached.reason);
    }
    if (out.stream_kernel && !out.stream_kernel->prefetch_ahead) {  // bands prefetch their own (ir/band.h)
      const PrefetchChoice streamed = choose_prefetch(*out.stream_kernel);
      out.stream_kernel->prefetch_ahead = streamed.ahead;
      if (streamed.reason != cached_reason) out.plan.reasons.push_back("streaming variant's " + streamed.reason);
    }
    if (out.unbanded_stream_kernel && !out.unbanded_stream_kernel->prefetch_ahead)
      out.unbanded_stream_kernel->prefetch_ahead = choose_prefetch(*out.unbanded_stream_kernel).ahead;
  }
  // Byte blocks of 64 registers (twice the register file, spilled on every block) whose large
  // output is written with plain cached stores (no streaming variant, no assembled or staged
  // walk): each block's 64 stores go to 64 output rows, off their lines, behind the spills. ymm
  // blocks (32 lanes, 32 registers) instead, as the run-time library plans them. Generated
  // kernels, Intel server core, 1 thread, GB/s: uint8 (425,571,328) reversed, cached, 1.1 -> 5.9;
  // (13,23,32,23,24,14) (3,4,5,0,2,1) 1.5 -> 5.7; (34,43,4,14,33,25) (5,4,2,3,1,0) 2.3 -> 3.9.
  // Since zmm byte blocks split their rows (32 registers of two half rows), they take ymm blocks
  // where the split pads much more: a split row pads the output row's axis to 64 lanes. uint8
  // (34,43,4,14,33,25) axes (5,4,2,3,1,0): 34 of 64 lanes, 42% of the block valid against 78% in
  // ymm blocks (generated, Zen 5, x best copy: split 0.13, ymm 0.16); where both pad alike the
  // split ran 1.4-2.5x the ymm or unsplit blocks (docs/performance.md).
  if (is_avx512_level(problem.target.isa) && problem.target.vector_bits == 512 && problem.dtype.bytes == 1 &&
      out.plan.lanes == 64 && out_bytes >= kStageMinBytes && split_pads_more(out.plan)) {
    Problem narrow = given;
    narrow.target.vector_bits = 256;
    Lowered l = run_pipeline(narrow);
    l.plan.reasons.insert(l.plan.reasons.begin(),
                          fmt::format("ymm blocks (32 lanes): the zmm block's split rows pad it to {:.1f}% valid, "
                                      "the ymm block {:.1f}%", 100 * out.plan.padding_efficiency,
                                      100 * l.plan.padding_efficiency));
    return l;
  }
  return out;
}

}  // namespace

}  // namespace gentt
