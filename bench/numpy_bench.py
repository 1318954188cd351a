#!/usr/bin/python3
"""NumPy's transpose on a gentt benchmark set, the baseline gentt_bench is compared with.

    /usr/bin/python3 bench/numpy_bench.py [--set gentt] [--sets-dir DIR] [--samples 11]
                                          [--min-sample-ms 20] [--filter REGEX] [--csv FILE]
                                          [--small-pages]

Reads the set's manifest, <sets-dir>/<set>/cases.tsv, written by the build (`cmake --build BUILD
--target gentt_bench_<set>`), so it measures exactly the problems gentt_bench measures, scaled
the same way. For each case it times, interleaved round by round, the median of --samples
samples, each sample repeating the call until it lasts --min-sample-ms:

  memcpy                   np.copyto(out_flat, in_flat): a contiguous copy of the same bytes,
                           the base of this run's ratios
  numpy_copyto             np.copyto(out, np.transpose(a, axes)) into a preallocated,
                           pre-faulted output: the fair comparison with gentt's kernels
  numpy_ascontiguousarray  np.ascontiguousarray(np.transpose(a, axes)), what code usually
                           writes: it allocates its output on every call, so for large tensors
                           fresh pages are faulted in on every call and that cost is included

NumPy advises its arrays of 4 MiB or more as transparent huge pages (Linux); gentt_bench does
the same for its buffers. --small-pages turns that off in both (the comparison stays fair).

GB/s = 2 * bytes / seconds, as in gentt_bench. NumPy's transpose copy is single-threaded
(threads = 1). Writes a table to stdout and, with --csv, the same columns gentt_bench writes
(bench/report.py merges both). Needs NumPy: run it with the system /usr/bin/python3.
"""
import argparse
import csv
import os
import re
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # pragma: no cover - depends on the interpreter
    sys.exit("numpy_bench.py: NumPy is not importable by %s; run it with /usr/bin/python3 "
             "(Debian: apt-get install python3-numpy)" % sys.executable)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SETS_DIR = os.path.join(HERE, "..", "build", "bench", "sets")
# As gentt_bench writes them. ratio_best_copy and stream_gbps stay empty: the streaming copy is
# measured by gentt_bench only (report.py takes "x best copy" from gentt_bench's runs).
CSV_COLUMNS = ["tool", "set", "case", "dtype", "shape", "axes", "bytes", "impl", "threads", "gbps",
               "ratio_memcpy", "ratio_best_copy", "memcpy_gbps", "stream_gbps", "best_gbps", "samples",
               "calls_per_sample", "note"]


def numpy_dtype(name):
    """The NumPy dtype of a gentt dtype name; only the element size matters for a transpose."""
    if name == "bfloat16":  # NumPy has none; same size, moved as bytes
        return np.dtype(np.uint16)
    m = re.fullmatch(r"bytes([1-9][0-9]*)", name)
    if m:
        return np.dtype("V%d" % int(m.group(1)))
    return np.dtype(name)


def read_cases(sets_dir, set_name):
    path = os.path.join(sets_dir, set_name, "cases.tsv")
    if not os.path.exists(path):
        sys.exit("numpy_bench.py: set '%s' is not built: %s is missing (cmake --build BUILD --target "
                 "gentt_bench_%s)" % (set_name, path, set_name))
    cases = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, dtype, elem_bytes, shape, axes, nbytes, lineno, note = line.rstrip("\n").split("\t")
            cases.append(dict(name=name, dtype=dtype, elem_bytes=int(elem_bytes),
                              shape=[int(x) for x in shape.split(",")],
                              axes=[int(x) for x in axes.split(",")], bytes=int(nbytes), note=note))
    return cases


def shape_text(shape):
    if len(shape) >= 5 and len(set(shape)) == 1:
        return "%d^%d" % (shape[0], len(shape))
    return "x".join(str(e) for e in shape)


def problem_text(c):
    return "%s %s axes %s" % (c["dtype"], shape_text(c["shape"]), ",".join(str(a) for a in c["axes"]))


def seconds_for(fn, calls):
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return time.perf_counter() - t0


def time_interleaved(fns, samples, min_seconds, warmup=2):
    """Median and best seconds per call of each function, measured round by round."""
    calls = []
    for fn in fns:
        for _ in range(warmup):
            fn()
        n = 1
        while seconds_for(fn, n) < min_seconds and n < (1 << 30):
            n *= 2
        calls.append(n)
    per_call = [[] for _ in fns]
    for _ in range(samples):
        for i, fn in enumerate(fns):
            per_call[i].append(seconds_for(fn, calls[i]) / calls[i])
    return [(statistics.median(p), min(p), n) for p, n in zip(per_call, calls)]


def gbps(nbytes, seconds):
    return 2.0 * nbytes / seconds / 1e9 if seconds > 0 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="gentt")
    ap.add_argument("--sets-dir", default=os.environ.get("GENTT_BENCH_SETS_DIR", DEFAULT_SETS_DIR))
    ap.add_argument("--samples", type=int, default=11)
    ap.add_argument("--min-sample-ms", type=float, default=20.0)
    ap.add_argument("--filter", default="", help="regex searched in 'name dtype shape axes'")
    ap.add_argument("--csv", default="")
    ap.add_argument("--small-pages", action="store_true", help="do not advise huge pages for arrays")
    args = ap.parse_args()
    if args.small_pages:
        np.core.multiarray._set_madvise_hugepage(False)
    if args.samples < 1:
        ap.error("--samples must be >= 1")

    cases = read_cases(args.sets_dir, args.set)
    if args.filter:
        rx = re.compile(args.filter)  # POSIX extended regexes (gentt_bench's) mean the same here
        cases = [c for c in cases if rx.search(c["name"] + " " + problem_text(c))]
    print("numpy_bench: set %s, %d cases; NumPy %s, Python %s; huge pages advised: %s" % (
        args.set, len(cases), np.__version__, sys.version.split()[0], not args.small_pages))
    print("timing: median of %d samples, each >= %g ms, interleaved; GB/s = 2 * bytes / s; "
          "x mc = GB/s / memcpy GB/s (np.copyto of the same bytes, this run)" % (args.samples, args.min_sample_ms))
    for c in cases:
        if c["note"]:
            print("note: %s %s" % (c["name"], c["note"]))
    print()
    print("%-14s %11s | %8s | %8s %5s | %8s %5s | %s" % ("case", "size", "memcpy", "copyto", "", "ascontig", "",
                                                         "problem"))
    print("%-14s %11s | %8s | %8s %5s | %8s %5s |" % ("", "", "GB/s", "GB/s", "x mc", "GB/s", "x mc"))

    writer = None
    csv_file = None
    if args.csv:
        csv_file = open(args.csv, "w", newline="")
        writer = csv.writer(csv_file)
        writer.writerow(CSV_COLUMNS)

    rng = np.random.default_rng(20261122)
    for c in cases:
        dtype = numpy_dtype(c["dtype"])
        assert dtype.itemsize == c["elem_bytes"], (c["dtype"], dtype)
        nbytes = c["bytes"]
        a = rng.integers(0, 256, size=nbytes, dtype=np.uint8).view(dtype).reshape(c["shape"])
        axes = tuple(c["axes"])
        out = np.empty([c["shape"][k] for k in axes], dtype=dtype)
        out.view(np.uint8).fill(0xCD)  # pre-fault the output
        a_flat = a.reshape(-1)
        out_flat = out.reshape(-1)
        # The two NumPy forms agree (NumPy is the semantics gentt reproduces).
        np.copyto(out, np.transpose(a, axes))
        if out.tobytes() != np.ascontiguousarray(np.transpose(a, axes)).tobytes():
            sys.exit("numpy_bench.py: np.copyto and np.ascontiguousarray disagree on " + c["name"])

        fns = [lambda: np.copyto(out_flat, a_flat),
               lambda: np.copyto(out, np.transpose(a, axes)),
               lambda: np.ascontiguousarray(np.transpose(a, axes))]
        impls = ["memcpy", "numpy_copyto", "numpy_ascontiguousarray"]
        res = time_interleaved(fns, args.samples, args.min_sample_ms * 1e-3)
        rates = [gbps(nbytes, med) for med, _, _ in res]
        ratios = [r / rates[0] if rates[0] > 0 else 0 for r in rates]
        size = ("%.4g KiB" % (nbytes / 1024)) if nbytes < (1 << 20) else ("%.4g MiB" % (nbytes / (1 << 20)))
        print("%-14s %11s | %8.2f | %8.2f %5.2f | %8.2f %5.2f | %s" % (
            c["name"], size, rates[0], rates[1], ratios[1], rates[2], ratios[2], problem_text(c)), flush=True)
        if writer:
            for impl, (med, best, calls), rate, ratio in zip(impls, res, rates, ratios):
                writer.writerow(["numpy_bench", args.set, c["name"], c["dtype"], " ".join(map(str, c["shape"])),
                                 " ".join(map(str, c["axes"])), nbytes, impl, 1, "%.4f" % rate, "%.4f" % ratio,
                                 "", "%.4f" % rates[0], "", "%.4f" % gbps(nbytes, best), args.samples, calls,
                                 c["note"]])
            csv_file.flush()
        del a, out, a_flat, out_flat, fns
    if csv_file:
        csv_file.close()


if __name__ == "__main__":
    main()
