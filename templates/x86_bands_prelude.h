// gentt x86 band prelude: embedded verbatim into generated AVX-512 and AVX2 kernel files after
// their ISA prelude; also compiled on its own in the gentt build (templates/compile_check.cpp).
//
// A kernel whose streaming variant walks band tiles (ir/band.h) also carries that variant's
// unbanded twin and asks this function which to run. Bands paid on AMD's Zen 5 and lost on an
// Intel server core (docs/performance.md), so: AMD's CPUs run the bands, others the twin.
// GENTT_BANDS=1 or GENTT_BANDS=0 in the environment overrides that (read once per process, so
// every part of a call takes the same walk).
#ifndef GENTT_X86_BANDS_PRELUDE_H
#define GENTT_X86_BANDS_PRELUDE_H

#include <cstdlib>

static inline bool gentt_bands_pay() {
  static const bool pays = [] {
    const char* forced = std::getenv("GENTT_BANDS");
    if (forced != nullptr && (forced[0] == '0' || forced[0] == '1') && forced[1] == '\0') return forced[0] == '1';
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") != 0;
  }();
  return pays;
}

#endif  // GENTT_X86_BANDS_PRELUDE_H
