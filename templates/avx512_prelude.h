// gentt AVX-512 prelude: embedded verbatim into every generated AVX-512 kernel file; also
// compiled on its own in the gentt build (templates/compile_check.cpp).
//
// The kernels need the CPU features their banner and NAME_info.features declare: AVX-512 F, BW,
// VL, and VBMI for the avx512 level (avx512skx: no VBMI). The file compiles with any flags: the
// backend follows this prelude with a target pragma (GCC) or attribute push (clang) naming
// exactly those features, so every kernel function is built for them and nothing else; callers
// must check the CPU (gentt::cpu_features(), or gentt-gen list-isas) before calling a kernel.
#ifndef GENTT_AVX512_PRELUDE_H
#define GENTT_AVX512_PRELUDE_H

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>  // std::malloc: the buffers of staged and assembled output (ir/staging.h, ir/assembly.h)
#include <cstring>

#endif  // GENTT_AVX512_PRELUDE_H
