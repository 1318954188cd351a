// gentt::permute: tensor permutation for shapes known only at run time.
//
//   gentt::PermuteDesc d;
//   d.dtype = "float32";               // or d.elem_bytes = N for opaque N-byte elements
//   d.shape = {64, 32, 32, 4};         // input shape, C order
//   d.perm  = {2, 1, 0, 3};            // NumPy axes
//   gentt::PermutePlan p = gentt::plan_permute(d);   // plan once ...
//   p.execute(in, out);                               // ... run many times, from any thread
//   gentt::permute(in, out, d);                       // or: plan through a thread-safe cache
//
// Semantics are NumPy's: out = np.ascontiguousarray(np.transpose(in, perm)), or with strides,
// out_view[j] = in_view[i] with i[perm[k]] = j[k] for every index, where
//   in_view  element (i0..)  is at  in  + sum i_a * in_strides[a]   elements,
//   out_view element (j0..)  is at  out + sum j_k * out_strides[k]  elements (out_strides are
//   given per OUTPUT axis, like the strides of the output array).
// Elements are moved as bytes (bit patterns kept) unless a conversion or scaling is asked for.
//
// How it runs (docs/runtime.md): the GenTT planner (ir/) picks the register block for the
// canonical problem at plan time; its block programs become tables (load offsets and masks,
// two-source shuffle indices per butterfly step, store offsets) that an ISA-specific block
// engine (AVX-512, AVX2, portable) executes over the plan's loop nest, split into balanced
// parts for the library's thread pool. No compiler runs at run time.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gentt/error.h"
#include "gentt/kernel_info.h"

namespace gentt {

struct PermuteDesc {
  // The element type: a dtype name ("float32", "uint8", "complex128", "bfloat16", "bytes12",
  // ...), or empty and elem_bytes = N (1..4096) for opaque N-byte elements.
  std::string dtype;
  std::int64_t elem_bytes = 0;
  std::vector<std::int64_t> shape;  // input shape, C order; extents >= 1; rank 0..64
  std::vector<int> perm;            // NumPy axes: output axis k is input axis perm[k]
  // Strides in elements; empty: C-contiguous. in_strides per input axis (any sign, 0 allowed:
  // broadcasting reads); out_strides per output axis (no two output elements may share an
  // address).
  std::vector<std::int64_t> in_strides;
  std::vector<std::int64_t> out_strides;
  // Fused conversion: the output's dtype name ("" = same as dtype). Needs named dtypes.
  std::string out_dtype;
  // Scaling (HPTT's interface): out = alpha * permute(in) + beta * out, for float, double and
  // complex outputs (imaginary parts 0 for real ones). beta == 0 never reads out.
  std::complex<double> alpha{1.0, 0.0};
  std::complex<double> beta{0.0, 0.0};
  int threads = 1;                  // 0 = every core of the machine; else 1..1024
  // "auto" (best this CPU runs), "avx512" (AVX-512 F/BW/VL, and VBMI's byte permutes where the
  // CPU has them), "avx512skx" (the same never using VBMI, as on Skylake-SP), "avx2", "scalar".
  std::string isa = "auto";
};

class PermutePlan {
 public:
  PermutePlan();  // an empty plan; execute() throws
  ~PermutePlan();
  PermutePlan(const PermutePlan&);
  PermutePlan& operator=(const PermutePlan&);
  PermutePlan(PermutePlan&&) noexcept;
  PermutePlan& operator=(PermutePlan&&) noexcept;

  // Runs the permutation. in and out need no particular alignment (an element's own alignment
  // suffices) and must not overlap (checked: gentt::Error "out: overlaps in", nothing written).
  // Thread-safe: one plan may execute concurrently from several threads on different buffers.
  void execute(const void* in, void* out) const;

  // Part `part` of `nparts` of the permutation on the calling thread, for callers with their own
  // threads (OpenMP, a task system): the parts p = 0..nparts-1 are disjoint, their union is the
  // whole, and they may run concurrently in any order (the generated kernels' NAME_part rule).
  // Ignores the plan's `threads`. nparts >= 1; part in [0, nparts) (else gentt::Error).
  void execute_part(const void* in, void* out, int part, int nparts) const;

  // What was planned: the canonical problem, the engine and ISA, the block, loops and parts.
  std::string describe() const;
  // The ISA the plan runs on ("avx512", "avx512skx", "avx2", "scalar") or "registered:<NAME>" for a kernel
  // registered with register_kernel().
  std::string isa() const;
  std::int64_t in_bytes() const;   // bytes the input view spans (elements * input size)
  std::int64_t out_bytes() const;  // bytes of the output (elements * output size)

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
  friend PermutePlan plan_permute(const PermuteDesc& desc);
};

// Validates desc and plans. Throws gentt::Error naming the argument ("perm[1]: ...",
// "shape[2]: ...", "in_strides: ...", "out_dtype: ...", "threads: ...", "isa: ...").
PermutePlan plan_permute(const PermuteDesc& desc);

// plan_permute through a process-wide, thread-safe cache (keyed by every field of desc), then
// execute.
void permute(const void* in, void* out, const PermuteDesc& desc);

// Makes a generated kernel (gentt_add_kernels, <gentt/kernel_info.h>) the one plans use for
// exactly its problem: same element size, shape and perm, both tensors contiguous, no
// conversion or scaling, and an ISA this CPU runs. Kernels registered later win. The
// descriptor must outlive every plan that uses it. Throws gentt::Error ("info: ...") for a
// descriptor of another version or an invalid one.
void register_kernel(const gentt_kernel_info* info);

// The number of cores the "threads = 0" setting uses.
int hardware_threads();

}  // namespace gentt
