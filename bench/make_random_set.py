#!/usr/bin/python3
"""Writes bench/sets/random.txt: seeded random large tensors of every class, as users bring them.

    /usr/bin/python3 bench/make_random_set.py [--count 60] [--seed 20261129] [-o bench/sets/random.txt]

The sets taken from papers (TTC, TTLG's 15^6-17^6) and our own oddlarge one leave out classes
that random shapes hit all the time: byte and 16-bit tensors, 3-D reversals, batched transposes
with odd extents, ranks up to 6, kept innermost axes. Each case: rank 2-6, an element type from
uint8, uint16, float32 and float64 (the last two twice as often), extents drawn from 2-60 and all
scaled by one factor to a tensor of 24-96 MiB (so extents are whatever the scale makes them, odd
mostly, and an extent may become 1), and a random permutation (the identity reversed). It takes
every permutation, so about one case in six keeps its innermost axis. random.Random(seed); the
output is deterministic. Standard library only.
"""
import math
import case_set

SIZES = {"uint8": 1, "uint16": 2, "float32": 4, "float64": 8}
DTYPES = ("uint8", "uint16", "float32", "float32", "float64", "float64")


def draw(rng):
    rank = rng.randint(2, 6)
    dtype = rng.choice(DTYPES)
    target = rng.uniform(24, 96) * 2**20 / SIZES[dtype]
    shape = [rng.randint(2, 60) for _ in range(rank)]
    factor = (target / math.prod(shape)) ** (1 / rank)
    shape = [max(1, int(round(s * factor))) for s in shape]
    perm = list(range(rank))
    rng.shuffle(perm)
    if perm == list(range(rank)):
        perm = perm[::-1]
    return dtype, shape, perm


def main():
    case_set.write_set(__doc__, "make_random_set.py", "Random large tensors of every class (24-96 MiB, rank 2-6, uint8/uint16/float32/float64, any permutation).", draw, count=60, seed=20261129, output="bench/sets/random.txt")


if __name__ == "__main__":
    main()
