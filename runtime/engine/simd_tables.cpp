#include "runtime/engine/simd_tables.h"

#include <array>
#include <bit>
#include <cstring>

namespace gentt::engine {

namespace {

unsigned long long byte_mask(std::int64_t bytes) { return bytes >= 64 ? ~0ull : (1ull << bytes) - 1; }

// Whether every register pair of a pass can share one pair of index lists (they agree wherever
// both care); if so `merged` holds those two lists (for registers with bit `bit` clear and set;
// `bit` < 0: a reorder pass, one list, twice).
bool merge_pass(const ProgramTables& t, int s, int lanes, int bit, std::array<std::vector<LaneIndex>, 2>& merged) {
  merged[0].assign(static_cast<std::size_t>(lanes), -1);
  merged[1].assign(static_cast<std::size_t>(lanes), -1);
  for (std::size_t r = 0; r < t.load_offset.size(); ++r) {
    std::vector<LaneIndex>& m = merged[bit >= 0 ? (r >> bit) & 1 : 0];
    const LaneIndex* list = t.pass_list(s, r, lanes);
    for (int l = 0; l < lanes; ++l) {
      if (list[l] < 0) continue;
      if (m[l] >= 0 && m[l] != list[l]) return false;
      m[l] = list[l];
    }
  }
  if (bit < 0) merged[1] = merged[0];
  return true;
}

// Whether every group of g lanes takes g consecutive lanes of one source, g-aligned (don't-cares
// fit anything): then the shuffle moves units of g elements.
bool groups_move_whole(const LaneIndex* index, int lanes, int g) {
  for (int first = 0; first < lanes; first += g) {
    int start = -1;
    for (int j = 0; j < g; ++j) {
      const int i = index[first + j];
      if (i < 0) continue;
      if (start < 0) {
        start = i - j;
        if (start < 0 || start % g != 0) return false;
      } else if (i != start + j) {
        return false;
      }
    }
  }
  return true;
}

void put(unsigned char* out, int slot, int unit, long long value) {
  switch (unit) {
    case 1: out[slot] = static_cast<unsigned char>(value); break;
    case 2: { const auto v = static_cast<std::int16_t>(value); std::memcpy(out + 2 * slot, &v, 2); break; }
    case 4: { const auto v = static_cast<std::int32_t>(value); std::memcpy(out + 4 * slot, &v, 4); break; }
    default: { const auto v = static_cast<std::int64_t>(value); std::memcpy(out + 8 * slot, &v, 8); break; }
  }
}

// The unit-level index vector of an element-level list. Units of `unit` bytes: an element is
// elem_bytes / unit units (unit <= elem_bytes), or a group of g = unit / elem_bytes elements
// (unit > elem_bytes, the list moving whole groups). b's units start at vector_bytes / unit.
void expand(const LaneIndex* index, int lanes, std::int64_t elem_bytes, int unit, int vector_bytes, unsigned char* out) {
  const int per_reg = vector_bytes / unit;
  std::memset(out, 0, static_cast<std::size_t>(vector_bytes));
  if (unit <= elem_bytes) {
    const int per_elem = static_cast<int>(elem_bytes / unit);
    for (int l = 0; l < lanes; ++l) {
      if (index[l] < 0) continue;
      const int src_reg = index[l] / lanes, src_lane = index[l] % lanes;
      for (int j = 0; j < per_elem; ++j) put(out, l * per_elem + j, unit, src_reg * per_reg + src_lane * per_elem + j);
    }
    return;
  }
  const int g = static_cast<int>(unit / elem_bytes);
  for (int first = 0; first < lanes; first += g)
    for (int j = 0; j < g; ++j) {
      const int i = index[first + j];
      if (i < 0) continue;
      put(out, first / g, unit, (i / lanes) * per_reg + ((i % lanes) - j) / g);
      break;
    }
}

// The element-lane bit j where lists lo and hi (of registers r0 and r1 = r0 | 1 << pass) are the
// plain exchange of units of 2^j elements: r0 keeps its lanes with bit j clear and takes r1's
// below them, r1 gets the rest. Don't-care lanes (-1) match anything, as the generated kernels'
// plain_exchange (backends/avx512.cpp) takes them. -1 when no bit fits.
int plain_exchange_bit(const LaneIndex* lo, const LaneIndex* hi, int lanes) {
  for (int j = 0; (1 << j) < lanes; ++j) {
    const int m = 1 << j;
    bool match = true;
    for (int l = 0; l < lanes && match; ++l) {
      const bool set = (l & m) != 0;
      const int want_lo = set ? lanes + l - m : l, want_hi = set ? lanes + l : l + m;
      match = (lo[l] < 0 || lo[l] == want_lo) && (hi[l] < 0 || hi[l] == want_hi);
    }
    if (match) return j;
  }
  return -1;
}

// Whether every byte of an element-level list comes from the same 16-byte lane of its source
// register as it goes to (SimdProgram::lane_local_passes); don't-cares go anywhere.
bool bytes_stay_in_lanes(const LaneIndex* index, int lanes, std::int64_t elem_bytes) {
  for (int l = 0; l < lanes; ++l) {
    if (index[l] < 0) continue;
    const std::int64_t to = l * elem_bytes, from = (index[l] % lanes) * elem_bytes;
    for (std::int64_t j = 0; j < elem_bytes; ++j)
      if ((to + j) / 16 != (from + j) / 16) return false;
  }
  return true;
}

// The byte-lane bit L where index vectors lo and hi (units of `unit` bytes, as expand writes
// them) are the plain exchange of byte-lane bit L, else -1.
int vector_exchange_bit(const unsigned char* lo, const unsigned char* hi, int unit, int bytes) {
  const int lanes = bytes / unit;
  // Byte q of the result under index vector v: byte of concat(a, b) (b's from `bytes` on).
  auto source_byte = [&](const unsigned char* v, int q) {
    // put()'s little-endian entries of `unit` bytes; their values are below 2 * lanes.
    std::int64_t e = 0;
    std::memcpy(&e, v + (q / unit) * unit, static_cast<std::size_t>(unit));
    const int lane = static_cast<int>(e % lanes), from_b = static_cast<int>((e / lanes) & 1);
    return from_b * bytes + lane * unit + q % unit;
  };
  for (int bit = 0; (1 << bit) < bytes; ++bit) {
    const int m = 1 << bit;
    bool match = true;
    for (int q = 0; q < bytes && match; ++q) {
      const bool set = (q & m) != 0;
      match = source_byte(lo, q) == (set ? bytes + (q ^ m) : q) && source_byte(hi, q) == (set ? bytes + q : q ^ m);
    }
    if (match) return bit;
  }
  return -1;
}

// The kGatherBytes index vector (simd_tables.h) of an element-level list into `out` (32 bytes),
// or false where the list does not allow that form: an output dword whose bytes come from both
// 16-byte lanes, or more than four dwords from one lane. Don't-care lanes (-1) fit anything.
bool gather_bytes_index(const LaneIndex* index, int lanes, std::int64_t elem_bytes, unsigned char* out) {
  constexpr int kVector = 32, kDwords = 8;
  int source[kVector];  // byte of concat(a, b) that output byte q takes, or -1
  for (int q = 0; q < kVector; ++q) {
    const std::int64_t l = q / elem_bytes;
    source[q] = -1;
    if (l >= lanes || index[l] < 0) continue;
    source[q] = static_cast<int>((index[l] / lanes) * kVector + (index[l] % lanes) * elem_bytes + q % elem_bytes);
  }
  int lane_of[kDwords], used[2] = {0, 0}, slot[kDwords];
  for (int d = 0; d < kDwords; ++d) {
    lane_of[d] = -1;
    for (int k = 0; k < 4; ++k) {
      const int b = source[4 * d + k];
      if (b < 0) continue;
      const int lane = (b % kVector) / 16;
      if (lane_of[d] >= 0 && lane_of[d] != lane) return false;
      lane_of[d] = lane;
    }
    if (lane_of[d] >= 0) {
      if (used[lane_of[d]] == 4) return false;
      slot[d] = 4 * lane_of[d] + used[lane_of[d]]++;
    }
  }
  for (int d = 0; d < kDwords; ++d)  // dwords of don't-cares take any free slot
    if (lane_of[d] < 0) {
      const int lane = used[0] < 4 ? 0 : 1;
      slot[d] = 4 * lane + used[lane]++;
    }
  std::memset(out, 0x80, kVector);
  for (int d = 0; d < kDwords; ++d)
    for (int k = 0; k < 4; ++k) {
      const int b = source[4 * d + k];
      if (b >= 0) out[4 * slot[d] + k] = static_cast<unsigned char>((b % 16) | (b >= kVector ? 0x80 : 0));
    }
  for (int d = 0; d < kDwords; ++d) out[4 * d] = static_cast<unsigned char>((out[4 * d] & 0x8F) | (slot[d] << 4));
  return true;
}

// SimdProgram::shares_full: program `t` against program 0 (`full`, `full_sources`).
bool shares_full_shuffles(const ProgramTables& t, const ProgramTables& full, const std::vector<int>& full_sources,
                          int lanes, bool butterfly) {
  for (std::size_t r = 0; r < t.load_offset.size(); ++r) {
    if (t.load_count[r] > 0 && t.load_offset[r] != full.load_offset[r]) return false;
    if (t.store_count[r] > 0 && t.store_offset[r] != full.store_offset[r]) return false;
  }
  const std::vector<int> sources = lane_sources(t, lanes, butterfly);
  for (std::size_t r = 0; r < t.store_offset.size(); ++r)
    for (int l = 0; l < t.store_count[r]; ++l)
      if (sources[r * lanes + l] < 0 || sources[r * lanes + l] != full_sources[r * lanes + l]) return false;
  return true;
}

}  // namespace

std::string SimdTables::describe(const char* isa, bool gathers) const {
  const SimdProgram& p = programs.front();
  std::string text = std::string(isa) + " engine, full blocks: ";
  text += p.full_loads ? "whole-vector loads" : "masked loads";
  for (int s = 0; s < passes; ++s)
    text += ", pass " + std::to_string(s + 1) + ": " +
            (p.pass_unit[s] == kLaneLocalBytes    ? std::string("1-byte units within 16-byte lanes")
             : p.pass_unit[s] == kLaneLocalDwords ? std::string("4-byte units within 16-byte lanes")
             : gathers && ((p.gather_passes >> s) & 1) ? std::string("1-byte units gathered into dwords")
             : p.pass_unit[s] >= kButterflyLane ? "plain exchange of " +
                                                      std::to_string(1 << (p.pass_unit[s] - kButterflyLane)) +
                                                      "-byte lanes"
                                                : std::to_string(p.pass_unit[s]) + "-byte units") +
            ((p.uniform_passes >> s) & 1 ? " (one index pair)" : " (index per register)");
  text += p.full_stores ? ", whole-vector stores" : ", masked stores";
  return text;
}

std::optional<SimdTables> make_simd_tables(const BlockTables& tables, std::int64_t elem_bytes, int vector_bytes,
                                           unsigned units, int max_reg_bits, std::int64_t out_elem_bytes) {
  const bool gather_bytes = (units & kGatherUnits) != 0;
  units &= ~kGatherUnits;
  if (tables.lanes * elem_bytes > vector_bytes || tables.reg_bits > max_reg_bits) return std::nullopt;
  SimdTables out;
  out.vector_bytes = vector_bytes;
  out.reg_bits = tables.reg_bits;
  out.butterfly = tables.butterfly;
  out.loops = tables.loops;
  out.passes = tables.programs.empty() ? 0 : tables.programs[0].pass_count;
  if (out.passes > kMaxPasses) return std::nullopt;
  out.base_unit = 0;
  const int max_unit = static_cast<int>(std::bit_floor(units));
  for (int u = max_unit; u >= 1 && !out.base_unit; u /= 2)
    if ((units & static_cast<unsigned>(u)) && elem_bytes % u == 0) out.base_unit = u;
  const std::size_t regs = std::size_t{1} << tables.reg_bits;
  const int lanes = tables.lanes;
  std::vector<int> full_sources;  // program 0's, computed when a program needs the comparison
  std::array<std::vector<LaneIndex>, 2> merged;
  std::vector<const LaneIndex*> lists;
  out.programs.reserve(tables.programs.size());
  for (const auto& p : tables.programs) {
    if (p.pass_count != out.passes) return std::nullopt;
    SimdProgram sp;
    const bool first = &p == &tables.programs.front();
    // A program with program 0's lanes and index runs program 0's index vectors: none of its own.
    const bool reuse = !first && p.same_lanes_as_full && p.index == tables.programs[0].index;
    if (first || p.same_lanes_as_full) {
      sp.shares_full = true;
    } else {
      if (full_sources.empty()) full_sources = lane_sources(tables.programs[0], lanes, tables.butterfly);
      sp.shares_full = shares_full_shuffles(p, tables.programs[0], full_sources, lanes, tables.butterfly);
    }
    sp.full_loads = sp.full_stores = true;
    for (auto* v : {&sp.load_offset, &sp.store_offset, &sp.sink_offset}) v->reserve(regs);
    for (auto* v : {&sp.load_bytes, &sp.store_bytes}) v->reserve(regs);
    for (auto* v : {&sp.load_mask, &sp.store_mask}) v->reserve(regs);
    for (std::size_t r = 0; r < regs; ++r) {
      const auto lb = static_cast<std::int32_t>(p.load_count[r] * elem_bytes);
      const auto sb = static_cast<std::int32_t>(p.store_count[r] * elem_bytes);
      sp.load_offset.push_back(p.load_offset[r] * elem_bytes);
      sp.store_offset.push_back(p.store_offset[r] * elem_bytes);
      sp.sink_offset.push_back(p.store_offset[r] * out_elem_bytes);
      sp.load_bytes.push_back(lb);
      sp.store_bytes.push_back(sb);
      sp.load_mask.push_back(byte_mask(lb));
      sp.store_mask.push_back(byte_mask(sb));
      sp.full_loads &= lb == vector_bytes;
      sp.full_stores &= sb == vector_bytes;
    }
    if (reuse) {
      const SimdProgram& z = out.programs.front();
      sp.uniform_passes = z.uniform_passes;
      sp.lane_local_passes = z.lane_local_passes;
      std::memcpy(sp.pass_unit, z.pass_unit, sizeof sp.pass_unit);
      std::memcpy(sp.plain_lane_bit, z.plain_lane_bit, sizeof sp.plain_lane_bit);
      sp.gather_passes = z.gather_passes;
      // sp.index stays empty: the engines read program 0's (SimdProgram::index).
    }
    if (!reuse) sp.index.reserve(static_cast<std::size_t>(out.passes) * regs * static_cast<std::size_t>(vector_bytes));
    for (int s = 0; s < out.passes && !reuse; ++s) {
      const int bit = tables.butterfly ? s : -1;
      const bool uniform = merge_pass(p, s, lanes, bit, merged);
      if (uniform) sp.uniform_passes |= 1u << s;
      // The lists the engine reads: the merged pair, or every register's own.
      lists.clear();
      if (uniform)
        lists = {merged[0].data(), merged[1].data()};
      else
        for (std::size_t r = 0; r < regs; ++r) lists.push_back(p.pass_list(s, r, lanes));
      int unit = out.base_unit;
      for (int g = 2; g * elem_bytes <= max_unit && g <= lanes; g *= 2) {
        const std::int64_t bytes = g * elem_bytes;
        if (bytes != 2 && bytes != 4 && bytes != 8) break;
        bool ok = true;
        for (const LaneIndex* list : lists) ok = ok && groups_move_whole(list, lanes, g);
        if (!ok) break;
        if (units & static_cast<unsigned>(bytes)) unit = static_cast<int>(bytes);
      }
      if (unit == 0) return std::nullopt;
      sp.pass_unit[s] = static_cast<unsigned char>(unit);
      if (unit == 1 || unit == 4) {
        bool local = true;
        for (const LaneIndex* list : lists) local = local && bytes_stay_in_lanes(list, lanes, elem_bytes);
        if (local) sp.lane_local_passes |= 1u << s;
      }
      const std::size_t at = sp.index.size();
      sp.index.resize(at + regs * static_cast<std::size_t>(vector_bytes));
      auto slot = [&](std::size_t r) { return sp.index.data() + at + r * static_cast<std::size_t>(vector_bytes); };
      if (uniform) {  // a uniform pass reads the vectors of register 0 and of register 1 << s only
        if (bit >= 0 && std::has_single_bit(static_cast<std::uint64_t>(elem_bytes)) &&
            lanes * elem_bytes == vector_bytes)
          if (const int j = plain_exchange_bit(lists[0], lists[1], lanes); j >= 0)
            sp.plain_lane_bit[s] = static_cast<signed char>(j + std::countr_zero(static_cast<std::uint64_t>(elem_bytes)));
        expand(lists[0], lanes, elem_bytes, unit, vector_bytes, slot(0));
        if (bit >= 0) expand(lists[1], lanes, elem_bytes, unit, vector_bytes, slot(std::size_t{1} << bit));
      } else {
        for (std::size_t r = 0; r < regs; ++r) expand(lists[r], lanes, elem_bytes, unit, vector_bytes, slot(r));
      }
      // Uniform butterfly byte passes across lanes (the lean bodies' passes) also in the gather
      // form where both lists allow it. Plain exchanges of a byte-lane bit keep their fixed forms
      // (butterfly_lane_bit reads the vectors expand wrote).
      if (gather_bytes && unit == 1 && vector_bytes == 32 && uniform && bit >= 0 &&
          ((sp.lane_local_passes >> s) & 1) == 0 && sp.plain_lane_bit[s] < 0 &&
          vector_exchange_bit(slot(0), slot(std::size_t{1} << bit), 1, vector_bytes) < 0) {
        const std::size_t per_pass = regs * static_cast<std::size_t>(vector_bytes);
        sp.gather_index.resize(static_cast<std::size_t>(out.passes) * per_pass);
        unsigned char* gathered = sp.gather_index.data() + static_cast<std::size_t>(s) * per_pass;
        if (gather_bytes_index(lists[0], lanes, elem_bytes, gathered) &&
            gather_bytes_index(lists[1], lanes, elem_bytes, gathered + (std::size_t{1} << bit) * vector_bytes))
          sp.gather_passes |= 1u << s;
      }
    }
    // About 2 cycles an element moved singly, against a load, a store and a shuffle per pass
    // for every register of the butterfly.
    std::int64_t valid = 0;
    for (int c : p.load_count) valid += c;
    if (2 * valid < static_cast<std::int64_t>(regs) * (out.passes + 2))
      sp.moves = element_moves(p, tables.lanes, tables.butterfly, elem_bytes, out_elem_bytes);
    out.programs.push_back(std::move(sp));
  }
  return out;
}

int butterfly_lane_bit(const SimdTables& tables, const SimdProgram& p, int pass) {
  if (!tables.butterfly || pass >= tables.passes || !((p.uniform_passes >> pass) & 1) || p.index.empty()) return -1;
  if (p.plain_lane_bit[pass] >= 0) return p.plain_lane_bit[pass];
  const int unit = p.pass_unit[pass] == kLaneLocalBytes    ? 1
                   : p.pass_unit[pass] == kLaneLocalDwords ? 4
                                                           : p.pass_unit[pass];
  if (unit != 1 && unit != 2 && unit != 4 && unit != 8) return -1;
  const std::size_t per_pass = (std::size_t{1} << tables.reg_bits) * static_cast<std::size_t>(tables.vector_bytes);
  const unsigned char* lo = p.index.data() + static_cast<std::size_t>(pass) * per_pass;
  return vector_exchange_bit(lo, lo + (std::size_t{1} << pass) * static_cast<std::size_t>(tables.vector_bytes), unit,
                             tables.vector_bytes);
}

}  // namespace gentt::engine
