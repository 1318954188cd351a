#include "backends/permute_pattern.h"

namespace gentt {

namespace {

using Op = PermutePattern::Op;

// Index into concat(a, b) of the slot `l` of the pattern's result, for a register of n slots.
int pattern_source(const PermutePattern& p, int n, int l) {
  const int x = p.x_is_b ? n : 0, y = p.y_is_b ? n : 0;
  if (p.op == Op::copy) return x + l;
  if (p.op == Op::ext) {
    const int s = p.ext_slots + l;
    return s < n ? x + s : y + (s - n);
  }
  const int w = p.width, m = n / w;  // m elements of w slots
  const int e = l / w, r = l % w;
  int from_y = 0, elem = 0;
  switch (p.op) {
    case Op::zip1: from_y = e % 2, elem = e / 2; break;
    case Op::zip2: from_y = e % 2, elem = m / 2 + e / 2; break;
    case Op::uzp1: from_y = e >= m / 2, elem = 2 * (e % (m / 2)); break;
    case Op::uzp2: from_y = e >= m / 2, elem = 2 * (e % (m / 2)) + 1; break;
    case Op::trn1: from_y = e % 2, elem = e - e % 2; break;
    case Op::trn2: from_y = e % 2, elem = e - e % 2 + 1; break;
    default: break;
  }
  return (from_y ? y : x) + elem * w + r;
}

bool matches(const PermutePattern& p, const std::vector<int>& slots, bool one_source) {
  const int n = static_cast<int>(slots.size());
  for (int l = 0; l < n; ++l) {
    if (slots[l] < 0) continue;
    const int source = pattern_source(p, n, l);
    if (slots[l] != (one_source ? source % n : source)) return false;
  }
  return true;
}

}  // namespace

const char* PermutePattern::name(Op op) {
  switch (op) {
    case Op::copy: return "copy";
    case Op::zip1: return "zip1";
    case Op::zip2: return "zip2";
    case Op::uzp1: return "uzp1";
    case Op::uzp2: return "uzp2";
    case Op::trn1: return "trn1";
    case Op::trn2: return "trn2";
    case Op::ext: return "ext";
  }
  return "?";
}

std::vector<int> expand_to_slots(const std::vector<int>& index, int lanes, int per_elem, int per_reg) {
  std::vector<int> slots(per_reg, -1);
  for (int l = 0; l < lanes; ++l) {
    const int i = index[l];
    if (i < 0) continue;
    const int base = i < lanes ? 0 : per_reg;
    for (int j = 0; j < per_elem; ++j) slots[l * per_elem + j] = base + (i % lanes) * per_elem + j;
  }
  return slots;
}

std::optional<PermutePattern> recognize_permute(const std::vector<int>& slots, int max_width, bool one_source) {
  const int n = static_cast<int>(slots.size());
  // Operand orders: (a, b), (b, a), (a, a), (b, b).
  static const bool kOrders[4][2] = {{false, true}, {true, false}, {false, false}, {true, true}};
  for (bool from_b : {false, true}) {
    PermutePattern p;
    p.op = Op::copy;
    p.x_is_b = from_b;
    if (matches(p, slots, one_source)) return p;
  }
  for (int w = max_width; w >= 1; w /= 2) {
    if (n / w < 2) continue;
    for (Op op : {Op::zip1, Op::zip2, Op::uzp1, Op::uzp2, Op::trn1, Op::trn2}) {
      for (const auto& order : kOrders) {
        PermutePattern p;
        p.op = op;
        p.width = w;
        p.x_is_b = order[0];
        p.y_is_b = order[1];
        if (matches(p, slots, one_source)) return p;
      }
    }
  }
  for (int k = 1; k < n; ++k) {
    for (const auto& order : kOrders) {
      PermutePattern p;
      p.op = Op::ext;
      p.ext_slots = k;
      p.x_is_b = order[0];
      p.y_is_b = order[1];
      if (matches(p, slots, one_source)) return p;
    }
  }
  return std::nullopt;
}

}  // namespace gentt
