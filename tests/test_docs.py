"""The README's config table is generated from the key registry (C1): keep them equal."""

from pathlib import Path

from unosim.rules.config import rules_markdown

README = Path(__file__).resolve().parent.parent / "README.md"


def test_c1_readme_rules_table_matches_the_registry():
    text = README.read_text()
    table = text.split("<!-- rules-table:start -->\n")[1].split("<!-- rules-table:end -->")[0]
    assert table.strip() == rules_markdown().strip(), "regenerate with: unosim rules --format markdown"


def test_o1_every_counter_column_is_in_the_readme_output_section():
    """A new counter (unosim.kernel.layout.COUNTERS) is a new output column: the README says
    what it counts."""
    from unosim.kernel.layout import COUNTERS

    text = README.read_text()
    output = text.split("## Output")[1].split("\n## ")[0]
    missing = [c.column for c in COUNTERS if f"`{c.column}`" not in output]
    assert not missing, f"README's Output section does not name {missing}"


def test_readme_gives_the_two_commands():
    text = README.read_text()
    assert "pip install -e '.[dev,dask]' && unosim run configs/standard.toml" in text
    assert "python -m pytest" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "python -m pytest" in ci and "pip install --quiet -e '.[dev,dask]'" in ci
