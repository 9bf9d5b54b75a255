"""The README and docs/*.md against their sources: the config table against the key registry
(C1), the command table against the CLI, every figure against a script that writes it."""

import re
from pathlib import Path

import pytest
from docs_scripts import generate

from unosim.rules.config import rules_markdown

README = Path(__file__).resolve().parents[2] / "README.md"
DOCS = README.parent / "docs"


def test_c1_config_reference_table_matches_the_registry():
    text = (DOCS / "config.md").read_text()
    table = text.split("<!-- rules-table:start -->\n")[1].split("<!-- rules-table:end -->")[0]
    assert table.strip() == rules_markdown().strip(), "regenerate with: unosim rules --format markdown"


def test_o1_every_counter_column_is_in_the_output_reference():
    """A new counter (unosim.kernel.layout.COUNTERS) is a new output column: docs/output.md
    says what it counts."""
    from unosim.kernel.layout import COUNTERS

    output = (DOCS / "output.md").read_text()
    missing = [c.column for c in COUNTERS if f"`{c.column}`" not in output]
    assert not missing, f"docs/output.md does not name {missing}"


def test_readme_gives_the_two_commands():
    text = README.read_text()
    assert "pip install -e '.[dev,dask]' && unosim run configs/standard.toml" in text
    assert "python -m pytest" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "python -m pytest" in ci and "pip install --quiet -e '.[dev,dask]'" in ci


# -- docs that cannot drift (docs/generate.py) -------------------------------------------



# Numbers the scan reads as figures that are not the result of a run, page by page, each
# with its reason.  A run's figure never belongs here: it goes in a generated block.
NOT_RUN_FIGURES: dict[str, tuple[str, ...]] = {
    "README.md": ("3.10",        # Python 3.10+
                  "95%"),        # the confidence level
    "docs/config.md": ("0.05",),  # a house-rule config's chance, an input
    "docs/getting_started.md": ("3.10",),  # Python 3.10+
    "docs/sweeps.md": ("0.05",   # a sweep file's noise_chance, an input
                       "10,000 points"),  # the limit of a sweep
    "docs/commands.md": ("95%",),  # the confidence level
    "docs/reports.md": ("95%",),
    "docs/skill.md": ("100%",      # the index's definition: a bot that always wins
                      "95%"),      # the confidence level
    "docs/design.md": ("95%",),    # the confidence level
    "docs/which_bot.md": ("50%",  # the even share heads-up
                          "1.96",  # the normal quantile of a 95% interval
                          "0.01"),  # the goodness-of-fit test's threshold
    "docs/rules.md": ("-1.0",      # a score table's value (H17), an input
                      "100 points"),  # a rule's constant
    "docs/bots.md": ("5s",         # "two red 5s": cards, not seconds
                     "-2.0", "0.02", "-1000.0", "-60.0", "-6.0",  # parameter defaults and bot-file inputs
                     "[-0.5, 0.5]", "0.05",  # the tuner's search box and step for w_points
                     "95%"),       # the confidence level
}


# Pages whose figures no script writes yet, with what is missing.  The test below fails
# once a page here is clean, so the entry goes when its generator lands.
NOT_YET_GENERATED: dict[str, str] = {}


def test_every_figure_of_the_pages_is_generated_or_quotes_a_block():
    """Every figure of README.md and docs/*.md (a share, an interval, a mean, a time) sits in
    a block a docs/ script writes from a fresh run, or the prose quotes one of its page's
    blocks (the same number, or it rounded), so a rerun that changes a figure fails here or
    in tests/e2e/test_docs_generated.py, never silently."""
    gen = generate()
    bad = []
    for page in [README, *sorted((README.parent / "docs").glob("*.md"))]:
        rel = str(page.relative_to(README.parent))
        found = gen.unquoted_figures(page, NOT_RUN_FIGURES.get(rel, ()))
        if rel in NOT_YET_GENERATED:
            assert found, f"{rel} is clean now: drop it from NOT_YET_GENERATED"
            continue
        bad += found
    assert not bad, ("figures no script writes (put them in a generated block, quote a block, or drop them; "
                     "docs/generate.py):\n" + "\n".join(bad))


PLACEHOLDER = re.compile(r"(?<![`\w])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![`\w])")
"""An upper-case token with underscores in running text (``HANDS_AT_COUNTER``): a figure a
draft meant to fill in.  Code names sit in backticks, and code blocks are left out."""


def _prose(text: str) -> str:
    """A page's text without its fenced code blocks, generated blocks and inline code."""
    text = re.sub(r"<!-- generated: .*?<!-- /generated -->", "", text, flags=re.S)
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)  # inline code: names, not prose


def test_no_page_holds_a_placeholder():
    found = [f"{page.name}: {m.group(0)}" for page in [README, *sorted((README.parent / "docs").glob("*.md"))]
             for m in PLACEHOLDER.finditer(_prose(page.read_text()))]
    assert not found, "placeholders never filled in:\n" + "\n".join(found)
    assert PLACEHOLDER.findall(_prose("it wins HANDS_AT_COUNTER of hands; `P_STACKING` and S1 stay")) == [
        "HANDS_AT_COUNTER"]


def test_the_figure_scan_finds_a_figure_outside_a_block(tmp_path):
    gen = generate()
    page = tmp_path / "page.md"
    page.write_text("<!-- generated: x -->\nshare 26.02% [25.80, 26.24]\n<!-- /generated -->\n"
                    "The first seat wins 26.0% [25.8, 26.2]; heads-up 64.9% [64.1, 65.7], in 1.4 s, 2.5x, +0.57 points.\n")
    found = [line.split(": ", 1)[1] for line in gen.unquoted_figures(page)]
    assert found == ["64.9%", "[64.1, 65.7]", "1.4 s", "2.5x", "+0.57 points"]


def test_generated_blocks_are_named_once_and_each_runs_something():
    gen = generate()
    from collections import Counter

    sys_path = str(README.parent / "docs")
    import sys

    sys.path.insert(0, sys_path)
    try:
        from figures import FIGURES
    finally:
        sys.path.remove(sys_path)
    blocks = [b for page in gen.pages() for b in gen.blocks(page)]
    assert blocks
    twice = [n for n, k in Counter(b.name for b in blocks).items() if k > 1]
    assert not twice, f"block names used twice: {twice}"
    idle = [b.name for b in blocks if b.name not in FIGURES and not b.commands()]
    assert not idle, f"blocks that run nothing (no docs/figures.py function, no $ unosim line): {idle}"
    assert all(c.startswith("unosim ") for b in blocks for c in b.commands())


def test_readme_command_table_lists_every_cli_command_and_no_other():
    """The README's command table and the CLI's commands (unosim.cli) are the same set."""
    import click

    from unosim.cli import main

    commands = {n for n, c in main.commands.items() if not c.hidden}
    groups = {n for n, c in main.commands.items() if isinstance(c, click.Group)}
    table = README.read_text().split("## Commands")[1].split("\n## ")[0]
    rows = [ln for ln in table.splitlines() if ln.startswith("| `unosim ")]
    listed = {re.match(r"\| `unosim (\S+)", ln).group(1).rstrip("`") for ln in rows}
    assert listed == commands, f"only in the CLI: {commands - listed}; only in the README: {listed - commands}"
    for g in groups:  # a group's subcommands are rows of their own
        for sub in main.commands[g].commands:
            assert f"`unosim {g} {sub}" in table, f"the README's command table lacks `unosim {g} {sub}`"


def test_command_reference_shows_every_command_help():
    """docs/commands.md holds a generated `--help` block for every command, and the README's
    table links to it."""
    from unosim.cli import main

    gen = generate()
    shown = {c for b in gen.blocks(DOCS / "commands.md") for c in b.commands()}
    wanted = {f"unosim {n} --help" for n, c in main.commands.items() if not c.hidden}
    assert shown == wanted, f"missing: {wanted - shown}; extra: {shown - wanted}"
    assert "(docs/commands.md)" in README.read_text()


def test_cache_paragraph_matches_where_numba_keys_the_cache():
    """docs/design.md says the same sources in a new install location compile once more there:
    numba's cache subfolder is named after the source folder's absolute path, below the
    folder named after the sources' digest (unosim/kernel/cache.py)."""
    from unosim.kernel.numba_internals import _SourcesLocator

    a = _SourcesLocator.get_suitable_cache_subpath("/venv-a/site-packages/unosim/engine/hand.py")
    b = _SourcesLocator.get_suitable_cache_subpath("/venv-b/site-packages/unosim/engine/hand.py")
    assert a != b and a.startswith("engine_") and b.startswith("engine_")
    text = " ".join((DOCS / "design.md").read_text().split())
    assert "compiles once more there" in text and "numba-<digest>" in text


def test_masking_hides_speeds_and_timings_only() -> None:
    gen = generate()
    line = "  58,070 hands/s (3.4 s, after 2.3 s loading the engine); mean 50.13 turns per hand"
    assert gen.masked(line) == "  <rate> hands/s (<time>); mean 50.13 turns per hand"
    tune = "= 600 evaluations, 1,200,000 hands in 32.8 s (36,535 hands/s, 96% in the kernel)"
    assert gen.masked(tune) == "= 600 evaluations, 1,200,000 hands in <time> (<rate> hands/s, <share> in the kernel)"
    skill = "took 57 minutes in all (12 s a point at 2 players, 1,031 s a point at 7 players); 12 s"
    assert gen.masked(skill) == "took <time> in all (<time> a point at 2 players, <time> a point at 7 players); 12 s"
    suite = ("`python -m pytest` on 2026-12-04: 2160 passed; 3.0 minutes of wall time (3.4 CPU minutes) on 2 cores, "
             "the kernels already compiled. A cold first run compiles them before the tests: 11.2 minutes more "
             "(9.1 CPU minutes).")
    assert gen.masked(suite) == ("`python -m pytest` on <day>: 2160 passed; <time> on <cores>, the kernels already "
                                 "compiled. A cold first run compiles them before the tests: <time>.")


def test_work_folder_is_created_or_refused_in_one_line(tmp_path, capsys) -> None:
    """``--work DIR`` keeps the scratch folder (a long block resumes there): created when
    missing, refused with one usage line when it cannot be a folder."""
    gen = generate()
    assert gen.main(["--work", str(tmp_path / "new" / "work"), "--list"]) == 0
    assert (tmp_path / "new" / "work").is_dir()
    (tmp_path / "file").write_text("")
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        gen.main(["--work", str(tmp_path / "file"), "--list"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[0].startswith("usage:"), err  # argparse's usage line and its one error line
    assert ": error: --work: " in err[1] and "is not a directory" in err[1]


def test_a_console_line_pipes_as_the_shell_does() -> None:
    gen = generate()
    lines = ["a", "S1 x", "1", "2", "3", "S4 x", "4"]
    assert gen._filter(lines, ["grep", "-A", "1", "x"]) == ["S1 x", "1", "S4 x", "4"]
    assert gen._filter(lines, ["head", "-n", "2"]) == ["a", "S1 x"]
    assert gen._filter(lines, ["tail", "-n", "1"]) == ["4"]
    with pytest.raises(ValueError):
        gen._filter(lines, ["sort"])


def test_the_sweep_page_explains_the_base_the_balance_report_names() -> None:
    """The bundled house_rules sweep's report is titled "official rules but
    noise_chance=0.05": docs/sweeps.md says why, with the value the sweep file sets."""
    import tomllib

    from unosim.rules.bundled import bundled_sweeps

    sweep = tomllib.loads(bundled_sweeps()["house_rules"].read_text())
    chance = sweep["set"]["rules.noise_chance"]
    page = " ".join((DOCS / "sweeps.md").read_text().split())
    assert f'"official rules but noise_chance={chance}"' in page
    assert "only a card of `silent_rank` starts one" in page and "still plays the official rules" in page


def test_the_worked_example_tells_the_compile_from_loading_the_engine() -> None:
    """A run compiles a cold engine before its clock starts, announced in two lines of its own
    (unosim/run/warmup.py); "after N s loading the engine" is the cached engine's load. The
    worked example says so, and does not call the compile the "loading the engine" time."""
    import inspect

    from unosim.run import warmup

    source = inspect.getsource(warmup.compile_now)
    assert "unosim: compiling the engine (" in source and "unosim: engine compiled in " in source
    page = " ".join((DOCS / "worked_example.md").read_text().split())
    assert 'which is the "loading the engine" time' not in page
    assert "`unosim: compiling the engine ...` and `unosim: engine compiled in ... s`" in page
    assert '"loading the engine" is loading the compiled engine from the cache' in page
