#include "generator/spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "generator/error_context.h"
#include "generator/field_parsers.h"
#include "ir/stream.h"
#include "generator/strict_json.h"
#include "generator/suggest.h"
#include "ir/error.h"

namespace gentt {

namespace {

using Json = nlohmann::ordered_json;

// The fields of a kernel object, in documentation order (specs/README.md).
const std::vector<std::string>& kernel_fields() {
  static const std::vector<std::string> fields = {"name", "dtype",       "shape",   "perm",
                                                  "isa",  "vector_bits", "tune", "threads", "stores", "convention"};
  return fields;
}

// One kernel as the document states it, before the command line's overrides. The problem
// fields are already checked (validate_problem_shape) and perm is in NumPy convention.
struct SpecEntry {
  std::string pointer;  // JSON pointer of the kernel object ("" for a single-kernel file)
  std::optional<std::string> name;
  Dtype dtype;
  std::vector<int64_t> shape;
  std::vector<int> perm;
  std::optional<Isa> isa;
  std::optional<int> vector_bits;
  std::optional<Tune> tune;
  bool threads = true;
  std::optional<StoreMode> stores;
};

// ---------------------------------------------------------------------------------------------
// Typed access to JSON values. Errors name the value's JSON pointer.

// A short description of a value for "expected X, got Y".
std::string describe(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case Json::value_t::string:
      return "string " + v.dump();
    case Json::value_t::array:
      return v.empty() ? "an empty array" : "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return v.dump();  // numbers as written back by nlohmann: 7, -3, 2.5, 1000.0
  }
}

[[noreturn]] void expected(const std::string& pointer, std::string_view what, const Json& got) {
  throw UserError(pointer, fmt::format("expected {}, got {}", what, describe(got)));
}

// An integer value. Floating-point values are rejected even when whole (1e3, 4.0): a spec
// states sizes exactly, and a float that looks whole may not be.
int64_t get_integer(const Json& v, const std::string& pointer, std::string_view what) {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // Not through int64_t: converting a double outside its range (1e20) is undefined.
    const bool whole = std::isfinite(d) && d == std::trunc(d);
    throw UserError(
        pointer, fmt::format("expected {}, got {}{}", what, v.dump(),
                             whole ? " (write integers without a decimal point or exponent)" : ""));
  }
  if (!v.is_number_integer()) expected(pointer, what, v);
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    throw UserError(pointer, fmt::format("{} is too large", v.dump()));
  return v.get<int64_t>();
}

std::string get_string(const Json& v, const std::string& pointer, std::string_view what) {
  if (!v.is_string()) expected(pointer, what, v);
  return v.get<std::string>();
}

const Json& get_array(const Json& v, const std::string& pointer, std::string_view what) {
  if (!v.is_array()) expected(pointer, what, v);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Reading the document

std::vector<int64_t> read_shape(const Json& v, const std::string& pointer) {
  std::vector<int64_t> shape;
  const Json& array = get_array(v, pointer, "an array of positive integers");
  for (size_t i = 0; i < array.size(); ++i)
    shape.push_back(get_integer(array[i], fmt::format("{}/{}", pointer, i), "a positive integer"));
  return shape;  // extents < 1 are reported by validate_problem_shape
}

std::vector<int> read_perm(const Json& v, const std::string& pointer, size_t rank) {
  std::vector<int> perm;
  const Json& array = get_array(v, pointer, "an array of axis indices");
  for (size_t i = 0; i < array.size(); ++i) {
    const std::string entry = fmt::format("{}/{}", pointer, i);
    const int64_t axis = get_integer(array[i], entry, "an axis index (an integer)");
    if (axis < std::numeric_limits<int>::min() || axis > std::numeric_limits<int>::max())
      throw UserError(entry, fmt::format("axis {} is out of range for rank {}", axis, rank));
    perm.push_back(static_cast<int>(axis));
  }
  return perm;  // range and repeats are checked by validate_problem_shape
}

// The inverse permutation: inverse[perm[i]] = i. `perm` is a validated permutation.
std::vector<int> inverse(const std::vector<int>& perm) {
  std::vector<int> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<int>(i);
  return inv;
}

void check_known_fields(const Json& kernel, const std::string& pointer) {
  const std::vector<std::string>& known = kernel_fields();
  for (const auto& [key, value] : kernel.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    throw UserError(pointer + "/" + json_pointer_token(key),
                    fmt::format("unknown field \"{}\"{}; a kernel has the fields {}", key,
                                did_you_mean(key, known), fmt::join(known, ", ")));
  }
}

const Json& required(const Json& kernel, const std::string& pointer, const std::string& key) {
  if (!kernel.contains(key))
    throw UserError(pointer, fmt::format("missing required field \"{}\"", key));
  return kernel[key];
}

SpecEntry read_kernel(const Json& kernel, const std::string& pointer) {
  if (!kernel.is_object()) expected(pointer, "a kernel object", kernel);
  check_known_fields(kernel, pointer);
  const auto at = [&](std::string_view key) { return fmt::format("{}/{}", pointer, key); };

  SpecEntry e;
  e.pointer = pointer;
  e.dtype = parse_dtype_field(
      get_string(required(kernel, pointer, "dtype"), at("dtype"), "a dtype name"), at("dtype"));
  e.shape = read_shape(required(kernel, pointer, "shape"), at("shape"));
  e.perm = read_perm(required(kernel, pointer, "perm"), at("perm"), e.shape.size());
  validate_problem_shape(e.shape, e.perm, e.dtype.bytes, pointer);

  if (kernel.contains("convention")) {
    const std::string convention =
        get_string(kernel["convention"], at("convention"), "\"numpy\" or \"gentt\"");
    if (convention == "gentt")
      e.perm = inverse(e.perm);  // GenTT's perm[a] = output position of input axis a
    else if (convention != "numpy")
      throw UserError(at("convention"),
                      fmt::format("unknown convention \"{}\"; expected \"numpy\" (perm[k] = input "
                                  "axis of output axis k) or \"gentt\" (perm[a] = output axis of "
                                  "input axis a)",
                                  convention));
  }
  if (kernel.contains("name")) {
    e.name = get_string(kernel["name"], at("name"), "a C identifier");
    check_kernel_name(*e.name, at("name"));
  }
  if (kernel.contains("isa"))
    e.isa = parse_isa_field(get_string(kernel["isa"], at("isa"), "an isa name"), at("isa"));
  if (kernel.contains("vector_bits")) {
    const int64_t bits = get_integer(kernel["vector_bits"], at("vector_bits"), "an integer");
    if (bits < std::numeric_limits<int>::min() || bits > std::numeric_limits<int>::max())
      throw UserError(at("vector_bits"), fmt::format("{} is not a vector width", bits));
    e.vector_bits = static_cast<int>(bits);  // checked against the ISA once it is known
  }
  if (kernel.contains("tune"))
    e.tune = parse_tune_field(get_string(kernel["tune"], at("tune"), "a tuning"), at("tune"));
  if (kernel.contains("threads")) {
    if (!kernel["threads"].is_boolean())
      expected(at("threads"), "true or false", kernel["threads"]);
    e.threads = kernel["threads"].get<bool>();
  }
  if (kernel.contains("stores"))
    e.stores = parse_stores_field(get_string(kernel["stores"], at("stores"), "a store mode"), at("stores"));
  return e;
}

std::vector<SpecEntry> read_document(const Json& root) {
  if (!root.is_object()) expected("", "a kernel object or {\"kernels\": [...]}", root);
  if (!root.contains("kernels")) return {read_kernel(root, "")};

  for (const auto& [key, value] : root.items())
    if (key != "kernels")
      throw UserError("/" + json_pointer_token(key),
                      fmt::format("unknown field \"{}\" next to \"kernels\"; a file holds either "
                                  "one kernel object or only {{\"kernels\": [...]}}",
                                  key));
  const Json& kernels = root["kernels"];
  if (!kernels.is_array() || kernels.empty())
    expected("/kernels", "a non-empty array of kernel objects", kernels);
  std::vector<SpecEntry> entries;
  for (size_t i = 0; i < kernels.size(); ++i)
    entries.push_back(read_kernel(kernels[i], fmt::format("/kernels/{}", i)));
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Applying the command line

LocatedProblem finish(const SpecEntry& e, const std::string& source, const SpecOverrides& o) {
  const auto field = [&](std::string_view key) {
    return fmt::format("{}: {}/{}", source, e.pointer, key);
  };
  LocatedProblem lp;
  lp.origin = e.pointer.empty() ? source : fmt::format("{}: {}", source, e.pointer);

  Problem& p = lp.problem;
  p.dtype = e.dtype;
  p.shape = e.shape;
  p.perm = e.perm;
  p.threads = e.threads;

  if (!o.isa && !e.isa)
    throw UserError(lp.origin,
                    fmt::format("missing required field \"isa\" (or give {})", o.isa_field));
  p.target.isa = o.isa ? *o.isa : *e.isa;
  lp.isa_field = o.isa ? o.isa_field : field("isa");

  std::string bits_field = o.isa_field;  // the width is the ISA's default
  if (o.vector_bits) {
    p.target.vector_bits = *o.vector_bits;
    bits_field = o.vector_bits_field;
  } else if (e.vector_bits && (!o.isa || o.isa == e.isa)) {
    p.target.vector_bits = *e.vector_bits;
    bits_field = field("vector_bits");
  }
  p.target.vector_bits = resolve_vector_bits(p.target, bits_field);
  const bool bits_given = o.vector_bits || (e.vector_bits && (!o.isa || o.isa == e.isa));
  // Like vector_bits, the kernel's tune does not carry over to an ISA that --isa puts in place of
  // its own, unless that ISA takes it too (avx512 <-> avx512skx).
  const bool entry_tune = e.tune && (!o.isa || o.isa == e.isa || is_avx512_level(p.target.isa));
  if (o.tune || entry_tune) {
    p.target.tune = o.tune ? *o.tune : *e.tune;
    check_tune(p.target, bits_given, o.tune ? o.tune_field : field("tune"));
  }
  p.stores = o.stores ? *o.stores : e.stores.value_or(StoreMode::automatic);
  check_store_mode(p.target, p.stores, o.stores ? o.stores_field : field("stores"));

  p.name = e.name ? *e.name : default_kernel_name(p);
  lp.name_field = e.name ? field("name") : lp.origin;
  return lp;
}

}  // namespace

std::vector<LocatedProblem> parse_spec(std::string_view text, const std::string& source,
                                       const SpecOverrides& overrides) {
  std::vector<SpecEntry> entries;
  try {
    entries = read_document(parse_strict_json(text));
  } catch (const UserError& e) {
    throw in_context(e, source);
  }
  std::vector<LocatedProblem> problems;
  for (const SpecEntry& e : entries) problems.push_back(finish(e, source, overrides));
  return problems;
}

std::vector<LocatedProblem> load_spec(const std::string& path, const SpecOverrides& overrides) {
  const auto fail = [&](int err) {
    throw UserError(path, fmt::format("cannot read the spec: {}", std::strerror(err)));
  };
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) fail(errno);
  std::string text;
  char buffer[1 << 16];
  while (const size_t n = std::fread(buffer, 1, sizeof buffer, file.get())) text.append(buffer, n);
  if (std::ferror(file.get())) fail(errno);  // e.g. EISDIR for a directory
  return parse_spec(text, path, overrides);
}

}  // namespace gentt
