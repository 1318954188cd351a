#include "backends/avx2.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/avx2_layout.h"
#include "backends/avx2_shuffle.h"
#include "backends/memcpy_block.h"
#include "backends/skeleton.h"
#include "ir/error.h"
#include "templates/templates.h"

namespace gentt {

namespace {

constexpr int kRegisterBytes = 32;

// The constant registers of one block program, one per distinct table, declared first.
class Tables {
 public:
  std::string name(const Avx2Expr& e) {
    const char* kind = e.op == "shuffle_epi8" ? "kShuffle" : e.op == "blendv_epi8" ? "kBlend" : "kPermute";
    auto [it, added] = names_.try_emplace({kind, e.table}, "");
    if (added) {
      it->second = fmt::format("{}{}", kind, count_[kind]++);
      std::vector<std::string> entries;
      for (int v : e.table)
        entries.push_back(e.table_bytes == 4 ? fmt::format("{}", v)
                          : v >= 0x80         ? fmt::format("0x{:02x}", v)
                                              : fmt::format("{}", v));
      decls_.push_back(fmt::format("alignas(32) static const {} {}[{}] = {{{}}};",
                                   e.table_bytes == 4 ? "std::int32_t" : "std::uint8_t", it->second,
                                   e.table.size(), fmt::join(entries, ", ")));
    }
    return it->second;
  }
  const std::vector<std::string>& declarations() const { return decls_; }

 private:
  std::map<std::pair<std::string, std::vector<int>>, std::string> names_;
  std::map<std::string, int> count_;
  std::vector<std::string> decls_;
};

constexpr size_t kMaxLine = 110;  // characters of a statement before its operands get their own lines

Avx2Cost operator+(Avx2Cost x, const Avx2Cost& y) {
  x.port5 += y.port5;
  x.uops += y.uops;
  x.tables += y.tables;
  return x;
}

// One block program: the layout of every value, then one statement per op.
class BlockEmitter {
 public:
  BlockEmitter(const Kernel& k, const BlockProgram& prog) : k_(k), prog_(prog), layout_(prog.num_values) {
    choose_layouts();
  }

  void emit(CodeWriter& w) {
    // Streaming stores go out in runs sorted by address, so that the two 32-byte halves of each
    // line are written one after the other: in the IR's register order a 16-register block
    // wrote the first halves of 8 lines, then their second halves, and each line held a
    // write-combining buffer until its second half came (Zen 3, float32 16384x256 transposed:
    // 0.27 -> 0.35 of the best copy adjacent).
    std::vector<const Op*> streamed;
    auto flush = [&] {
      std::stable_sort(streamed.begin(), streamed.end(), [](const Op* x, const Op* y) { return x->offset < y->offset; });
      for (const Op* op : streamed) emit_store(*op, op->count * k_.elem_bytes);
      streamed.clear();
    };
    for (const auto& op : prog_.ops) {
      const int64_t bytes = op.count * k_.elem_bytes;
      if (op.kind == OpKind::store && op.stream && bytes == kRegisterBytes) {
        streamed.push_back(&op);
        continue;
      }
      flush();
      switch (op.kind) {
        case OpKind::load:
          lines_.push_back(
              fmt::format("const __m256i v{} = {};", op.dst, load_text(op.offset, bytes, layout_[op.dst])));
          break;
        case OpKind::shuffle:
          emit_value(fmt::format("v{}", op.dst), lower_avx2_shuffle(register_map(op)), fmt::format("v{}", op.a),
                     fmt::format("v{}", op.b < 0 ? op.a : op.b));
          break;
        case OpKind::store:
          emit_store(op, bytes);
          break;
      }
    }
    flush();
    for (const auto& d : tables_.declarations()) w.line(d);
    for (const auto& l : lines_) w.line(l);
  }

 private:
  // Values moved by loads and stores of 16..31 bytes may use the halves layout. It is taken
  // when the count is not a multiple of 4 (else a stack-buffer copy), and otherwise when it
  // makes the shuffles reading (for loads) or writing (for stored results) the value cheaper.
  void choose_layouts() {
    std::vector<std::vector<const Op*>> readers(prog_.num_values);
    std::vector<std::vector<int64_t>> stored(prog_.num_values);
    for (const auto& op : prog_.ops) {
      if (op.kind == OpKind::shuffle) {
        readers[op.a].push_back(&op);
        if (op.b >= 0 && op.b != op.a) readers[op.b].push_back(&op);
      }
      if (op.kind == OpKind::store) stored[op.src].push_back(op.count * k_.elem_bytes);
    }
    // The byte count of the halves layout a value may take (0: none).
    auto halves_bytes = [&](const Op& op) -> int64_t {
      if (op.kind == OpKind::load) return op.count * k_.elem_bytes;
      if (!readers[op.dst].empty() || stored[op.dst].empty()) return 0;
      for (int64_t n : stored[op.dst])
        if (n != stored[op.dst][0]) return 0;
      return stored[op.dst][0];
    };
    auto fits = [](int64_t n) { return n >= 16 && n < kRegisterBytes; };
    for (const auto& op : prog_.ops) {
      if (op.kind == OpKind::store) continue;
      const int64_t n = halves_bytes(op);
      if (fits(n) && n % 4 != 0) layout_[op.dst] = Avx2Layout::halves(static_cast<int>(n));
    }
    auto cost_of = [&](const std::vector<const Op*>& shuffles) {
      Avx2Cost c;
      for (const Op* s : shuffles) c = c + avx2_cost(lower_avx2_shuffle(register_map(*s)));
      return c;
    };
    for (OpKind kind : {OpKind::load, OpKind::shuffle}) {
      for (const auto& op : prog_.ops) {
        const int64_t n = op.kind == kind ? halves_bytes(op) : 0;
        if (!fits(n) || n % 4 != 0) continue;
        const std::vector<const Op*> affected = kind == OpKind::load ? readers[op.dst] : std::vector<const Op*>{&op};
        const Avx2Cost natural = cost_of(affected);
        layout_[op.dst] = Avx2Layout::halves(static_cast<int>(n));
        if (!(cost_of(affected) < natural)) layout_[op.dst] = Avx2Layout::natural();
      }
    }
  }

  Avx2ByteMap register_map(const Op& op) const {
    const bool one_value = op.b < 0 || op.b == op.a;
    return avx2_register_map(avx2_byte_map(op.index, k_.lanes, k_.elem_bytes, one_value), layout_[op.a],
                             layout_[one_value ? op.a : op.b], layout_[op.dst]);
  }

  static std::string load_text(int64_t offset, int64_t bytes, const Avx2Layout& layout) {
    if (layout.halves_bytes) return fmt::format("gentt_avx2_load_halves(in + {}, {})", offset, bytes);
    if (bytes == kRegisterBytes) return fmt::format("gentt_avx2_load(in + {})", offset);
    if (bytes % 4 == 0) return fmt::format("gentt_avx2_load_dwords(in + {}, {})", offset, bytes / 4);
    return fmt::format("gentt_avx2_load_bytes(in + {}, {})", offset, bytes);
  }

  void emit_store(const Op& op, int64_t bytes) {
    std::string v = fmt::format("v{}", op.src);
    const Avx2Layout& layout = layout_[op.src];
    GENTT_CHECK(!op.stream || (bytes == kRegisterBytes && !layout.halves_bytes),
                "a streaming store that is not a whole register in the IR's lane order");
    if (layout.halves_bytes && layout.halves_bytes != bytes && bytes > 16) {
      // A loaded value stored with another count of 17..31 bytes: into that count's halves.
      GENTT_CHECK(bytes < kRegisterBytes, "a store past the bytes loaded");
      Avx2ByteMap identity;
      for (int p = 0; p < kRegisterBytes; ++p) identity[p] = p;
      const Avx2Layout target = Avx2Layout::halves(static_cast<int>(bytes));
      const std::string moved = fmt::format("{}_as{}", v, bytes);
      if (relaid_.insert(moved).second)
        emit_value(moved, lower_avx2_shuffle(avx2_register_map(identity, layout, layout, target)), v, v);
      lines_.push_back(fmt::format("gentt_avx2_store_halves(out + {}, {}, {});", op.offset, bytes, moved));
    } else if (layout.halves_bytes && bytes > 16) {
      lines_.push_back(fmt::format("gentt_avx2_store_halves(out + {}, {}, {});", op.offset, bytes, v));
    } else if (bytes == kRegisterBytes && op.stream) {  // 32-byte aligned whenever `out` is (ir/stream.h)
      lines_.push_back(fmt::format("_mm256_stream_si256(reinterpret_cast<__m256i*>(out + {}), {});", op.offset, v));
    } else if (bytes == kRegisterBytes) {  // below: the IR's order (or 16 bytes or fewer of halves)
      lines_.push_back(fmt::format("gentt_avx2_store(out + {}, {});", op.offset, v));
    } else if (bytes % 4 == 0) {
      lines_.push_back(fmt::format("gentt_avx2_store_dwords(out + {}, {}, {});", op.offset, bytes / 4, v));
    } else {
      lines_.push_back(fmt::format("gentt_avx2_store_bytes(out + {}, {}, {});", op.offset, bytes, v));
    }
  }

  // `const __m256i name = e;`, operands that are intrinsics hoisted into temporaries name_0,
  // name_1, ... (operand 0, 1 of name) while the statement would be longer than kMaxLine.
  void emit_value(const std::string& name, const Avx2Expr& e, const std::string& a, const std::string& b) {
    auto table = [&](const Avx2Expr& t) { return tables_.name(t); };
    std::string text = print_avx2_expr(e, a, b, table);
    if (text.size() + name.size() > kMaxLine) {
      std::vector<std::string> args;
      for (size_t i = 0; i < e.args.size(); ++i) {
        const Avx2Expr& arg = e.args[i];
        if (arg.op == "a" || arg.op == "b") {
          args.push_back(arg.op == "a" ? a : b);
          continue;
        }
        args.push_back(fmt::format("{}_{}", name, i));
        emit_value(args.back(), arg, a, b);
      }
      text = print_avx2_call(e, args, e.table.empty() ? "" : table(e));
    }
    lines_.push_back(fmt::format("const __m256i {} = {};", name, text));
  }

  const Kernel& k_;
  const BlockProgram& prog_;
  std::vector<Avx2Layout> layout_;
  Tables tables_;
  std::set<std::string> relaid_;  // values already moved to another count's halves
  std::vector<std::string> lines_;
};

void block_body(CodeWriter& w, const Kernel& k, const BlockProgram& prog) {
  // One lane per register (elements of 17 bytes or more): the programs are copies, and a
  // memcpy of a constant size is the best move a compiler can be given.
  if (k.lanes == 1) return emit_memcpy_block(w, k, prog);
  GENTT_CHECK(k.lanes * k.elem_bytes <= kRegisterBytes, "lanes do not fit 256 bits");
  BlockEmitter(k, prog).emit(w);
}

// One stream's piece of an assembled tile (ir/assembly.h, SkeletonHooks::assemble_stream): a line
// is two 32-byte halves streamed one after the other; the carry merges in by a byte blend whose
// mask compares each byte's index with the piece's offset in its line; a chain's partial ends
// (once per chain) are copied with memcpy.
constexpr const char* kAssembleStream =
    "const unsigned a = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) % 64);\n"
    "unsigned char* const line = d - a;\n"
    "const unsigned char* const from = b - a;\n"
    "const std::int64_t stop = a + piece;\n"
    "std::int64_t i = 0;\n"
    "if (a) {\n"
    "  if (cont_in) {\n"
    "    const __m256i at = _mm256_set1_epi8(static_cast<char>(a));\n"
    "    const __m256i i0 = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,\n"
    "                                        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);\n"
    "    const __m256i i1 = _mm256_add_epi8(i0, _mm256_set1_epi8(32));\n"
    "    const __m256i* const v = reinterpret_cast<const __m256i*>(from);\n"
    "    const __m256i* const k = reinterpret_cast<const __m256i*>(c);\n"
    "    _mm256_stream_si256(reinterpret_cast<__m256i*>(line),\n"
    "                        _mm256_blendv_epi8(_mm256_load_si256(v), _mm256_load_si256(k), _mm256_cmpgt_epi8(at, i0)));\n"
    "    _mm256_stream_si256(reinterpret_cast<__m256i*>(line + 32),\n"
    "                        _mm256_blendv_epi8(_mm256_load_si256(v + 1), _mm256_load_si256(k + 1), _mm256_cmpgt_epi8(at, i1)));\n"
    "  } else {\n"
    "    std::memcpy(d, b, 64 - a);\n"
    "  }\n"
    "  i = 64;\n"
    "}\n"
    "for (; i + 64 <= stop; i += 64) {\n"
    "  const __m256i* const v = reinterpret_cast<const __m256i*>(from + i);\n"
    "  _mm256_stream_si256(reinterpret_cast<__m256i*>(line + i), _mm256_load_si256(v));\n"
    "  _mm256_stream_si256(reinterpret_cast<__m256i*>(line + i + 32), _mm256_load_si256(v + 1));\n"
    "}\n"
    "if (i < stop) {\n"
    "  if (cont_out) {\n"
    "    const __m256i* const v = reinterpret_cast<const __m256i*>(from + i);\n"
    "    _mm256_store_si256(reinterpret_cast<__m256i*>(c), _mm256_load_si256(v));\n"
    "    _mm256_store_si256(reinterpret_cast<__m256i*>(c + 32), _mm256_load_si256(v + 1));\n"
    "  } else {\n"
    "    std::memcpy(line + i, from + i, static_cast<std::size_t>(stop - i));\n"
    "  }\n"
    "}";

class Avx2Backend final : public Backend {
 public:
  Isa isa() const override { return Isa::avx2; }
  std::string prelude() const override {
    return std::string(template_text("avx2_prelude.h")) + "\n" + std::string(template_text("x86_bands_prelude.h"));
  }
  std::string epilogue() const override { return "GENTT_AVX2_END\n"; }
  std::string kernel(const KernelUnit& unit) const override {
    return emit_kernel_skeleton(
        unit, block_body, "_mm_sfence();  // order the streaming stores before returning",
        "_mm256_stream_si256(reinterpret_cast<__m256i*>(to), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));\n"
        "_mm256_stream_si256(reinterpret_cast<__m256i*>(to + 32),\n"
        "                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + 32)));",
        kAssembleStream);
  }
};

}  // namespace

const Backend& avx2_backend() {
  static const Avx2Backend backend;
  return backend;
}

}  // namespace gentt
