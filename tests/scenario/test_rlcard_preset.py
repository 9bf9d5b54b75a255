"""The RLCard preset (configs/rlcard.toml, benchmarks/rlcard_rules.md): E5, who starts after
a turned Reverse with 2 players, and the ``rlcard_random`` bot, RLCard's RandomAgent
(docs/bots.md), whose choice is uniform over RLCard's legal action ids.

RLCard itself is not needed: its rules are written down in benchmarks/rlcard_rules.md and
these tests check unosim against them.  Statistical checks use a fixed seed and a
tolerance of ``Z`` standard errors of a binomial count, derived from the sample size.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from unosim.engine import hand as H
from unosim.kernel import layout as L
from unosim.rules import cards
from unosim.rules import params as slots
from unosim.rules.codes import TurnedReverse
from unosim.rules.config import RulesConfig, default_config, load_config, to_params
from unosim.run.runner import play_chunk
from unosim.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
Z = 4.5  # standard errors: a fixed-seed check that a wrong rule fails and the right one passes


def rlcard(**changes: object) -> RulesConfig:
    return load_config(ROOT / "configs" / "rlcard.toml").replace(**changes)


def within(count: int, n: int, p: float) -> bool:
    """``count`` of ``n`` Bernoulli(p) trials is within Z standard errors of n p."""
    return abs(count - n * p) <= Z * math.sqrt(n * p * (1 - p))


def turn_reverse(cfg: RulesConfig, dealer: int, seed: int = 5) -> np.ndarray:
    """Reset, deal, put a Reverse on top of the draw pile, turn the first card (R3)."""
    P = to_params(cfg)
    st = np.zeros(L.N_STATE, np.int64)
    rng = np.array([seed], np.uint64)
    log = np.zeros((4000, L.LOG_WIDTH), np.int64)
    H.reset(st, P, dealer)
    H.build_deck(st, P)
    H.deal(st, P, rng, log)
    n = int(st[L.S_NDRAW])
    pile = st[L.S_DRAW0:L.S_DRAW0 + n]
    i = int(np.flatnonzero(pile % cards.RANKS_PER_COLOR == cards.REVERSE)[0])
    pile[i], pile[n - 1] = pile[n - 1], pile[i]
    st[L.S_PILE_KNOWN] = 1  # the top card is the next one turned (kernel.piles)
    H.turn_first_card(st, P, rng, log)
    assert cards.rank_of(int(st[L.S_TOP])) == cards.REVERSE
    return st


# --------------------------------------------------------------------------- E5
@pytest.mark.parametrize("turned, two_player_reverse, starts", [
    ("as_played", "skip", "dealer"), ("as_played", "none", "first"),
    ("dealer", "skip", "dealer"), ("dealer", "none", "dealer"),
    ("first_player", "skip", "first"), ("first_player", "none", "first"),
])
@pytest.mark.parametrize("dealer", [0, 1])
def test_e5_two_players_turned_reverse_who_starts(turned: str, two_player_reverse: str, starts: str,
                                                  dealer: int) -> None:
    """E5/R3/H14: with 2 players a turned Reverse lets the dealer start (anticlockwise), or
    does nothing (the seat after the dealer starts, clockwise); ``as_played`` follows H14."""
    cfg = default_config(players=2, turned_reverse=turned, two_player_reverse=two_player_reverse)
    st = turn_reverse(cfg, dealer)
    first = dealer if starts == "dealer" else 1 - dealer
    assert st[L.S_CUR] == st[L.S_FIRST] == first
    assert st[L.S_DIR] == (-1 if starts == "dealer" else 1)


@pytest.mark.parametrize("turned", ["as_played", "dealer", "first_player"])
def test_e5_is_only_about_two_players(turned: str) -> None:
    """E5: with 3+ players a turned Reverse lets the dealer start whatever the value (R3)."""
    st = turn_reverse(default_config(players=3, turned_reverse=turned, two_player_reverse="none"), dealer=1)
    assert st[L.S_CUR] == st[L.S_FIRST] == 1 and st[L.S_DIR] == -1


def test_e5_default_is_as_played_and_its_code() -> None:
    assert default_config().turned_reverse == "as_played"
    assert to_params(default_config(turned_reverse="dealer"))[slots.P_TURNED_REVERSE] == TurnedReverse.dealer


def test_e5_rlcard_preset_two_players_seat_1_starts_after_a_turned_reverse() -> None:
    """E4 + E5 in configs/rlcard.toml: seat 1 (the fixed dealer) starts after a turned Reverse,
    as RLCard's ``perform_top_card`` does ((0 - 1) mod 2 = 1); a played Reverse still does
    nothing (H14 ``none``)."""
    cfg = rlcard(players=2)
    assert cfg.turned_reverse == "dealer" and cfg.two_player_reverse == "none"
    st = turn_reverse(cfg, dealer=1)
    assert st[L.S_CUR] == st[L.S_FIRST] == 1
    sc = Scenario.build({0: "R5 G2", 1: "RR G7 B3"}, "R3", cfg=cfg, cur=1)
    sc.step()
    assert sc.top == "RR" and sc.cur == 0


def test_e5_rlcard_preset_first_to_act_shares_at_two_players() -> None:
    """With 2 players RLCard's seat 1 takes the first turn after a turned Skip or Reverse:
    16/104 = 15.4% of hands (benchmarks/rlcard_rules.md, R3); 8/104 = 7.7% without E5."""
    n = 20_000
    for turned, share in [("dealer", 16 / 104), ("as_played", 8 / 104)]:
        out = play_chunk(to_params(rlcard(players=2, turned_reverse=turned)), 11, 0, n, 1)
        assert (out[:, L.O_DEALER] == 1).all()
        ones = int((out[:, L.O_FIRST] == 1).sum())
        assert within(ones, n, share), (turned, ones / n, share)


# --------------------------------------------------------------------------- rlcard_random
def choices(sc: Scenario, trials: int) -> Counter:
    """Seat ``sc.cur`` takes its turn ``trials`` times from the same position (the random
    stream goes on); counts (card played, colour in force after it)."""
    st0 = sc.st.copy()
    seen: Counter = Counter()
    for _ in range(trials):
        sc.st[:] = st0
        sc.step()
        seen[(sc.top, sc.color)] += 1
    return seen


def uniform_over(seen: Counter, expected: dict, trials: int) -> bool:
    return set(seen) <= set(expected) and all(within(seen[a], trials, p) for a, p in expected.items())


HAND = "R5 R5 R7 B5 W W W+4 G2"  # on R5 under RLCard's rules: r-5, r-7, b-5 and 4 Wild actions


def actions_expected(wild_weight: float, card_weight: dict) -> dict:
    total = sum(card_weight.values()) + wild_weight
    out = {(k, c): w / total for k, (w, c) in ((k, (w, k[0])) for k, w in card_weight.items())}
    out.update({("W", c): wild_weight / 4 / total for c in "RYGB"})
    return out


def test_rlcard_random_is_uniform_over_legal_action_ids() -> None:
    """RLCard's RandomAgent: r-5, r-7, b-5, r-wild, y-wild, g-wild, b-wild are 7 action
    ids, 1/7 each; two red 5s are one action, two Wilds are 4 (one per colour); the Wild
    Draw Four is not legal while another card plays (E1)."""
    trials = 14_000
    sc = Scenario.build({0: HAND, 1: "G1 G3 G4"}, "R5", cfg=rlcard(players=2, seats="rlcard_random"), cur=0)
    seen = choices(sc, trials)
    expected = actions_expected(4, {"R5": 1, "R7": 1, "B5": 1})
    assert all(p == pytest.approx(1 / 7) for p in expected.values())
    assert uniform_over(seen, expected, trials), seen


def test_b0_weighs_the_same_position_by_physical_cards() -> None:
    """B0 on the same position: 6 physical legal cards, so the Wild comes up 2/6 (not 4/7)
    and a red 5 2/6: the test above tells the two bots apart."""
    trials = 14_000
    sc = Scenario.build({0: HAND, 1: "G1 G3 G4"}, "R5", cfg=rlcard(players=2, seats="random"), cur=0)
    seen = choices(sc, trials)
    expected = actions_expected(2, {"R5": 2, "R7": 1, "B5": 1})
    assert uniform_over(seen, expected, trials), seen
    assert not uniform_over(seen, actions_expected(4, {"R5": 1, "R7": 1, "B5": 1}), trials)


def test_rlcard_random_wild_draw4_alone_is_four_actions() -> None:
    """Only Wild Draw Fours play (E1): RLCard lists r/y/g/b-wild_draw_4, one colour each."""
    trials = 8_000
    sc = Scenario.build({0: "W+4 W+4 G2", 1: "G1 G3 G4"}, "R5", cfg=rlcard(players=2, seats="rlcard_random"),
                        cur=0)
    seen = choices(sc, trials)
    expected = {("W+4", c): 0.25 for c in "RYGB"}
    assert uniform_over(seen, expected, trials), seen


def test_rlcard_random_under_the_default_rules_and_its_draw() -> None:
    """Under the official rules its legal kinds are R5's (a W+4 only without the colour in
    force, R8); with nothing legal it draws (R6), never voluntarily (R7)."""
    trials = 10_000
    sc = Scenario.build({0: "R9 B5 B5 W+4", 1: "G1 G3 G4"}, "R5", players=2, seats="rlcard_random", cur=0)
    seen = choices(sc, trials)
    assert uniform_over(seen, {("R9", "R"): 0.5, ("B5", "B"): 0.5}, trials), seen
    sc = Scenario.build({0: "G9 B1", 1: "G1 G3 G4"}, "R5", players=2, seats="rlcard_random", cur=0, draw="Y2 Y3")
    sc.step()
    assert sorted(sc.hand(0)) == ["B1", "G9", "Y2"] and sc.top == "R5"


def test_rlcard_random_stacks_by_action_ids() -> None:
    """H1 (no RLCard counterpart): uniform over stackable action ids: R+2 and B+2 one each,
    the Wild Draw Four four."""
    trials = 12_000
    sc = Scenario.build({0: "Y+2 G+2", 1: "R+2 R+2 B+2 W+4 G5"}, "Y+2", players=2, stacking="all",
                        seats="rlcard_random", cur=0)
    sc.play(0, "G+2")
    st0 = sc.st.copy()
    assert sc.cur == 1
    seen: Counter = Counter()
    for _ in range(trials):
        sc.st[:] = st0
        sc.step()
        seen[sc.top] += 1
    assert set(seen) <= {"R+2", "B+2", "W+4"}
    assert within(seen["R+2"], trials, 1 / 6) and within(seen["B+2"], trials, 1 / 6)
    assert within(seen["W+4"], trials, 4 / 6), seen
