/* gentt_kernel_info: the descriptor a generated kernel exports next to its entry points.
 *
 * A generated file NAME.cpp may define
 *     extern "C" const gentt_kernel_info NAME_info;
 * so that a registry can find, check and call the kernel without knowing its name in advance.
 * Generated files are standalone, so they repeat this declaration under the same
 * GENTT_KERNEL_INFO_DEFINED guard: whichever copy is seen first wins, and both must mean the
 * same thing. Change the layout only together with GENTT_KERNEL_INFO_VERSION and the generator.
 * This header compiles as C and as C++.
 *
 * Fields:
 *   version      GENTT_KERNEL_INFO_VERSION of the generator that wrote the kernel. Readers must
 *                check it before using any other field.
 *   name         the kernel's C symbol, NAME (NUL-terminated).
 *   isa          the instruction set the kernel was generated for: "scalar", "avx2", "avx512",
 *                "avx512skx", "neon", "sve", "sve2" or "sunway".
 *   vector_bits  the vector length in bits the kernel was generated for (SVE: 128..2048,
 *                Sunway: 256 or 512, the register width for fixed-width ISAs). Not meaningful
 *                for "scalar".
 *   elem_bytes   the element size in bytes (>= 1; elements are moved, never interpreted).
 *   rank         the number of axes (>= 0; 0 is a single element).
 *   shape        the input shape in C order (last axis fastest), rank entries, each >= 1.
 *   perm         the NumPy axes: output axis k is input axis perm[k], rank entries. The output
 *                is C-contiguous with shape[perm[0]], ..., shape[perm[rank-1]], that is
 *                numpy.ascontiguousarray(numpy.transpose(in, perm)).
 *   run          NAME: performs the whole permutation, out = transpose(in).
 *   run_part     NAME_part, or NULL when the kernel was built without the partitioned entry
 *                point (spec "threads": false). run_part(in, out, p, n) for p = 0..n-1
 *                performs disjoint parts whose union is the whole permutation; the parts may
 *                run concurrently on different threads, in any order. n may be any value
 *                >= 1, including more parts than there is work (some parts are then empty).
 *
 *   features     the CPU features the kernel's code may use, a set of GENTT_FEATURE_* bits
 *                (below; 0 for scalar kernels). The caller must check that the CPU has every one
 *                before calling (gentt::cpu_features() in <gentt/cpu.h> gives this CPU's set).
 *   feature_names the same set as names, comma-separated in bit order, as GCC's target
 *                attribute spells them (e.g. "avx512f,avx512bw,avx512vl"); "" for none.
 *
 * For both entry points, in and out need only the element's natural alignment (none for opaque
 * bytesN elements) and must not overlap. A kernel reads only [in, in + N * elem_bytes) and
 * writes only [out, out + N * elem_bytes), where N is the product of shape.
 */
#ifndef GENTT_KERNEL_INFO_DEFINED
#define GENTT_KERNEL_INFO_DEFINED
#define GENTT_KERNEL_INFO_VERSION 2

/* CPU features (gentt_kernel_info.features). Bits only grow: a value never changes meaning. */
#define GENTT_FEATURE_AVX2 (1ull << 0)
#define GENTT_FEATURE_AVX512F (1ull << 1)
#define GENTT_FEATURE_AVX512BW (1ull << 2)
#define GENTT_FEATURE_AVX512VL (1ull << 3)
#define GENTT_FEATURE_AVX512VBMI (1ull << 4)
#define GENTT_FEATURE_NEON (1ull << 16)
#define GENTT_FEATURE_SVE (1ull << 17)
#define GENTT_FEATURE_SVE2 (1ull << 18)
#define GENTT_FEATURE_SUNWAY_SIMD (1ull << 24)
typedef struct gentt_kernel_info {
  int version;               /* GENTT_KERNEL_INFO_VERSION */
  const char* name;          /* the kernel's C symbol */
  const char* isa;           /* "scalar", "avx2", "avx512", "avx512skx", "neon", "sve", "sve2", "sunway" */
  int vector_bits;
  long long elem_bytes;
  int rank;
  const long long* shape;    /* input shape, C order, rank entries */
  const int* perm;           /* NumPy axes, rank entries */
  void (*run)(const void* in, void* out);
  void (*run_part)(const void* in, void* out, int part, int nparts); /* NULL when built without threads */
  unsigned long long features; /* GENTT_FEATURE_* bits the code may use */
  const char* feature_names;   /* the same, e.g. "avx512f,avx512bw,avx512vl" */
} gentt_kernel_info;
#endif
