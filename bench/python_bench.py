#!/usr/bin/python3
"""gentt.permute from Python against NumPy (and torch when it imports), on a case file.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py CASES.txt [--threads 1]
        [--samples 7] [--min-sample-ms 1] [--filter REGEX] [--limit N]

CASES.txt has one case a line, `dtype ; shape... ; axes...` (the format of /work/shared/bench/*.txt;
`#` starts a comment), or `from to ; shape... ; axes...` for a fused conversion (the format of
bench/sets/convert.txt). For each case it times, interleaved round by round, the median of
--samples samples, each a warm batch of back-to-back calls lasting at least --min-sample-ms:

  gentt   gentt.permute(a, axes, out=o, threads=T[, dtype=to])   (o preallocated, pre-faulted,
                                                                  64-byte aligned)
  numpy   np.copyto(o, a.transpose(axes)[, casting="unsafe"])     (single-threaded)
  torch   o.copy_(t.permute(axes))                               (only when torch imports; torch's
                                                                  own threads; converts too)

GB/s = (bytes read + bytes written) / seconds: 2 * bytes without a conversion. Conversions get
finite input values (random normal floats, random integers); those to bfloat16, which NumPy
lacks (and so the module cannot ask for), are left out. It ends with the call overhead: the time of one call on a tiny
(2, 3) float32 array for each implementation.
"""
import argparse
import re
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # pragma: no cover - depends on the interpreter
    sys.exit("python_bench.py: NumPy is not importable by %s; run it with /usr/bin/python3" % sys.executable)
try:
    import gentt
except ImportError:
    sys.exit("python_bench.py: the gentt module is not importable; build it (cmake --build build --target "
             "gentt_python) and set PYTHONPATH=build/python")
try:
    import torch
except ImportError:
    torch = None


def numpy_dtype(name):
    """A case file's dtype as NumPy's; bfloat16 (which NumPy lacks) and bytesN move by size."""
    if name == "bfloat16":
        return np.dtype(np.uint16)
    m = re.fullmatch(r"bytes([1-9][0-9]*)", name)
    return np.dtype("V%s" % m.group(1)) if m else np.dtype(name)


def read_cases(path):
    cases = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            types = fields[0].split()
            if len(fields) != 3 or len(types) not in (1, 2):
                sys.exit("%s:%d: expected `dtype ; shape ; axes` or `from to ; shape ; axes`" % (path, number))
            cases.append((types[0], types[1] if len(types) == 2 else None, tuple(int(x) for x in fields[1].split()),
                          tuple(int(x) for x in fields[2].split())))
    return cases


def sample_seconds(call, min_seconds):
    """Seconds per call over one warm batch lasting at least min_seconds."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            call()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / n
        n = max(n * 2, int(n * min_seconds / max(elapsed, 1e-9) * 1.2))


def median_times(calls, samples, min_seconds):
    """Median seconds per call of each implementation, sampled round-robin."""
    for call in calls.values():  # warm: caches, plan caches, page faults
        call()
    times = {name: [] for name in calls}
    for _ in range(samples):
        for name, call in calls.items():
            times[name].append(sample_seconds(call, min_seconds))
    return {name: statistics.median(t) for name, t in times.items()}


def implementations(a, axes, o, threads, to=None):
    if to is not None:  # a fused conversion
        calls = {
            "gentt": lambda: gentt.permute(a, axes, out=o, threads=threads, dtype=o.dtype),
            "numpy": lambda: np.copyto(o, a.transpose(axes), casting="unsafe"),
        }
        if torch is not None and a.dtype.kind in "biufc" and o.dtype.kind in "biufc" and \
                (a.dtype.kind != "u" or a.dtype.itemsize == 1) and (o.dtype.kind != "u" or o.dtype.itemsize == 1):
            t, to_t = torch.from_numpy(a), torch.from_numpy(o)
            calls["torch"] = lambda: to_t.copy_(t.permute(axes))
        return calls
    calls = {
        "gentt": lambda: gentt.permute(a, axes, out=o, threads=threads),
        "numpy": lambda: np.copyto(o, a.transpose(axes)),
    }
    if torch is not None and a.dtype.kind in "biufc":
        # Older torch has no uint16/32/64 tensors: the same bytes as signed integers move alike.
        if a.dtype.kind == "u" and a.dtype.itemsize > 1:
            a, o = a.view("i%d" % a.dtype.itemsize), o.view("i%d" % a.dtype.itemsize)
        t, to = torch.from_numpy(a), torch.from_numpy(o)
        calls["torch"] = lambda: to.copy_(t.permute(axes))
    return calls


def line_aligned_zeros(shape, dtype):
    """Zeros whose data starts on a 64-byte line, as gentt.permute allocates its large results
    (NumPy's own large arrays start 16 bytes into a line, which keeps gentt from streaming stores)."""
    nbytes = int(np.prod(shape)) * dtype.itemsize
    buf = np.zeros(nbytes + 64, np.uint8)
    skip = (-buf.ctypes.data) % 64
    o = buf[skip:skip + nbytes].view(dtype).reshape(shape)
    o.fill(0)  # fault every page in before timing
    return o


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases")
    parser.add_argument("--threads", type=int, default=1, help="gentt threads (0 = every core)")
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--min-sample-ms", type=float, default=1.0)
    parser.add_argument("--filter", default="", help="only cases whose text matches this regex")
    parser.add_argument("--limit", type=int, default=0, help="at most this many cases")
    args = parser.parse_args()

    cases = [c for c in read_cases(args.cases) if re.search(args.filter, " ".join(map(str, c))) and c[1] != "bfloat16"]
    if args.limit:
        cases = cases[:args.limit]
    rng = np.random.default_rng(0)
    names = ["gentt", "numpy"] + (["torch"] if torch is not None else [])
    print("gentt %s, NumPy %s%s, gentt threads %d; GB/s = 2 * bytes / s; median of %d warm samples >= %g ms"
          % (gentt.__version__, np.__version__, ", torch " + torch.__version__ if torch else " (torch not installed)",
             args.threads, args.samples, args.min_sample_ms))
    print()
    print("| dtype | shape | axes | bytes | " + " | ".join(n + " GB/s" for n in names) +
          " | gentt / numpy |" + (" gentt / torch |" if torch else ""))
    print("|" + "---|" * (5 + len(names) + (1 if torch else 0)))
    for dtype_name, to_name, shape, axes in cases:
        dtype = numpy_dtype(dtype_name)
        if to_name is None:
            a = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)
        elif dtype.kind == "f":
            a = (rng.standard_normal(shape) * 100).astype(dtype)
        else:
            a = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)
        out_dtype = dtype if to_name is None else numpy_dtype(to_name)
        o = line_aligned_zeros(tuple(shape[i] for i in axes), out_dtype)
        seconds = median_times(implementations(a, axes, o, args.threads, to_name), args.samples, args.min_sample_ms / 1e3)
        gbps = {n: (a.nbytes + o.nbytes) / s / 1e9 for n, s in seconds.items()}
        label = dtype_name if to_name is None else dtype_name + " -> " + to_name
        row = [label, "x".join(map(str, shape)), ",".join(map(str, axes)), str(a.nbytes)]
        row += ["%.2f" % gbps[n] if n in gbps else "-" for n in names]
        row.append("%.2f" % (gbps["gentt"] / gbps["numpy"]))
        if torch:
            row.append("%.2f" % (gbps["gentt"] / gbps["torch"]) if "torch" in gbps else "-")
        print("| " + " | ".join(row) + " |")

    tiny = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.empty((3, 2), np.float32)
    overhead = median_times(implementations(tiny, (1, 0), out, 1), args.samples, args.min_sample_ms / 1e3)
    print()
    print("call overhead on a (2, 3) float32 array: " +
          ", ".join("%s %.2f us" % (n, s * 1e6) for n, s in overhead.items()))


if __name__ == "__main__":
    main()
