"""A unit test compiles nothing: one that makes numba compile, or load compiled code from its
cache, fails, naming the functions; in a child process too (``no_compile/sitecustomize.py``).

``pytest -m unit`` then needs no compiled engine and no compile cache.  A test that runs
the engine belongs to the kind that does (``tests/e2e/``, ``tests/scenario/`` ...).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiles import compiled

_CHILDREN = Path(__file__).resolve().parent / "no_compile"


@pytest.fixture(scope="session")
def _children_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("unit") / "child_compiles.txt"
    log.touch()
    return log


@pytest.fixture(autouse=True)
def _compiles_nothing(_children_log: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(_CHILDREN), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("UNOSIM_UNIT_COMPILES", str(_children_log))
    seen = _children_log.stat().st_size
    with compiled(loads=True) as names:
        yield
    with _children_log.open(encoding="utf-8") as log:
        log.seek(seen)
        names += [f"{n} (in a child process)" for n in log.read().splitlines()]
    if names:
        pytest.fail(f"a unit test compiled {'; '.join(names)}: move it to the kind that runs the engine")
