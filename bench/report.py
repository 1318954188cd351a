#!/usr/bin/python3
"""Merges gentt_bench and numpy_bench.py CSV files into a markdown report.

    /usr/bin/python3 bench/report.py RUN.csv... [-o FILE] [--title TEXT]

Each CSV file is one process's run (gentt_bench --csv, numpy_bench.py --csv); give several runs
of the same set to get per-case medians across processes. For every case and implementation the
report shows the median over runs of GB/s and of "x best copy", the ratio to the faster of memcpy
and the streaming copy of the same bytes (each run's ratio uses the copies measured in that run,
same thread count); the summary also gives the ratio to memcpy alone ("x memcpy"). "vs NumPy" divides the widest gentt ISA's
1-thread GB/s by the better of NumPy's two forms (np.copyto into a preallocated output,
np.ascontiguousarray). NumPy's figures come from numpy_bench.py, other processes: give the files
in the order they ran (bench/run alternates gentt_bench and numpy_bench.py), and the i-th
gentt_bench run is compared with the i-th numpy_bench run, the median over those pairs is
reported; the machine's speed drifts between runs far more than within one.

The summary checks gentt's performance targets: (a) cases up to 1 MiB (they fit in L2):
median ratio to memcpy >= 0.6 on 1 thread and median >= 5x NumPy; (b) all-size-2 tensors of
rank 16-24: ratio >= 0.5 on 1 thread; (c) every case faster than NumPy and than the scalar
backend; (d) cases of 16 MiB or more (issue 8): median x best copy >= 0.85 and none below 0.6,
on 1 and on 2 threads. Standard library only.
"""
import argparse
import collections
import csv
import statistics
import sys

ISA_ORDER = ["avx512", "avx512skx", "avx2", "sve", "neon", "sunway", "scalar", "runtime"]  # generated kernels per ISA, then gentt::permute


def median(values):
    return statistics.median(values) if values else None


def read_runs(paths):
    """cases: name -> info; data: (tool, case, impl, threads) -> list of
    (gbps, ratio to memcpy, ratio to the best copy or None, run index)."""
    cases = collections.OrderedDict()
    data = collections.defaultdict(list)
    runs = collections.Counter()
    sets = set()
    for path in paths:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            print("report.py: %s holds no measurements, ignored" % path, file=sys.stderr)
            continue
        run = runs[rows[0]["tool"]]
        runs[rows[0]["tool"]] += 1
        for r in rows:
            sets.add(r["set"])
            cases.setdefault(r["case"], dict(
                name=r["case"], set=r["set"], dtype=r["dtype"], shape=[int(x) for x in r["shape"].split()],
                axes=[int(x) for x in r["axes"].split()], bytes=int(r["bytes"]), note=r["note"]))
            best = r.get("ratio_best_copy") or ""  # empty: numpy_bench, or a CSV from before the column
            data[(r["tool"], r["case"], r["impl"], int(r["threads"]))].append(
                (float(r["gbps"]), float(r["ratio_memcpy"]), float(best) if best else None, run))
    return cases, data, runs, sets


def shape_text(shape):
    if len(shape) >= 5 and len(set(shape)) == 1:
        return "%d^%d" % (shape[0], len(shape))
    return "x".join(str(e) for e in shape)


def size_text(nbytes):
    if nbytes < (1 << 20):
        return "%.4g KiB" % (nbytes / 1024)
    return "%.4g MiB" % (nbytes / (1 << 20))


def fmt(x, digits=2):
    return "-" if x is None else "%.*f" % (digits, x)


class Report:
    def __init__(self, cases, data, runs):
        self.cases, self.data, self.runs = cases, data, runs
        present = {impl[len("gentt_"):] for (tool, _, impl, _) in data if tool == "gentt_bench" and impl.startswith("gentt_")}
        self.isas = [i for i in ISA_ORDER if i in present]
        self.simd = [i for i in self.isas if i != "scalar"]
        self.primary = self.isas[0] if self.isas else None  # the widest ISA measured

    def gbps(self, tool, case, impl, threads=1):
        return median([v[0] for v in self.data.get((tool, case, impl, threads), [])])

    def ratio(self, tool, case, impl, threads=1):
        """x memcpy, median over runs."""
        return median([v[1] for v in self.data.get((tool, case, impl, threads), [])])

    def best(self, tool, case, impl, threads=1):
        """x best copy, median over runs (None where the runs did not measure the streaming copy)."""
        return median([v[2] for v in self.data.get((tool, case, impl, threads), []) if v[2] is not None])

    def spread(self, tool, case, impl, threads=1, which=0):
        """max/min - 1 over the runs of GB/s (which=0), x memcpy (1) or x best copy (2)."""
        values = [v[which] for v in self.data.get((tool, case, impl, threads), []) if v[which] is not None]
        return max(values) / min(values) - 1 if len(values) > 1 and min(values) > 0 else None

    def sets(self):
        seen = []
        for c in self.cases.values():
            if c["set"] not in seen:
                seen.append(c["set"])
        return seen

    def numpy_best_runs(self, case):
        """Run index -> the better NumPy form's GB/s in that numpy_bench run."""
        best = {}
        for impl in ("numpy_copyto", "numpy_ascontiguousarray"):
            for v in self.data.get(("numpy_bench", case, impl, 1), []):
                best[v[3]] = max(best.get(v[3], 0.0), v[0])
        return best

    def numpy_best(self, case):
        return median(list(self.numpy_best_runs(case).values()))

    def vs_numpy(self, case, isa=None, threads=1):
        """gentt GB/s / best NumPy GB/s: median over run pairs (i-th runs), else of the medians."""
        isa = isa or self.primary
        gentt = {v[3]: v[0] for v in self.data.get(("gentt_bench", case, "gentt_" + isa, threads), [])}
        numpy = self.numpy_best_runs(case)
        if gentt and set(gentt) == set(numpy) and all(numpy.values()):
            return median([gentt[run] / numpy[run] for run in gentt])
        k, n = self.gbps("gentt_bench", case, "gentt_" + isa, threads), self.numpy_best(case)
        return k / n if k is not None and n else None

    # ---- the per-case table ----------------------------------------------------------------
    def table(self):
        head = ["case", "problem", "size", "memcpy / stream 1T GB/s", "memcpy / stream 2T GB/s"]
        for isa in self.isas:
            head.append("%s 1T GB/s (x best copy)" % isa)
            if isa != "scalar":
                head.append("%s 2T GB/s (x best copy 2T)" % isa)
        head += ["NumPy copyto GB/s", "NumPy ascontiguousarray GB/s", "%s 1T / best NumPy" % self.primary]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for name, c in self.cases.items():
            problem = "%s %s axes %s" % (c["dtype"], shape_text(c["shape"]), ",".join(map(str, c["axes"])))
            if c["note"]:
                problem += " (note %d)" % (self.notes().index(c["note"]) + 1)
            row = [name.replace("_", "\\_"), problem, size_text(c["bytes"])]
            for t in (1, 2):
                row.append("%s / %s" % (fmt(self.gbps("gentt_bench", name, "memcpy", t), 1),
                                        fmt(self.gbps("gentt_bench", name, "stream_copy", t), 1)))
            for isa in self.isas:
                for t in ([1] if isa == "scalar" else [1, 2]):
                    g, r = self.gbps("gentt_bench", name, "gentt_" + isa, t), self.best("gentt_bench", name, "gentt_" + isa, t)
                    row.append("-" if g is None else "%.2f (%s)" % (g, fmt(r)))
            speed = self.vs_numpy(name)
            row += [fmt(self.gbps("numpy_bench", name, "numpy_copyto")),
                    fmt(self.gbps("numpy_bench", name, "numpy_ascontiguousarray")),
                    "-" if speed is None else "%.1fx" % speed]
            lines.append("| " + " | ".join(row) + " |")
        for i, note in enumerate(self.notes()):
            which = [n.replace("_", "\\_") for n, c in self.cases.items() if c["note"] == note]
            lines.append("")
            lines.append("Note %d (%s): %s." % (i + 1, ", ".join(which) if len(which) < 4 else
                                              "%s ... %s, %d cases" % (which[0], which[-1], len(which)), note))
        return "\n".join(lines)

    def notes(self):
        """The distinct notes of the cases (e.g. how a case was scaled down), in case order."""
        seen = []
        for c in self.cases.values():
            if c["note"] and c["note"] not in seen:
                seen.append(c["note"])
        return seen

    # ---- summary per implementation --------------------------------------------------------
    def summary(self):
        """Per set, ISA and thread count: x best copy (median, min, cases below 0.6), x memcpy, GB/s."""
        lines = ["| set | implementation | threads | median x best copy | min x best copy (case) | below 0.6 | "
                 "median x memcpy | geomean GB/s | faster than scalar | faster than NumPy | median vs NumPy | "
                 "run-to-run spread of x best copy (median, max) | of GB/s (median) |",
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for set_name in self.sets():
            names = [n for n, c in self.cases.items() if c["set"] == set_name]
            has_numpy = any(self.numpy_best(n) for n in names)
            for isa in self.isas:
                for t in (1, 2):
                    impl = "gentt_" + isa
                    measured = [n for n in names if self.gbps("gentt_bench", n, impl, t) is not None]
                    if not measured:
                        continue
                    best = [(self.best("gentt_bench", n, impl, t), n) for n in measured]
                    best = [(r, n) for r, n in best if r is not None]
                    mc = [self.ratio("gentt_bench", n, impl, t) for n in measured]
                    rates = [self.gbps("gentt_bench", n, impl, t) for n in measured]
                    if isa == "scalar":
                        vs_scalar = "-"
                    else:
                        pairs = [(self.gbps("gentt_bench", n, impl, t), self.gbps("gentt_bench", n, "gentt_scalar", t))
                                 for n in measured]
                        pairs = [(a, b) for a, b in pairs if b is not None]
                        vs_scalar = "%d/%d" % (sum(a > b for a, b in pairs), len(pairs)) if pairs else "-"
                    vs_np = [self.vs_numpy(n, isa, t) for n in measured]
                    vs_np = [v for v in vs_np if v is not None]
                    spreads = [(self.spread("gentt_bench", n, impl, t, 2), n) for n in measured]
                    spreads = [(s, n) for s, n in spreads if s is not None]
                    spread = "-"
                    if spreads:
                        worst = max(spreads)
                        spread = "%.0f%%, %.0f%% (%s)" % (100 * median([s for s, _ in spreads]), 100 * worst[0],
                                                         worst[1].replace("_", "\\_"))
                    gspreads = [self.spread("gentt_bench", n, impl, t, 0) for n in measured]
                    gspreads = [s for s in gspreads if s is not None]
                    gspread = "%.0f%%" % (100 * median(gspreads)) if gspreads else "-"
                    lo = min(best) if best else None
                    lines.append("| %s | %s | %d | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s |" % (
                        set_name, isa, t, fmt(median([r for r, _ in best])),
                        "-" if lo is None else "%.2f (%s)" % (lo[0], lo[1].replace("_", "\\_")),
                        "%d/%d" % (sum(r < 0.6 for r, _ in best), len(best)) if best else "-",
                        fmt(median([r for r in mc if r is not None])),
                        statistics.geometric_mean([max(x, 1e-9) for x in rates]), vs_scalar,
                        ("%d/%d" % (sum(v > 1 for v in vs_np), len(vs_np))) if has_numpy and vs_np else "-",
                        ("%.1fx" % median(vs_np)) if has_numpy and vs_np else "-", spread, gspread))
        return "\n".join(lines)

    def best_copy_line(self):
        """Which copy was the faster, per thread count."""
        parts = []
        for t in (1, 2):
            pairs = [(self.gbps("gentt_bench", n, "memcpy", t), self.gbps("gentt_bench", n, "stream_copy", t))
                     for n in self.cases]
            pairs = [(m, s) for m, s in pairs if m is not None and s is not None]
            if pairs:
                faster = [s / m for m, s in pairs if s > m]
                parts.append("%d thread%s: the streaming copy is the faster copy in %d of %d cases%s" % (
                    t, "" if t == 1 else "s", len(faster), len(pairs),
                    " (by %.2fx at the median of those)" % median(faster) if faster else ""))
        return "; ".join(parts) + "." if parts else "The streaming copy was not measured (CSV files from before it)."

    # ---- the targets -----------------------------------------------------------------------
    def targets(self):
        isa = self.primary
        impl = "gentt_" + isa
        names = list(self.cases)
        out = []

        def verdict(ok):
            return "**met**" if ok else "**not met**"

        def listing(items):
            return ", ".join("%s (%s)" % (n.replace("_", "\\_"), v) for n, v in items) or "none"

        small = [n for n in names if self.cases[n]["bytes"] <= (1 << 20)]
        if small:
            ratios = [self.ratio("gentt_bench", n, impl) for n in small]
            vs_np = [self.vs_numpy(n) for n in small]
            vs_np = [v for v in vs_np if v is not None]
            med_r = median([r for r in ratios if r is not None])
            med_np = median(vs_np)
            ok = med_r is not None and med_r >= 0.6 and med_np is not None and med_np >= 5
            out.append("- (a) tensors that fit in L2, the %d cases up to 1 MiB: median %s 1-thread ratio to memcpy "
                       "%s (target >= 0.6), median speedup over NumPy %s (target >= 5x): %s. Below 0.6: %s." % (
                           len(small), isa, fmt(med_r), "-" if med_np is None else "%.1fx" % med_np, verdict(ok),
                           listing([(n, fmt(r, 3)) for n, r in zip(small, ratios) if r is not None and r < 0.6])))
        twos = [n for n in names if set(self.cases[n]["shape"]) == {2} and 16 <= len(self.cases[n]["shape"]) <= 24]
        if twos:
            ratios = [(self.ratio("gentt_bench", n, impl), n) for n in twos]
            ratios = [(r, n) for r, n in ratios if r is not None]
            ok = all(r >= 0.5 for r, _ in ratios)
            out.append("- (b) all-size-2 tensors of rank 16-24, %d cases: %s 1-thread ratio to memcpy median %s, "
                       "min %s (target >= 0.5 for each): %s. Below 0.5: %s." % (
                           len(twos), isa, fmt(median([r for r, _ in ratios])), fmt(min(ratios)[0]), verdict(ok),
                           listing([(n, fmt(r, 3)) for r, n in ratios if r < 0.5])))
        large = [n for n in names if self.cases[n]["bytes"] >= (16 << 20)]
        large_line = None
        if large:
            checks, ok = [], True
            for t in (1, 2):
                best = [(self.best("gentt_bench", n, impl, t), n) for n in large]
                best = [(r, n) for r, n in best if r is not None]
                if not best:
                    continue
                med = median([r for r, _ in best])
                below = [(n, fmt(r, 3)) for r, n in best if r < 0.6]
                ok = ok and med >= 0.85 and not below
                checks.append("%dT median %s, min %s, below 0.6: %s" % (t, fmt(med), fmt(min(best)[0]), listing(below)))
            if checks:
                large_line = ("- (d) tensors of 16 MiB or more, %d cases: %s x best copy, median >= 0.85 and none below "
                           "0.6 on 1 and 2 threads: %s. %s." % (len(large), isa, verdict(ok), "; ".join(checks)))
        slower_np, slower_scalar, compared_np = [], [], 0
        for n in names:
            k = self.gbps("gentt_bench", n, impl)
            v = self.vs_numpy(n)
            if v is not None:
                compared_np += 1
                if v <= 1:
                    slower_np.append((n, "%.2fx" % v))
            s = self.gbps("gentt_bench", n, "gentt_scalar")
            if k is not None and s is not None and isa != "scalar" and k <= s:
                slower_scalar.append((n, "%.2f vs %.2f GB/s" % (k, s)))
        ok = not slower_np and not slower_scalar and compared_np == len(names)
        out.append("- (c) every case faster than NumPy and than the scalar backend (%s, 1 thread): %s. "
                   "Not faster than NumPy: %s. Not faster than scalar: %s." % (
                       isa, verdict(ok), listing(slower_np) if compared_np else "NumPy not measured",
                       listing(slower_scalar)))
        if large_line:
            out.append(large_line)
        return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="CSV files written by gentt_bench --csv and numpy_bench.py --csv")
    ap.add_argument("-o", "--output", default="", help="write the markdown here (default stdout)")
    ap.add_argument("--title", default="")
    args = ap.parse_args()

    cases, data, runs, sets = read_runs(args.csv)
    rep = Report(cases, data, runs)
    if not rep.isas:
        sys.exit("report.py: no gentt_bench measurements in the given files")
    parts = []
    if args.title:
        parts.append("## " + args.title + "\n")
    parts.append("Set %s: %d cases; %d run(s) of gentt_bench, %d run(s) of numpy_bench.py; every figure is the "
                 "median over runs. GB/s = 2 x bytes / s. x best copy = GB/s / the faster copy's GB/s: memcpy or "
                 "the streaming copy (whole 64-byte lines, non-temporal stores) of the same bytes in the same run "
                 "with the same thread count (2T: two threads, each copy copies two halves in parallel); "
                 "x memcpy = GB/s / memcpy GB/s."
                 % (", ".join(sorted(sets)), len(cases), runs["gentt_bench"], runs["numpy_bench"]))
    parts.append("")
    parts.append(rep.table())
    parts.append("")
    parts.append("### Summary\n")
    parts.append(rep.summary())
    parts.append("")
    parts.append("Best copy: " + rep.best_copy_line())
    parts.append("")
    parts.append("Run-to-run spread: max/min - 1 over the runs of a case's x best copy, and of its GB/s; "
                 "the ratio, measured interleaved with the copies, is the stable figure when the machine's speed "
                 "drifts between runs.")
    parts.append("")
    parts.append("### Targets (%s)\n" % rep.primary)
    parts.append(rep.targets())
    text = "\n".join(parts) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
