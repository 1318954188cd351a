#!/usr/bin/python3
"""Writes bench/sets/llc.txt: seeded random tensors of 16-31 MiB, the size of a last-level cache.

    /usr/bin/python3 bench/make_llc_set.py [--count 40] [--seed 5] [-o bench/sets/llc.txt]

Input and output of such a tensor together fill a 32 MiB L3 (AMD Zen 4/5 per CCD): whether the
output is written around the cache (streaming stores, ir/stream.h's kStreamMinBytes) or through
it decides their speed, and the plain copy of the same bytes is itself fastest streamed there.
Each case: rank 2-5, an element type from float32, float64, uint16, uint8 and complex64, any
permutation but the identity (kept innermost axes included). About 30% of the cases have
power-of-two extents only (the largest doubled or halved into the range), the others extents
drawn from 3-4000 (rank 2), 3-600 (rank 3) or 3-120, the largest scaled to a drawn size.
random.Random(seed); the output is deterministic. Standard library only.
"""
import case_set

DTYPES = (("float32", 4), ("float64", 8), ("uint16", 2), ("uint8", 1), ("complex64", 8))
LO, HI = 16 << 20, 31 << 20


def draw(rng):
    while True:
        dtype, size = rng.choice(DTYPES)
        rank = rng.randint(2, 5)
        target = rng.randint(16, 31) << 20
        pow2 = rng.random() < 0.3
        if pow2:
            shape = [2 ** rng.randint(1, 9) for _ in range(rank)]
        else:
            shape = [rng.randint(3, 4000 if rank == 2 else (600 if rank == 3 else 120)) for _ in range(rank)]
        elems = 1
        for e in shape:
            elems *= e
        big = max(range(rank), key=lambda k: shape[k])
        if pow2:
            while elems * size < target:
                shape[big] *= 2
                elems *= 2
            while elems * size >= HI:
                shape[big] //= 2
                elems //= 2
        else:
            shape[big] = max(3, round(shape[big] * target / (elems * size)))
        total = size
        for e in shape:
            total *= e
        if not LO <= total < HI:
            continue
        perm = list(range(rank))
        while perm == sorted(perm):
            rng.shuffle(perm)
        return dtype, shape, perm


def main():
    case_set.write_set(__doc__, "make_llc_set.py", "Random tensors of 16-31 MiB, input and output together the size of a 32 MiB last-level cache.", draw, count=40, seed=5, output="bench/sets/llc.txt")


if __name__ == "__main__":
    main()
