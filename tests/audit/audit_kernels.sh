#!/usr/bin/env bash
# The instruction audit of generated x86 kernels (issue 13): a kernel may hold only instructions
# of the CPU features it declares, whatever features the test machine has.
#
#   audit_kernels.sh GENTT_GEN MAKE_SPECS CXX WORK_DIR CASES SEED ISA[:VECTOR_BITS]...
#   audit_kernels.sh --objects FEATURES SUFFIX WORK_DIR OBJECT...
#
# The second form audits compiled objects of the run-time library: those whose path ends in
# SUFFIX (e.g. engine/avx512_engine.cpp.o, the AVX-512 engine without VBMI) against FEATURES.
#
# For each ISA (x86 level): CASES random problems (tests/e2e/make_specs.cpp, the e2e generator;
# for avx512skx half of them move single bytes) and one uint8 permutation are generated into one
# file (ISA:BITS passes --vector-bits BITS: avx512:256 audits the ymm blocks). The uint8
# permutation, (1024,24,7) reversed, compacts 7 of every 8 lanes in its last butterfly step, a
# byte shuffle that is no plain exchange: a permute (vpermt2b with VBMI; plain exchanges are
# shifts and blends, and transposes of byte blocks of 32 registers take those at any size,
# backends/avx512.cpp): the control below needs one. Then:
# 1. the declarations agree: the banner's "CPU features:" line, every NAME_info's feature names
#    and the target pragma name the same set;
# 2. the file is compiled twice, as gentt_add_kernels() does (-O3 and -m<feature> for exactly
#    the declared features) and with no -m flags at all (the pragma alone);
# 3. each object is disassembled (objdump -d) and the instructions are assembled again by GNU as
#    for generic x86-64 plus exactly the declared features (-march=generic64+f1+f2...): as
#    rejects every instruction of a feature outside the set (vpermt2b without avx512vbmi, any
#    EVEX encoding without avx512f, ...). Any rejection fails the test and is printed. Padding
#    nops (multi-byte, prefixed: every x86-64 has them) are left out: as rejects their doubled
#    prefixes as text.
# A control shows that the check bites: the avx512 (VBMI) uint8 kernel must be rejected under
# avx512skx's features, and the avx512skx kernel under avx2's.
set -euo pipefail
status=0

# features_of FILE: the banner's declared features, comma-separated ("" for none).
features_of() {
  sed -n 's|^// CPU features: \(.*\) (NAME_info.features .*|\1|p' "$1" | head -1 | sed 's/, /,/g; s/^none$//'
}

# reassemble OBJ FEATURES LOG: 0 when as accepts every instruction of OBJ for those features.
# An empty disassembly or one objdump could not decode ("(bad)") fails too: nothing unchecked
# passes.
reassemble() {
  local obj=$1 features=$2 log=$3 march="generic64"
  [ -n "$features" ] && march="generic64+${features//,/+}"
  objdump -d --no-show-raw-insn "$obj" > "$obj.dis" || { echo "objdump failed on $obj" > "$log"; return 1; }
  if grep -q '(bad)' "$obj.dis"; then echo "objdump could not decode an instruction of $obj" > "$log"; return 1; fi
  awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ { print $2 }' "$obj.dis" |
    sed -e 's/<[^>]*>//g' -e 's/#.*$//' \
        -e '/^\(data16[[:space:]]\+\|cs[[:space:]]\+\|ds[[:space:]]\+\)*nop[wlq]\?\([[:space:]]\|$\)/d' \
        -e 's/^\([a-z]*[[:space:]]*\)\(j[a-z]*\|call\|loop[a-z]*\)[[:space:]]\+\([0-9a-f]\+\)[[:space:]]*$/\1\2 0x\3/' > "$obj.s"
  if [ ! -s "$obj.s" ]; then echo "no instructions in $obj" > "$log"; return 1; fi
  as --64 -march="$march" "$obj.s" -o "$obj.reassembled.o" > "$log" 2>&1
}

if [ "$1" = "--objects" ]; then
  features=$2 suffix=$3 work=$4
  shift 4
  mkdir -p "$work"
  found=0
  for obj in "$@"; do
    [[ $obj == *"$suffix" ]] || continue
    found=1
    cp "$obj" "$work/$(basename "$obj")"
    copy=$work/$(basename "$obj")
    if reassemble "$copy" "$features" "$copy.log"; then
      echo "ok   $(basename "$obj"): $(wc -l < "$copy.s") instructions, all within $features"
    else
      echo "FAIL $(basename "$obj"): instructions outside $features:"; head -20 "$copy.log"; status=1
    fi
  done
  [ $found = 1 ] || { echo "FAIL: no object ends in $suffix"; exit 1; }
  exit $status
fi

gen=$1 make_specs=$2 cxx=$3 work=$4 cases=$5 seed=$6
shift 6
mkdir -p "$work"


for level in "$@"; do
  isa=${level%%:*} bits=() tag=$isa
  if [[ $level == *:* ]]; then bits=(--vector-bits "${level#*:}") tag=${isa}_${level#*:}; fi
  dir=$work/$tag
  mkdir -p "$dir"
  "$make_specs" "$dir" 1 "$cases" "$seed" "$isa"
  "$gen" generate "$dir/cases_0.json" "${bits[@]}" -o "$dir/kernels.cpp"
  "$gen" generate --shape 1024,24,7 --perm 2,1,0 --dtype uint8 --isa "$isa" "${bits[@]}" --name "audit_${tag}_u8" -o "$dir/u8.cpp"
  for src in "$dir/kernels.cpp" "$dir/u8.cpp"; do
    declared=$(features_of "$src")
    [ -n "$declared" ] || { echo "FAIL $tag: $src declares no CPU features"; status=1; continue; }
    # 1. Every NAME_info and both target pragmas (GCC, clang) say the same.
    infos=$(grep -c 'const gentt_kernel_info .*_info = {' "$src" || true)
    agreeing=$(grep -A2 'const gentt_kernel_info .*_info = {' "$src" | grep -c "\"$declared\"};\$" || true)
    if [ "$infos" -eq 0 ] || [ "$infos" != "$agreeing" ]; then
      echo "FAIL $tag: $agreeing of $infos NAME_info descriptors of $src declare \"$declared\""; status=1
    fi
    if ! grep -q "#pragma GCC target(\"$declared\")" "$src" ||
       ! grep -q "#pragma clang attribute push(__attribute__((target(\"$declared\")))" "$src"; then
      echo "FAIL $tag: the target pragmas of $src are not exactly \"$declared\""; status=1
    fi
    # 2. and 3. Both builds, each reassembled for exactly the declared features.
    flags=()
    IFS=, read -ra fs <<< "$declared"
    for f in "${fs[@]}"; do flags+=("-m$f"); done
    for build in flags pragma; do
      obj=${src%.cpp}.$build.o
      if [ $build = flags ]; then "$cxx" -std=c++20 -O3 "${flags[@]}" -c "$src" -o "$obj"
      else "$cxx" -std=c++20 -O3 -c "$src" -o "$obj"; fi
      if ! reassemble "$obj" "$declared" "$obj.log"; then
        echo "FAIL $tag ($build build of $(basename "$src")): instructions outside $declared:"
        head -20 "$obj.log"
        status=1
      else
        echo "ok   $tag ($build build of $(basename "$src")): $(wc -l < "$obj.s") instructions, all within $declared"
      fi
    done
  done
done

# The control: a check that never fails proves nothing.
control() {
  local obj=$1 features=$2 what=$3
  [ -f "$obj" ] || { echo "FAIL control: no $obj (the control needs its level in the ISA list)"; status=1; return; }
  reassemble "$obj" "$features" "$obj.control.log" || true
  local rejected
  rejected=$(grep -c 'not supported' "$obj.control.log" || true)
  if [ "$rejected" -eq 0 ]; then
    echo "FAIL control: $what was not rejected under $features (the audit would not catch it)"; status=1
  else
    echo "ok   control: $what is rejected under $features ($rejected instructions)"
  fi
}
control "$work/avx512/u8.flags.o" "avx512f,avx512bw,avx512vl" "the avx512 (VBMI) uint8 kernel"
control "$work/avx512skx/u8.flags.o" "avx2" "the avx512skx uint8 kernel"
exit $status
