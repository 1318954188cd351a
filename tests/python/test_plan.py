"""gentt.Plan: planned once, executed many times, and strict about what it is given."""
import numpy as np
import pytest

from conftest import assert_same_bytes, expected, gentt, random_array


def test_execute_many_times():
    rng = np.random.default_rng(11)
    plan = gentt.Plan((6, 7, 8), (2, 0, 1), np.float32)
    assert plan.shape == (6, 7, 8) and plan.axes == (2, 0, 1) and plan.out_shape == (8, 6, 7)
    assert plan.dtype == np.float32 and plan.out_dtype == np.float32
    assert plan.isa in ("avx512", "avx512skx", "avx2", "scalar") or plan.isa.startswith("registered:")
    assert "engine" in plan.describe()
    assert "gentt.Plan(shape=(6, 7, 8), axes=(2, 0, 1), dtype=float32" in repr(plan)
    out = np.empty((8, 6, 7), np.float32)
    for _ in range(5):
        a = random_array(rng, (6, 7, 8), np.float32)
        assert_same_bytes(plan.execute(a), expected(a, (2, 0, 1)))
        assert plan.execute(a, out) is out
        assert_same_bytes(out, expected(a, (2, 0, 1)))


def test_default_axes_and_negative_axes():
    a = np.arange(60, dtype=np.int16).reshape(3, 4, 5)
    assert_same_bytes(gentt.Plan(a.shape, None, a.dtype).execute(a), expected(a))
    assert_same_bytes(gentt.Plan(a.shape, (-1, 0, 1), a.dtype).execute(a), expected(a, (2, 0, 1)))


def test_strided_plan():
    rng = np.random.default_rng(12)
    base = random_array(rng, (8, 10, 12), np.complex64)
    a = base[::2, ::-1, 1::3]
    assert a.shape == (4, 10, 4)
    out_base = np.zeros((4, 2, 4, 10), np.complex64)
    out = out_base[:, 0, :, ::-1]           # shape (4, 4, 10): a permuted (2, 0, 1)
    plan = gentt.Plan(a.shape, (2, 0, 1), a.dtype, in_strides=a.strides, out_strides=out.strides, threads=2)
    plan.execute(a, out)
    assert_same_bytes(np.ascontiguousarray(out), expected(a, (2, 0, 1)))
    assert np.all(out_base[:, 1] == 0)
    # A strided plan checks strides: a contiguous array of the same shape is not what it was made for.
    with pytest.raises(ValueError, match="a: has strides .* but the plan is for strides"):
        plan.execute(np.ascontiguousarray(a), out)
    with pytest.raises(ValueError, match="out: the plan was made for out_strides"):
        plan.execute(a)


def test_split_items_plan():
    rec = np.zeros((5, 4), dtype=[("x", "<f8"), ("b", "u1")])
    rec["x"] = np.arange(20.0).reshape(5, 4)
    a = rec["x"]
    plan = gentt.Plan(a.shape, (1, 0), a.dtype, in_strides=a.strides)
    assert_same_bytes(plan.execute(a), expected(a))


@pytest.mark.parametrize("make, words", [
    (lambda: np.zeros((6, 7, 9), np.float32), r"a: has shape \(6, 7, 9\) but the plan is for shape \(6, 7, 8\)"),
    (lambda: np.zeros((6, 7, 8), np.int32), "a: has dtype int32 but the plan is for dtype float32"),
    (lambda: np.zeros((8, 7, 6), np.float32).T, r"a: has strides .* \(C-contiguous\)"),
])
def test_mismatched_input(make, words):
    plan = gentt.Plan((6, 7, 8), (2, 0, 1), np.float32)
    out = np.full((8, 6, 7), 3.0, np.float32)
    with pytest.raises(ValueError, match=words):
        plan.execute(make(), out)
    assert np.all(out == 3.0)


def test_mismatched_output():
    plan = gentt.Plan((6, 7, 8), (2, 0, 1), np.float32)
    a = np.zeros((6, 7, 8), np.float32)
    with pytest.raises(ValueError, match="out: has shape"):
        plan.execute(a, np.zeros((8, 7, 6), np.float32))
    with pytest.raises(ValueError, match="out: has dtype"):
        plan.execute(a, np.zeros((8, 6, 7), np.float64))
    with pytest.raises(ValueError, match="out: has strides"):
        plan.execute(a, np.zeros((7, 6, 8), np.float32).transpose(2, 1, 0))
    ro = np.zeros((8, 6, 7), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out: is read-only"):
        plan.execute(a, ro)
    with pytest.raises(TypeError, match="a: must be a NumPy array"):
        plan.execute(a.tolist())
    square = gentt.Plan((4, 4), (1, 0), np.float32)
    b = np.arange(16, dtype=np.float32).reshape(4, 4)
    with pytest.raises(ValueError, match="out: shares memory with a"):
        square.execute(b, b)
    assert np.array_equal(b, np.arange(16, dtype=np.float32).reshape(4, 4))


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(shape=(2, -1), axes=(1, 0), dtype="f4"), ValueError, r"shape\[1\]: extent must be >= 0"),
    (dict(shape=(2, 3), axes=(1, 1), dtype="f4"), ValueError, "axes: axis 1 appears twice"),
    (dict(shape=(2, 3), axes=(1, 0), dtype=object), TypeError, "dtype: dtype object"),
    (dict(shape=(2, 3), axes=(1, 0), dtype="f4", threads=-3), ValueError, "threads: "),
    (dict(shape=(2, 3), axes=(1, 0), dtype="f4", in_strides=(4,)), ValueError, "in_strides: has 1 entry but"),
    (dict(shape=(2, 3), axes=(1, 0), dtype="f4", out_strides=(4, 4)), ValueError, "out_strides"),
    (dict(shape=(2, 3), axes=(1, 0), dtype="?", out_dtype="f4"), TypeError, "a: conversion needs a numeric dtype"),
    (dict(shape="23", axes=(1, 0), dtype="f4"), TypeError, r"shape\[0\]: must be an integer"),
])
def test_bad_plan_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        gentt.Plan(**kwargs)


def test_empty_plan():
    plan = gentt.Plan((3, 0), (1, 0), np.float64)
    assert plan.isa == "none" and "nothing to move" in plan.describe()
    r = plan.execute(np.zeros((3, 0)))
    assert r.shape == (0, 3)


def test_plan_refuses_interleaved_views():
    # gentt.permute copies a when its byte range interleaves with out's; a plan is made for a's
    # strides and cannot, so it says so (nothing written).
    buf = np.arange(48, dtype=np.float32)
    a, out = buf[0::2].reshape(2, 3, 4), buf[1::2].reshape(4, 3, 2)
    before = buf.copy()
    plan = gentt.Plan(a.shape, (2, 1, 0), a.dtype, in_strides=a.strides, out_strides=out.strides)
    with pytest.raises(ValueError, match="out: lies within a's byte range"):
        plan.execute(a, out)
    assert np.array_equal(buf, before)
    ref = np.ascontiguousarray(a.transpose(2, 1, 0))
    gentt.permute(a, (2, 1, 0), out=out)
    assert np.array_equal(out, ref)
