"""gentt.permute against NumPy: random shapes, dtypes, views and outputs (fixed seeds)."""
import numpy as np
import pytest

from conftest import DTYPES, assert_same_bytes, expected, gentt, random_array


def random_shape(rng, rank, max_elements=4096):
    shape = list(rng.integers(1, 6, size=rank))
    # An odd extent now and then; never more than max_elements in all.
    for a in range(rank):
        if rng.random() < 0.15:
            shape[a] = int(rng.integers(6, 40))
    while np.prod(shape, dtype=np.int64) > max_elements:
        shape[int(np.argmax(shape))] //= 2
    return tuple(int(max(1, e)) for e in shape)


def random_view(rng, shape, dtype):
    """A view of `shape` with random steps (negative too) into a larger random array."""
    steps = [int(rng.choice([1, 1, 2, 3, -1, -2])) for _ in shape]
    base_shape = tuple(e * abs(s) + int(rng.integers(0, 2)) for e, s in zip(shape, steps))
    base = random_array(rng, base_shape, dtype)
    index = tuple(slice(None, None, s) for s in steps)
    view = base[index]
    return view[tuple(slice(0, e) for e in shape)]


def random_out(rng, shape, dtype):
    """None, a C-contiguous array, a strided view, or a transposed (F-like) layout."""
    kind = rng.integers(0, 4)
    if kind == 0:
        return None
    if kind == 1:
        return np.empty(shape, dtype)
    if kind == 2:
        return random_view(rng, shape, dtype)
    order = rng.permutation(len(shape))
    inverse = np.argsort(order)
    return np.empty(tuple(shape[i] for i in order), dtype).transpose(inverse)


def out_shape(shape, axes):
    return tuple(shape[i] for i in axes)


@pytest.mark.parametrize("seed", range(8))
def test_random_contiguous(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(400):
        rank = int(rng.integers(0, 9))
        shape = random_shape(rng, rank)
        dtype = DTYPES[int(rng.integers(0, len(DTYPES) - 1))]  # V5000 has its own test
        a = random_array(rng, shape, dtype)
        axes = None if rng.random() < 0.2 else tuple(int(x) for x in rng.permutation(rank))
        threads = [None, 1, 2, 0][int(rng.integers(0, 4))]
        assert_same_bytes(gentt.permute(a, axes, threads=threads), expected(a, axes))


@pytest.mark.parametrize("seed", range(8))
def test_random_views_and_outputs(seed):
    rng = np.random.default_rng(2000 + seed)
    for _ in range(400):
        rank = int(rng.integers(1, 9))
        shape = random_shape(rng, rank, max_elements=2048)
        dtype = DTYPES[int(rng.integers(0, len(DTYPES) - 1))]
        a = random_view(rng, shape, dtype)
        axes = tuple(int(x) for x in rng.permutation(rank))
        if rng.random() < 0.3:  # negative axes are NumPy's too
            axes = tuple(x - rank if rng.random() < 0.5 else x for x in axes)
        out = random_out(rng, out_shape(shape, [x % rank for x in axes]), dtype)
        threads = [None, 1, 2, 0][int(rng.integers(0, 4))]
        result = gentt.permute(a, axes, out=out, threads=threads)
        if out is not None:
            assert result is out
        assert_same_bytes(np.ascontiguousarray(result), expected(a, axes))


def test_every_dtype_every_rank():
    rng = np.random.default_rng(3)
    for dtype in DTYPES:
        for rank in range(0, 9):
            shape = random_shape(rng, rank, max_elements=64 if dtype.itemsize > 100 else 512)
            a = random_array(rng, shape, dtype)
            axes = tuple(int(x) for x in rng.permutation(rank))
            assert_same_bytes(gentt.permute(a, axes), expected(a, axes))


def test_bit_patterns_kept():
    # NaN payloads, -0.0, signalling NaNs and bool bytes other than 0/1 come out unchanged.
    bits = np.array([0x7FC00001, 0x80000000, 0x7F800001, 0xFFFFFFFF, 0, 1], dtype=np.uint32)
    a = np.tile(bits, 4).view(np.float32).reshape(4, 6)
    assert_same_bytes(gentt.permute(a), expected(a))
    b = np.arange(12, dtype=np.uint8).view(np.bool_).reshape(3, 4)
    assert_same_bytes(gentt.permute(b), expected(b))


def test_zero_strides_broadcast_input():
    a = np.broadcast_to(np.arange(5, dtype=np.int16), (3, 4, 5))
    assert a.strides[0] == 0
    assert_same_bytes(gentt.permute(a, (2, 0, 1)), expected(a, (2, 0, 1)))


def test_strides_not_multiple_of_itemsize():
    # A float64 field of a packed 9-byte record: strides 9, item size 8.
    rec = np.zeros((6, 5), dtype=[("x", "<f8"), ("b", "u1")])
    rec["x"] = np.arange(30).reshape(6, 5) * 1.5
    a = rec["x"]
    assert a.strides == (45, 9)
    assert_same_bytes(gentt.permute(a), expected(a))
    out = np.zeros((5, 6), dtype=[("x", "<f8"), ("b", "u1")])["x"]
    gentt.permute(a, out=out)
    assert_same_bytes(np.ascontiguousarray(out), expected(a))


def test_unaligned_input():
    raw = np.zeros(4 * 24 + 1, dtype=np.uint8)
    a = np.ndarray((4, 6), dtype=np.float32, buffer=raw, offset=1)
    a[...] = np.arange(24).reshape(4, 6)
    assert not a.flags.aligned
    assert_same_bytes(gentt.permute(a), expected(a))


def test_item_larger_than_4096_bytes():
    rng = np.random.default_rng(5)
    a = random_array(rng, (3, 2, 2), "V5000")
    assert_same_bytes(gentt.permute(a, (1, 2, 0)), expected(a, (1, 2, 0)))


@pytest.mark.parametrize("shape", [(0,), (3, 0, 2), (0, 0)])
def test_empty_arrays(shape):
    a = np.zeros(shape, np.float32)
    axes = tuple(reversed(range(len(shape))))
    r = gentt.permute(a, axes)
    assert_same_bytes(r, expected(a, axes))


def test_rank_zero_and_one():
    s = np.array(3.5)
    assert_same_bytes(gentt.permute(s), expected(s))
    assert_same_bytes(gentt.permute(s, ()), expected(s, ()))
    v = np.arange(7, dtype=np.int64)
    assert_same_bytes(gentt.permute(v, (-1,)), expected(v, (-1,)))


def test_array_likes_and_readonly_input():
    assert_same_bytes(gentt.permute([[1, 2, 3], [4, 5, 6]]), expected(np.array([[1, 2, 3], [4, 5, 6]])))
    a = np.arange(12.0).reshape(3, 4)
    a.flags.writeable = False
    assert_same_bytes(gentt.permute(a), expected(a))


@pytest.mark.parametrize("threads", [None, 1, 2, 0])
def test_large_with_threads(threads):
    # Larger than 64 KiB per part, so threads=2 and 0 really split the work.
    rng = np.random.default_rng(7)
    a = random_array(rng, (96, 64, 40), np.float32)
    for axes in [(2, 1, 0), (1, 2, 0), (0, 2, 1)]:
        assert_same_bytes(gentt.permute(a, axes, threads=threads), expected(a, axes))
    out = np.empty((64 * 2, 96, 40), np.float32)[::2]
    gentt.permute(a, (1, 0, 2), out=out, threads=threads)
    assert_same_bytes(np.ascontiguousarray(out), expected(a, (1, 0, 2)))


def test_interleaved_views_of_one_buffer():
    # a and out share a range but no element: allowed (the module moves a copy of a).
    buf = np.arange(2 * 4 * 6, dtype=np.int32)
    a = buf[0::2].reshape(4, 6)
    out = buf[1::2].reshape(6, 4)
    want = expected(a)
    assert not np.shares_memory(a, out)
    gentt.permute(a, out=out)
    assert_same_bytes(np.ascontiguousarray(out), want)


def test_gil_released_threads_run_concurrently():
    import threading
    rng = np.random.default_rng(9)
    a = random_array(rng, (64, 128, 16), np.float32)
    want = expected(a, (2, 0, 1))
    results = [None] * 4

    def work(i):
        results[i] = gentt.permute(a, (2, 0, 1))

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for r in results:
        assert_same_bytes(r, want)


def test_version():
    assert isinstance(gentt.__version__, str) and gentt.__version__.count(".") == 2


def test_large_results_start_on_a_cache_line():
    # From 4 MiB on, results are allocated on a 64-byte line (streaming stores need it); they
    # are ordinary C-contiguous, writeable arrays equal to NumPy's.
    a = np.arange(1100 * 1000, dtype=np.float32).reshape(1100, 1000)
    for out in (gentt.permute(a, (1, 0)), gentt.Plan(a.shape, (1, 0), a.dtype).execute(a)):
        assert out.ctypes.data % 64 == 0
        assert out.flags["C_CONTIGUOUS"] and out.flags["WRITEABLE"]
        assert out.shape == (1000, 1100) and out.dtype == a.dtype
        np.testing.assert_array_equal(out, a.T)
