"""gentt.generate / gentt.explain: the generator pipeline from Python."""
import numpy as np
import pytest

from conftest import gentt


def test_generate_source():
    src = gentt.generate(shape=(64, 32, 32, 4), axes=(2, 1, 0, 3), dtype="float32", isa="avx512", name="k1")
    assert 'extern "C" void k1(const void* in, void* out)' in src
    assert "k1_part" in src
    assert "gentt-gen generate --shape 64,32,32,4 --perm 2,1,0,3 --dtype float32 --isa avx512" in src
    # Deterministic: the same problem gives the same text.
    assert src == gentt.generate(shape=(64, 32, 32, 4), axes=(2, 1, 0, 3), dtype="float32", isa="avx512", name="k1")


@pytest.mark.parametrize("isa", ["scalar", "avx2", "avx512", "avx512skx", "neon", "sve", "sunway"])
def test_every_backend(isa):
    src = gentt.generate(shape=(8, 16), axes=None, dtype=np.uint16, isa=isa)
    assert "gentt_uint16_s8x16_p1_0_" + isa in src


def test_dtype_forms():
    by_name = gentt.generate(shape=(4, 8), axes=(1, 0), dtype="bfloat16", isa="scalar", name="k")
    assert "bfloat16" in by_name
    rec = np.dtype([("a", "<f8"), ("b", "u1")])
    assert "bytes9" in gentt.generate(shape=(4, 8), axes=(1, 0), dtype=rec, isa="scalar")
    assert "float64" in gentt.generate(shape=(4, 8), axes=(1, 0), dtype="f8", isa="scalar")


def test_no_threads_and_vector_bits():
    src = gentt.generate(shape=(16, 16), axes=(1, 0), dtype="float32", isa="sve", vector_bits=256,
                         threads=False, name="s")
    assert "s_part" not in src and "--vector-bits 256" in src


def test_tune_znver4_chooses_ymm_blocks_for_spilling_byte_blocks():
    src = gentt.generate(shape=(1024, 1024), axes=(1, 0), dtype="uint8", isa="avx512", tune="znver4")
    assert "__m256i" in src and "--tune znver4" in src and "_znver4" in src
    src = gentt.generate(shape=(1024, 1024), axes=(1, 0), dtype="float32", isa="avx512", tune="znver4")
    assert "__m512i" in src
    text = gentt.explain(shape=(1024, 1024), axes=(1, 0), dtype="uint8", isa="avx512", tune="znver4")
    assert "width (tune znver4)" in text and "(256 bits)" in text
    with pytest.raises(ValueError, match="tune: tune znver4 applies to isa avx512 and avx512skx, not avx2"):
        gentt.generate(shape=(4, 4), axes=(1, 0), dtype="uint8", isa="avx2", tune="znver4")
    with pytest.raises(ValueError, match="tune: tune znver4 chooses the vector width itself"):
        gentt.generate(shape=(4, 4), axes=(1, 0), dtype="uint8", isa="avx512", vector_bits=256, tune="znver4")
    with pytest.raises(ValueError, match='tune: unknown tune "zen4"'):
        gentt.generate(shape=(4, 4), axes=(1, 0), dtype="uint8", isa="avx512", tune="zen4")


def test_explain():
    text = gentt.explain(shape=(64, 32), axes=(1, 0), dtype="float32", isa="avx512")
    assert "canonical" in text and "block" in text


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(isa="mmx"), ValueError, "isa: "),
    (dict(axes=(0, 0)), ValueError, "axes: axis 0 appears twice"),
    (dict(axes=(0, 2)), ValueError, r"axes\[1\]: axis 2 is out of range"),
    (dict(shape=(4, 0)), ValueError, r"shape\[1\]: extent must be >= 1"),
    (dict(dtype="float33"), ValueError, "dtype: "),
    (dict(dtype=object), TypeError, "dtype: dtype object"),
    (dict(name="3bad"), ValueError, "name: "),
    (dict(name="int"), ValueError, "keyword"),
    (dict(isa="sve", vector_bits=100), ValueError, "vector_bits: "),
    (dict(isa=7), TypeError, "isa: must be a string"),
])
def test_bad_arguments(kwargs, error, words):
    args = dict(shape=(4, 8), axes=(1, 0), dtype="float32", isa="scalar")
    args.update(kwargs)
    with pytest.raises(error, match=words):
        gentt.generate(**args)
