"""The reference bot B0 (`random`), exactly as docs/rules.md defines it.

B0's decision functions are called directly on fixed positions many times (each call
advances the same random stream), and its choice frequencies are compared with the
contract's by chi-square at the 0.1% level: uniform over the *physical* legal cards, a
uniform colour, uniform stacks and opponents.  Its "never" clauses (no bluff, no
challenge, no voluntary draw) are checked on real hands as well.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy import stats

from unosim.rules import cards
from unosim.bots import policy
from unosim.bots import random as b0
from unosim.rules.config import default_config
from unosim.kernel import layout as L
from unosim.scenario import Scenario

CALLS = 8000


def chi2_ok(counts: Counter, probs: dict[str, float], calls: int = CALLS) -> None:
    """Frequencies match ``probs`` (chi-square, p > 0.001) and nothing else was chosen."""
    assert set(counts) <= set(probs), f"chose outside the allowed set: {set(counts) - set(probs)}"
    names = sorted(probs)
    observed = np.array([counts.get(n, 0) for n in names], float)
    expected = np.array([probs[n] * calls for n in names])
    p = stats.chisquare(observed, expected).pvalue
    assert p > 1e-3, f"observed {dict(zip(names, observed))}, expected {dict(zip(names, expected))}"


def choices(sc: Scenario, fn, *args, calls: int = CALLS) -> Counter:
    """Call a B0 decision function ``calls`` times on the same position."""
    return Counter(fn(sc.st, sc.P, sc.rng, *args) for _ in range(calls))


def test_b0_uniform_over_physical_legal_cards() -> None:
    """B0: two red 5s are twice as likely as one blue 5 (or the one Wild); G7 is illegal."""
    sc = Scenario.build({0: "R5 R5 B5 G7 W"}, top="Y5")
    got = choices(sc, b0.choose_play, 0)
    chi2_ok(Counter({cards.name(k): v for k, v in got.items()}), {"R5": 0.5, "B5": 0.25, "W": 0.25})


def test_b0_uniform_includes_a_legal_wild_draw4() -> None:
    """B0 + R8: with no yellow card the W+4 is legal and one of the physical cards."""
    sc = Scenario.build({0: "R5 R5 B5 W+4 G7"}, top="Y5")
    got = choices(sc, b0.choose_play, 0)
    chi2_ok(Counter({cards.name(k): v for k, v in got.items()}), {"R5": 0.5, "B5": 0.25, "W+4": 0.25})


@pytest.mark.parametrize("hand, top, color", [("Y1 R5 W+4 W+4", "Y5", None), ("B2 W+4", "W", "blue"),
                                              ("G+2 W+4", "G+2", None)])
def test_b0_never_plays_an_illegal_wild_draw4(hand: str, top: str, color: str | None) -> None:
    """B0/R8: it never bluffs: holding the colour in force, the W+4 is never chosen."""
    sc = Scenario.build({0: hand}, top=top, color=color)
    got = choices(sc, b0.choose_play, 0, calls=2000)
    assert cards.WILD_DRAW4 not in got and -1 not in got


def test_b0_draws_only_without_a_legal_card() -> None:
    sc = Scenario.build({0: "G7 B3 W+4"}, top="R5", color="red")
    assert set(choices(sc, b0.choose_play, 0, calls=200)) == {cards.WILD_DRAW4}
    sc = Scenario.build({0: "G7 B3"}, top="R5")
    assert set(choices(sc, b0.choose_play, 0, calls=200)) == {-1}


def test_b0_colour_after_a_wild_is_uniform() -> None:
    sc = Scenario.build({0: "R1 R2 R3 G4"}, top="Y5")  # whatever it holds
    got = choices(sc, policy.choose_color, 0)
    chi2_ok(Counter({cards.COLOR_LETTERS[c]: v for c, v in got.items()}), {c: 0.25 for c in "RYGB"})


def test_b0_plays_a_legal_drawn_card_whenever_allowed() -> None:
    """B0/R6: under play_drawn = "may" it plays the legal drawn card every time."""
    sc = Scenario.build({0: "G7 B3"}, top="R5")
    assert all(policy.play_drawn(sc.st, sc.P, sc.rng, 0, k) for k in range(54))
    for seed in range(20):
        sc = Scenario.build({0: "G7 B3", 1: "Y1 Y2"}, top="R5", draw="W+4", seed=seed).step()
        assert sc.top == "W+4" and sc.count(0) == 2


def test_b0_never_challenges() -> None:
    """B0/R8: it never challenges a Wild Draw Four, not even a bluff."""
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9"}, top="R5", draw="G1 G2 G3 G4")
    sc.play(0, "W+4")
    assert sc[L.S_BLUFF] == 1
    assert not any(policy.challenge(sc.st, sc.P, sc.rng, 1) for _ in range(200))
    sc.step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(1) == 6


@pytest.mark.slow
def test_b0_never_bluffs_nor_challenges_in_real_hands() -> None:
    """B0 over 150 whole hands stepped one move at a time: every W+4 a player puts down is
    legal (S_BLUFF = 0 while it is pending), and no challenge is ever made."""
    from unosim.rules.config import to_params
    from unosim.engine import batch as B
    from unosim.engine import hand as H
    from unosim.kernel.rng import stream_start

    cfg = default_config()
    P = to_params(cfg)
    w4_plays = 0
    for index in range(150):
        st = np.zeros(L.N_STATE, np.int64)
        rng = np.array([stream_start(4, B.STREAM_HANDS, index)], np.uint64)
        log = np.zeros((1 << 16, L.LOG_WIDTH), np.int64)
        H.reset(st, P, int(B.hand_dealer(P, rng, index)))
        H.build_deck(st, P)
        H.deal(st, P, rng, log)
        H.turn_first_card(st, P, rng, log)
        while not st[L.S_DONE]:
            mark = int(st[L.S_NLOG])
            H.step(st, P, rng, log)
            for ev, a, k, _ in log[mark:st[L.S_NLOG]]:
                if ev == L.EV_PLAY and a >= 0 and k == cards.WILD_DRAW4 and not st[L.S_DONE]:
                    w4_plays += 1
                    assert st[L.S_BLUFF] == 0 and st[L.S_PENDING] > 0
        assert st[L.S_CHALLENGES] == 0
    assert w4_plays > 20  # the check above did run


def test_b0_stacks_uniformly_over_physical_stackable_cards() -> None:
    """B0/H1: two G+2 twice as likely as one B+2; the W+4 is not stackable under "draw2"."""
    sc = Scenario.build({0: "R+2 R1", 1: "G+2 G+2 B+2 W+4 R1"}, top="R5", stacking="draw2")
    sc.play(0, "R+2")
    got = choices(sc, policy.choose_stack, 1)
    chi2_ok(Counter({cards.name(k): v for k, v in got.items()}), {"G+2": 2 / 3, "B+2": 1 / 3})
    sc = Scenario.build({0: "R+2 R1", 1: "R1 W+4"}, top="R5", stacking="draw2").play(0, "R+2")
    assert set(choices(sc, policy.choose_stack, 1, calls=100)) == {-1}


def test_b0_opponent_is_uniform() -> None:
    """B0/H4/H5: the opponent for a swap or giveaway is uniform among the others."""
    sc = Scenario.build({0: "R1", 1: "G1", 2: "B1", 3: "Y1"}, top="R5")
    got = choices(sc, policy.choose_opponent, 2)
    chi2_ok(Counter({str(q): v for q, v in got.items()}), {"0": 1 / 3, "1": 1 / 3, "3": 1 / 3})
