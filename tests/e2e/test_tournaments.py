"""The partner-rotation tournament (docs/rules.md T1): schedule, seating, scoring, runs.

Each sentence of T1 has a test: the 4- and 8-player schedules (every player partners every
other exactly once), the seating (first pair at seats 0/2, lower-numbered first), bots
following their players, seat 0 dealing each round's first hand, the per-player scoring
against a slow reference, the champions; then runs: reproducible across workers and chunk
sizes, resumable, on Dask, refused for other table sizes, reported, and traced hand by hand.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from unosim.analysis import report as rp
from unosim.cli import main
from unosim.kernel import layout as L
from unosim.rules.config import default_config
from unosim.run.jobs import RunError, make_job
from unosim.run.runner import run_job
from unosim.run.schema import read_metadata
from unosim.run.store import to_table
from unosim.run.tournaments import (HAND_STRIDE, Tournament, pairs, schedule, score_tournament,
                                    tournament_columns, tournament_outcomes)
from unosim.trace import replay_tournament

BOTS8 = ["counter", "random", "greedy", "random", "wild_saver", "random", "aggressor", "random"]


def rows_of(cfg, count: int, seed: int = 1, start: int = 0, workers: int = 2) -> pd.DataFrame:
    t = Tournament(cfg)
    return to_table(t.play(seed, start, count, workers), tournament_columns(cfg.players), {}).to_pandas()


# --------------------------------------------------------------------------- the schedule


@pytest.mark.parametrize("n, rounds, tables", [(4, 3, 1), (8, 7, 2)])
def test_every_player_partners_every_other_exactly_once_T1(n: int, rounds: int, tables: int) -> None:
    sched = pairs(n)
    assert len(sched) == rounds and all(len(r) == tables for r in sched)
    partnered = [p for r in sched for table in r for p in table]
    assert sorted(partnered) == sorted(itertools.combinations(range(n), 2))
    for r in sched:  # every player plays once per round
        assert sorted(q for table in r for p in table for q in p) == list(range(n))


def test_4_player_rounds_pair_player_0_with_player_r_T1() -> None:
    assert pairs(4) == [[((0, 1), (2, 3))], [((0, 2), (1, 3))], [((0, 3), (1, 2))]]
    # first pair at seats 0 and 2, second at 1 and 3, the lower-numbered player first
    assert schedule(4).tolist() == [[[0, 2, 1, 3]], [[0, 1, 2, 3]], [[0, 1, 3, 2]]]


def test_8_player_round_r_pairs_7_with_r_and_r_plus_minus_k_T1() -> None:
    for r, (a, b) in enumerate(pairs(8)):
        k = [tuple(sorted(((r + i) % 7, (r - i) % 7))) for i in (1, 2, 3)]
        assert a == ((r, 7), k[0]) and b == (k[1], k[2]), "table A: {7, r} and k = 1; table B: k = 2, 3"
    seats = schedule(8)
    assert seats[0].tolist() == [[0, 1, 7, 6], [2, 3, 5, 4]]
    for r in range(7):
        for x in range(2):
            s = seats[r, x]
            assert s[0] < s[2] and s[1] < s[3], "lower-numbered player of each pair at seat 0 / 1"


def test_players_keep_their_bot_as_their_seat_changes_T1() -> None:
    cfg = default_config(players=8).replace(seats=BOTS8)
    t = Tournament(cfg)
    for r in range(7):
        for x in range(2):
            tc = t.table_config(r, x)
            assert tc.players == 4 and tc.teams == 2
            assert [name for name, _ in tc.seats] == [BOTS8[p] for p in schedule(8)[r, x]]


# --------------------------------------------------------------------------- the rows


@pytest.mark.parametrize("n", [4, 8])
def test_rows_scoring_and_champions_match_the_reference_T1(n: int) -> None:
    cfg = default_config(players=n, max_turns=60).replace(hands_per_round=3)
    df = rows_of(cfg, 6, seed=4)
    t = Tournament(cfg)
    assert len(df) == 6 * t.rows_per == 6 * (3 if n == 4 else 14) * 3
    assert df.stalled.any(), "the test wants stalled hands too (they score nothing)"
    for k, g in df.groupby("tournament"):
        g = g.reset_index(drop=True)
        assert (g.hand == k * HAND_STRIDE + g.index).all()
        order = g[["round", "table", "hand_in_round"]].to_numpy().tolist()
        assert order == sorted(order) and g.hand_in_round.max() == 2
        seats = schedule(n)
        for _, row in g.iterrows():
            assert [row[f"player_{s}"] for s in range(4)] == seats[row["round"], row["table"]].tolist()
        first = g[g.hand_in_round == 0]
        assert (first.dealer == 0).all(), "T1: seat 0 deals the round's first hand"
        for i in range(len(g)):
            pos, neg, _, _ = score_tournament(g.iloc[: i + 1], n)
            assert [g.loc[i, f"t_pos_total_{p}"] for p in range(n)] == pos.tolist()
            assert [g.loc[i, f"t_neg_total_{p}"] for p in range(n)] == neg.tolist()
        pos, neg, champ_pos, champ_neg = score_tournament(g, n)
        last = g.iloc[-1]
        assert bool(last.t_end) and g.t_end.sum() == 1
        assert {p for p in range(n) if last[f"champion_pos_{p}"]} == champ_pos
        assert {p for p in range(n) if last[f"champion_neg_{p}"]} == champ_neg
        assert not g.iloc[:-1].filter(like="champion_").to_numpy().any()
        if n == 4:  # every player plays every hand: S1 + S2 is the same for all, so the titles agree
            assert len(set((pos + neg).tolist())) == 1 and champ_pos == champ_neg


def test_t1_scoring_of_one_hand_by_pairs_T1() -> None:
    """S1: each winner of the pair adds the other pair's points; S2: each loser adds both."""
    row = {"stalled": False, "winner": 3, "player_0": 0, "player_1": 2, "player_2": 1, "player_3": 3,
           "points_0": 10, "points_1": 0, "points_2": 7, "points_3": 4}
    pos, neg, champ_pos, champ_neg = score_tournament(pd.DataFrame([row]), 4)
    # seats 1 and 3 (players 2, 3) won: +17 each; seats 0 and 2 (players 0, 1) add 10 + 7
    assert pos.tolist() == [0, 0, 17, 17] and neg.tolist() == [17, 17, 0, 0]
    assert champ_pos == {2, 3} and champ_neg == {2, 3}


def test_same_seed_same_rows_whatever_workers_and_chunks_and_resume(tmp_path: Path) -> None:
    cfg = default_config(players=8).replace(seats=BOTS8, hands_per_round=2)
    a, b = tmp_path / "a", tmp_path / "b"
    run_job(make_job(cfg, "tournaments", 9, 5, chunk_size=9, out=a), workers=1)
    run_job(make_job(cfg, "tournaments", 9, 5, chunk_size=2, out=b), workers=2)
    da, db = pd.read_parquet(a), pd.read_parquet(b)
    pd.testing.assert_frame_equal(da, db)
    assert len(list(b.glob("part-*.parquet"))) == 5
    pd.testing.assert_frame_equal(rows_of(cfg, 3, seed=5, start=4, workers=1).reset_index(drop=True),
                                  da[da.tournament.between(4, 6)].reset_index(drop=True), check_dtype=False)
    # an interrupted run (a lost part, a stale temporary) resumes to the same rows
    (b / "part-000002.parquet").unlink()
    (b / "part-000003.parquet").rename(b / "part-000003.parquet.0123456789ab.tmp")
    s = run_job(make_job(cfg, "tournaments", 9, 5, chunk_size=2, out=b), workers=1)
    assert s.chunks_skipped == 3 and s.units == 4
    pd.testing.assert_frame_equal(pd.read_parquet(b), da)
    meta = read_metadata(b)
    assert meta["unosim.mode"] == "tournaments" and "hands_per_round = 2" in meta["unosim.config"]
    assert not rows_of(cfg, 3, seed=6).equals(rows_of(cfg, 3, seed=5))


def test_other_table_sizes_are_refused_naming_the_option_T1(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="--tournaments: .*4 or 8 players"):
        make_job(default_config(players=6), "tournaments", 3)
    for n in (2, 3, 5, 6):
        r = CliRunner().invoke(main, ["run", str(_config(tmp_path, n)), "--tournaments", "2",
                                      "--out", str(tmp_path / "x")])
        assert r.exit_code == 2, r.output
        assert r.output.count("\n") == 1 and "--tournaments" in r.output and "4 or 8 players" in r.output
        assert f"table.players = {n}" in r.output
    r = CliRunner().invoke(main, ["run", "standard", "--tournaments", "2", "--matches", "3"])
    assert r.exit_code == 2 and "--tournaments" in r.output


def _config(tmp_path: Path, n: int, extra: str = "") -> Path:
    p = tmp_path / f"p{n}.toml"
    p.write_text(f'name = "t{n}"\n[table]\nplayers = {n}\n{extra}')
    return p


def test_cli_run_report_and_trace_of_a_tournament(tmp_path: Path) -> None:
    bots = '[bots]\nseats = ["counter", "random", "random", "random"]\n'
    config = _config(tmp_path, 4, "[tournament]\nhands_per_round = 2\n" + bots)
    out = tmp_path / "t.parquet"
    r = CliRunner().invoke(main, ["run", str(config), "--tournaments", "30", "--seed", "3", "--out", str(out),
                                  "--quiet"])
    assert r.exit_code == 0, r.output
    assert "30 partner-rotation tournaments of 4 players (180 hands)" in r.output
    assert "S1 (highest total) champion share by player" in r.output
    df = pd.read_parquet(out)
    assert df.t_end.dtype == bool and df.champion_pos_0.dtype == bool and df.tournament.dtype == np.int64
    oc = tournament_outcomes(out)
    rep = rp.summarize(out)
    for pre in ("pos", "neg"):
        got = rep.figure(f"tournament_{pre}_player", "win_share")
        assert got["value"].to_numpy() == pytest.approx(oc.filter(like=f"{pre}_win_").mean().to_numpy())
        assert (got["low"] <= got["value"]).all() and (got["value"] <= got["high"]).all()
        bot = rep.figure(f"tournament_{pre}_bot", "win_share").set_index("key")
        assert bot.loc["counter", "value"] == pytest.approx(oc[f"{pre}_win_0"].mean())
        assert bot["value"].sum() == pytest.approx(1.0)
    text = CliRunner().invoke(main, ["report", str(out)]).output
    assert "S1 champion share by player" in text and "player 3" in text and "counter" in text
    # the traced hand is the hand the run played
    cfg = default_config(players=4).replace(hands_per_round=2, seats=["counter", "random", "random", "random"])
    for t, rnd, table, h in ((0, 0, 0, 0), (7, 2, 0, 1), (29, 1, 0, 1)):
        row = df[(df.tournament == t) & (df["round"] == rnd) & (df.table == table) & (df.hand_in_round == h)].iloc[0]
        st, events, tcfg, who = replay_tournament(cfg, 3, t, rnd, table, h)
        assert who == [row[f"player_{s}"] for s in range(4)]
        assert int(st[L.S_WINNER]) == row.winner and int(st[L.S_DEALER]) == row.dealer
        assert int(st[L.S_TURNS]) == row.turns and int(st[L.S_PLAYED]) == row.cards_played
        assert [int(st[L.S_HS0 + s]) for s in range(4)] == [row[f"cards_{s}"] for s in range(4)]
    r = CliRunner().invoke(main, ["trace", str(config), "--seed", "3", "--tournament", "7", "--round", "2",
                                  "--table", "0", "--hand", "1"])
    assert r.exit_code == 0, r.output
    assert "Hand 1 of round 2, table 0, of tournament 7" in r.stdout and "seat 0: player 0 (counter)" in r.stdout
    for bad, words in ((["--round", "3", "--table", "0"], "--round: a 4-player tournament has 3 rounds: give 0 to 2"),
                       (["--round", "0", "--table", "1"], "--table: a 4-player tournament has one table: give 0"),
                       (["--round", "0", "--table", "0", "--hand", "2"], "--hand")):
        r = CliRunner().invoke(main, ["trace", str(config), "--tournament", "0", *bad])
        assert r.exit_code == 2 and words in r.output, r.output


def test_a_local_dask_cluster_plays_the_very_rows_of_a_local_run(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from unosim.run.cluster import connect

    cfg = default_config(players=8).replace(hands_per_round=1)
    job = make_job(cfg, "tournaments", 5, 2, chunk_size=2, out=tmp_path / "dask")
    with connect(local=True, processes=False, n_workers=1, threads_per_worker=2) as client:
        s = run_job(job, client=client)
    assert s.backend == "dask" and s.units == 5 and s.rows == 5 * 14
    run_job(make_job(cfg, "tournaments", 5, 2, chunk_size=5, out=tmp_path / "local"), workers=1)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "dask"), pd.read_parquet(tmp_path / "local"))


def test_equal_champion_shares_at_4_players_are_explained_where_shown(tmp_path: Path) -> None:
    """At 4 players S1 and S2 crown the same players (T1): the run's output and the report
    say why the two tables agree; at 8 players, where they can differ, neither does."""
    four = tmp_path / "t4.parquet"
    r = CliRunner().invoke(main, ["run", str(_config(tmp_path, 4, "[tournament]\nhands_per_round = 1\n")),
                                  "--tournaments", "20", "--out", str(four), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "S1 and S2 agree: at 4 players everyone plays every hand" in r.output
    rep = rp.summarize(four)
    pos, neg = (rep.figure(f"tournament_{p}_player", "win_share")["value"].to_numpy() for p in ("pos", "neg"))
    assert pos == pytest.approx(neg)
    assert any("S1 and S2 crown the same players" in n for n in rep.notes)
    assert "S1 and S2 crown the same players" in CliRunner().invoke(main, ["report", str(four)]).output
    eight = tmp_path / "t8.parquet"
    r = CliRunner().invoke(main, ["run", str(_config(tmp_path, 8, "[tournament]\nhands_per_round = 1\n")),
                                  "--tournaments", "5", "--out", str(eight), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "S1 and S2 agree" not in r.output
    assert not any("crown the same players" in n for n in rp.summarize(eight).notes)
