// The portable block engine: each block program as a list of element moves (input offset,
// output offset) in output order, found by running the program's tables on offsets instead of
// data. Serves every CPU and every element size, and the fused conversion and scaling path: a
// store run (contiguous output) is gathered into a small buffer and handed to the row sink.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/engine/element_moves.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/regions.h"
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

template <int Bytes>
inline void move_elements(const Move* m, std::size_t n, const char* in, char* out) {
  for (std::size_t i = 0; i < n; ++i) std::memcpy(out + m[i].out, in + m[i].in, Bytes);
}

inline void move_bytes(const Move* m, std::size_t n, std::int64_t bytes, const char* in, char* out) {
  for (std::size_t i = 0; i < n; ++i) std::memcpy(out + m[i].out, in + m[i].in, static_cast<std::size_t>(bytes));
}

class PortableBlocks final : public PreparedBlocks {
 public:
  PortableBlocks(std::vector<WalkLoop> loops, std::shared_ptr<const std::vector<ElementMoves>> programs,
                 std::int64_t elem_bytes, const RowSink* sink)
      : loops_(std::move(loops)), shared_(std::move(programs)), programs_(*shared_), elem_bytes_(elem_bytes),
        sink_(sink ? *sink : RowSink{}), iterations_(walk_iterations(loops_)) {
    std::size_t longest = 0;
    for (const auto& p : programs_)
      for (const auto& r : p.runs) longest = std::max(longest, r.count);
    scratch_bytes_ = longest * static_cast<std::size_t>(elem_bytes_);
  }

  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    if (sink_.fn) {
      std::vector<char> scratch(scratch_bytes_);
      auto block = [&](int program, const char* i, char* o) {
        const ElementMoves& p = programs_[program];
        for (const Run& r : p.runs) {
          const Move* m = p.moves.data() + r.first;
          for (std::size_t k = 0; k < r.count; ++k)
            std::memcpy(scratch.data() + k * elem_bytes_, i + m[k].in, static_cast<std::size_t>(elem_bytes_));
          sink_.fn(scratch.data(), o + m[0].out, static_cast<std::int64_t>(r.count), sink_.state);
        }
      };
      return walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, block);
    }
    switch (elem_bytes_) {
      case 1: return run_fixed<1>(in, out, begin, end);
      case 2: return run_fixed<2>(in, out, begin, end);
      case 4: return run_fixed<4>(in, out, begin, end);
      case 8: return run_fixed<8>(in, out, begin, end);
      case 16: return run_fixed<16>(in, out, begin, end);
      default: {
        auto block = [&](int program, const char* i, char* o) {
          const ElementMoves& p = programs_[program];
          move_bytes(p.moves.data(), p.moves.size(), elem_bytes_, i, o);
        };
        return walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, block);
      }
    }
  }
  std::int64_t iterations() const override { return iterations_; }
  std::string describe() const override {
    std::size_t moves = 0;
    for (const auto& p : programs_) moves = std::max(moves, p.moves.size());
    return "portable engine: up to " + std::to_string(moves) + " element moves per block" +
           (sink_.fn ? ", each output run converted by the row transform" : "");
  }

 private:
  template <int Bytes>
  void run_fixed(const char* in, char* out, std::int64_t begin, std::int64_t end) const {
    auto block = [&](int program, const char* i, char* o) {
      const ElementMoves& p = programs_[program];
      move_elements<Bytes>(p.moves.data(), p.moves.size(), i, o);
    };
    walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, block);
  }

  std::vector<WalkLoop> loops_;
  std::shared_ptr<const std::vector<ElementMoves>> shared_;  // shared by the regions of one plan
  const std::vector<ElementMoves>& programs_;
  std::int64_t elem_bytes_;
  RowSink sink_;
  std::size_t scratch_bytes_ = 0;
  std::int64_t iterations_;
};

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_portable(const BlockTables& tables, std::int64_t elem_bytes,
                                                 const PrepareOptions& options) {
  if (tables.split_rows) return nullptr;  // the split-row engine's (engine/split_rows.h)
  const std::int64_t out_bytes = options.sink ? options.sink->out_elem_bytes : elem_bytes;
  auto programs = std::make_shared<std::vector<ElementMoves>>();
  for (const auto& t : tables.programs)
    programs->push_back(element_moves(t, tables.lanes, tables.butterfly, elem_bytes, out_bytes));
  const std::shared_ptr<const std::vector<ElementMoves>> shared = std::move(programs);
  return over_regions(tables.loops, elem_bytes, out_bytes, options,
                      [&](const BlockLoops& loops, const PrepareOptions& o) -> std::unique_ptr<PreparedBlocks> {
                        return std::make_unique<PortableBlocks>(walk_loops(loops, elem_bytes, out_bytes), shared,
                                                                elem_bytes, o.sink);
                      });
}

}  // namespace gentt::engine
