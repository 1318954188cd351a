// The row engine's body (row_copy.h), shared by the ISAs: the loops walked by walk.h, each
// iteration copying one row (or one piece of a long row). Include inside an anonymous namespace
// of an engine's translation unit, after defining GENTT_WALK_TARGET (the ISA's function
// attribute) and including walk_loops.h, with a traits type providing
//   static void copy(const char* in, char* out, std::int64_t bytes);    any alignment
//   static void stream(const char* in, char* out, std::int64_t bytes);  non-temporal stores for
//       the whole lines of [out, out + bytes), ordinary stores for its partial first and last line
//   static void fence();
//   static constexpr const char* kName;

// One row (piece) per walk iteration; program 1: a row's last piece.
template <class T, bool Stream>
struct RowCopy {
  RowGeometry g;
  GENTT_WALK_TARGET __attribute__((always_inline)) inline void operator()(int program, const char* in, char* out) const {
    if constexpr (Stream)
      T::stream(in, out, program ? g.last_in : g.piece_in);
    else
      T::copy(in, out, program ? g.last_in : g.piece_in);
  }
};

template <class T>
class RowBlocks final : public PreparedBlocks {
 public:
  RowBlocks(std::vector<WalkLoop> loops, RowGeometry g, bool stream, const RowSink* sink, std::int64_t pieces)
      : loops_(std::move(loops)), g_(g), stream_(stream), sink_(sink ? *sink : RowSink{}), pieces_(pieces),
        iterations_(walk_iterations(loops_)) {}

  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override { go(in, out, begin, end); }
  std::int64_t iterations() const override { return iterations_; }
  std::string describe() const override {
    std::string text = std::string(T::kName) + " row engine: rows of " +
                       std::to_string(g_.piece_elems * (pieces_ - 1) + g_.last_elems) + " elements copied whole";
    if (pieces_ > 1) text += " in " + std::to_string(pieces_) + " pieces";
    if (sink_.fn) text += ", each through the row transform";
    if (stream_) text += ", streaming stores for the whole lines of each row";
    return text;
  }

 private:
  GENTT_WALK_TARGET void go(const char* in, char* out, std::int64_t begin, std::int64_t end) const {
    const RowGeometry g = g_;
    if (sink_.fn) {
      auto row = [&](int program, const char* i, char* o) {
        sink_.fn(i, o, program ? g.last_elems : g.piece_elems, sink_.state);
      };
      return walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, row);
    }
    if (stream_) {
      RowCopy<T, true> row{g};
      walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, row);
      T::fence();
      return;
    }
    RowCopy<T, false> row{g};
    walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, row);
  }

  std::vector<WalkLoop> loops_;
  RowGeometry g_;
  bool stream_;
  RowSink sink_;
  std::int64_t pieces_;
  std::int64_t iterations_;
};
