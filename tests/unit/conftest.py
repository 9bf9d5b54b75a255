"""A unit test compiles nothing: one that makes numba compile, or load compiled code from its
cache, fails, naming the functions.

``pytest -m unit`` then needs no compiled engine and no compile cache.  A test that runs
the engine belongs to the kind that does (``tests/e2e/``, ``tests/scenario/`` ...).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from compiles import compiled


@pytest.fixture(autouse=True)
def _compiles_nothing() -> Iterator[None]:
    with compiled(loads=True) as names:
        yield
    if names:
        pytest.fail(f"a unit test compiled {'; '.join(names)}: move it to the kind that runs the engine")
