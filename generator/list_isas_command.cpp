// gentt-gen list-isas: per ISA (x86 levels included) its vector widths, whether gentt has a
// backend for it, whether this CPU can run its kernels, the CPU features they use and the CPUs
// they serve.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "backends/backend.h"
#include "generator/commands.h"
#include "generator/console.h"
#include "generator/host_cpu.h"
#include "ir/error.h"
#include "ir/problem.h"
#include "ir/target_features.h"

namespace gentt {

namespace {

// The widths an ISA accepts, e.g. "512", "128..2048 (default 512)", "256 or 512 (default
// 512)". The rules live in resolve_vector_bits; probing it keeps them stated once.
std::string vector_bits_summary(Isa isa) {
  const int fallback = resolve_vector_bits(Target{isa, 0}, "");
  std::vector<int> allowed;
  for (int bits = 128; bits <= 2048; bits += 128) {
    try {
      allowed.push_back(resolve_vector_bits(Target{isa, bits}, ""));
    } catch (const UserError&) {
    }
  }
  if (allowed.empty()) return fmt::format("{} (nominal)", fallback);
  if (allowed.size() == 1) return std::to_string(allowed.front());
  const bool every_step =
      allowed.back() - allowed.front() == 128 * static_cast<int>(allowed.size() - 1);
  if (every_step && allowed.size() > 2)
    return fmt::format("{}..{} (default {})", allowed.front(), allowed.back(), fallback);
  return fmt::format("{} (default {})", fmt::join(allowed, " or "), fallback);
}

void run_list_isas() {
  std::string text;
  for (Isa isa : all_isas())
    text += fmt::format("{:<10} vector bits: {:<25} backend: {:<20} this CPU: {}\n{:<10} features: {}; for {}\n",
                        isa_name(isa), vector_bits_summary(isa),
                        backend_implemented(isa) ? "implemented" : "not implemented yet", host_can_run(isa), "",
                        isa_features(isa) ? feature_list(isa_features(isa), ", ") : "none", isa_serves(isa));
  print_text(text);
}

}  // namespace

void add_list_isas_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "list-isas", "List the ISAs: vector widths, backend status, and whether this CPU runs them");
  command->callback(run_list_isas);
}

}  // namespace gentt
