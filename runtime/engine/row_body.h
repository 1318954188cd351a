// The row engine's body (row_copy.h), shared by the ISAs: the loops walked by walk.h, each
// iteration copying one row (or one piece of a long row). Include inside an anonymous namespace
// of an engine's translation unit, after defining GENTT_WALK_TARGET (the ISA's function
// attribute) and including walk_loops.h, with a traits type providing
//   static void copy(const char* in, char* out, std::int64_t bytes);    any alignment
//   static void stream(const char* in, char* out, std::int64_t bytes);  non-temporal stores for
//       the whole lines of [out, out + bytes), ordinary stores for its partial first and last line
//   static void fence();
//   static constexpr const char* kName;
//   struct Line; static Line load_line(const char*);
//   static void stream_line(char*, Line) (64-byte aligned): one 64-byte line in registers.
// and, for short rows (RowShortCopy), optionally
//   using Vec; static constexpr int kVec (its bytes); static Vec load_vec(const char*);
//   static void store_vec(char*, Vec) (any alignment).

// The lines of the n bytes at `at` into the cache (RowGeometry::ahead, ahead_bytes).
__attribute__((always_inline)) inline void prefetch_row(const char* at, std::int64_t n) {
  for (std::int64_t b = 0; b < n; b += 64) __builtin_prefetch(at + b, 0, 3);
  __builtin_prefetch(at + n - 1, 0, 3);  // the last line, where the row ends past a line start
}

// One row (piece) per walk iteration; program 1: a row's last piece.
template <class T, bool Stream>
struct RowCopy {
  RowGeometry g;
  GENTT_WALK_TARGET __attribute__((always_inline)) inline void operator()(int program, const char* in, char* out) const {
    if (g.ahead) prefetch_row(in + g.ahead, g.ahead_bytes);  // rows of one piece only (row_prefetch_ahead)
    if constexpr (Stream)
      T::stream(in, out, program ? g.last_in : g.piece_in);
    else
      T::copy(in, out, program ? g.last_in : g.piece_in);
  }
};

// Rows of one piece whose length n is at least one vector and at most kShortRowVectors vectors:
// V = ceil(n / kVec) vector loads, the last at n - kVec (overlapping the one before it where n is
// not a multiple: the overlap is stored twice with the same bytes, never past the row), all
// loaded before any is stored; no loop and no mask per row. Against the generic copy (its loop
// over lines and a masked or overlapping last vector per row), warm in-cache tensors (Intel
// server core, one process each, best of 15 batches of 2 ms): AVX-512 float32 (100,100,17) (1,0,2)
// (rows of 68 bytes) 45 -> 71 GB/s, float64 (30,40,24) 75 -> 87, uint8 (50,40,200) 76 -> 92,
// rows of 128 bytes 71 -> 69; AVX2 uint16 (40,50,60) 82 -> 92, float32 (100,100,17) 70 -> 75;
// seed 002's uint16 (4,5,1,2,3,0,6,7) (row tiles of 12 rows of 120 bytes, 1.1 GB) 0.61 -> 0.69 of
// the best copy in gentt_bench.
inline constexpr int kShortRowVectors = 4;
template <class T, int V>
struct RowShortCopy {
  RowGeometry g;
  GENTT_WALK_TARGET __attribute__((always_inline)) inline void operator()(int, const char* in, char* out) const {
    if (g.ahead) prefetch_row(in + g.ahead, g.ahead_bytes);
    const std::int64_t last = g.piece_in - T::kVec;
    typename T::Vec v[V];
#pragma GCC unroll 4
    for (int k = 0; k < V; ++k) v[k] = T::load_vec(in + (k + 1 < V ? k * T::kVec : last));
#pragma GCC unroll 4
    for (int k = 0; k < V; ++k) T::store_vec(out + (k + 1 < V ? k * T::kVec : last), v[k]);
  }
};

// A group of rows per walk iteration (rows g.group_in / g.group_out bytes apart): g.group rows,
// or g.group_rest in the last group (program 1). A streamed group of kMaxRowGroup rows whose
// rows share their offset in a line goes line by line: the group's lines are loaded, then
// stored, so that its loads are in flight together. Other groups copy one row after another.
template <class T, bool Stream>
struct RowGroupCopy {
  RowGeometry g;
  GENTT_WALK_TARGET __attribute__((always_inline)) inline void operator()(int program, const char* in, char* out) const {
    const std::int64_t n = g.piece_in, is = g.group_in, os = g.group_out;
    const int rows = program ? g.group_rest : g.group;
    if (g.ahead)
      for (int r = 0; r < rows; ++r) prefetch_row(in + r * is + g.ahead, g.ahead_bytes);
    if constexpr (Stream) {
      const std::int64_t head = static_cast<std::int64_t>((64 - (reinterpret_cast<std::uintptr_t>(out) & 63)) & 63);
      if (rows == kMaxRowGroup && (os & 63) == 0 && n >= head + 64) {
        constexpr int G = kMaxRowGroup;
        std::int64_t off = 0;
        if (head) {
#pragma GCC unroll 8
          for (int r = 0; r < G; ++r) T::copy(in + r * is, out + r * os, head);
          off = head;
        }
        for (; off + 64 <= n; off += 64) {
          typename T::Line v[G];
#pragma GCC unroll 8
          for (int r = 0; r < G; ++r) v[r] = T::load_line(in + r * is + off);
#pragma GCC unroll 8
          for (int r = 0; r < G; ++r) T::stream_line(out + r * os + off, v[r]);
        }
        if (off < n) {
#pragma GCC unroll 8
          for (int r = 0; r < G; ++r) T::copy(in + r * is + off, out + r * os + off, n - off);
        }
        return;
      }
    }
    for (int r = 0; r < rows; ++r) {
      if constexpr (Stream)
        T::stream(in + r * is, out + r * os, n);
      else
        T::copy(in + r * is, out + r * os, n);
    }
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
    if (g_.group > 1) text += ", " + std::to_string(g_.group) + " rows at a time";
    if (sink_.fn) text += ", each through the row transform";
    if (const int v = short_vectors())
      text += ", each row " + std::to_string(v) + " vector load(s) and store(s) (the last ending at the row's end)";
    if (stream_) text += ", streaming stores for the whole lines of each row";
    if (g_.ahead)
      text += ", each row prefetching " + std::to_string(g_.ahead_bytes) + " bytes from " + std::to_string(g_.ahead) +
              " past it (the rows' next steps)";
    return text;
  }

 private:
  GENTT_WALK_TARGET void go(const char* in, char* out, std::int64_t begin, std::int64_t end) const {
    const RowGeometry g = g_;
    if (sink_.fn) {
      auto row = [&](int program, const char* i, char* o) {
        if (g.group == 1) return sink_.fn(i, o, program ? g.last_elems : g.piece_elems, sink_.state);
        for (int r = 0; r < (program ? g.group_rest : g.group); ++r)
          sink_.fn(i + r * g.group_in, o + r * g.group_out, g.piece_elems, sink_.state);
      };
      return walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, row);
    }
    if constexpr (requires { T::kVec; }) {
      switch (short_vectors()) {
        case 0: break;
        case 1: return walk_rows(RowShortCopy<T, 1>{g}, in, out, begin, end);
        case 2: return walk_rows(RowShortCopy<T, 2>{g}, in, out, begin, end);
        case 3: return walk_rows(RowShortCopy<T, 3>{g}, in, out, begin, end);
        default: return walk_rows(RowShortCopy<T, kShortRowVectors>{g}, in, out, begin, end);
      }
    }
    if (g.group > 1)
      return stream_ ? walk_rows(RowGroupCopy<T, true>{g}, in, out, begin, end)
                     : walk_rows(RowGroupCopy<T, false>{g}, in, out, begin, end);
    return stream_ ? walk_rows(RowCopy<T, true>{g}, in, out, begin, end)
                   : walk_rows(RowCopy<T, false>{g}, in, out, begin, end);
  }

  // RowShortCopy's vector count for these rows, 0 where it does not apply: rows of one piece,
  // one at a time, cached stores, one to kShortRowVectors vectors long (T without kVec: never).
  int short_vectors() const {
    if constexpr (requires { T::kVec; }) {
      const std::int64_t n = g_.piece_in;
      if (!stream_ && !sink_.fn && g_.group == 1 && pieces_ == 1 && g_.last_in == n && n >= T::kVec &&
          n <= kShortRowVectors * T::kVec)
        return static_cast<int>((n + T::kVec - 1) / T::kVec);
    }
    return 0;
  }

  // The loops with `row` copying each iteration's rows; streaming stores end with a fence.
  template <class Row>
  GENTT_WALK_TARGET void walk_rows(Row row, const char* in, char* out, std::int64_t begin, std::int64_t end) const {
    walk(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, row);
    if (stream_) T::fence();
  }

  std::vector<WalkLoop> loops_;
  RowGeometry g_;
  bool stream_;
  RowSink sink_;
  std::int64_t pieces_;
  std::int64_t iterations_;
};
