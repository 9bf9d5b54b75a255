"""`unosim report RESULT... --html FILE` (#22): one self-contained page per result kind (run,
comparison, sweep, league, skill run), loaded in headless Chromium: it renders without
errors and every figure is decoded.  Chromium is Debian's package (.ci/run installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from result_files import sweep
from unosim.cli import main

from browser import BROWSERS, LAYOUT, Browser

KINDS = ["run", "comparison", "matches", "sweep", "league", "skill"]


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def _ok(*args: object) -> str:
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    d = tmp_path_factory.mktemp("html")
    (d / "until.toml").write_text('name = "until"\n[rules]\ndraw = "until_playable"\n')
    (d / "tiny.toml").write_text('name = "tiny"\nbase = "standard"\nhands = 200\n[axes]\n"rules.stacking" = ["draw2"]\n'
                                 '[strata]\n"table.players" = [2]\n')
    _ok("run", "standard", "--hands", 600, "--chunk-size", 200, "--out", d / "a", "--quiet")
    _ok("run", d / "until.toml", "--hands", 600, "--out", d / "b", "--quiet")
    _ok("run", "standard", "--matches", 40, "--out", d / "m", "--quiet")
    _ok("league", "standard", "--bots", "counter,greedy,random", "--players", 3, "--deals", 30,
        "--out", d / "league", "--quiet")
    _ok("skill", d / "tiny.toml", "--bot", "counter", "--check-deals", 200, "--out", d / "tiny.skill", "--quiet")
    return {"run": [d / "a"], "comparison": [d / "a", d / "b"], "matches": [d / "m"], "sweep": [sweep(d)],
            "league": [d / "league"], "skill": [d / "tiny.skill"]}


def _browser() -> str:
    found = next((b for b in map(shutil.which, BROWSERS) if b), None)
    assert found, "the --html test needs headless Chromium: apt-get install chromium (.ci/run installs it)"
    return found


def _render(page: Path, tmp_path: Path) -> tuple[str, str]:
    """The DOM after load (scripts run) and the browser's log."""
    proc = subprocess.run(
        [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr",
         "--v=0", f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000", "--dump-dom",
         page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_page_is_self_contained_and_renders(kind: str, results: dict[str, list[Path]], tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    out = _ok("report", *results[kind], "--html", page)
    assert out.strip() == f"wrote {page}"
    text = page.read_text()
    # self-contained: no fetch of any kind
    assert not re.search(r"(?:src|href)\s*=\s*\"(?!data:|#)", text), "a link that would be fetched"
    assert "http://" not in text and "https://" not in text and "@import" not in text and "<link" not in text
    images = text.count("<img ")
    assert images >= 1
    if kind != "league" and kind != "skill":
        assert "bots: " in text
    assert "<table" in text
    dom, log = _render(page, tmp_path)
    assert f'data-figures="{images}/{images}"' in dom, "a figure did not decode"
    errors = [ln for ln in log.splitlines() if "CONSOLE" in ln or "Uncaught" in ln]
    assert not errors, errors


def test_a_run_page_has_every_figure_the_notes_and_the_config(results: dict[str, list[Path]], tmp_path: Path) -> None:
    run = results["run"][0]
    (run / "part-000002.parquet").rename(tmp_path / "kept.parquet")  # an unfinished run ...
    try:
        _ok("report", run, "--html", tmp_path / "r.html")
    finally:
        (tmp_path / "kept.parquet").rename(run / "part-000002.parquet")
    text = (tmp_path / "r.html").read_text()
    assert "note: a is incomplete" in text  # ... says so on the page
    assert text.count("<figure>") == 3  # win share, turns, cards played (each drawn for a laptop and a phone)
    assert "[rules]" in text  # the config as TOML


@pytest.mark.parametrize("value, needle", [("", "--html: must not be empty"), (".", "--html: . is a directory"),
                                           ("FILE/r.html", "--html: cannot write")])
def test_bad_html_values(value: str, needle: str, results: dict[str, list[Path]], tmp_path: Path) -> None:
    (tmp_path / "FILE").write_text("a file, not a folder")
    value = value.replace("FILE", str(tmp_path / "FILE"))
    res = invoke("report", results["run"][0], "--html", value)
    assert res.exit_code == 2 and "Traceback" not in res.output
    (line,) = [ln for ln in res.output.splitlines() if ln.strip()]
    assert line.startswith("Error:") and needle in line, line


def test_a_league_page_stands_alone(results: dict[str, list[Path]], tmp_path: Path) -> None:
    res = invoke("report", *results["league"], *results["run"], "--html", tmp_path / "r.html")
    assert res.exit_code == 2 and "a league, skill or screen directory is a page of its own" in res.output


@pytest.mark.slow
def test_a_file_the_command_did_not_write_is_never_replaced(results: dict[str, list[Path]], tmp_path: Path) -> None:
    """Like every writing command: an earlier page of `report --html` is replaced, a user's
    file of that name (or the target of a symlink of that name) is refused in one line and
    left as it was."""
    page = tmp_path / "r.html"
    _ok("report", *results["run"], "--html", page)
    _ok("report", *results["comparison"], "--html", page)  # its own page: replaced
    assert "until" in page.read_text()
    mine = tmp_path / "notes.html"
    mine.write_text("<html>my notes</html>")
    link = tmp_path / "link.html"
    link.symlink_to(mine)
    for dest in (mine, link):
        res = invoke("report", *results["run"], "--html", dest)
        assert res.exit_code == 2 and "is not a page `unosim report --html` wrote" in res.output, res.output
    assert mine.read_text() == "<html>my notes</html>"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".unosim-")]


@pytest.fixture(scope="module")
def pages(results: dict[str, list[Path]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("pages")
    for kind in KINDS:
        _ok("report", *results[kind], "--html", d / f"{kind}.html")
    return {kind: d / f"{kind}.html" for kind in KINDS}


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 390])
def test_every_page_fits_the_screen_and_its_figures_are_legible(pages: dict[str, Path], width: int) -> None:
    """In headless Chromium at a laptop's and a phone's width: the page does not scroll
    sideways, every figure shows (the drawing for that width), its smallest text is at
    least 10 CSS pixels, and no script fails."""
    with Browser() as b:
        for kind, page in pages.items():
            b.open(page, width)
            got = b.evaluate(LAYOUT)
            assert got["width"] == width, (kind, got)
            assert got["scroll"] <= width, f"{kind} at {width} px scrolls sideways: {got}"
            assert got["figures"] == page.read_text().count("<figure>") >= 1, (kind, got)
            assert not got["small"], f"{kind} at {width} px: text under 10 px in {got['small']}"
            assert not b.errors, (kind, b.errors)


def _visible_text(page: Path, width: int = 1280, column: int = 1) -> tuple[str, str]:
    """The page's first screen's text, and the cells of ``column`` in its first table's rows
    after a click on that column's header."""
    with Browser() as b:
        b.open(page, width)
        first = b.evaluate("document.body.innerText.slice(0, 1500)")
        rows = b.evaluate("""(function () {
          var t = document.querySelector("table.sortable"), th = t.querySelectorAll("thead th")[%d];
          th.click();
          return Array.prototype.map.call(t.querySelectorAll("tbody tr:not(.section)"),
                                          function (r) { return r.cells[%d].textContent; }).join("\\n");
        })()""" % (column, column))
    return first, rows


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_page_opens_with_its_findings_and_its_bots(kind: str, pages: dict[str, Path],
                                                     results: dict[str, list[Path]]) -> None:
    """The first screen states the findings in words, computed from the result (the same
    sentences the text report opens with), names the bots, and points to the config."""
    import pandas as pd

    from unosim.analysis import report as rp
    from unosim.analysis.report.words import findings, league_findings, skill_findings
    from unosim.studies.skill_index import verdicts
    from unosim.studies.league import leaderboard

    paths = results[kind]
    if kind == "league":
        said = league_findings(pd.read_csv(leaderboard(paths[0])), 3)
    elif kind == "skill":
        frame = pd.read_parquet(paths[0] / "skill.parquet")
        said = skill_findings(frame, verdicts(frame))
    elif kind == "sweep":
        said = findings(rp.balance_report(paths[0]))
    elif kind == "comparison":
        said = findings(rp.compare(paths[0], paths[1:]))
    else:
        said = findings(rp.summarize(paths))
    assert said
    first, _ = _visible_text(pages[kind])
    assert first.index("Findings") < 200
    for sentence in said:
        assert sentence in first, (sentence, first)
    assert "bots:" in first
    if kind in ("run", "comparison", "matches", "sweep"):
        assert "random in every seat (the default" in first
        assert "config is at the end" in first
    if kind not in ("league", "skill"):
        text = _ok("report", *paths) if kind != "comparison" else _ok("compare", *paths)
        lines = text.splitlines()  # the title, its notes and bots, then the findings
        start = next(i for i, ln in enumerate(lines) if ln.startswith("* "))
        assert all(ln.startswith(("note:", "bots:")) for ln in lines[1:start])
        end = next(i for i in range(start, len(lines)) if not lines[i].startswith(("* ", "  ")))
        opening = " ".join(ln.strip() for ln in lines[start:end])
        assert opening == " ".join(f"* {x}" for x in said)  # the text report opens the same


@pytest.mark.slow
def test_tables_sort_by_a_click_and_say_what_their_marks_mean(pages: dict[str, Path]) -> None:
    _, rows = _visible_text(pages["league"], column=2)  # rank, bot, strength, ...
    strengths = [float(x) for x in rows.splitlines()]
    assert len(strengths) == 3 and strengths == sorted(strengths)  # ascending: the weakest first
    import html

    text = html.unescape(pages["comparison"].read_text())
    for mark in ("[a, b]: the 95% confidence interval", "h: Cohen's h", "d: Cohen's d", "pp: percentage points"):
        assert mark in text, mark
    assert "† the difference remains with the false discovery rate" in pages["sweep"].read_text()
