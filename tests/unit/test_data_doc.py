"""docs/data.md lists every column the writers write, as unosim.run.columns describes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from unosim.run.columns import ABOUT, KINDS, describe, kind_schema, markdown
from unosim.studies.skill_columns import SKILL_ABOUT, describe_skill, skill_markdown, skill_schema

DOC = Path(__file__).resolve().parents[2] / "docs" / "data.md"


def test_the_page_shows_the_generated_table() -> None:
    block = re.search(r"<!-- generated: data_columns -->\n(.*?)<!-- /generated -->", DOC.read_text(), re.S)
    assert block is not None, "docs/data.md has no data_columns block"
    assert block.group(1).strip() == markdown(), "docs/data.md is stale: python docs/generate.py data_columns"


def test_the_page_shows_the_skill_table() -> None:
    block = re.search(r"<!-- generated: skill_columns -->\n(.*?)<!-- /generated -->", DOC.read_text(), re.S)
    assert block is not None, "docs/data.md has no skill_columns block"
    assert block.group(1).strip() == skill_markdown(), "docs/data.md is stale: python docs/generate.py skill_columns"


def test_every_skill_column_is_described_and_every_entry_written() -> None:
    plain, full = skill_schema(ceiling=False).names, skill_schema().names
    assert set(plain) < set(full) and full[:len(plain)] == plain  # --ceiling adds columns after the others
    assert {describe_skill(c)[0] for c in full} == set(SKILL_ABOUT)
    with pytest.raises(KeyError, match="not described"):
        describe_skill("ceiling_mystery")


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
