// The Sunway backend, two chips chosen by vector_bits:
// - 512 (SW26010-Pro CPE): elements of a multiple of 4 bytes move as 32-bit words in intv16
//   registers; every IR shuffle is one simd_vshfw with a constant control vector.
// - 256 (SW26010 CPE): elements of a multiple of 8 bytes move as 64-bit lanes in doublev4
//   registers; every IR shuffle is a sequence of at most two simd_vshff (sunway_vshff.h).
// Other elements (sub-word and odd sizes, and on SW26010 also 4-byte multiples) move with the
// scalar backend's code, elements wider than a register with memcpy. Tails (no masked ops on
// Sunway) go through zeroed stack buffers. The intrinsic forms are swgcc's; off Sunway the
// generated file includes gentt's emulation header (runtime/include/gentt/sunway_emu.h).
#pragma once

#include "backends/backend.h"

namespace gentt {

const Backend& sunway_backend();

}  // namespace gentt
