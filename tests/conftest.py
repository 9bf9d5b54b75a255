"""Shared set-up for the test suite.

The invariant harness lives in ``tests/harness.py``, a plain module, so that any test
(house rules included) can run it on its own config with ``from harness import
check_config``.  pytest's default import mode puts this directory on ``sys.path``; the
line below does it too, so the import also works under ``--import-mode=importlib``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from unosim.rules.config import RulesConfig, default_config

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels() -> None:
    """Compile (or load) every kernel once, first: the suite touches them all anyway, and a
    command's output then never depends on which test happened to compile a kernel (a cold
    compile adds a notice on stderr)."""
    from unosim.run.warmup import warmup

    warmup(quiet=True)


@pytest.fixture(scope="session")
def standard() -> RulesConfig:
    """The official rules (every key at its default)."""
    return default_config()


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Say how many faults the fault-injection suite injected, when it ran."""
    faults = sys.modules.get("test_faults")
    counts = getattr(faults, "INJECTIONS", None)
    if counts:
        terminalreporter.write_line(f"fault injection: {sum(counts.values())} injections ("  # type: ignore[attr-defined]
                                    + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")")
