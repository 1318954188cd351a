#include "ir/printer.h"

#include <fmt/format.h>

namespace gentt {

namespace {

std::string index_text(const std::vector<int>& index) {
  std::string s;
  for (size_t i = 0; i < index.size(); ++i) {
    if (i) s += ' ';
    s += index[i] < 0 ? std::string("_") : std::to_string(index[i]);
  }
  return s;
}

void print_program(std::string& s, const std::string& title, const BlockProgram& p) {
  s += fmt::format("{} ({}): {} values, {} ops\n", title, p.what, p.num_values, p.ops.size());
  for (const Op& op : p.ops) {
    switch (op.kind) {
      case OpKind::load:
        s += fmt::format("  v{} = load in[+{}] x{}\n", op.dst, op.offset, op.count);
        break;
      case OpKind::shuffle:
        if (op.b >= 0)
          s += fmt::format("  v{} = shuffle v{}, v{} [{}]\n", op.dst, op.a, op.b, index_text(op.index));
        else
          s += fmt::format("  v{} = shuffle v{} [{}]\n", op.dst, op.a, index_text(op.index));
        break;
      case OpKind::store:
        s += fmt::format("  {} out[+{}] x{} <- v{}\n", op.stream ? "store.stream" : "store", op.offset, op.count,
                         op.src);
        break;
    }
  }
}

// One line per loop: "  L<i> count=.. in_stride=.. out_stride=.. [tail_bit=..]  # what".
void print_loops(std::string& s, const std::vector<LoopDim>& loops) {
  for (size_t i = 0; i < loops.size(); ++i) {
    const auto& L = loops[i];
    s += fmt::format("  L{} count={} in_stride={} out_stride={}", i, L.count, L.in_stride, L.out_stride);
    if (L.tail_bit >= 0) s += fmt::format(" tail_bit={}", L.tail_bit);
    s += fmt::format("  # {}\n", L.what);
  }
}

nlohmann::ordered_json loops_to_json(const std::vector<LoopDim>& loops) {
  auto a = nlohmann::ordered_json::array();
  for (const auto& L : loops)
    a.push_back({{"count", L.count}, {"in_stride", L.in_stride}, {"out_stride", L.out_stride},
                 {"tail_bit", L.tail_bit}, {"what", L.what}});
  return a;
}

nlohmann::ordered_json program_to_json(const BlockProgram& p) {
  nlohmann::ordered_json jp;
  jp["what"] = p.what;
  jp["values"] = p.num_values;
  jp["ops"] = nlohmann::ordered_json::array();
  for (const Op& op : p.ops) {
    switch (op.kind) {
      case OpKind::load:
        jp["ops"].push_back({{"op", "load"}, {"dst", op.dst}, {"offset", op.offset}, {"count", op.count}});
        break;
      case OpKind::shuffle:
        jp["ops"].push_back({{"op", "shuffle"}, {"dst", op.dst}, {"a", op.a}, {"b", op.b}, {"index", op.index}});
        break;
      case OpKind::store:
        jp["ops"].push_back({{"op", "store"}, {"src", op.src}, {"offset", op.offset}, {"count", op.count}});
        if (op.stream) jp["ops"].back()["stream"] = true;
        break;
    }
  }
  return jp;
}

}  // namespace

std::string print_kernel(const Kernel& k) {
  std::string s = fmt::format("kernel {}: elem_bytes={} lanes={} elements={} iterations={}\n", k.name,
                              k.elem_bytes, k.lanes, k.in_elements, k.iterations());
  s += "loops (outermost first; strides in elements):\n";
  if (k.loops.empty()) s += "  (none: one block)\n";
  print_loops(s, k.loops);
  for (size_t g = 1; g < k.regions.size(); ++g) {
    const auto& R = k.regions[g];
    s += fmt::format("region {} (after region {}; base in+{} out+{}):\n", g, g - 1, R.in_offset, R.out_offset);
    print_loops(s, R.loops);
  }
  for (size_t pi = 0; pi < k.programs.size(); ++pi) print_program(s, fmt::format("program {}", pi), k.programs[pi]);
  if (k.unroll > 1) {
    s += fmt::format("unroll {}: runs of the innermost loop use these while {} blocks remain\n", k.unroll, k.unroll);
    for (size_t pi = 0; pi < k.unrolled.size(); ++pi)
      if (!k.unrolled[pi].ops.empty()) print_program(s, fmt::format("unrolled program {}", pi), k.unrolled[pi]);
  }
  return s;
}

nlohmann::ordered_json kernel_to_json(const Kernel& k) {
  nlohmann::ordered_json j;
  j["name"] = k.name;
  j["elem_bytes"] = k.elem_bytes;
  j["lanes"] = k.lanes;
  j["elements"] = k.in_elements;
  j["loops"] = loops_to_json(k.loops);
  if (!k.regions.empty()) {  // tiles with remainders: every nest, region 0 being `loops`
    j["regions"] = nlohmann::ordered_json::array();
    for (const auto& g : k.regions)
      j["regions"].push_back({{"in_offset", g.in_offset}, {"out_offset", g.out_offset}, {"loops", loops_to_json(g.loops)}});
  }
  j["programs"] = nlohmann::ordered_json::array();
  for (const auto& p : k.programs) j["programs"].push_back(program_to_json(p));
  j["unroll"] = k.unroll;
  j["unrolled"] = nlohmann::ordered_json::array();
  for (const auto& p : k.unrolled) j["unrolled"].push_back(program_to_json(p));
  return j;
}

}  // namespace gentt
