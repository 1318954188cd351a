// gentt SVE prelude: embedded verbatim into every generated SVE and SVE2 kernel file. The ARM
// tests compile it with aarch64-linux-gnu-g++ (tests/e2e/arm.cmake).
//
// Kernels are generated for one vector length N (--vector-bits) and must be compiled for it:
//   -march=armv8.2-a+sve  -msve-vector-bits=N     (isa sve)
//   -march=armv8.2-a+sve2 -msve-vector-bits=N     (isa sve2)
// Registers are then ordinary fixed-length values (u8 ... u64 below, one per unit size: see
// backends/lane_unit.h); tails are predicated loads and stores (svwhilelt), which never touch
// memory of inactive lanes. Every entry point first checks that the CPU's vector length is N
// (check_vector_length); on a mismatch it prints a message naming the kernel and both lengths to
// stderr and aborts, because running on with the wrong length would move the wrong elements.
#ifndef GENTT_SVE_PRELUDE_H
#define GENTT_SVE_PRELUDE_H

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SVE)
#error "gentt SVE kernels need an AArch64 compiler with SVE: -march=armv8.2-a+sve -msve-vector-bits=N"
#endif
#if !defined(__ARM_FEATURE_SVE_BITS) || __ARM_FEATURE_SVE_BITS == 0
#error "gentt SVE kernels are fixed-length: compile them with -msve-vector-bits=N (N = the kernels' vector bits)"
#endif
#if defined(__ARM_BIG_ENDIAN)
#error "gentt SVE kernels assume little-endian lane order (lane 0 = lowest address)"
#endif

#include <arm_sve.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gentt_sve {

// Fixed-length registers of 1-, 2-, 4- and 8-byte units.
typedef svuint8_t u8 __attribute__((arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)));
typedef svuint16_t u16 __attribute__((arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)));
typedef svuint32_t u32 __attribute__((arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)));
typedef svuint64_t u64 __attribute__((arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)));

template <class T> struct vec_of;
template <> struct vec_of<std::uint8_t> { using type = u8; };
template <> struct vec_of<std::uint16_t> { using type = u16; };
template <> struct vec_of<std::uint32_t> { using type = u32; };
template <> struct vec_of<std::uint64_t> { using type = u64; };
template <class T> using vec = typename vec_of<T>::type;

// Units of T in one register.
template <class T>
constexpr int kUnits = __ARM_FEATURE_SVE_BITS / 8 / static_cast<int>(sizeof(T));

// The predicate of all units, and of units 0..count-1, of T.
template <class T>
inline svbool_t all() {
  if constexpr (sizeof(T) == 1) return svptrue_b8();
  else if constexpr (sizeof(T) == 2) return svptrue_b16();
  else if constexpr (sizeof(T) == 4) return svptrue_b32();
  else return svptrue_b64();
}
template <class T>
inline svbool_t prefix(int count) {
  if constexpr (sizeof(T) == 1) return svwhilelt_b8(0, count);
  else if constexpr (sizeof(T) == 2) return svwhilelt_b16(0, count);
  else if constexpr (sizeof(T) == 4) return svwhilelt_b32(0, count);
  else return svwhilelt_b64(0, count);
}

// Units 0..count-1 = the count units of T at p, the others zero. Reads exactly [p, p + count).
template <class T>
inline vec<T> load(const void* p, int count) {
  const svbool_t pg = count == kUnits<T> ? all<T>() : prefix<T>(count);
  return svld1(pg, static_cast<const T*>(p));
}

// The count units of T at p = units 0..count-1 of v. Writes exactly [p, p + count).
template <class T>
inline void store(void* p, vec<T> v, int count) {
  const svbool_t pg = count == kUnits<T> ? all<T>() : prefix<T>(count);
  svst1(pg, static_cast<T*>(p), v);
}

// Unit l of the result = unit index[l] of a (0 <= index[l] < kUnits): the one-source shuffle.
template <class T>
inline vec<T> shuffle1(vec<T> a, const T* index) {
  return svtbl(a, svld1(all<T>(), index));
}

// Unit l of the result = unit index[l] of concat(a, b) (0 <= index[l] < 2 kUnits): the IR's
// two-source shuffle in SVE (version 1): TBL zeroes the units whose index is out of range, so
// the units from a and those from b (index - kUnits) are looked up separately and ORed. Needs
// 2 kUnits - 1 to fit in T (not so for bytes at 2048 bits: see shuffle2_select).
template <class T>
inline vec<T> shuffle2(vec<T> a, vec<T> b, const T* index) {
  const svbool_t pg = all<T>();
  const auto i = svld1(pg, index);
  return svorr_x(pg, svtbl(a, i), svtbl(b, svsub_x(pg, i, static_cast<T>(kUnits<T>))));
}

#if defined(__ARM_FEATURE_SVE2)
// The same with SVE2's two-register TBL.
template <class T>
inline vec<T> shuffle2_sve2(vec<T> a, vec<T> b, const T* index) {
  return svtbl2(svcreate2(a, b), svld1(all<T>(), index));
}
#endif

// The two-source shuffle when 2 kUnits - 1 does not fit in T (bytes at 2048 bits): unit l is
// unit index[l] of b where from_b[l] != 0, else of a. The empty asm keeps the compiler from
// folding the constant table into a constant predicate: GCC 12 (aarch64, -msve-vector-bits=2048)
// stops with an internal compiler error ("unrecognizable insn ... UNSPEC_TRN1_CONV") on some
// kernels that do (found by scripts/soak).
template <class T>
inline vec<T> shuffle2_select(vec<T> a, vec<T> b, const T* index, const T* from_b) {
  const svbool_t pg = all<T>();
  const auto i = svld1(pg, index);
  auto select = svld1(pg, from_b);
  __asm__("" : "+w"(select));
  return svsel(svcmpne(pg, select, static_cast<T>(0)), svtbl(b, i), svtbl(a, i));
}

// Bit casts between unit sizes (to apply zip/uzp/trn at a wider element).
template <class T, class V>
inline vec<T> as(V v) {
  if constexpr (sizeof(T) == 1) return svreinterpret_u8(v);
  else if constexpr (sizeof(T) == 2) return svreinterpret_u16(v);
  else if constexpr (sizeof(T) == 4) return svreinterpret_u32(v);
  else return svreinterpret_u64(v);
}

// zip1/zip2/uzp1/uzp2/trn1/trn2 of registers x and y of units T, with elements of W bytes
// (a multiple of sizeof(T), at most 8).
#define GENTT_SVE_PAIR_OP(op)                                                                  \
  template <class T, int W>                                                                    \
  inline vec<T> op(vec<T> x, vec<T> y) {                                                       \
    static_assert(W % sizeof(T) == 0 && W <= 8, "element width: a multiple of the unit, <= 8"); \
    if constexpr (W == sizeof(T)) {                                                            \
      return sv##op(x, y);                                                                     \
    } else if constexpr (W == 2) {                                                             \
      return as<T>(sv##op(as<std::uint16_t>(x), as<std::uint16_t>(y)));                       \
    } else if constexpr (W == 4) {                                                             \
      return as<T>(sv##op(as<std::uint32_t>(x), as<std::uint32_t>(y)));                       \
    } else {                                                                                   \
      return as<T>(sv##op(as<std::uint64_t>(x), as<std::uint64_t>(y)));                       \
    }                                                                                          \
  }
GENTT_SVE_PAIR_OP(zip1)
GENTT_SVE_PAIR_OP(zip2)
GENTT_SVE_PAIR_OP(uzp1)
GENTT_SVE_PAIR_OP(uzp2)
GENTT_SVE_PAIR_OP(trn1)
GENTT_SVE_PAIR_OP(trn2)
#undef GENTT_SVE_PAIR_OP

// The CPU's SVE vector length in bits (RDVL; svcntb() would fold to the compile-time length).
inline long vector_bits_now() {
  long bytes;
  __asm__ volatile("rdvl %0, #1" : "=r"(bytes));
  return bytes * 8;
}

[[noreturn, gnu::cold]] inline void vector_length_mismatch(const char* kernel, long have_bits) {
  std::fprintf(stderr,
               "gentt: kernel %s was generated for %d-bit SVE vectors, but this CPU's SVE vector "
               "length is %ld bits; regenerate it with --vector-bits %ld (and compile with "
               "-msve-vector-bits=%ld)\n",
               kernel, __ARM_FEATURE_SVE_BITS, have_bits, have_bits, have_bits);
  std::abort();
}

// Every entry point's first statement: abort with a clear message unless the CPU's vector
// length is the one the kernel was generated and compiled for.
inline void check_vector_length(const char* kernel) {
  const long bits = vector_bits_now();
  if (bits != __ARM_FEATURE_SVE_BITS) vector_length_mismatch(kernel, bits);
}

}  // namespace gentt_sve

#endif  // GENTT_SVE_PRELUDE_H
