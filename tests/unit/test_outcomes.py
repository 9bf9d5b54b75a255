"""The one outcomes module (unosim/run/outcomes.py): winners, shared credit, positions from
the dealer (R4), per-bot re-indexing, on small hand-made arrays (S1 highest total, S2
lowest, S4 highest balance; ties share the credit); and the per-match and per-tournament
tables built on it.  Compiles nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from unosim.run import outcomes
from unosim.run.matches import match_outcomes
from unosim.run.tournaments import tournament_outcomes

TOTALS = np.array([[120, 80, 500, 20],    # seat 2 alone
                   [510, 40, 510, 510],   # a three-way tie at the top
                   [0, 0, 0, 0]])         # everyone tied


def test_winners_are_the_seats_at_the_best_total_and_ties_crown_every_tied_seat() -> None:
    assert outcomes.winners(TOTALS, "max").tolist() == [[False, False, True, False], [True, False, True, True],
                                                        [True, True, True, True]]
    # S2: the lowest total wins
    assert outcomes.winners(TOTALS, "min").tolist() == [[False, False, False, True], [False, True, False, False],
                                                        [True, True, True, True]]
    assert [outcomes.BEST[s] for s in ("pos", "neg", "chips")] == ["max", "min", "max"]


def test_ties_share_the_credit_exactly() -> None:
    credit = outcomes.credit(outcomes.winners(TOTALS, "max"))
    assert credit.dtype == np.float64
    assert credit[0].tolist() == [0, 0, 1, 0]
    assert credit[1].tolist() == [1 / 3, 0, 1 / 3, 1 / 3] and credit[2].tolist() == [0.25] * 4
    # each of k winners gets exactly 1/k (the nearest float), so a row adds up to one match
    for row, k in zip(credit, (1, 3, 4)):
        assert [x for x in row if x] == [1 / k] * k
    assert credit.sum(axis=1) == pytest.approx([1, 1, 1], abs=1e-15)
    # a row without a winner (a tournament's flags, never all zero in a result) gives nothing
    assert outcomes.credit(np.array([[0, 0, 0]])).tolist() == [[0.0, 0.0, 0.0]]
    # bool flags and integer flags give the same credit
    flags = np.array([[1, 0, 1, 0], [0, 0, 0, 1]])
    assert outcomes.credit(flags).tolist() == outcomes.credit(flags.astype(bool)).tolist()


def test_a_sole_winner_and_the_mask_of_a_tie() -> None:
    win = outcomes.winners(TOTALS, "max")
    assert outcomes.sole_winner(win).tolist() == [2, -1, -1]
    assert outcomes.winner_masks(win).tolist() == [0b0100, 0b1101, 0b1111]
    # the same tie under two systems gives the same mask; another tie another mask
    assert outcomes.winner_masks(outcomes.winners(TOTALS[:1], "min")).tolist() == [0b1000]


def test_positions_count_clockwise_from_the_dealer() -> None:
    """R4: position 0 is the dealer, 1 the player after the dealer (who plays first)."""
    winner = np.array([0, 1, 2, 3, 0, 2])
    dealer = np.array([3, 3, 3, 3, 0, 1])
    assert outcomes.from_dealer(winner, dealer, 4).tolist() == [1, 2, 3, 0, 0, 1]
    assert outcomes.wins_from_dealer(winner, dealer, 4).tolist() == [2, 2, 1, 1]
    # a tournament table seats four whatever the players: positions are of its seats
    assert outcomes.wins_from_dealer(np.array([3]), np.array([0]), 4).tolist() == [0, 0, 0, 1]


def test_match_credit_by_position_after_the_first_dealer() -> None:
    credit = np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]])
    first_dealer = np.array([0, 2])
    # match 0: seat 1 wins, one after the dealer; match 1: seats 0 and 2 share, positions 1 and 0
    assert outcomes.credit_from_dealer(credit, first_dealer).tolist() == [0.5, 1.5, 0.0]


def test_credit_by_config_seat_follows_the_rotation() -> None:
    """In rotation r the bot the config puts at seat i sits at seat (i + r) mod n."""
    credit = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    rotation = np.array([0, 1, 2])
    # row 1: seat 0 holds config seat 2 (2 + 1 = 0 mod 3); row 2: seats 1, 2 hold config seats 2, 0
    assert outcomes.by_instance(credit, rotation).tolist() == [1.5, 0.0, 1.5]


def test_standings_put_the_winner_first() -> None:
    assert outcomes.standings(TOTALS[:1], "max").tolist() == [[500, 120, 80, 20]]
    assert outcomes.standings(TOTALS[:1], "min").tolist() == [[20, 80, 120, 500]]


def test_empty_input_gives_empty_outcomes_and_zero_counts() -> None:
    none = np.zeros((0, 3), np.int64)
    win = outcomes.winners(none)
    assert win.shape == (0, 3) and outcomes.credit(win).shape == (0, 3)
    assert outcomes.sole_winner(win).shape == (0,) and outcomes.winner_masks(win).shape == (0,)
    empty = np.zeros(0, np.int64)
    assert outcomes.wins_from_dealer(empty, empty, 3).tolist() == [0, 0, 0]
    assert outcomes.credit_from_dealer(np.zeros((0, 3)), empty).tolist() == [0.0, 0.0, 0.0]
    assert outcomes.by_instance(np.zeros((0, 3)), empty).tolist() == [0.0, 0.0, 0.0]
    assert outcomes.standings(none).shape == (0, 3)


def test_an_unknown_way_to_crown_is_refused() -> None:
    with pytest.raises(ValueError, match="best: 'highest' is not one of max, min"):
        outcomes.winners(TOTALS, "highest")
    with pytest.raises(ValueError, match="best: 'lowest' is not one of max, min"):
        outcomes.standings(TOTALS, "lowest")


def test_the_per_match_table_shares_ties_and_marks_unended_systems() -> None:
    """Two 2-player matches: match 0 ends S1 with seat 1 ahead and S2 tied; match 1 ends
    neither S2 nor S4 (capped)."""
    rows = pd.DataFrame({
        "match": [0, 0, 1], "hand_in_match": [0, 1, 0], "dealer": [1, 0, 1], "capped": [False, False, True],
        "pos_end": [False, True, True], "neg_end": [False, True, False], "chips_end": [True, False, False],
        "pos_total_0": [10, 200, 300], "pos_total_1": [0, 500, 300],
        "neg_total_0": [0, 50, 0], "neg_total_1": [10, 50, 0],
        "chips_total_0": [10, 10, 0], "chips_total_1": [-10, -10, 0],
    })
    out = match_outcomes(rows).set_index("match")
    assert out["first_dealer"].tolist() == [1, 1] and out["hands"].tolist() == [2, 1]
    assert out["pos_winner"].tolist() == [1, -1] and out["pos_win_1"].tolist() == [1.0, 0.5]
    assert out["neg_winner"].tolist() == [-1, -2] and out["neg_win_0"].tolist() == [0.5, 0.0]
    assert out["chips_winner"].tolist() == [0, -2] and out["chips_hands"].iloc[0] == 1
    assert np.isnan(out["chips_hands"].iloc[1])


def test_the_per_tournament_table_shares_titles() -> None:
    rows = pd.DataFrame({"tournament": [0, 0, 1], "t_end": [False, True, True],
                         **{f"champion_pos_{p}": [0, int(p == 2), int(p in (0, 3))] for p in range(4)},
                         **{f"champion_neg_{p}": [0, 1, int(p == 1)] for p in range(4)}})
    out = tournament_outcomes(rows)
    assert out["pos_champions"].tolist() == [1, 2] and out["neg_champions"].tolist() == [4, 1]
    assert out["pos_win_2"].tolist() == [1.0, 0.0] and out["pos_win_3"].tolist() == [0.0, 0.5]
    assert out["neg_win_0"].tolist() == [0.25, 0.0]
