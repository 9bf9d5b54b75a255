"""Plots render from synthetic result files and write real PNGs."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.patches import StepPatch

from result_files import TURNS, match_file, sweep, ten_hands, write_result
from unosim.analysis import plots
from unosim.analysis import report as rp


@pytest.fixture
def two(tmp_path: Path) -> rp.Report:
    a = write_result(tmp_path / "a.parquet", ten_hands())
    b = write_result(tmp_path / "b.parquet", ten_hands(turns=[t + 30 for t in TURNS]), name="long")
    return rp.summarize([a, b])


def _png_ok(p: Path) -> None:
    assert p.exists() and p.stat().st_size > 1024
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_win_share(two: rp.Report, tmp_path: Path) -> None:
    fig = plots.plot_win_share(two, path=tmp_path / "w.png")
    assert len(fig.axes) == 2
    for ax in fig.axes:
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert len(bars) == 4  # one per seat, each with a bar per config
        assert all(len(c.patches) == 2 for c in bars)
    _png_ok(tmp_path / "w.png")


def test_game_length(two: rp.Report, tmp_path: Path) -> None:
    fig = plots.plot_game_length(two, path=tmp_path / "t.png")
    [ax] = fig.axes
    assert len([p for p in ax.patches if isinstance(p, StepPatch)]) == 2
    _png_ok(tmp_path / "t.png")


def test_match_plots(tmp_path: Path) -> None:
    rep = rp.summarize([match_file(tmp_path), match_file(tmp_path, "m2.parquet")])
    fig = plots.plot_match_winners(rep, path=tmp_path / "mw.png")
    assert len(fig.axes) == 2
    assert len([c for c in fig.axes[0].containers if isinstance(c, BarContainer)]) == 2  # S1, S2
    _png_ok(tmp_path / "mw.png")
    fig = plots.plot_hands_per_match(rep, path=tmp_path / "hm.png")
    assert len([p for p in fig.axes[0].patches if isinstance(p, StepPatch)]) == 4
    _png_ok(tmp_path / "hm.png")


def test_balance_plot(tmp_path: Path) -> None:
    bal = rp.balance_report(sweep(tmp_path))
    fig = plots.plot_balance(bal, path=tmp_path / "b.png")
    assert len(fig.axes) == 3
    for ax in fig.axes:
        [eb] = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(eb.lines[0].get_xdata()) == 4  # 2 changes x 2 player counts
    _png_ok(tmp_path / "b.png")
    with pytest.raises(ValueError):
        plots.plot_balance(rp.summarize(write_result(tmp_path / "x.parquet", ten_hands())))


def test_plot_all(tmp_path: Path) -> None:
    hands = write_result(tmp_path / "h.parquet", ten_hands())
    out = plots.plot_all([hands, match_file(tmp_path), sweep(tmp_path)], tmp_path / "figs")
    names = sorted(p.name for p in out)
    assert names == sorted(
        ["win_share.png", "turns.png", "cards_played.png", "match_winners.png",
         "hands_per_match.png", "balance_sweep.png"]
    )  # fmt: skip
    for p in out:
        _png_ok(p)
    only_hands = plots.plot_all(hands, tmp_path / "figs2")
    assert sorted(p.name for p in only_hands) == ["cards_played.png", "turns.png", "win_share.png"]
