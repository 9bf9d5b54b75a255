"""Golden rows (O1 output, every R/H rule through the bundled configs, S1-S3 match play,
B0 and every strategy): the engine writes exactly the rows kept in tests/golden/.

A failure here means output changed.  If the change is meant, bump ``ENGINE_VERSION`` in
unosim/kernel/layout.py and run ``python tests/golden_rows.py`` in the same commit, and
say in the commit message why the rows changed.  Rows are compared column by column: a new
column alone (a new rule's counter) is added with ``python tests/golden_rows.py
--add-columns``, which leaves every kept column as it is."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from golden_rows import VERSION_FILE, Case, cases, compare, produce

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
    if case.trace:
        if got != want:
            diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                     "golden", "now", n=0))[:12])
            pytest.fail(f"{case.name}: output differs from tests/golden/{case.file.name} "
                        f"(engine version {ENGINE_VERSION}); if meant, {HOW}\n{diff}")
        return
    problems, new = compare(want, got)
    if problems:
        pytest.fail(f"{case.name}: output differs from tests/golden/{case.file.name} (engine version "
                    f"{ENGINE_VERSION}); if meant, {HOW}\n" + "\n".join(problems[:12]))
    if new:
        pytest.fail(f"{case.name}: new column(s) {', '.join(new)}, not in tests/golden/{case.file.name}; if "
                    f"meant, bump ENGINE_VERSION and run `python tests/golden_rows.py --add-columns`")
    assert got == want  # every column equal, in order: the whole text is too


def test_a_new_column_is_only_a_new_column() -> None:
    """The column-by-column comparison: a new column is reported as new, the kept ones
    still compared cell by cell."""
    want = "hand,turns\n0,5\n1,7\n"
    assert compare(want, want) == ([], [])
    assert compare(want, "hand,turns,misplays\n0,5,0\n1,7,2\n") == ([], ["misplays"])
    problems, new = compare(want, "hand,turns,misplays\n0,5,0\n1,8,2\n")
    assert new == ["misplays"] and problems == ["column 'turns': 1 rows differ, first row 1: golden 7, now 8"]
    assert compare(want, "turns,hand\n5,0\n7,1\n")[0][0].startswith("columns moved")
    assert compare(want, "hand\n0\n1\n")[0] == ["column 'turns' is gone"]
