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

BROWSERS = ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome")


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
    _ok("league", "standard", "--bots", "counter,greedy,random", "--players", 3, "--deals", 30,
        "--out", d / "league", "--quiet")
    _ok("skill", d / "tiny.toml", "--bot", "counter", "--check-deals", 200, "--out", d / "tiny.skill", "--quiet")
    return {"run": [d / "a"], "comparison": [d / "a", d / "b"], "sweep": [sweep(d)],
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
@pytest.mark.parametrize("kind", ["run", "comparison", "sweep", "league", "skill"])
def test_the_page_is_self_contained_and_renders(kind: str, results: dict[str, list[Path]], tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    out = _ok("report", *results[kind], "--html", page)
    assert out.strip() == f"wrote {page}"
    text = page.read_text()
    # self-contained: no fetch of any kind
    assert not re.search(r"(?:src|href)\s*=\s*\"(?!data:)", text), "a link that would be fetched"
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
    assert text.count("<img ") == 3  # win share, turns, cards played
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
    assert res.exit_code == 2 and "a league or skill directory is a page of its own" in res.output


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
