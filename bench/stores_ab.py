#!/usr/bin/env python3
"""bench/stores_ab.py: a kernel's streaming variant against its cached stores, in one process.

    bench/stores_ab.py --set ttlg --isa avx2 [--min-mib 32] [--limit N] [--build-dir build]

For every case of bench/sets/<set>.txt of at least --min-mib MiB, gentt-gen writes the same
kernel twice for --isa: with `"stores": "cached"` and with `"stores": "auto"` (the streaming
variant where ir/stream.h's rule gives one). A small driver (bench/stores_ab_main.cpp) times
both, the run-time library (gentt::plan_permute with the same isa) and the best plain copy
(memcpy and the streaming copy) interleaved in one process, on huge-page buffers with `out` on a
line, and prints each as "x best copy" (1 thread), then the medians. The comparison issue 8's
AVX2 streaming was measured with (docs/performance.md).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ELEM = {"int8": 1, "uint8": 1, "bool": 1, "int16": 2, "uint16": 2, "float16": 2, "bfloat16": 2, "int32": 4,
        "uint32": 4, "float32": 4, "int64": 8, "uint64": 8, "float64": 8, "complex64": 8, "complex128": 16}


def elem_bytes(dtype):
    if dtype.startswith("bytes"):
        return int(dtype[5:])
    if dtype not in ELEM:
        sys.exit(f"stores_ab: unknown dtype {dtype!r}")
    return ELEM[dtype]


def read_set(name):
    cases = []
    with open(os.path.join(ROOT, "bench", "sets", name + ".txt")) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            dtype, shape, axes = (x.strip() for x in line.split(";"))
            cases.append((dtype, [int(x) for x in shape.split()], [int(x) for x in axes.split()]))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="ttlg")
    ap.add_argument("--isa", default="avx2")
    ap.add_argument("--min-mib", type=float, default=32)
    ap.add_argument("--limit", type=int, default=0, help="at most this many cases (0: all)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()

    cases = []
    for dtype, shape, perm in read_set(args.set):
        n = elem_bytes(dtype)
        for e in shape:
            n *= e
        if n >= args.min_mib * (1 << 20):
            cases.append((dtype, shape, perm, n))
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
        kernels = []
        for i, (dtype, shape, perm, _) in enumerate(cases):
            for mode, tag in (("cached", "c"), ("auto", "a")):
                kernels.append({"name": f"k{i}_{tag}", "dtype": dtype, "shape": shape, "perm": perm,
                                "isa": args.isa, "stores": mode})
        with open(os.path.join(tmp, "spec.json"), "w") as f:
            json.dump({"kernels": kernels}, f)
        subprocess.run([gen, "generate", "spec.json", "-o", "kernels.cpp"], cwd=tmp, check=True)
        with open(os.path.join(tmp, "kernels.cpp")) as f:
            text = f.read()
        streams = [f"k{i}_a_stream" in text for i in range(len(cases))]
        with open(os.path.join(tmp, "cases.h"), "w") as f:
            for i in range(len(cases)):
                f.write(f'extern "C" void k{i}_c(const void*, void*);\nextern "C" void k{i}_a(const void*, void*);\n')
            f.write("inline const StoresAbCase kCases[] = {\n")
            for i, (dtype, shape, perm, n) in enumerate(cases):
                name = f"{dtype} {'x'.join(map(str, shape))} ({','.join(map(str, perm))})"
                f.write(f'  {{"{name}", {elem_bytes(dtype)}, {{{", ".join(map(str, shape))}}}, '
                        f'{{{", ".join(map(str, perm))}}}, {n}, k{i}_c, k{i}_a}},\n')
            f.write("};\n")
        exe = os.path.join(tmp, "stores_ab")
        subprocess.run(["g++", "-O3", "-std=c++20", "-I", tmp, "-I", os.path.join(ROOT, "bench"),
                        "-I", os.path.join(ROOT, "runtime", "include"),
                        os.path.join(ROOT, "bench", "stores_ab_main.cpp"), os.path.join(tmp, "kernels.cpp"),
                        os.path.join(ROOT, "bench", "stream_copy.cpp")] + libs + ["-lpthread", "-o", exe],
                       check=True)
        out = subprocess.run([exe, args.isa], check=True, capture_output=True, text=True).stdout

    rows = [line.split("\t") + ["1" if s else "0"] for line, s in
            zip((l for l in out.splitlines() if l.count("\t") == 3), streams)]
    print(f"| case ({args.set}, {args.isa}, 1 thread, x best copy) | cached | auto (streaming) | auto / cached "
          f"| runtime |")
    print("|---|---|---|---|---|")
    for name, cached, auto, runtime, streams in rows:
        ratio = float(auto) / float(cached)
        print(f"| {name} | {cached} | {auto}{'' if streams == '1' else ' (cached)'} | {ratio:.2f} | {runtime} |")
    cached = [float(r[1]) for r in rows]
    auto = [float(r[2]) for r in rows]
    runtime = [float(r[3]) for r in rows]
    gain = [a / c for a, c in zip(auto, cached)]
    print(f"\n{len(rows)} cases: cached median {statistics.median(cached):.2f} (min {min(cached):.2f}), "
          f"auto median {statistics.median(auto):.2f} (min {min(auto):.2f}), auto / cached median "
          f"{statistics.median(gain):.2f} (min {min(gain):.2f}, max {max(gain):.2f}), runtime median "
          f"{statistics.median(runtime):.2f}; {sum(r[4] == '1' for r in rows)} kernels have a streaming variant")


if __name__ == "__main__":
    main()
