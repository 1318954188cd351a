#include "gentt/reference.h"

#include <cstring>

#include "gentt/arguments.h"

namespace gentt {
namespace {

// The permutation seen as one linear pass over the output. Output axis k (after dropping and
// fusing, below) has extent[k]; a step along it advances the output by the product of the
// inner extents and the input by in_stride[k] bytes. The innermost step moves `unit` bytes.
struct OutputWalk {
  std::vector<std::int64_t> extent;
  std::vector<std::int64_t> in_stride;  // bytes
  std::size_t unit = 0;                 // bytes copied per innermost step
};

OutputWalk plan_walk(std::size_t elem_size, std::span<const std::int64_t> shape,
                     std::span<const int> perm) {
  const std::size_t rank = shape.size();
  std::vector<std::int64_t> input_stride(rank);  // bytes, C order
  std::int64_t stride = static_cast<std::int64_t>(elem_size);
  for (std::size_t a = rank; a-- > 0;) {
    input_stride[a] = stride;
    stride *= shape[a];
  }

  OutputWalk walk;
  walk.unit = elem_size;
  for (std::size_t k = 0; k < rank; ++k) {
    const auto axis = static_cast<std::size_t>(perm[k]);  // validated: 0 <= perm[k] < rank
    const std::int64_t extent = shape[axis];
    const std::int64_t in_stride = input_stride[axis];
    if (extent == 1) continue;  // a size-1 axis moves nothing
    // The previous output axis steps the input by exactly one full sweep of this axis: the two
    // are one linear range in both tensors, so walk them as a single axis.
    if (!walk.extent.empty() && walk.in_stride.back() == extent * in_stride) {
      walk.extent.back() *= extent;
      walk.in_stride.back() = in_stride;
      continue;
    }
    walk.extent.push_back(extent);
    walk.in_stride.push_back(in_stride);
  }
  // An innermost axis that is contiguous in the input is contiguous in both: copy it as one run.
  if (!walk.extent.empty() &&
      walk.in_stride.back() == static_cast<std::int64_t>(elem_size)) {
    walk.unit *= static_cast<std::size_t>(walk.extent.back());
    walk.extent.pop_back();
    walk.in_stride.pop_back();
  }
  return walk;
}

// kUnit is walk.unit when known at compile time (so memcpy becomes one load and one store),
// or 0 to use walk.unit at run time.
template <std::size_t kUnit>
void run_walk(const unsigned char* in, unsigned char* out, const OutputWalk& walk) {
  const std::size_t unit = kUnit != 0 ? kUnit : walk.unit;
  if (walk.extent.empty()) {
    std::memcpy(out, in, unit);
    return;
  }
  const std::size_t outer = walk.extent.size() - 1;
  const std::int64_t inner_extent = walk.extent[outer];
  const std::int64_t inner_stride = walk.in_stride[outer];
  std::vector<std::int64_t> index(outer, 0);  // odometer over the outer output axes
  std::int64_t offset = 0;                    // input byte offset of the current inner run
  for (;;) {
    std::int64_t at = offset;
    for (std::int64_t i = 0; i < inner_extent; ++i, at += inner_stride, out += unit) {
      std::memcpy(out, in + at, unit);
    }
    // Advance the odometer, last outer axis fastest, stepping the input offset with it.
    std::size_t a = outer;
    for (;;) {
      if (a == 0) return;  // every outer axis wrapped: the output is complete
      --a;
      offset += walk.in_stride[a];
      if (++index[a] < walk.extent[a]) break;
      offset -= walk.in_stride[a] * walk.extent[a];
      index[a] = 0;
    }
  }
}

}  // namespace

void reference_permute(const void* src, void* dst, std::size_t elem_size,
                       std::span<const std::int64_t> shape, std::span<const int> perm) {
  const std::int64_t bytes = check_permute_arguments(elem_size, shape, perm);
  check_buffers(src, dst, bytes);

  const OutputWalk walk = plan_walk(elem_size, shape, perm);
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  switch (walk.unit) {
    case 1: return run_walk<1>(in, out, walk);
    case 2: return run_walk<2>(in, out, walk);
    case 4: return run_walk<4>(in, out, walk);
    case 8: return run_walk<8>(in, out, walk);
    case 16: return run_walk<16>(in, out, walk);
    default: return run_walk<0>(in, out, walk);
  }
}

std::vector<std::int64_t> permuted_shape(std::span<const std::int64_t> shape,
                                         std::span<const int> perm) {
  check_permutation(perm, shape.size());
  std::vector<std::int64_t> out(shape.size());
  for (std::size_t k = 0; k < perm.size(); ++k) out[k] = shape[static_cast<std::size_t>(perm[k])];
  return out;
}

}  // namespace gentt
