#include "generator/flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <vector>

#include "generator/error_context.h"
#include "generator/field_parsers.h"
#include "ir/error.h"
#include "ir/stream.h"

namespace gentt {

namespace {

constexpr const char* kCommandLine = "the command line";

// "64,32,32,4" -> {64, 32, 32, 4}. Spaces around entries are allowed; "" is the empty list.
std::vector<int64_t> parse_list(std::string_view text, const std::string& flag) {
  std::vector<int64_t> values;
  if (text.find_first_not_of(' ') == std::string_view::npos) return values;
  for (size_t index = 0, begin = 0;; ++index) {
    const size_t end = std::min(text.find(',', begin), text.size());
    std::string_view entry = text.substr(begin, end - begin);
    entry.remove_prefix(std::min(entry.find_first_not_of(' '), entry.size()));
    entry.remove_suffix(entry.size() - std::min(entry.find_last_not_of(' ') + 1, entry.size()));
    int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), value);
    if (ec == std::errc::result_out_of_range)
      throw UserError(flag, fmt::format("entry {} \"{}\" is too large", index, entry));
    if (ec != std::errc() || ptr != entry.data() + entry.size())
      throw UserError(flag, fmt::format("entry {} \"{}\" is not an integer (expected a "
                                        "comma-separated list such as 64,32,4)",
                                        index, entry));
    values.push_back(value);
    if (end == text.size()) return values;
    begin = end + 1;
  }
}

std::vector<int> to_axes(const std::vector<int64_t>& values, const std::string& flag) {
  std::vector<int> axes;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < std::numeric_limits<int>::min() || values[i] > std::numeric_limits<int>::max())
      throw UserError(flag, fmt::format("entry {}: axis {} is out of range", i, values[i]));
    axes.push_back(static_cast<int>(values[i]));
  }
  return axes;
}

template <typename T>
const T& require(const std::optional<T>& value, const std::string& flag) {
  if (!value)
    throw UserError(flag,
                    "missing; a problem given by flags needs --shape, --perm, --dtype and "
                    "--isa (or give spec files instead)");
  return *value;
}

}  // namespace

bool ProblemFlags::any() const { return shape || perm || dtype || name || no_threads; }

void add_target_flags(CLI::App& command, TargetFlags& flags) {
  command
      .add_option_function<std::string>(
          "--isa", [&flags](const std::string& v) { flags.isa = v; },
          "Target ISA: scalar, avx2, avx512, neon, sve, sve2 or sunway (overrides spec files)")
      ->type_name("ISA");
  command
      .add_option_function<int>(
          "--vector-bits", [&flags](int v) { flags.vector_bits = v; },
          "Vector width for sve and sve2 (128..2048, multiple of 128), sunway (256 or 512) or avx512 and "
          "avx512skx (512, or 256 for ymm blocks); overrides spec files")
      ->type_name("N");
  command
      .add_option_function<std::string>(
          "--tune", [&flags](const std::string& v) { flags.tune = v; },
          "CPU to tune for: generic, or znver4 (avx512 levels: the planner chooses zmm or ymm blocks); overrides "
          "spec files")
      ->type_name("CPU");
  command
      .add_option_function<std::string>(
          "--stores", [&flags](const std::string& v) { flags.stores = v; },
          "Output stores: auto (streaming for large outputs where possible), streaming or cached; "
          "overrides spec files")
      ->type_name("MODE");
}

void add_problem_flags(CLI::App& command, ProblemFlags& flags) {
  command
      .add_option_function<std::string>(
          "--shape", [&flags](const std::string& v) { flags.shape = v; },
          "Input shape, C order, e.g. 64,32,32,4")
      ->type_name("LIST");
  command
      .add_option_function<std::string>(
          "--perm", [&flags](const std::string& v) { flags.perm = v; },
          "NumPy axes: output axis k is input axis perm[k], e.g. 2,1,0,3")
      ->type_name("LIST");
  command
      .add_option_function<std::string>(
          "--dtype", [&flags](const std::string& v) { flags.dtype = v; },
          "Element type: float32, int8, complex128, ... or bytesN")
      ->type_name("DTYPE");
  command
      .add_option_function<std::string>(
          "--name", [&flags](const std::string& v) { flags.name = v; },
          "Kernel symbol (default: derived from the problem)")
      ->type_name("NAME");
  command.add_flag("--no-threads", flags.no_threads, "Do not emit the NAME_part entry point");
}

SpecOverrides spec_overrides(const TargetFlags& target) {
  SpecOverrides o;
  if (target.isa) o.isa = parse_isa_field(*target.isa, o.isa_field);
  o.vector_bits = target.vector_bits;
  if (target.stores) o.stores = parse_stores_field(*target.stores, o.stores_field);
  if (target.tune) o.tune = parse_tune_field(*target.tune, o.tune_field);
  return o;
}

LocatedProblem problem_from_flags(const ProblemFlags& flags, const TargetFlags& target) {
  LocatedProblem lp;
  lp.origin = kCommandLine;
  Problem& p = lp.problem;

  p.shape = parse_list(require(flags.shape, "--shape"), "--shape");
  p.perm = to_axes(parse_list(require(flags.perm, "--perm"), "--perm"), "--perm");
  p.dtype = parse_dtype_field(require(flags.dtype, "--dtype"), "--dtype");
  try {
    validate_problem_shape(p.shape, p.perm, p.dtype.bytes, "");
  } catch (const UserError& e) {
    // Fields come back as JSON pointers into the problem ("/perm/2"): say which flag held it.
    throw in_context(e, e.field().starts_with("/perm") ? "--perm" : "--shape");
  }

  p.target.isa = parse_isa_field(require(target.isa, "--isa"), "--isa");
  lp.isa_field = "--isa";
  p.target.vector_bits = target.vector_bits.value_or(0);
  p.target.vector_bits =
      resolve_vector_bits(p.target, target.vector_bits ? "--vector-bits" : "--isa");
  if (target.tune) {
    p.target.tune = parse_tune_field(*target.tune, "--tune");
    check_tune(p.target, target.vector_bits.has_value(), "--tune");
  }
  p.threads = !flags.no_threads;
  if (target.stores) {
    p.stores = parse_stores_field(*target.stores, "--stores");
    check_store_mode(p.target, p.stores, "--stores");
  }

  if (flags.name) {
    check_kernel_name(*flags.name, "--name");
    p.name = *flags.name;
    lp.name_field = "--name";
  } else {
    p.name = default_kernel_name(p);
    lp.name_field = kCommandLine;
  }
  return lp;
}

}  // namespace gentt
