// BlockTables in the form the SIMD engines read: byte offsets, byte counts and masks per
// register, and each shuffle pass as unit-level index vectors of one register width, in the
// widest exact unit the ISA has (vpermt2d/q when aligned element groups move together), with
// one index pair per pass when every register pair agrees. ISA-neutral: the engines only load
// these tables (simd_body.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/engine/block_tables.h"
#include "runtime/engine/element_moves.h"

namespace gentt::engine {

inline constexpr int kMaxPasses = 8;
// A pass code next to the unit sizes 1, 2, 4, 8: 1-byte units where every byte comes from the
// same 16-byte lane of its source as it goes to (SimdProgram::lane_local_passes). An engine
// whose byte shuffle costs less then (AVX2: no lane crossing) runs such passes under this code.
inline constexpr int kLaneLocalBytes = 3;
// The same for 4-byte units (dwords, and 8-byte elements as dword pairs): every dword stays in
// its 16-byte lane. An engine whose in-lane dword shuffle costs less (AVX2: vpermilps, one uop,
// against vpermd) runs such passes under this code.
inline constexpr int kLaneLocalDwords = 5;
// Pass codes kButterflyLane + L (L = 0..5): a uniform butterfly pass that is the plain exchange
// of byte-lane bit L with its register bit (register r0 keeps its lanes with bit L clear and
// takes the same lanes of register r0 | 1 << s into the others; that one gets the rest), the
// form of most transposes' passes. An engine with a cheap fixed form for it (AVX2: unpack,
// permute2x128, shift and blend; no index vectors) runs such passes under this code
// (butterfly_lane_bit).
inline constexpr int kButterflyLane = 16;
// A pass code for 1-byte units on 32-byte vectors (SimdProgram::gather_passes, AVX2) where
// every 4-byte group of each output takes its bytes from one 16-byte lane of the sources (a and b
// together) and no lane feeds more than four groups: an in-lane byte shuffle of each source into
// dword slots, an or, and one dword permute of the slots into place, against four byte shuffles,
// two lane swaps and three blends for a general byte pass. Its index vector per register is
// byte c of the slots' byte shuffle: bits 0-3 the byte within its lane, bit 7 set when the byte
// comes from b (a's shuffle zeroes it; b's takes the index with bit 7 flipped); bits 4-6 of byte
// 4d hold the slot that output dword d takes (vpermd of the index shifted right by 4).
inline constexpr int kGatherBytes = 6;
// make_simd_tables' `units` flag: the ISA has the kGatherBytes form (its lean bodies run it).
inline constexpr unsigned kGatherUnits = 0x100;

struct SimdProgram {
  std::vector<std::int64_t> load_offset, store_offset;  // bytes, per register
  std::vector<std::int64_t> sink_offset;  // per register, output bytes of a converting plan's output type
  std::vector<std::int32_t> load_bytes, store_bytes;    // bytes moved, per register (0: none)
  std::vector<unsigned long long> load_mask, store_mask;  // the same as byte masks (AVX-512)
  // [pass][register] vectors of vector_bytes bytes; empty in a tail program that runs program 0's
  // shuffles (ProgramTables::same_lanes_as_full): the engines read program 0's then.
  std::vector<unsigned char> index;
  unsigned uniform_passes = 0;       // bit s: pass s uses the index vectors of registers 0 and 1 << s
  unsigned char pass_unit[kMaxPasses] = {};  // unit bytes of each pass (or kLaneLocalBytes, kLaneLocalDwords)
  // Bit s: pass s moves units of 1 or 4 bytes, each within its 16-byte lane.
  unsigned lane_local_passes = 0;
  // Bit s: pass s, of 1-byte units across lanes, has kGatherBytes vectors in gather_index (same
  // layout as index; the lean bodies run them, the generic body keeps index's byte form).
  unsigned gather_passes = 0;
  std::vector<unsigned char> gather_index;
  // Pass s's byte-lane bit L where its element lists are the plain exchange of L with don't-care
  // lanes matching anything (the index vectors hold 0 there, which butterfly_lane_bit's byte
  // comparison does not take as an exchange), else -1.
  signed char plain_lane_bit[kMaxPasses] = {-1, -1, -1, -1, -1, -1, -1, -1};
  bool full_loads = false, full_stores = false;
  // A tail program whose stored lanes come from the same block lanes as under program 0's
  // shuffles, with the same offsets for the registers it loads and stores: the engine runs it
  // with program 0's index vectors (kept in registers) and addresses, and its own masks. Its
  // padding lanes then carry whatever the full block's shuffles put there; no store writes them.
  // Program 0 shares with itself.
  bool shares_full = false;
  // A sparse program (a tail block holding little valid data) runs as element moves instead,
  // where they cost less than the butterfly over mostly padding (make_simd_tables).
  std::optional<ElementMoves> moves;
};

struct SimdTables {
  int vector_bytes = 0;
  int reg_bits = 0;
  int passes = 0;
  bool butterfly = true;
  int base_unit = 1;  // the unit every pass can use: the widest unit of the ISA dividing the element
  BlockLoops loops;
  std::vector<SimdProgram> programs;

  // gathers: the plan runs its gather_passes in that form (a lean body).
  std::string describe(const char* isa, bool gathers = false) const;
};

// nullopt when the element does not fit the vector, the tables need more registers than
// max_reg_bits or more passes than kMaxPasses, or a pass needs a unit the ISA lacks. `units`:
// the shuffle units the ISA has, as a mask of their byte sizes (1 | 2 | 4 | 8 for every unit;
// AVX2: 1 | 4, bytes and dwords).
// out_elem_bytes: the output element size of a converting plan (sink_offset), else elem_bytes.
// `units` | kGatherUnits: the ISA runs kGatherBytes passes (32-byte vectors): byte passes that
// are not within lanes get those vectors too where every register's list allows it.
// The byte-lane bit L when pass `pass` of program p (uniform, butterfly) is the plain exchange
// of byte-lane bit L (kButterflyLane), else -1. Reads the index vectors as make_simd_tables
// wrote them: units of 1 (or kLaneLocalBytes), 2, 4 (or kLaneLocalDwords) or 8 bytes.
int butterfly_lane_bit(const SimdTables& tables, const SimdProgram& p, int pass);

std::optional<SimdTables> make_simd_tables(const BlockTables& tables, std::int64_t elem_bytes, int vector_bytes,
                                           unsigned units, int max_reg_bits, std::int64_t out_elem_bytes);

}  // namespace gentt::engine
