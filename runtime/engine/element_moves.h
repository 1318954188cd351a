// A block program as element moves: its tables run once on input offsets instead of data tell
// which input element each output lane receives. The portable engine runs every program this
// way; the SIMD engines run sparse tail programs this way (few valid elements in many
// registers, where the butterfly would shuffle mostly padding).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/engine/block_tables.h"

namespace gentt::engine {

struct Move {
  std::int64_t in, out;  // bytes from the block bases (out: in output element bytes)
};
struct Run {
  std::size_t first, count;  // moves [first, first + count) land contiguously in the output
};
struct ElementMoves {
  std::vector<Move> moves;
  std::vector<Run> runs;
};

// For every (register, lane) of a program's final registers, the block lane its value comes
// from (register * lanes + lane, as loaded), or -1 where it is a don't-care: the program's
// shuffles followed on lane numbers instead of data.
std::vector<int> lane_sources(const ProgramTables& t, int lanes, bool butterfly);

ElementMoves element_moves(const ProgramTables& t, int lanes, bool butterfly, std::int64_t in_bytes,
                           std::int64_t out_bytes);

// Runs the moves of one block, `bytes` per element.
void run_moves(const ElementMoves& m, std::int64_t bytes, const char* in, char* out);

}  // namespace gentt::engine
