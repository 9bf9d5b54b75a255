"""A statistical test per house rule whose effect has a certain direction.

Each compares a variant with the official rules on the same seed (common random numbers
make the difference sharper, but the test does not rely on it): the difference of means
must exceed 5 standard errors of the difference, computed from the samples themselves.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from unosim.rules.config import default_config, to_params
from unosim.kernel import layout as L
from unosim.engine.batch import new_out, play_hands

HANDS = 4000


def rows(**rules) -> np.ndarray:
    out = new_out(HANDS)
    play_hands(to_params(default_config(**rules)), 11, 0, HANDS, out, 4)
    return out


@pytest.fixture(scope="module")
def standard() -> np.ndarray:
    return rows()


def more(a: np.ndarray, b: np.ndarray) -> float:
    """(mean a - mean b) in standard errors of the difference."""
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return (a.mean() - b.mean()) / se if se > 0 else math.inf * np.sign(a.mean() - b.mean())


def test_h1_stacking_raises_the_largest_single_draw(standard):
    st = rows(stacking="draw2_draw4")
    assert more(st[:, L.O_MAX_DRAW], standard[:, L.O_MAX_DRAW]) > 5
    assert (st[:, L.O_LONGEST_STACK] >= 2).mean() > 0.05 and (standard[:, L.O_LONGEST_STACK] <= 1).all()


def test_h3_draw_until_playable_makes_every_turn_a_play(standard):
    up = rows(draw="until_playable")
    share = lambda r: r[:, L.O_PLAYED] / r[:, L.O_TURNS]  # noqa: E731
    assert more(share(up), share(standard)) > 5


def test_h5_plus_ten_means_more_cards_drawn(standard):
    assert more(rows(red_zero="draw10")[:, L.O_DRAWN], standard[:, L.O_DRAWN]) > 5


def test_h10_slaps_add_draws(standard):
    sl = rows(slap_rank=5)
    assert sl[:, L.O_SLAPS].sum() > 0 and more(sl[:, L.O_DRAWN], standard[:, L.O_DRAWN]) > 5


def test_h13_last_standing_hands_last_longer(standard):
    assert more(rows(finish="last_standing")[:, L.O_TURNS], standard[:, L.O_TURNS]) > 5


def test_h18_bigger_draw_twos_mean_more_draws(standard):
    assert more(rows(draw2_amount=4)[:, L.O_DRAWN], standard[:, L.O_DRAWN]) > 5


def test_h2_h4_h11_counters_move(standard):
    """The rules' own counters: zero under the official rules, positive when switched on."""
    assert rows(jump_in="numbers")[:, L.O_JUMP_INS].mean() > 0.5
    so = rows(seven_o=True)
    assert so[:, L.O_SWAPS].mean() > 0.3 and so[:, L.O_PASSES].mean() > 0.3
    assert rows(silent_rank=6, noise_chance=0.2)[:, L.O_NOISES].mean() > 0.1
    for col in (L.O_JUMP_INS, L.O_SWAPS, L.O_PASSES, L.O_NOISES, L.O_SLAPS, L.O_GIVEAWAYS):
        assert standard[:, col].sum() == 0


STRATEGIES = ["greedy", "wild_saver", "color_keeper", "aggressor", "counter", "weights", "rlcard_random"]


@pytest.mark.parametrize("seats", ["random", STRATEGIES])
def test_h25_without_h6_amount_plays_the_rows_of_draw2_draw4(seats):
    """H25: without H6 a play is one card, and (default amounts) "amount" plays exactly as
    "draw2_draw4": the same rows, hand for hand, for B0 and for every other strategy."""
    players = 4 if seats == "random" else len(seats)
    amount = rows(stacking="amount", seats=seats, players=players)
    assert np.array_equal(amount, rows(stacking="draw2_draw4", seats=seats, players=players))
    assert amount[:, L.O_LONGEST_STACK].max() > 1


def test_h25_pair_stacking_acts_and_b0_multi_rate_is_its_rate():
    """configs/pair_stacking.toml's rules: B0 at multi_rate 0.5 multi-plays, and stacks
    grow; at multi_rate 1 it multi-plays more often than at 0.5 (every chance taken)."""
    half = rows(stacking="amount", multi_play="identical", seats={"strategy": "random", "multi_rate": 0.5})
    full = rows(stacking="amount", multi_play="identical", seats={"strategy": "random", "multi_rate": 1.0})
    assert half[:, L.O_MULTI_PLAYS].mean() > 0.3 and half[:, L.O_LONGEST_STACK].max() >= 3
    assert more(full[:, L.O_MULTI_PLAYS], half[:, L.O_MULTI_PLAYS]) > 5


def test_b0_multi_rate_is_the_chance_of_playing_the_group():
    """B0's multi_rate: holding R5 R5 on R3 it plays the pair with probability multi_rate;
    tolerance 4.5 standard errors of a proportion over n decisions."""
    from unosim.scenario import Scenario
    n, rate = 1000, 0.3
    pairs = 0
    for seed in range(n):
        sc = Scenario.build({0: "R5 R5 B9"}, top="R3", multi_play="identical", seed=seed,
                            seats={"strategy": "random", "multi_rate": rate})
        pairs += sc.step()[L.S_PLAYED] == 2
    assert abs(pairs / n - rate) < 4.5 * math.sqrt(rate * (1 - rate) / n)
