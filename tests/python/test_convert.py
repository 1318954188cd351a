"""Fused conversion (dtype=) and scaling (alpha, beta) through gentt.permute and gentt.Plan.

The runtime gains them separately; until it has them, plan_permute raises
ValueError("out_dtype: ... not built yet" / "alpha: ... not built yet") and these tests skip
with that message, so they run as soon as the runtime has the feature.
"""
import numpy as np
import pytest

from conftest import assert_same_bytes, expected, gentt, not_built, random_array

conversion_missing = not_built(lambda: gentt.permute(np.zeros((2, 3), np.float32), dtype=np.float64))
scaling_missing = not_built(lambda: gentt.permute(np.zeros((2, 3), np.float32), alpha=2.0))
needs_conversion = pytest.mark.skipif(conversion_missing is not None, reason=f"runtime: {conversion_missing}")
needs_scaling = pytest.mark.skipif(scaling_missing is not None, reason=f"runtime: {scaling_missing}")

# Conversions whose result astype defines exactly (no out-of-range float -> int casts).
EXACT_CONVERSIONS = [
    ("float32", "float64"), ("float64", "float32"), ("float32", "float16"), ("float16", "float32"),
    ("int32", "float64"), ("int16", "float32"), ("uint8", "float32"), ("int8", "int32"),
    ("uint16", "uint64"), ("complex64", "complex128"), ("complex128", "complex64"), ("float32", "complex64"),
]


def finite_values(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return random_array(rng, shape, dtype)
    values = rng.standard_normal(shape) * 100
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


@needs_conversion
@pytest.mark.parametrize("src, dst", EXACT_CONVERSIONS)
def test_conversion_matches_astype(src, dst):
    rng = np.random.default_rng(21)
    for shape, axes in [((5, 7, 3), (2, 0, 1)), ((64, 33), (1, 0)), ((2, 3, 4, 5), (3, 1, 0, 2))]:
        a = finite_values(rng, shape, src)
        assert_same_bytes(gentt.permute(a, axes, dtype=dst), expected(a, axes, dst))
        view = a[..., ::-1]
        out = np.empty(tuple(reversed(expected(view, axes, dst).shape)), dst).T
        gentt.permute(view, axes, out=out, dtype=dst)
        assert_same_bytes(np.ascontiguousarray(out), expected(view, axes, dst))


@needs_conversion
def test_conversion_plan():
    rng = np.random.default_rng(22)
    a = finite_values(rng, (6, 5, 4), "float64")
    plan = gentt.Plan(a.shape, (1, 2, 0), "float64", out_dtype="float32")
    assert plan.out_dtype == np.float32
    assert_same_bytes(plan.execute(a), expected(a, (1, 2, 0), "float32"))


@needs_scaling
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_scaling(dtype):
    rng = np.random.default_rng(23)
    a = finite_values(rng, (9, 8, 7), dtype)
    alpha = 2.5 - 1j if np.dtype(dtype).kind == "c" else -2.5
    beta = 0.5 + 0.25j if np.dtype(dtype).kind == "c" else 0.75
    out = finite_values(rng, (7, 9, 8), dtype)
    want = alpha * expected(a, (2, 0, 1)) + beta * out
    gentt.permute(a, (2, 0, 1), out=out, alpha=alpha, beta=beta)
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(out, want.astype(dtype), rtol=tol, atol=tol * 100)
    # beta 0 never reads out: NaNs there do not leak into the result.
    out[...] = np.nan
    gentt.permute(a, (2, 0, 1), out=out, alpha=alpha)
    np.testing.assert_allclose(out, (alpha * expected(a, (2, 0, 1))).astype(dtype), rtol=tol, atol=tol * 100)
