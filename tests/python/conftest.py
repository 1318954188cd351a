"""Shared helpers of the gentt Python tests: random arrays, the NumPy model, byte comparison.

The module is imported from PYTHONPATH (CTest sets it to the build's python/ folder); run by hand:
    PYTHONPATH=build/python /usr/bin/python3 -m pytest -q tests/python
"""
import numpy as np
import pytest

gentt = pytest.importorskip("gentt", reason="the gentt module is not on PYTHONPATH (build/python)")

# Every NumPy dtype family the module must move: gentt's named types, bool, float16, complex,
# and opaque ones (void of odd sizes, strings, a packed record, datetime, long double).
DTYPES = [np.dtype(t) for t in (
    "bool", "int8", "uint8", "int16", "uint16", "float16", "int32", "uint32", "float32", "int64",
    "uint64", "float64", "complex64", "complex128", "V3", "V12", "S5", "U3", "M8[ns]", "longdouble",
)] + [np.dtype([("a", "<f8"), ("b", "u1")]), np.dtype(">i4"), np.dtype("V5000")]


def random_array(rng, shape, dtype):
    """An array of random bit patterns (NaN payloads, odd bools and all)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    raw = rng.integers(0, 256, size=count * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape) if dtype.itemsize else np.zeros(shape, dtype)


def expected(a, axes=None, dtype=None):
    """The contract: np.ascontiguousarray(np.transpose(a, axes)).astype(dtype), except that a 0-d
    array stays 0-d (np.ascontiguousarray would make it shape (1,); docs/python.md)."""
    r = np.transpose(a, axes).copy(order="C")
    return r if dtype is None else r.astype(dtype)


def assert_same_bytes(actual, wanted):
    """Bit-for-bit equality (works for every dtype, NaN payloads and padding included)."""
    assert actual.shape == wanted.shape
    assert actual.dtype == wanted.dtype
    assert actual.tobytes() == wanted.tobytes()


def not_built(feature_call):
    """The reason to skip when the runtime says a feature is not built yet, else None."""
    try:
        feature_call()
    except ValueError as e:
        if "not built yet" in str(e):
            return str(e)
        raise
    return None
