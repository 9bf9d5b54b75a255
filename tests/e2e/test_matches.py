"""Match play and the scoring systems (docs/rules.md S1-S4, R4, R13, H12, H13).

Two layers: the scoring rules on hand-built sequences of hands, checked on the pure-Python
reference scorer ``score_match`` *and* on the compiled per-hand scorer the kernel uses
(``score_rows``); then real match runs, checked hand by hand against the reference, for
dealer carry-over, determinism across workers/chunks/slabs, the cap, and the CLI.
Sizes are small: the whole file runs in seconds once the kernel is compiled.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from match_checks import both, hand, play
from unosim.analysis import report as rp
from unosim.cli import main
from unosim.rules.config import default_config
from unosim.run.matches import HAND_STRIDE, Slabs, match_outcomes, run_matches, score_match
from unosim.run.schema import read_metadata


# --------------------------------------------------------------------------- hand-built sequences


def test_s1_winner_scores_the_other_hands_and_first_to_target_wins_S1() -> None:
    cfg = default_config(players=3, match_target=100)
    seq = [hand(0, [0, 30, 20]), hand(1, [40, 0, 15]), hand(0, [0, 30, 25]), hand(2, [90, 90, 0])]
    ref = both(seq, cfg)
    assert ref.pos_totals.tolist()[:3] == [[50, 0, 0], [50, 55, 0], [105, 55, 0]]
    assert ref.pos_end == 2 and ref.pos_winners == (0,)
    # S1 is frozen once ended while S2 goes on (S3)
    assert ref.pos_totals[3].tolist() == [105, 55, 0]


def test_s2_losers_add_their_own_points_lowest_total_wins_S2() -> None:
    cfg = default_config(players=3, match_target=100, chips_hands=1)
    seq = [hand(0, [0, 30, 20]), hand(1, [40, 0, 15]), hand(0, [0, 30, 25]), hand(2, [90, 10, 0]),
           hand(0, [0, 0, 0])]
    ref = both(seq, cfg)
    assert ref.neg_totals.tolist()[:4] == [[0, 30, 20], [40, 30, 35], [40, 60, 60], [130, 70, 60]]
    assert ref.neg_end == 3 and ref.neg_winners == (2,)
    assert ref.hands == 4, "S3: the match stops when every system has ended; later hands are ignored"


def test_a_total_exactly_at_the_target_ends_the_match_S1_S2() -> None:
    cfg = default_config(players=2, match_target=50, chips_hands=1)
    ref = both([hand(0, [0, 49]), hand(1, [1, 0]), hand(0, [0, 1]), hand(0, [0, 9])], cfg)
    assert ref.pos_totals.tolist() == [[49, 0], [49, 1], [50, 1]]
    assert ref.pos_end == 2 and ref.neg_end == 2 and ref.neg_totals[2].tolist() == [1, 50]
    ref = both([hand(0, [0, 50])], cfg)
    assert ref.pos_end == 0 and ref.neg_end == 0 and ref.hands == 1
    assert ref.pos_winners == (0,) and ref.neg_winners == (0,)


def test_s2_ties_at_the_lowest_total_are_shared_S2() -> None:
    cfg = default_config(players=3, match_target=100)
    ref = both([hand(0, [0, 20, 20]), hand(1, [100, 0, 0])], cfg)
    assert ref.neg_end == 1 and ref.neg_totals[1].tolist() == [100, 20, 20]
    assert ref.neg_winners == (1, 2)


def test_a_stalled_hand_scores_nothing_R13_S3() -> None:
    cfg = default_config(players=3, match_target=100)
    ref = both([hand(0, [0, 10, 10]), hand(-1, [500, 500, 500], stalled=True), hand(2, [5, 5, 0])], cfg)
    assert ref.pos_totals.tolist() == [[20, 0, 0], [20, 0, 0], [20, 0, 10]]
    assert ref.neg_totals.tolist() == [[0, 10, 10], [0, 10, 10], [5, 15, 10]]
    assert ref.pos_end is None and ref.neg_end is None


def test_teams_score_per_team_and_members_show_the_team_total_H12() -> None:
    cfg = default_config(players=4, teams=2, match_target=100)
    # seat 1 goes out: team 1 (seats 1, 3) scores seats 0 and 2; partner 3's cards do not count
    ref = both([hand(1, [10, 0, 20, 45]), hand(2, [0, 30, 0, 40]), hand(3, [60, 1, 50, 0])], cfg)
    assert ref.pos_totals.tolist() == [[0, 30, 0, 30], [70, 30, 70, 30], [70, 140, 70, 140]]
    assert ref.neg_totals.tolist() == [[30, 0, 30, 0], [30, 70, 30, 70], [140, 70, 140, 70]]
    assert ref.pos_end == 2 and ref.pos_winners == (1, 3)
    assert ref.neg_end == 2 and ref.neg_winners == (1, 3)


def test_last_standing_scores_rank_points_and_has_no_S2_H13() -> None:
    cfg = default_config(players=4, finish="last_standing", match_target=5)
    seq = [hand(1, [0, 0, 9, 9], ranks=[2, 1, 4, 3]), hand(0, [0, 0, 9, 9], ranks=[1, 3, 2, 4]),
           hand(1, [0, 0, 0, 0], ranks=[3, 1, 2, 4])]
    ref = both(seq, cfg)
    # n + 1 - 2r with n = 4: 3, 1, -1, -3
    assert ref.pos_totals.tolist() == [[1, 3, -3, -1], [4, 2, -2, -4], [3, 5, -1, -7]]
    assert ref.pos_end == 2 and ref.pos_winners == (1,)
    assert ref.neg_end is None and not ref.neg_totals.any() and ref.neg_winners == ()


def test_last_standing_with_teams_sums_members_rank_points_and_shares_ties_H12_H13() -> None:
    cfg = default_config(players=4, teams=2, finish="last_standing", match_target=4)
    ref = both([hand(0, [0] * 4, ranks=[1, 2, 3, 4]), hand(0, [0] * 4, ranks=[1, 4, 2, 3])], cfg)
    # team 0 = seats 0, 2: 3 - 1 = 2, then 3 + 1 = 4; team 1: 1 - 3 = -2, then -3 - 1 = -4
    assert ref.pos_totals.tolist() == [[2, -2, 2, -2], [6, -6, 6, -6]]
    assert ref.pos_end == 1 and ref.pos_winners == (0, 2)


def test_with_two_players_S1_and_S2_always_agree_S3() -> None:
    cfg = default_config(players=2, match_target=60)
    rng = np.random.default_rng(3)
    seq = [hand(int(w), [0, int(p)] if w == 0 else [int(p), 0]) for w, p in
           zip(rng.integers(0, 2, 40), rng.integers(0, 30, 40))]
    ref = both(seq, cfg)
    assert ref.pos_end == ref.neg_end
    assert (ref.pos_totals[:, 0] == ref.neg_totals[:, 1]).all()
    assert ref.pos_winners == ref.neg_winners


# --------------------------------------------------------------------------- real runs


REAL = {
    "standard": dict(),
    "two_players": dict(players=2, match_target=200),
    "six_players": dict(players=6, match_target=300),
    "teams": dict(players=4, teams=2),
    "teams_of_three": dict(players=6, teams=2, match_target=300),
    "last_standing": dict(players=4, finish="last_standing", match_target=20),
    "last_standing_teams": dict(players=4, teams=2, finish="last_standing", match_target=10),
    "stalls": dict(players=2, max_turns=40, match_target=100),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_kernel_matches_the_reference_scorer_on_real_runs_S1_S2_S3(name: str) -> None:
    cfg = default_config(**REAL[name])
    df = play(cfg, 25, seed=11)
    assert df["match"].tolist() == sorted(df["match"]), "rows in match order"
    assert df["match"].nunique() == 25
    for m, g in df.groupby("match"):
        g = g.reset_index(drop=True)
        assert g["hand_in_match"].tolist() == list(range(len(g)))
        assert (g["hand"] == m * HAND_STRIDE + g["hand_in_match"]).all()
        ref = score_match(g, cfg)
        assert ref.hands == len(g), f"match {m}: the kernel stopped where both systems ended"
        assert ref.pos_end is not None
        assert (ref.neg_end is None) == (cfg.finish == "last_standing")
        pd.testing.assert_frame_equal(g[ref.frame().columns], ref.frame(), check_dtype=False)
        assert not g["capped"].any()


def test_two_player_runs_end_both_systems_on_the_same_hand_S3() -> None:
    df = play(default_config(players=2, match_target=200), 30)
    ends = df[df.pos_end | df.neg_end]
    assert (ends.pos_end & ends.neg_end).all()
    assert (df.pos_total_0 == df.neg_total_1).all()


def dealers(df: pd.DataFrame) -> list[tuple[int, pd.DataFrame]]:
    return [(m, g.reset_index(drop=True)) for m, g in df.groupby("match")]


def test_rotate_first_hand_dealt_by_seat_0_then_the_next_seat_R4_S3() -> None:
    df = play(default_config(players=3, max_turns=40, match_target=150), 20)
    assert df.stalled.any()
    for _, g in dealers(df):
        assert g.dealer[0] == 0
        assert ((g.dealer.shift(-1) - g.dealer) % 3).iloc[:-1].eq(1).all()


def test_winner_deals_next_and_after_a_stall_the_deal_rotates_R4_R13() -> None:
    df = play(default_config(players=2, dealer="winner", max_turns=40, match_target=100), 30)
    assert 0.2 < df.stalled.mean() < 0.8, "the test needs both stalled and decided hands"
    checked = 0
    for _, g in dealers(df):
        assert g.dealer[0] == 0
        for h in range(len(g) - 1):
            want = (g.dealer[h] + 1) % 2 if g.stalled[h] else g.winner[h]
            assert g.dealer[h + 1] == want
            checked += 1
    assert checked > 50


def test_random_dealer_draws_every_deal_from_the_match_stream_R4() -> None:
    df = play(default_config(players=4, dealer="random", match_target=200), 60)
    firsts = df[df.hand_in_match == 0].dealer
    assert set(firsts) == {0, 1, 2, 3}, "S3: with dealer = random the first dealer is a random seat"
    steps = ((df.dealer.shift(-1) - df.dealer) % 4)[df.match.shift(-1) == df.match]
    assert steps.nunique() == 4, "later dealers are random too, not a rotation"
    # the same match replays identically whatever else was played in the chunk
    again = play(default_config(players=4, dealer="random", match_target=200), 5, start=7)
    pd.testing.assert_frame_equal(again.reset_index(drop=True),
                                  df[df.match.between(7, 11)].reset_index(drop=True))


def test_fixed_dealer_is_the_last_seat_every_hand_R4_E4() -> None:
    df = play(default_config(players=3, dealer="fixed", match_target=150), 10)
    assert (df.dealer == 2).all()


def test_a_match_that_cannot_end_is_capped_at_max_hands_R13() -> None:
    # one turn per hand: every hand stalls and scores nothing, so no total ever moves
    df = play(default_config(players=3, max_turns=1), 4, max_hands=6)
    assert len(df) == 24 and df.stalled.all()
    assert df.groupby("match").capped.sum().eq(1).all()
    assert df[df.capped].hand_in_match.eq(5).all()
    assert not (df.pos_end | df.neg_end).any()
    assert not df.filter(like="_total_").to_numpy().any()


def test_same_seed_same_matches_whatever_workers_chunks_and_slabs(tmp_path: Path) -> None:
    cfg = default_config(players=3, dealer="winner", match_target=200)
    a = tmp_path / "a"
    b = tmp_path / "b"
    run_matches(cfg, 40, 5, a, workers=1, chunk_size=40)
    run_matches(cfg, 40, 5, b, workers=2, chunk_size=7)
    da, db = pd.read_parquet(a), pd.read_parquet(b)
    pd.testing.assert_frame_equal(da, db)
    # slabs of 30 rows force many kernel calls, each block giving back unfinished matches
    dc = play(cfg, 40, seed=5, max_hands=30, slabs=Slabs(2, 30, rows=30, blocks=3))
    dd = play(cfg, 40, seed=5, max_hands=30)
    pd.testing.assert_frame_equal(dc, dd)
    # slabs of 4 rows cannot hold a match: they grow until one fits
    grown = Slabs(2, rows=4, blocks=5)
    pd.testing.assert_frame_equal(play(cfg, 40, seed=5, slabs=grown), dd)
    assert 16 <= grown.rows < 10_000
    assert not dd.capped.any()
    pd.testing.assert_frame_equal(dd.drop(columns="capped"), da.drop(columns="capped"))
    # another seed gives other matches
    assert not play(cfg, 40, seed=6).equals(dd)


def test_result_files_metadata_resume_and_outcomes(tmp_path: Path) -> None:
    cfg = default_config(players=4, match_target=300)
    out = tmp_path / "m.parquet"
    s = run_matches(cfg, 30, 2, out, chunk_size=10)
    assert s.matches == 30 and s.pos_matches == 30 and s.neg_matches == 30 and s.capped == 0
    assert s.shares("pos").sum() == pytest.approx(1.0) and s.shares("neg").sum() == pytest.approx(1.0)
    meta = read_metadata(out)
    assert meta["unosim.mode"] == "matches" and meta["unosim.match_target"] == "300"
    full = pd.read_parquet(out)
    assert full.pos_end.dtype == bool and full.capped.dtype == bool and full.match.dtype == np.int64
    (out / "part-000001.parquet").unlink()
    s2 = run_matches(cfg, 30, 2, out, chunk_size=10, resume=True)
    assert s2.chunks_skipped == 2 and s2.matches == 10
    pd.testing.assert_frame_equal(pd.read_parquet(out), full)
    oc = match_outcomes(out)
    assert len(oc) == 30 and oc.pos_hands.notna().all()
    assert oc.filter(like="pos_win_").sum(axis=1).round(9).eq(1).all()
    assert oc.filter(like="neg_win_").sum(axis=1).round(9).eq(1).all()
    assert (oc.hands == oc[["pos_hands", "neg_hands", "chips_hands"]].max(axis=1)).all()
    rep = rp.match_report(out)
    got = rep.figure("match_positive", "matches")["value"].iloc[0]
    assert got == 30
    seat = rep.figure("match_negative_seat", "win_share")["value"].to_numpy()
    expect = oc.filter(like="neg_win_").mean().to_numpy()
    assert seat == pytest.approx(expect)


def test_cli_run_matches_then_report(tmp_path: Path) -> None:
    out = tmp_path / "std.parquet"
    runner = CliRunner()
    r = runner.invoke(main, ["run", "standard", "--matches", "12", "--seed", "4", "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "12 matches to 500" in r.output and "matches/s" in r.output
    assert "S1 positive: mean" in r.output and "S2 negative: mean" in r.output
    assert "S4 chips after 10 hands: mean 10.00 hands per match" in r.output
    assert len(list(out.glob("part-*.parquet"))) == 1, "--chunk-size counts matches when not given"
    r = runner.invoke(main, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert "S1" in r.output and "S2" in r.output and "S4" in r.output


def test_cli_games_and_matches_are_exclusive(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["run", "standard", "--matches", "3", "--hands", "10",
                                  "--out", str(tmp_path / "x")])
    assert r.exit_code == 2
    assert "--matches" in r.output and "--hands" in r.output
    r = CliRunner().invoke(main, ["run", "standard", "--matches", "0", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "--matches" in r.output
