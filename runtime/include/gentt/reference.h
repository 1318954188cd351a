// The reference permutation: plain, obviously correct, and the ground truth of every test.
//
// Semantics are NumPy's: for a C-contiguous input of shape S and a permutation perm of
// 0..rank-1, the output is C-contiguous with shape T[k] = S[perm[k]], and
//   out[j0, ..., j(rank-1)] = in[i]   where i[perm[k]] = j[k],
// i.e. out = numpy.ascontiguousarray(numpy.transpose(in, perm)).
// Elements are moved as bytes, never interpreted: any elem_size >= 1 works (3, 5, 12, ...) and
// bit patterns (NaN payloads, -0.0, padding) are preserved exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gentt/error.h"

namespace gentt {

// Writes the permutation of src into dst. Both hold element count * elem_size bytes, need no
// particular alignment, and must not overlap. Rank 0 (empty shape and perm) copies one
// element. Throws gentt::Error on invalid arguments (see gentt/arguments.h; also null or
// overlapping buffers), and then writes nothing.
//
// Runs in one pass over the output with incrementally stepped input offsets (no division per
// element); it makes no attempt at cache blocking, so large transposes are memory-latency bound.
void reference_permute(const void* src, void* dst, std::size_t elem_size,
                       std::span<const std::int64_t> shape, std::span<const int> perm);

// The output shape T[k] = shape[perm[k]]. Throws gentt::Error if perm is not a permutation of
// the axes of shape (extents are not checked).
std::vector<std::int64_t> permuted_shape(std::span<const std::int64_t> shape,
                                         std::span<const int> perm);

}  // namespace gentt
