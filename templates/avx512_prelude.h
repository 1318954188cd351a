// gentt AVX-512 prelude: embedded verbatim into every generated AVX-512 kernel file; also
// compiled on its own in the gentt build (templates/compile_check.cpp).
//
// The kernels need AVX-512 F and BW (and VBMI for 1-byte units). The file compiles with any
// flags: every function below this point is built for those features (GCC's target pragma,
// clang's attribute push), so callers must check the CPU (gentt-gen list-isas, or
// __builtin_cpu_supports("avx512bw") / ("avx512vbmi")) before calling a kernel.
#ifndef GENTT_AVX512_PRELUDE_H
#define GENTT_AVX512_PRELUDE_H

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#endif  // GENTT_AVX512_PRELUDE_H

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))), apply_to = function)
#define GENTT_AVX512_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vbmi")
#define GENTT_AVX512_END _Pragma("GCC pop_options")
#endif
