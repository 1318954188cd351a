// The SIMD block engine body, shared by the ISAs: a plan's block programs (simd_tables.h) run
// over its loop nest with the registers unrolled at compile time for every (register bits,
// passes) a plan can have, so values stay in vector registers as in a generated kernel; only
// offsets, masks and index vectors come from memory (L1-resident tables).
//
// Include inside an anonymous namespace of an engine's translation unit, after defining
// GENTT_SIMD_TARGET (the function attribute selecting the ISA, also GENTT_WALK_TARGET) and a
// traits type providing, for vectors V of kBytes bytes:
//   V load(const char*); V load_part(const char*, int bytes, unsigned long long mask);
//   void store(char*, V); void store_part(char*, V, int bytes, unsigned long long mask);
//   void stream(char*, V) (kBytes-aligned); void fence();
//   V load_index(const unsigned char*) (kBytes-aligned);
//   template <int Unit> V permute2(V a, V index, V b)  (index unit u < kBytes/Unit: a's, else b's);
//   static constexpr unsigned kUnits: the shuffle units it has, a mask of their byte sizes (1|2|4|8);
//   static constexpr int kLeanRegBits: the most register bits a lean body is compiled for;
//   static constexpr bool kLaneLocal: it has permute2<kLaneLocalBytes>, for byte passes that
//   stay within 16-byte lanes (simd_tables.h), and those run under that code;
//   optionally static constexpr bool kInLaneDwords: the same for 4-byte units
//   (permute2<kLaneLocalDwords>);
//   optionally static constexpr bool kHasGatherBytes: it has permute2<kGatherBytes> (32-byte
//   vectors), and its lean bodies run byte passes across lanes in it where their lists allow
//   (SimdProgram::gather_passes; the generic body keeps the byte form);
//   optionally static void encode_index(int unit, unsigned char* vector): rewrites an index
//   vector of simd_tables' form into the one its permute2<unit> reads (once, when prepared);
//   optionally static constexpr unsigned kButterflyLanes, a mask of the byte-lane bits L it has
//   a fixed form for, and template <int L> static void butterfly(V a, V b, V& lo, V& hi): the
//   plain exchange of byte-lane bit L (simd_tables.h, kButterflyLane);
//   optionally static constexpr bool kPrefetchAhead: the lean body prefetches (lean_ahead);
//   optionally static constexpr bool kMaskedAccess: load_part and store_part take any byte mask
//   at any address whose masked-off bytes need not exist (AVX-512): the lean bodies run the
//   blocks of programs that move partial registers by LeanBody::masked_runs, each register under
//   its own mask (without it: uniform_run's loads by load_in_window and the program's byte count,
//   and block_of);
//   optionally static P part_store(int bytes) and static void store_part(char*, V, const P&):
//   a partial store's form prepared once for a run of blocks (uniform_run; AVX2);
// Then `prepare_simd<Traits, MaxRegBits>(...)` prepares a plan for the engine (its run function
// from `pick_run<Traits>(reg_bits, passes, butterfly)`).

// The most register bits of a plan whose offsets bit_linear_registers describes (Program).
inline constexpr int kMaxLinearRegBits = 5;

struct MaskedRegs;

struct Program {
  const std::int64_t* load_offset;
  const std::int32_t* load_bytes;
  const unsigned long long* load_mask;
  const std::int64_t* store_offset;
  const std::int64_t* sink_offset;
  const std::int32_t* store_bytes;
  const unsigned long long* store_mask;
  const unsigned char* index;  // [pass][register] vectors
  const unsigned char* gather_index;  // SimdProgram::gather_index (lean bodies)
  unsigned gather_passes;             // SimdProgram::gather_passes
  unsigned uniform_passes;
  unsigned char pass_unit[kMaxPasses];
  bool full_loads, full_stores;
  bool shares_full;  // SimdProgram::shares_full
  // Register r's offset is base + (r % H) * step + (r / H) * step2 with H = max(R / 2, 1)
  // (affine_at; most full programs, step2 = H * step; AVX2's 16-register streaming blocks, whose
  // top register bit is the next output chunk): computed, not loaded. Only registers that move
  // bytes count (affine_registers): a padded axis' registers keep offset 0 in the tables.
  bool affine_loads, affine_stores;
  std::int64_t load_base, store_base, load_step, store_step, load_step2, store_step2;
  // Where they are not (most all-size-2 tensors), register r's offset is mostly bit_base plus
  // the bit_step of each register bit set in r (bit_linear_registers): each register bit is one
  // bit of some axis' index. LeanBody's Tab bodies add them so (linear_loads, linear_stores;
  // set on program 0 only, and only where a Tab body may run it: SimdBlocks).
  bool linear_loads = false, linear_stores = false;
  std::int64_t load_bit_base = 0, store_bit_base = 0;
  std::int64_t load_bit_step[kMaxLinearRegBits] = {}, store_bit_step[kMaxLinearRegBits] = {};
  const ElementMoves* moves;  // a sparse program: element moves instead of the butterfly
  // A shares_full program whose registers that load all load the same lanes (one byte count and
  // mask) and whose registers that store all store the same lanes (program 0 of a padded row,
  // HWC's 3 of 4 lanes; most tail programs): LeanBody runs it with one mask for its loads and
  // one for its stores (uniform_block), no per-register table reads.
  bool uniform = false;
  // Registers h and h + H store the two halves of one line, every one a whole vector: streaming
  // stores go out in stream_order's pairs (AVX2).
  bool paired_halves = false;
  unsigned uniform_loads = 0, uniform_stores = 0;  // bit r: register r loads / stores
  std::int32_t uniform_load_bytes = 0, uniform_store_bytes = 0;
  unsigned long long uniform_load_mask = 0, uniform_store_mask = 0;
  // The lowest and the highest offset from program 0's first load (affine_at with its steps) of
  // the registers a uniform program loads (LeanBody::registers_inside), set once per plan.
  std::int64_t uniform_load_lo = 0, uniform_load_hi = 0;
  // LeanBody::masked_runs' registers (MaskedRegs), where a lean body runs the plan, else null.
  const MaskedRegs* masked = nullptr;
};

// A program's registers as LeanBody::masked_runs moves them (lean plans of at most kMaskedRegs
// registers; set once per plan by SimdBlocks, kept apart from Program, whose fields the lean
// bodies read in every call): offsets from the block's base under program 0's geometry (as
// LeanBody::off) and byte masks, all ones where a register moves a whole vector. A register
// that loads nothing reads at the first loaded one's offset (its whole vector where that one's is
// inside the input, else under mask 0), one that stores nothing writes at offset 0 under mask 0.
// lo and hi: the lowest and the highest load offset.
struct MaskedRegs {
  static constexpr int kMaskedRegs = 32;
  std::int64_t load_at[kMaskedRegs] = {}, store_at[kMaskedRegs] = {};
  unsigned long long load_mask[kMaskedRegs] = {}, store_mask[kMaskedRegs] = {};
  std::int64_t lo = 0, hi = 0;
};

struct Data {
  std::vector<WalkLoop> loops;
  std::vector<Program> programs;
  bool stream = false;
  RowSink sink;              // conversion or scaling: registers go through a scratch to sink.fn
  std::int64_t in_elem_bytes = 0;
  std::int64_t in_lo = 0, in_hi = 0;  // PrepareOptions::in_lo, in_hi
  std::int64_t prefetch_ahead = 0;    // PrepareOptions::prefetch_ahead
  bool cached_tile = false;           // PrepareOptions::cached_tile
  std::vector<MaskedRegs> masked;     // Program::masked of each program (lean plans)
};

// __builtin_prefetch's locality for T's prefetches: T::kPrefetchLocality, else 3 (into L1). A
// variable, not a function: __builtin_prefetch needs a constant, and unoptimized builds do not fold
// a call.
template <class T>
inline constexpr int kPrefetchLocalityOf = [] {
  if constexpr (requires { T::kPrefetchLocality; })
    return T::kPrefetchLocality;
  else
    return 3;
}();

// Register r's offset from the block's first under Program's two-step affine rule, in a block of
// `regs` registers: step between the registers of each half, step2 between the halves.
__attribute__((always_inline)) inline std::int64_t affine_offset(int r, int regs, std::int64_t step,
                                                                 std::int64_t step2) {
  const int half = regs > 1 ? regs / 2 : 1;
  return (r % half) * step + (r / half) * step2;
}
template <int R>
__attribute__((always_inline)) inline std::int64_t affine_at(int r, std::int64_t step, std::int64_t step2) {
  return affine_offset(r, R, step, step2);
}

// The j-th register a block's streaming stores write where registers h and h + H are the two
// halves of one line (affine_at with step2 = one 32-byte vector: AVX2's 16-register streaming
// blocks): h, then h + H, so that each line's halves go out one after the other. In register
// order a line held a write-combining buffer until its second half came, 8 stores later
// (generated kernels on Zen 3, float32 16384x256 and 8x16384x32 transposed: 1.1-1.45x paired).
// Elsewhere register order is address order, and pairing would alternate between two regions.
template <int R, bool Paired>
constexpr int stream_order(int j) {
  if constexpr (!Paired || R < 2)
    return j;
  else
    return (j & 1) * (R / 2) + (j >> 1);
}

// Streaming stores of whole registers at affine_at's offsets from `base`: a line's two halves
// one after the other where registers h and h + H are they (step2 = one vector; stream_order).
template <class T, int R>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void stream_affine(char* base, std::int64_t step,
                                                                           std::int64_t step2,
                                                                           const typename T::V (&v)[R]) {
  if (T::kBytes < 64 && step2 == T::kBytes) {
#pragma GCC unroll 64
    for (int j = 0; j < R; ++j) {
      const int r = stream_order<R, (T::kBytes < 64)>(j);
      T::stream(base + affine_at<R>(r, step, step2), v[r]);
    }
  } else {
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) T::stream(base + affine_at<R>(r, step, step2), v[r]);
  }
}

// affine_at's address of register r, from the block's base p and q = p + step2, written so that
// x86 addressing forms (base + index * scale) take it without a register per offset: index
// step (scales 1, 2, 4) or step3 = 3 * step. Computing every offset into a register of its own
// spilled them, and the spill reloads cost a quarter of a memory-bound block's speed.
template <int R>
__attribute__((always_inline)) inline const char* affine_addr(const char* p, const char* q, int r, std::int64_t step,
                                                             std::int64_t step3) {
  constexpr int H = R > 1 ? R / 2 : 1;
  const char* base = r / H == 0 ? p : q;
  switch (r % H) {
    case 0: return base;
    case 1: return base + step;
    case 2: return base + 2 * step;
    case 3: return base + step3;
    case 4: return base + 4 * step;
    default: return base + (r % H) * step;
  }
}

// One shuffle pass s, register r's index vector from index(r): a butterfly pass shuffles each
// pair (r0, r0 | 1 << s) into both; a reorder pass shuffles each register alone.
template <class T, int Unit, int R, bool Butterfly, class Index>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void shuffle_pass(typename T::V (&v)[R], int s, Index index) {
  using V = typename T::V;
  if constexpr (Butterfly) {
    const int bit = 1 << s;
#pragma GCC unroll 64
    for (int r0 = 0; r0 < R; ++r0) {
      if (r0 & bit) continue;
      const V a = v[r0], b = v[r0 | bit];
      v[r0] = T::template permute2<Unit>(a, index(r0), b);
      v[r0 | bit] = T::template permute2<Unit>(a, index(r0 | bit), b);
    }
  } else {
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) v[r] = T::template permute2<Unit>(v[r], index(r), v[r]);
  }
}

// Whether T has permute2<kLaneLocalDwords> (T::kInLaneDwords).
template <class T>
constexpr bool lane_local_dwords() {
  if constexpr (requires { T::kInLaneDwords; }) return T::kInLaneDwords;
  return false;
}

// Whether T has permute2<kGatherBytes> (T::kHasGatherBytes).
template <class T>
constexpr bool gather_bytes() {
  if constexpr (requires { T::kHasGatherBytes; }) return T::kHasGatherBytes;
  return false;
}

// The byte-lane bits T has a fixed butterfly form for (T::kButterflyLanes, or none).
template <class T>
constexpr unsigned butterfly_lanes() {
  if constexpr (requires { T::kButterflyLanes; }) return T::kButterflyLanes;
  return 0;
}

// A butterfly pass s that is the plain exchange of byte-lane bit L (kButterflyLane): T's fixed
// form, no index vectors.
template <class T, int L, int R>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void lane_pass(typename T::V (&v)[R], int s) {
  if constexpr (((butterfly_lanes<T>() >> L) & 1) != 0) {
    const int bit = 1 << s;
#pragma GCC unroll 64
    for (int r0 = 0; r0 < R; ++r0) {
      if (r0 & bit) continue;
      T::template butterfly<L>(v[r0], v[r0 | bit], v[r0], v[r0 | bit]);
    }
  }
}

// Runs pass s under code kButterflyLane + (unit - kButterflyLane); false for other codes.
template <class T, int R>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline bool run_lane_pass(typename T::V (&v)[R], int s, int unit) {
  if constexpr (butterfly_lanes<T>() == 0) {
    return false;
  } else {
    switch (unit - kButterflyLane) {
      case 0: lane_pass<T, 0, R>(v, s); return true;
      case 1: lane_pass<T, 1, R>(v, s); return true;
      case 2: lane_pass<T, 2, R>(v, s); return true;
      case 3: lane_pass<T, 3, R>(v, s); return true;
      case 4: lane_pass<T, 4, R>(v, s); return true;
      case 5: lane_pass<T, 5, R>(v, s); return true;
      default: return false;
    }
  }
}

// A pass whose register pairs all use one pair of index vectors (lo for registers with bit s
// clear, hi for those with it set; a reorder pass uses lo alone).
template <class T, int Unit, int R, bool Butterfly>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void run_uniform_pass(typename T::V (&v)[R], int s,
                                                                            typename T::V lo, typename T::V hi) {
  shuffle_pass<T, Unit, R, Butterfly>(v, s, [&](int r) GENTT_SIMD_TARGET __attribute__((always_inline)) { return Butterfly && ((r >> s) & 1) ? hi : lo; });
}

template <class T, int Unit, int R, bool Butterfly>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void run_pass(typename T::V (&v)[R], int s,
                                                                    const unsigned char* index, bool uniform) {
  using V = typename T::V;
  constexpr int B = T::kBytes;
  if (uniform) {
    // Two index vectors for the whole pass (one for a reorder pass), one load each per block.
    const V lo = T::load_index(index);
    const V hi = Butterfly ? T::load_index(index + (1 << s) * B) : lo;
    return run_uniform_pass<T, Unit, R, Butterfly>(v, s, lo, hi);
  }
  shuffle_pass<T, Unit, R, Butterfly>(v, s, [&](int r) GENTT_SIMD_TARGET __attribute__((always_inline)) { return T::load_index(index + r * B); });
}

// Pass s in its unit (the widest exact one, simd_tables.h), from the index tables.
template <class T, int R, bool Butterfly>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void table_pass(typename T::V (&v)[R], int s, int unit,
                                                                      const unsigned char* index, bool uniform) {
  if constexpr (Butterfly)
    if (unit >= kButterflyLane && run_lane_pass<T, R>(v, s, unit)) return;
  switch (unit) {
    case 8: if constexpr ((T::kUnits & 8) != 0) run_pass<T, 8, R, Butterfly>(v, s, index, uniform); break;
    case 4: if constexpr ((T::kUnits & 4) != 0) run_pass<T, 4, R, Butterfly>(v, s, index, uniform); break;
    case 2: if constexpr ((T::kUnits & 2) != 0) run_pass<T, 2, R, Butterfly>(v, s, index, uniform); break;
    case kLaneLocalBytes: if constexpr (T::kLaneLocal) run_pass<T, kLaneLocalBytes, R, Butterfly>(v, s, index, uniform); break;
    case kLaneLocalDwords: if constexpr (lane_local_dwords<T>()) run_pass<T, kLaneLocalDwords, R, Butterfly>(v, s, index, uniform); break;
    default: if constexpr ((T::kUnits & 1) != 0) run_pass<T, 1, R, Butterfly>(v, s, index, uniform); break;
  }
}

// A uniform butterfly pass s in its unit, from index vectors held in registers.
template <class T, int R>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline void held_pass(typename T::V (&v)[R], int s, int unit,
                                                                     typename T::V lo, typename T::V hi) {
  if (unit >= kButterflyLane && run_lane_pass<T, R>(v, s, unit)) return;
  switch (unit) {
    case 8: if constexpr ((T::kUnits & 8) != 0) run_uniform_pass<T, 8, R, true>(v, s, lo, hi); break;
    case 4: if constexpr ((T::kUnits & 4) != 0) run_uniform_pass<T, 4, R, true>(v, s, lo, hi); break;
    case 2: if constexpr ((T::kUnits & 2) != 0) run_uniform_pass<T, 2, R, true>(v, s, lo, hi); break;
    case kLaneLocalBytes: if constexpr (T::kLaneLocal) run_uniform_pass<T, kLaneLocalBytes, R, true>(v, s, lo, hi); break;
    case kLaneLocalDwords: if constexpr (lane_local_dwords<T>()) run_uniform_pass<T, kLaneLocalDwords, R, true>(v, s, lo, hi); break;
    case kGatherBytes: if constexpr (gather_bytes<T>()) run_uniform_pass<T, kGatherBytes, R, true>(v, s, lo, hi); break;
    default: if constexpr ((T::kUnits & 1) != 0) run_uniform_pass<T, 1, R, true>(v, s, lo, hi); break;
  }
}

// Register r of a block from `from`: a whole vector where it lies inside the input (its extra
// lanes are padding, never stored), else masked (`bytes`, `mask`). Masked loads with masks from
// the tables were the slow part of tail blocks: 15^6 float64 (3,2,4,1,5,0) went from 7.7 to
// 12 GB/s. The vector lies inside when from - in_lo <= in_window as unsigned integers (both 0
// when no vector fits the input: then never).
__attribute__((always_inline)) inline bool inside_window(const char* from, std::uintptr_t in_lo,
                                                         std::uintptr_t in_window) {
  return reinterpret_cast<std::uintptr_t>(from) - in_lo <= in_window;
}
template <class T>
GENTT_SIMD_TARGET __attribute__((always_inline)) inline typename T::V load_in_window(const char* from, std::uintptr_t in_lo,
                                                                                   std::uintptr_t in_window, int bytes,
                                                                                   unsigned long long mask) {
  return inside_window(from, in_lo, in_window) ? T::load(from) : T::load_part(from, bytes, mask);
}

// The body of a lean plan (SimdBlocks::lean): every program is program 0's shuffles and
// addresses with its own masks (SimdProgram::shares_full), or element moves. Program 0's index
// vectors are loaded once per run into registers, and each block is straight-line code like a
// generated kernel's. With the input-window loads and the two-level walk this took the TTLG set
// from 0.67 to 0.79-0.85 of the generated kernels (median; minimum 0.37 to 0.47).
//
// Fixed (engines with fixed butterfly forms, T::kButterflyLanes): every pass s is the plain
// exchange of byte-lane bit kFirstLane + s, the passes of an ordinary transpose (float64 on
// AVX2: 8-byte then 16-byte lanes; float32: 4, 8, 16), so the block is the fixed forms with no
// dispatch on the pass codes, and runs of full blocks go through run_full: U consecutive blocks
// at a time, loads first, like the generated kernels' unrolled innermost loop (ir/unroll.h's
// rule: about 8 registers loaded per step, at most 4 blocks). Most plans' passes are these (on
// the bench sets and random shapes, about 3 in 4 AVX2 lean plans); with them the TTLG set went
// from 0.80 to 0.84 of the generated kernels (median; minimum 0.33 to 0.57), TTC 0.80 to 0.95.
//
// Plain (not Fixed) lean bodies take run_full too, out of line with the body copied into locals
// (lean_full_runs): their full blocks had gone through run_program's uniform_run, whose
// register offsets come from arrays in memory and whose stores pick a scratch vector per
// register, and the walk could not take the loop above a in the same call. With run_full's
// affine addresses: float32 (64,32,32,4) (0,3,1,2) 1.18x, (64,4,32,32) (0,2,3,1) 1.26x,
// (96,96,4) (2,0,1) 1.18-1.24x, (1048576,4) (1,0) streamed 1.57x, uint8 (4,160,160) (1,2,0)
// 1.14x (Zen 3, AVX2, processes alternating with the body before).
//
// Tab (engines with T::kTabledRegBits): program 0's register offsets are not affine_at's rule
// (most all-size-2 tensors: the register bits come from axes whose strides are any powers of
// two) but bit_linear_registers' (Program::linear_loads): register r's offset is the sum of
// the steps lb[b] (sb[b] for stores) of the bits b set in r. Its full blocks run out of line
// (tab_full_blocks), each address added in the block from those steps, held in general
// registers; the other programs' blocks go through off(), as in the other lean bodies. No
// dispatch per block on programs and pass codes, as the generic body has. A streaming plan's full
// blocks stream from tab_full_blocks (its Stores), each line's two halves one after the other where
// they are registers h and h + H or 2h and 2h + 1; through the generic body, whose per-register
// alignment tests and table reads cost more than its stores, all-size-2 float32 tensors of 64 MiB
// ran at 0.45-0.75 of the generated kernel (Zen 3, THP, same process), with this at 0.5-0.98
// (docs/performance.md). With Fixed or plain: plans whose passes are not all the fixed lane
// exchanges (an in-lane dword pass, a 4-byte exchange under an 8-byte one) ran the generic body,
// whose offsets come from the tables and whose spills were reloaded in every block; in the plain
// Tab body (index vectors in registers, one call per three-level run: run_full) float32 2^10
// (3,5,6,2,0,4,9,7,1,8) 1.44x, (2,4,3,9,5,7,0,8,6,1) 1.17x, (1,9,8,5,0,4,2,7,6,3) 1.16x, 2^20
// (7,1,19,16,...) 1.29x (Zen 3; median over 16 stack positions, median of 3 processes).
template <class T, int RegBits, int Passes, bool Fixed = false, bool Tab = false, bool HeldLast = false>
struct LeanBody {
  static_assert(!HeldLast || (Fixed && !Tab && Passes >= 2), "HeldLast: a Fixed body's last pass from index vectors");
  using V = typename T::V;
  static constexpr int R = 1 << RegBits;
  static constexpr int B = T::kBytes;
  static constexpr int kFirstLane = std::countr_zero(static_cast<unsigned>(B)) - Passes;
  static constexpr int U = Fixed ? (8 / R < 1 ? 1 : 8 / R > 4 ? 4 : 8 / R) : 1;
  const Program* programs;
  std::int64_t in_elem_bytes;
  std::uintptr_t in_lo, in_window;  // load_in_window
  bool stream;
  std::int64_t ahead;  // input bytes to the block whose lines are prefetched (0: none; lean_ahead)
  // pass s: the index vectors of registers 0 and 1 << s (not Fixed; Fixed keeps one, zero, so
  // that the body, which out-of-line calls copy into locals, does not carry 2 * Passes unused
  // vectors). Left uninitialized by the default constructor: run_lean sets them.
  // HeldLast: the last pass' two, the others fixed.
  static constexpr int kPre = Fixed ? (HeldLast ? 2 : 1) : 2 * Passes;
  V pre[kPre];
  bool full0 = false;  // program 0 loads and stores whole vectors (run_full may run)
  // Data::cached_tile: walk batches runs that end in a tail over the loop above them whatever its
  // step (read by walk only, not copied by local_copy).
  bool batch_any_step = false;
  // Program 0's geometry and pass units, copied here: the body's stores through char* could
  // alias the tables, so values read from them are reloaded after every store.
  std::int64_t load0 = 0, store0 = 0, ls = 0, ls2 = 0, ss = 0, ss2 = 0;
  unsigned char unit[Passes] = {};
  // Tab: program 0's step of each register bit from load0 and store0 (else unused).
  static constexpr int kTabBits = Tab ? RegBits : 1;
  static constexpr int H = R > 1 ? R / 2 : 1;  // tab_full_blocks' bases
  std::int64_t lb[kTabBits] = {}, sb[kTabBits] = {};

  // A copy of the body, field by field, for the locals of tab_full_blocks and run_program
  // (which the stores through char* cannot alias). Copied whole (`*this`), GCC moved its 320
  // bytes by rep movsq, slow to start on Zen 3: 16% of a call on a 4 KiB all-size-2 float32
  // tensor (perf). lean_full_runs keeps the whole copy (see there).
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline LeanBody local_copy() const {
    LeanBody b;
    b.programs = programs;
    b.in_elem_bytes = in_elem_bytes;
    b.in_lo = in_lo;
    b.in_window = in_window;
    b.stream = stream;
    b.ahead = ahead;
#pragma GCC unroll 16
    for (int i = 0; i < kPre; ++i) b.pre[i] = pre[i];
    b.full0 = full0;
    b.load0 = load0;
    b.store0 = store0;
    b.ls = ls;
    b.ls2 = ls2;
    b.ss = ss;
    b.ss2 = ss2;
#pragma GCC unroll 16
    for (int s = 0; s < Passes; ++s) b.unit[s] = unit[s];
#pragma GCC unroll 16
    for (int i = 0; i < kTabBits; ++i) {
      b.lb[i] = lb[i];
      b.sb[i] = sb[i];
    }
    return b;
  }

  // Register r's offset from the block's first load (Store: store): affine_at's rule with the
  // steps (the caller's copies of ls, ls2 or ss, ss2), or the sum of r's bit steps.
  template <bool Store>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline std::int64_t off(int r, std::int64_t step,
                                                                         std::int64_t step2) const {
    if constexpr (Tab) {
      std::int64_t at = 0;
#pragma GCC unroll 8
      for (int b = 0; b < kTabBits; ++b)
        if ((r >> b) & 1) at += Store ? sb[b] : lb[b];
      return at;
    } else {
      return affine_at<R>(r, step, step2);
    }
  }
  // blocks()'s addresses: affine_addr's form from the bases p and q = p + step2, or the bit steps.
  template <bool Store>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline const char* addr(const char* p, const char* q, int r,
                                                                          std::int64_t step, std::int64_t step3) const {
    if constexpr (Tab)
      return p + off<Store>(r, step, step3);
    else
      return affine_addr<R>(p, q, r, step, step3);
  }

  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void shuffles(V (&v)[R]) const {
    if constexpr (Fixed) {
      [&]<int... S>(std::integer_sequence<int, S...>) GENTT_SIMD_TARGET __attribute__((always_inline)) {
        (lane_pass<T, kFirstLane + S, R>(v, S), ...);
      }(std::make_integer_sequence<int, HeldLast ? Passes - 1 : Passes>{});
      if constexpr (HeldLast) held_pass<T, R>(v, Passes - 1, unit[Passes - 1], pre[0], pre[1]);
    } else {
#pragma GCC unroll 8
      for (int s = 0; s < Passes; ++s) held_pass<T, R>(v, s, unit[s], pre[2 * s], pre[2 * s + 1]);
    }
  }

  // Whether a streaming plan's whole-vector stores from `to`, at byte steps whose OR is `steps`,
  // all land on whole vectors: then they stream (run_full, run_whole, block_of).
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline bool streams_at(const char* to, std::int64_t steps) const {
    return stream && (steps & (B - 1)) == 0 && (reinterpret_cast<std::uintptr_t>(to) & (B - 1)) == 0;
  }
  // The OR of the byte steps between a block's stored registers (for streams_at): ss and ss2, or
  // Tab's bit steps.
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline std::int64_t store_steps() const {
    if constexpr (Tab) {
      std::int64_t steps = 0;
#pragma GCC unroll 8
      for (int b = 0; b < kTabBits; ++b) steps |= sb[b];
      return steps;
    } else {
      return ss | ss2;
    }
  }

  // nc runs (c_in, c_out bytes apart) of na runs (a_in, a_out bytes apart) of n >= 1 consecutive
  // full blocks (program 0, full0) of the innermost loop from (in, out), its steps in_step and
  // out_step bytes apart: the three innermost loops of a nest without tail blocks in them. Fixed
  // bodies inline it into the walk; plain ones call lean_full_runs, as they call run_program.
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void run_full(
      const char* in, char* out, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
      std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    if constexpr ((Fixed && !HeldLast) || Tab)  // Tab: tab_full_blocks copies the body into locals itself
      full_runs(in, out, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
    else
      lean_full_runs(in, out, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
  }
  GENTT_SIMD_TARGET __attribute__((noinline)) void lean_full_runs(
      const char* in, char* out, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
      std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    // The index vectors in locals (stores cannot alias them). Copied whole, not by local_copy:
    // then GCC reads them from the copy as operands where the registers run out, where field by
    // field it kept them in registers and spilled them, stores and reloads in every block (uint8
    // (4,160,160) (1,2,0), two byte passes: 0.83x; Zen 3).
    const LeanBody self = *this;
    self.full_runs(in, out, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
  }
  // run_full's blocks: whole vectors at affine_addr's addresses, streamed where they may.
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void full_runs(
      const char* in, char* out, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
      std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    const char* from = in + load0;
    char* to = out + store0;
    // `stream` first: the steps' OR and the alignment test cost about 10 instructions a call,
    // 1% of a 4 KiB call (callgrind).
    if constexpr (Tab) {
      if (!stream || !streams_at(to, store_steps() | out_step | a_out | c_out))
        tab_full_blocks<kTabCached>(from, to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
      else if (B < 64 && R >= 4 && sb[kTabBits - 1] == B)  // line halves in registers h and h + H
        tab_full_blocks<kTabStreamPaired>(from, to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
      else
        tab_full_blocks<kTabStream>(from, to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
      return;
    }
    if (!stream || !streams_at(to, ss | ss2 | out_step | a_out | c_out))
      full_blocks<false>(from, to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
    else if (B < 64 && ss2 == B)  // line halves in registers h and h + H (stream_order)
      full_blocks<true, B < 64>(from, to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
    else
      full_blocks<true>(from, to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
  }

  // The blocks of run_full. The geometry is copied into locals, which the stores through char*
  // cannot alias, and each address is affine_addr's form. Paired: streaming stores in
  // stream_order's pairs.
  template <bool Streaming, bool Paired = false>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void full_blocks(
      const char* c_from, char* c_to, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
      std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    const std::int64_t ls = this->ls, ls3 = 3 * this->ls, ss = this->ss, ss3 = 3 * this->ss, ahead = this->ahead;
    const std::int64_t ls2 = this->ls2, ss2 = this->ss2;
    for (; nc > 0; --nc, c_from += c_in, c_to += c_out) {
      const char* run_from = c_from;
      char* run_to = c_to;
      for (std::int64_t k = na; k > 0; --k, run_from += a_in, run_to += a_out) {
        const char* from = run_from;
        const char* from2 = from + ls2;  // the second half's base (affine_addr)
        char* to = run_to;
        char* to2 = to + ss2;
        std::int64_t i = 0;
        if constexpr (U > 1)
          for (; i + U <= n;
               i += U, from += U * in_step, from2 += U * in_step, to += U * out_step, to2 += U * out_step)
            blocks<U, Streaming, Paired>(from, from2, to, to2, in_step, out_step, ls, ls3, ss, ss3, ahead);
        for (; i < n; ++i, from += in_step, from2 += in_step, to += out_step, to2 += out_step)
          blocks<1, Streaming, Paired>(from, from2, to, to2, in_step, out_step, ls, ls3, ss, ss3, ahead);
      }
    }
  }

  // Tab's full_blocks<false>, out of line: register r's address is the block's base plus the
  // bit steps of r's bits. Per block, the bases of registers 2, 4 and 6 (from + l1, from + l2,
  // then + l1) are added once each, each made opaque to GCC by an empty asm, and every register
  // addresses base or base + l0, so that in the loop over a run only from, to, the 2 * RegBits
  // steps, the run's steps, its counter and three temporaries are live (for 8 registers), all in
  // general registers: nothing is read from memory but the blocks' data. The body once read the
  // R offsets of each side from arrays, and GCC hoisted the sums of bit steps out of the loop the
  // same way: more values than the free registers (inlined into the walk, even the steps were),
  // reloaded from the stack in every block, and those reloads waited on the block's stores
  // whenever one of them had the same address bits 0-11 (4 KiB aliasing). float32 2^20
  // (0,11,19,...), THP buffers, one process with the stack moved by 0-3840 bytes: 9.3-17.8 GB/s
  // before, 16.3-20.0 with this (the generated kernel, whose offsets are immediates: 23-26).
  // Processes alternating (Zen 3): that case 1.25x, (7,3,6,1,...) 1.12x, 2^10 reversed 1.25x,
  // the other tabled ones of bench/sets/gentt.txt 0.95-1.05x.
  // Plain (not Fixed) Tab bodies run it on a copy of the body in locals, whose index vectors and
  // pass units the stores through char* cannot alias.
  // Stores: kTabCached plain; kTabStream streaming, in register order (where register bit 0 is
  // the line's other half, each line's halves one after the other); kTabStreamPaired streaming
  // in stream_order's pairs, where registers h and h + H are the two halves of each line.
  static constexpr int kTabCached = 0, kTabStream = 1, kTabStreamPaired = 2;
  template <int Stores>
  GENTT_SIMD_TARGET __attribute__((noinline)) void tab_full_blocks(
      const char* c_from, char* c_to, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
      std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    if constexpr (Fixed) {
      tab_blocks<Stores>(c_from, c_to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
    } else {
      const LeanBody self = local_copy();
      self.template tab_blocks<Stores>(c_from, c_to, nc, c_in, c_out, na, a_in, a_out, n, in_step, out_step);
    }
  }
  // Registers in groups of 8 (at most 2, 16 registers): group g's register 0 is at from + g *
  // l[3] (bit 3), and within a group as tab_bases says.
  static constexpr int kTabGroups = R > 8 ? R / 8 : 1;
  static constexpr int kTabPairs = H < 4 ? H : 4;  // pairs (2h, 2h + 1) per group
  template <int Stores>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void tab_blocks(
      const char* c_from, char* c_to, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
      std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    static_assert(RegBits <= 4, "tab_blocks: at most 16 registers");
    std::int64_t l[kTabBits], s[kTabBits];
    for (int b = 0; b < kTabBits; ++b) {
      l[b] = lb[b];
      s[b] = sb[b];
    }
    for (; nc > 0; --nc, c_from += c_in, c_to += c_out) {
      const char* run_from = c_from;
      char* run_to = c_to;
      for (std::int64_t k = na; k > 0; --k, run_from += a_in, run_to += a_out) {
        const char* from = run_from;
        char* to = run_to;
        for (std::int64_t i = n; i > 0; --i, from += in_step, to += out_step) {
          V v[R];
#pragma GCC unroll 2
          for (int g = 0; g < kTabGroups; ++g) {
            const char* p0 = from;
            if (g > 0) {
              p0 = from + l[kTabBits - 1];
              asm("" : "+r"(p0));
            }
            const char *p1, *p2, *p3;
            tab_bases(p0, l, p1, p2, p3);
#pragma GCC unroll 16
            for (int h = 0; h < kTabPairs; ++h) {
              const char* at = h == 0 ? p0 : h == 1 ? p1 : h == 2 ? p2 : p3;
              v[(8 * g + 2 * h) % R] = T::load(at);
              if constexpr (R > 1) v[8 * g + 2 * h + 1] = T::load(at + l[0]);
            }
          }
          shuffles(v);
          // The stores' bases: group 0's q0..q3, group 1's q4..q7.
          char *q0 = to, *q1, *q2, *q3, *q4 = to, *q5 = to, *q6 = to, *q7 = to;
          tab_bases(q0, s, q1, q2, q3);
          if constexpr (kTabGroups > 1) {
            q4 = to + s[kTabBits - 1];
            asm("" : "+r"(q4));
            tab_bases(q4, s, q5, q6, q7);
          }
          const auto base = [&](int h) {  // pair h's base (register 2h's address)
            return h == 0 ? q0 : h == 1 ? q1 : h == 2 ? q2 : h == 3 ? q3 : h == 4 ? q4 : h == 5 ? q5 : h == 6 ? q6 : q7;
          };
          if constexpr (Stores == kTabStreamPaired) {
#pragma GCC unroll 16
            for (int j = 0; j < R; ++j) {
              const int r = stream_order<R, true>(j);
              T::stream(r & 1 ? base(r >> 1) + s[0] : base(r >> 1), v[r]);
            }
          } else {
#pragma GCC unroll 16
            for (int h = 0; h < H; ++h) {
              put<Stores == kTabStream>(base(h), v[2 * h % R]);
              if constexpr (R > 1) put<Stores == kTabStream>(base(h) + s[0], v[2 * h + 1]);
            }
          }
        }
      }
    }
  }

  // tab_blocks' bases: x1, x2, x3, the addresses of registers 2, 4 and 6 (2h's bits are r's bits
  // 1..) from x0, register 0's, and the bit steps, each sum made opaque to GCC by an empty asm
  // (those past H are x0). Into plain locals: into an array, GCC 12 stored each to the stack in
  // every block, never to read it back (8 stores more per block of 8 registers; callgrind,
  // float32 2^10 (2,4,3,9,5,7,0,8,6,1): about 6% fewer instructions in tab_full_blocks without
  // them; the timings of this change together with full_nest: docs/performance.md).
  template <class P>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline void tab_bases(
      P x0, const std::int64_t (&step)[kTabBits], P& x1, P& x2, P& x3) {
    static_assert(RegBits <= 4, "tab_blocks: at most 16 registers (two groups of tab_bases)");
    x1 = x2 = x3 = x0;
    if constexpr (H > 1) {
      x1 = x0 + step[1];
      asm("" : "+r"(x1));
    }
    if constexpr (H > 2) {
      x2 = x0 + step[2];
      asm("" : "+r"(x2));
      x3 = x2 + step[1];
      asm("" : "+r"(x3));
    }
  }

  // K consecutive blocks from (from, from2) to (to, to2) (affine_addr's bases), in_step and
  // out_step bytes apart: the prefetches, then every block's loads, shuffles, stores, of whole
  // vectors. Registers outside `loads` are zero, those outside `stores` are not stored (run_whole);
  // full blocks pass every register, constants that fold away.
  template <int K, bool Streaming, bool Paired = false>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void blocks(
      const char* from, const char* from2, char* to, char* to2, std::int64_t in_step, std::int64_t out_step,
      std::int64_t ls, std::int64_t ls3, std::int64_t ss, std::int64_t ss3, std::int64_t ahead,
      unsigned loads = ~0u, unsigned stores = ~0u) const {
    V v[K][R];
    if (ahead) {
#pragma GCC unroll 64
      for (int u = 0; u < K; ++u)
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r)
          if ((loads >> r) & 1)
            __builtin_prefetch(addr<false>(from + u * in_step + ahead, from2 + u * in_step + ahead, r, ls, ls3), 0,
                               kPrefetchLocalityOf<T>);
    }
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 64
      for (int u = 0; u < K; ++u)
        v[u][r] = (loads >> r) & 1 ? T::load(addr<false>(from + u * in_step, from2 + u * in_step, r, ls, ls3)) : V{};
#pragma GCC unroll 64
    for (int u = 0; u < K; ++u) shuffles(v[u]);
    if constexpr (Streaming && Paired) {  // each line's halves one after the other (stream_order)
#pragma GCC unroll 64
      for (int u = 0; u < K; ++u)
#pragma GCC unroll 64
        for (int j = 0; j < R; ++j) {
          const int r = stream_order<R, true>(j);
          if ((stores >> r) & 1) put<true>(addr<true>(to + u * out_step, to2 + u * out_step, r, ss, ss3), v[u][r]);
        }
    } else {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 64
        for (int u = 0; u < K; ++u)
          if ((stores >> r) & 1)
            put<Streaming>(addr<true>(to + u * out_step, to2 + u * out_step, r, ss, ss3), v[u][r]);
    }
  }

  template <bool Streaming>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline void put(const char* at, V v) {
    if constexpr (Streaming)
      T::stream(const_cast<char*>(at), v);
    else
      T::store(const_cast<char*>(at), v);
  }

  // Fixed: tail blocks (and program 0 where it is not full0) out of line, so that the walk and
  // the full blocks around them keep their values in registers: inlined, they made one large
  // function in which the walk's counters and pointers lived on the stack (16^6 float64
  // (4,1,2,5,3,0): 0.55 -> 0.62 of the generated kernel).
  GENTT_SIMD_TARGET __attribute__((noinline)) void operator()(int program, const char* in, char* out) const
    requires Fixed
  {
    const Program& p = programs[program];
    if (p.uniform && !stream) return uniform_block(uniform_of(p), in, out);
    block(program, in, out);
  }
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void operator()(int program, const char* in,
                                                                          char* out) const
    requires(!Fixed)
  {
    const Program& p = programs[program];
    if (p.uniform && !stream) return uniform_block(uniform_of(p), in, out);
    block_of(p, in, out);
  }

  // A uniform program's lanes (Program::uniform_*), copied out of the tables.
  struct Uniform {
    unsigned loads, stores;
    int load_bytes, store_bytes;
    unsigned long long load_mask, store_mask;
    std::int64_t load_lo, load_hi;
  };
  static Uniform uniform_of(const Program& p) {
    return {p.uniform_loads,     p.uniform_stores,     p.uniform_load_bytes, p.uniform_store_bytes,
            p.uniform_load_mask, p.uniform_store_mask, p.uniform_load_lo,    p.uniform_load_hi};
  }

  // One block of a uniform program u (Program::uniform): program 0's addresses and shuffles, the
  // registers p loads read with its one mask (whole vectors where they lie inside the input
  // window), the others zero, the registers it stores written with its other mask. Through
  // block_of's per-register table reads (reloaded after every store, which may alias them) HWC
  // uint8 (224,224,3) (2,0,1), whose every block loads 48 of 64 bytes per register, ran at 0.42
  // of the generated kernel; with this 1.3-1.7x faster (HWC <-> CHW uint8 and float32), odd
  // extents (6,10,12,14,9) float32 1.5x (Zen 4, in cache, same process, both call orders).
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_block(const Uniform& u, const char* in,
                                                                           char* out) const {
    const unsigned loads = u.loads, stores = u.stores;
    const int load_bytes = u.load_bytes, store_bytes = u.store_bytes;
    const unsigned long long load_mask = u.load_mask, store_mask = u.store_mask;
    const std::int64_t ls = this->ls, ls2 = this->ls2, ss = this->ss, ss2 = this->ss2;
    const char* from = in + load0;
    char* to = out + store0;
    if (ahead) {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r)
        if ((loads >> r) & 1) __builtin_prefetch(from + off<false>(r, ls, ls2) + ahead, 0, kPrefetchLocalityOf<T>);
    }
    V v[R];
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      const char* at = from + off<false>(r, ls, ls2);
      v[r] = !((loads >> r) & 1) ? V{}
             : load_bytes == B   ? T::load(at)
                                 : load_in_window<T>(at, in_lo, in_window, load_bytes, load_mask);
    }
    shuffles(v);
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      if (!((stores >> r) & 1)) continue;
      char* at = to + off<true>(r, ss, ss2);
      if (store_bytes == B)
        T::store(at, v[r]);
      else
        T::store_part(at, v[r], store_bytes, store_mask);
    }
  }

  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void block(int program, const char* in, char* out) const {
    block_of(programs[program], in, out);
  }

  // A uniform program's partial stores' form for store_bytes (T::part_store: AVX2), else 0.
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline auto part_form(int store_bytes) {
    if constexpr (requires { T::part_store(0); })
      return T::part_store(store_bytes);
    else
      return 0;
  }
  // A uniform program's store of x at `at`: the whole vector, or its stored lanes (part, or the
  // byte count and mask).
  template <bool WholeStores, class P>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline void uniform_put(char* at, V x, const P& part,
                                                                                int store_bytes,
                                                                                unsigned long long store_mask) {
    if constexpr (WholeStores)
      T::store(at, x);
    else if constexpr (requires { T::part_store(0); })
      T::store_part(at, x, part);
    else
      T::store_part(at, x, store_bytes, store_mask);
  }

  // na runs (a_in, a_out apart) of n blocks (in_step, out_step apart) of a uniform program u,
  // straight-line: the registers u does not load read the first
  // one it loads (their lanes are padding, never stored), those it does not store write a scratch
  // vector, so that no register takes a branch of its own; WholeLoads / WholeStores: u's loaded /
  // stored registers move whole vectors, else every one moves under u's one mask (as the
  // generated kernels' tail blocks do; AVX2 by load_in_window and store_part's byte count).
  // uniform_block's per-register branches on the lane bits,
  // which GCC kept on the stack, cost more than the blocks on 15^4 float64 (3,1,2,0) (0.66 ->
  // 0.75 of the generated kernel with this) and float32 (33,65,17,9) (3,1,0,2), padded 9 to 16
  // (0.41 -> 0.52; Zen 4, in cache).
  template <bool WholeLoads, bool WholeStores>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_run(const Uniform& u, const char* in, char* out,
                                                                         std::int64_t na, std::int64_t a_in,
                                                                         std::int64_t a_out, std::int64_t n,
                                                                         std::int64_t in_step,
                                                                         std::int64_t out_step) const {
    const unsigned long long load_mask = u.load_mask, store_mask = u.store_mask;
    const int load_bytes = u.load_bytes, store_bytes = u.store_bytes;
    const unsigned stores = u.stores;
    [[maybe_unused]] const auto part = part_form(store_bytes);  // chosen once per call
    int first = 0;  // the first register u loads (no std::countr_zero: tzcnt is outside the target)
    while (first < R - 1 && !((u.loads >> first) & 1)) ++first;
    const std::int64_t spare = off<false>(first, ls, ls2);
    alignas(64) char scratch[B];
    std::int64_t load_at[R], store_at[R];
    for (int r = 0; r < R; ++r) {
      load_at[r] = (u.loads >> r) & 1 ? off<false>(r, ls, ls2) : spare;
      store_at[r] = off<true>(r, ss, ss2);
    }
    // The offsets are read from memory in the blocks (one load each): kept in vector registers,
    // GCC 12 took them out with vextracti64x2, an AVX512DQ instruction outside this target.
    asm volatile("" : : "r"(load_at), "r"(store_at) : "memory");
    for (; na > 0; --na, in += a_in, out += a_out) {
      const char* from = in + load0;
      char* to = out + store0;
      for (std::int64_t k = n; k > 0; --k, from += in_step, to += out_step) {
        // The lines of the block `ahead` bytes on (assembled and staged tiles: the next tile's),
        // as uniform_affine_run and block_of prefetch them. AVX2's padded blocks come here: seed
        // 002's uint16 (6,5,4,3,2,1,0,7), rows of 3 padded to 4, assembled, ran at 0.43 of the
        // generated kernel without.
        if (ahead) {
#pragma GCC unroll 64
          for (int r = 0; r < R; ++r)
            if ((u.loads >> r) & 1) __builtin_prefetch(from + load_at[r] + ahead, 0, kPrefetchLocalityOf<T>);
        }
        V v[R];
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) {
          const char* at = from + load_at[r];
          if constexpr (WholeLoads)
            v[r] = T::load(at);
          else if constexpr (requires { T::kMaskedAccess; })
            v[r] = T::load_part(at, 0, load_mask);
          else  // AVX2: whole vectors inside the input, else the loaded bytes alone
            v[r] = load_in_window<T>(at, in_lo, in_window, load_bytes, load_mask);
        }
        shuffles(v);
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) {
          uniform_put<WholeStores>((stores >> r) & 1 ? to + store_at[r] : scratch, v[r], part, store_bytes, store_mask);
        }
      }
    }
  }

  // Whether the whole vector of every register u loads at its affine address (affine_at) lies
  // inside the input window in every block of na runs (a_in apart) of n blocks (in_step apart)
  // from in: the lowest and the highest such address (the offsets are affine in the counters).
  // u's lowest and highest register offsets come with the plan (Program::uniform_load_lo and
  // _hi): computed in each call, a loop over the registers, they took about a tenth of the time
  // of float32 (7,9,5,11,13) reversed, whose runs of 4 blocks and a tail make 2 calls per 5 blocks.
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline bool registers_inside(const Uniform& u, const char* in,
                                                                              std::int64_t na, std::int64_t a_in,
                                                                              std::int64_t n,
                                                                              std::int64_t in_step) const {
    if (in_window == 0 || u.loads == 0) return false;
    std::int64_t lo = u.load_lo, hi = u.load_hi;
    const std::int64_t along = (n - 1) * in_step, across = (na - 1) * a_in;
    lo += (along < 0 ? along : 0) + (across < 0 ? across : 0);
    hi += (along > 0 ? along : 0) + (across > 0 ? across : 0);
    const char* first = in + load0;
    return inside_window(first + lo, in_lo, in_window) && inside_window(first + hi, in_lo, in_window);
  }

  // uniform_run's blocks where registers_inside holds: the registers u loads load their whole
  // vectors at their affine addresses (lanes past u's loaded bytes are padding, never stored, as
  // load_in_window's whole vectors), the others are zero, and the registers u stores are written
  // at affine addresses; each register's load and store under a branch (the same in every block:
  // predicted). Each address is one x86 addressing form from a base per four registers
  // (quad_bases) and the steps. uniform_run's per-register offsets from arrays in memory and its
  // stores to a scratch vector for the registers u does not store cost more instructions than the
  // shuffles: with this, float32 (6,10,12,14,9) (1,4,0,3,2) went from 0.44 to 0.59-0.61 of the
  // generated kernel, HWC (224,224,3) (2,0,1) uint8 0.53 -> 0.69-0.74, float32 0.68 -> 0.75-0.77,
  // (64,80,6) and (128,128,3) float32 0.55 -> 0.64-0.74 (AVX-512, Zen 5, processes alternating;
  // docs/performance.md).
  static constexpr int kQuads = H >= 4 ? H / 4 : 1;
  // The bases of registers 0, 4, 8, 12 of a half (r % H) from p, register 0's: p + 4 * i * step,
  // each made opaque to GCC by an empty asm, so that each is one lea per block and no register
  // holds a multiple of the step for it (with offsets 5, 6, 7 times the step, GCC 12 kept those
  // in vector registers and moved one back for every access of a 16-register block).
  template <class P>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline void quad_bases(P p, std::int64_t step,
                                                                                 P (&b)[kQuads]) {
    b[0] = p;
#pragma GCC unroll 4
    for (int i = 1; i < kQuads; ++i) {
      b[i] = p + 4 * i * step;
      asm("" : "+r"(b[i]));
    }
  }
  // Register r's address (r % H = m) from its half's quad_bases: base m / 4, then 0, 1, 2 or 3
  // steps (step3 = 3 * step).
  template <class P>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline P quad_addr(const P (&b)[kQuads], int m,
                                                                            std::int64_t step, std::int64_t step3) {
    const P base = b[(m >> 2) % kQuads];
    switch (m & 3) {
      case 0: return base;
      case 1: return base + step;
      case 2: return base + 2 * step;
      default: return base + step3;
    }
  }
  template <bool WholeStores>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_affine_run(
      const Uniform& u, const char* in, char* out, std::int64_t na, std::int64_t a_in, std::int64_t a_out,
      std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    [[maybe_unused]] const unsigned long long store_mask = u.store_mask;
    [[maybe_unused]] const int store_bytes = u.store_bytes;
    [[maybe_unused]] const auto part = part_form(store_bytes);  // chosen once per call
    const std::int64_t ls = this->ls, ls3 = 3 * this->ls, ls2 = this->ls2;
    const std::int64_t ss = this->ss, ss3 = 3 * this->ss, ss2 = this->ss2;
    for (; na > 0; --na, in += a_in, out += a_out) {
      const char* from = in + load0;
      char* to = out + store0;
      for (std::int64_t k = n; k > 0; --k, from += in_step, to += out_step) {
        const char* lq[2][kQuads];
        quad_bases(from, ls, lq[0]);
        if constexpr (R > 1) {
          const char* from2 = from + ls2;
          asm("" : "+r"(from2));
          quad_bases(from2, ls, lq[1]);
        }
        // The loaded registers' mask, opaque in each block (as `stores` below).
        unsigned loads = u.loads;
        asm("" : "+r"(loads));
        // The lines of the block `ahead` bytes on, as block_of prefetches them (assembled and staged
        // tiles: the next tile's): padded blocks (seed 002's 3 x uint16 kept innermost) run here.
        // uint16 (3,32,8,16,24,16,20,3) axes (6,0,1,4,5,2,3,7), assembled, 5.4 -> 6.7 GB/s (fresh
        // process, Intel server core); the TTC, TTLG and random sets' other plans 0.93-1.07x.
        if (ahead) {
#pragma GCC unroll 64
          for (int r = 0; r < R; ++r)
            if (loads & (1u << r))
              __builtin_prefetch(quad_addr(lq[r / H % 2], r % H, ls, ls3) + ahead, 0, kPrefetchLocalityOf<T>);
        }
        V v[R];
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) {
          if (loads & (1u << r))
            v[r] = T::load(quad_addr(lq[r / H % 2], r % H, ls, ls3));
          else
            v[r] = V{};
          // In a register: GCC 12 otherwise loaded it again as the memory operand of a shuffle.
          asm("" : "+v"(v[r]));
        }
        shuffles(v);
        // The stored registers' mask, opaque in each block: GCC 12 otherwise spread its bits into
        // a stack slot each, a load per register per block.
        unsigned stores = u.stores;
        asm("" : "+r"(stores));
        char* sq[2][kQuads];
        quad_bases(to, ss, sq[0]);
        if constexpr (R > 1) {
          char* to2 = to + ss2;
          asm("" : "+r"(to2));
          quad_bases(to2, ss, sq[1]);
        }
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) {
          if (!(stores & (1u << r))) continue;
          uniform_put<WholeStores>(quad_addr(sq[r / H % 2], r % H, ss, ss3), v[r], part, store_bytes, store_mask);
        }
      }
    }
  }
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_affine_runs(
      const Uniform& u, const char* in, char* out, std::int64_t na, std::int64_t a_in, std::int64_t a_out,
      std::int64_t n, std::int64_t in_step, std::int64_t out_step) const {
    if (u.store_bytes == B) return uniform_affine_run<true>(u, in, out, na, a_in, a_out, n, in_step, out_step);
    uniform_affine_run<false>(u, in, out, na, a_in, a_out, n, in_step, out_step);
  }

  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_runs(const Program& p, const Uniform& u,
                                                                          const char* in, char* out,
                                                                          std::int64_t na, std::int64_t a_in,
                                                                          std::int64_t a_out, std::int64_t n,
                                                                          std::int64_t in_step,
                                                                          std::int64_t out_step) const {
    // Affine offsets (not Tab) on engines with masked access (AVX-512): runs whose registers lie
    // inside the input, straight-line. Not on AVX2: there its HWC float32 cases ran at 0.5-0.7x
    // of uniform_run (its 16 vector registers; Zen 5).
    if constexpr (!Tab && requires { T::kMaskedAccess; }) {
      // Where only the last run (or the last block) reaches past the input, the others still do.
      const auto [runs, blocks] = leading_runs(
          na, n, [&](std::int64_t r, std::int64_t b) GENTT_SIMD_TARGET __attribute__((always_inline)) {
            return registers_inside(u, in, r, a_in, b, in_step);
          });
      if (runs > 0) {
        uniform_affine_runs(u, in, out, runs, a_in, a_out, blocks, in_step, out_step);
        skip_leading(runs, blocks, in, out, na, a_in, a_out, n, in_step, out_step);
        if (na == 0) return;
      }
    }
    if constexpr (requires { T::kMaskedAccess; }) {
      // The rest (blocks whose whole vectors would reach past the input) by masked_runs:
      // uniform_run's four forms, each with its own copy of the shuffles, are not compiled for
      // these engines.
      masked_runs(p, in, out, na, a_in, a_out, n, in_step, out_step);
    } else {
      if (u.load_bytes == B) {
        if (u.store_bytes == B) return uniform_run<true, true>(u, in, out, na, a_in, a_out, n, in_step, out_step);
        return uniform_run<true, false>(u, in, out, na, a_in, a_out, n, in_step, out_step);
      }
      if (u.store_bytes == B) return uniform_run<false, true>(u, in, out, na, a_in, a_out, n, in_step, out_step);
      uniform_run<false, false>(u, in, out, na, a_in, a_out, n, in_step, out_step);
    }
  }

  // A program's per-register loads and stores, copied out of the tables (run_program).
  struct LocalProgram {
    std::int32_t load_bytes[R], store_bytes[R];
    unsigned long long load_mask[R], store_mask[R];
    bool full_loads, full_stores;
    const ElementMoves* moves;
  };

  // na runs (a_in, a_out bytes apart) of n consecutive blocks of one program (a tail program's
  // blocks, or program 0's where it is not full0 or the body has no run_full), in_step and
  // out_step bytes apart. Out of line like operator(), with the body and the program copied into
  // locals, which the stores through char* cannot alias (read from the tables, they were
  // reloaded after every store). Non-Fixed bodies run their padded and tail programs here too
  // (before, one inlined uniform_block per block): float32 (224,224,3) (2,0,1) 0.69 -> 0.83 of
  // the generated kernel, uint8 0.59 -> 0.69, float64 (13,11,9,7,5) reversed 0.22 -> 0.51 (Zen 4).
  GENTT_SIMD_TARGET __attribute__((noinline)) void run_program(int program, const char* in, char* out, std::int64_t na,
                                                               std::int64_t a_in, std::int64_t a_out, std::int64_t n,
                                                               std::int64_t in_step, std::int64_t out_step) const {
    const Program& p = programs[program];
    // Uniform programs (most tail programs) without the copy below: 15^4 float64 (3,1,2,0),
    // chunks of 8 and 7 in both rows, went 1.37x faster, TTLG's 15^6 (4,2,3,5,1,0) 1.12x.
    // On AVX2 too (its loads of a few bytes by load_in_window, its partial stores by size):
    // through uniform_block, whose per-register branches GCC kept on the stack, odd extents
    // (6,10,12,14,9) float32 (1,4,0,3,2) ran at 0.2-0.26 of the generated kernel (Zen 3).
    if (p.uniform && !stream) {
      if constexpr (Fixed && !HeldLast) {
        uniform_runs(p, uniform_of(p), in, out, na, a_in, a_out, n, in_step, out_step);
      } else {
        const LeanBody self = local_copy();  // the index vectors in locals (stores cannot alias them)
        self.uniform_runs(p, uniform_of(p), in, out, na, a_in, a_out, n, in_step, out_step);
      }
      return;
    }
    if (p.moves) {  // element moves (block_of), without the copy below
      // Where the walk prefetches another region, the moves prefetch their elements' lines there
      // too (ir/prefetch.h's prefetch_tails): the full blocks prefetch only the lines they load.
      if (prefetch_tails(ahead)) {
        each_block(in, out, na, a_in, a_out, n, in_step, out_step, [&](const char* from, char* to) {
          for (const Move& mv : p.moves->moves) __builtin_prefetch(from + ahead + mv.in, 0, kPrefetchLocalityOf<T>);
          run_moves(*p.moves, in_elem_bytes, from, to);
        });
        return;
      }
      each_block(in, out, na, a_in, a_out, n, in_step, out_step,
                 [&](const char* from, char* to) { run_moves(*p.moves, in_elem_bytes, from, to); });
      return;
    }
    LocalProgram q;
    for (int r = 0; r < R; ++r) {
      q.load_bytes[r] = p.load_bytes[r];
      q.store_bytes[r] = p.store_bytes[r];
      q.load_mask[r] = p.load_mask[r];
      q.store_mask[r] = p.store_mask[r];
    }
    q.full_loads = p.full_loads;
    q.full_stores = p.full_stores;
    q.moves = nullptr;  // programs of element moves returned above
    const LeanBody self = local_copy();
    // Where only the last run's (or the last block's) whole vectors would reach past the input
    // (the tensor's last rows), the blocks before it still take run_whole (uint16 238336x55
    // transposed: the walk's tail blocks came here as one run of 7448, and the last one sent
    // every one of them to block_of, 0.34 of the generated kernel's speed). One call site of
    // run_whole, whose two forms each carry the shuffles.
    const auto [whole_runs, whole_blocks] = leading_runs(
        na, n, [&](std::int64_t runs, std::int64_t blocks) GENTT_SIMD_TARGET __attribute__((always_inline)) {
          return self.whole_vectors(q, in, runs, a_in, blocks, in_step);
        });
    if (whole_runs > 0) {
      const char* from = in;
      char* to = out;
      for (std::int64_t k = whole_runs; k > 0; --k, from += a_in, to += a_out)
        self.run_whole(q, from, to, whole_blocks, in_step, out_step);
      skip_leading(whole_runs, whole_blocks, in, out, na, a_in, a_out, n, in_step, out_step);
      if (na == 0) return;
    }
    if constexpr (requires { T::kMaskedAccess; }) {
      self.masked_runs(p, in, out, na, a_in, a_out, n, in_step, out_step);
      return;
    }
    each_block(in, out, na, a_in, a_out, n, in_step, out_step,
               [&](const char* from, char* to) GENTT_SIMD_TARGET __attribute__((always_inline)) {
                 self.block_of(q, from, to);
               });
  }

  // f(from, to) for every block of na runs (a_in, a_out bytes apart) of n blocks (in_step,
  // out_step bytes apart) from (in, out).
  template <class F>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline void each_block(
      const char* in, char* out, std::int64_t na, std::int64_t a_in, std::int64_t a_out, std::int64_t n,
      std::int64_t in_step, std::int64_t out_step, F f) {
    for (; na > 0; --na, in += a_in, out += a_out) {
      const char* from = in;
      char* to = out;
      for (std::int64_t k = n; k > 0; --k, from += in_step, to += out_step) f(from, to);
    }
  }

  // The leading part of na runs of n blocks for which fits(runs, blocks) holds, as {runs,
  // blocks}: all of them, all but the last run, or the first n - 1 blocks of a single run (the
  // tensor's last rows, whose whole vectors reach past the input); {0, n} when none.
  template <class F>
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline std::pair<std::int64_t, std::int64_t> leading_runs(
      std::int64_t na, std::int64_t n, F fits) {
    if (fits(na, n)) return {na, n};
    if (na > 1 && fits(na - 1, n)) return {na - 1, n};
    if (na == 1 && n > 1 && fits(1, n - 1)) return {1, n - 1};
    return {0, n};
  }
  // Moves in and out past leading_runs' part (runs runs of `blocks` blocks) and leaves in na and
  // n what remains: the last block of a single run, or the runs after `runs`.
  static inline void skip_leading(std::int64_t runs, std::int64_t blocks, const char*& in, char*& out,
                                  std::int64_t& na, std::int64_t a_in, std::int64_t a_out, std::int64_t& n,
                                  std::int64_t in_step, std::int64_t out_step) {
    if (blocks < n) {
      in += blocks * in_step;
      out += blocks * out_step;
      n -= blocks;
    } else {
      in += runs * a_in;
      out += runs * a_out;
      na -= runs;
    }
  }

  // Whether every block of program q's na runs of n blocks from in (a_in and in_step apart), whose
  // loads are not all whole (block_of loads those without checks), can load and store whole
  // vectors: each register stores all of its bytes or none, and each loaded register lies inside
  // the input window (load_in_window) in the four corner blocks, and so in every block between
  // (the addresses are affine in both counters). Not where q's full stores would stream: block_of
  // decides that per block.
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline bool whole_vectors(const LocalProgram& q, const char* in,
                                                                           std::int64_t na, std::int64_t a_in,
                                                                           std::int64_t n,
                                                                           std::int64_t in_step) const {
    if (q.moves || q.full_loads || (stream && q.full_stores) || in_window == 0) return false;
    // The lowest and the highest loaded register, then the two extreme corners: four sums per
    // register, as this once did, GCC 12 vectorized into ymm lanes with an AVX512DQ extract
    // (vextracti64x2) in the F/BW/VL engine (tests/audit).
    std::int64_t lo = 0, hi = 0;
    bool any = false;
    for (int r = 0; r < R; ++r) {
      if (q.store_bytes[r] != 0 && q.store_bytes[r] != B) return false;
      if (q.load_bytes[r] == 0) continue;
      const std::int64_t at = off<false>(r, ls, ls2);
      lo = !any || at < lo ? at : lo;
      hi = !any || at > hi ? at : hi;
      any = true;
    }
    if (!any) return true;
    const std::int64_t along = (n - 1) * in_step, across = (na - 1) * a_in;
    lo += (along < 0 ? along : 0) + (across < 0 ? across : 0);
    hi += (along > 0 ? along : 0) + (across > 0 ? across : 0);
    const char* first = in + load0;
    return inside_window(first + lo, in_lo, in_window) && inside_window(first + hi, in_lo, in_window);
  }

  // run_program's blocks where whole_vectors holds: program 0's loads and shuffles, registers
  // q does not load as zero, stores of the registers q stores; no per-register size checks or
  // masks (15^6 float64 (4,1,0,5,2,3): a quarter of its blocks are this tail program, whose
  // rows are 3 of 4 elements, and they took 43% of the time through block_of).
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void run_whole(const LocalProgram& q, const char* in,
                                                                       char* out, std::int64_t n,
                                                                       std::int64_t in_step,
                                                                       std::int64_t out_step) const {
    // c ? 1u << r : 0u, not (c ? 1u : 0u) << r: GCC 12.2's -fsanitize=undefined (its shift and
    // bounds checks together) miscompiles that form, reporting a bogus index (docs/testing.md).
    unsigned loads = 0, stores = 0;
    for (int r = 0; r < R; ++r) {
      loads |= q.load_bytes[r] != 0 ? 1u << r : 0u;
      stores |= q.store_bytes[r] != 0 ? 1u << r : 0u;
    }
    const std::int64_t ls = this->ls, ls3 = 3 * this->ls, ss = this->ss, ss3 = 3 * this->ss, ahead = this->ahead;
    const char* from = in + load0;
    const char* from2 = from + ls2;
    char* to = out + store0;
    char* to2 = to + ss2;
    // A streaming plan's tail blocks stream their whole-line stores as its full blocks do (uint16
    // 238336x55 transposed, whose tail blocks write 23 of every 55 output lines: through the cache
    // they held the run-time library at 0.34 of the generated kernel; Zen 4). Only whole 64-byte
    // vectors: on AVX2 a tail block may store one half of a line without the other.
    if (B == 64 && streams_at(to, store_steps() | out_step)) {
      for (; n > 0; --n, from += in_step, from2 += in_step, to += out_step, to2 += out_step)
        blocks<1, true>(from, from2, to, to2, in_step, out_step, ls, ls3, ss, ss3, ahead, loads, stores);
      return;
    }
    for (; n > 0; --n, from += in_step, from2 += in_step, to += out_step, to2 += out_step)
      blocks<1, false>(from, from2, to, to2, in_step, out_step, ls, ls3, ss, ss3, ahead, loads, stores);
  }

  // Engines whose masked loads and stores take any mask at any address (T::kMaskedAccess:
  // AVX-512): na runs (a_in, a_out apart) of n blocks of program p that run_program does not run
  // otherwise (a program that is not uniform, where whole_vectors does not hold; a uniform one's
  // runs whose whole vectors would reach past the input), straight-line: every register stored
  // under its own mask (all ones where it stores a whole vector, none where it stores nothing),
  // its offset and masks read from p.masked (MaskedRegs, set once per plan), no branch per
  // register on its size or on the input window as block_of takes in every block. Loads: whole
  // vectors where every register's lies inside the input window in every block of the runs (all
  // but the last run or block, as run_whole's split), else each under its own mask (masked
  // loads, their masks read from memory, cost 1.14-1.33x against whole ones on int32
  // (11,13,7,9,5) (1,3,0,4,2) and (23,7,5,20,5) (3,0,1,4,2)). A streaming plan's full stores
  // stream where the run's stores all land on whole vectors (block_of's rule, once per call).
  // int32 (11,13,7,9,5) (1,3,0,4,2), whose output rows of 7 elements pair up in registers but for
  // the fifth row (stores of 56, 56 and 28 bytes), ran every block through block_of; random
  // in-cache uint8 shapes with such programs 1.2-2.1x, int32 ones 1.1x, the incache set and
  // the other random in-cache problems unchanged (Zen 5, processes in ABBA order). It replaces
  // block_of's and uniform_run's four loops in run_program, each with its own copy of the
  // shuffles: the AVX-512 engines' objects went from 20.8 and 26.3 MB to 15.7 and 20.1 MB.
  GENTT_SIMD_TARGET __attribute__((noinline)) void masked_runs(const Program& p, const char* in, char* out,
                                                               std::int64_t na, std::int64_t a_in, std::int64_t a_out,
                                                               std::int64_t n, std::int64_t in_step,
                                                               std::int64_t out_step) const {
    const MaskedRegs& m = *p.masked;
    const bool streaming = p.full_stores && streams_at(out + store0, store_steps() | out_step | a_out);
    // Whether every block of `runs` runs of `blocks` from `from` loads whole vectors inside the window.
    const auto inside = [&](std::int64_t runs, std::int64_t blocks) {
      const char* from = in;
      if (in_window == 0) return false;
      const std::int64_t along = (blocks - 1) * in_step, across = (runs - 1) * a_in;
      const std::int64_t lo = m.lo + (along < 0 ? along : 0) + (across < 0 ? across : 0);
      const std::int64_t hi = m.hi + (along > 0 ? along : 0) + (across > 0 ? across : 0);
      return inside_window(from + lo, in_lo, in_window) && inside_window(from + hi, in_lo, in_window);
    };
    // The runs or blocks that load whole vectors; one call site per form.
    const auto [whole_runs, whole_blocks] = leading_runs(na, n, inside);
    if (whole_runs > 0) {
      masked_blocks<true>(m, streaming, in, out, whole_runs, a_in, a_out, whole_blocks, in_step, out_step);
      skip_leading(whole_runs, whole_blocks, in, out, na, a_in, a_out, n, in_step, out_step);
    }
    if (na > 0) masked_blocks<false>(m, streaming, in, out, na, a_in, a_out, n, in_step, out_step);
  }
  // masked_runs' blocks: WholeLoads, every register's whole vector (inside the window). The
  // offsets and masks are read from m in every block (one load each).
  template <bool WholeLoads>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void masked_blocks(const MaskedRegs& m, bool streaming,
                                                                           const char* in, char* out, std::int64_t na,
                                                                           std::int64_t a_in, std::int64_t a_out,
                                                                           std::int64_t n, std::int64_t in_step,
                                                                           std::int64_t out_step) const {
    static_assert(R <= MaskedRegs::kMaskedRegs);
    for (; na > 0; --na, in += a_in, out += a_out) {
      const char* from = in;
      char* to = out;
      for (std::int64_t k = n; k > 0; --k, from += in_step, to += out_step) {
        if (ahead) {
#pragma GCC unroll 64
          for (int r = 0; r < R; ++r)
            if (m.load_mask[r] != 0) __builtin_prefetch(from + ahead + m.load_at[r], 0, kPrefetchLocalityOf<T>);
        }
        V v[R];
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r)
          v[r] = WholeLoads ? T::load(from + m.load_at[r]) : T::load_part(from + m.load_at[r], 0, m.load_mask[r]);
        shuffles(v);
        if (streaming) {
#pragma GCC unroll 64
          for (int r = 0; r < R; ++r) T::stream(to + m.store_at[r], v[r]);
        } else {
#pragma GCC unroll 64
          for (int r = 0; r < R; ++r) T::store_part(to + m.store_at[r], v[r], 0, m.store_mask[r]);
        }
      }
    }
  }

  template <class P>
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void block_of(const P& p, const char* in, char* out) const {
    if (p.moves) return run_moves(*p.moves, in_elem_bytes, in, out);
    V v[R];
    // A register p does not load or store is read and (mask 0) written at the block's base, not
    // at program 0's address for it: that may lie past the tensor, and a masked access to an
    // unmapped page is slow.
    const char* load_base = in + load0;
    const std::int64_t load_step = ls, load_step2 = ls2;
    if (ahead) {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r)
        __builtin_prefetch(load_base + ahead + off<false>(r, load_step, load_step2), 0, kPrefetchLocalityOf<T>);
    }
    if (p.full_loads) {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) v[r] = T::load(load_base + off<false>(r, load_step, load_step2));
    } else {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r)
        v[r] = load_in_window<T>(p.load_bytes[r] ? load_base + off<false>(r, load_step, load_step2) : in, in_lo,
                                 in_window, p.load_bytes[r], p.load_mask[r]);
    }
    shuffles(v);
    char* base = out + store0;
    const std::int64_t step = ss, step2 = ss2;
    if (p.full_stores) {
      if (streams_at(base, store_steps())) {
        if constexpr (Tab) {
#pragma GCC unroll 64
          for (int r = 0; r < R; ++r) T::stream(base + off<true>(r, step, step2), v[r]);
        } else {
          stream_affine<T, R>(base, step, step2, v);
        }
      } else {
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) T::store(base + off<true>(r, step, step2), v[r]);
      }
    } else {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r)
        T::store_part(p.store_bytes[r] ? base + off<true>(r, step, step2) : out, v[r], p.store_bytes[r],
                      p.store_mask[r]);
    }
  }
};

template <class T, int RegBits, int Passes, bool Butterfly>
struct BlockBody {
  using V = typename T::V;
  const Program* programs;
  bool stream;
  const RowSink* sink;
  std::int64_t in_elem_bytes;
  // A whole vector at `from` lies inside the input when from - in_lo <= in_window (as unsigned
  // integers; both 0 when no vector fits: then never).
  std::uintptr_t in_lo, in_window;
  std::int64_t ahead = 0;  // PrepareOptions::prefetch_ahead

  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void operator()(int program, const char* in,
                                                                          char* out) const {
    const Program& p = programs[program];
    if (p.moves && !sink->fn) return run_moves(*p.moves, in_elem_bytes, in, out);
    if constexpr (Passes == 0 && R >= 4 && R <= 32)
      if (ahead && p.uniform && !p.full_loads && p.affine_loads && p.affine_stores && !stream && !sink->fn)
        return uniform_copy(p, in, out);
    if constexpr (Passes > 0 && R >= 4 && R <= 32)
      if (ahead && p.uniform && !p.full_loads && !stream && !sink->fn) return uniform_shuffle(p, in, out);
    // The next tile's lines (assembled and staged tiles: `ahead`), as the lean bodies prefetch
    // them. AVX2's padded blocks with a byte pass come here: seed 002's uint16 (4,5,6,7,1,2,3,0)
    // and (6,7,4,5,1,2,3,0), rows of 3 padded to 4, assembled, 1.2-1.3x with it (Intel server
    // core, separate processes alternating). Blocks of 4 registers and more, as uniform_copy:
    // compiled into 1-2 register blocks too, AVX-512's uint16 (1847,571,28) (1,0,2) ran 2.3x
    // slower.
    if constexpr (R >= 4) {
      if (ahead) {
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r)
          if (p.load_bytes[r]) __builtin_prefetch(in + p.load_offset[r] + ahead, 0, kPrefetchLocalityOf<T>);
      }
    }
    V v[R];
    if (p.full_loads && p.affine_loads) {
      const char* base = in + p.load_base;
      const std::int64_t step = p.load_step, step2 = p.load_step2;
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) v[r] = T::load(base + affine_at<R>(r, step, step2));
    } else if (p.full_loads) {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) v[r] = T::load(in + p.load_offset[r]);
    } else {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) v[r] = load_row(in + p.load_offset[r], p, r);
    }
#pragma GCC unroll 8
    for (int s = 0; s < Passes; ++s)
      table_pass<T, R, Butterfly>(v, s, p.pass_unit[s], p.index + s * R * B, (p.uniform_passes >> s) & 1);
    if (sink->fn) {
      // Each register's run, converted or scaled into the output (its offsets in output bytes).
      alignas(64) unsigned char scratch[R * B];
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) T::store(reinterpret_cast<char*>(scratch + r * B), v[r]);
      for (int r = 0; r < R; ++r)
        if (p.store_bytes[r])
          sink->fn(scratch + r * B, out + p.sink_offset[r], p.store_bytes[r] / in_elem_bytes, sink->state);
      return;
    }
    if (!stream) {
      if (p.full_stores && p.affine_stores) {
        char* base = out + p.store_base;
        const std::int64_t step = p.store_step, step2 = p.store_step2;
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) T::store(base + affine_at<R>(r, step, step2), v[r]);
      } else if (p.full_stores) {
        const LocalStores q = local_stores(p);
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) T::store(out + q.at[r], v[r]);
      } else {
        const LocalStores q = local_stores(p);
#pragma GCC unroll 64
        for (int r = 0; r < R; ++r) T::store_part(out + q.at[r], v[r], q.bytes[r], q.mask[r]);
      }
      return;
    }
    if (p.full_stores && p.affine_stores && ((p.store_step | p.store_step2) & (B - 1)) == 0 &&
        (reinterpret_cast<std::uintptr_t>(out + p.store_base) & (B - 1)) == 0) {
      char* base = out + p.store_base;
      const std::int64_t step = p.store_step, step2 = p.store_step2;
      stream_affine<T, R>(base, step, step2, v);
      return;
    }
    const LocalStores q = local_stores(p);
    if (B < 64 && p.paired_halves) {
#pragma GCC unroll 64
      for (int j = 0; j < R; ++j) {
        const int r = stream_order<R, B < 64>(j);
        char* dst = out + q.at[r];
        if ((reinterpret_cast<std::uintptr_t>(dst) & (B - 1)) == 0)
          T::stream(dst, v[r]);
        else
          T::store(dst, v[r]);
      }
      return;
    }
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      char* dst = out + q.at[r];
      if (q.bytes[r] == B && (reinterpret_cast<std::uintptr_t>(dst) & (B - 1)) == 0)
        T::stream(dst, v[r]);
      else if (q.bytes[r] == B)
        T::store(dst, v[r]);
      else
        T::store_part(dst, v[r], q.bytes[r], q.mask[r]);
    }
  }

 private:
  static constexpr int R = 1 << RegBits;
  static constexpr int B = T::kBytes;

  // A program's store offsets, sizes and masks copied into locals before its stores: read from
  // the tables, each was reloaded (with the table's pointer) after every store through char*,
  // which may alias them.
  struct LocalStores {
    std::int64_t at[R];
    std::int32_t bytes[R];
    unsigned long long mask[R];
  };
  GENTT_SIMD_TARGET __attribute__((always_inline)) static inline LocalStores local_stores(const Program& p) {
    LocalStores q;
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      q.at[r] = p.store_offset[r];
      q.bytes[r] = p.store_bytes[r];
      q.mask[r] = p.store_mask[r];
    }
    return q;
  }

  GENTT_SIMD_TARGET __attribute__((always_inline)) inline V load_row(const char* from, const Program& p, int r) const {
    return load_in_window<T>(from, in_lo, in_window, p.load_bytes[r], p.load_mask[r]);
  }

  // A block with passes whose registers all move the same lanes (Program::uniform: padded blocks,
  // whose padding registers load nothing), in a tiled walk that prefetches (assembled and staged
  // tiles, `ahead`), as uniform_copy for blocks without passes: the program's one load mask and
  // one store mask, each register's offset read once, where the general path reads every
  // register's offset, byte count and mask (and the offsets again for the prefetches) and
  // branches on them. Seed 002's uint16 (4,5,6,7,1,2,3,0) and (6,7,4,5,1,2,3,0) (rows of 3
  // padded to 4, 32 registers whose offsets are not affine_at's rule, so no lean body),
  // assembled: 0.29 -> 0.30 of the best copy (docs/performance.md, 2026-12-04).
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_shuffle(const Program& p, const char* in,
                                                                               char* out) const {
    const unsigned loads = p.uniform_loads, stores = p.uniform_stores;
    const int load_bytes = p.uniform_load_bytes, store_bytes = p.uniform_store_bytes;
    const unsigned long long load_mask = p.uniform_load_mask, store_mask = p.uniform_store_mask;
    // The offsets in locals before any store (stores through char* could alias the table).
    std::int64_t from[R], at[R];
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      from[r] = p.load_offset[r];
      at[r] = p.store_offset[r];
    }
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r)
      if ((loads >> r) & 1) __builtin_prefetch(in + from[r] + ahead, 0, kPrefetchLocalityOf<T>);
    V v[R];
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r)
      v[r] = !((loads >> r) & 1) ? V{}
             : load_bytes == B   ? T::load(in + from[r])
                                 : load_in_window<T>(in + from[r], in_lo, in_window, load_bytes, load_mask);
#pragma GCC unroll 8
    for (int s = 0; s < Passes; ++s)
      table_pass<T, R, Butterfly>(v, s, p.pass_unit[s], p.index + s * R * B, (p.uniform_passes >> s) & 1);
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      if (!((stores >> r) & 1)) continue;
      if (store_bytes == B)
        T::store(out + at[r], v[r]);
      else
        T::store_part(out + at[r], v[r], store_bytes, store_mask);
    }
  }

  // A block without passes (each register a run copied across: short kept rows, the register
  // bits from other axes) whose registers all move the same lanes (Program::uniform) at affine
  // addresses, in a tiled walk that prefetches (assembled and staged tiles, `ahead`): computed
  // addresses and the program's one mask, where the general path reads every register's offset,
  // byte count and mask from the tables, and the next tile's lines prefetched as the lean bodies
  // do. Intel server core, 1 thread, run-time library, the 92 plans without reorder passes among
  // 260 random large problems (old and new builds, two processes each): median 0.37 -> 0.41 of
  // the best copy, 35 faster by 1.1-1.9x (float32 (266,240,26,15) (0,2,1,3), rows of 60 bytes
  // assembled, 0.46 -> 0.70; float64 (127,98,143,6) (0,2,1,3) 0.26 -> 0.50), uint8
  // (44,253,119,48) (0,2,1,3) about 0.85x. Blocks of 1-2 registers keep the general path: with
  // this path compiled into them, uint16 (1847,571,28) (1,0,2) (one register, cached walk) ran
  // 2.5x slower, for reasons not found.
  GENTT_SIMD_TARGET __attribute__((always_inline)) inline void uniform_copy(const Program& p, const char* in,
                                                                            char* out) const {
    const unsigned loads = p.uniform_loads, stores = p.uniform_stores;
    const int load_bytes = p.uniform_load_bytes, store_bytes = p.uniform_store_bytes;
    const unsigned long long load_mask = p.uniform_load_mask, store_mask = p.uniform_store_mask;
    const char* from = in + p.load_base;
    char* to = out + p.store_base;
    const std::int64_t ls = p.load_step, ls2 = p.load_step2, ss = p.store_step, ss2 = p.store_step2;
    // The caller takes this path only where `ahead` is set.
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r)
      if ((loads >> r) & 1) __builtin_prefetch(from + affine_at<R>(r, ls, ls2) + ahead, 0, kPrefetchLocalityOf<T>);
    V v[R];
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      const char* at = from + affine_at<R>(r, ls, ls2);
      v[r] = !((loads >> r) & 1) ? V{}
             : load_bytes == B   ? T::load(at)
                                 : load_in_window<T>(at, in_lo, in_window, load_bytes, load_mask);
    }
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      if (!((stores >> r) & 1)) continue;
      char* at = to + affine_at<R>(r, ss, ss2);
      if (store_bytes == B)
        T::store(at, v[r]);
      else
        T::store_part(at, v[r], store_bytes, store_mask);
    }
  }
};

using RunFn = void (*)(const Data&, const char*, char*, std::int64_t, std::int64_t);

// The body's in_lo and in_window for a run whose input base is `in` (load_in_window).
template <class T>
std::pair<std::uintptr_t, std::uintptr_t> input_window(const Data& d, const char* in) {
  if (d.in_hi - d.in_lo < T::kBytes) return {0, 0};
  return {reinterpret_cast<std::uintptr_t>(in) + static_cast<std::uintptr_t>(d.in_lo),
          static_cast<std::uintptr_t>(d.in_hi - d.in_lo - T::kBytes)};
}

template <class T, int RegBits, int Passes, bool Butterfly>
GENTT_SIMD_TARGET void run_range(const Data& d, const char* in, char* out, std::int64_t begin, std::int64_t end) {
  const auto [in_lo, in_window] = input_window<T>(d, in);
  BlockBody<T, RegBits, Passes, Butterfly> body{d.programs.data(), d.stream, &d.sink, d.in_elem_bytes, in_lo, in_window,
                                                d.prefetch_ahead};
  walk<false>(d.loops.data(), static_cast<int>(d.loops.size()), begin, end, in, out, body);
  if (d.stream) T::fence();
}

// Software prefetch (ir/prefetch.h's prefetch_ahead_bytes, as in the generated kernels, but for
// every plan and region: the generated kernels prefetch only from 4 MiB on and never in tiled
// loops, whose runs are mostly longer than the rule allows anyway): where the innermost loop's run
// reads at most a line or two of each row and the next step of the loop above it jumps a page
// or more (new rows, which the hardware prefetchers do not follow), each block prefetches the
// lines of the block one such step ahead. Measured on AVX2 (Zen 3: 16^6 float64 (4,3,5,0,1,2)
// 3.8 -> 5.6 GB/s alone); an engine opts in with T::kPrefetchAhead (AVX-512 does not: not
// measured there). Needs ir/prefetch.h included by the engine's translation unit.
template <class T>
std::int64_t lean_ahead(const std::vector<WalkLoop>& loops) {
  if constexpr (requires { T::kPrefetchAhead; }) {
    if (!T::kPrefetchAhead || loops.size() < 2) return 0;
    const WalkLoop& b = loops[loops.size() - 1];
    return prefetch_ahead_bytes(b.count, b.in_step, loops[loops.size() - 2].in_step);
  } else {
    return 0;
  }
}

template <class T, int RegBits, int Passes, bool Fixed, bool Tab = false, bool HeldLast = false>
GENTT_SIMD_TARGET void run_lean(const Data& d, const char* in, char* out, std::int64_t begin, std::int64_t end) {
  const auto [in_lo, in_window] = input_window<T>(d, in);
  const Program& full = d.programs.front();
  // Default-initialized and then assigned, not aggregate-initialized: that zeroed the whole body
  // first (a 160-byte rep stos, slow to start on Zen 3), half of this function's own time in a
  // small call. Without it (Zen 3, AVX2, warm calls, best of 7 processes each): float32 8x8
  // transposed 1.29x, 16x16 1.16x, (8,8,8) reversed 1.19x, float64 8x8 1.22x.
  LeanBody<T, RegBits, Passes, Fixed, Tab, HeldLast> body;
  body.programs = d.programs.data();
  body.in_elem_bytes = d.in_elem_bytes;
  body.in_lo = in_lo;
  body.in_window = in_window;
  body.stream = d.stream;
  body.ahead = d.prefetch_ahead ? d.prefetch_ahead : lean_ahead<T>(d.loops);
  body.batch_any_step = d.cached_tile;
  body.full0 = full.full_loads && full.full_stores;
  body.load0 = full.load_base;
  body.store0 = full.store_base;
  body.ls = full.load_step;
  body.ls2 = full.load_step2;
  body.ss = full.store_step;
  body.ss2 = full.store_step2;
  if constexpr (Fixed && !HeldLast) body.pre[0] = typename T::V{};
  std::memcpy(body.unit, full.pass_unit, sizeof body.unit);
  if constexpr (Tab) {  // bit_linear_registers' base and steps (SimdBlocks checked they hold)
    static_assert(RegBits <= kMaxLinearRegBits);
    // Each value through a general register (the empty asm): GCC 12 otherwise loaded the
    // program's adjacent fields as one ymm vector and took them out with vextracti64x2, an
    // AVX512DQ instruction outside the F/BW/VL engine's target (audit.runtime_avx512_engine).
    std::int64_t load0 = full.load_bit_base, store0 = full.store_bit_base;
    asm("" : "+r"(load0), "+r"(store0));
    body.load0 = load0;
    body.store0 = store0;
    for (int b = 0; b < RegBits; ++b) {
      std::int64_t l = full.load_bit_step[b], s = full.store_bit_step[b];
      asm("" : "+r"(l), "+r"(s));
      body.lb[b] = l;
      body.sb[b] = s;
    }
  }
  if constexpr (!Fixed || HeldLast)
    for (int s = HeldLast ? Passes - 1 : 0; s < Passes; ++s) {
      // Byte passes with kGatherBytes vectors run that form (T has it: make_simd_tables made them).
      const bool gather = ((full.gather_passes >> s) & 1) != 0;
      if (gather) body.unit[s] = static_cast<unsigned char>(kGatherBytes);
      const unsigned char* index = (gather ? full.gather_index : full.index) + s * (1 << RegBits) * T::kBytes;
      const int at = HeldLast ? 0 : 2 * s;
      body.pre[at] = T::load_index(index);
      body.pre[at + 1] = T::load_index(index + (1 << s) * T::kBytes);
    }
  walk(d.loops.data(), static_cast<int>(d.loops.size()), begin, end, in, out, body);
  if (d.stream) T::fence();
}

// Blocks of 1 << kFullButterflyRegBits registers and more (byte plans: 64 registers on AVX-512,
// 32 on AVX2) have engine bodies for a full butterfly only (passes = register bits). That is what
// the planner gives them: every one of about 5,000 random problems on AVX2 and AVX-512 (bytes,
// 16-bit, 4- and 8-byte elements) whose blocks had 16 registers or more had a full butterfly;
// plans with fewer passes come from smaller blocks. A plan outside that (none known) runs on
// the portable engine (prepare_simd returns null). The bodies for the other pass counts, 64
// registers wide and each pass position with every unit's form, were two fifths of the AVX-512
// engines' code (the generic body of 64 registers alone 1.7 MB of the one without VBMI) and of
// their compile time.
inline constexpr int kFullButterflyRegBits = 5;

// Whether the engines have butterfly bodies (generic and lean) of reg_bits and passes.
constexpr bool has_butterfly_body(int reg_bits, int passes) {
  return reg_bits < kFullButterflyRegBits || passes == reg_bits;
}

template <class T, int RegBits>
RunFn pick_passes(int passes, bool butterfly) {
  if (!butterfly) {
    if (passes == 0) return run_range<T, RegBits, 0, false>;
    if (passes == 1) return run_range<T, RegBits, 1, false>;
    return nullptr;
  }
  RunFn fn = nullptr;
  [&]<int... P>(std::integer_sequence<int, P...>) {
    ([&] {
      if constexpr (has_butterfly_body(RegBits, P + 1))
        if (passes == P + 1) fn = run_range<T, RegBits, P + 1, true>;
    }(), ...);
  }(std::make_integer_sequence<int, RegBits>{});
  return fn;
}

// As pick_passes (has_butterfly_body); HeldLast bodies have two passes and more.
template <class T, int RegBits, bool Fixed, bool Tab, bool HeldLast = false>
RunFn pick_lean_passes(int passes) {
  RunFn fn = nullptr;
  [&]<int... P>(std::integer_sequence<int, P...>) {
    ([&] {
      if constexpr ((!HeldLast || P >= 1) && has_butterfly_body(RegBits, P + 1))
        if (passes == P + 1) fn = run_lean<T, RegBits, P + 1, Fixed, Tab, HeldLast>;
    }(), ...);
  }(std::make_integer_sequence<int, RegBits>{});
  return fn;
}

// The lean run function (butterfly plans of 1..reg_bits passes), or nullptr past MaxRegBits;
// Fixed: the one for plans whose passes are LeanBody's fixed lane exchanges; Tab: for register
// offsets from per-bit steps (LeanBody's Tab).
template <class T, int MaxRegBits, bool Fixed = false, bool Tab = false, bool HeldLast = false>
RunFn pick_lean(int reg_bits, int passes) {
  RunFn fn = nullptr;
  [&]<int... B>(std::integer_sequence<int, B...>) {
    ((reg_bits == B + 1 ? (fn = pick_lean_passes<T, B + 1, Fixed, Tab, HeldLast>(passes), 0) : 0), ...);
  }(std::make_integer_sequence<int, MaxRegBits>{});
  return fn;
}

// Whether every pass of the plan's program 0 is the plain exchange of byte-lane bit
// log2(kBytes) - passes + s (LeanBody's Fixed form) and T has those forms; but_last: every pass
// but the last (LeanBody's HeldLast).
template <class T>
bool fixed_lanes(const SimdTables& simd, bool but_last = false) {
  const int first = std::countr_zero(static_cast<unsigned>(T::kBytes)) - simd.passes;
  if (first < 0) return false;
  for (int s = 0; s < simd.passes - (but_last ? 1 : 0); ++s) {
    const int lane = first + s;
    if (simd.programs.front().pass_unit[s] != kButterflyLane + lane || ((butterfly_lanes<T>() >> lane) & 1) == 0)
      return false;
  }
  return true;
}

// The run function for a plan, or nullptr past MaxRegBits.
template <class T, int MaxRegBits>
RunFn pick_run(int reg_bits, int passes, bool butterfly) {
  RunFn fn = nullptr;
  [&]<int... B>(std::integer_sequence<int, B...>) {
    ((reg_bits == B ? (fn = pick_passes<T, B>(passes, butterfly), 0) : 0), ...);
  }(std::make_integer_sequence<int, MaxRegBits + 1>{});
  return fn;
}

// Whether the offsets of the registers that move bytes (bytes[r] != 0) follow affine_at's rule,
// off[r] = base + (r % H) * step + (r / H) * step2 with H = max(R / 2, 1): step between the
// registers of each half, step2 between the halves. The other registers are read and written
// nowhere (their tables say offset 0), so they do not count: a padded axis (3 of 4 registers,
// seed 002's (3,32,8,16,24,16,20,3) uint16 reversal) keeps the lean body.
inline bool affine_registers(const std::vector<std::int64_t>& off, const std::vector<std::int32_t>& bytes,
                             std::int64_t* base, std::int64_t* step, std::int64_t* step2) {
  const std::size_t n = off.size();
  const std::size_t half = n > 1 ? n / 2 : 1;
  *base = *step = *step2 = 0;
  std::size_t first = n;
  for (std::size_t r = 0; r < n && first == n; ++r)
    if (bytes[r] != 0) first = r;
  if (first == n) return true;  // nothing moves
  const auto pos = [&](std::size_t r) { return static_cast<std::int64_t>(r % half); };
  const auto hi = [&](std::size_t r) { return static_cast<std::int64_t>(r / half); };
  bool have_step = false, have_step2 = false;
  for (std::size_t r = first + 1; r < n; ++r) {
    if (bytes[r] == 0) continue;
    if (!have_step && hi(r) == hi(first) && pos(r) != pos(first)) {
      const std::int64_t d = off[r] - off[first], k = pos(r) - pos(first);
      if (d % k != 0) return false;
      *step = d / k;
      have_step = true;
    }
    if (!have_step2 && pos(r) == pos(first) && hi(r) != hi(first)) {
      *step2 = (off[r] - off[first]) / (hi(r) - hi(first));
      have_step2 = true;
    }
  }
  *base = off[first] - pos(first) * *step - hi(first) * *step2;
  for (std::size_t r = 0; r < n; ++r)
    if (bytes[r] != 0 && off[r] != *base + affine_offset(static_cast<int>(r), static_cast<int>(n), *step, *step2))
      return false;
  return true;
}

// Whether the offsets of the registers that move bytes (bytes[r] != 0) are base plus the step
// of each register bit set in r, off[r] = base + sum of step[b] over the bits b of r, for the
// n = 2^bits registers (bits <= kMaxLinearRegBits): each register bit is one bit of an axis'
// index (all-size-2 tensors, whose register bits come from axes of any power-of-two strides). A
// bit that no pair of moving registers differs in alone gets step 0. As in affine_registers, the
// registers that move nothing do not count.
inline bool bit_linear_registers(const std::vector<std::int64_t>& off, const std::vector<std::int32_t>& bytes,
                                 std::int64_t* base, std::int64_t* step) {
  const std::size_t n = off.size();
  int bits = 0;  // log2(n); no std::countr_zero: tzcnt is outside the AVX-512 engines' target
  while (bits < 63 && (std::size_t{1} << bits) < n) ++bits;
  *base = 0;
  for (int b = 0; b < kMaxLinearRegBits; ++b) step[b] = 0;
  if (n == 0 || (n & (n - 1)) != 0 || bits > kMaxLinearRegBits) return false;
  std::size_t first = n;
  for (std::size_t r = 0; r < n && first == n; ++r)
    if (bytes[r] != 0) first = r;
  if (first == n) return true;  // nothing moves
  for (int b = 0; b < bits; ++b) {
    const std::size_t bit = std::size_t{1} << b;
    for (std::size_t r = 0; r < n; ++r)
      if ((r & bit) == 0 && bytes[r] != 0 && bytes[r | bit] != 0) {
        step[b] = off[r | bit] - off[r];
        break;
      }
  }
  const auto sum = [&](std::size_t r) {
    std::int64_t at = 0;
    for (int b = 0; b < bits; ++b)
      if ((r >> b) & 1) at += step[b];
    return at;
  };
  *base = off[first] - sum(first);
  for (std::size_t r = 0; r < n; ++r)
    if (bytes[r] != 0 && off[r] != *base + sum(r)) return false;
  return true;
}

// The MaskedRegs of program p for a lean body of `regs` registers (at most
// MaskedRegs::kMaskedRegs) under program 0's geometry (full): its per-bit steps where the body is
// a Tab one (`tabled`), else affine_at's rule (LeanBody::off), from the body's load0 and store0;
// vector_bytes: the engine's vector (a register that moves as many bytes loads or stores it whole).
inline MaskedRegs masked_regs(const Program& p, const Program& full, bool tabled, int regs, int vector_bytes) {
  const auto at = [&](int r, bool store) {
    if (tabled) {
      std::int64_t sum = store ? full.store_bit_base : full.load_bit_base;
      for (int b = 0; b < kMaxLinearRegBits && (1 << b) < regs; ++b)
        if ((r >> b) & 1) sum += store ? full.store_bit_step[b] : full.load_bit_step[b];
      return sum;
    }
    return store ? full.store_base + affine_offset(r, regs, full.store_step, full.store_step2)
                 : full.load_base + affine_offset(r, regs, full.load_step, full.load_step2);
  };
  const auto mask = [&](std::int32_t bytes, unsigned long long m) {
    return bytes == vector_bytes ? ~0ull : bytes != 0 ? m : 0ull;
  };
  int first = -1;  // the first register that loads
  for (int r = 0; r < regs && first < 0; ++r)
    if (p.load_bytes[r] != 0) first = r;
  const std::int64_t spare = first >= 0 ? at(first, false) : 0;
  MaskedRegs m;
  m.lo = m.hi = spare;
  for (int r = 0; r < regs; ++r) {
    m.load_at[r] = p.load_bytes[r] != 0 ? at(r, false) : spare;
    m.store_at[r] = p.store_bytes[r] != 0 ? at(r, true) : 0;
    m.load_mask[r] = mask(p.load_bytes[r], p.load_mask[r]);
    m.store_mask[r] = mask(p.store_bytes[r], p.store_mask[r]);
    m.lo = m.load_at[r] < m.lo ? m.load_at[r] : m.lo;
    m.hi = m.load_at[r] > m.hi ? m.load_at[r] : m.hi;
  }
  return m;
}

// The lean run functions for a plan's registers and passes (LeanBody), or nullptr: lean; fixed,
// with LeanBody's fixed forms, when the plan's passes are those; fixed_tab, the same with
// register offsets from bit steps (LeanBody's Tab), for engines that have them; tab, the plain
// Tab body, for those whose passes are not the fixed forms. (Before run_full took the loops
// above the innermost in one call, a Tab body without the fixed forms cost a call per run of 2
// blocks on 4 KiB all-size-2 tensors, and lost to the generic body: 0.7-0.8x of it.)
struct LeanFns {
  RunFn lean = nullptr, fixed = nullptr, fixed_tab = nullptr, tab = nullptr;
  RunFn held_last = nullptr;  // the fixed forms but for the last pass (LeanBody's HeldLast)
};

// The most register bits of T's HeldLast lean bodies (T::kHeldLastRegBits; 0: none).
template <class T>
constexpr int held_last_reg_bits() {
  if constexpr (requires { T::kHeldLastRegBits; }) return T::kHeldLastRegBits;
  return 0;
}

// The fewest blocks of a plan (region) that runs the plain Tab body (SimdBlocks).
inline constexpr std::int64_t kPlainTabMinBlocks = 8;

// The most register bits of T's Tab lean bodies (T::kTabledRegBits; 0: none), and of those with
// the fixed forms (T::kTabledFixedRegBits where T has it, else the same).
template <class T>
constexpr int tabled_reg_bits() {
  if constexpr (requires { T::kTabledRegBits; }) return T::kTabledRegBits;
  return 0;
}
template <class T>
constexpr int tabled_fixed_reg_bits() {
  if constexpr (requires { T::kTabledFixedRegBits; }) return T::kTabledFixedRegBits;
  return tabled_reg_bits<T>();
}

class SimdBlocks final : public PreparedBlocks {
 public:
  // fn: the generic run function; lean: the lean ones (LeanFns), used when every program fits
  // them (program 0's offsets affine_at's rule, else bit_linear_registers' in a Tab one where
  // the engine has them).
  SimdBlocks(std::shared_ptr<const SimdTables> tables, std::vector<WalkLoop> loops, RunFn fn, const LeanFns& lean,
             const PrepareOptions& options, std::int64_t in_elem_bytes, const char* isa)
      : tables_(std::move(tables)), fn_(fn), isa_(isa) {
    const bool stream = options.stream;
    if (options.sink) data_.sink = *options.sink;
    data_.in_elem_bytes = in_elem_bytes;
    data_.in_lo = options.in_lo;
    data_.in_hi = options.in_hi;
    data_.prefetch_ahead = options.prefetch_ahead;
    data_.cached_tile = options.cached_tile;
    data_.loops = std::move(loops);
    iterations_ = walk_iterations(data_.loops);
    data_.stream = stream;
    for (const SimdProgram& sp : tables_->programs) {
      Program p{};
      p.load_offset = sp.load_offset.data();
      p.load_bytes = sp.load_bytes.data();
      p.load_mask = sp.load_mask.data();
      p.store_offset = sp.store_offset.data();
      p.sink_offset = sp.sink_offset.data();
      p.store_bytes = sp.store_bytes.data();
      p.store_mask = sp.store_mask.data();
      p.index = sp.index.empty() ? tables_->programs.front().index.data() : sp.index.data();
      p.gather_index = sp.index.empty() ? tables_->programs.front().gather_index.data() : sp.gather_index.data();
      p.gather_passes = sp.gather_passes;
      p.uniform_passes = sp.uniform_passes;
      std::memcpy(p.pass_unit, sp.pass_unit, sizeof p.pass_unit);
      p.full_loads = sp.full_loads;
      p.full_stores = sp.full_stores;
      p.shares_full = sp.shares_full;
      p.affine_loads = affine_registers(sp.load_offset, sp.load_bytes, &p.load_base, &p.load_step, &p.load_step2);
      p.affine_stores =
          affine_registers(sp.store_offset, sp.store_bytes, &p.store_base, &p.store_step, &p.store_step2);
      const std::size_t half = sp.store_offset.size() / 2;
      const std::int32_t vec = tables_->vector_bytes;
      p.paired_halves = vec < 64 && half > 0;
      for (std::size_t h = 0; h < half && p.paired_halves; ++h)
        p.paired_halves = sp.store_bytes[h] == vec && sp.store_bytes[h + half] == vec &&
                          sp.store_offset[h + half] == sp.store_offset[h] + vec;
      p.moves = sp.moves ? &*sp.moves : nullptr;
      // Program::uniform: the registers that move bytes (a bit set) all move the same ones.
      const auto same_lanes = [](const std::vector<std::int32_t>& bytes, const std::vector<unsigned long long>& masks,
                                 unsigned* regs, std::int32_t* b, unsigned long long* m) {
        for (std::size_t r = 0; r < bytes.size(); ++r) {
          if (bytes[r] == 0) continue;
          if (*regs != 0 && (bytes[r] != *b || masks[r] != *m)) return false;
          *regs |= 1u << r;
          *b = bytes[r];
          *m = masks[r];
        }
        return true;
      };
      p.uniform = p.shares_full && !p.moves && sp.load_bytes.size() <= 32 &&
                  same_lanes(sp.load_bytes, sp.load_mask, &p.uniform_loads, &p.uniform_load_bytes,
                             &p.uniform_load_mask) &&
                  same_lanes(sp.store_bytes, sp.store_mask, &p.uniform_stores, &p.uniform_store_bytes,
                             &p.uniform_store_mask);
      data_.programs.push_back(p);
    }
    const Program& full = data_.programs.front();
    // Program::uniform_load_lo and _hi: affine_at's offsets under program 0's steps.
    for (Program& p : data_.programs) {
      if (!p.uniform) continue;
      const int regs = 1 << tables_->reg_bits;
      bool any = false;
      for (int r = 0; r < regs && r < 32; ++r) {
        if (!((p.uniform_loads >> r) & 1)) continue;
        const std::int64_t at = affine_offset(r, regs, full.load_step, full.load_step2);
        p.uniform_load_lo = !any || at < p.uniform_load_lo ? at : p.uniform_load_lo;
        p.uniform_load_hi = !any || at > p.uniform_load_hi ? at : p.uniform_load_hi;
        any = true;
      }
    }
    // All-size-2 tensors mostly have register offsets outside affine_at's rule: through the
    // generic body's per-block dispatch their 4 KiB float32 cases ran at 0.24-0.4 of the
    // generated kernel (Zen 3).
    tabled_ = !(full.affine_loads && full.affine_stores);
    if (tabled_ && (lean.fixed_tab || lean.tab)) {  // program 0's offsets, where a Tab body may run
      Program& first = data_.programs.front();
      const SimdProgram& sp = tables_->programs.front();
      first.linear_loads =
          bit_linear_registers(sp.load_offset, sp.load_bytes, &first.load_bit_base, first.load_bit_step);
      first.linear_stores =
          bit_linear_registers(sp.store_offset, sp.store_bytes, &first.store_bit_base, first.store_bit_step);
    }
    const bool tab_ok = full.linear_loads && full.linear_stores;
    // The plain Tab body only from kPlainTabMinBlocks blocks: below, its setup per call (the
    // index vectors, the blend masks, the out-of-line call) cost more than the generic body's
    // dispatch per block (random all-size-2 float32 and float64 tensors of 1-4 blocks: 0.56-0.98x
    // of the generic body; of 8 blocks and more 0.98-2.2x, median 1.22x; Zen 3).
    const bool plain_tab = tab_ok && iterations_ >= kPlainTabMinBlocks;
    const RunFn lean_fn = tabled_ ? (plain_tab ? lean.tab : nullptr) : lean.lean;
    const RunFn fixed_fn = tabled_ ? (tab_ok ? lean.fixed_tab : nullptr) : lean.fixed ? lean.fixed : lean.held_last;
    held_last_ = !tabled_ && !lean.fixed && lean.held_last;
    // Where the plan's passes have the fixed forms they run them, short innermost runs that end in
    // a tail included. AVX2 once kept the plain lean body for runs of fewer than 8 blocks with a
    // tail (17^6 float64 (3,2,5,0,1,4): 1.0 of the generated kernel against 0.87 then); since the
    // tail programs run straight-line (uniform_run), the fixed forms win there too (Zen 3, in
    // one process: that case 1.34x, float32 (6,10,12,14,8) (1,4,0,3,2) 1.71x, (7,9,5,11,13)
    // reversed 1.53x), as they did on AVX-512 (Zen 4: 17^6 float64 1.15-1.4x).
    lean_ = (lean_fn || fixed_fn) && !data_.sink.fn && tables_->butterfly &&
            tables_->passes > 0 && full.uniform_passes == (1u << tables_->passes) - 1;
    for (const Program& p : data_.programs) lean_ = lean_ && (p.shares_full || p.moves);
    fixed_ = lean_ && fixed_fn;
    if (lean_) fn_ = fixed_ ? fixed_fn : lean_fn;
    // The lean body's masked_runs (engines with masked access) read these.
    const int regs = 1 << tables_->reg_bits;
    if (lean_ && regs <= MaskedRegs::kMaskedRegs) {
      data_.masked.reserve(data_.programs.size());  // no reallocation: the programs point into it
      for (const Program& p : data_.programs)
        data_.masked.push_back(masked_regs(p, full, tabled_, regs, tables_->vector_bytes));
      for (std::size_t i = 0; i < data_.programs.size(); ++i) data_.programs[i].masked = &data_.masked[i];
    }
  }
  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    fn_(data_, in, out, begin, end);
  }
  std::int64_t iterations() const override { return iterations_; }
  std::string describe() const override {
    return tables_->describe(isa_, lean_ && !fixed_) +
           (data_.sink.fn ? ", each register's run through the row transform" : "") +
           (lean_ ? ", tail blocks as the full block's shuffles with masks (lean" +
                        std::string(fixed_ ? (held_last_ ? "; full blocks in fixed forms but the last pass" : "; full blocks in fixed forms") : "") +
                        std::string(tabled_ ? "; register offsets from per-bit steps" : "") + ")"
                  : "");
  }

 private:
  std::shared_ptr<const SimdTables> tables_;  // shared by the regions of one plan
  Data data_;
  RunFn fn_;
  bool lean_ = false;
  bool fixed_ = false;
  bool held_last_ = false;  // fixed_: the last pass from index vectors (LeanBody's HeldLast)
  bool tabled_ = false;  // program 0's register offsets are not affine_at's rule
  const char* isa_;
  std::int64_t iterations_ = 0;
};

// An engine's prepare_<isa>: the plan's tables in the ISA's form and its run function, or
// nullptr when the ISA cannot run them (element size, registers, passes; streaming stores with
// a conversion sink).
template <class T, int MaxRegBits>
std::unique_ptr<PreparedBlocks> prepare_simd(const BlockTables& tables, std::int64_t elem_bytes,
                                             const PrepareOptions& options, const char* isa) {
  const std::int64_t out_bytes = options.sink ? options.sink->out_elem_bytes : elem_bytes;
  if (options.sink && options.stream) return nullptr;  // streaming stores write raw registers
  auto simd = make_simd_tables(tables, elem_bytes, T::kBytes, T::kUnits | (gather_bytes<T>() ? kGatherUnits : 0u),
                               MaxRegBits, out_bytes);
  if (!simd) return nullptr;
  for (SimdProgram& p : simd->programs)
    for (int s = 0; s < simd->passes; ++s) {
      if (((p.lane_local_passes >> s) & 1) == 0) continue;
      if (T::kLaneLocal && p.pass_unit[s] == 1) p.pass_unit[s] = kLaneLocalBytes;
      if (lane_local_dwords<T>() && p.pass_unit[s] == 4) p.pass_unit[s] = kLaneLocalDwords;
    }
  // Passes that are the plain exchange of a byte-lane bit take T's fixed form where it has one
  // (before encode_index rewrites the vectors it reads). A program without vectors of its own
  // runs program 0's under its own units: it takes program 0's form where its unit is the same.
  if constexpr (butterfly_lanes<T>() != 0) {
    unsigned char first_unit[kMaxPasses] = {};
    std::memcpy(first_unit, simd->programs.front().pass_unit, sizeof first_unit);
    int first_lane[kMaxPasses];
    for (int s = 0; s < simd->passes; ++s) first_lane[s] = butterfly_lane_bit(*simd, simd->programs.front(), s);
    for (SimdProgram& p : simd->programs)
      for (int s = 0; s < simd->passes; ++s) {
        const int bit = p.index.empty() ? (p.pass_unit[s] == first_unit[s] ? first_lane[s] : -1)
                                         : butterfly_lane_bit(*simd, p, s);
        if (bit >= 0 && ((butterfly_lanes<T>() >> bit) & 1) != 0)
          p.pass_unit[s] = static_cast<unsigned char>(kButterflyLane + bit);
      }
  }
  if constexpr (requires(unsigned char* v) { T::encode_index(1, v); }) {
    for (SimdProgram& p : simd->programs) {
      if (p.index.empty()) continue;  // program 0's vectors (SimdProgram::index)
      const std::size_t per_pass = (std::size_t{1} << simd->reg_bits) * T::kBytes;
      for (int s = 0; s < simd->passes; ++s)
        for (std::size_t at = s * per_pass; at < (s + 1) * per_pass; at += T::kBytes)
          T::encode_index(p.pass_unit[s], p.index.data() + at);
    }
  }
  const RunFn fn = pick_run<T, MaxRegBits>(simd->reg_bits, simd->passes, simd->butterfly);
  if (!fn) return nullptr;
  // Lean bodies for up to 1 << T::kLeanRegBits registers (simd_body's traits).
  LeanFns lean;
  if (simd->butterfly) lean.lean = pick_lean<T, T::kLeanRegBits>(simd->reg_bits, simd->passes);
  if constexpr (butterfly_lanes<T>() != 0)
    if (simd->butterfly && fixed_lanes<T>(*simd)) {
      lean.fixed = pick_lean<T, T::kLeanRegBits, true>(simd->reg_bits, simd->passes);
      if constexpr (tabled_fixed_reg_bits<T>() > 0)
        lean.fixed_tab = pick_lean<T, tabled_fixed_reg_bits<T>(), true, true>(simd->reg_bits, simd->passes);
    }
  if constexpr (tabled_reg_bits<T>() > 0)
    if (simd->butterfly) lean.tab = pick_lean<T, tabled_reg_bits<T>(), false, true>(simd->reg_bits, simd->passes);
  if constexpr (butterfly_lanes<T>() != 0 && held_last_reg_bits<T>() > 0)
    if (simd->butterfly && !lean.fixed && simd->passes >= 2 && fixed_lanes<T>(*simd, true))
      lean.held_last = pick_lean<T, held_last_reg_bits<T>(), true, false, true>(simd->reg_bits, simd->passes);
  const auto shared = std::make_shared<const SimdTables>(std::move(*simd));
  return over_regions(tables.loops, elem_bytes, out_bytes, options,
                      [&](const BlockLoops& loops, const PrepareOptions& o) -> std::unique_ptr<PreparedBlocks> {
                        return std::make_unique<SimdBlocks>(shared, walk_loops(loops, elem_bytes, out_bytes), fn,
                                                            lean, o, elem_bytes, isa);
                      });
}
