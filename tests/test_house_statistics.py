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
