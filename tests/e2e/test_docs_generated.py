"""Every generated block of README.md and docs/*.md but the long ones (docs/generate.py)
matches a fresh run of its commands, speeds and timings aside: a change that moves a
figure the pages quote fails here.  The long blocks (tuning runs, the test suite's own
time) are checked by ``python docs/generate.py --check``; tests/unit/test_docs.py checks
without running anything that every figure sits in a block or quotes one."""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_scripts import generate


def _pages() -> list[Path]:
    gen = generate()
    return [p for p in gen.pages() if any(not b.long for b in gen.blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_the_page_matches_a_fresh_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as if from a narrow terminal with COLUMNS exported: the commands' output goes to
    the runner's buffer with COLUMNS unset, so their tables keep a pipe's width whatever
    terminal regenerates the pages."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr("os.get_terminal_size", lambda fd=1: __import__("os").terminal_size((80, 24)))
    gen = generate()
    short = {b.name for b in gen.blocks(page) if not b.long}
    fresh = gen.render(page, tmp_path, short)
    old = page.read_text()
    assert gen.masked(fresh) == gen.masked(old), f"run `python docs/generate.py {' '.join(sorted(short))}`"
