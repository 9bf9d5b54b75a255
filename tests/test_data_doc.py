"""docs/data.md lists every column the writers write, as unosim.run.columns describes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from unosim.run.columns import ABOUT, KINDS, describe, kind_schema, markdown

DOC = Path(__file__).resolve().parents[1] / "docs" / "data.md"


def test_the_page_shows_the_generated_table() -> None:
    block = re.search(r"<!-- generated: data_columns -->\n(.*?)<!-- /generated -->", DOC.read_text(), re.S)
    assert block is not None, "docs/data.md has no data_columns block"
    assert block.group(1).strip() == markdown(), "docs/data.md is stale: python docs/generate.py data_columns"


@pytest.mark.parametrize("kind", KINDS)
def test_every_written_column_is_described(kind: str) -> None:
    for players in (2, 4, 7) if "tournament" not in kind else (4, 8):
        for f in kind_schema(kind, players):
            describe(f.name)  # KeyError names a column without an entry


def test_every_entry_is_a_written_column() -> None:
    used = {describe(f.name)[0] for kind in KINDS for f in kind_schema(kind, 4)}
    assert set(ABOUT) == used, sorted(set(ABOUT) ^ used)


def test_an_undescribed_column_is_refused() -> None:
    with pytest.raises(KeyError, match="not described"):
        describe("mystery_column")
