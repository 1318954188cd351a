// Fuzz target: bytes -> a small valid problem -> the generator's pipeline (ir/pipeline.h:
// canonical form, plan, lowering, streaming variant) -> the IR verifier and the interpreter
// against the reference permutation, bit for bit.
//
// The bytes decode (decode_problem) to any ISA and vector width the IR takes, an element size
// of 1-128 bytes (odd ones included), rank 1-8, extents 1-70 with the tensor under
// kMaxTensorBytes, any permutation, a store mode the target allows, with or without NAME_part.
// Both variants (cached, and streaming where the pipeline makes one) must pass the verifier, and
// run whole or in 2-4 parts in any order, must write exactly what gentt::reference_permute does.
// A UserError or any other exception, a mismatch, a crash or a sanitizer report is a finding.
#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "gentt/reference.h"
#include "ir/interpret.h"
#include "ir/pipeline.h"
#include "ir/stream.h"
#include "ir/verify.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/problem_check.h"

namespace {

// Bytes of one tensor at most: the interpreter runs a kernel lane by lane, so this bounds the
// time of one input (16 KiB ran 55 inputs a second at -O0 under the sanitizers).
constexpr std::int64_t kMaxTensorBytes = 4 << 10;

gentt::Problem decode_problem(gentt::fuzz::Bytes& b) {
  gentt::Problem p;
  p.name = "fuzz";
  const auto& isas = gentt::all_isas();
  p.target.isa = isas[b.below(static_cast<unsigned>(isas.size()))];
  const unsigned width = b.byte();
  if (p.target.isa == gentt::Isa::sve || p.target.isa == gentt::Isa::sve2)
    p.target.vector_bits = 128 * static_cast<int>(1 + width % 16);
  else if (p.target.isa == gentt::Isa::sunway)
    p.target.vector_bits = width & 1 ? 256 : 512;
  else if (gentt::is_avx512_level(p.target.isa)) {
    // zmm blocks, ymm blocks, or the Zen 4 tuning's choice between them (ir/vector_width.h).
    if (width % 3 == 1) p.target.vector_bits = 256;
    if (width % 3 == 2) p.target.tune = gentt::Tune::znver4;
  }
  p.target.vector_bits = gentt::resolve_vector_bits(p.target, "vector_bits");

  static constexpr std::array<std::int64_t, 16> sizes = {1, 2, 4, 8, 16, 3, 5, 6, 7, 12, 24, 32, 10, 64, 100, 128};
  p.dtype = *gentt::parse_dtype("bytes" + std::to_string(sizes[b.below(sizes.size())]));

  const int rank = 1 + static_cast<int>(b.below(8));
  p.shape = b.shape(rank, kMaxTensorBytes / p.dtype.bytes, [](unsigned v) {
    return static_cast<std::int64_t>(v < 128 ? 1 + v % 4 : v < 224 ? 1 + v % 17 : 1 + v % 70);
  });
  p.perm = b.permutation(rank);

  const unsigned options = b.byte();
  p.threads = options & 1;
  static constexpr std::array<gentt::StoreMode, 3> modes = {gentt::StoreMode::automatic, gentt::StoreMode::streaming,
                                                            gentt::StoreMode::cached};
  p.stores = modes[(options >> 1) % 3];
  if (!gentt::target_streams(p.target) && p.stores == gentt::StoreMode::streaming) p.stores = gentt::StoreMode::cached;
  return p;
}

// The kernel run whole (parts == 1), or in `parts` parts starting at part `first` and wrapping
// around, must write `want`.
void check_kernel(const gentt::Kernel& k, const gentt::Problem& p, const std::vector<unsigned char>& in,
                  const std::vector<unsigned char>& want, int parts, int first) {
  try {
    gentt::verify_kernel(k);
  } catch (const std::exception& e) {
    gentt::fuzz::fail(k.name + " fails the IR verifier (" + e.what() + "): " + gentt::fuzz::describe(p));
  }
  const auto compare = [&](const std::vector<unsigned char>& got, const std::string& how) {
    if (got == want) return;
    const auto at = std::mismatch(want.begin(), want.end(), got.begin()).first - want.begin();
    gentt::fuzz::fail(k.name + " " + how + " differs from the reference at byte " + std::to_string(at) +
                      " (element " + std::to_string(at / p.dtype.bytes) + "): " + gentt::fuzz::describe(p));
  };
  std::vector<unsigned char> got(want.size(), 0xEE);
  if (parts == 1) {
    gentt::interpret(k, in.data(), got.data());
    compare(got, "run whole");
    return;
  }
  for (int i = 0; i < parts; ++i) gentt::interpret_part(k, in.data(), got.data(), (first + i) % parts, parts);
  compare(got, "run in " + std::to_string(parts) + " parts");
}

}  // namespace

GENTT_FUZZ_TARGET(pipeline) {
  gentt::fuzz::Bytes b(data, size);
  const gentt::Problem p = decode_problem(b);
  const int parts = 1 + static_cast<int>(b.below(4));
  const int first = static_cast<int>(b.below(4));
  const std::uint64_t seed = b.u64();

  gentt::Lowered lowered;
  try {
    lowered = gentt::run_pipeline(p);
  } catch (const std::exception& e) {
    gentt::fuzz::fail(std::string("the pipeline refused a valid problem (") + e.what() + "): " + gentt::fuzz::describe(p));
  }
  const std::int64_t bytes = gentt::element_count(p.shape) * p.dtype.bytes;
  std::vector<unsigned char> in(static_cast<size_t>(bytes)), want(static_cast<size_t>(bytes));
  gentt::fuzz::fill_pattern(in.data(), in.size(), seed);
  gentt::reference_permute(in.data(), want.data(), static_cast<size_t>(p.dtype.bytes), p.shape, p.perm);
  check_kernel(lowered.kernel, p, in, want, parts, first);
  if (lowered.stream_kernel) check_kernel(*lowered.stream_kernel, p, in, want, parts, first);
  if (lowered.unbanded_stream_kernel) check_kernel(*lowered.unbanded_stream_kernel, p, in, want, parts, first);
  return 0;
}
