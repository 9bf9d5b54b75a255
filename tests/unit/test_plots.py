"""Plots render from synthetic result files, write real PNGs, and can be read: every figure
``plot_all`` makes on runs, matches, rotated seats and sweeps has a title, labelled axes,
a legend outside the data when it has several series, and no colour used twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.patches import StepPatch

from figure_checks import assert_readable, figures_of, png_ok, series_colours
from result_files import TURNS, match_file, sweep, ten_hands, write_result
from unosim.analysis import figures, plots
from unosim.analysis import report as rp


@pytest.fixture
def two(tmp_path: Path) -> rp.Report:
    a = write_result(tmp_path / "a.parquet", ten_hands())
    b = write_result(tmp_path / "b.parquet", ten_hands(turns=[t + 30 for t in TURNS]), name="long")
    return rp.summarize([a, b])


# ------------------------------------------------------------------------------ readability


def _rotated(tmp_path: Path) -> Path:
    """A --rotate-seats style file: bot_<s> columns, each bot in each seat equally often."""
    bots = ["counter", "greedy", "random", "aggressor"]
    n = 12
    cols: dict[str, Any] = {
        "dealer": [h % 4 for h in range(n)], "winner": [(h * 3) % 4 for h in range(n)],
        "winning_team": [(h * 3) % 4 for h in range(n)], "turns": [30 + h for h in range(n)],
        "cards_played": [20 + h for h in range(n)],
    }  # fmt: skip
    for s in range(4):
        cols[f"bot_{s}"] = [bots[(s + h) % 4] for h in range(n)]
    return write_result(tmp_path / "rot.parquet", cols, name="mixed_bots", bots=bots)


@pytest.mark.slow
def test_every_figure_of_runs_is_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = write_result(tmp_path / "a.parquet", ten_hands())
    b = write_result(tmp_path / "b.parquet", ten_hands(turns=[t + 30 for t in TURNS]), name="long")
    figs = figures_of([a, b], tmp_path / "figs", monkeypatch)
    assert sorted(figs) == ["cards_played.png", "turns.png", "win_share.png"]
    for fig in figs.values():
        assert_readable(fig)


@pytest.mark.slow
def test_every_figure_of_many_runs_is_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve configs: no colour comes back after ten, crowded labels stay inside."""
    files = [
        write_result(tmp_path / f"r{i}.parquet", ten_hands(turns=[t + 3 * i for t in TURNS]),
                     name=f"house_rules_variant_{i:02d}")
        for i in range(12)
    ]  # fmt: skip
    figs = figures_of(files, tmp_path / "figs", monkeypatch)
    for fig in figs.values():
        assert_readable(fig)
    [ax] = figs["turns.png"].axes
    assert len(set(series_colours(ax))) == 12


@pytest.mark.slow
def test_every_figure_of_matches_is_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figs = figures_of([match_file(tmp_path), match_file(tmp_path, "m2.parquet")], tmp_path / "figs", monkeypatch)
    assert {"match_winners.png", "hands_per_match.png", "bot_win_share.png"} <= set(figs)
    for fig in figs.values():
        assert_readable(fig)
    one = figures_of(match_file(tmp_path, "m3.parquet"), tmp_path / "one", monkeypatch)
    assert_readable(one["match_winners.png"])
    assert "first to 500" in one["match_winners.png"].get_suptitle().replace("\n", " ")


@pytest.mark.slow
def test_every_figure_of_a_rotated_run_is_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figs = figures_of(_rotated(tmp_path), tmp_path / "figs", monkeypatch)
    assert "bot_win_share.png" in figs
    for fig in figs.values():
        assert_readable(fig)
    [ax] = figs["bot_win_share.png"].axes
    assert len([c for c in ax.containers if isinstance(c, BarContainer)]) == 4  # one per bot


@pytest.mark.slow
def test_a_sweep_draws_the_balance_chart_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-point bars of a sweep are unreadable; its balance chart shows every point."""
    figs = figures_of(sweep(tmp_path), tmp_path / "figs", monkeypatch)
    assert sorted(figs) == ["balance_sweep.png"]
    assert_readable(figs["balance_sweep.png"])
    hands = write_result(tmp_path / "h.parquet", ten_hands())
    mixed = figures_of([hands, sweep(tmp_path)], tmp_path / "mixed", monkeypatch)
    assert sorted(mixed) == ["balance_sweep.png", "cards_played.png", "turns.png", "win_share.png"]
    assert [s.get_text() for s in mixed["win_share.png"].axes[0].get_xticklabels()] == ["standard"]


def test_long_names_are_wrapped_not_cut(tmp_path: Path) -> None:
    name = "a_config_with_a_rather_long_descriptive_name_for_its_house_rules"
    rep = rp.summarize(write_result(tmp_path / "x.parquet", ten_hands(), name=name))
    for fig in (plots.plot_win_share(rep), plots.plot_game_length(rep)):
        assert_readable(fig)


def test_an_incomplete_result_says_so_in_the_title(two: rp.Report) -> None:
    two.notes.append("a is incomplete: 1 of 2 chunks (run the same command again to finish it)")
    for fig in (plots.plot_win_share(two), plots.plot_game_length(two)):
        assert "note: a is incomplete" in fig.get_suptitle().replace("\n", " ")
        assert_readable(fig)


def test_a_figure_carries_the_notes_and_bots_of_its_own_results(tmp_path: Path) -> None:
    """A figure of some of the results (matches only) says nothing of the others: not
    their notes, not their bots; a note of no result in particular stays on every figure."""
    hands = write_result(tmp_path / "h.parquet", ten_hands(), name="hands_only", bots=["greedy"] * 4)
    rep = rp.summarize([hands, match_file(tmp_path)])
    h, m = rep.labels
    rep.notes.extend([f"{h} is incomplete: 1 of 2 chunks", f"a fact of the tournaments ({h})", "for every result"])
    said = plots.plot_match_winners(rep)
    title, caption = said.get_suptitle().replace("\n", " "), said.get_supxlabel()
    assert "incomplete" not in title and "tournaments" not in title and "note: for every result" in title
    assert "greedy" not in caption and "bots:" in caption
    both = plots.plot_win_share(rep)
    assert f"note: {h} is incomplete" in both.get_suptitle().replace("\n", " ") and "greedy" in both.get_supxlabel()


def test_tick_labels_break_between_words() -> None:
    assert figures.break_label("small_sweep:stacking=all,players=2", 18) == "small_sweep:\nstacking=all,\nplayers=2"
    assert figures.break_label("standard", 18) == "standard"


def test_many_colours_are_distinct() -> None:
    for n in (1, 10, 11, 20, 21, 60):
        assert len({to_hex(c) for c in plots.colors(n)}) == n


# ------------------------------------------------------------------------------ content


def test_win_share(two: rp.Report, tmp_path: Path) -> None:
    fig = plots.plot_win_share(two, path=tmp_path / "w.png")
    assert len(fig.axes) == 2
    seat = two.figure("seat", "win_share").set_index(["label", "key"])
    for ax in fig.axes:
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert len(bars) == 4  # one per seat, each with a bar per config
        assert all(len(c.patches) == 2 for c in bars)
    for s, c in enumerate(c for c in fig.axes[0].containers if isinstance(c, BarContainer)):
        for patch, label in zip(c.patches, ["standard", "long"]):
            # the bar is the difference from the even share, in percentage points
            want = (seat.loc[(label, str(s)), "value"] - 0.25) * 100
            assert patch.get_height() == pytest.approx(want)
    assert "percentage points" in fig.axes[0].get_ylabel()
    png_ok(tmp_path / "w.png")


def test_game_length(two: rp.Report, tmp_path: Path) -> None:
    fig = plots.plot_game_length(two, path=tmp_path / "t.png")
    [ax] = fig.axes
    assert len([p for p in ax.patches if isinstance(p, StepPatch)]) == 2
    png_ok(tmp_path / "t.png")


def test_match_plots(tmp_path: Path) -> None:
    rep = rp.summarize([match_file(tmp_path), match_file(tmp_path, "m2.parquet")])
    fig = plots.plot_match_winners(rep, path=tmp_path / "mw.png")
    assert len(fig.axes) == 2
    bars = [c for c in fig.axes[0].containers if isinstance(c, BarContainer)]
    assert len(bars) == 2  # S1, S2 (this hand-made file has no S4 columns; test_chips.py has them)
    s1 = rep.figure("match_positive_seat", "win_share")
    want = (s1[s1["label"] == rep.labels[0]]["value"].to_numpy() - 1 / 3) * 100
    assert np.allclose([p.get_height() for p in bars[0].patches], want)
    png_ok(tmp_path / "mw.png")
    fig = plots.plot_hands_per_match(rep, path=tmp_path / "hm.png")
    assert len(fig.axes) == 2  # S1, S2 side by side
    assert fig.get_supxlabel().startswith("bots:")  # the caption, which the legend must leave free
    assert_readable(fig)
    assert all(len([p for p in ax.patches if isinstance(p, StepPatch)]) == 2 for ax in fig.axes)
    png_ok(tmp_path / "hm.png")


def test_balance_plot(tmp_path: Path) -> None:
    bal = rp.balance_report(sweep(tmp_path))
    fig = plots.plot_balance(bal, path=tmp_path / "b.png")
    assert len(fig.axes) == 3
    for ax in fig.axes:
        ebs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(ebs) == 2  # one series per player count
        assert sum(len(eb.lines[0].get_xdata()) for eb in ebs) == 4  # 2 changes x 2 player counts
    png_ok(tmp_path / "b.png")
    with pytest.raises(ValueError):
        plots.plot_balance(rp.summarize(write_result(tmp_path / "x.parquet", ten_hands())))


@pytest.mark.slow
def test_plot_all(tmp_path: Path) -> None:
    hands = write_result(tmp_path / "h.parquet", ten_hands())
    out = plots.plot_all([hands, match_file(tmp_path), sweep(tmp_path)], tmp_path / "figs")
    names = sorted(p.name for p in out)
    assert names == sorted(
        ["win_share.png", "bot_win_share.png", "turns.png", "cards_played.png", "match_winners.png",
         "match_bots.png", "hands_per_match.png", "balance_sweep.png"]
    )  # fmt: skip
    for p in out:
        png_ok(p)
    only_hands = plots.plot_all(hands, tmp_path / "figs2")
    assert sorted(p.name for p in only_hands) == ["cards_played.png", "turns.png", "win_share.png"]
