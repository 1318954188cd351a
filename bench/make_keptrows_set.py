#!/usr/bin/python3
"""Writes bench/sets/keptrows.txt: seeded random large tensors that keep their innermost axis.

    /usr/bin/python3 bench/make_keptrows_set.py [--count 24] [--seed 1202] [-o bench/sets/keptrows.txt]

Batched transposes and head splits ((1,0,2), (0,2,1,3), seed 002's (1,2,3,0,4,5,6,7)) move whole
rows: every output row is one contiguous run of the input. The random set draws such cases about
one time in six; this set has only them, with rows of 64-4096 bytes (odd element counts mostly, so
that rows start anywhere in a line) and the other extents drawn from 2-60 and scaled together to
a tensor of 24-96 MiB. Each case: rank 3-5, uint8, uint16, float32 or float64, the other axes
in a random order other than their own. random.Random(seed); deterministic. Standard library only.
"""
import math
import case_set

SIZES = {"uint8": 1, "uint16": 2, "float32": 4, "float64": 8}
DTYPES = ("uint8", "uint16", "float32", "float32", "float64", "float64")


def draw(rng):
    rank = rng.randint(3, 5)
    dtype = rng.choice(DTYPES)
    row_bytes = int(round(2 ** rng.uniform(6, 12)))
    row = max(1, row_bytes // SIZES[dtype])
    target = rng.uniform(24, 96) * 2**20 / SIZES[dtype] / row
    shape = [rng.randint(2, 60) for _ in range(rank - 1)]
    factor = (target / math.prod(shape)) ** (1 / (rank - 1))
    shape = [max(1, int(round(s * factor))) for s in shape] + [row]
    perm = list(range(rank - 1))
    while perm == list(range(rank - 1)):
        rng.shuffle(perm)
    return dtype, shape, perm + [rank - 1]


def main():
    case_set.write_set(__doc__, "make_keptrows_set.py",
                       "Random large tensors that keep their innermost axis (24-96 MiB, rows of 64-4096 bytes, rank 3-5).",
                       draw, count=24, seed=1202, output="bench/sets/keptrows.txt")


if __name__ == "__main__":
    main()
