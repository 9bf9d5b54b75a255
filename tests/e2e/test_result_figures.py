"""A figure for every result kind (#22): tournaments (champion share per player and per bot,
no seat panel under T1), matches per bot, leagues, skill runs; each readable."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from matplotlib.container import BarContainer

from figure_checks import assert_readable, figures_of
from unosim.cli import main

MIXED = 'name = "mixed"\n[table]\nplayers = 4\n[bots]\nseats = ["counter", "greedy", "random", "random"]\n'


def _ok(*args: object) -> None:
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small result of each kind, played once for the module."""
    d = tmp_path_factory.mktemp("kinds")
    (d / "mixed.toml").write_text(MIXED)
    out = {k: d / k for k in ("hands", "matches", "tournaments", "league")}
    _ok("run", d / "mixed.toml", "--hands", 400, "--out", out["hands"], "--quiet")
    _ok("run", d / "mixed.toml", "--matches", 40, "--out", out["matches"], "--quiet")
    _ok("run", d / "mixed.toml", "--tournaments", 30, "--out", out["tournaments"], "--quiet")
    _ok("league", "standard", "--bots", "counter,greedy,random", "--players", 3, "--deals", 40,
        "--out", out["league"], "--quiet")
    return out


@pytest.mark.slow
def test_tournaments_get_champion_shares_and_no_seat_panel(kinds: dict[str, Path], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    figs = figures_of(kinds["tournaments"], tmp_path / "f", monkeypatch)
    assert "win_share.png" not in figs and "champions.png" in figs
    champ = figs["champions.png"]
    assert_readable(champ)
    titles = [ax.get_title().replace("\n", " ") for ax in champ.axes]
    assert any("champion share by player" in t for t in titles)
    assert any("champion share by bot" in t for t in titles)
    # every bar carries its interval
    for ax in champ.axes:
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert bars and all(b.errorbar is not None for b in bars), ax.get_title()


@pytest.mark.slow
def test_matches_get_a_per_bot_figure(kinds: dict[str, Path], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    figs = figures_of(kinds["matches"], tmp_path / "f", monkeypatch)
    assert {"match_winners.png", "match_bots.png", "hands_per_match.png"} <= set(figs)
    for name in ("match_winners.png", "match_bots.png"):
        assert_readable(figs[name])
    title = figs["match_winners.png"].get_suptitle()
    assert title.count("\n") <= 1, title  # short: the legend names the systems


def test_league_and_skill_directories_are_plotted(kinds: dict[str, Path], tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["plot", str(kinds["league"]), "--out", str(tmp_path / "f")])
    assert res.exit_code == 0 and res.output.split() == [str(tmp_path / "f" / "league_league.png")]
