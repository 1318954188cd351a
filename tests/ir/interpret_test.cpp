// The interpreter on hand-built IR: lane numbering and the shuffle index convention.
#include <catch2/catch.hpp>

#include <cstdint>

#include "ir/interpret.h"

using namespace gentt;

TEST_CASE("shuffle: index < lanes takes a, >= lanes takes b; lane 0 is the lowest address", "[interpret]") {
  Kernel k;
  k.name = "hand";
  k.elem_bytes = 4;
  k.lanes = 4;
  k.in_elements = 8;
  BlockProgram p;
  p.num_values = 3;
  p.ops.push_back(Op{OpKind::load, 0, -1, -1, -1, 0, 4, {}});
  p.ops.push_back(Op{OpKind::load, 1, -1, -1, -1, 4, 4, {}});
  p.ops.push_back(Op{OpKind::shuffle, 2, -1, 0, 1, 0, 0, {0, 4, 1, 5}});  // interleave low halves
  p.ops.push_back(Op{OpKind::store, -1, 2, -1, -1, 0, 4, {}});
  p.ops.push_back(Op{OpKind::store, -1, 1, -1, -1, 4, 3, {}});  // masked: 3 lanes
  k.programs.push_back(p);
  const uint32_t in[8] = {10, 11, 12, 13, 20, 21, 22, 23};
  uint32_t out[8] = {0, 0, 0, 0, 0, 0, 0, 99};
  interpret(k, in, out);
  CHECK(out[0] == 10);
  CHECK(out[1] == 20);
  CHECK(out[2] == 11);
  CHECK(out[3] == 21);
  CHECK(out[6] == 22);
  CHECK(out[7] == 99);  // beyond the store's count: untouched
}

TEST_CASE("loops: tail bits select programs on the last iteration; parts split flat iterations", "[interpret]") {
  Kernel k;
  k.name = "loops";
  k.elem_bytes = 1;
  k.lanes = 2;
  k.in_elements = 5;
  k.loops.push_back(LoopDim{3, 2, 2, 0, "axis 0 in chunks of 2 (last: 1)"});
  BlockProgram full, tail;
  full.num_values = tail.num_values = 1;
  full.ops = {Op{OpKind::load, 0, -1, -1, -1, 0, 2, {}}, Op{OpKind::store, -1, 0, -1, -1, 0, 2, {}}};
  tail.ops = {Op{OpKind::load, 0, -1, -1, -1, 0, 1, {}}, Op{OpKind::store, -1, 0, -1, -1, 0, 1, {}}};
  k.programs = {full, tail};
  const unsigned char in[5] = {1, 2, 3, 4, 5};
  for (int parts = 1; parts <= 5; ++parts) {
    unsigned char out[5] = {};
    for (int p = 0; p < parts; ++p) interpret_part(k, in, out, p, parts);
    CHECK(std::equal(in, in + 5, out));
  }
}
