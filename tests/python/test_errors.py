"""Every bad argument of gentt.permute: the right exception, naming the argument, and nothing
written to out."""
import numpy as np
import pytest

from conftest import gentt

SENTINEL = -7.25


def fresh():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    out = np.full((4, 3, 2), SENTINEL)
    return a, out


def assert_untouched(out):
    assert np.all(out == SENTINEL)


@pytest.mark.parametrize("axes, error, words", [
    ((0, 0, 1), ValueError, "axes: axis 0 appears twice"),
    ((2, 1, -1), ValueError, "axes: axis 2 appears twice"),
    ((0, 1, 3), ValueError, "axes[2]: axis 3 is out of range"),
    ((0, -4, 1), ValueError, "axes[1]: axis -4 is out of range"),
    ((1, 0), ValueError, "axes: has 2 entries but the array has 3 axes"),
    ((2, 1, 0, 3), ValueError, "axes: has 4 entries"),
    ((2.0, 1, 0), TypeError, "axes[0]: must be an integer"),
    (("a", 1, 0), TypeError, "axes[0]: must be an integer"),
    (3, TypeError, "axes: must be a sequence"),
])
def test_bad_axes(axes, error, words):
    a, out = fresh()
    with pytest.raises(error) as e:
        gentt.permute(a, axes, out=out)
    assert words in str(e.value)
    assert_untouched(out)


def test_bad_out_shape():
    a, _ = fresh()
    out = np.full((4, 2, 3), SENTINEL)
    with pytest.raises(ValueError, match=r"out: has shape \(4, 2, 3\) but the result has shape \(4, 3, 2\)"):
        gentt.permute(a, out=out)
    assert_untouched(out)


def test_bad_out_dtype():
    a, _ = fresh()
    out = np.full((4, 3, 2), SENTINEL, dtype=np.float32)
    with pytest.raises(ValueError, match="out: has dtype float32 but the result has dtype float64"):
        gentt.permute(a, out=out)
    assert_untouched(out)


def test_out_read_only():
    a, out = fresh()
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out: is read-only"):
        gentt.permute(a, out=out)
    assert_untouched(out)


def test_out_not_an_array():
    a, _ = fresh()
    with pytest.raises(TypeError, match="out: must be a NumPy array"):
        gentt.permute(a, out=[[0.0] * 2] * 12)


def test_out_overlapping_input():
    a = np.arange(16.0).reshape(4, 4)
    before = a.copy()
    with pytest.raises(ValueError, match="out: shares memory with a"):
        gentt.permute(a, out=a)
    with pytest.raises(ValueError, match="out: shares memory with a"):
        gentt.permute(a, out=a.T)
    buf = np.arange(40.0)
    with pytest.raises(ValueError, match="out: shares memory with a"):
        gentt.permute(buf[:20].reshape(4, 5), out=buf[10:30].reshape(5, 4))
    assert np.array_equal(a, before)
    assert np.array_equal(buf, np.arange(40.0))


def test_out_whose_strides_overlap_itself():
    # A writeable view in which two elements share an address cannot receive a permutation.
    a = np.arange(6.0).reshape(2, 3)
    base = np.full(4, SENTINEL)
    out = np.lib.stride_tricks.as_strided(base, shape=(3, 2), strides=(8, 8), writeable=True)
    with pytest.raises(ValueError, match=r"out: its strides \(8, 8\) may let two output elements share an address"):
        gentt.permute(a, out=out)
    assert np.all(base == SENTINEL)


def test_object_arrays_rejected():
    a = np.array([[1, "x"], [None, 2.0]], dtype=object)
    with pytest.raises(TypeError, match="a: array of dtype object holds Python objects"):
        gentt.permute(a)
    rec = np.zeros(3, dtype=[("o", object), ("f", "f8")])
    with pytest.raises(TypeError, match="Python objects"):
        gentt.permute(rec)
    with pytest.raises(TypeError, match="dtype: dtype object holds Python objects"):
        gentt.permute(np.zeros(3), dtype=object)


def test_bad_dtype_argument():
    a, out = fresh()
    with pytest.raises(TypeError, match="dtype: .* is not a NumPy dtype"):
        gentt.permute(a, dtype="not-a-dtype")


def test_conversion_of_opaque_types_rejected():
    a, _ = fresh()
    with pytest.raises(TypeError, match="a: conversion needs a numeric dtype"):
        gentt.permute(a.astype(bool), dtype=np.float32)
    with pytest.raises(TypeError, match="dtype: conversion needs a numeric dtype"):
        gentt.permute(a, dtype="V8")
    with pytest.raises(TypeError, match="scaling"):
        gentt.permute(a.astype(">f8"), alpha=2.0)


@pytest.mark.parametrize("threads, error, words", [
    (-1, ValueError, "threads: "),
    (5000, ValueError, "threads: "),
    (2 ** 40, ValueError, "threads: "),
    ("2", TypeError, "threads: must be an integer"),
    (1.5, TypeError, "threads: must be an integer"),
])
def test_bad_threads(threads, error, words):
    a, out = fresh()
    with pytest.raises(error, match=words):
        gentt.permute(a, out=out, threads=threads)
    assert_untouched(out)


def test_bad_threads_checked_for_empty_arrays_too():
    with pytest.raises(ValueError, match="threads: "):
        gentt.permute(np.zeros((0, 3)), threads=-2)
    with pytest.raises(ValueError, match="axes: axis 0 appears twice"):
        gentt.permute(np.zeros((0, 3)), (0, 0))


def test_bad_alpha_beta():
    a, out = fresh()
    with pytest.raises(TypeError, match="alpha: must be a real or complex number"):
        gentt.permute(a, out=out, alpha="2")
    with pytest.raises(TypeError, match="beta: must be a real or complex number"):
        gentt.permute(a, out=out, beta=None)
    with pytest.raises(ValueError, match="beta: is not 0, so the result reads out"):
        gentt.permute(a, beta=1.0)
    assert_untouched(out)


def test_messages_are_value_errors_from_the_runtime():
    # gentt::Error keeps its message; it is a ValueError, not a RuntimeError.
    a, out = fresh()
    with pytest.raises(ValueError) as e:
        gentt.permute(a, out=out, threads=-1)
    assert type(e.value) is ValueError


def test_alpha_too_large_for_a_double():
    with pytest.raises(ValueError, match="alpha: int is too large to convert to a double"):
        gentt.permute(np.ones((2, 3)), (1, 0), alpha=10**400)
