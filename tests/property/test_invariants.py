"""Invariants of every official-rules config, checked after every kernel step (R1, R2,
R11-R13, O1), and over whole batches of rows.

The harness (``tests/harness.py``) plays real deals one ``hand.step`` at a time and also
requires each stepwise hand to end in exactly the row the parallel batch kernel writes
for it.  Configs: the standard table, every table size, two decks, every official
variant switch, tiny and huge hands, small ``max_turns``; then hypothesis mixes them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from harness import (InvariantError, Rules, Snapshot, batch_rows, check_config, check_rows, check_state,
                     check_voluntary, play_hand_checked)
from unosim.rules import cards
from unosim.rules.config import KEYS, RulesConfig, default_config
from unosim.kernel import layout as L

BLUFFER = {"strategy": "greedy", "bluff_rate": 0.8, "challenge_rate": 0.5}

# id -> config keys changed from the official defaults
CONFIGS: dict[str, dict] = {
    "standard": {},
    **{f"players{n}": {"players": n} for n in range(2, 11)},
    "decks2_players10": {"decks": 2, "players": 10},
    "play_drawn_must": {"play_drawn": "must"},
    "play_drawn_never": {"play_drawn": "never"},
    "forced_play_H8": {"voluntary_draw": False},
    "wild_draw4_free": {"wild_draw4": "free"},
    "max_turns_1": {"max_turns": 1},
    "max_turns_12": {"max_turns": 12},
    "uno_forget_half": {"uno_forget": 0.5},
    "uno_forget_caught_half": {"uno_forget": 1.0, "uno_caught": 0.5},
    "hand_size_1": {"hand_size": 1},
    "hand_size_26_nearly_all_dealt": {"hand_size": 26},           # 104 of 108 dealt
    "players10_hand_size_10": {"players": 10, "hand_size": 10},
    "decks2_hand_size_21_players10": {"decks": 2, "players": 10, "hand_size": 21},  # 210 of 216
    "number_only_H16": {"first_card": "number_only"},
    "first_draw2_plays_H15": {"first_draw2_skips": False},
    "two_players_reverse_none_H14": {"players": 2, "two_player_reverse": "none"},
    "dealer_random": {"dealer": "random"},
    "zero_points_10_H17": {"zero_points": 10},
    "amounts_H18": {"draw2_amount": 3, "draw4_amount": 6, "challenge_extra": 1},
    "amounts_zero_H18": {"draw2_amount": 0, "draw4_amount": 0, "challenge_extra": 0},
    # R8 challenges in whole hands: B0 never bluffs or challenges, these greedy seats do
    "bluffs_and_challenges_R8": {"seats": [BLUFFER, "random", BLUFFER, "random"]},
    "bluffs_and_challenges_H9": {"seats": [BLUFFER, BLUFFER], "players": 2, "challenge_success_skip": True},
    # R7: every strategy's voluntary draws against the hand it held (harness.check_voluntary)
    "strategies_R7": {"seats": ["greedy", {"strategy": "wild_saver", "draw_before_wild": True}, "color_keeper",
                                {"strategy": "aggressor", "hold_attacks": True}]},
    "strategies_R7_more": {"seats": ["counter", {"strategy": "weights", "draw_score": 0.0}, "rlcard_random",
                                     "random"]},
}


def config(name: str, changes: dict) -> RulesConfig:
    return default_config(**changes).replace(name=name)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_o1_invariants_after_every_step(name: str) -> None:
    """R1/R2/R11/R12/R13/O1: cards conserved per kind, counters explained by events, the
    hand ends in time with an empty-handed winner; stepwise == batch row."""
    cfg = config(name, CONFIGS[name])
    for seed in (11, 2**40 + 3):
        results = check_config(cfg, seed, hands=4)
        assert all(r.st[L.S_DONE] for r in results)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_o1_batch_rows_are_consistent(name: str) -> None:
    """Over 1500 batch hands: stalled iff winner == -1, the winner holds no cards, points
    agree with cards, cards in hands == dealt + drawn - played."""
    cfg = config(name, CONFIGS[name])
    out = batch_rows(cfg, 5, 0, 1500)
    check_rows(out, cfg)
    assert (out[:, L.O_HAND] == np.arange(1500)).all()
    if cfg.max_turns >= 1000:
        assert (out[:, L.O_STALLED] == 0).mean() > 0.99  # R13 stalls are rare under the official rules


def test_r13_tiny_max_turns_stalls_most_hands() -> None:
    """R13: with max_turns = 3 nearly every hand stalls, and every stall took exactly 3 turns."""
    cfg = default_config(max_turns=3)
    out = batch_rows(cfg, 1, 0, 500)
    check_rows(out, cfg)
    assert out[:, L.O_STALLED].sum() >= 490
    assert (out[:, L.O_TURNS] <= 3).all()


def test_o1_max_draw_counts_turn_draws(standard: RulesConfig) -> None:
    """max_draw is "the most cards drawn at once" (README output schema): a hand with any
    card drawn has max_draw >= 1.  About 1.5% of official hands draw only on turns."""
    out = batch_rows(standard, 1, 0, 5000)
    drew = out[:, L.O_DRAWN] > 0
    assert (out[drew, L.O_MAX_DRAW] >= 1).all()


def test_harness_is_not_vacuous() -> None:
    """A harness that cannot fail proves nothing: corrupted states and rows must be caught."""
    cfg = default_config()
    rules, deck = Rules.of(cfg), cards.deck_counts(1)
    st = play_hand_checked(cfg, 1, 0).st.copy()
    check_state(st, rules, deck, "intact")
    st[L.S_HAND0 + 0 * L.N_KINDS + 5] += 1  # a card out of nowhere, hand size not updated
    with pytest.raises(InvariantError, match="hand sizes"):
        check_state(st, rules, deck, "corrupt")
    st[L.S_HS0] += 1  # the sizes agree again, but the colour counts do not
    with pytest.raises(InvariantError, match="colour counts"):
        check_state(st, rules, deck, "corrupt")
    st[L.S_COLOURS0] += 1 << (L.COLOUR_BITS * (5 // 13))  # they agree, but 109 cards are in play
    with pytest.raises(InvariantError, match="conserved"):
        check_state(st, rules, deck, "corrupt")
    out = batch_rows(cfg, 1, 0, 5)
    out[2, L.O_STALLED] = 1
    with pytest.raises(InvariantError, match="stalled iff"):
        check_rows(out, cfg)


def test_r7_check_sees_voluntary_draws_and_catches_a_missed_one() -> None:
    """R7: the strategies that may decline a legal card do so in these hands, so the check
    compares real counts; a draw holding a legal card left uncounted fails it."""
    name = "strategies_R7"
    results = check_config(config(name, CONFIGS[name]), 11, hands=4)
    assert sum(int(r.row[L.O_VOL_DRAWS]) for r in results) > 0
    cfg = default_config()
    st = play_hand_checked(cfg, 1, 0).st.copy()
    st[L.S_CUR], st[L.S_COLOR], st[L.S_TOP] = 0, 0, cards.parse("R5")
    st[L.S_HAND0 + cards.parse("R7")] += 1  # seat 0 holds a red card
    before = Snapshot.of(st, 4)
    draw = np.array([[L.EV_DRAW, 0, cards.parse("G1"), L.DR_TURN]])
    check_voluntary(st, Rules.of(cfg), before, 1, draw, "counted")
    with pytest.raises(InvariantError, match="R7"):
        check_voluntary(st, Rules.of(cfg), before, 0, draw, "missed")


def test_r7_at_a_search_seat() -> None:
    """R7 at a search seat, whose state carries its rollout bot's code (here one that never
    declines a legal card): its draws are still checked against the hand it held."""
    cfg = config("search_R7", {"seats": ["search", "counter"], "players": 2})
    for seed in (11, 2**40 + 3):
        assert all(r.st[L.S_DONE] for r in check_config(cfg, seed, hands=4))


# --------------------------------------------------------------------------- hypothesis
def _choices(key: str) -> tuple:
    return KEYS[key].choices


@hs.composite
def official_configs(draw: hs.DrawFn) -> dict:
    """Any mix of the official rules' keys and their variants (no H1-H13 house rules)."""
    players = draw(hs.integers(2, 10))
    decks = draw(hs.sampled_from([1, 2]))
    max_hand = min(30, (108 * decks - 1) // players)
    changes = {
        "players": players,
        "decks": decks,
        "hand_size": draw(hs.sampled_from(sorted({1, 2, 7 if max_hand >= 7 else 1, max_hand}))),
        "dealer": draw(hs.sampled_from(_choices("dealer"))),
        "first_card": draw(hs.sampled_from(_choices("first_card"))),
        "first_draw2_skips": draw(hs.booleans()),
        "play_drawn": draw(hs.sampled_from(_choices("play_drawn"))),
        "voluntary_draw": draw(hs.booleans()),
        "wild_draw4": draw(hs.sampled_from(_choices("wild_draw4"))),
        "challenge": draw(hs.booleans()),
        "challenge_success_skip": draw(hs.booleans()),
        "two_player_reverse": draw(hs.sampled_from(_choices("two_player_reverse"))),
        "uno_forget": draw(hs.sampled_from([0.0, 0.3, 1.0])),
        "uno_caught": draw(hs.sampled_from([0.0, 0.5, 1.0])),
        "max_turns": draw(hs.sampled_from([1, 2, 7, 40, 5000])),
        "draw2_amount": draw(hs.integers(0, 5)),
        "draw4_amount": draw(hs.integers(0, 8)),
        "zero_points": draw(hs.sampled_from([0, 10])),
    }
    for key in ("drawn_match", "drawn_draw4"):  # RLCard-style variants, when the registry has them
        if key in KEYS:
            changes[key] = draw(hs.sampled_from(_choices(key)))
    return changes


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=official_configs(), seed=hs.integers(0, 2**63 - 1), start=hs.integers(0, 10**6))
def test_o1_invariants_hypothesis(changes: dict, seed: int, start: int) -> None:
    """The same invariants over random mixes of official-rule switches, seeds and hands."""
    cfg = config("hypothesis", changes)
    check_config(cfg, seed, hands=2, start=start)
