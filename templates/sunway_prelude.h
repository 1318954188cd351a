// gentt Sunway prelude: embedded verbatim into every generated Sunway kernel file (followed by
// the scalar prelude); also compiled on its own in the gentt build (templates/compile_check.cpp)
// against the emulation header.
//
// Two chips, chosen by gentt-gen's --vector-bits:
// - 512 (default), SW26010-Pro CPE: elements whose size is a multiple of 4 bytes move as
//   32-bit words in intv16 registers (16 words); simd_vshfw shuffles the words of two
//   registers, steered by a control vector loaded from a constant table.
// - 256, SW26010 CPE: elements whose size is a multiple of 8 bytes move as 64-bit lanes in
//   doublev4 registers (4 lanes). Lanes are bit patterns, never values: loads, stores and
//   simd_vshff are pure moves, so NaN payloads survive. simd_vshff takes lanes 0-1 from one
//   register and 2-3 from one register; gentt composes it into sequences of at most two at
//   generation time (each sequence checked by simulation).
// Sub-word elements are moved with scalar code on Sunway: the only shuffles whose semantics
// are pinned down move whole 32-bit words (vshfw) or whole 64-bit lanes (vshff), so elements
// that are not whole units (1, 2, 3, 5, 6, 7 bytes ...; on SW26010 also 4, 12, 20 ...), or
// larger than a register, use the gentt_scalar helpers below. Each kernel says which it uses.
// (floatv4 is not used for 4-byte elements on SW26010: its register format is not a plain
// bit copy of memory, so bit-exact moves of arbitrary patterns are not pinned down.)
//
// Tails: Sunway has no masked loads or stores. A partial register goes through a zeroed stack
// buffer and a memcpy of exactly its bytes, so nothing outside the tensors is read or written.
//
// A Sunway compiler (__sw_64__ or __sw_slave__ defined) gets the intrinsics from <simd.h>.
// Any other compiler gets them from gentt's portable emulation header <gentt/sunway_emu.h>
// (installed with the gentt runtime headers): then these kernels are plain C++ that runs
// anywhere, bit-exact but slow, which is how gentt tests them.
#ifndef GENTT_SUNWAY_PRELUDE_H
#define GENTT_SUNWAY_PRELUDE_H

#if defined(__sw_64__) || defined(__sw_slave__)
#include <simd.h>
#else
#include <gentt/sunway_emu.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

// swgcc's load and store macros take pointers to the register's lane type; tensors hold opaque
// elements, so kernels view an element address as words (intv16) or 64-bit lanes (doublev4).
// Kernels never write through the pointers they load from.
inline int* gentt_sw_words(const void* p) { return static_cast<int*>(const_cast<void*>(p)); }
inline double* gentt_sw_lanes(const void* p) { return static_cast<double*>(const_cast<void*>(p)); }

#endif  // GENTT_SUNWAY_PRELUDE_H
