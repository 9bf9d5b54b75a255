"""Reports, plots and the pairing note on results that ``unosim run`` writes (in process):
the checks of tests/unit/test_report.py, test_plots.py and test_paired.py that need
the engine's own rows."""

from __future__ import annotations

from pathlib import Path

from cli_checks import invoke
from unosim.analysis import plots
from unosim.analysis import report as rp
from unosim.analysis.report.paired import PAIRED


def test_the_pairing_note_says_whether_the_deals_are_the_same(tmp_path):
    """One seed: the same deals; two seeds: still paired by hand index (valid), but the note
    must not claim the same deals."""
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        res = invoke("run", "standard", "--hands", 500, "--seed", seed, "--out", tmp_path / name, "--quiet")
        assert res.exit_code == 0, res.output
    same = rp.compare(tmp_path / "a", tmp_path / "b").notes
    other = rp.compare(tmp_path / "a", tmp_path / "c").notes
    assert any(PAIRED in n and "one seed: the same deals" in n for n in same), same
    assert any(PAIRED in n and "seeds 2 and 1: other deals" in n for n in other), other
    assert not any("the same deals" in n for n in other)


def test_nothing_decided_is_said_not_drawn_as_zero(tmp_path: Path) -> None:
    """Every hand stalled, every match capped: the panels say there is no share (and the
    match panel counts the table's seats), never an empty axes that reads as zero."""
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


def test_a_count_s_interval_never_reaches_below_zero(tmp_path) -> None:
    """A rare counter on few hands (reshuffles: 2 in 100 hands) has a t interval reaching
    below 0; no mean of a count lies there, so the reported bound stops at 0."""
    assert invoke("run", "standard", "--hands", 100, "--out", tmp_path / "r", "--quiet").exit_code == 0
    t = rp.summarize([tmp_path / "r"]).table
    means = t[(t["stat"] == "mean") & t["section"].isin(["length", "counters"])]
    assert len(means) > 5 and (means["low"] >= 0).all()
    rare = means[(means["figure"] == "reshuffles")].iloc[0]
    assert rare["low"] == 0.0 < rare["value"] < rare["high"]
