"""docs/worked_example.md shows real output (O1 rows, S1/S2 matches): a fresh run of its
commands prints exactly what it shows, speeds aside."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _generator():
    spec = importlib.util.spec_from_file_location("worked_example", DOCS / "worked_example.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_the_worked_example_matches_a_fresh_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # from a narrow terminal, COLUMNS exported: the commands write to a buffer, at a pipe's width
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr("os.get_terminal_size", lambda fd=1: __import__("os").terminal_size((80, 24)))
    gen = _generator()
    doc = gen.DOC.read_text()
    fresh = gen.render(doc, tmp_path)
    assert gen.masked(fresh) == gen.masked(doc), "run `python docs/worked_example.py` and read the prose again"
    assert (tmp_path / "plots" / "example" / "turns.png").stat().st_size > 10_000


def test_the_example_and_the_quick_start_write_different_results() -> None:
    readme = (DOCS.parent / "README.md").read_text()
    doc = (DOCS / "worked_example.md").read_text()
    quick = readme.split("--out ", 1)[1].split()[0]
    assert quick not in doc
