#include "backends/sve.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/lane_unit.h"
#include "backends/memcpy_block.h"
#include "backends/permute_pattern.h"
#include "backends/skeleton.h"
#include "ir/error.h"
#include "templates/templates.h"

namespace gentt {

namespace {

// How one shuffle is emitted.
struct SveShuffle {
  enum class Form { pattern, table1, table2, select };
  Form form = Form::table1;
  std::optional<PermutePattern> pattern;
  std::vector<int> table;   // unit indices (don't care = 0)
  std::vector<int> from_b;  // select: 1 where the unit comes from b
  int source = -1;          // table1: the value looked up
};

SveShuffle plan_shuffle(const LaneUnit& u, const Kernel& k, const Op& op) {
  std::vector<int> slots = expand_to_slots(op.index, k.lanes, u.per_elem, u.per_reg);
  SveShuffle s;
  s.pattern = recognize_permute(slots, 8 / u.bytes, op.b < 0);
  if (s.pattern) {
    s.form = SveShuffle::Form::pattern;
    return s;
  }
  bool any_a = false, any_b = false;
  for (int i : slots) {
    any_a |= i >= 0 && i < u.per_reg;
    any_b |= i >= u.per_reg;
  }
  if (op.b < 0 || !any_b || !any_a) {
    s.form = SveShuffle::Form::table1;
    s.source = op.b < 0 || !any_b ? op.a : op.b;
    for (int& i : slots) i = std::max(i, 0) % u.per_reg;
  } else if (u.bytes == 1 && 2 * u.per_reg > 256) {
    // Byte indices reach only 255: concat(a, b) has 512 bytes at 2048 bits. Look both up with
    // index mod 256 and select.
    s.form = SveShuffle::Form::select;
    for (int& i : slots) {
      s.from_b.push_back(i >= u.per_reg ? 1 : 0);
      i = std::max(i, 0) % u.per_reg;
    }
  } else {
    s.form = SveShuffle::Form::table2;
    for (int& i : slots) i = std::max(i, 0);
  }
  s.table = std::move(slots);
  return s;
}

class SveBackend final : public Backend {
 public:
  explicit SveBackend(bool sve2) : sve2_(sve2) {}
  Isa isa() const override { return sve2_ ? Isa::sve2 : Isa::sve; }

  std::string prelude() const override {
    std::string text(template_text("sve_prelude.h"));
    if (sve2_)
      text +=
          "\n#if !defined(__ARM_FEATURE_SVE2)\n"
          "#error \"gentt isa sve2 kernels use SVE2 (svtbl2): compile them with -march=armv8.2-a+sve2 "
          "-msve-vector-bits=N, or generate them with --isa sve\"\n"
          "#endif\n";
    return text;
  }

  std::string banner_note(const KernelUnit& unit) const override {
    const int bits = unit.problem.target.vector_bits;
    return fmt::format(
        "compile with -march=armv8.2-a+{} -msve-vector-bits={}; runs only where the SVE vector length is {} "
        "bits: its entry points check, and otherwise print why to stderr and abort",
        sve2_ ? "sve2" : "sve", bits, bits);
  }

  std::string kernel(const KernelUnit& unit) const override {
    const Kernel& k = unit.kernel;
    const int bits = unit.problem.target.vector_bits;
    SkeletonHooks hooks;
    hooks.elem_type = fmt::format("gentt_bytes<{}>", unit.problem.dtype.bytes);
    hooks.block_body = [&](CodeWriter& w, const Kernel& kernel, const BlockProgram& prog, int) {
      block_body(w, kernel, bits / 8, prog);
    };
    hooks.entry_check = fmt::format("gentt_sve::check_vector_length(\"{}\");", k.name);
    // The file must be compiled for the length the kernel was generated for: said first in the
    // kernel's section, after its header line.
    std::string text = emit_kernel_skeleton(unit, hooks);
    const std::string check = fmt::format(
        "static_assert(__ARM_FEATURE_SVE_BITS == {0}, \"kernel {1} was generated for {0}-bit SVE: compile it "
        "with -msve-vector-bits={0}\");\n",
        bits, k.name);
    return text.insert(text.find('\n') + 1, check);
  }

 private:
  void block_body(CodeWriter& w, const Kernel& k, int register_bytes, const BlockProgram& prog) const {
    if (k.elem_bytes > register_bytes) return emit_memcpy_block(w, k, prog);
    const LaneUnit u = LaneUnit::choose(k.elem_bytes, register_bytes);
    const std::string unit_type = fmt::format("std::uint{}_t", 8 * u.bytes);
    const std::string vec_type = fmt::format("gentt_sve::u{}", 8 * u.bytes);
    // Plan every shuffle first: tables are declared once per distinct list, up front.
    std::map<std::vector<int>, int> tables;
    std::vector<SveShuffle> shuffles;
    const auto declare = [&](const std::vector<int>& table) {
      if (tables.count(table)) return;
      const int id = static_cast<int>(tables.size());
      tables[table] = id;
      w.linef("static const {} kIndex{}[{}] = {{{}}};", unit_type, id, u.per_reg, fmt::join(table, ", "));
    };
    for (const auto& op : prog.ops) {
      if (op.kind != OpKind::shuffle) continue;
      shuffles.push_back(plan_shuffle(u, k, op));
      const SveShuffle& s = shuffles.back();
      if (s.form == SveShuffle::Form::pattern) continue;
      declare(s.table);
      if (s.form == SveShuffle::Form::select) declare(s.from_b);
    }
    size_t next_shuffle = 0;
    for (const auto& op : prog.ops) {
      const int units = op.count * u.per_elem;
      switch (op.kind) {
        case OpKind::load:
          w.linef("const {} v{} = gentt_sve::load<{}>(in + {}, {});", vec_type, op.dst, unit_type, op.offset, units);
          break;
        case OpKind::store:
          w.linef("gentt_sve::store<{}>(out + {}, v{}, {});", unit_type, op.offset, op.src, units);
          break;
        case OpKind::shuffle:
          w.linef("const {} v{} = {};", vec_type, op.dst,
                  shuffle_call(shuffles[next_shuffle++], op, u, unit_type, tables));
          break;
      }
    }
  }

  std::string shuffle_call(const SveShuffle& s, const Op& op, const LaneUnit& u, const std::string& unit_type,
                           const std::map<std::vector<int>, int>& tables) const {
    switch (s.form) {
      case SveShuffle::Form::pattern: {
        const PermutePattern& p = *s.pattern;
        const auto operand = [&](bool is_b) { return fmt::format("v{}", is_b && op.b >= 0 ? op.b : op.a); };
        if (p.op == PermutePattern::Op::copy) return operand(p.x_is_b);
        if (p.op == PermutePattern::Op::ext)
          return fmt::format("svext({}, {}, {})", operand(p.x_is_b), operand(p.y_is_b), p.ext_slots);
        return fmt::format("gentt_sve::{}<{}, {}>({}, {})", PermutePattern::name(p.op), unit_type,
                           p.width * u.bytes, operand(p.x_is_b), operand(p.y_is_b));
      }
      case SveShuffle::Form::table1:
        return fmt::format("gentt_sve::shuffle1<{}>(v{}, kIndex{})", unit_type, s.source, tables.at(s.table));
      case SveShuffle::Form::table2:
        return fmt::format("gentt_sve::{}<{}>(v{}, v{}, kIndex{})", sve2_ ? "shuffle2_sve2" : "shuffle2", unit_type,
                           op.a, op.b, tables.at(s.table));
      case SveShuffle::Form::select:
        return fmt::format("gentt_sve::shuffle2_select<{}>(v{}, v{}, kIndex{}, kIndex{})", unit_type, op.a, op.b,
                           tables.at(s.table), tables.at(s.from_b));
    }
    throw InternalError("unknown SVE shuffle form");
  }

  bool sve2_;
};

}  // namespace

const Backend& sve_backend() {
  static const SveBackend backend(false);
  return backend;
}

const Backend& sve2_backend() {
  static const SveBackend backend(true);
  return backend;
}

}  // namespace gentt
