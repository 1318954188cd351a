#!/usr/bin/python3
"""Writes the NumPy transpose fixtures of tests/runtime/fixtures/.

Each case is one file NNN_description.bin:
    gentt-fixture v1 dtype=float32 elem_size=4 shape=2,3,4 perm=2,0,1\\n
    <input bytes: the C-contiguous input tensor>
    <output bytes: numpy.ascontiguousarray(numpy.transpose(input, perm)).tobytes()>
Rank 0 is written "shape= perm=". Data is drawn from numpy.random.default_rng seeded by the
case's description, so the files are identical on every run and a case does not change when
others are added. Needs NumPy: run with /usr/bin/python3 (see fixtures/README.md).

Usage: make_numpy_fixtures.py [--out-dir DIR] [--check]
"""

import argparse
import pathlib
import sys
import zlib

import numpy as np

HEADER_MAGIC = "gentt-fixture v1"
DEFAULT_OUT_DIR = pathlib.Path(__file__).resolve().parent.parent / "tests" / "runtime" / "fixtures"

# NumPy has no bfloat16; it is the upper half of a float32, kept as 2 raw bytes.
NUMPY_DTYPES = {
    "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
    "float16": np.float16, "int32": np.int32, "uint32": np.uint32, "float32": np.float32,
    "int64": np.int64, "uint64": np.uint64, "float64": np.float64,
    "complex64": np.complex64, "complex128": np.complex128,
}


def random_tensor(rng, dtype_name, shape):
    """A tensor of typical values of the dtype (opaque bytesN: random bytes)."""
    count = int(np.prod(shape, dtype=np.int64))
    if dtype_name.startswith("bytes"):
        size = int(dtype_name[len("bytes"):])
        raw = rng.integers(0, 256, size=count * size, dtype=np.uint8)
        return raw.view(np.dtype(f"V{size}")).reshape(shape)
    if dtype_name == "bfloat16":
        values = (rng.standard_normal(count) * 100).astype(np.float32)
        return (values.view(np.uint32) >> 16).astype(np.uint16).reshape(shape)
    dtype = np.dtype(NUMPY_DTYPES[dtype_name])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=count, dtype=dtype, endpoint=True).reshape(shape)
    if dtype.kind == "f":
        return (rng.standard_normal(count) * 100).astype(dtype).reshape(shape)
    real = rng.standard_normal(count) * 100
    imag = rng.standard_normal(count) * 100
    return (real + 1j * imag).astype(dtype).reshape(shape)


def float_specials(dtype_name, shape, rng):
    """Bit patterns that arithmetic would change: NaN payloads (quiet and signalling, both
    signs), -0.0, infinities, subnormals, extremes; the rest filled with random bits."""
    bits = {
        "float16": (np.uint16, [0x7E00, 0x7C01, 0xFE3F, 0x7D55, 0x8000, 0x0000, 0x7C00, 0xFC00,
                                0x0001, 0x83FF, 0x7BFF, 0xFBFF]),
        "float32": (np.uint32, [0x7FC00000, 0x7F800001, 0xFFC12345, 0x7FA5A5A5, 0xFFFFFFFF,
                                0x80000000, 0x00000000, 0x7F800000, 0xFF800000, 0x00000001,
                                0x807FFFFF, 0x7F7FFFFF]),
        "float64": (np.uint64, [0x7FF8000000000000, 0x7FF0000000000001, 0xFFF8DEADBEEF0001,
                                0x7FF4000000C0FFEE, 0xFFFFFFFFFFFFFFFF, 0x8000000000000000,
                                0x0000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
                                0x0000000000000001, 0x800FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF]),
    }
    # Complex: pairs of float patterns, so NaN payloads sit in real and imaginary parts.
    component = {"complex64": "float32", "complex128": "float64"}.get(dtype_name, dtype_name)
    uint_type, patterns = bits[component]
    lanes = 2 if component != dtype_name else 1
    count = int(np.prod(shape, dtype=np.int64)) * lanes
    info = np.iinfo(uint_type)
    raw = rng.integers(0, info.max, size=count, dtype=uint_type, endpoint=True)
    raw[:len(patterns)] = patterns
    rng.shuffle(raw)
    return raw.view(np.dtype(NUMPY_DTYPES[dtype_name])).reshape(shape)


# (description, dtype, shape, perm, contents). Descriptions are unique and seed the data.
RANDOM, SPECIALS = "random", "specials"
CASES = [
    # One case per named dtype.
    ("int8_2x3_transpose", "int8", (2, 3), (1, 0), RANDOM),
    ("uint8_4x5x6", "uint8", (4, 5, 6), (2, 0, 1), RANDOM),
    ("int16_3x4x5", "int16", (3, 4, 5), (1, 2, 0), RANDOM),
    ("uint16_2x3x4x5", "uint16", (2, 3, 4, 5), (3, 1, 0, 2), RANDOM),
    ("float16_5x7_transpose", "float16", (5, 7), (1, 0), RANDOM),
    ("bfloat16_3x5x4", "bfloat16", (3, 5, 4), (2, 1, 0), RANDOM),
    ("int32_6x5x4x3", "int32", (6, 5, 4, 3), (0, 2, 1, 3), RANDOM),
    ("uint32_7x9_transpose", "uint32", (7, 9), (1, 0), RANDOM),
    ("float32_8x8x8_reversed", "float32", (8, 8, 8), (2, 1, 0), RANDOM),
    ("int64_3x4x5", "int64", (3, 4, 5), (0, 2, 1), RANDOM),
    ("uint64_2x3x4x5x2", "uint64", (2, 3, 4, 5, 2), (4, 2, 0, 3, 1), RANDOM),
    ("float64_9x11_transpose", "float64", (9, 11), (1, 0), RANDOM),
    ("complex64_4x3x5", "complex64", (4, 3, 5), (1, 0, 2), RANDOM),
    ("complex128_3x4x2", "complex128", (3, 4, 2), (2, 0, 1), RANDOM),
    # Odd element sizes, as opaque NumPy void dtypes.
    ("bytes3_5x6x7", "bytes3", (5, 6, 7), (2, 0, 1), RANDOM),
    ("bytes5_4x9", "bytes5", (4, 9), (1, 0), RANDOM),
    ("bytes6_3x4x5x2", "bytes6", (3, 4, 5, 2), (1, 3, 0, 2), RANDOM),
    ("bytes7_6x5x3", "bytes7", (6, 5, 3), (2, 1, 0), RANDOM),
    ("bytes12_4x3x5", "bytes12", (4, 3, 5), (0, 2, 1), RANDOM),
    ("bytes3_inner_axis_kept", "bytes3", (3, 5, 7), (1, 0, 2), RANDOM),
    # Float bit patterns that must survive untouched.
    ("float16_specials", "float16", (4, 6), (1, 0), SPECIALS),
    ("float32_specials", "float32", (3, 4, 5), (2, 0, 1), SPECIALS),
    ("float64_specials", "float64", (4, 2, 3), (1, 2, 0), SPECIALS),
    ("complex64_specials", "complex64", (3, 5), (1, 0), SPECIALS),
    ("complex128_specials", "complex128", (2, 3, 2), (2, 1, 0), SPECIALS),
    # Size-1 axes.
    ("float32_size1_axes_reversed", "float32", (1, 5, 1, 4, 1), (4, 3, 2, 1, 0), RANDOM),
    ("int16_size1_middle", "int16", (3, 1, 4), (1, 2, 0), RANDOM),
    ("uint8_all_size1", "uint8", (1, 1, 1), (2, 0, 1), RANDOM),
    ("float64_size1_leading", "float64", (1, 6, 5), (0, 2, 1), RANDOM),
    # Rank 1 and rank 0 (a NumPy scalar: one element).
    ("float32_rank1", "float32", (17,), (0,), RANDOM),
    ("bytes5_rank1", "bytes5", (6,), (0,), RANDOM),
    ("float64_rank0", "float64", (), (), RANDOM),
    ("bytes3_rank0", "bytes3", (), (), RANDOM),
    # Rank 16, kept small by size-1/2/3 axes.
    ("float32_rank16", "float32", (2, 1, 3, 2, 1, 2, 1, 2, 3, 1, 2, 1, 1, 2, 1, 2),
     (5, 12, 0, 9, 15, 3, 7, 1, 14, 10, 2, 8, 13, 4, 11, 6), RANDOM),
    ("int8_rank16_reversed", "int8", (2, 3, 1, 2, 2, 1, 3, 2, 1, 2, 1, 2, 2, 1, 3, 2),
     tuple(range(15, -1, -1)), RANDOM),
    ("bytes7_rank16", "bytes7", (1, 2, 1, 1, 3, 1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 3),
     (15, 1, 4, 0, 13, 2, 9, 11, 3, 6, 14, 5, 10, 7, 12, 8), RANDOM),
    # Identity and reversed permutations.
    ("int32_identity", "int32", (3, 4, 5), (0, 1, 2), RANDOM),
    ("bytes6_identity", "bytes6", (2, 3, 4, 2), (0, 1, 2, 3), RANDOM),
    ("uint16_reversed_rank5", "uint16", (2, 3, 4, 3, 2), (4, 3, 2, 1, 0), RANDOM),
    ("float64_reversed_rank6", "float64", (2, 2, 3, 2, 3, 2), (5, 4, 3, 2, 1, 0), RANDOM),
    # Shapes a vector kernel would pad or split.
    ("float32_64x33_transpose", "float32", (64, 33), (1, 0), RANDOM),
    ("uint8_31x37x3", "uint8", (31, 37, 3), (2, 0, 1), RANDOM),
    ("int16_7x11x13", "int16", (7, 11, 13), (2, 0, 1), RANDOM),
    ("float32_4x6x8_inner_axis_kept", "float32", (4, 6, 8), (1, 0, 2), RANDOM),
    ("complex128_5x2x3x2", "complex128", (5, 2, 3, 2), (3, 0, 2, 1), RANDOM),
]


def element_size(dtype_name):
    if dtype_name.startswith("bytes"):
        return int(dtype_name[len("bytes"):])
    if dtype_name == "bfloat16":
        return 2
    return np.dtype(NUMPY_DTYPES[dtype_name]).itemsize


def render(description, dtype_name, shape, perm, contents):
    """The bytes of one fixture file."""
    rng = np.random.default_rng(zlib.crc32(description.encode()))
    if contents == SPECIALS:
        tensor = float_specials(dtype_name, shape, rng)
    else:
        tensor = random_tensor(rng, dtype_name, shape)
    elem_size = element_size(dtype_name)
    assert tensor.dtype.itemsize == elem_size and tensor.shape == tuple(shape)
    assert tensor.flags.c_contiguous
    output = np.ascontiguousarray(np.transpose(tensor, perm))
    header = (f"{HEADER_MAGIC} dtype={dtype_name} elem_size={elem_size} "
              f"shape={','.join(map(str, shape))} perm={','.join(map(str, perm))}\n")
    return header.encode("ascii") + tensor.tobytes() + output.tobytes()


def fixture_files():
    """File name -> contents, for every case."""
    names = [case[0] for case in CASES]
    assert len(set(names)) == len(names), "case descriptions must be unique"
    return {f"{index:03d}_{case[0]}.bin": render(*case) for index, case in enumerate(CASES)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=pathlib.Path, default=DEFAULT_OUT_DIR,
                        help="where to write the fixtures (default: %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the fixtures on disk differ")
    args = parser.parse_args()

    wanted = fixture_files()
    existing = {path.name for path in args.out_dir.glob("[0-9][0-9][0-9]_*.bin")}
    if args.check:
        stale = sorted(existing - wanted.keys())
        differing = sorted(name for name, data in wanted.items()
                           if not (args.out_dir / name).is_file()
                           or (args.out_dir / name).read_bytes() != data)
        for name in stale + differing:
            print(f"{args.out_dir / name}: out of date", file=sys.stderr)
        return 1 if stale or differing else 0

    args.out_dir.mkdir(parents=True, exist_ok=True)
    for name in sorted(existing - wanted.keys()):
        (args.out_dir / name).unlink()
    for name, data in wanted.items():
        (args.out_dir / name).write_bytes(data)
    total = sum(len(data) for data in wanted.values())
    print(f"wrote {len(wanted)} fixtures ({total} bytes) to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
