"""Two hand runs of one seed deal the same cards to every hand index, so their comparison
is paired hand by hand (unosim.analysis.report.paired): compare() and the balance report
take the paired interval for the hand figures, a note says so, and runs that do not pair
(other hand indices, rotated or match runs) keep the independent intervals.

Synthetic files with the engine's schema (tests/result_files.py): nothing compiles.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from result_files import write_result
from unosim.analysis import report as rp
from unosim.analysis import stats
from unosim.analysis.report.paired import paired_intervals
from unosim.analysis.report.sources import discover

N = 3000


def _pair(tmp_path: Path, *, shift: int = 2, hands: int = N, row_groups: tuple[int, int] = (700, 1100),
          seed: int = 5) -> tuple[Path, Path, pd.DataFrame, pd.DataFrame]:
    """A base run and a variant on the same deals: each hand's length is mostly its deal's
    (shared), the variant adds ``shift`` turns and its own noise; winners agree on most
    hands.  Row groups differ between the two files, so batches never line up by chance."""
    rng = np.random.default_rng(seed)
    deal = rng.integers(20, 90, hands)
    dealer = np.arange(hands) % 4
    win = rng.integers(0, 4, hands)
    frames = []
    for k, (extra, rg) in enumerate(zip((0, shift), row_groups)):
        flip = rng.random(hands) < (0 if k == 0 else 0.3)
        winner = np.where(flip, rng.integers(0, 4, hands), win)
        stalled = rng.random(hands) < 0.02
        df = pd.DataFrame({"dealer": dealer, "winner": np.where(stalled, -1, winner), "stalled": stalled,
                           "turns": deal + extra + rng.integers(0, 6, hands),
                           "cards_drawn": deal // 3 + rng.integers(0, 3, hands)})
        df["winning_team"] = df["winner"].clip(lower=0)
        frames.append(df)
    a = write_result(tmp_path / "base.parquet", {c: frames[0][c] for c in frames[0]}, name="base",
                     row_group_size=row_groups[0])
    b = write_result(tmp_path / "variant.parquet", {c: frames[1][c] for c in frames[1]}, name="variant",
                     row_group_size=row_groups[1])
    return a, b, frames[0], frames[1]


def _row(t: pd.DataFrame, section: str, figure: str, key: str, stat: str) -> pd.Series:
    return t[(t["section"] == section) & (t["figure"] == figure) & (t["key"] == key) & (t["stat"] == stat)].iloc[0]


def test_a_mean_is_the_paired_t_interval_of_the_per_hand_differences(tmp_path):
    a, b, fa, fb = _pair(tmp_path)
    cmp = rp.compare(a, b).table
    d = (fb["turns"] - fa["turns"]).to_numpy(float)
    want = stats.mean_interval(d)
    got = _row(cmp, "length", "turns", "", "mean")
    assert got["diff"] == pytest.approx(want.estimate)
    assert (got["low"], got["high"]) == pytest.approx((want.low, want.high))
    # the deal is shared: far narrower than Welch's for independent samples
    welch = stats.diff_means(fb["turns"].mean(), fb["turns"].std(), N, fa["turns"].mean(), fa["turns"].std(), N)
    assert got["high"] - got["low"] < 0.5 * (welch.high - welch.low)
    assert any("paired hand by hand with base" in n for n in rp.compare(a, b).notes)


def test_a_share_is_the_delta_method_over_hands(tmp_path):
    """The dealer+1 share over decided hands: the linearised per-hand differences,
    u_h = (x1 - p1 n1)/N1 - (x2 - p2 n2)/N2, summed in one pass, equal their direct sum."""
    a, b, fa, fb = _pair(tmp_path)
    us = []
    for f in (fb, fa):
        dec = (~f["stalled"]).to_numpy(float)
        x = dec * (((f["winner"] - f["dealer"]) % 4) == 1).to_numpy(float)
        p = x.sum() / dec.sum()
        us.append((x - p * dec) / dec.sum())
    u = us[0] - us[1]
    se = np.sqrt(N / (N - 1) * (u * u).sum())
    got = _row(rp.compare(a, b).table, "after_dealer", "win_share", "1", "share")
    assert got["high"] - got["diff"] == pytest.approx(stats.z_value() * se)
    assert got["diff"] - got["low"] == pytest.approx(stats.z_value() * se)


def test_paired_intervals_cover_at_the_derived_rate():
    """Coverage: 400 pairs of runs of 400 hands whose true difference in mean length is
    0.7; the paired interval covers it at 95% within 4 binomial standard errors."""
    rng = np.random.default_rng(9)
    runs, n = 400, 400
    hit = 0
    for _ in range(runs):
        deal = rng.normal(50, 15, n)
        d = (deal + 0.7 + rng.normal(0, 5, n)) - (deal + rng.normal(0, 5, n))
        iv = stats.mean_interval(d)
        hit += iv.low <= 0.7 <= iv.high
    assert abs(hit / runs - 0.95) <= 4 * np.sqrt(0.95 * 0.05 / runs)


def test_runs_that_do_not_pair_keep_the_independent_intervals(tmp_path):
    """Other hand counts, no spread at all (no stall in either run) and reports given
    as tables keep Welch's and Newcombe's intervals."""
    a, _, fa, _ = _pair(tmp_path)
    short = write_result(tmp_path / "short.parquet", {c: fa[c][:2000] for c in fa}, name="short")
    srcs = {s.label: s for s in discover([a, short])}
    assert paired_intervals(srcs["short"], srcs["base"]) is None
    assert not any("paired" in n for n in rp.compare(a, short).notes)
    a2, b2, fa2, fb2 = _pair(tmp_path / "two")
    rep_a, rep_b = rp.hand_report(a2), rp.hand_report(b2)
    welch = rp.compare(rep_a, rep_b).table
    ra, rb = _row(rep_a.table, "length", "turns", "", "mean"), _row(rep_b.table, "length", "turns", "", "mean")
    want = stats.diff_means(rb["value"], rb["sd"], rb["n"], ra["value"], ra["sd"], ra["n"])
    got = _row(welch, "length", "turns", "", "mean")
    assert (got["low"], got["high"]) == pytest.approx((want.low, want.high))
    # no stall anywhere: the paired sums have no spread, the stalled share keeps Newcombe's
    none = {c: fa[c] for c in fa}
    none["stalled"], none["winner"] = np.zeros(N, bool), fa["winner"].clip(lower=0)
    x = write_result(tmp_path / "x" / "x.parquet", none, name="x")
    y = write_result(tmp_path / "y" / "y.parquet", none, name="y")
    got = _row(rp.compare(x, y).table, "hands", "stalled", "", "share")
    assert got["high"] > got["low"]


def test_a_sweeps_balance_report_is_paired(tmp_path):
    """Every point of a sweep against its base point: the balance rows take the paired
    intervals (turns, dealer+1, cards drawn) and the report says so."""
    root = tmp_path / "sweep"
    a, b, fa, fb = _pair(tmp_path / "files")
    for point, src in (("stacking=none", a), ("stacking=draw2", b)):
        dest = root / point / "players=4" / "part-00000.parquet"
        dest.parent.mkdir(parents=True)
        dest.write_bytes(Path(src).read_bytes())
    rep = rp.balance_report(root, base={"stacking": "none"})
    assert any("paired hand by hand with the base point" in n for n in rep.notes)
    row = rep.table[rep.table["metric"] == "turns"].iloc[0]
    want = stats.mean_interval((fb["turns"] - fa["turns"]).to_numpy(float))
    assert (row["low"], row["high"]) == pytest.approx((want.low, want.high))
    drawn = rep.table[rep.table["metric"] == "cards_drawn"].iloc[0]
    want = stats.mean_interval((fb["cards_drawn"] - fa["cards_drawn"]).to_numpy(float))
    assert (drawn["low"], drawn["high"]) == pytest.approx((want.low, want.high))


def test_a_run_against_its_identical_copy_has_no_point_intervals(tmp_path):
    """Every pair the same: no spread to pair on, for every figure alike (rounding in the
    sums once left a few rows with a zero-width 'paired' interval and the rest without)."""
    import shutil

    a, _, _, _ = _pair(tmp_path)
    copy = tmp_path / "copy.parquet"
    shutil.copy(a, copy)
    assert paired_intervals(discover([copy])[0], discover([a])[0]) == {}
    table = rp.compare(a, copy).table
    seats = table[table["section"] == "seat"]
    assert len(seats) == 4 and (seats["high"] > seats["low"]).all()  # each its independent interval
