#!/usr/bin/python3
"""Writes bench/sets/ttlg.txt: a seeded sample of the TTLG 6-D sweep.

    /usr/bin/python3 bench/make_ttlg_set.py [--count 64] [--seed 20240806] [-o bench/sets/ttlg.txt]

The TTLG paper's sweep is all 720 permutations of a 6-D float64 tensor with every extent 15, 16
or 17 (3 x 720 = 2160 cases, 87-184 MiB each). Measuring all of them takes hours on a 2-core
machine, so the set is a uniform sample without replacement of --count of the 2160 (extent,
permutation) pairs, drawn with Python's random.Random(seed), listed in extent order, then
permutation order. The output is deterministic: rerunning with the same options rewrites the same
file. Standard library only.
"""
import argparse
import itertools
import random

EXTENTS = (15, 16, 17)
RANK = 6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--seed", type=int, default=20240806)
    ap.add_argument("-o", "--output", default="bench/sets/ttlg.txt")
    args = ap.parse_args()

    everything = [(e, p) for e in EXTENTS for p in itertools.permutations(range(RANK))]
    sample = sorted(random.Random(args.seed).sample(everything, args.count))
    with open(args.output, "w") as f:
        f.write("# TTLG-style 6-D sweep: a seeded sample of %d of the 3 x 720 permutations of 15^6, 16^6 and 17^6\n"
                "# float64 (87-184 MiB each). Made by: /usr/bin/python3 bench/make_ttlg_set.py --count %d --seed %d\n"
                "# (random.Random(seed).sample over (extent, permutation) pairs, sorted). Do not edit by hand.\n"
                "# Format: dtype ; shape... ; axes...   (C order, NumPy axes)\n" % (args.count, args.count, args.seed))
        for extent, perm in sample:
            f.write("float64 ; %s ; %s\n" % (" ".join([str(extent)] * RANK), " ".join(map(str, perm))))


if __name__ == "__main__":
    main()
