"""How the engine is compiled (unosim/kernel/jit.py), without compiling: under
``NUMBA_DISABLE_JIT=1`` it stays plain Python; plain numba (``UNOSIM_PLAIN_NUMBA=1``, or
numba's internals moved) is chosen as documented.  That a batch kernel's loop body calls its
own copies of the engine functions compiles a kernel: tests/e2e/test_kernel_body.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from unosim.kernel.jit import PLAIN_ENV

ROOT = Path(__file__).resolve().parent.parent

@pytest.mark.slow
def test_the_engine_runs_uncompiled_under_numba_disable_jit() -> None:
    """NUMBA_DISABLE_JIT=1 leaves every engine function plain Python (a debugger steps
    through it) and a rule's scenarios pass as compiled (docs/adding_a_rule.md)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    probe = ("from unosim.engine import hand, batch; from unosim.kernel import borrow;"
             "assert not hasattr(hand.play_hand, 'py_func') and not hasattr(batch.play_hands, 'py_func');"
             "import numpy as np; a = np.zeros((2, 3), np.int64); assert borrow.address(a).shape == (6,)")
    subprocess.run([sys.executable, "-c", probe], env=env, cwd=root, check=True, timeout=120)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/scenario/test_house_rules.py",
                           "-k", "h6"], env=env, cwd=root, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert re.search(r"\b(1[0-9]|[2-9][0-9]) passed", proc.stdout), proc.stdout[-500:]
    trace = subprocess.run([sys.executable, "-m", "unosim.cli", "trace", "standard", "--seed", "7", "--hand", "3"],
                           env=env, cwd=root, capture_output=True, text=True, timeout=300)
    assert trace.stdout == (root / "tests" / "golden" / "trace_standard.txt").read_text()  # the compiled engine's


def _plain_env(**more: str) -> dict[str, str]:
    return {**os.environ, PLAIN_ENV: "1", **more}


@pytest.mark.slow  # a fresh interpreter imports the engine
def test_numba_internals_that_moved_mean_plain_numba_and_one_warning_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A numba whose private API changed does not stop unosim: it compiles with plain
    ``@njit(cache=True)`` after one warning line (here numba's ``_CacheLocator`` is gone);
    ``UNOSIM_PLAIN_NUMBA=1`` chooses the same path without a word, and only ``0`` or an
    empty value leave the switch off."""
    probe = ("import numba.core.caching as c; del c._CacheLocator\n"
             "from unosim.engine.batch import play_hands\n"
             "from unosim.kernel import jit, cache\n"
             "assert jit.PLAIN and type(play_hands).__module__.startswith('numba.')\n"
             "assert play_hands._cache._cache_path.startswith(cache.cache_folder() + '/plain/')\n")
    env = {k: v for k, v in os.environ.items() if k != PLAIN_ENV}
    r = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "PlainNumbaWarning" in lines[0] and "plain @njit(cache=True)" in lines[0], r.stderr
    assert "_CacheLocator" in lines[0]
    from unosim.kernel import jit as J

    for value, plain in (("1", True), ("yes", True), ("0", False), ("", False)):
        monkeypatch.setenv(PLAIN_ENV, value)
        assert (J._internals() is None) == plain, value
