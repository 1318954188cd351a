#include "backends/sunway.h"

#include <array>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/lane_unit.h"
#include "backends/memcpy_block.h"
#include "backends/scalar.h"
#include "backends/skeleton.h"
#include "backends/sunway_vshff.h"
#include "ir/error.h"
#include "templates/templates.h"

namespace gentt {

namespace {

// What differs between the two chips: the backend's one table.
struct Chip {
  const char* name;       // for comments
  const char* reg;        // register type
  const char* lane_type;  // C type of one register lane (unit), for stack buffers
  const char* view;       // prelude helper viewing an element address as lane_type*
  const char* shuffle;    // the shuffle intrinsic
  int unit_bytes;         // bytes per lane
  int register_bytes;
};

Chip chip_for(int vector_bits) {
  if (vector_bits == 256) return {"SW26010", "doublev4", "double", "gentt_sw_lanes", "simd_vshff", 8, 32};
  GENTT_CHECK(vector_bits == 512, "sunway vector_bits must be 256 or 512");
  return {"SW26010-Pro", "intv16", "int", "gentt_sw_words", "simd_vshfw", 4, 64};
}

enum class Mode { vector, scalar, memcpy };

Mode mode_for(const Kernel& k, const Chip& c) {
  if (k.elem_bytes > c.register_bytes) return Mode::memcpy;
  return k.elem_bytes % c.unit_bytes == 0 ? Mode::vector : Mode::scalar;
}

// What the kernel's comment and the file's banner say about how its elements move.
std::string mode_note(const Kernel& k, const Chip& c) {
  const int64_t units = k.elem_bytes / c.unit_bytes;
  switch (mode_for(k, c)) {
    case Mode::vector:
      return fmt::format("{} ({}, {}): {}-byte elements as {} {}-bit lane{} each, {} elements per register.",
                         c.name, c.reg, c.shuffle, k.elem_bytes, units, c.unit_bytes * 8, units == 1 ? "" : "s",
                         k.lanes);
    case Mode::scalar:
      return fmt::format("{}: {}-byte elements are not whole {}-bit lanes, and {} moves whole lanes only: "
                         "sub-word elements are moved with scalar code on Sunway (gentt_scalar).",
                         c.name, k.elem_bytes, c.unit_bytes * 8, c.shuffle);
    case Mode::memcpy:
      return fmt::format("{}: {}-byte elements are wider than the {}-byte register: moved with memcpy.", c.name,
                         k.elem_bytes, c.register_bytes);
  }
  return {};
}

// Element indices (-1 = don't care) as register lane indices; b's lanes start at per_reg.
// Lanes past the last element, and don't cares, stay -1.
std::vector<int> lane_indices(const std::vector<int>& index, int lanes, const LaneUnit& u) {
  std::vector<int> out(u.per_reg, -1);
  for (int l = 0; l < lanes; ++l) {
    if (index[l] < 0) continue;
    const int base = index[l] < lanes ? 0 : u.per_reg;
    for (int j = 0; j < u.per_elem; ++j) out[l * u.per_elem + j] = base + (index[l] % lanes) * u.per_elem + j;
  }
  return out;
}

std::string show(const std::vector<int>& lanes) {
  std::vector<std::string> shown;
  for (int i : lanes) shown.push_back(i < 0 ? "_" : std::to_string(i));
  return fmt::format("{}", fmt::join(shown, " "));
}

// The simd_vshfw control of one shuffle: 16 five-bit selectors packed from bit 0 up, so that
// word w of the control holds bits [32w, 32w + 32) (gentt/sunway_emu.h states the encoding).
// Don't-care lanes select word 0 of a.
std::array<uint32_t, 3> vshfw_control(const std::vector<int>& selectors) {
  GENTT_CHECK(selectors.size() == 16, "vshfw takes 16 selectors");
  std::array<uint32_t, 3> words = {0, 0, 0};
  for (int i = 0; i < 16; ++i) {
    const int sel = selectors[i] < 0 ? 0 : selectors[i];
    GENTT_CHECK(sel < 32, "vshfw selector out of range");
    for (int bit = 0; bit < 5; ++bit)
      if (sel >> bit & 1) words[(5 * i + bit) / 32] |= uint32_t{1} << ((5 * i + bit) % 32);
  }
  return words;
}

void emit_load(CodeWriter& w, const Kernel& k, const Chip& c, const Op& op, int ordinal) {
  const int64_t bytes = op.count * k.elem_bytes;
  if (bytes == c.register_bytes) {
    w.linef("{} v{};", c.reg, op.dst);
    w.linef("simd_loadu(v{}, {}(in + {}));", op.dst, c.view, op.offset);
    return;
  }
  const int per_reg = c.register_bytes / c.unit_bytes;
  w.linef("alignas({}) {} buf{}[{}] = {{}};  // v{}: {} of {} bytes (no masked loads on Sunway)", c.register_bytes,
          c.lane_type, ordinal, per_reg, op.dst, bytes, c.register_bytes);
  w.linef("std::memcpy(buf{}, in + {}, {});", ordinal, op.offset, bytes);
  w.linef("{} v{};", c.reg, op.dst);
  w.linef("simd_load(v{}, buf{});", op.dst, ordinal);
}

void emit_store(CodeWriter& w, const Kernel& k, const Chip& c, const Op& op, int ordinal) {
  const int64_t bytes = op.count * k.elem_bytes;
  if (bytes == c.register_bytes) {
    w.linef("simd_storeu(v{}, {}(out + {}));", op.src, c.view, op.offset);
    return;
  }
  const int per_reg = c.register_bytes / c.unit_bytes;
  w.linef("alignas({}) {} buf{}[{}];  // {} of {} bytes of v{} (no masked stores on Sunway)", c.register_bytes,
          c.lane_type, ordinal, per_reg, bytes, c.register_bytes, op.src);
  w.linef("simd_store(v{}, buf{});", op.src, ordinal);
  w.linef("std::memcpy(out + {}, buf{}, {});", op.offset, ordinal, bytes);
}

// SW26010-Pro: one simd_vshfw per shuffle; one control table per distinct selector list.
void emit_vshfw_block(CodeWriter& w, const Kernel& k, const Chip& c, const LaneUnit& u, const BlockProgram& prog) {
  std::map<std::vector<int>, int> controls;
  for (const auto& op : prog.ops) {
    if (op.kind != OpKind::shuffle) continue;
    const std::vector<int> selectors = lane_indices(op.index, k.lanes, u);
    if (controls.count(selectors)) continue;
    const int id = static_cast<int>(controls.size());
    controls[selectors] = id;
    const auto words = vshfw_control(selectors);
    w.linef("// control {}: word selectors {} (5 bits each, from bit 0; 0-15 = a, 16-31 = b)", id, show(selectors));
    w.linef("alignas(64) static const unsigned kControl{}[16] = {{0x{:08x}u, 0x{:08x}u, 0x{:08x}u}};", id, words[0],
            words[1], words[2]);
    w.linef("intv16 ctl{};", id);
    w.linef("simd_load(ctl{0}, gentt_sw_words(kControl{0}));", id);
  }
  int ordinal = 0;
  for (const auto& op : prog.ops) {
    switch (op.kind) {
      case OpKind::load:
        emit_load(w, k, c, op, ordinal);
        break;
      case OpKind::shuffle: {
        // The lookup is its own statement: Clang 14 destroyed the temporary selector list of a
        // lookup written inside linef's arguments (whose format string is checked by a consteval
        // constructor) at the end of the switch, after its scope (AddressSanitizer:
        // stack-use-after-scope; found by tests/fuzz/cli_flags_fuzz.cpp).
        const int control = controls.at(lane_indices(op.index, k.lanes, u));
        w.linef("const intv16 v{} = simd_vshfw(v{}, v{}, ctl{});", op.dst, op.a, op.b >= 0 ? op.b : op.a, control);
        break;
      }
      case OpKind::store:
        emit_store(w, k, c, op, ordinal);
        break;
    }
    ++ordinal;
  }
}

// SW26010: each shuffle is the shortest simd_vshff sequence for its lane list.
void emit_vshff_shuffle(CodeWriter& w, const Kernel& k, const LaneUnit& u, const Op& op) {
  const std::vector<int> lanes = lane_indices(op.index, k.lanes, u);
  GENTT_CHECK(lanes.size() == 4, "doublev4 has 4 lanes");
  const VshffProgram program = plan_vshff({lanes[0], lanes[1], lanes[2], lanes[3]}, op.b >= 0);
  // Value ids of the program: 0 = a, 1 = b, 2 + s = step s.
  const auto name = [&](int id) {
    if (id == 0) return fmt::format("v{}", op.a);
    if (id == 1) return fmt::format("v{}", op.b);
    return fmt::format("v{}_{}", op.dst, id - 2);
  };
  const std::string summary = fmt::format("lanes {} of v{}{}", show(lanes), op.a,
                                          op.b >= 0 ? fmt::format(" ++ v{}", op.b) : std::string());
  if (program.steps.empty()) {
    w.linef("const doublev4 v{} = {};  // {}", op.dst, name(program.result), summary);
    return;
  }
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const VshffStep& step = program.steps[s];
    const bool last = s + 1 == program.steps.size();
    const std::string dst = last ? fmt::format("v{}", op.dst) : name(static_cast<int>(s) + 2);
    w.linef("const doublev4 {} = simd_vshff({}, {}, 0x{:02x});{}", dst, name(step.hi), name(step.lo), step.imm,
            last ? "  // " + summary : "");
  }
}

void emit_vshff_block(CodeWriter& w, const Kernel& k, const Chip& c, const LaneUnit& u, const BlockProgram& prog) {
  int ordinal = 0;
  for (const auto& op : prog.ops) {
    switch (op.kind) {
      case OpKind::load:
        emit_load(w, k, c, op, ordinal);
        break;
      case OpKind::shuffle:
        emit_vshff_shuffle(w, k, u, op);
        break;
      case OpKind::store:
        emit_store(w, k, c, op, ordinal);
        break;
    }
    ++ordinal;
  }
}

void block_body(CodeWriter& w, const Kernel& k, const Chip& c, const BlockProgram& prog) {
  switch (mode_for(k, c)) {
    case Mode::memcpy:
      return emit_memcpy_block(w, k, prog);
    case Mode::scalar:
      return emit_scalar_block(w, k, prog);
    case Mode::vector:
      break;
  }
  LaneUnit u;
  u.bytes = c.unit_bytes;
  u.per_elem = static_cast<int>(k.elem_bytes / c.unit_bytes);
  u.per_reg = c.register_bytes / c.unit_bytes;
  if (c.unit_bytes == 4)
    emit_vshfw_block(w, k, c, u, prog);
  else
    emit_vshff_block(w, k, c, u, prog);
}

class SunwayBackend final : public Backend {
 public:
  Isa isa() const override { return Isa::sunway; }
  // The scalar prelude follows: sub-word elements use its helpers.
  std::string prelude() const override {
    return std::string(template_text("sunway_prelude.h")) + "\n" + std::string(template_text("scalar_prelude.h"));
  }
  std::string banner_note(const KernelUnit& unit) const override {
    return mode_note(unit.kernel, chip_for(unit.problem.target.vector_bits));
  }
  std::string kernel(const KernelUnit& unit) const override {
    const Chip chip = chip_for(unit.problem.target.vector_bits);
    SkeletonHooks hooks;
    hooks.elem_type = fmt::format("gentt_bytes<{}>", unit.problem.dtype.bytes);
    hooks.block_body = [&](CodeWriter& w, const Kernel& k, const BlockProgram& prog, int) {
      block_body(w, k, chip, prog);
    };
    CodeWriter w;
    w.comment(mode_note(unit.kernel, chip));
    return w.str() + emit_kernel_skeleton(unit, hooks);
  }
};

}  // namespace

const Backend& sunway_backend() {
  static const SunwayBackend backend;
  return backend;
}

}  // namespace gentt
