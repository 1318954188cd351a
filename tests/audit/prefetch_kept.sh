#!/usr/bin/env bash
# Generated prefetches survive the compiler: every kernel file whose source prefetches
# (__builtin_prefetch: software prefetch of the walk, ir/prefetch.h and ir/band.h) must hold
# prefetch instructions once compiled at -O2 and -O3. GCC 12 deleted every call to a prefetch
# function that it had not inlined early (its IPA pure-const pass takes prefetches for free of side
# effects): until 2026-12-01 no generated kernel prefetched at all (backends/skeleton.cpp).
#
#   prefetch_kept.sh GENTT_GEN CXX WORK_DIR
set -euo pipefail
gen=$1 cxx=$2 work=$3
mkdir -p "$work"
status=0
checked=0
# Problems whose walks prefetch: a large 2-D transpose streamed in bands (AVX-512), an assembled
# walk's tile (its cached variant), and AVX2's untiled walk of rows a page apart.
while read -r name isa shape perm dtype; do
  src="$work/$name.cpp"
  "$gen" generate --shape "$shape" --perm "$perm" --dtype "$dtype" --isa "$isa" --name "$name" -o "$src"
  prefetches=$(grep -c '__builtin_prefetch' "$src" || true)
  if [ "$prefetches" -eq 0 ]; then
    echo "FAIL: $name ($isa $dtype $shape perm $perm) emits no prefetch: the test needs a kernel that does"
    status=1
    continue
  fi
  for opt in -O2 -O3; do
    "$cxx" -std=c++17 "$opt" -c "$src" -o "$work/$name$opt.o"
    found=$(objdump -d --no-show-raw-insn "$work/$name$opt.o" | grep -c 'prefetch' || true)
    if [ "$found" -eq 0 ]; then
      echo "FAIL: $name at $opt: $prefetches prefetches in the source, none in the object"
      status=1
    else
      echo "ok: $name at $opt: $found prefetch instructions"
    fi
    checked=$((checked + 1))
  done
done <<'CASES'
band_f32 avx512 4096,4000 1,0 float32
assembled_f64 avx512 17,17,17,17,17,17 3,5,4,0,2,1 float64
avx2_rows avx2 16,16,16,16,16,16 4,3,5,0,1,2 float64
CASES
[ "$checked" -gt 0 ] || { echo "FAIL: nothing checked"; status=1; }
exit $status
