#include "backends/neon.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/memcpy_block.h"
#include "backends/permute_pattern.h"
#include "backends/skeleton.h"
#include "templates/templates.h"

namespace gentt {

namespace {

constexpr int kRegisterBytes = 16;

// How one shuffle is emitted: a fixed pattern, or a byte table over a, b or both.
struct NeonShuffle {
  std::optional<PermutePattern> pattern;
  std::vector<int> table;  // 16 byte indices (tbl1: 0..15, tbl2: 0..31); don't care = 0
  int source = -1;         // tbl1: the value looked up; -1: tbl2 over (a, b)
};

NeonShuffle plan_shuffle(const Kernel& k, const Op& op) {
  const int elem = static_cast<int>(k.elem_bytes);
  std::vector<int> slots = expand_to_slots(op.index, k.lanes, elem, kRegisterBytes);
  NeonShuffle s;
  s.pattern = recognize_permute(slots, 8, op.b < 0);
  if (s.pattern) return s;
  bool any_a = false, any_b = false;
  for (int i : slots) {
    any_a |= i >= 0 && i < kRegisterBytes;
    any_b |= i >= kRegisterBytes;
  }
  if (op.b < 0 || !any_b) {
    s.source = op.a;
  } else if (!any_a) {
    s.source = op.b;
    for (int& i : slots)
      if (i >= 0) i -= kRegisterBytes;
  }
  for (int& i : slots) i = std::max(i, 0);
  s.table = std::move(slots);
  return s;
}

std::string pattern_call(const PermutePattern& p, const Op& op) {
  const auto operand = [&](bool is_b) { return fmt::format("v{}", is_b && op.b >= 0 ? op.b : op.a); };
  switch (p.op) {
    case PermutePattern::Op::copy:
      return operand(p.x_is_b);
    case PermutePattern::Op::ext:
      return fmt::format("vextq_u8({}, {}, {})", operand(p.x_is_b), operand(p.y_is_b), p.ext_slots);
    default:
      return fmt::format("gentt_neon::{}<{}>({}, {})", PermutePattern::name(p.op), p.width, operand(p.x_is_b),
                         operand(p.y_is_b));
  }
}

void block_body(CodeWriter& w, const Kernel& k, const BlockProgram& prog) {
  if (k.elem_bytes > kRegisterBytes) return emit_memcpy_block(w, k, prog);
  // Plan every shuffle first: the byte tables are declared once per distinct list, up front.
  std::map<std::vector<int>, int> tables;
  std::vector<NeonShuffle> shuffles;
  for (const auto& op : prog.ops) {
    if (op.kind != OpKind::shuffle) continue;
    shuffles.push_back(plan_shuffle(k, op));
    const auto& table = shuffles.back().table;
    if (shuffles.back().pattern || tables.count(table)) continue;
    const int id = static_cast<int>(tables.size());
    tables[table] = id;
    w.linef("alignas(16) static const std::uint8_t kIndex{}[16] = {{{}}};", id, fmt::join(table, ", "));
  }
  size_t next_shuffle = 0;
  for (const auto& op : prog.ops) {
    const int64_t bytes = op.count * k.elem_bytes;
    switch (op.kind) {
      case OpKind::load:
        w.linef("const uint8x16_t v{} = gentt_neon::load<{}>(in + {});", op.dst, bytes, op.offset);
        break;
      case OpKind::store:
        w.linef("gentt_neon::store<{}>(out + {}, v{});", bytes, op.offset, op.src);
        break;
      case OpKind::shuffle: {
        const NeonShuffle& s = shuffles[next_shuffle++];
        if (s.pattern)
          w.linef("const uint8x16_t v{} = {};", op.dst, pattern_call(*s.pattern, op));
        else if (s.source >= 0)
          w.linef("const uint8x16_t v{} = gentt_neon::shuffle1(v{}, kIndex{});", op.dst, s.source,
                  tables.at(s.table));
        else
          w.linef("const uint8x16_t v{} = gentt_neon::shuffle2(v{}, v{}, kIndex{});", op.dst, op.a, op.b,
                  tables.at(s.table));
        break;
      }
    }
  }
}

class NeonBackend final : public Backend {
 public:
  Isa isa() const override { return Isa::neon; }
  std::string prelude() const override { return std::string(template_text("neon_prelude.h")); }
  std::string kernel(const KernelUnit& unit) const override { return emit_kernel_skeleton(unit, block_body); }
};

}  // namespace

const Backend& neon_backend() {
  static const NeonBackend backend;
  return backend;
}

}  // namespace gentt
