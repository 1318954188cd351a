// Row loops for every (from, to, mode), instantiated once per instruction set.
//
// The loop bodies are written once (convert_loop, scale_loop) and inlined into thin entry
// points: the portable ones for baseline x86-64 (SSE2) or the build's default target, and, on
// x86 with GCC or Clang, copies compiled under __attribute__((target("avx2"))) that the CPU check
// in available_kernel_isas() unlocks. GCC needs -O3 (or -fvect-cost-model=dynamic) to vectorize
// loops with an unknown trip count; runtime/CMakeLists.txt compiles this file with -O3.
#include <cstring>
#include <type_traits>

#include "element_convert.h"
#include "row_kernels.h"
#include "target_arithmetic.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define GENTT_HAVE_AVX2_KERNELS 1
#define GENTT_TARGET_AVX2 __attribute__((target("avx2"), flatten))
#include <cpuid.h>
#else
#define GENTT_HAVE_AVX2_KERNELS 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GENTT_INLINE_LOOP __attribute__((always_inline)) inline
#define GENTT_FLATTEN __attribute__((flatten))
#define GENTT_RESTRICT __restrict__
#else
#define GENTT_INLINE_LOOP inline
#define GENTT_FLATTEN
#define GENTT_RESTRICT
#endif

namespace gentt::detail {
namespace {

template <class T>
inline constexpr bool is_scalable =
    std::is_floating_point_v<T> || is_half_precision<T> || is_complex<T>;

template <class From, class To>
GENTT_INLINE_LOOP void convert_loop(const void* src, void* dst, std::int64_t n) {
  if constexpr (std::is_same_v<From, To>) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(To));
  } else {
    const From* GENTT_RESTRICT in = static_cast<const From*>(src);
    To* GENTT_RESTRICT out = static_cast<To*>(dst);
    for (std::int64_t i = 0; i < n; ++i) out[i] = convert_value<To>(in[i]);
  }
}

template <class From, class To, bool kAccumulate>
GENTT_INLINE_LOOP void scale_loop(const void* src, void* dst, std::int64_t n, const RowTransform& t) {
  using Arithmetic = TargetArithmetic<To>;
  const From* GENTT_RESTRICT in = static_cast<const From*>(src);
  To* GENTT_RESTRICT out = static_cast<To*>(dst);
  const To alpha = Arithmetic::from_scalar(t.alpha);
  if constexpr (kAccumulate) {
    const To beta = Arithmetic::from_scalar(t.beta);
    for (std::int64_t i = 0; i < n; ++i)
      out[i] = Arithmetic::add(Arithmetic::mul(alpha, convert_value<To>(in[i])),
                               Arithmetic::mul(beta, out[i]));
  } else {
    for (std::int64_t i = 0; i < n; ++i) out[i] = Arithmetic::mul(alpha, convert_value<To>(in[i]));
  }
}

template <class From, class To>
GENTT_FLATTEN void convert_row_portable(const void* src, void* dst, std::int64_t n, const RowTransform&) {
  convert_loop<From, To>(src, dst, n);
}

template <class From, class To, bool kAccumulate>
GENTT_FLATTEN void scale_row_portable(const void* src, void* dst, std::int64_t n, const RowTransform& t) {
  scale_loop<From, To, kAccumulate>(src, dst, n, t);
}

#if GENTT_HAVE_AVX2_KERNELS
template <class From, class To>
GENTT_TARGET_AVX2 void convert_row_avx2(const void* src, void* dst, std::int64_t n, const RowTransform&) {
  convert_loop<From, To>(src, dst, n);
}

template <class From, class To, bool kAccumulate>
GENTT_TARGET_AVX2 void scale_row_avx2(const void* src, void* dst, std::int64_t n, const RowTransform& t) {
  scale_loop<From, To, kAccumulate>(src, dst, n, t);
}
#endif

template <class From, class To>
RowTransform::Fn pick_loop(RowMode mode, KernelIsa isa) {
  const bool avx2 = isa == KernelIsa::avx2 || isa == KernelIsa::avx512;  // avx512: the avx2 loops
#if !GENTT_HAVE_AVX2_KERNELS
  (void)avx2;
#endif
  if (mode == RowMode::plain) {
#if GENTT_HAVE_AVX2_KERNELS
    if (avx2) return &convert_row_avx2<From, To>;
#endif
    return &convert_row_portable<From, To>;
  }
  if constexpr (is_scalable<To>) {
    const bool accumulate = mode == RowMode::accumulate;
#if GENTT_HAVE_AVX2_KERNELS
    if (avx2) return accumulate ? &scale_row_avx2<From, To, true> : &scale_row_avx2<From, To, false>;
#endif
    return accumulate ? &scale_row_portable<From, To, true> : &scale_row_portable<From, To, false>;
  }
  return nullptr;
}

}  // namespace

#if GENTT_HAVE_AVX2_KERNELS
namespace {

// F16C is CPUID leaf 1, ECX bit 29. Not __builtin_cpu_supports("f16c"): GCC knows that name,
// Clang 14 does not ("invalid cpu feature string for builtin"), and the runtime builds with both.
bool cpu_has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
}

}  // namespace
#endif

std::vector<KernelIsa> available_kernel_isas() {
  std::vector<KernelIsa> isas = {KernelIsa::portable};
#if GENTT_HAVE_AVX2_KERNELS
  if (__builtin_cpu_supports("avx2") && cpu_has_f16c()) {
    isas.push_back(KernelIsa::avx2);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
      isas.push_back(KernelIsa::avx512);
  }
#endif
  return isas;
}

KernelIsa best_kernel_isa() {
  static const KernelIsa best = available_kernel_isas().back();
  return best;
}

RowTransform::Fn select_row_kernel(ScalarKind from, ScalarKind to, RowMode mode, KernelIsa isa) {
#if GENTT_HAVE_AVX2_KERNELS
  if (isa == KernelIsa::avx512 && mode == RowMode::plain)
    if (RowTransform::Fn half = avx512_half_row_kernel(from, to)) return half;
  if ((isa == KernelIsa::avx2 || isa == KernelIsa::avx512) && mode == RowMode::plain)
    if (RowTransform::Fn f16c = f16c_row_kernel(from, to)) return f16c;
#endif
  return with_storage_type(from, [&](auto from_type) {
    return with_storage_type(to, [&](auto to_type) {
      return pick_loop<typename decltype(from_type)::type, typename decltype(to_type)::type>(mode, isa);
    });
  });
}

}  // namespace gentt::detail
