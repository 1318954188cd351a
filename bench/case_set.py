"""The command line and the case file of the seeded random-set generators (bench/make_*_set.py).

Each generator gives its draw(rng) -> (dtype, shape, perm) and its defaults; this writes
--count cases drawn with random.Random(--seed) to --output, after a three-line header that says
how to make the file again. Standard library only.
"""
import argparse
import random


def write_set(doc, script, title, draw, count, seed, output):
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=count)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("-o", "--output", default=output)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w") as f:
        f.write("# %s\n"
                "# Made by: /usr/bin/python3 bench/%s --count %d --seed %d. Do not edit by hand.\n"
                "# Format: dtype ; shape... ; axes...   (C order, NumPy axes)\n" % (title, script, args.count, args.seed))
        for _ in range(args.count):
            dtype, shape, perm = draw(rng)
            f.write("%s ; %s ; %s\n" % (dtype, " ".join(map(str, shape)), " ".join(map(str, perm))))
