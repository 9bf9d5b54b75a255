"""Golden rows (O1 output, every R/H rule through the bundled configs, S1-S3 match play,
B0 and every strategy): the engine writes exactly the rows kept in tests/golden/.

A failure here means output changed.  If the change is meant, bump ``ENGINE_VERSION`` in
unosim/kernel/layout.py and run ``python tests/golden_rows.py`` in the same commit, and
say in the commit message why the rows changed."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from golden_rows import VERSION_FILE, Case, cases, produce

from unosim.kernel.layout import ENGINE_VERSION

HOW = "bump ENGINE_VERSION and run `python tests/golden_rows.py` in the same commit, saying why"


def test_engine_version_matches_the_golden_rows() -> None:
    kept = int(VERSION_FILE.read_text())
    assert kept == ENGINE_VERSION, (f"ENGINE_VERSION is {ENGINE_VERSION} but the golden rows were made by "
                                    f"version {kept}: run `python tests/golden_rows.py`")


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_rows_are_the_golden_rows(case: Case, tmp_path: Path) -> None:
    want = case.file.read_text()
    got = produce(case, tmp_path)
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                 "golden", "now", n=0))[:12])
        pytest.fail(f"{case.name}: output differs from tests/golden/{case.file.name} "
                    f"(engine version {ENGINE_VERSION}); if meant, {HOW}\n{diff}")
