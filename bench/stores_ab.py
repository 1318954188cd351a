#!/usr/bin/env python3
"""bench/stores_ab.py: a kernel's streaming variant against its cached stores, in one process.

    bench/stores_ab.py --set ttlg --isa avx2 [--min-mib 32] [--limit N] [--build-dir build]
    bench/stores_ab.py --set ttlg --isa avx512 --against OLD/build/generator/gentt-gen

For every case of the set (as gentt_bench measures it: the build's manifest, first axes scaled
to GENTT_BENCH_MAX_BYTES) of at least --min-mib MiB, gentt-gen writes the same
kernel twice for --isa: with `"stores": "cached"` and with `"stores": "auto"` (the streaming
variant where ir/stream.h's rule gives one). A small driver (bench/stores_ab_main.cpp) times
both, the run-time library (gentt::plan_permute with the same isa) and the best plain copy
(memcpy and the streaming copy) interleaved in one process, on huge-page buffers with `out` on a
line, and prints each as "x best copy" (1 thread), then the medians. The comparison issue 8's
AVX2 streaming was measured with (docs/performance.md).

With --against GEN, the two kernels are instead GEN's (another build of gentt-gen, e.g. of the
commit before a planner change) and this build's, both with `"stores": "auto"`: a planner or
lowering change measured case by case against the one before it.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_manifest(build_dir, name):
    """The set's cases as gentt_bench measures them (cases.tsv, written by gentt_bench_cases)."""
    subprocess.run(["cmake", "--build", build_dir, "--target", f"gentt_bench_{name}_specs"], check=True,
                   stdout=subprocess.DEVNULL)
    cases = []
    with open(os.path.join(build_dir, "bench", "sets", name, "cases.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            _, dtype, elem, shape, axes, nbytes = line.rstrip("\n").split("\t")[:6]
            cases.append((dtype, int(elem), [int(x) for x in shape.split(",")], [int(x) for x in axes.split(",")],
                          int(nbytes)))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="ttlg")
    ap.add_argument("--isa", default="avx2")
    ap.add_argument("--min-mib", type=float, default=32)
    ap.add_argument("--limit", type=int, default=0, help="at most this many cases (0: all)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--against", metavar="GEN", help="compare with this gentt-gen's kernels (stores: auto) instead "
                    "of cached stores")
    args = ap.parse_args()

    cases = [c for c in read_manifest(args.build_dir, args.set) if c[4] >= args.min_mib * (1 << 20)]
    if args.limit:
        cases = cases[: args.limit]
    if not cases:
        sys.exit(f"stores_ab: no case of {args.set} has {args.min_mib} MiB or more")
    gen = os.path.join(args.build_dir, "generator", "gentt-gen")
    libs = [os.path.join(args.build_dir, "runtime", "libgentt_runtime.a"),
            os.path.join(args.build_dir, "ir", "libgentt_planner.a")]
    for path in [gen] + libs:
        if not os.path.exists(path):
            sys.exit(f"stores_ab: {path} is missing (build first: cmake --build {args.build_dir})")

    with tempfile.TemporaryDirectory() as tmp:
        # Kernel k<i>_c: the baseline (cached stores, or --against's generator); k<i>_a: this
        # build's gentt-gen with stores auto.
        for tag, generator, mode in (("c", args.against or gen, "auto" if args.against else "cached"),
                                     ("a", gen, "auto")):
            kernels = [{"name": f"k{i}_{tag}", "dtype": dtype, "shape": shape, "perm": perm, "isa": args.isa,
                        "stores": mode} for i, (dtype, _, shape, perm, _) in enumerate(cases)]
            with open(os.path.join(tmp, f"spec_{tag}.json"), "w") as f:
                json.dump({"kernels": kernels}, f)
            subprocess.run([generator, "generate", f"spec_{tag}.json", "-o", f"kernels_{tag}.cpp"], cwd=tmp,
                           check=True)
        with open(os.path.join(tmp, "kernels_a.cpp")) as f:
            text = f.read()
        streams = [f"k{i}_a_stream" in text for i in range(len(cases))]
        with open(os.path.join(tmp, "cases.h"), "w") as f:
            for i in range(len(cases)):
                f.write(f'extern "C" void k{i}_c(const void*, void*);\nextern "C" void k{i}_a(const void*, void*);\n')
            f.write("inline const StoresAbCase kCases[] = {\n")
            for i, (dtype, elem, shape, perm, n) in enumerate(cases):
                name = f"{dtype} {'x'.join(map(str, shape))} ({','.join(map(str, perm))})"
                f.write(f'  {{"{name}", {elem}, {{{", ".join(map(str, shape))}}}, '
                        f'{{{", ".join(map(str, perm))}}}, {n}, k{i}_c, k{i}_a}},\n')
            f.write("};\n")
        exe = os.path.join(tmp, "stores_ab")
        subprocess.run(["g++", "-O3", "-std=c++20", "-I", tmp, "-I", os.path.join(ROOT, "bench"),
                        "-I", os.path.join(ROOT, "runtime", "include"),
                        os.path.join(ROOT, "bench", "stores_ab_main.cpp"), os.path.join(tmp, "kernels_c.cpp"),
                        os.path.join(tmp, "kernels_a.cpp"),
                        os.path.join(ROOT, "bench", "stream_copy.cpp")] + libs + ["-lpthread", "-o", exe],
                       check=True)
        out = subprocess.run([exe, args.isa], check=True, capture_output=True, text=True).stdout

    rows = [line.split("\t") + ["1" if s else "0"] for line, s in
            zip((l for l in out.splitlines() if l.count("\t") == 3), streams)]
    base, new = ("baseline", "this build") if args.against else ("cached", "auto")
    print(f"| case ({args.set}, {args.isa}, 1 thread, x best copy) | {base} | {new} (streaming) | {new} / {base} "
          f"| runtime |")
    print("|---|---|---|---|---|")
    for name, cached, auto, runtime, streams in rows:
        ratio = float(auto) / float(cached)
        print(f"| {name} | {cached} | {auto}{'' if streams == '1' else ' (cached)'} | {ratio:.2f} | {runtime} |")
    cached = [float(r[1]) for r in rows]
    auto = [float(r[2]) for r in rows]
    runtime = [float(r[3]) for r in rows]
    gain = [a / c for a, c in zip(auto, cached)]
    print(f"\n{len(rows)} cases: {base} median {statistics.median(cached):.2f} (min {min(cached):.2f}), "
          f"{new} median {statistics.median(auto):.2f} (min {min(auto):.2f}), {new} / {base} median "
          f"{statistics.median(gain):.2f} (min {min(gain):.2f}, max {max(gain):.2f}), runtime median "
          f"{statistics.median(runtime):.2f}; {sum(r[4] == '1' for r in rows)} kernels have a streaming variant")


if __name__ == "__main__":
    main()
