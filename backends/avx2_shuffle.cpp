#include "backends/avx2_shuffle.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/error.h"

namespace gentt {

namespace {

constexpr int kRegBytes = 32;
constexpr int kHalfBytes = 16;
constexpr int kZero = 0x80;          // pshufb index that zeroes its byte
constexpr int kSwapHalves = 0x4e;    // permute4x64 immediate: qwords 2 3 0 1
constexpr int kQwordIdentity = 0xe4; // permute4x64 immediate: qwords 0 1 2 3

// What one source supplies: byte p of the result is byte src[p] (0..31) of the source, or -1
// when the source does not supply it.
using SourceMap = std::array<int, kRegBytes>;

// A source moved to the bytes it supplies; `zeroing`: every other byte is 0 (so placements
// can be merged with OR).
struct Placement {
  Avx2Expr expr;
  bool zeroing = false;
};

Avx2Expr node(std::string op, std::vector<Avx2Expr> args, int imm = -1) {
  Avx2Expr e;
  e.op = std::move(op);
  e.args = std::move(args);
  e.imm = imm;
  return e;
}

Avx2Expr node_with_table(std::string op, std::vector<Avx2Expr> args, std::vector<int> table, int table_bytes) {
  Avx2Expr e = node(std::move(op), std::move(args));
  e.table = std::move(table);
  e.table_bytes = table_bytes;
  return e;
}

Avx2Expr pshufb(Avx2Expr x, std::vector<int> table) {
  return node_with_table("shuffle_epi8", {std::move(x)}, std::move(table), 1);
}

bool is_identity(const SourceMap& s) {
  for (int p = 0; p < kRegBytes; ++p)
    if (s[p] >= 0 && s[p] != p) return false;
  return true;
}

// A shift within 64-bit lanes: s[p] = p + d for a fixed d, without leaving the qword.
std::optional<Avx2Expr> qword_shift(const SourceMap& s, const Avx2Expr& x) {
  std::optional<int> d;
  for (int p = 0; p < kRegBytes; ++p) {
    if (s[p] < 0) continue;
    if (d && *d != s[p] - p) return std::nullopt;
    d = s[p] - p;
    if (s[p] / 8 != p / 8) return std::nullopt;
  }
  if (!d || *d == 0) return std::nullopt;
  return *d > 0 ? node("srli_epi64", {x}, 8 * *d) : node("slli_epi64", {x}, -8 * *d);
}

// The dword map when every supplied dword moves whole: dword q takes source dword D[q] (-1: none).
std::optional<std::array<int, 8>> dword_map(const SourceMap& s) {
  std::array<int, 8> d;
  d.fill(-1);
  for (int p = 0; p < kRegBytes; ++p) {
    if (s[p] < 0) continue;
    if (s[p] % 4 != p % 4) return std::nullopt;
    const int q = p / 4, from = s[p] / 4;
    if (d[q] >= 0 && d[q] != from) return std::nullopt;
    d[q] = from;
  }
  return d;
}

// pshufd: the same in-lane dword pattern in both 128-bit halves.
std::optional<int> pshufd_imm(const std::array<int, 8>& d) {
  std::array<int, 4> k = {0, 1, 2, 3};
  std::array<bool, 4> set{};
  for (int q = 0; q < 8; ++q) {
    if (d[q] < 0) continue;
    if (d[q] / 4 != q / 4) return std::nullopt;
    const int j = q % 4;
    if (set[j] && k[j] != d[q] % 4) return std::nullopt;
    k[j] = d[q] % 4;
    set[j] = true;
  }
  return k[0] | k[1] << 2 | k[2] << 4 | k[3] << 6;
}

// permute4x64: qwords move whole.
std::optional<int> qword_imm(const std::array<int, 8>& d) {
  int imm = 0;
  for (int r = 0; r < 4; ++r) {
    int t = -1;
    for (int j = 0; j < 2; ++j) {
      const int from = d[2 * r + j];
      if (from < 0) continue;
      if (from % 2 != j || (t >= 0 && t != from / 2)) return std::nullopt;
      t = from / 2;
    }
    imm |= (t < 0 ? r : t) << (2 * r);
  }
  return imm;
}

bool in_lane(const SourceMap& s) {
  for (int p = 0; p < kRegBytes; ++p)
    if (s[p] >= 0 && s[p] / kHalfBytes != p / kHalfBytes) return false;
  return true;
}

// pshufb table of the bytes selected by `take` (others zero).
template <class Take>
std::vector<int> pshufb_table(const SourceMap& s, const Take& take) {
  std::vector<int> t(kRegBytes, kZero);
  for (int p = 0; p < kRegBytes; ++p)
    if (s[p] >= 0 && take(p)) t[p] = s[p] % kHalfBytes;
  return t;
}

// permute4x64 bringing the (at most two) source qwords each output half needs into that half,
// then pshufb.
std::optional<Avx2Expr> qwords_then_pshufb(const SourceMap& s, const Avx2Expr& x) {
  std::array<int, 4> slot = {0, 1, 2, 3};  // result qword r of the permute = source qword slot[r]
  for (int half = 0; half < 2; ++half) {
    std::vector<int> need;
    for (int p = half * kHalfBytes; p < (half + 1) * kHalfBytes; ++p) {
      if (s[p] < 0) continue;
      const int w = s[p] / 8;
      if (std::find(need.begin(), need.end(), w) == need.end()) need.push_back(w);
    }
    if (need.size() > 2) return std::nullopt;
    // Keep a qword in place when it already is in this half (fewer moves to read).
    std::sort(need.begin(), need.end());
    if (need.size() == 1 && need[0] == 2 * half + 1) need.insert(need.begin(), 2 * half);
    for (size_t j = 0; j < need.size(); ++j) slot[2 * half + j] = need[j];
  }
  const int imm = slot[0] | slot[1] << 2 | slot[2] << 4 | slot[3] << 6;
  if (imm == kQwordIdentity) return std::nullopt;  // in lane: plain pshufb
  std::vector<int> t(kRegBytes, kZero);
  for (int p = 0; p < kRegBytes; ++p) {
    if (s[p] < 0) continue;
    const int half = p / kHalfBytes;
    const int j = slot[2 * half] == s[p] / 8 ? 0 : 1;
    t[p] = 8 * j + s[p] % 8;
  }
  return pshufb(node("permute4x64_epi64", {x}, imm), std::move(t));
}

// pshufb gathering, in each source half, the (at most 128 / unit_bits) result units it
// supplies, then a unit permute (permute4x64 for qwords, permutevar8x32 for dwords) putting
// them in place. Each supplied result unit must come from one source half.
std::optional<Avx2Expr> pshufb_then_units(const SourceMap& s, const Avx2Expr& x, int unit) {
  const int units = kRegBytes / unit, per_half = kHalfBytes / unit;
  std::vector<int> half_of(units, -1);
  for (int p = 0; p < kRegBytes; ++p) {
    if (s[p] < 0) continue;
    const int u = p / unit, h = s[p] / kHalfBytes;
    if (half_of[u] >= 0 && half_of[u] != h) return std::nullopt;
    half_of[u] = h;
  }
  std::vector<int> t(kRegBytes, kZero), from(units);
  std::array<int, 2> used = {0, 0};
  for (int u = 0; u < units; ++u) {
    from[u] = u;
    const int h = half_of[u];
    if (h < 0) continue;
    if (used[h] == per_half) return std::nullopt;
    const int slot = h * per_half + used[h]++;
    from[u] = slot;
    for (int c = 0; c < unit; ++c) {
      const int p = u * unit + c;
      if (s[p] >= 0) t[slot * unit + c] = s[p] % kHalfBytes;
    }
  }
  Avx2Expr gathered = pshufb(x, std::move(t));
  if (unit == 8) {
    const int imm = from[0] | from[1] << 2 | from[2] << 4 | from[3] << 6;
    if (imm == kQwordIdentity) return std::nullopt;  // in lane: plain pshufb
    return node("permute4x64_epi64", {std::move(gathered)}, imm);
  }
  return node_with_table("permutevar8x32_epi32", {std::move(gathered)}, from, 4);
}

// Two sources gathered by one pshufb each into disjoint units of each half, merged with
// blend_epi32, then put in place by one unit permute (permute4x64 for qwords, permutevar8x32
// for dwords): 3 shuffle-port uops for any map whose result units each come from one half of
// one source, at most 128 / unit_bits units per half (the compacting last butterfly step).
std::optional<Avx2Expr> gather_both_then_units(const Avx2ByteMap& map, int unit) {
  const int units = kRegBytes / unit, per_half = kHalfBytes / unit;
  std::vector<int> from(units, -1);  // result unit -> source half (0..3: a.lo a.hi b.lo b.hi)
  for (int p = 0; p < kRegBytes; ++p) {
    if (map[p] < 0) continue;
    const int u = p / unit, h = map[p] / kHalfBytes;
    if (from[u] >= 0 && from[u] != h) return std::nullopt;
    from[u] = h;
  }
  std::vector<int> ta(kRegBytes, kZero), tb(kRegBytes, kZero), place(units);
  std::array<int, 2> used = {0, 0};
  int blend = 0;
  for (int source = 0; source < 2; ++source) {
    for (int u = 0; u < units; ++u) {
      if (from[u] < 0 || from[u] / 2 != source) continue;
      const int half = from[u] % 2;
      if (used[half] == per_half) return std::nullopt;
      const int slot = half * per_half + used[half]++;
      place[u] = slot;
      if (source == 1) blend |= ((1 << (unit / 4)) - 1) << (slot * unit / 4);
      for (int c = 0; c < unit; ++c) {
        const int p = u * unit + c;
        if (map[p] >= 0) (source ? tb : ta)[slot * unit + c] = map[p] % kHalfBytes;
      }
    }
  }
  // Unused result units take any free slot (they are don't care).
  for (int u = 0; u < units; ++u)
    if (from[u] < 0) place[u] = u;
  Avx2Expr merged = node("blend_epi32", {pshufb(node("a", {}), std::move(ta)), pshufb(node("b", {}), std::move(tb))},
                         blend);
  if (unit == 8) {
    const int imm = place[0] | place[1] << 2 | place[2] << 4 | place[3] << 6;
    if (imm == kQwordIdentity) return std::nullopt;  // in lane: the placements cover it
    return node("permute4x64_epi64", {std::move(merged)}, imm);
  }
  return node_with_table("permutevar8x32_epi32", {std::move(merged)}, place, 4);
}

// The ways to place one source, cheapest kinds first.
std::vector<Placement> placements(const SourceMap& s, const Avx2Expr& x) {
  if (is_identity(s)) return {{x, false}};
  std::vector<Placement> out;
  if (auto e = qword_shift(s, x)) out.push_back({*e, false});
  if (auto d = dword_map(s)) {
    if (auto imm = pshufd_imm(*d)) out.push_back({node("shuffle_epi32", {x}, *imm), false});
    if (auto imm = qword_imm(*d)) out.push_back({node("permute4x64_epi64", {x}, *imm), false});
    std::vector<int> t(8);
    for (int q = 0; q < 8; ++q) t[q] = (*d)[q] < 0 ? q : (*d)[q];
    out.push_back({node_with_table("permutevar8x32_epi32", {x}, t, 4), false});
  }
  if (in_lane(s)) {
    out.push_back({pshufb(x, pshufb_table(s, [](int) { return true; })), true});
    return out;
  }
  if (auto e = qwords_then_pshufb(s, x)) out.push_back({*e, true});
  if (auto e = pshufb_then_units(s, x, 8)) {
    out.push_back({*e, false});
  } else if (auto e4 = pshufb_then_units(s, x, 4)) {
    out.push_back({*e4, false});
  }
  // Always possible: the bytes from the same half, OR those from the other half.
  Avx2Expr same = pshufb(x, pshufb_table(s, [&](int p) { return s[p] / kHalfBytes == p / kHalfBytes; }));
  Avx2Expr cross = pshufb(node("permute4x64_epi64", {x}, kSwapHalves),
                          pshufb_table(s, [&](int p) { return s[p] / kHalfBytes != p / kHalfBytes; }));
  out.push_back({node("or_si256", {std::move(same), std::move(cross)}), true});
  return out;
}

// Byte p of op(x, y), as a byte of concat(x, y) (0..31 x, 32..63 y).
using Form = std::function<int(int p)>;

Form unpack_form(int unit, bool high) {
  return [=](int p) {
    const int half = p / kHalfBytes, i = p % kHalfBytes;
    const int e = i / unit, c = i % unit;
    const int k = e / 2 + (high ? kHalfBytes / unit / 2 : 0);
    return (e % 2 ? kRegBytes : 0) + half * kHalfBytes + k * unit + c;
  };
}

Form alignr_form(int n) {  // alignr_epi8(x, y, n): per half, (x:y) >> n bytes
  return [=](int p) {
    const int half = p / kHalfBytes, j = p % kHalfBytes + n;
    return j < kHalfBytes ? kRegBytes + half * kHalfBytes + j : half * kHalfBytes + j - kHalfBytes;
  };
}

// Whether op(x, y) computes `map`, with (x, y) = (a, b) or, `swapped`, (b, a).
bool form_matches(const Avx2ByteMap& map, const Form& form, bool swapped) {
  for (int p = 0; p < kRegBytes; ++p) {
    if (map[p] < 0) continue;
    int want = map[p];
    if (swapped) want = (want + kRegBytes) % (2 * kRegBytes);
    if (form(p) != want) return false;
  }
  return true;
}

// Forms computing the whole shuffle with one two-source intrinsic.
std::vector<Avx2Expr> whole_forms(const Avx2ByteMap& map) {
  const Avx2Expr a = node("a", {}), b = node("b", {});
  std::vector<Avx2Expr> out;
  // permute2x128: each result half is one source half.
  {
    int imm = 0;
    bool ok = true;
    for (int half = 0; half < 2 && ok; ++half) {
      int pick = half;  // unused half: a's own
      bool set = false;
      for (int p = half * kHalfBytes; p < (half + 1) * kHalfBytes; ++p) {
        if (map[p] < 0) continue;
        const int h = map[p] / kHalfBytes;
        if (map[p] % kHalfBytes != p % kHalfBytes || (set && h != pick)) ok = false;
        pick = h;
        set = true;
      }
      imm |= pick << (4 * half);
    }
    if (ok) out.push_back(node("permute2x128_si256", {a, b}, imm));
  }
  static const char* const kUnpack[2][4] = {{"unpacklo_epi8", "unpacklo_epi16", "unpacklo_epi32", "unpacklo_epi64"},
                                            {"unpackhi_epi8", "unpackhi_epi16", "unpackhi_epi32", "unpackhi_epi64"}};
  for (int high = 0; high < 2; ++high)
    for (int w = 0; w < 4; ++w)
      for (bool swapped : {false, true})
        if (form_matches(map, unpack_form(1 << w, high), swapped))
          out.push_back(swapped ? node(kUnpack[high][w], {b, a}) : node(kUnpack[high][w], {a, b}));
  for (int n = 1; n < kHalfBytes; ++n)
    for (bool swapped : {false, true})
      if (form_matches(map, alignr_form(n), swapped))
        out.push_back(swapped ? node("alignr_epi8", {b, a}, n) : node("alignr_epi8", {a, b}, n));
  if (auto e = gather_both_then_units(map, 8)) out.push_back(*e);
  else if (auto e4 = gather_both_then_units(map, 4)) out.push_back(*e4);
  return out;
}

bool is_shuffle_port(const std::string& op) {
  return op == "shuffle_epi8" || op == "shuffle_epi32" || op == "permute4x64_epi64" ||
         op == "permutevar8x32_epi32" || op == "permute2x128_si256" || op == "alignr_epi8" ||
         op.rfind("unpack", 0) == 0;
}

}  // namespace

Avx2ByteMap avx2_byte_map(const std::vector<int>& index, int lanes, int64_t elem_bytes, bool same_sources) {
  GENTT_CHECK(lanes * elem_bytes <= kRegBytes, "lanes do not fit 256 bits");
  GENTT_CHECK(static_cast<int>(index.size()) == lanes, "shuffle index of the wrong length");
  Avx2ByteMap m;
  m.fill(-1);
  const int e = static_cast<int>(elem_bytes);
  for (int l = 0; l < lanes; ++l) {
    const int i = index[l];
    if (i < 0) continue;
    const int from = (i < lanes || same_sources ? 0 : kRegBytes) + (i % lanes) * e;
    for (int c = 0; c < e; ++c) m[l * e + c] = from + c;
  }
  return m;
}

Avx2Cost avx2_cost(const Avx2Expr& e) {
  Avx2Cost c;
  if (e.op == "a" || e.op == "b") return c;
  c.port5 = is_shuffle_port(e.op);
  c.uops = e.op == "blendv_epi8" ? 2 : 1;  // 2 on Skylake, 3 on Golden Cove, 1 on Zen
  c.tables = !e.table.empty();
  for (const auto& arg : e.args) {
    const Avx2Cost a = avx2_cost(arg);
    c.port5 += a.port5;
    c.uops += a.uops;
    c.tables += a.tables;
  }
  return c;
}

Avx2Expr lower_avx2_shuffle(const Avx2ByteMap& map) {
  SourceMap from_a, from_b;
  from_a.fill(-1);
  from_b.fill(-1);
  bool uses_a = false, uses_b = false;
  for (int p = 0; p < kRegBytes; ++p) {
    if (map[p] < 0) continue;
    GENTT_CHECK(map[p] < 2 * kRegBytes, "byte map out of range");
    if (map[p] < kRegBytes) {
      from_a[p] = map[p];
      uses_a = true;
    } else {
      from_b[p] = map[p] - kRegBytes;
      uses_b = true;
    }
  }
  const Avx2Expr a = node("a", {}), b = node("b", {});
  std::vector<Avx2Expr> candidates;
  if (!uses_b) {
    for (auto& pl : placements(from_a, a)) candidates.push_back(std::move(pl.expr));
  } else if (!uses_a) {
    for (auto& pl : placements(from_b, b)) candidates.push_back(std::move(pl.expr));
  } else {
    candidates = whole_forms(map);
    // Merge per dword with blend_epi32 when each dword comes from one source.
    int blend_imm = 0;
    bool dword_merge = true;
    std::vector<int> blendv_mask(kRegBytes, 0);
    for (int p = 0; p < kRegBytes; ++p) {
      if (from_b[p] >= 0) blendv_mask[p] = 0xff;
      const int q = p / 4;
      if (from_b[p] >= 0) blend_imm |= 1 << q;
    }
    for (int p = 0; p < kRegBytes; ++p)
      if (from_a[p] >= 0 && (blend_imm >> (p / 4) & 1)) dword_merge = false;
    const auto pa = placements(from_a, a), pb = placements(from_b, b);
    for (const auto& x : pa) {
      for (const auto& y : pb) {
        if (dword_merge)
          candidates.push_back(node("blend_epi32", {x.expr, y.expr}, blend_imm));
        else if (x.zeroing && y.zeroing)
          candidates.push_back(node("or_si256", {x.expr, y.expr}));
        else
          candidates.push_back(node_with_table("blendv_epi8", {x.expr, y.expr}, blendv_mask, 1));
      }
    }
  }
  if (candidates.empty()) return a;  // nothing is used: any value will do
  size_t best = 0;
  Avx2Cost best_cost = avx2_cost(candidates[0]);
  for (size_t i = 1; i < candidates.size(); ++i) {
    const Avx2Cost c = avx2_cost(candidates[i]);
    if (c < best_cost) {
      best = i;
      best_cost = c;
    }
  }
  return candidates[best];
}

std::string print_avx2_call(const Avx2Expr& e, const std::vector<std::string>& args, const std::string& table) {
  if (e.op == "a" || e.op == "b") return args.at(0);
  std::string s = fmt::format("_mm256_{}({}", e.op, fmt::join(args, ", "));
  if (!e.table.empty()) s += fmt::format(", gentt_avx2_table({})", table);
  if (e.imm >= 0) {
    const bool count = e.op == "slli_epi64" || e.op == "srli_epi64" || e.op == "alignr_epi8";
    s += count ? fmt::format(", {}", e.imm) : fmt::format(", 0x{:02x}", e.imm);
  }
  return s + ")";
}

std::string print_avx2_expr(const Avx2Expr& e, const std::string& a, const std::string& b,
                            const std::function<std::string(const Avx2Expr&)>& table_name) {
  if (e.op == "a") return a;
  if (e.op == "b") return b;
  std::vector<std::string> args;
  for (const auto& arg : e.args) args.push_back(print_avx2_expr(arg, a, b, table_name));
  return print_avx2_call(e, args, e.table.empty() ? "" : table_name(e));
}

}  // namespace gentt
