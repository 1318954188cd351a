// Fuzz target: bytes as spec text -> gentt::parse_spec (generator/spec.h).
//
// Any input either parses into problems that are valid (check_accepted) or throws gentt's
// UserError with a one-line message. Anything else is a finding: another exception, a crash, a
// sanitizer report, a leak or a hang. An accepted spec is parsed a second time with command-line
// overrides (--isa, --vector-bits, --stores) chosen from its size, which must also end in
// valid problems or a UserError.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "generator/spec.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/problem_check.h"

namespace {

gentt::SpecOverrides overrides_for(std::size_t size) {
  gentt::SpecOverrides o;
  const auto& isas = gentt::all_isas();
  o.isa = isas[size % isas.size()];
  static constexpr std::array<int, 6> bits = {0, 128, 256, 512, 384, 2048};
  if (const int b = bits[(size / isas.size()) % bits.size()]; b != 0) o.vector_bits = b;
  static constexpr std::array<gentt::StoreMode, 3> modes = {
      gentt::StoreMode::automatic, gentt::StoreMode::streaming, gentt::StoreMode::cached};
  if (size % 5 != 0) o.stores = modes[size % modes.size()];
  return o;
}

void parse(std::string_view text, const gentt::SpecOverrides& overrides) {
  try {
    for (const gentt::LocatedProblem& lp : gentt::parse_spec(text, "fuzz.json", overrides))
      gentt::fuzz::check_accepted(lp);
  } catch (const gentt::UserError& e) {
    gentt::fuzz::check_user_error(e);
    throw;
  }
}

}  // namespace

GENTT_FUZZ_TARGET(spec_parser) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    parse(text, {});
  } catch (const gentt::UserError&) {
    return 0;
  }
  try {
    parse(text, overrides_for(size));
  } catch (const gentt::UserError&) {
  }
  return 0;
}
