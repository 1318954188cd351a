#!/usr/bin/python3
"""Draws "x best copy" per case for each set of gentt_bench CSV files: one PNG per set.

    /usr/bin/python3 bench/plot.py RUN.csv... [--out-dir docs/perf] [--title TEXT]

Reads the CSV files gentt_bench --csv writes (numpy_bench.py files may be given too; they are
ignored, NumPy has no streaming-copy figure) and, for each set found in them, writes
<out-dir>/<set>.png: the cases along the x axis (in file order), "x best copy" (kernel GB/s / the
faster of memcpy and the streaming copy, same run, same thread count; the median over the runs
given) on the y axis, one marker series per ISA and thread count, and a line at 1.0 (the best
copy). Needs matplotlib (Debian: apt-get install python3-matplotlib); bench/run calls it after
the report when /usr/bin/python3 can import it.
"""
import argparse
import collections
import csv
import os
import statistics
import sys

# Generated kernels per ISA, then the run-time library (gentt::permute, column "runtime").
ISA_ORDER = ["avx512", "avx512skx", "avx2", "sve", "neon", "sunway", "scalar", "runtime"]
MARKERS = {1: "o", 2: "^"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "perf"))
    ap.add_argument("--title", default="", help="appended to each plot's title (e.g. the date or the commit)")
    args = ap.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py: matplotlib is not importable by %s (Debian: apt-get install python3-matplotlib)"
                 % sys.executable)

    # set -> case -> (impl, threads) -> [x best copy per run]
    data = collections.OrderedDict()
    sizes = {}
    for path in args.csv:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["tool"] != "gentt_bench" or not r["impl"].startswith("gentt_") or not r.get("ratio_best_copy"):
                    continue
                cases = data.setdefault(r["set"], collections.OrderedDict())
                cases.setdefault(r["case"], collections.defaultdict(list))[(r["impl"][6:], int(r["threads"]))].append(
                    float(r["ratio_best_copy"]))
                sizes[r["case"]] = int(r["bytes"])
    if not data:
        sys.exit("plot.py: no gentt_bench rows with ratio_best_copy in the given files")

    os.makedirs(args.out_dir, exist_ok=True)
    for set_name, cases in data.items():
        names = list(cases)
        series = sorted({key for c in cases.values() for key in c},
                        key=lambda k: (ISA_ORDER.index(k[0]) if k[0] in ISA_ORDER else 99, k[1]))
        fig, ax = plt.subplots(figsize=(max(6.0, 0.22 * len(names) + 2.5) + 1.8, 4.8))
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        isas = [isa for isa in ISA_ORDER if any(k[0] == isa for k in series)]
        top = 1.0
        for isa, threads in series:
            xs, ys = [], []
            for i, name in enumerate(names):
                runs = cases[name].get((isa, threads))
                if runs:
                    xs.append(i)
                    ys.append(statistics.median(runs))
            if not xs:
                continue
            top = max(top, max(ys))
            ax.plot(xs, ys, linestyle="none", marker=MARKERS.get(threads, "s"), markersize=5,
                    fillstyle="full" if threads == 1 else "none", color=colors[isas.index(isa) % len(colors)],
                    label="%s, %d thread%s" % (isa, threads, "" if threads == 1 else "s"))
        ax.axhline(1.0, color="black", linewidth=1)
        ax.axhline(0.6, color="grey", linewidth=0.8, linestyle=":")
        ax.set_ylim(0, top * 1.08)
        ax.set_xlim(-0.7, len(names) - 0.3)
        ax.set_xticks(range(len(names)))
        short = [n[len(set_name) + 1:] if n.startswith(set_name + "_") else n for n in names]
        ax.set_xticklabels([s.replace("case", "") for s in short], rotation=90, fontsize=7)
        ax.set_xlabel("case (%s set, file order; %s to %s)" % (
            set_name, size_text(min(sizes[n] for n in names)), size_text(max(sizes[n] for n in names))))
        ax.set_ylabel("x best copy (GB/s / max(memcpy, stream) GB/s)")
        ax.set_title("gentt: %s set, x best copy per case%s" % (set_name, " (" + args.title + ")" if args.title else ""))
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        fig.tight_layout()
        out = os.path.join(args.out_dir, set_name + ".png")
        fig.savefig(out, dpi=110)
        plt.close(fig)
        print("plot.py: wrote %s (%d cases, %d series)" % (out, len(names), len(series)))


def size_text(nbytes):
    if nbytes < (1 << 20):
        return "%.4g KiB" % (nbytes / 1024)
    return "%.4g MiB" % (nbytes / (1 << 20))


if __name__ == "__main__":
    main()
