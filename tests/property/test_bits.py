"""kernel/bits.py: the compiled lowest_bit agrees with its Python fallback (the one
``NUMBA_DISABLE_JIT=1`` uses) on every non-zero int64, sign bit included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs
from numba import njit

from unosim.kernel import bits


@njit
def _compiled(x):
    return bits._lowest_bit(x)


@settings(deadline=None)  # the first example compiles _compiled
@given(hs.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1).filter(lambda x: x != 0))
def test_lowest_bit_is_the_index_of_the_lowest_set_bit(x: int) -> None:
    expected = next(i for i in range(64) if (x >> i) & 1)
    assert bits._lowest_bit_py(np.int64(x)) == expected
    assert _compiled(np.int64(x)) == expected
