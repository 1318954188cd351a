// Validation of the arguments shared by every permute entry point.
//
// All gentt permute functions (the reference, the dispatching runtime) accept the same
// (elem_size, shape, perm) triple and reject the same mistakes with the same gentt::Error
// messages. Checking happens before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace gentt {

// Throws gentt::Error unless
//   - elem_size >= 1                                           ("elem_size: must be >= 1"),
//   - perm has as many entries as shape has axes               ("perm: has 3 entries but shape has 4 axes"),
//   - every extent is >= 1                                     ("shape[2]: extent must be >= 1"),
//   - perm is a permutation of 0..rank-1                       ("perm[1]: axis 7 is out of range for 4 axes",
//                                                               "perm: axis 3 appears twice"),
//   - element count * elem_size fits in int64_t                ("shape: element count * elem_size overflows 64 bits").
// Rank 0 (empty shape and perm) is valid: a single element.
// Returns the tensor's size in bytes.
std::int64_t check_permute_arguments(std::size_t elem_size, std::span<const std::int64_t> shape,
                                     std::span<const int> perm);

// Throws gentt::Error unless perm is a permutation of 0..rank-1 (the perm checks above).
void check_permutation(std::span<const int> perm, std::size_t rank);

// Throws gentt::Error unless src and dst are non-null and the byte ranges
// [src, src + bytes) and [dst, dst + bytes) are disjoint ("dst: overlaps src").
void check_buffers(const void* src, const void* dst, std::int64_t bytes);

}  // namespace gentt
