// Small integer helpers for power-of-two block arithmetic.
#pragma once

#include <bit>
#include <cstdint>

namespace gentt {

// ceil(log2(n)) for n >= 1: the bits an axis of extent n takes when padded to a power of two.
inline int ceil_log2(int64_t n) { return n <= 1 ? 0 : 64 - std::countl_zero(static_cast<uint64_t>(n - 1)); }
inline bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace gentt
