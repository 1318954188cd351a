#!/usr/bin/python3
"""Writes tests/runtime/convert_fixtures/convert_cases.bin: NumPy's element conversions.

The file starts with the line "gentt-convert-fixture v1 cases=N\\n"; each case is
    from=float32 to=int8 count=40 alpha=<re>,<im> beta=<re>,<im>\\n   (float.hex() numbers)
    <input bytes>       count elements of `from`
    <initial out bytes> count elements of `to`: what `out` holds before the call
    <expected bytes>    count elements of `to`
with expected = a.astype(to) when alpha == 1 and beta == 0 (the initial out is then NaN-ish
garbage that must not matter), otherwise NumPy's `alpha * a.astype(to) + beta * out` with
Python scalars alpha and beta (or `alpha * a.astype(to)` when beta == 0, which does not read out).

Every pair of NumPy types (bool included) is one plain case; scaled cases cover the float and
complex targets. Inputs are special values (integer limits, +-0, +-inf, NaN payloads, signalling
NaNs, subnormals, float16 rounding ties, out-of-range values for float -> int) plus random ones
from numpy.random.default_rng seeded per case, so runs are byte-identical.
Needs NumPy: run with /usr/bin/python3.

Usage: make_convert_fixtures.py [--out FILE] [--check]
"""

import argparse
import pathlib
import sys
import warnings
import zlib

import numpy as np

DEFAULT_OUT = (pathlib.Path(__file__).resolve().parent.parent / "tests" / "runtime" /
               "convert_fixtures" / "convert_cases.bin")
COUNT = 40
UNSIGNED_WIDE = {"uint32": 2.0**32, "uint64": 2.0**64}

TYPES = {
    "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
    "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64,
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
    "complex64": np.complex64, "complex128": np.complex128, "bool": np.bool_,
}

# Real values that stress float -> int (truncation, wrapping, x86 out-of-range results), float
# rounding (float16 ties around 2049 and 1 + 2^-11) and integer -> float16 overflow.
FLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.9, 255.9, 300.5, -300.5, 70000.0, -1.5,
                3e9, -3e9, 1e20, -1e20, 2.0**31, 2.0**32 + 5, 2.0**63, 2.0**64 + 1e5,
                -(2.0**31) - 1, 2049.0, 2051.0, 1 + 2.0**-11, 1 + 3 * 2.0**-11, 65519.0, 65520.0,
                6e-8, 3e-8, 2.0**-25, 1e-40, float("inf"), float("-inf"), float("nan")]

BIT_PATTERNS = {
    # quiet / signalling NaNs with payloads of both signs, payloads that vanish in float16,
    # subnormals, extremes
    np.float32: (np.uint32, [0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FA5A5A5, 0xFFC12345,
                             0x7F802000, 0x7F801000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF,
                             0x33800000, 0x33000001, 0x38800000]),
    np.float64: (np.uint64, [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
                             0x7FF4000000C0FFEE, 0xFFF8DEADBEEF0001, 0x7FF0040000000000,
                             0x0000000000000001, 0x800FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF,
                             0x3E70000000000001, 0x40EFFDFFFFFFFFFF]),
    np.float16: (np.uint16, [0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x7DFF, 0x0001, 0x83FF, 0x7BFF,
                             0x0400, 0x3C01]),
}


def source_values(dtype, rng):
    """COUNT interesting values of dtype."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=COUNT).astype(np.bool_)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        special = [info.min, info.max, 0, 1, info.min + 1, info.max - 1, 65519, 65520, 2049,
                   2051, 255, 256, 2**24 + 1, 2**31 - 1, 2**53 + 1, -1, -129, -32769]
        special = [v for v in special if info.min <= v <= info.max]
        random = rng.integers(info.min, info.max, size=COUNT, dtype=dtype, endpoint=True)
        values = np.array(special + list(random[:COUNT - len(special)]), dtype=dtype)
        return values
    part = np.float32 if dtype in (np.complex64, np.float32) else (
        np.float16 if dtype == np.float16 else np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = np.array(FLOAT_VALUES, dtype=np.float64).astype(part)
        uint_type, patterns = BIT_PATTERNS[part]
        values = np.concatenate([values, np.array(patterns, dtype=uint_type).view(part)])
        random = (rng.standard_normal(COUNT) * 1000).astype(part)
    values = np.concatenate([values, random])[:COUNT].copy()
    if dtype.kind == "c":
        imag = rng.permutation(values)
        return _complex(values, imag, dtype)
    return values


def _complex(real, imag, dtype):
    """Builds complex values without arithmetic, so NaN payloads survive."""
    out = np.empty(len(real), dtype=dtype)
    out.real = real
    out.imag = imag
    return out


def garbage(dtype, rng):
    """What out holds before a plain or beta == 0 call: NaNs and random bits."""
    raw = rng.integers(0, 256, size=COUNT * np.dtype(dtype).itemsize, dtype=np.uint8)
    out = raw.view(dtype).copy()
    if np.dtype(dtype).kind in "fc":
        out[::3] = np.nan
    if np.dtype(dtype) == np.bool_:
        out = out.view(np.uint8) & 1
        out = out.astype(np.bool_)
    return out


def render_case(from_name, to_name, alpha, beta):
    seed = zlib.crc32(f"{from_name}->{to_name} {alpha!r} {beta!r}".encode())
    rng = np.random.default_rng(seed)
    source = source_values(TYPES[from_name], rng)
    if to_name in UNSIGNED_WIDE and source.dtype.kind in "fc":
        # NumPy's float -> uint32/uint64 results for values outside (-1, 2^n) differ between its
        # vector loop and its scalar tail (e.g. 2^32 + 5 gives 5 or 0 depending on the position),
        # so those inputs are not part of the contract: they are replaced by 0.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            real = source.real.astype(np.float64)
            source = source.copy()
            source[~((real > -1) & (real < UNSIGNED_WIDE[to_name]))] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        converted = source.astype(TYPES[to_name])
        if beta != 0:
            initial = (rng.standard_normal(COUNT) * 100).astype(TYPES[to_name])
            if np.dtype(TYPES[to_name]).kind == "c":
                initial = _complex(initial.real, (rng.standard_normal(COUNT) * 100), TYPES[to_name])
            expected = alpha * converted + beta * initial
        else:
            initial = garbage(TYPES[to_name], rng)
            expected = converted if alpha == 1 else alpha * converted
    assert expected.dtype == np.dtype(TYPES[to_name]), (from_name, to_name, expected.dtype)
    alpha, beta = complex(alpha), complex(beta)
    header = (f"from={from_name} to={to_name} count={COUNT} "
              f"alpha={alpha.real.hex()},{alpha.imag.hex()} beta={beta.real.hex()},{beta.imag.hex()}\n")
    return header.encode("ascii") + source.tobytes() + initial.tobytes() + expected.tobytes()


def cases():
    result = [(a, b, 1.0, 0.0) for a in TYPES for b in TYPES]
    scaled_sources = ["uint8", "int32", "float16", "float32", "float64", "complex64", "complex128"]
    for to in ["float16", "float32", "float64"]:
        for source in scaled_sources:
            result.append((source, to, 0.3, 0.0))
            result.append((source, to, -2.5, 0.7))
    for to in ["complex64", "complex128"]:
        for source in scaled_sources:
            result.append((source, to, 0.3 - 1.25j, 0.0))
            result.append((source, to, -2.5 + 0.5j, 0.7 + 0.1j))
            result.append((source, to, 1.5, -0.25))
    return result


def render():
    all_cases = cases()
    body = b"".join(render_case(*case) for case in all_cases)
    return f"gentt-convert-fixture v1 cases={len(all_cases)}\n".encode("ascii") + body


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file on disk differs")
    args = parser.parse_args()
    data = render()
    if args.check:
        if not args.out.is_file() or args.out.read_bytes() != data:
            print(f"{args.out}: out of date", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"wrote {len(data)} bytes to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
