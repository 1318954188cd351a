// BlockLoops (elements) as the walker's byte-stepped loops.
#pragma once

#include <vector>

#include "ir/loops.h"
#include "runtime/engine/walk.h"

namespace gentt::engine {

inline std::vector<WalkLoop> walk_loops(const BlockLoops& loops, std::int64_t in_elem_bytes,
                                        std::int64_t out_elem_bytes) {
  std::vector<WalkLoop> out;
  for (const auto& l : loops.loops)
    out.push_back({l.count, l.in_stride * in_elem_bytes, l.out_stride * out_elem_bytes, l.tail_bit});
  return out;
}

inline std::int64_t walk_iterations(const std::vector<WalkLoop>& loops) {
  std::int64_t n = 1;
  for (const auto& l : loops) n *= l.count;
  return n;
}

}  // namespace gentt::engine
