"""Shared fixtures for the engine's test suite.

The invariant harness itself lives in ``tests/harness.py`` (a plain module, importable
as ``harness`` from any test) so that tests of house rules can run it on their configs.
Fixtures here build small runs once per session: compiling the kernel and writing a few
hundred hands is the slow part, and several CLI/report tests read the same files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from unosim.config import RulesConfig, default_config


@pytest.fixture(scope="session")
def standard() -> RulesConfig:
    """The official rules (every key at its default)."""
    return default_config()


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """600 hands of the official rules, seed 1, in three chunks: a result directory."""
    from unosim.runner import run_hands

    out = tmp_path_factory.mktemp("runs") / "standard.parquet"
    run_hands(default_config(), 600, 1, out, workers=1, chunk_size=200)
    return out
