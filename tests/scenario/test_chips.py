"""S4 chips in every match run (docs/rules.md S4, with S1-S3, H12, H13, R13).

Hand-built sequences check each sentence of S4 on the reference scorer and the compiled
per-hand scorer together; real runs check the invariant (balance = S1 total - S2 total),
the match length (S1, S2 and S4 all end), the reports (S4 section, the agreement of the
systems) and that `unosim trace --match` replays the very hand of the run.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from match_checks import both, hand, play

from unosim.analysis import report as rp
from unosim.cli import main
from unosim.rules.config import default_config
from unosim.run.matches import match_outcomes, run_matches, running_totals, score_match
from unosim.trace import replay_match
from unosim.kernel import layout as L


def test_s4_each_loser_pays_the_winner_its_own_points_and_balances_sum_to_zero_S4() -> None:
    cfg = default_config(players=3, match_target=1000, chips_hands=3)
    ref = both([hand(0, [0, 30, 20]), hand(1, [40, 0, 15]), hand(2, [5, 5, 0])], cfg)
    assert ref.chips_totals.tolist() == [[50, -30, -20], [10, 25, -35], [5, 20, -25]]
    assert (ref.chips_totals.sum(axis=1) == 0).all()


def test_s4_ends_after_chips_hands_hands_highest_balance_wins_ties_shared_S4() -> None:
    cfg = default_config(players=3, match_target=1000, chips_hands=2)
    ref = both([hand(0, [0, 10, 10]), hand(1, [30, 0, 0]), hand(2, [50, 50, 0])], cfg)
    assert ref.chips_end == 1 and ref.chips_totals.tolist()[:2] == [[20, -10, -10], [-10, 20, -10]]
    assert ref.chips_winners == (1,)
    assert ref.chips_totals[2].tolist() == [-10, 20, -10], "frozen once S4 has ended"
    tie = both([hand(0, [0, 10, 10]), hand(1, [20, 0, 0])], cfg)
    assert tie.chips_totals[-1].tolist() == [0, 10, -10] and tie.chips_winners == (1,)
    tie = both([hand(0, [0, 10, 0]), hand(2, [0, 10, 0])], cfg)
    assert tie.chips_totals[-1].tolist() == [10, -20, 10] and tie.chips_winners == (0, 2)


def test_s4_a_stalled_hand_moves_nothing_but_counts_as_a_hand_S4_R13() -> None:
    cfg = default_config(players=3, match_target=1000, chips_hands=2)
    ref = both([hand(-1, [80, 80, 80], stalled=True), hand(1, [5, 0, 7]), hand(0, [0, 9, 9])], cfg)
    assert ref.chips_end == 1 and ref.chips_totals.tolist()[:2] == [[0, 0, 0], [-5, 12, -7]]


def test_s4_teams_pay_team_to_team_and_every_member_shows_the_balance_S4_H12() -> None:
    cfg = default_config(players=4, teams=2, match_target=1000, chips_hands=2)
    ref = both([hand(1, [10, 0, 20, 45]), hand(2, [0, 30, 0, 40])], cfg)
    # team 1 (seats 1, 3) wins: team 0 pays 10 + 20; then team 0 wins: team 1 pays 30 + 40
    assert ref.chips_totals.tolist() == [[-30, 30, -30, 30], [40, -40, 40, -40]]
    assert ref.chips_winners == (0, 2)


def test_s4_under_last_standing_a_hand_moves_rank_points_S4_H13() -> None:
    cfg = default_config(players=4, finish="last_standing", match_target=100, chips_hands=2)
    ref = both([hand(1, [0, 0, 9, 9], ranks=[2, 1, 4, 3]), hand(0, [0, 0, 9, 9], ranks=[1, 3, 2, 4])], cfg)
    assert ref.chips_totals.tolist() == [[1, 3, -3, -1], [4, 2, -2, -4]]
    assert ref.chips_winners == (0,)


@pytest.mark.parametrize("kw", [dict(), dict(players=2, match_target=200), dict(players=6, match_target=300),
                                dict(players=4, teams=2), dict(players=2, max_turns=40, match_target=100)])
def test_balance_is_the_s1_total_minus_the_s2_total_after_any_number_of_hands_S4(kw) -> None:
    cfg = default_config(**kw)
    df = play(cfg, 12, seed=3)
    checked = 0
    for _, g in df.groupby("match"):
        g = g.reset_index(drop=True)
        pos, neg, chips = running_totals(g, cfg)
        assert (chips == pos - neg).all() and (chips.sum(axis=1) == 0).all()
        # the file's columns: before any system ends none is frozen, so the identity holds there too
        open_rows = g.index < g.index[g.pos_end | g.neg_end | g.chips_end].min() + 1
        cols = [f"chips_total_{s}" for s in range(cfg.players)]
        got = g.loc[open_rows, cols].to_numpy()
        want = (g.loc[open_rows, [f"pos_total_{s}" for s in range(cfg.players)]].to_numpy()
                - g.loc[open_rows, [f"neg_total_{s}" for s in range(cfg.players)]].to_numpy())
        assert (got == want).all()
        checked += len(g)
    assert checked > 50


@pytest.mark.parametrize("kw", [dict(), dict(players=4, teams=2), dict(players=4, finish="last_standing",
                                                                       match_target=20)])
def test_a_match_goes_on_until_s1_s2_and_s4_have_all_ended_S3_S4(kw) -> None:
    cfg = default_config(chips_hands=40, **kw)
    df = play(cfg, 15, seed=8)
    for m, g in df.groupby("match"):
        g = g.reset_index(drop=True)
        ref = score_match(g, cfg)
        assert ref.chips_end == 39 and g.chips_end.sum() == 1 and bool(g.chips_end.iloc[39])
        ends = [e for e in (ref.pos_end, ref.neg_end, ref.chips_end) if e is not None]
        assert len(g) == max(ends) + 1
        pd.testing.assert_frame_equal(g[ref.frame().columns], ref.frame(), check_dtype=False)


def test_reports_have_an_S4_section_and_say_how_often_two_systems_agree(tmp_path: Path) -> None:
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    run_matches(default_config(players=3, match_target=200), 40, 1, a, workers=1)
    run_matches(default_config(players=2, match_target=200, chips_hands=5), 30, 1, b, workers=1)
    rep = rp.summarize(a)
    assert rep.figure("match_chips", "matches")["value"].iloc[0] == 40
    seat = rep.figure("match_chips_seat", "win_share")
    assert seat["value"].sum() == pytest.approx(1.0)
    oc = match_outcomes(a)
    assert seat["value"].to_numpy() == pytest.approx(oc.filter(like="chips_win_").mean().to_numpy())
    agree = rep.figure("match_agreement", "same_winner").set_index("key")
    assert list(agree.index) == ["S1/S2", "S1/S4", "S2/S4"]
    same = (oc.pos_win_0 >= 0)  # every match ended every system here
    for key, (x, y) in {"S1/S2": ("pos", "neg"), "S1/S4": ("pos", "chips"), "S2/S4": ("neg", "chips")}.items():
        wx = oc.filter(like=f"{x}_win_").to_numpy() > 0
        wy = oc.filter(like=f"{y}_win_").to_numpy() > 0
        want = (wx == wy).all(axis=1)[same].mean()
        assert agree.loc[key, "value"] == pytest.approx(want)
        assert agree.loc[key, "low"] <= want <= agree.loc[key, "high"] and agree.loc[key, "n"] == 40
    two = rp.summarize(b).figure("match_agreement", "same_winner").set_index("key")
    assert two.loc["S1/S2", "value"] == 1.0, "S3: with 2 players S1 and S2 always agree"
    text = CliRunner().invoke(main, ["report", str(a)]).output
    assert "Matches, S4 chips" in text and "crown the same winner" in text and "S1/S4" in text
    from matplotlib.container import BarContainer

    from unosim.analysis import plots

    fig = plots.plot_match_winners(rep, path=tmp_path / "mw.png")
    assert len([c for c in fig.axes[0].containers if isinstance(c, BarContainer)]) == 3, "S1, S2, S4"
    cmp = CliRunner().invoke(main, ["compare", str(a), str(b)])
    assert cmp.exit_code == 0 and "S4 match winner share by seat" in cmp.output and "S2/S4" in cmp.output


def test_trace_of_a_match_hand_is_the_hand_the_run_played(tmp_path: Path) -> None:
    cfg = default_config(players=3, dealer="winner", match_target=150)
    df = play(cfg, 6, seed=9)
    for m, h in ((0, 0), (2, 3), (5, int(df[df.match == 5].hand_in_match.max()))):
        row = df[(df.match == m) & (df.hand_in_match == h)].iloc[0]
        st, events = replay_match(cfg, 9, m, h)
        assert int(st[L.S_WINNER]) == row.winner and int(st[L.S_DEALER]) == row.dealer
        assert int(st[L.S_TURNS]) == row.turns and int(st[L.S_DRAWN]) == row.cards_drawn
        assert [int(st[L.S_HS0 + s]) for s in range(3)] == [row[f"cards_{s}"] for s in range(3)]
        assert events[-1][0] == L.EV_END
    config = tmp_path / "c.toml"
    config.write_text('[table]\nplayers = 3\ndealer = "winner"\n[scoring]\nmatch_target = 150\n')
    r = CliRunner().invoke(main, ["trace", str(config), "--seed", "9", "--match", "2", "--hand", "3"])
    assert r.exit_code == 0, r.output
    row = df[(df.match == 2) & (df.hand_in_match == 3)].iloc[0]
    assert "Hand 3 of match 2" in r.stdout and f"dealer seat {row.dealer}" in r.stdout
    if row.winner >= 0:
        assert f"Seat {row.winner} wins the hand." in r.stdout
    last = int(df[df.match == 2].hand_in_match.max())
    r = CliRunner().invoke(main, ["trace", str(config), "--seed", "9", "--match", "2", "--hand", str(last + 1)])
    assert r.exit_code == 2 and "--hand" in r.output and f"{last + 1} hands" in r.output
