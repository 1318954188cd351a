// What every backend emits the same way around its block programs: the loop nest (an
// odometer whose base offsets step incrementally: no division per block), the entry points
// NAME / NAME_part (balanced parts, docs/ir.md) and the NAME_info descriptor.
// A backend supplies the element type and the body of each block program.
#pragma once

#include <functional>
#include <string>

#include "backends/backend.h"
#include "backends/code_writer.h"

namespace gentt {

struct SkeletonHooks {
  // C++ type of one element, e.g. "std::uint32_t" or "gentt_scalar::Bytes<3>".
  std::string elem_type;
  // Writes the statements of a block program of `kernel` (the unit's kernel or its streaming
  // variant): kernel.programs[index], or its unrolled form kernel.unrolled[index]; the
  // enclosing function is `inline void K_block<index>[_x<U>](const NAME_elem* in, NAME_elem* out)`
  // with K the kernel's name.
  std::function<void(CodeWriter&, const Kernel& kernel, const BlockProgram&, int index)> block_body;
  // A statement run first by NAME and NAME_part, e.g. SVE's vector length check; empty: none.
  std::string entry_check;
  // The statement that orders streaming stores before the kernel returns (e.g. a store fence);
  // required when the unit has a streaming variant.
  std::string stream_fence;
  // The statements (one per line) that copy the 64 bytes at `from` (any address) to the line at
  // `to` with non-temporal stores: staged output and streamed rows (ir/staging.h); required when
  // the kernel is staged.
  std::string stream_line;
  // The statements that send one stream's piece of an assembled tile to `out` (ir/assembly.h):
  // `d` (unsigned char*) is the piece's first byte in `out`, `b` (const unsigned char*) its first
  // byte in the buffer, at the same offset within a 64-byte line; `piece` (std::int64_t, at least
  // 64) its bytes; `c` (unsigned char*) the stream's 64-byte carry line; `cont_in` (bool): the
  // carry holds the bytes of the piece's first line before `d` (else they are not this call's to
  // write); `cont_out` (bool): the next tile continues the stream (keep the partial last line in
  // the carry, else write it). Whole lines go out with non-temporal stores, partial ones with
  // masked plain stores. Empty: the backend does not assemble (ir/assembly.h is not used).
  std::string assemble_stream;
};

// The kernel's whole section of the file.
std::string emit_kernel_skeleton(const KernelUnit& unit, const SkeletonHooks& hooks);

// The usual SIMD case: elements are opaque gentt_bytes<E> and `body` writes each block program.
std::string emit_kernel_skeleton(const KernelUnit& unit,
                                 const std::function<void(CodeWriter&, const Kernel&, const BlockProgram&)>& body,
                                 const std::string& stream_fence = "", const std::string& stream_line = "",
                                 const std::string& assemble_stream = "");

}  // namespace gentt
