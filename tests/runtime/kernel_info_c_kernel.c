/* A hand-written kernel exported through gentt_kernel_info from C, as a generated kernel
 * exports it from C++. Compiled as strict C99: it proves gentt/kernel_info.h is valid C, and
 * kernel_info_test.cpp checks that C and C++ agree on the layout and can call through it.
 *
 * The kernel: int8, shape (2,3,4), perm (2,0,1); out[a][b][c] = in[b][c][a], output (4,2,3). */
#include <stddef.h>

#include "gentt/kernel_info.h"

static const long long kShape[3] = {2, 3, 4};
static const int kPerm[3] = {2, 0, 1};
enum { kCount = 24 };

/* Output elements [begin, end) in output linear order. */
static void copy_range(const signed char* in, signed char* out, int begin, int end) {
  int o;
  for (o = begin; o < end; ++o) {
    const int a = o / 6, b = o / 3 % 2, c = o % 3;
    out[o] = in[b * 12 + c * 4 + a];
  }
}

void gentt_test_c_kernel(const void* in, void* out) {
  copy_range((const signed char*)in, (signed char*)out, 0, kCount);
}

void gentt_test_c_kernel_part(const void* in, void* out, int part, int nparts) {
  copy_range((const signed char*)in, (signed char*)out, kCount * part / nparts,
             kCount * (part + 1) / nparts);
}

const gentt_kernel_info gentt_test_c_kernel_info = {
    GENTT_KERNEL_INFO_VERSION, "gentt_test_c_kernel", "scalar", 0, 1, 3, kShape, kPerm,
    gentt_test_c_kernel,       gentt_test_c_kernel_part, 0, ""};

/* The layout as C sees it: offsets of every field, then the size. */
const size_t gentt_test_c_kernel_info_layout[13] = {
    offsetof(gentt_kernel_info, version),     offsetof(gentt_kernel_info, name),
    offsetof(gentt_kernel_info, isa),         offsetof(gentt_kernel_info, vector_bits),
    offsetof(gentt_kernel_info, elem_bytes),  offsetof(gentt_kernel_info, rank),
    offsetof(gentt_kernel_info, shape),       offsetof(gentt_kernel_info, perm),
    offsetof(gentt_kernel_info, run),         offsetof(gentt_kernel_info, run_part),
    offsetof(gentt_kernel_info, features),    offsetof(gentt_kernel_info, feature_names),
    sizeof(gentt_kernel_info)};
