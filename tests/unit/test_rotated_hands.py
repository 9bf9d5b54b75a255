"""Seat-rotated hand runs (``unosim run --hands N --rotate-seats``): every deal is played
once per rotation, so the report's shares and means count a deal as one cluster
(stream.ClusterSums, stats.clustered_share, stats.clustered_mean), and so do comparisons
of them (stats.diff_intervals); unrotated files keep the per-hand Wilson and t intervals.

Synthetic files with the engine's schema (tests/result_files.py): nothing compiles.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from result_files import result_table
from unosim.analysis import report as rp
from unosim.analysis import stats

BOTS = ["weights(draw_score=0.5)", "counter", "random"]


def _rotated(path: Path, deals: int = 60, players: int = 3, seed: int = 3, repeat: int = 1,
             rotation: bool = True, row_group_size: int = 17) -> pd.DataFrame:
    """A rotated hand run of ``deals`` deals (each ``repeat`` x once per rotation, the
    rotations one after another as the runner writes them); the deal decides most of
    who wins (a lucky bot per deal), so its rotations are strongly correlated."""
    rng = np.random.default_rng(seed)
    lucky = rng.integers(0, players, deals)  # config seat of the deal's lucky bot
    frames = []
    for _ in range(repeat):
        for r in range(players):
            inst_at = [(s - r) % players for s in range(players)]  # config seat at each seat
            seat_of_lucky = (lucky + r) % players
            w = np.where(rng.random(deals) < 0.8, seat_of_lucky, rng.integers(0, players, deals))
            stalled = rng.random(deals) < 0.05
            frames.append(pd.DataFrame({
                "hand": np.arange(deals), "rotation": r, "dealer": np.arange(deals) % players,
                "winner": np.where(stalled, -1, w), "stalled": stalled,
                **{f"bot_{s}": BOTS[inst_at[s]] for s in range(players)}}))
    df = pd.concat(frames, ignore_index=True)
    # game length: the deal's own length (its cards) plus a little per rotation
    df["turns"] = (20 + 3 * (df["hand"] % 7) + rng.integers(0, 3, len(df))).astype(np.int64)
    cols = {"dealer": df["dealer"], "winner": df["winner"], "stalled": df["stalled"],
            "winning_team": df["winner"].clip(lower=0), "turns": df["turns"]}
    cols.update({f"bot_{s}": df[f"bot_{s}"] for s in range(players)})
    table = result_table(len(df), players, cols)
    table = table.set_column(0, "hand", pa.array(df["hand"].to_numpy(np.int64)))
    if rotation:
        table = table.add_column(1, "rotation", pa.array(df["rotation"].to_numpy(np.int32)))
    meta = {"unosim.config_name": "rot", "unosim.players": str(players), "unosim.teams": "1",
            "unosim.config": f'name = "rot"\n[table]\nplayers = {players}\n', "unosim.seed": "1",
            "unosim.bots": '["weights", "counter", "random"]', "unosim.mode": "hands",
            "unosim.finish": "first_out", "unosim.match_target": "500", "unosim.engine_version": "1"}
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    pq.write_table(table, path, row_group_size=row_group_size)
    return df


def _row(rep: rp.Report, section: str, figure: str, key: str) -> pd.Series:
    t = rep.table
    rows = t[(t["section"] == section) & (t["figure"] == figure) & (t["key"] == key) & t["stat"].isin(["share", "mean"])]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def _check(row: pd.Series, want: stats.Interval) -> None:
    assert row["value"] == pytest.approx(want.estimate)
    assert row["low"] == pytest.approx(want.low) and row["high"] == pytest.approx(want.high)


def test_rotated_hand_shares_use_the_deal_as_cluster(tmp_path):
    """Every share of a rotated hand run is stats.clustered_share of the per-deal sums: bot
    win share and wins per seat held, seat, position after the dealer, stalled.  Row groups
    of 17 rows split deals across batches (a rotation's block at a time)."""
    df = _rotated(tmp_path / "r.parquet")
    rep = rp.hand_report(tmp_path / "r.parquet")
    decided = df[~df["stalled"]]
    by = df.groupby("hand")
    n_dec = by["stalled"].apply(lambda s: (~s).sum()).to_numpy(float)
    for b in BOTS:
        won = sum(((decided["winner"] == s) & (decided[f"bot_{s}"] == b)).groupby(decided["hand"]).sum()
                  .reindex(range(60), fill_value=0) for s in range(3)).to_numpy(float)
        _check(_row(rep, "bot", "win_share", b), stats.clustered_share(won, n_dec))
        _check(_row(rep, "bot", "win_per_seat", b), stats.clustered_share(won, n_dec))  # one seat each
    for s in range(3):
        x = (decided["winner"] == s).groupby(decided["hand"]).sum().reindex(range(60), fill_value=0)
        _check(_row(rep, "seat", "win_share", str(s)), stats.clustered_share(x.to_numpy(float), n_dec))
        rel = ((decided["winner"] - decided["dealer"]) % 3 == s).groupby(decided["hand"]).sum()
        _check(_row(rep, "after_dealer", "win_share", str(s)),
               stats.clustered_share(rel.reindex(range(60), fill_value=0).to_numpy(float), n_dec))
    _check(_row(rep, "hands", "stalled", ""),
           stats.clustered_share(by["stalled"].sum().to_numpy(float), np.full(60, 3.0)))
    # the lucky bot of a deal wins in all its rotations: wider than the per-hand Wilson
    wins = _row(rep, "bot", "win_share", "counter")
    wilson = stats.proportion(wins["successes"], wins["n"])
    assert wins["high"] - wins["low"] > 1.2 * (wilson.high - wilson.low)


def test_rotated_hand_means_use_the_deal_as_cluster(tmp_path):
    """Mean turns of a rotated run: the per-hand mean, its interval stats.clustered_mean of
    the per-deal sums (the deal decides most of the length, so wider than the per-hand t),
    the per-hand sd kept for Cohen's d, and the number of deals in ``clusters``."""
    df = _rotated(tmp_path / "r.parquet")
    rep = rp.hand_report(tmp_path / "r.parquet")
    row = _row(rep, "length", "turns", "")
    by = df.groupby("hand")["turns"]
    _check(row, stats.clustered_mean(by.sum().to_numpy(float), by.size().to_numpy(float)))
    assert row["value"] == pytest.approx(df["turns"].mean())
    assert row["sd"] == pytest.approx(df["turns"].std(ddof=1)) and row["n"] == len(df) and row["clusters"] == 60
    t = stats.mean_interval(df["turns"])
    assert row["high"] - row["low"] > 1.5 * (t.high - t.low)
    assert _row(rep, "seat", "win_share", "0")["clusters"] == 60


def test_comparing_rotated_runs_keeps_the_deal_as_cluster(tmp_path):
    """compare() of two rotated runs: every share and mean difference is built from the two
    clustered intervals (stats.diff_intervals), never from hands and successes alone."""
    _rotated(tmp_path / "a.parquet", seed=3)
    _rotated(tmp_path / "b.parquet", seed=4)
    a, b = rp.hand_report(tmp_path / "a.parquet"), rp.hand_report(tmp_path / "b.parquet")
    cmp = rp.compare(a, b).table
    for section, figure, key in (("length", "turns", ""), ("bot", "win_share", "counter"), ("hands", "stalled", "")):
        ra, rb = _row(a, section, figure, key), _row(b, section, figure, key)
        want = stats.diff_intervals(rb["value"], rb["low"], rb["high"], ra["value"], ra["low"], ra["high"])
        got = cmp[(cmp["section"] == section) & (cmp["figure"] == figure) & (cmp["key"] == key)
                  & cmp["stat"].isin(["share", "mean"])].iloc[0]
        assert got["diff"] == pytest.approx(want.estimate)
        assert got["low"] == pytest.approx(want.low) and got["high"] == pytest.approx(want.high)
    # unrotated files keep Welch for the means
    _rotated(tmp_path / "c.parquet", rotation=False)
    _rotated(tmp_path / "d.parquet", seed=4, rotation=False)
    c, d = rp.hand_report(tmp_path / "c.parquet"), rp.hand_report(tmp_path / "d.parquet")
    got = rp.compare(c, d).table.set_index(["section", "figure", "stat"]).loc[("length", "turns", "mean")]
    rc, rd = _row(c, "length", "turns", ""), _row(d, "length", "turns", "")
    want = stats.diff_means(rd["value"], rd["sd"], rd["n"], rc["value"], rc["sd"], rc["n"])
    assert got["low"] == pytest.approx(want.low) and got["high"] == pytest.approx(want.high)
    assert np.isnan(rc["clusters"])


def test_a_deal_repeated_past_a_byte_widens_the_counts(tmp_path):
    """A file that repeats a deal more than 127 times (files joined by hand) must not wrap
    the one-byte per-deal counts."""
    df = _rotated(tmp_path / "r.parquet", deals=4, repeat=50, row_group_size=100)
    rep = rp.hand_report(tmp_path / "r.parquet")
    x = (df["winner"] == 0).groupby(df["hand"]).sum().to_numpy(float)
    n = (~df["stalled"]).groupby(df["hand"]).sum().to_numpy(float)
    _check(_row(rep, "seat", "win_share", "0"), stats.clustered_share(x, n))


def test_unrotated_files_keep_per_hand_wilson_intervals(tmp_path):
    df = _rotated(tmp_path / "u.parquet", rotation=False)
    rep = rp.hand_report(tmp_path / "u.parquet")
    decided = df[~df["stalled"]]
    for b in BOTS:
        won = sum(((decided["winner"] == s) & (decided[f"bot_{s}"] == b)).sum() for s in range(3))
        _check(_row(rep, "bot", "win_share", b), stats.proportion(won, len(decided)))
    _check(_row(rep, "hands", "stalled", ""), stats.proportion(df["stalled"].sum(), len(df)))


def test_clustered_interval_covers_where_wilson_does_not():
    """Coverage at the derived rate: heads-up, each deal decides the chance q ~ Beta(0.2,
    0.2) that bot A wins a rotation (mean 1/2).  Over R runs of k deals the clustered
    interval covers 1/2 at 95% within 4 binomial standard errors of R; the per-hand
    Wilson interval, blind to the deal, falls well short (its design effect is 1.71)."""
    rng = np.random.default_rng(11)
    runs, k = 2000, 300
    q = rng.beta(0.2, 0.2, (runs, k))
    x = rng.binomial(2, q).astype(float)  # bot A's wins in the deal's two rotations
    n = np.full(k, 2.0)
    hit_c = hit_w = 0
    for i in range(runs):
        _, lo, hi = stats.clustered_share(x[i], n)
        hit_c += lo <= 0.5 <= hi
        _, lo, hi = stats.proportion(x[i].sum(), 2 * k)
        hit_w += lo <= 0.5 <= hi
    tol = 4 * np.sqrt(0.95 * 0.05 / runs)
    assert hit_c / runs >= 0.95 - tol, hit_c / runs
    assert hit_w / runs < 0.95 - tol, hit_w / runs


def test_clustered_mean_covers_where_the_per_hand_t_does_not():
    """Coverage at the derived rate: each deal's length is its own (sd 1) plus a rotation's
    noise (sd 0.5), two rotations a deal, so the per-hand t interval (design effect 1.8)
    covers about 86%; the clustered one covers 95% within 4 binomial standard errors."""
    rng = np.random.default_rng(12)
    runs, k = 2000, 300
    y = rng.normal(0, 1, (runs, k, 1)) + rng.normal(0, 0.5, (runs, k, 2))
    n = np.full(k, 2.0)
    hit_c = hit_t = 0
    for i in range(runs):
        _, lo, hi = stats.clustered_mean(y[i].sum(axis=1), n)
        hit_c += lo <= 0 <= hi
        _, lo, hi = stats.mean_interval(y[i])
        hit_t += lo <= 0 <= hi
    tol = 4 * np.sqrt(0.95 * 0.05 / runs)
    assert abs(hit_c / runs - 0.95) <= tol, hit_c / runs
    assert hit_t / runs < 0.95 - tol, hit_t / runs


def test_clustered_mean_of_identical_rotations_is_the_t_interval_of_the_deals():
    """When every rotation of a deal gives the same value, the deal is one observation:
    the clustered interval is the t interval of the deals' values, whatever the rotations."""
    v = np.random.default_rng(5).integers(10, 90, 40).astype(float)
    want = stats.mean_interval(v)
    for rotations in (1, 3, 7):
        got = stats.clustered_mean(v * rotations, np.full(40, float(rotations)))
        assert got == pytest.approx(tuple(want))
    assert np.isnan(stats.clustered_mean([5.0], [2.0]).low)


def test_a_share_of_zero_keeps_an_interval():
    """No stall in any deal: the sandwich estimate has no spread; the interval is Wilson's
    over the clusters, not the point 0."""
    p, lo, hi = stats.clustered_share(np.zeros(100), np.full(100, 4.0))
    assert p == 0 and lo == pytest.approx(0, abs=1e-12) and hi == pytest.approx(stats.wilson_interval(0, 100)[1])


def _rotated_matches(path: Path) -> Path:
    """tests/result_files.match_file's two matches, seated by parameterised bots, as
    rotation 0 of a rotated match run."""
    from result_files import match_file

    f = match_file(path.parent, path.name, **{f"bot_{s}": [BOTS[s]] * 5 for s in range(3)})
    table = pq.read_table(f)
    table = table.add_column(1, "rotation", pa.array(np.zeros(len(table), np.int32)))
    pq.write_table(table, f)
    return f


def test_every_bot_of_a_rotated_match_run_has_a_per_seat_share_and_a_bar(tmp_path):
    """match_bots.png drew only the bots whose label was a bare strategy name (a label with
    parameters had no seat count to divide by): the report now gives every bot's match
    wins per seat held (clustered by match), and the figure a bar and legend entry each."""
    from unosim.analysis import charts

    rep = rp.summarize([_rotated_matches(tmp_path / "m.parquet")])
    t = rep.table
    per = t[(t["section"] == "match_positive_bot") & (t["figure"] == "win_per_seat")].set_index("key")
    assert set(per.index) == set(BOTS)
    # S1: match 0 won by seat 1 (counter), match 1 by seat 0 (the weights bot)
    _check(per.loc["counter"], stats.clustered_share([1.0, 0.0], [1.0, 1.0]))
    fig = charts.plot_match_bots(rep)
    legend = [x.get_text() for x in fig.legends[0].get_texts()]
    assert legend == sorted(BOTS)


def test_the_match_bots_figure_says_nothing_of_a_hands_run_beside(tmp_path):
    """Plotted with a hands run, the match figure carries neither that run's note nor its bots."""
    from result_files import ten_hands, write_result
    from unosim.analysis import charts

    hands = write_result(tmp_path / "h.parquet", ten_hands(), name="hands_only", bots=["greedy"] * 4)
    rep = rp.summarize([hands, _rotated_matches(tmp_path / "m.parquet")])
    rep.notes.append(f"{rep.labels[0]} is incomplete: 1 of 2 chunks")
    fig = charts.plot_match_bots(rep)
    assert "incomplete" not in fig.get_suptitle() and "greedy" not in fig.get_supxlabel()
    assert fig.get_supxlabel().startswith("bots:")
