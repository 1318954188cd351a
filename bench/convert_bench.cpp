// gentt_convert_bench: fused conversion in the run-time library against the plain permutation of
// the wider type (issue 10: conversions at 0.8x of its speed or better).
//
//   build/bench/gentt_convert_bench [--cases FILE] [--samples N] [--min-sample-ms X] [--threads T]
//                                   [--isa ISA] [--limit N] [--no-verify] [--csv FILE]
//
// FILE (default bench/sets/convert.txt): `from to ; shape... ; axes...` a line. Per case, one
// process: gentt::PermutePlan::execute with out_dtype = to, and the plain permutation (no
// conversion) of whichever of the two types is wider, timed interleaved (bench/timing.h:
// median of N samples of back-to-back calls of at least X ms), pre-faulted buffers with huge
// pages from 2 MiB. "x plain" = plain time / conversion time. Unless --no-verify, each case's
// output is first checked against the reference: reference_permute of the input type, then the
// conversion of the whole tensor as one row (scalar ISA).
#include <gentt/convert.h>
#include <gentt/permute.h>
#include <gentt/reference.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "buffer.h"
#include "timing.h"

namespace {

struct Case {
  std::string from, to;
  std::vector<std::int64_t> shape;
  std::vector<int> perm;
  std::string line;
};

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "gentt_convert_bench: %s\n"
               "usage: gentt_convert_bench [--cases FILE] [--samples N] [--min-sample-ms X] [--threads T]\n"
               "                           [--isa ISA] [--limit N] [--no-verify] [--csv FILE]\n",
               problem.c_str());
  std::exit(2);
}

std::vector<Case> read_cases(const std::string& path) {
  std::ifstream f(path);
  if (!f) usage("cannot read the case file " + path);
  std::vector<Case> cases;
  std::string line;
  int number = 0;
  while (std::getline(f, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string types, shape, axes;
    std::getline(ss, types, ';');
    std::getline(ss, shape, ';');
    std::getline(ss, axes, ';');
    Case c;
    c.line = line;
    std::stringstream t(types);
    t >> c.from >> c.to;
    std::stringstream s(shape);
    for (std::int64_t v; s >> v;) c.shape.push_back(v);
    std::stringstream a(axes);
    for (int v; a >> v;) c.perm.push_back(v);
    if (c.to.empty() || c.shape.empty() || c.perm.size() != c.shape.size())
      usage(path + ":" + std::to_string(number) + ": expected 'from to ; shape... ; axes...', got '" + line + "'");
    cases.push_back(std::move(c));
  }
  return cases;
}

int element_bytes(const std::string& name) {
  const auto type = gentt::element_type(name);
  if (!type) usage("unknown dtype " + name);
  return type->bytes;
}

// Finite values of the type, varied (a conversion of NaNs or subnormals measures other paths).
void fill(unsigned char* p, std::int64_t n, const std::string& type) {
  const int bytes = element_bytes(type);
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>((i * 7919) % 100003) * 0.37 - 1000.0;
    unsigned char* at = p + i * bytes;
    if (type == "float32") {
      const float f = static_cast<float>(v);
      std::memcpy(at, &f, 4);
    } else if (type == "float64" || type == "complex128") {
      std::memcpy(at, &v, 8);
      if (bytes == 16) std::memcpy(at + 8, &v, 8);
    } else if (type == "complex64") {
      const float f = static_cast<float>(v);
      std::memcpy(at, &f, 4);
      std::memcpy(at + 4, &f, 4);
    } else if (type == "float16" || type == "bfloat16") {
      const std::uint16_t h = static_cast<std::uint16_t>((type == "float16" ? 0x3c00 : 0x3f80) + (i * 7919) % 0x0c00);
      std::memcpy(at, &h, 2);
    } else {
      const std::uint64_t u = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
      std::memcpy(at, &u, static_cast<std::size_t>(std::min(bytes, 8)));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string cases_path = GENTT_CONVERT_CASES, isa = "auto", csv_path;
  gentt::bench::TimingOptions timing;
  timing.samples = 5;
  int threads = 1, limit = 0;
  bool verify = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--cases") cases_path = value();
    else if (a == "--samples") timing.samples = std::atoi(value().c_str());
    else if (a == "--min-sample-ms") timing.min_sample_seconds = std::atof(value().c_str()) / 1e3;
    else if (a == "--threads") threads = std::atoi(value().c_str());
    else if (a == "--isa") isa = value();
    else if (a == "--limit") limit = std::atoi(value().c_str());
    else if (a == "--no-verify") verify = false;
    else if (a == "--csv") csv_path = value();
    else usage("unknown argument " + a);
  }
  if (timing.samples < 1) usage("--samples must be >= 1");
  if (threads < 0) usage("--threads must be >= 0");
  std::vector<Case> cases = read_cases(cases_path);
  if (limit > 0 && static_cast<std::size_t>(limit) < cases.size()) cases.resize(static_cast<std::size_t>(limit));

  std::FILE* csv = csv_path.empty() ? nullptr : std::fopen(csv_path.c_str(), "w");
  if (!csv_path.empty() && !csv) usage("cannot write " + csv_path);
  if (csv) std::fprintf(csv, "from,to,shape,axes,elements,convert_us,plain_type,plain_us,x_plain\n");
  std::printf("gentt_convert_bench: %s, %zu case(s), isa %s, %d thread(s), median of %d samples of >= %g ms\n",
              cases_path.c_str(), cases.size(), isa.c_str(), threads, timing.samples,
              timing.min_sample_seconds * 1e3);
  std::printf("%-18s %-26s %-18s %10s %12s %12s %8s\n", "conversion", "shape", "axes", "size", "convert us",
              "plain us", "x plain");
  std::vector<double> ratios;
  int failures = 0;
  for (const Case& c : cases) {
    const int from_bytes = element_bytes(c.from), to_bytes = element_bytes(c.to);
    const std::string wide = from_bytes >= to_bytes ? c.from : c.to;
    const int wide_bytes = std::max(from_bytes, to_bytes);
    std::int64_t n = 1;
    for (std::int64_t e : c.shape) n *= e;
    gentt::PermuteDesc d;
    d.dtype = c.from;
    d.out_dtype = c.to;
    d.shape = c.shape;
    d.perm = c.perm;
    d.threads = threads;
    d.isa = isa;
    gentt::PermuteDesc p = d;
    p.dtype = wide;
    p.out_dtype.clear();
    gentt::PermutePlan convert, plain;
    try {
      convert = gentt::plan_permute(d);
      plain = gentt::plan_permute(p);
    } catch (const gentt::Error& e) {
      std::fprintf(stderr, "gentt_convert_bench: %s: %s\n", c.line.c_str(), e.what());
      return 2;
    }
    gentt::bench::Buffer in(static_cast<std::size_t>(n * from_bytes)), out(static_cast<std::size_t>(n * to_bytes)),
        plain_out(static_cast<std::size_t>(n * wide_bytes));
    // The plain run's input: `in` where the wider type is the input's, else values of its own.
    gentt::bench::Buffer wide_in(wide == c.from ? 1 : static_cast<std::size_t>(n * wide_bytes));
    fill(in.data(), n, c.from);
    if (wide != c.from) fill(wide_in.data(), n, wide);
    if (verify) {
      std::vector<unsigned char> permuted(static_cast<std::size_t>(n * from_bytes)),
          want(static_cast<std::size_t>(n * to_bytes));
      gentt::reference_permute(in.data(), permuted.data(), static_cast<std::size_t>(from_bytes), c.shape, c.perm);
      gentt::PermuteDesc flat;
      flat.dtype = c.from;
      flat.out_dtype = c.to;
      flat.shape = {n};
      flat.perm = {0};
      flat.isa = "scalar";
      gentt::plan_permute(flat).execute(permuted.data(), want.data());
      convert.execute(in.data(), out.data());
      if (std::memcmp(out.data(), want.data(), want.size()) != 0) {
        std::fprintf(stderr, "gentt_convert_bench: %s: the conversion differs from the reference\n", c.line.c_str());
        ++failures;
      }
    }
    const unsigned char* plain_in = wide == c.from ? in.data() : wide_in.data();
    const auto t = gentt::bench::time_interleaved(
        {[&] { convert.execute(in.data(), out.data()); }, [&] { plain.execute(plain_in, plain_out.data()); }}, timing);
    const double conv_us = t[0].median_seconds * 1e6, plain_us = t[1].median_seconds * 1e6;
    const double ratio = plain_us / conv_us;
    ratios.push_back(ratio);
    std::string shape, axes;
    for (std::size_t k = 0; k < c.shape.size(); ++k) {
      shape += (k ? "x" : "") + std::to_string(c.shape[k]);
      axes += (k ? "," : "") + std::to_string(c.perm[k]);
    }
    const double mib = static_cast<double>(n * from_bytes) / (1 << 20);
    char size[32];
    std::snprintf(size, sizeof size, mib >= 1 ? "%.1f MiB" : "%.0f KiB", mib >= 1 ? mib : mib * 1024);
    std::printf("%-18s %-26s %-18s %10s %12.1f %12.1f %8.2f\n", (c.from + "->" + c.to).c_str(), shape.c_str(),
                axes.c_str(), size, conv_us, plain_us, ratio);
    std::fflush(stdout);
    if (csv)
      std::fprintf(csv, "%s,%s,%s,\"%s\",%lld,%.3f,%s,%.3f,%.4f\n", c.from.c_str(), c.to.c_str(), shape.c_str(),
                   axes.c_str(), static_cast<long long>(n), conv_us, wide.c_str(), plain_us, ratio);
  }
  if (csv) std::fclose(csv);
  if (!ratios.empty()) {
    const auto low = std::count_if(ratios.begin(), ratios.end(), [](double r) { return r < 0.8; });
    std::printf("summary: x plain (the plain permutation of the wider type / the conversion) median %.2f, min %.2f, "
                "%lld of %zu below 0.8\n",
                gentt::bench::detail::median(ratios), *std::min_element(ratios.begin(), ratios.end()),
                static_cast<long long>(low), ratios.size());
  }
  if (failures) {
    std::fprintf(stderr, "gentt_convert_bench: %d case(s) differ from the reference\n", failures);
    return 1;
  }
  return 0;
}
