#include "backends/scalar.h"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/skeleton.h"
#include "ir/error.h"
#include "templates/templates.h"

namespace gentt {

namespace {

// Named dtypes of 1, 2, 4, 8 bytes move as unsigned integers (natural alignment, as the ABI
// requires); everything else, and every bytesN (no alignment promised), as byte arrays.
std::string element_type(const Problem& p) {
  const bool opaque = p.dtype.name.rfind("bytes", 0) == 0;
  if (!opaque) {
    switch (p.dtype.bytes) {
      case 1: return "std::uint8_t";
      case 2: return "std::uint16_t";
      case 4: return "std::uint32_t";
      case 8: return "std::uint64_t";
      default: break;
    }
  }
  return fmt::format("gentt_bytes<{}>", p.dtype.bytes);
}

void block_body(CodeWriter& w, const Kernel& k, const BlockProgram& prog) {
  const std::string& n = k.name;
  // One table per distinct index list (butterfly pairs repeat the same lists, paper 4.3).
  std::map<std::vector<int>, int> tables;
  for (const auto& op : prog.ops) {
    if (op.kind != OpKind::shuffle || tables.count(op.index)) continue;
    const int id = static_cast<int>(tables.size());
    tables[op.index] = id;
    std::vector<int> shown;
    for (int i : op.index) shown.push_back(i < 0 ? 0 : i);  // don't care -> lane 0 of a
    w.linef("static const std::int8_t kIndex{}[{}] = {{{}}};", id, k.lanes, fmt::join(shown, ", "));
  }
  if (prog.num_values > 0) {
    std::vector<std::string> regs;
    for (int v = 0; v < prog.num_values; ++v) regs.push_back(fmt::format("v{}[{}]", v, k.lanes));
    w.linef("{}_elem {};", n, fmt::join(regs, ", "));
  }
  for (const auto& op : prog.ops) {
    switch (op.kind) {
      case OpKind::load:
        w.linef("gentt_scalar::load(v{}, in + {}, {});", op.dst, op.offset, op.count);
        break;
      case OpKind::shuffle:
        if (op.b >= 0)
          w.linef("gentt_scalar::shuffle2<{}>(v{}, v{}, v{}, kIndex{});", k.lanes, op.dst, op.a, op.b,
                  tables.at(op.index));
        else
          w.linef("gentt_scalar::shuffle1<{}>(v{}, v{}, kIndex{});", k.lanes, op.dst, op.a, tables.at(op.index));
        break;
      case OpKind::store:
        w.linef("gentt_scalar::store(out + {}, v{}, {});", op.offset, op.src, op.count);
        break;
    }
  }
}

class ScalarBackend final : public Backend {
 public:
  Isa isa() const override { return Isa::scalar; }
  std::string prelude() const override { return std::string(template_text("scalar_prelude.h")); }
  std::string kernel(const KernelUnit& unit) const override {
    GENTT_CHECK(unit.kernel.lanes <= 64, "scalar shuffle tables hold indices < 128");
    SkeletonHooks hooks;
    hooks.elem_type = element_type(unit.problem);
    hooks.block_body = [&](CodeWriter& w, const Kernel& k, const BlockProgram& prog, int) { block_body(w, k, prog); };
    return emit_kernel_skeleton(unit, hooks);
  }
};

}  // namespace

const Backend& scalar_backend() {
  static const ScalarBackend backend;
  return backend;
}

void emit_scalar_block(CodeWriter& w, const Kernel& k, const BlockProgram& prog) {
  GENTT_CHECK(k.lanes <= 64, "scalar shuffle tables hold indices < 128");
  block_body(w, k, prog);
}

}  // namespace gentt
