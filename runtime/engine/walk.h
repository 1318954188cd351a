// The loop nest around the block programs, walked at run time: an odometer over the flat
// iterations [begin, end) (the part of a thread), base pointers stepped incrementally (no
// division per block), and the program chosen by which loops are on their tail chunk. The same
// rules as the generated kernels' NAME_run (docs/ir.md: loops, tail bits, parts).
#pragma once

#include <cstdint>

namespace gentt::engine {

struct WalkLoop {
  std::int64_t count = 1;
  std::int64_t in_step = 0;   // bytes
  std::int64_t out_step = 0;  // bytes
  int tail_bit = -1;
};

// An engine compiled for an instruction set by function attributes defines GENTT_WALK_TARGET to
// the same attribute before including this header, so that its block body inlines into the walk
// (walk is a template over the engine's own block type: no other instantiation is affected).
#ifndef GENTT_WALK_TARGET
#define GENTT_WALK_TARGET
#endif

// Runs of b at most this long that end in a tail block are batched (walk, run_full).
inline constexpr std::int64_t kShortTailRunBlocks = 4;
// Where a ends in a tail chunk, the iterations of the loop c above it are taken in one call only
// where c steps at most kTailBatchStepBytes in the input and in the output (any step in a cached
// tile: PrepareOptions::cached_tile), and at most as many as span kTailBatchSpanBytes (walk).
inline constexpr std::int64_t kTailBatchStepBytes = 1024;
inline constexpr std::int64_t kTailBatchSpanBytes = std::int64_t{64} << 10;
// A batch of runs of b that end in a tail block spans at most this much input (walk), and takes
// at least kTailBatchMinRuns runs: its tail blocks, after its full blocks, read the rest of the
// lines those read, which must still be in L1. The cap was 512 KiB (L2), set for uint16
// 238336x55 transposed, streamed (7448 runs of a full and a tail block, 3520 input bytes apart:
// in one batch the tails read the tensor a second time from memory), and the batches of whole
// iterations of the loop above a had none: seed 002's uint16 (3,32,8,16,24,16,20,3) streamed,
// (6,7,3,4,5,0,1,2) a batch of 24 regions of 737 KB, (2,0,1,6,7,3,4,5) one of 5.9 MB, their
// tails read from memory again. With 16 KiB (Intel server core, 1 thread, x best copy, ABBA of
// gentt_bench): (6,7,3,4,5,0,1,2) 0.46 -> 0.54, (6,7,0,1,4,5,2,3) 0.54 -> 0.60 (alone, 0.47 ->
// 0.60 for (2,0,1,6,7,3,4,5)), TTLG 17^6 float64 (5,3,2,4,1,0) 0.44 -> 0.53, float64
// (30,60,8,32,22) (0,4,3,1,2) 1.14x, uint8 425x571x328 reversed 1.08x, 238336x55 1.04x; the
// in-cache sets (gentt, incache, bytes, midsize) 0.99x geomean, the large ones 1.00-1.01x. The
// minimum keeps calls of at least 16 runs where runs lie far apart (in cache, caps of 64 KiB
// without it had cost up to 0.5x: more calls, nothing re-read).
inline constexpr std::int64_t kTailBatchMaxInputBytes = std::int64_t{16} << 10;
inline constexpr std::int64_t kTailBatchMinRuns = 16;
// The most loops a walked nest has (the rank limit): the size of the walks' counter arrays.
inline constexpr int kWalkMaxDepth = 64;

// Steps the counters idx of loops [0, top) by one iteration, innermost first, and in and out
// with them; false when every counter wrapped to 0 (the nest is done).
__attribute__((always_inline)) inline bool step_odometer(const WalkLoop* loops, int top, std::int64_t* idx,
                                                         const char*& in, char*& out) {
  for (int d = top - 1; d >= 0; --d) {
    in += loops[d].in_step;
    out += loops[d].out_step;
    if (++idx[d] < loops[d].count) return true;
    in -= loops[d].count * loops[d].in_step;
    out -= loops[d].count * loops[d].out_step;
    idx[d] = 0;
  }
  return false;
}

// Whether flat iterations [0, end) are the whole nest and no loop has a tail chunk (full_nest).
inline bool whole_full_nest(const WalkLoop* loops, int depth, std::int64_t end) {
  std::int64_t total = 1;
  for (int d = 0; d < depth; ++d) {
    if (loops[d].tail_bit >= 0) return false;
    total *= loops[d].count;
  }
  return end == total;
}

// Every block of a nest without tail chunks (whole_full_nest), all full blocks: one
// block.run_full call for the three innermost loops per iteration of the loops above them,
// stepped by an odometer; the calls walk makes for such a nest, without its state per run of b
// (its setup and carry took about a quarter of the instructions of a 4 KiB call: float32 2^10,
// 4 loops of 2). Out of line: bodies that inline run_full (LeanBody's Fixed) got one more copy of
// their blocks in walk's function, where they spilled a vector per block (float32 24^3 reversed).
template <class Block>
GENTT_WALK_TARGET __attribute__((noinline)) void full_nest(const WalkLoop* loops, int depth, const char* in, char* out,
                                                           Block& block) {
  const WalkLoop b = loops[depth - 1];
  const WalkLoop a = depth >= 2 ? loops[depth - 2] : WalkLoop{};  // count 1 when there is none
  const WalkLoop c = depth >= 3 ? loops[depth - 3] : WalkLoop{};
  const int outer = depth >= 3 ? depth - 3 : 0;  // loops above c
  std::int64_t idx[kWalkMaxDepth];
  for (int d = 0; d < outer; ++d) idx[d] = 0;
  for (;;) {
    block.run_full(in, out, c.count, c.in_step, c.out_step, a.count, a.in_step, a.out_step, b.count, b.in_step,
                   b.out_step);
    if (!step_odometer(loops, outer, idx, in, out)) return;
  }
}

// Calls block(program, in_base, out_base) for every flat iteration in [begin, end), where
// 0 <= begin and end <= the product of the counts (depth <= 64). A block type may also take
// several iterations in one call (LeanBody): run_program(program, in, out, na, a_in, a_out, n,
// b_in, b_out) for na runs of n blocks of one program, and run_full(in, out, nc,
// c_in, c_out, na, a_in, a_out, n, b_in, b_out) for nc runs of na runs of n full blocks (program
// 0) when its member full0 is set; runs of b of at most kShortTailRunBlocks that end in a tail
// block give those their full blocks, and their tail blocks follow (one run_program call, out of
// loop order). The two
// innermost loops run as plain nested loops (most nests have short inner
// loops: a row's chunks, 2-3 iterations); the odometer carries only above them. This halved
// the walk's cost per block (2.3 to 1.3 ns) against one odometer over every loop.
// SplitTail: b's full chunks and its tail chunk are two call sites, so that the full ones call
// with a constant program (the TTLG set's median went from 0.73 to 0.85 of the generated kernels
// with the lean body); false: one call site, for large bodies whose compile time matters more.
template <bool SplitTail = true, class Block>
GENTT_WALK_TARGET __attribute__((always_inline)) inline void walk(const WalkLoop* loops, int depth, std::int64_t begin,
                                                std::int64_t end, const char* in, char* out, Block& block) {
  if (begin >= end) return;
  // What the block type takes besides single blocks (LeanBody: run_program and run_full).
  constexpr bool kRunProgram = requires { block.run_program(0, in, out, 0, 0, 0, 0, 0, 0); };
  constexpr bool kRunFull = requires { block.run_full(in, out, 0, 0, 0, 0, 0, 0, 0, 0, 0); };
  if (depth == 0) {
    block(0, in, out);
    return;
  }
  if constexpr (kRunFull)
    if (begin == 0 && block.full0 && whole_full_nest(loops, depth, end)) {
      full_nest(loops, depth, in, out, block);
      return;
    }
  // Only the first `depth` counters are used: zeroing all 64 (a 512-byte rep stos) was 8% of a
  // 4 KiB call.
  std::int64_t idx[kWalkMaxDepth];
  for (int d = 0; d < depth; ++d) idx[d] = 0;
  // i and j: the counters of a and b (below), set where begin is decoded, not read back from idx
  // (GCC 12 warned that idx[depth - 1] may be used uninitialized there).
  std::int64_t i = 0, j = 0;
  if (begin != 0) {  // the common whole-tensor call starts at zero: no division
    std::int64_t rest = begin;
    for (int d = depth - 1; d >= 0; --d) {
      const std::int64_t at = rest % loops[d].count;
      idx[d] = at;
      if (d == depth - 1) j = at;
      if (d == depth - 2) i = at;
      rest /= loops[d].count;
    }
    for (int d = 0; d < depth; ++d) {
      in += idx[d] * loops[d].in_step;
      out += idx[d] * loops[d].out_step;
    }
  }
  const WalkLoop b = loops[depth - 1];
  const WalkLoop a = depth >= 2 ? loops[depth - 2] : WalkLoop{};  // count 1 when there is none
  const int outer = depth >= 2 ? depth - 2 : 0;                    // loops above a
  const int a_tail = a.tail_bit >= 0 ? 1 << a.tail_bit : 0, b_tail = b.tail_bit >= 0 ? 1 << b.tail_bit : 0;
  const std::int64_t b_full = b_tail ? b.count - 1 : b.count;  // b's tail, if any, is its last
  bool outer_tails = false;
  for (int d = 0; d < outer; ++d) outer_tails |= loops[d].tail_bit >= 0;
  for (std::int64_t it = begin;;) {
    int outer_program = 0;
    if (outer_tails)
      for (int d = 0; d < outer; ++d)
        if (loops[d].tail_bit >= 0 && idx[d] == loops[d].count - 1) outer_program |= 1 << loops[d].tail_bit;
    // A block type with run_program (LeanBody) takes whole runs of b, a's iterations included,
    // in one call per program: the full blocks of each run (run_full for program 0 where the
    // type has it and full0 is set, else run_program), and where b ends in a tail block, those
    // tail blocks after them (each a few blocks later than in the loop order: its output lines
    // are still in L1). On short runs the walk's cost per run was as large as the blocks' (16^6
    // float64 (4,1,2,5,3,0), runs of 4 blocks: 0.55 -> 0.60 of the generated kernel with a's runs
    // in one call); with a call per run of 2 full blocks and a tail, the walk's pointers and the
    // body's geometry went through the stack between the blocks, whose stores delay the blocks'
    // own (17^6 float64 (2,5,1,0,4,3) and (3,5,2,0,1,4): 1.05-1.15x with the runs of a
    // together). The tail blocks and the runs of other programs (loops above on their tail chunk)
    // went from a call per block or per run to one call: 15^5 float64 (4,1,3,2,0) 0.62 -> 0.74
    // of the generated kernel, 15^4 (3,1,2,0) 0.62 -> 0.66 (Zen 4, in cache).
    if constexpr (kRunProgram) {
      auto tails = [&](int program, const char* from, char* to, std::int64_t nc, std::int64_t c_in,
                       std::int64_t c_out, std::int64_t na) {
        if (!b_tail) return;
        block.run_program(program | b_tail, from + b_full * b.in_step, to + b_full * b.out_step, nc, c_in, c_out, na,
                          a.in_step, a.out_step);
      };
      bool full0 = false;
      if constexpr (kRunFull) full0 = block.full0;
      // Long runs that end in a tail keep a call per run: it costs little against their blocks,
      // and batched, each tail block would wait for the runs after it (17^6 float64 (4,3,2,5,0,1),
      // runs of 36 blocks and a tail: 0.95x batched).
      if (j == 0 && b_full > 0 && (b_tail == 0 || b.count <= kShortTailRunBlocks)) {
        // Whole iterations of the loop c above a (neither with a tail) in one call as well: with
        // the carry every a.count * b.count blocks, 16^6 float64 (4,1,2,5,3,0) (2 runs of 4
        // blocks) ran at 0.62 of the generated kernel, 0.71 with c's iterations in one call.
        // The last iteration is left as done with a (i = a.count), so that the carry below
        // steps c.
        // Where a ends in a tail chunk too (a short loop), its tail runs follow the same way
        // (17^6 float64, loops of 3 and 3 chunks with 1-element tails on both rows, took six
        // calls per 9 blocks before).
        if (outer_program == 0 && full0 && outer > 0 && i == 0 && (a_tail == 0 || a.count <= kShortTailRunBlocks) &&
            loops[outer - 1].tail_bit < 0) {
          const WalkLoop& c = loops[outer - 1];
          const std::int64_t per = a.count * b.count;
          std::int64_t nc = c.count - idx[outer - 1];
          if (end - it < nc * per) nc = (end - it) / per;
          // With a's tail runs after its full ones, the passes over c (one per program) each
          // read lines the one before read and write the other parts of its output lines: only
          // where c steps at most kTailBatchStepBytes on both sides (it continues the block's
          // rows, so the passes stay on a few nearby lines), and its iterations in one call span
          // at most kTailBatchSpanBytes. 17^6 float64 (2,5,1,0,4,3) and (5,2,1,3,4,0), c stepping
          // 136 bytes on both sides: 0.60 -> 0.81 of the generated kernel. 15^6 float64
          // (0,3,1,2,5,4), c stepping 27000 input bytes: 0.70 -> 0.51 over all 225 iterations of
          // c at once, 0.52 two at a time, so it keeps a call per run.
          // A body that walks one cached tile (batch_any_step: PrepareOptions::cached_tile) has
          // all of c's lines in cache: there a call per run only cost its overhead (15^6 float64
          // (0,1,3,5,2,4): tiles of 15 x 2 x 2 blocks, c stepping 1800 and 2040 bytes; 1.40-1.61x
          // on the TTLG cases with such tiles, Zen 5).
          bool any_step = false;
          if constexpr (requires { block.batch_any_step; }) any_step = block.batch_any_step;
          // Where b ends in a tail, the tail blocks after the batch read the rest of the lines
          // its full blocks read: the batch spans at most kTailBatchMaxInputBytes of input
          // (fewer than 2 iterations: the runs of a in batches, below).
          if (b_tail) {
            const std::int64_t a_span = a.count * (a.in_step < 0 ? -a.in_step : a.in_step);
            if (a_span > 0 && nc > kTailBatchMaxInputBytes / a_span) nc = kTailBatchMaxInputBytes / a_span;
          }
          if (a_tail) {
            const std::int64_t in_span = c.in_step < 0 ? -c.in_step : c.in_step;
            const std::int64_t out_span = c.out_step < 0 ? -c.out_step : c.out_step;
            const std::int64_t step = in_span > out_span ? in_span : out_span;
            if (step > kTailBatchStepBytes && !any_step) nc = 1;
            else if (step > 0 && nc > kTailBatchSpanBytes / step) nc = kTailBatchSpanBytes / step;
          }
          if (nc > 1) {
            const std::int64_t a_full = a_tail ? a.count - 1 : a.count;
            if (a_full > 0) {
              if constexpr (kRunFull)
                block.run_full(in, out, nc, c.in_step, c.out_step, a_full, a.in_step, a.out_step, b_full, b.in_step,
                               b.out_step);
              tails(0, in, out, nc, c.in_step, c.out_step, a_full);
            }
            if (a_tail) {
              const char* from = in + a_full * a.in_step;
              char* to = out + a_full * a.out_step;
              block.run_program(a_tail, from, to, nc, c.in_step, c.out_step, b_full, b.in_step, b.out_step);
              tails(a_tail, from, to, nc, c.in_step, c.out_step, 1);
            }
            in += (nc - 1) * c.in_step + a.count * a.in_step;
            out += (nc - 1) * c.out_step + a.count * a.out_step;
            idx[outer - 1] += nc - 1;
            i = a.count;
            it += nc * per;
            if (it >= end) return;
          }
        }
        const std::int64_t a_stop = a.count - (a_tail ? 1 : 0);
        // The tail blocks follow their batch's full blocks and read the rest of the lines those
        // read: batches of at most kTailBatchMaxInputBytes of input.
        std::int64_t batch = a_stop;
        if (b_tail) {
          const std::int64_t a_in_span = a.in_step < 0 ? -a.in_step : a.in_step;
          if (a_in_span > 0 && batch > kTailBatchMaxInputBytes / a_in_span) batch = kTailBatchMaxInputBytes / a_in_span;
          if (batch < kTailBatchMinRuns) batch = kTailBatchMinRuns < a_stop ? kTailBatchMinRuns : a_stop;
        }
        for (;;) {
          std::int64_t runs = (end - it) / b.count;
          if (runs > a_stop - i) runs = a_stop - i;
          if (runs > batch) runs = batch;
          // One run with a tail: the loop below, as before (a lone run gained nothing batched).
          if (runs <= (b_tail ? 1 : 0)) break;
          if (outer_program == 0 && full0) {
            if constexpr (kRunFull)
              block.run_full(in, out, 1, 0, 0, runs, a.in_step, a.out_step, b_full, b.in_step, b.out_step);
          } else {
            block.run_program(outer_program, in, out, runs, a.in_step, a.out_step, b_full, b.in_step, b.out_step);
          }
          tails(outer_program, in, out, 1, 0, 0, runs);
          in += runs * a.in_step;
          out += runs * a.out_step;
          i += runs;
          it += runs * b.count;
          if (it >= end) return;
        }
      }
    }
    // a's run from i, each a run of b from j, to their ends or to the part's end.
    for (; i < a.count; ++i) {
      const int program = outer_program | (i == a.count - 1 ? a_tail : 0);
      const std::int64_t stop = j + (end - it < b.count - j ? end - it : b.count - j);
      it += stop - j;
      if constexpr (SplitTail) {
        const std::int64_t full_stop = stop < b_full ? stop : b_full;
        // A block type with run_program (LeanBody) takes the run's blocks of one program at
        // once: run_full for full blocks where it has it (program 0 where full0 is set),
        // run_program for the others (program 0 too otherwise).
        if constexpr (kRunProgram) {
          if (j < full_stop) {
            bool whole = false;
            if constexpr (kRunFull) {
              whole = program == 0 && block.full0;
              if (whole) block.run_full(in, out, 1, 0, 0, 1, 0, 0, full_stop - j, b.in_step, b.out_step);
            }
            if (!whole) block.run_program(program, in, out, 1, 0, 0, full_stop - j, b.in_step, b.out_step);
            in += (full_stop - j) * b.in_step;
            out += (full_stop - j) * b.out_step;
            j = full_stop;
          }
        }
        for (; j < full_stop; ++j, in += b.in_step, out += b.out_step) block(program, in, out);
        for (; j < stop; ++j, in += b.in_step, out += b.out_step) block(program | b_tail, in, out);
      } else {
        for (; j < stop; ++j, in += b.in_step, out += b.out_step) block(j < b_full ? program : program | b_tail, in, out);
      }
      if (it >= end) return;
      j = 0;
      in += a.in_step - b.count * b.in_step;
      out += a.out_step - b.count * b.out_step;
    }
    // Carry: rewind a and step the loops above it, innermost first.
    i = 0;
    in -= a.count * a.in_step;
    out -= a.count * a.out_step;
    step_odometer(loops, outer, idx, in, out);
  }
}

// Part p of n of t flat iterations: balanced, disjoint, covering (docs/ir.md, "Parts").
inline std::int64_t part_begin(std::int64_t t, std::int64_t p, std::int64_t n) {
  return (t / n) * p + (p < t % n ? p : t % n);
}

}  // namespace gentt::engine
