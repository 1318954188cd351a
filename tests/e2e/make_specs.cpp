// Writes the end-to-end case specs: `e2e_make_specs [--random-only] OUT_DIR SHARDS CASES SEED ISA [VECTOR_BITS]`
// writes OUT_DIR/cases_<i>.json for i < SHARDS, CASES random kernels for ISA in all (fixed
// seed), as ordinary gentt specs so that the real gentt-gen generates them. VECTOR_BITS (sve,
// sve2) goes into every kernel's spec and name. It also writes OUT_DIR/cases.cpp, the case list
// of the statically linked checker of cross-compiled kernels (arm_cases.h).
// Cases 0 and 1 are fixed shapes over 4 MiB, tiled with remainders (case 0 not on avx512 and
// avx512skx: tiles from 8 MiB there, ir/tiling.h); AVX2's case 2 prefetches;
// at 2048 bits (SVE), case 2 is a byte plan that once stopped GCC 12.
// --random-only leaves those out (scripts/soak: many small batches, every case random).
// For avx512, avx512skx and avx2 the last quarter of the cases ask for `"stores": "streaming"` and are
// shaped so that the streaming variant exists: element sizes 1..16 and an innermost output axis that
// holds whole vectors (ir/stream.h); the eighth before them ask for it on random shapes, whose
// cached walks are then staged (ir/staging.h) where a loop level writes contiguous tiles.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/e2e/arm_cases_writer.h"
#include "tests/ir/random_problem.h"

namespace {

// A dtype name of the given size; opaque bytesN for the sizes without a named type, and
// sometimes for the others too (no alignment promised).
std::string dtype_for(int64_t bytes, std::mt19937_64& rng) {
  if (rng() % 4 == 0) return "bytes" + std::to_string(bytes);
  switch (bytes) {
    case 1: return rng() % 2 ? "uint8" : "int8";
    case 2: return rng() % 2 ? "float16" : "uint16";
    case 4: return rng() % 2 ? "float32" : "int32";
    case 8: return rng() % 2 ? "float64" : "complex64";
    case 16: return "complex128";
    default: return "bytes" + std::to_string(bytes);
  }
}

// Reshapes a random problem so that the streaming variant exists: a power-of-two element size up
// to 16 bytes and an innermost output axis of whole vectors (1 to 3 of them; `vector_bytes` 64
// for AVX-512, 32 for AVX2).
void make_streamable(gentt::test::RandomProblem& p, std::mt19937_64& rng, int64_t vector_bytes) {
  static const int64_t sizes[] = {1, 2, 4, 8, 16};
  p.elem_bytes = sizes[rng() % std::size(sizes)];
  const int64_t lanes = vector_bytes / p.elem_bytes;
  int64_t& inner = p.shape[p.perm.back()];
  inner = lanes * (1 + static_cast<int64_t>(rng() % 3));
  // Keep the tensor small: shrink other axes until it is at most 60000 elements.
  auto total = [&] {
    int64_t n = 1;
    for (int64_t e : p.shape) n *= e;
    return n;
  };
  for (size_t a = 0; a < p.shape.size() && total() > 60000; ++a)
    if (static_cast<int>(a) != p.perm.back()) p.shape[a] = 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool random_only = argc > 1 && std::string(argv[1]) == "--random-only";
  if (random_only) {
    --argc;
    ++argv;
  }
  if (argc != 6 && argc != 7) {
    std::cerr << "usage: e2e_make_specs [--random-only] OUT_DIR SHARDS CASES SEED ISA [VECTOR_BITS]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const int shards = std::atoi(argv[2]);
  const int cases = std::atoi(argv[3]);
  std::mt19937_64 rng(std::strtoull(argv[4], nullptr, 10));
  const std::string isa = argv[5];
  const int vector_bits = argc == 7 ? std::atoi(argv[6]) : 0;
  const std::string prefix = "e2e_" + isa + (vector_bits ? "_" + std::to_string(vector_bits) : "") + "_case";
  std::vector<nlohmann::ordered_json> specs(shards, {{"kernels", nlohmann::ordered_json::array()}});
  std::vector<gentt::test::ArmCaseEntry> arm_cases;
  for (int c = 0; c < cases; ++c) {
    auto p = gentt::test::random_problem(rng, 16, 40000);
    // The first two cases are large enough (over 4 MiB) to be walked in cache tiles with
    // remainders (ir/tiling.h): several loop nests, tails inside them. (On avx512 and avx512skx
    // the float32 one is not: blocks of whole-line registers that read at most 1 KiB are tiled
    // from 8 MiB only, tile_min_bytes_for; the uint16 one is, its block reading 2 KiB.)
    if (c == 0 && !random_only) p = {{1100, 1000}, {1, 0}, 4};
    if (c == 1 && !random_only) p = {{3, 700, 1100}, {0, 2, 1}, 2};
    // AVX2: an untiled 8 MiB walk whose blocks read 8 rows a page apart, so that each block
    // prefetches the rows of the block one loop step ahead (ir/prefetch.h).
    if (c == 2 && isa == "avx2" && !random_only) p = {{16, 16, 16, 16, 16, 4}, {4, 3, 5, 0, 1, 2}, 8};
    // SVE at 2048 bits: a byte plan whose two-source shuffles select between two lookups, which
    // GCC 12 could not compile when it folded their constant tables (templates/sve_prelude.h).
    if (c == 2 && vector_bits == 2048 && !random_only) p = {{1, 1, 5, 4, 36, 3, 1, 1}, {3, 5, 4, 1, 7, 6, 0, 2}, 1};
    const bool x86 = isa == "avx512" || isa == "avx512skx" || isa == "avx2";
    // x86: kept rows of 520 bytes, off the lines, asking for streaming stores: each row copied
    // straight across with its whole lines streamed (ir/staging.h, plan_row_streaming).
    const bool kept_rows = c == 3 && x86 && cases > 3 && !random_only;
    if (kept_rows) p = {{7, 3, 130}, {1, 0, 2}, 4};
    // x86: output lines assembled across tiles (ir/assembly.h), asking for streaming stores:
    // 77 streams of 72-byte pieces with tails in both block axes; 9 streams of uint16 pieces of
    // 370 bytes, a block axis of 4 beside them.
    const bool assembled = x86 && (c == 4 || c == 5) && cases > 5 && !random_only;
    if (assembled && c == 4) p = {{5, 7, 9, 11}, {1, 3, 0, 2}, 8};
    if (assembled && c == 5) p = {{11, 5, 37, 9}, {3, 0, 2, 1}, 2};
    // x86: a 2-D transpose assembled from the split problem (ir/assembly.h, plan_split_assembly):
    // both axes split, tails in both block axes inside each tile.
    // x86: a 2-D transpose of primes (no divisor to split by), its own loops chunked
    // (plan_chunked_assembly): whole tiles, then the remainders with the tails in three more nests.
    // And short output rows of a prime count (97), taken whole: one stream per tile.
    const bool split = x86 && (c == 6 || c == 7 || c == 8) && cases > 8 && !random_only;
    if (split && c == 6) p = {{1000, 1020}, {1, 0}, 4};
    if (split && c == 7) p = {{1031, 1009}, {1, 0}, 4};
    if (split && c == 8) p = {{97, 2003}, {1, 0}, 4};
    // AVX-512, AVX2: a 2-D transpose of rows longer than 16 KiB, asking for streaming stores: the
    // streaming walk pairs its output lines (ir/line_pairs.h), 5 row chunks (2 pairs, then one
    // more in a second nest), a tail chunk in the innermost loop.
    const bool paired = (isa == "avx512" || isa == "avx512skx" || isa == "avx2") && c == 9 && cases > 9 && !random_only;
    if (paired) p = {{80, 4105}, {1, 0}, 4};
    // x86: a 3-D reversal of primes, whole output rows of 604 bytes chained along the middle axis
    // (plan_row_chain_assembly): 64 streams a tile, I's tail chunk in a second nest.
    const bool chained = x86 && c == 10 && cases > 10 && !random_only;
    if (chained) p = {{151, 20, 139}, {2, 1, 0}, 4};
    // x86: a short kept row (3 uint16, padded to 4 lanes in the block) in an assembled walk:
    // strided tiles of 40 input rows of 120 bytes, pieces of 240 bytes to 20 streams.
    const bool kept_short = x86 && c == 11 && cases > 11 && !random_only;
    if (kept_short) p = {{3, 40, 30, 20, 3}, {3, 0, 2, 1, 4}, 2};
    // x86: a 2-D transpose of 3 x uint16 elements (a short kept axis) assembled from the split
    // problem: both axes split (350 as 2 x 175, 200 as 5 x 40), pieces of 240 bytes.
    const bool kept_split = x86 && c == 12 && cases > 12 && !random_only;
    if (kept_split) p = {{200, 350, 3}, {1, 0, 2}, 2};
    // x86: a short output row that is not kept (planar to interleaved, 3 x uint16) assembled from
    // the split problem: 2100 as 7 x 300, 256 as 8 x 32, pieces of 192 bytes to 300 streams.
    const bool short_split = x86 && c == 13 && cases > 13 && !random_only;
    if (short_split) p = {{3, 256, 2100}, {2, 1, 0}, 2};
    // x86: planes interleaved (ir/interleave.h; AVX-512 levels, bytes with VBMI; the GenTT block
    // elsewhere): two batches of 3 planes of 700 (a tail of 28 or 60 lanes); 5 planes of 1600
    // float32, streaming stores asked for (C > 3 in cache only then), one row, no tail.
    const bool interleaved = x86 && (c == 14 || c == 15) && cases > 15 && !random_only;
    if (interleaved && c == 14) p = {{2, 3, 700}, {0, 2, 1}, isa == "avx512" ? 1 : 2};
    if (interleaved && c == 15) p = {{5, 1600}, {1, 0}, 4};
    // x86: 2-D transposes whose streaming variant walks band tiles (ir/band.h) and so carries an
    // unbanded twin: float32 with tails in both block axes, bytes (AVX-512: split rows, 4 MiB and
    // more). The suite runs each module with GENTT_BANDS=1 and =0 (tests/e2e/CMakeLists.txt).
    const bool banded = x86 && (c == 16 || c == 17) && cases > 17 && !random_only;
    if (banded && c == 16) p = {{1040, 1030}, {1, 0}, 4};
    if (banded && c == 17) p = {{2112, 2050}, {1, 0}, 1};
    // x86: kept rows in groups (make_plan's kept_row_groups), asking for streaming stores: rows
    // of 520 bytes streamed straight across 8 rows of axis 0 a tile, then the last 3; rows of 128
    // bytes (whole lines), whose streaming variant copies blocks of 8 rows of axis 0, then 2.
    const bool kept_groups = x86 && (c == 18 || c == 19) && cases > 19 && !random_only;
    if (kept_groups && c == 18) p = {{11, 3, 130}, {1, 0, 2}, 4};
    if (kept_groups && c == 19) p = {{10, 5, 32}, {1, 0, 2}, 4};
    // x86: short kept rows off their lines past 8 MiB, asking for streaming stores: blocks of one
    // row chunk (396-byte rows: 6 chunks and a tail) in a staged walk, each row prefetching the
    // next rows' bytes at the start of its chunk loop (ir/prefetch.h's choose_row_prefetch).
    const bool row_prefetch = x86 && c == 20 && cases > 20 && !random_only;
    if (row_prefetch) p = {{45, 54, 10, 99}, {1, 2, 0, 3}, 4};
    // x86: short kept rows (120 bytes, off their lines) past 16 MiB whose walk stages no tile: row
    // tiles of 4 x 3 rows (12 runs), the input's next axis above them (ir/staging.h's
    // tile_rows_for_staging), staged in tiles of 1440 bytes.
    const bool row_tiles = x86 && c == 21 && cases > 21 && !random_only;
    if (row_tiles) p = {{3, 1024, 48, 60}, {2, 1, 0, 3}, 2};
    // x86: a strided tile's short input rows (88 bytes, 70 of them) lengthened by a split of the
    // axis that continues them (ir/assembly.h's plan_longer_rows): 40 as 4 x 10, rows of 880 bytes.
    // And where the axis is prime (13), taken whole: one contiguous tile of 240 KB.
    const bool longer_rows = x86 && (c == 22 || c == 23) && cases > 23 && !random_only;
    if (longer_rows && c == 22) p = {{2, 70, 3, 40, 22}, {4, 0, 3, 2, 1}, 4};
    if (longer_rows && c == 23) p = {{2, 70, 3, 13, 22}, {4, 0, 3, 2, 1}, 4};
    const bool streaming = x86 && c >= cases - cases / 4;
    if (streaming) make_streamable(p, rng, isa == "avx2" ? 32 : 64);
    // The eighth before them ask for streaming stores on any shape: where no streaming variant
    // exists, the cached walk's output is staged (ir/staging.h) wherever a loop level writes
    // contiguous tiles.
    const bool staged = x86 && !streaming && c >= cases - cases / 4 - cases / 8 && c > 2;
    // avx512skx moves single bytes without VBMI (word permutes and in-lane byte shuffles): half of
    // its other cases get byte-unit elements.
    if (isa == "avx512skx" && !streaming && !assembled && !split && !paired && !chained && !kept_short && !kept_split && !short_split && !interleaved && !banded && !kept_groups && !row_prefetch && !row_tiles && !longer_rows && c >= 2 && c % 2 == 0) p.elem_bytes = 1 + 2 * static_cast<int64_t>(rng() % 4);
    nlohmann::ordered_json k;
    const std::string name = prefix + std::to_string(c);
    k["name"] = name;
    k["dtype"] = dtype_for(p.elem_bytes, rng);
    k["shape"] = p.shape;
    k["perm"] = p.perm;
    k["isa"] = isa;
    if (vector_bits) k["vector_bits"] = vector_bits;
    if (streaming || staged || kept_rows || assembled || split || paired || chained || kept_short || kept_split || short_split || interleaved || banded || kept_groups || row_prefetch || longer_rows) k["stores"] = "streaming";
    specs[c % shards]["kernels"].push_back(k);
    arm_cases.push_back({name, p.elem_bytes, p.shape, p.perm});
  }
  for (int s = 0; s < shards; ++s) {
    const std::string path = dir + "/cases_" + std::to_string(s) + ".json";
    std::ofstream(path) << specs[s].dump(1) << "\n";
  }
  gentt::test::write_arm_cases(dir + "/cases.cpp", arm_cases, "e2e_make_specs: the cases of cases_*.json");
  return 0;
}
