// Fuzz target: bytes -> a run-time permute descriptor (runtime/include/gentt/permute.h), often
// invalid -> gentt::plan_permute and execute, against a model of the NumPy definition.
//
// The bytes decode (decode) to a named dtype or an opaque element size, rank 0-6, small
// extents, a permutation, contiguous or strided views (padded, reversed, broadcast, or raw
// small strides that may make output elements share an address), a fused conversion, alpha and
// beta, 1-2 threads, an engine ISA this CPU runs, the whole run or parts; one input in eight
// also gets one deliberate mistake (unknown dtype, extent 0, a repeated axis, ...). Either
// plan_permute throws gentt::Error naming an argument, or the plan runs and writes exactly what
// the model writes: every output element moved (or converted and scaled by the library's own
// RowTransform, one element at a time) and nothing else of the output buffer touched. Misused
// buffers (null, overlapping) must throw gentt::Error and leave the output as it was. Any other
// exception, a mismatch, a crash or a sanitizer report is a finding.
#include <gentt/convert.h>
#include <gentt/error.h>
#include <gentt/permute.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

namespace {

using Ints = std::vector<std::int64_t>;

// Elements of one tensor at most (strides pad the views to a few times that).
constexpr std::int64_t kMaxElements = 2048;

constexpr std::array<const char*, 15> kDtypes = {"int8",    "uint8",    "int16",   "uint16",    "int32",
                                                 "uint32",  "int64",    "uint64",  "float16",   "bfloat16",
                                                 "float32", "float64",  "complex64", "complex128", "bool"};

std::string join(const Ints& v) {
  std::string text = "(";
  for (size_t i = 0; i < v.size(); ++i) text += (i ? "," : "") + std::to_string(v[i]);
  return text + ")";
}

std::string describe(const gentt::PermuteDesc& d) {
  Ints perm(d.perm.begin(), d.perm.end());
  auto c = [](std::complex<double> z) { return "(" + std::to_string(z.real()) + "," + std::to_string(z.imag()) + ")"; };
  return "dtype \"" + d.dtype + "\" elem_bytes " + std::to_string(d.elem_bytes) + " shape " + join(d.shape) +
         " perm " + join(perm) + " in_strides " + join(d.in_strides) + " out_strides " + join(d.out_strides) +
         " out_dtype \"" + d.out_dtype + "\" alpha " + c(d.alpha) + " beta " + c(d.beta) + " threads " +
         std::to_string(d.threads) + " isa " + d.isa;
}

// Strides of a C-order array of `shape` whose axes are padded by up to `pad` elements.
Ints padded_strides(const Ints& shape, gentt::fuzz::Bytes& b, unsigned pad) {
  Ints s(shape.size());
  std::int64_t stride = 1;
  for (size_t a = shape.size(); a-- > 0;) {
    s[a] = stride;
    stride *= shape[a] + b.below(pad + 1);
  }
  return s;
}

gentt::PermuteDesc decode(gentt::fuzz::Bytes& b) {
  gentt::PermuteDesc d;
  const unsigned type = b.byte();
  std::int64_t elem = 0;
  if (type % 4 != 0) {
    d.dtype = kDtypes[b.below(kDtypes.size())];
    if (const auto t = gentt::element_type(d.dtype)) elem = t->bytes;
  } else {
    static constexpr std::array<std::int64_t, 12> sizes = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 64};
    d.elem_bytes = elem = sizes[b.below(sizes.size())];
  }
  const int rank = static_cast<int>(b.below(7));
  d.shape = b.shape(rank, kMaxElements, [](unsigned v) { return static_cast<std::int64_t>(v < 160 ? 1 + v % 4 : 1 + v % 33); });
  d.perm = b.permutation(rank);
  Ints out_shape(static_cast<size_t>(rank));
  for (int k = 0; k < rank; ++k) out_shape[static_cast<size_t>(k)] = d.shape[static_cast<size_t>(d.perm[static_cast<size_t>(k)])];

  switch (b.below(4)) {
    case 0: break;  // contiguous
    case 1:         // a padded parent, some axes reversed or broadcast; a padded output
    case 2: {
      d.in_strides = padded_strides(d.shape, b, 2);
      for (auto& s : d.in_strides) {
        const unsigned v = b.byte();
        if (v % 5 == 0) s = -s;
        else if (v % 11 == 1) s = 0;
      }
      if (b.flag()) d.out_strides = padded_strides(out_shape, b, 1);
      break;
    }
    case 3:  // raw strides in [-6, 6]: output elements may share an address
      for (int a = 0; a < rank; ++a) d.in_strides.push_back(static_cast<std::int64_t>(b.below(13)) - 6);
      for (int a = 0; a < rank; ++a) d.out_strides.push_back(static_cast<std::int64_t>(b.below(13)) - 6);
      break;
  }
  const unsigned conv = b.byte();
  if (conv % 4 == 1) d.out_dtype = kDtypes[b.below(kDtypes.size())];
  if (conv % 8 == 3) d.out_dtype = "bytes" + std::to_string(elem);
  static constexpr std::array<std::complex<double>, 8> alphas = {
      std::complex<double>{1, 0}, {1, 0}, {2, 0}, {-0.5, 0}, {0.25, 0}, {0, 1}, {1, -2}, {3, 0}};
  static constexpr std::array<std::complex<double>, 8> betas = {
      std::complex<double>{0, 0}, {0, 0}, {0, 0}, {1, 0}, {-1, 0}, {0.5, 0}, {0, 1}, {2, 0}};
  if (conv & 16) d.alpha = alphas[b.below(alphas.size())];
  if (conv & 32) d.beta = betas[b.below(betas.size())];

  static constexpr std::array<const char*, 5> isas = {"auto", "scalar", "avx2", "avx512", "avx512skx"};
  d.isa = isas[b.below(isas.size())];
  d.threads = 1 + static_cast<int>(b.below(2));

  // One input in eight: one deliberate mistake.
  const unsigned mistake = b.byte();
  if (mistake % 8 == 0) {
    switch ((mistake >> 3) % 12) {
      case 0: d.dtype = "float31"; break;
      case 1: d.elem_bytes = elem + 1; break;
      case 2: d.dtype.clear(); d.elem_bytes = mistake & 128 ? 0 : 5000; break;
      case 3: if (rank > 0) d.shape[b.below(static_cast<unsigned>(rank))] = -static_cast<std::int64_t>(b.below(3)); break;
      case 4: if (rank > 1) d.perm[0] = d.perm[1]; break;
      case 5: if (rank > 0) d.perm[b.below(static_cast<unsigned>(rank))] = rank + static_cast<int>(b.below(3)); break;
      case 6: d.in_strides.push_back(1); break;
      case 7: d.out_strides.assign(static_cast<size_t>(rank) + 1, 1); break;
      case 8: d.threads = mistake & 128 ? -1 : 100000; break;
      case 9: d.isa = "mmx"; break;
      case 10: d.out_dtype = "float31"; break;
      case 11: d.shape.push_back(1); break;
    }
  }
  return d;
}

struct Span {
  std::int64_t lo = 0, hi = 1;  // elements [lo, hi) relative to the view's base
};
Span span_of(const Ints& shape, const Ints& strides) {
  Span s;
  for (size_t a = 0; a < shape.size(); ++a) {
    const std::int64_t reach = (shape[a] - 1) * strides[a];
    (reach < 0 ? s.lo : s.hi) += reach;
  }
  return s;
}
Ints contiguous(const Ints& shape) {
  Ints s(shape.size());
  std::int64_t stride = 1;
  for (size_t a = shape.size(); a-- > 0;) {
    s[a] = stride;
    stride *= shape[a];
  }
  return s;
}

bool is_nan(const unsigned char* p, int bytes, bool bfloat) {
  if (bytes == 2) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return bfloat ? (v & 0x7f80) == 0x7f80 && (v & 0x7f) : (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
  }
  if (bytes == 4) {
    float v;
    std::memcpy(&v, p, 4);
    return std::isnan(v);
  }
  double v;
  std::memcpy(&v, p, 8);
  return std::isnan(v);
}

}  // namespace

GENTT_FUZZ_TARGET(runtime) {
  gentt::fuzz::Bytes b(data, size);
  const gentt::PermuteDesc d = decode(b);
  const unsigned run = b.byte();
  const std::uint64_t seed = b.u64();

  gentt::PermutePlan plan;
  try {
    plan = gentt::plan_permute(d);
  } catch (const gentt::Error& e) {
    const std::string what = e.what();
    if (e.argument().empty() || what.rfind(e.argument() + ": ", 0) != 0)
      gentt::fuzz::fail("a gentt::Error that does not start with its argument: \"" + what + "\" for " + describe(d));
    return 0;
  }
  (void)plan.describe();

  // The plan accepted d: the model needs its element types.
  const std::string from_name = d.dtype.empty() ? "bytes" + std::to_string(d.elem_bytes) : d.dtype;
  const std::string to_name = d.out_dtype.empty() ? from_name : d.out_dtype;
  const auto from = gentt::element_type(from_name), to = gentt::element_type(to_name);
  const bool plain = from_name == to_name && d.alpha == 1.0 && d.beta == 0.0;
  if (!plain && (!from || !to))
    gentt::fuzz::fail("planned a conversion or scaling of opaque elements: " + describe(d));
  std::optional<gentt::RowTransform> transform;
  if (!plain) transform = gentt::make_row_transform(*from, *to, d.alpha, d.beta);
  const std::int64_t ie = d.dtype.empty() ? d.elem_bytes : (from ? from->bytes : std::stoll(from_name.substr(5)));
  const std::int64_t oe = plain ? ie : to->bytes;

  const size_t rank = d.shape.size();
  Ints out_shape(rank);
  for (size_t k = 0; k < rank; ++k) out_shape[k] = d.shape[static_cast<size_t>(d.perm[k])];
  const Ints is = d.in_strides.empty() ? contiguous(d.shape) : d.in_strides;
  const Ints os = d.out_strides.empty() ? contiguous(out_shape) : d.out_strides;
  const Span in_span = span_of(d.shape, is), out_span = span_of(out_shape, os);
  std::vector<unsigned char> in(static_cast<size_t>((in_span.hi - in_span.lo) * ie));
  std::vector<unsigned char> out(static_cast<size_t>((out_span.hi - out_span.lo) * oe));
  gentt::fuzz::fill_pattern(in.data(), in.size(), seed);
  gentt::fuzz::fill_pattern(out.data(), out.size(), ~seed);
  const unsigned char* in_base = in.data() - in_span.lo * ie;
  unsigned char* out_base = out.data() - out_span.lo * oe;

  // The model: out_view[j] = in_view[i], i[perm[k]] = j[k].
  std::vector<unsigned char> want = out;
  unsigned char* want_base = want.data() - out_span.lo * oe;
  std::int64_t count = 1;
  for (std::int64_t n : d.shape) count *= n;
  Ints j(rank, 0);
  for (std::int64_t t = 0; t < count; ++t) {
    std::int64_t io = 0, oo = 0;
    for (size_t k = 0; k < rank; ++k) {
      io += j[k] * is[static_cast<size_t>(d.perm[k])];
      oo += j[k] * os[k];
    }
    if (transform) (*transform)(in_base + io * ie, want_base + oo * oe, 1);
    else std::memcpy(want_base + oo * oe, in_base + io * ie, static_cast<size_t>(ie));
    for (size_t k = rank; k-- > 0;) {
      if (++j[k] < out_shape[k]) break;
      j[k] = 0;
    }
  }

  // Misuse first: nothing may be written.
  if (run % 8 == 7) {
    const std::vector<unsigned char> before = out;
    auto refused = [&](const char* what, auto call) {
      try {
        call();
      } catch (const gentt::Error&) {
        if (out != before) gentt::fuzz::fail(std::string(what) + " threw but wrote the output: " + describe(d));
        return;
      }
      gentt::fuzz::fail(std::string(what) + " was not refused: " + describe(d));
    };
    refused("execute(nullptr, out)", [&] { plan.execute(nullptr, out_base); });
    refused("execute(in, nullptr)", [&] { plan.execute(in_base, nullptr); });
    refused("execute_part(part = nparts)", [&] { plan.execute_part(in_base, out_base, 2, 2); });
  }

  try {
    if (run & 8) {
      const int parts = 1 + static_cast<int>((run >> 4) % 4);
      for (int p = 0; p < parts; ++p) plan.execute_part(in_base, out_base, (p + static_cast<int>(run >> 6)) % parts, parts);
    } else {
      plan.execute(in_base, out_base);
    }
  } catch (const gentt::Error& e) {
    gentt::fuzz::fail(std::string("executing a plan on valid buffers threw \"") + e.what() + "\": " + describe(d));
  }

  if (out == want) return 0;
  // Scaling: which NaN an operation with a NaN operand gives is unspecified (gentt/convert.h).
  const bool scaled = d.alpha != 1.0 || d.beta != 0.0;
  const bool floating = to && (to->kind == gentt::ScalarKind::float16 || to->kind == gentt::ScalarKind::bfloat16 ||
                               to->kind == gentt::ScalarKind::float32 || to->kind == gentt::ScalarKind::float64 ||
                               to->kind == gentt::ScalarKind::complex64 || to->kind == gentt::ScalarKind::complex128);
  const int part_bytes = !to ? 0
                         : to->kind == gentt::ScalarKind::complex64  ? 4
                         : to->kind == gentt::ScalarKind::complex128 ? 8
                                                                      : to->bytes;
  for (size_t at = 0; at < out.size(); at += static_cast<size_t>(part_bytes ? part_bytes : 1)) {
    const size_t n = static_cast<size_t>(part_bytes ? part_bytes : 1);
    if (std::memcmp(&out[at], &want[at], n) == 0) continue;
    if (scaled && floating && is_nan(&out[at], part_bytes, to->kind == gentt::ScalarKind::bfloat16) &&
        is_nan(&want[at], part_bytes, to->kind == gentt::ScalarKind::bfloat16))
      continue;
    gentt::fuzz::fail("the output differs from the model at byte " + std::to_string(at) + " of the output buffer: " +
                      describe(d) + "\n" + plan.describe());
  }
  return 0;
}
