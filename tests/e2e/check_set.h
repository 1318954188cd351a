// Which runs the kernel checkers (kernel_check_test.cpp, arm_kernel_check.cpp) make of one
// kernel: buffers ending at a guard page and starting at one, each run whole and in 2, 3, 7 and
// 1000 parts (and from two threads). Tensors over 1 MiB (the tiled fixed cases, the checked-in
// kernels of real sizes) get one alignment and one part count: their tiles are what they add,
// the small random cases cover parts and alignments, and the full set for them was most of the
// suite's time under qemu and on the Sunway emulation.
#pragma once

#include <cstddef>
#include <vector>

#include "tests/runtime/guarded_buffer.h"

namespace gentt::test {

struct CheckSet {
  std::vector<GuardedBuffer::Align> aligns;
  std::vector<int> part_counts;
};

inline CheckSet check_set(std::size_t bytes) {
  if (bytes > (std::size_t{1} << 20)) return {{GuardedBuffer::Align::end}, {3}};
  return {{GuardedBuffer::Align::end, GuardedBuffer::Align::start}, {2, 3, 7, 1000}};
}

}  // namespace gentt::test
