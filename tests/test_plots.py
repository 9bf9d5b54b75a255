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
from matplotlib.figure import Figure
from matplotlib.patches import StepPatch

from result_files import TURNS, match_file, sweep, ten_hands, write_result
from unosim.analysis import figures, plots
from unosim.analysis import report as rp


@pytest.fixture
def two(tmp_path: Path) -> rp.Report:
    a = write_result(tmp_path / "a.parquet", ten_hands())
    b = write_result(tmp_path / "b.parquet", ten_hands(turns=[t + 30 for t in TURNS]), name="long")
    return rp.summarize([a, b])


def _png_ok(p: Path) -> None:
    assert p.exists() and p.stat().st_size > 1024
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------------ readability


def _series_colours(ax: Any) -> list[str]:
    """One colour per data series of ``ax``: bar sets, error-bar series, step lines, labelled lines."""
    out = []
    for c in ax.containers:
        if isinstance(c, BarContainer) and c.patches:
            out.append(to_hex(c.patches[0].get_facecolor()))
        elif isinstance(c, ErrorbarContainer) and c.lines[0] is not None:  # bar whiskers have no data line
            out.append(to_hex(c.lines[0].get_color()))
    out += [to_hex(p.get_edgecolor()) for p in ax.patches if isinstance(p, StepPatch)]
    out += [to_hex(ln.get_color()) for ln in ax.lines if not ln.get_label().startswith("_")]
    return out


def assert_readable(fig: Figure) -> None:
    """Title, axis labels, legend outside the data (when needed) and distinct colours."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    page = fig.bbox
    data_axes = [ax for ax in fig.axes if _series_colours(ax)]
    assert data_axes, "a figure with no data"
    sup = fig.get_suptitle()
    assert sup or all(ax.get_title() for ax in data_axes), "no title"
    titles = [fig._suptitle] if sup else []  # noqa: SLF001 - the suptitle Text, to measure it
    titles += [ax.title for ax in data_axes if ax.get_title()]
    for t in titles:  # a long title is wrapped, not cut off at the figure's edges
        b = t.get_window_extent(r)
        assert b.x0 >= -1 and b.x1 <= page.width + 1 and b.y1 <= page.height + 1, t.get_text()
    for ax in data_axes:
        assert ax.get_xlabel(), f"no x label on {ax.get_title()!r}"
        ylab = ax.get_ylabel() or any(o.get_ylabel() for o in ax.get_shared_y_axes().get_siblings(ax))
        assert ylab, f"no y label on {ax.get_title()!r}"
        colours = _series_colours(ax)
        assert len(colours) == len(set(colours)), f"a colour used twice on {ax.get_title()!r}: {colours}"
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    if max(len(_series_colours(ax)) for ax in data_axes) > 1:
        assert legends, "several series and no legend"
    for leg in legends:
        lb = leg.get_window_extent(r)
        assert lb.x0 >= -1 and lb.y0 >= -1 and lb.x1 <= page.width + 1 and lb.y1 <= page.height + 1
        for ax in data_axes:
            assert not lb.overlaps(ax.get_window_extent(r)), f"legend covers {ax.get_title()!r}"
        for t in titles:
            assert not lb.overlaps(t.get_window_extent(r)), "legend covers a title"
        if fig.get_supxlabel():
            assert not lb.overlaps(fig._supxlabel.get_window_extent(r)), "legend covers the caption"  # noqa: SLF001


def _figures_of(paths: Any, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Figure]:
    """Every figure plot_all makes for ``paths``, by file name."""
    figs: dict[str, Figure] = {}
    real_save = figures.save

    def keep(fig: Figure, path: Any, *rest: Any) -> Figure:
        figs[Path(path).name] = fig
        return real_save(fig, path, *rest)

    monkeypatch.setattr(figures, "save", keep)
    written = plots.plot_all(paths, out)
    assert sorted(figs) == sorted(p.name for p in written)
    for p in written:
        _png_ok(p)
    return figs


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
    figs = _figures_of([a, b], tmp_path / "figs", monkeypatch)
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
    figs = _figures_of(files, tmp_path / "figs", monkeypatch)
    for fig in figs.values():
        assert_readable(fig)
    [ax] = figs["turns.png"].axes
    assert len(set(_series_colours(ax))) == 12


@pytest.mark.slow
def test_every_figure_of_matches_is_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figs = _figures_of([match_file(tmp_path), match_file(tmp_path, "m2.parquet")], tmp_path / "figs", monkeypatch)
    assert {"match_winners.png", "hands_per_match.png", "bot_win_share.png"} <= set(figs)
    for fig in figs.values():
        assert_readable(fig)
    one = _figures_of(match_file(tmp_path, "m3.parquet"), tmp_path / "one", monkeypatch)
    assert_readable(one["match_winners.png"])
    assert "first to 500" in one["match_winners.png"].get_suptitle().replace("\n", " ")


@pytest.mark.slow
def test_every_figure_of_a_rotated_run_is_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figs = _figures_of(_rotated(tmp_path), tmp_path / "figs", monkeypatch)
    assert "bot_win_share.png" in figs
    for fig in figs.values():
        assert_readable(fig)
    [ax] = figs["bot_win_share.png"].axes
    assert len([c for c in ax.containers if isinstance(c, BarContainer)]) == 4  # one per bot


@pytest.mark.slow
def test_a_sweep_draws_the_balance_chart_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-point bars of a sweep are unreadable; its balance chart shows every point."""
    figs = _figures_of(sweep(tmp_path), tmp_path / "figs", monkeypatch)
    assert sorted(figs) == ["balance_sweep.png"]
    assert_readable(figs["balance_sweep.png"])
    hands = write_result(tmp_path / "h.parquet", ten_hands())
    mixed = _figures_of([hands, sweep(tmp_path)], tmp_path / "mixed", monkeypatch)
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
    bars = [c for c in fig.axes[0].containers if isinstance(c, BarContainer)]
    assert len(bars) == 2  # S1, S2 (this hand-made file has no S4 columns; test_chips.py has them)
    s1 = rep.figure("match_positive_seat", "win_share")
    want = (s1[s1["label"] == rep.labels[0]]["value"].to_numpy() - 1 / 3) * 100
    assert np.allclose([p.get_height() for p in bars[0].patches], want)
    _png_ok(tmp_path / "mw.png")
    fig = plots.plot_hands_per_match(rep, path=tmp_path / "hm.png")
    assert len(fig.axes) == 2  # S1, S2 side by side
    assert fig.get_supxlabel().startswith("bots:")  # the caption, which the legend must leave free
    assert_readable(fig)
    assert all(len([p for p in ax.patches if isinstance(p, StepPatch)]) == 2 for ax in fig.axes)
    _png_ok(tmp_path / "hm.png")


def test_balance_plot(tmp_path: Path) -> None:
    bal = rp.balance_report(sweep(tmp_path))
    fig = plots.plot_balance(bal, path=tmp_path / "b.png")
    assert len(fig.axes) == 3
    for ax in fig.axes:
        ebs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(ebs) == 2  # one series per player count
        assert sum(len(eb.lines[0].get_xdata()) for eb in ebs) == 4  # 2 changes x 2 player counts
    _png_ok(tmp_path / "b.png")
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
        _png_ok(p)
    only_hands = plots.plot_all(hands, tmp_path / "figs2")
    assert sorted(p.name for p in only_hands) == ["cards_played.png", "turns.png", "win_share.png"]


@pytest.mark.e2e  # runs `unosim run`: the engine
def test_nothing_decided_is_said_not_drawn_as_zero(tmp_path: Path) -> None:
    """Every hand stalled, every match capped: the panels say there is no share (and the
    match panel counts the table's seats), never an empty axes that reads as zero."""
    from cli_checks import invoke

    stalled = tmp_path / "st.toml"
    stalled.write_text('name = "st"\n[rules]\nmax_turns = 1\n')
    res = invoke("run", stalled, "--hands", 50, "--out", tmp_path / "s", "--quiet")
    assert res.exit_code == 0 and "no hand was decided (every one stalled at max_turns = 1)" in res.output
    assert "0.00%" not in res.output
    res = invoke("run", "standard", "--matches", 4, "--max-hands", 2, "--out", tmp_path / "m", "--quiet")
    assert res.exit_code == 0 and "S1 positive: no match ended within 2 hands" in res.output
    assert "nan" not in res.output
    fig = plots.plot_win_share(rp.summarize([tmp_path / "s"]))
    assert all(any("no hand decided" in t.get_text() for t in ax.texts) for ax in fig.axes)
    fig = plots.plot_match_winners(rp.summarize([tmp_path / "m"]))
    ax = fig.axes[0]
    assert any("no match ended" in t.get_text() for t in ax.texts)
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"seat {s}" for s in range(4)]
    assert "1/4 = 25%" in fig._suptitle.get_text()
