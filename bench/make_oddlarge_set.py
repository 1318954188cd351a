#!/usr/bin/python3
"""Writes bench/sets/oddlarge.txt: seeded random large tensors whose extents are not powers of two.

    /usr/bin/python3 bench/make_oddlarge_set.py [--count 24] [--seed 2026] [-o bench/sets/oddlarge.txt]

Users' large tensors rarely have power-of-two extents, and then neither the input's nor the
output's rows start on 64-byte lines: the class where streaming stores are hardest to use and the
case sets taken from papers (TTC, TTLG's 16^6) say least. Each case: rank 2-5, every extent drawn
from 3-4000 and not a power of two, an element type from float32, float64, uint16, uint8 and
complex64, a random permutation that moves the innermost axis (a kept innermost axis is a
different class), and a tensor of 32-192 MiB (extents drawn, then the largest one scaled to the
drawn size). random.Random(seed); the output is deterministic. Standard library only.
"""
import case_set

DTYPES = (("float32", 4), ("float64", 8), ("uint16", 2), ("uint8", 1), ("complex64", 8))


def is_pow2(n):
    return n & (n - 1) == 0


def draw(rng):
    dtype, size = rng.choice(DTYPES)
    rank = rng.randint(2, 5)
    target = rng.randint(32, 192) << 20
    while True:
        shape = [rng.randint(3, 4000 if rank == 2 else (600 if rank == 3 else 120)) for _ in range(rank)]
        elems = 1
        for e in shape:
            elems *= e
        big = max(range(rank), key=lambda k: shape[k])
        shape[big] = max(3, round(shape[big] * target / (elems * size)))
        if any(is_pow2(e) for e in shape):
            continue
        perm = list(range(rank))
        while perm[-1] == rank - 1:
            rng.shuffle(perm)
        total = size
        for e in shape:
            total *= e
        if (32 << 20) <= total <= (192 << 20):
            return dtype, shape, perm


def main():
    case_set.write_set(__doc__, "make_oddlarge_set.py", "Random large tensors with no power-of-two extent (32-192 MiB, rank 2-5, the innermost axis moved).", draw, count=24, seed=2026, output="bench/sets/oddlarge.txt")


if __name__ == "__main__":
    main()
