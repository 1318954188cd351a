#include "ir/problem.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <charconv>
#include <limits>

#include "ir/error.h"

namespace gentt {

// ---------------------------------------------------------------------------------------------
// ISAs

namespace {

struct IsaInfo {
  Isa isa;
  std::string_view name;
};
// Documentation order (contracts.md); isa_name() and parse_isa() search it.
constexpr std::array<IsaInfo, 8> kIsas = {{
    {Isa::scalar, "scalar"},
    {Isa::avx2, "avx2"},
    {Isa::avx512, "avx512"},
    {Isa::avx512skx, "avx512skx"},
    {Isa::neon, "neon"},
    {Isa::sve, "sve"},
    {Isa::sve2, "sve2"},
    {Isa::sunway, "sunway"},
}};

}  // namespace

const std::vector<Isa>& all_isas() {
  static const std::vector<Isa> isas = [] {
    std::vector<Isa> v;
    for (const IsaInfo& info : kIsas) v.push_back(info.isa);
    return v;
  }();
  return isas;
}

std::string_view isa_name(Isa isa) {
  for (const IsaInfo& info : kIsas)
    if (info.isa == isa) return info.name;
  throw InternalError(fmt::format("isa_name: unknown Isa value {}", static_cast<int>(isa)));
}

std::optional<Isa> parse_isa(std::string_view name) {
  for (const IsaInfo& info : kIsas)
    if (info.name == name) return info.isa;
  return std::nullopt;
}

bool is_avx512_level(Isa isa) { return isa == Isa::avx512 || isa == Isa::avx512skx; }

// ---------------------------------------------------------------------------------------------
// Tuning

std::string_view tune_name(Tune tune) { return tune == Tune::znver4 ? "znver4" : "generic"; }

std::optional<Tune> parse_tune(std::string_view name) {
  if (name == "generic") return Tune::generic;
  if (name == "znver4") return Tune::znver4;
  return std::nullopt;
}

void check_tune(const Target& target, bool vector_bits_given, const std::string& field) {
  if (target.tune == Tune::generic) return;
  if (!is_avx512_level(target.isa))
    throw UserError(field, fmt::format("tune {} applies to isa avx512 and avx512skx, not {}", tune_name(target.tune),
                                       isa_name(target.isa)));
  if (vector_bits_given)
    throw UserError(field, fmt::format("tune {} chooses the vector width itself; leave vector_bits out (or give "
                                       "vector_bits without tune)",
                                       tune_name(target.tune)));
}

// ---------------------------------------------------------------------------------------------
// Vector bits

int resolve_vector_bits(const Target& target, const std::string& field) {
  const int bits = target.vector_bits;
  const std::string_view isa = isa_name(target.isa);
  switch (target.isa) {
    case Isa::scalar:
      // The scalar backend moves one element at a time; 128 is a nominal width that only
      // sizes the planner's block (lanes_for), so it is not the user's to choose.
      if (bits != 0)
        throw UserError(field, fmt::format("vector_bits is not configurable for isa scalar "
                                           "(got {}); leave it out",
                                           bits));
      return 128;
    case Isa::avx512:
    case Isa::avx512skx:
      // 512: zmm blocks (the default); 256: ymm blocks with AVX-512VL's instructions, for CPUs
      // that split 512-bit shuffles into two halves (Zen 4; ir/vector_width.h).
      if (bits == 0) return 512;
      if (bits != 256 && bits != 512)
        throw UserError(field, fmt::format("isa {} needs vector_bits 512 (zmm blocks, the default) or 256 (ymm "
                                           "blocks), got {}",
                                           isa, bits));
      return bits;
    case Isa::avx2:
    case Isa::neon: {
      const int fixed = target.isa == Isa::avx2 ? 256 : 128;
      if (bits != 0 && bits != fixed)
        throw UserError(field, fmt::format("isa {} has {}-bit vectors: vector_bits must be {} or "
                                           "left out, got {}",
                                           isa, fixed, fixed, bits));
      return fixed;
    }
    case Isa::sve:
    case Isa::sve2:
      if (bits == 0) return 512;  // A64FX, the SVE machine of paper 000's era
      if (bits < 128 || bits > 2048 || bits % 128 != 0)
        throw UserError(field, fmt::format("isa {} needs vector_bits in 128..2048 and a multiple "
                                           "of 128, got {}",
                                           isa, bits));
      return bits;
    case Isa::sunway:
      if (bits == 0) return 512;  // SW26010-Pro, the current chip
      if (bits != 256 && bits != 512)
        throw UserError(field, fmt::format("isa sunway needs vector_bits 256 (SW26010) or 512 "
                                           "(SW26010-Pro), got {}",
                                           bits));
      return bits;
  }
  throw InternalError(
      fmt::format("resolve_vector_bits: unknown Isa value {}", static_cast<int>(target.isa)));
}

// ---------------------------------------------------------------------------------------------
// Dtypes

const std::vector<Dtype>& named_dtypes() {
  static const std::vector<Dtype> dtypes = {
      {"int8", 1},     {"uint8", 1},   {"int16", 2},     {"uint16", 2},      {"float16", 2},
      {"bfloat16", 2}, {"int32", 4},   {"uint32", 4},    {"float32", 4},     {"int64", 8},
      {"uint64", 8},   {"float64", 8}, {"complex64", 8}, {"complex128", 16},
  };
  return dtypes;
}

std::string_view store_mode_name(StoreMode mode) {
  switch (mode) {
    case StoreMode::automatic: return "auto";
    case StoreMode::streaming: return "streaming";
    case StoreMode::cached: return "cached";
  }
  return "?";
}

std::optional<StoreMode> parse_store_mode(std::string_view name) {
  for (StoreMode m : {StoreMode::automatic, StoreMode::streaming, StoreMode::cached})
    if (store_mode_name(m) == name) return m;
  return std::nullopt;
}

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (const Dtype& d : named_dtypes())
    if (d.name == name) return d;

  // bytesN: N in decimal without leading zeros, so that each size has exactly one name (it
  // appears in default kernel names).
  constexpr std::string_view kPrefix = "bytes";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  const std::string_view digits = name.substr(kPrefix.size());
  if (digits.empty() || digits.front() == '0') return std::nullopt;
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (n < 1 || n > kMaxElemBytes) return std::nullopt;
  return Dtype{std::string(name), n};
}

// ---------------------------------------------------------------------------------------------
// Shape and permutation

namespace {

// a * b, or nullopt when it does not fit in int64_t. Operands are non-negative.
std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace

void validate_problem_shape(const std::vector<int64_t>& shape, const std::vector<int>& perm,
                            int64_t elem_bytes, const std::string& prefix) {
  const std::string shape_field = prefix + "/shape";
  const std::string perm_field = prefix + "/perm";
  const auto rank = static_cast<int64_t>(shape.size());

  if (elem_bytes < 1 || elem_bytes > kMaxElemBytes)
    throw UserError(prefix + "/dtype", fmt::format("element size must be 1..{} bytes, got {}",
                                                   kMaxElemBytes, elem_bytes));
  if (rank == 0) throw UserError(shape_field, "shape must have at least one axis");
  if (rank > kMaxRank)
    throw UserError(shape_field,
                    fmt::format("shape has {} axes; gentt supports at most {}", rank, kMaxRank));
  for (int64_t i = 0; i < rank; ++i)
    if (shape[i] < 1)
      throw UserError(fmt::format("{}/{}", shape_field, i),
                      fmt::format("extent must be at least 1, got {}", shape[i]));

  if (static_cast<int64_t>(perm.size()) != rank)
    throw UserError(perm_field,
                    fmt::format("has {} entries but shape has {} axes", perm.size(), rank));
  std::vector<int> seen_at(rank, -1);  // input axis -> perm index naming it
  for (int k = 0; k < rank; ++k) {
    const int axis = perm[k];
    const std::string field = fmt::format("{}/{}", perm_field, k);
    if (axis < 0 || axis >= rank)
      throw UserError(field, fmt::format("axis {} is out of range for rank {}", axis, rank));
    if (seen_at[axis] >= 0)
      throw UserError(field, fmt::format("axis {} appears twice (also at {}/{}); perm must list "
                                         "every axis 0..{} once",
                                         axis, perm_field, seen_at[axis], rank - 1));
    seen_at[axis] = k;
  }

  // Kernels address bytes with signed 64-bit offsets: the tensor's size must fit.
  std::optional<int64_t> bytes = elem_bytes;
  for (int64_t extent : shape)
    if (bytes) bytes = checked_mul(*bytes, extent);
  if (!bytes)
    throw UserError(shape_field,
                    fmt::format("{} elements of {} bytes do not fit in 64-bit byte offsets "
                                "(at most 2^63 - 1 bytes)",
                                fmt::join(shape, " x "), elem_bytes));
}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t extent : shape) n *= extent;
  return n;
}

std::string default_kernel_name(const Problem& p) {
  std::string name = fmt::format("gentt_{}_s{}_p{}_{}", p.dtype.name, fmt::join(p.shape, "x"),
                                 fmt::join(p.perm, "_"), isa_name(p.target.isa));
  // Only ISAs with a choice of widths carry it in the name: one spec may ask for several.
  // (sve512, sunway256; sve2_512, since "sve2512" would read as a width of 2512.)
  if (p.target.isa == Isa::sve || p.target.isa == Isa::sunway)
    name += std::to_string(resolve_vector_bits(p.target, "vector_bits"));
  if (p.target.isa == Isa::sve2) name += "_" + std::to_string(resolve_vector_bits(p.target, "vector_bits"));
  // A tuned kernel says for what (its width is the tuner's choice, ir/vector_width.h).
  if (p.target.tune != Tune::generic) name += "_" + std::string(tune_name(p.target.tune));
  // AVX-512 levels carry a width only when it is not the default 512 (avx512_256).
  if (is_avx512_level(p.target.isa))
    if (const int bits = resolve_vector_bits(p.target, "vector_bits"); bits != 512) name += "_" + std::to_string(bits);
  return name;
}

}  // namespace gentt
