"""Compiling the engine: a cold kernel is detected and announced at once; a warm one is not."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

import pytest

from unosim.run import warmup as W


def test_cache_detection_on_a_fresh_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A never-compiled function reads as cold, and as cached once called."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tiny_kernel.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("tiny_kernel")
    try:
        assert not W._cached(mod.plus_one)
        assert mod.plus_one(1) == 2
        assert W._cached(mod.plus_one)
    finally:
        sys.modules.pop("tiny_kernel", None)


def test_warm_kernels_say_nothing() -> None:
    W.warmup(("hands",))
    assert W.cold_kernels(("hands",)) == []
    out = io.StringIO()
    with W.compile_notice(("hands",), stream=out):
        W.warm("hands")
    assert out.getvalue() == ""


def test_a_cold_kernel_is_announced_at_once_even_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(W, "cold_kernels", lambda names: list(names))
    out = io.StringIO()
    with W.compile_notice(("hands", "matches"), quiet=True, stream=out):
        assert "compiling the engine (hands, matches; first run only" in out.getvalue()
    assert out.getvalue().splitlines()[-1].startswith("unosim: engine compiled in ")


def test_unosim_warmup_compiles_every_kernel() -> None:
    from click.testing import CliRunner

    from unosim.cli import main

    r = CliRunner().invoke(main, ["warmup"])
    assert r.exit_code == 0, r.output
    assert all(f"  {k}: ready in" in r.stdout for k in W.KERNELS)
    assert W.cold_kernels() == []
