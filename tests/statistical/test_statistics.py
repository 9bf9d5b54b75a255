"""Statistical checks of whole batches, with tolerances derived from the sample size.

Every test plays at most 20,000 hands (under a second once compiled) with fixed seeds,
so it is deterministic; the thresholds are what an honest test at that size allows:
5 standard errors for agreement (a false alarm would need a 5-sigma fluke), and for the
first player's edge a one-sided 3-sigma bound where the measured effect is about 7.5
sigma (measured before writing the test: 6 players, 20k hands, share 0.187 vs 1/6,
SE 0.0026).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from unosim.rules.config import default_config, to_params
from unosim.kernel import layout as L
from unosim.run.runner import play_chunk


def hands(players: int, seed: int, count: int, start: int = 0, **rules: object) -> np.ndarray:
    return play_chunk(to_params(default_config(players=players, **rules)), seed, start, count, 2)


def wins_by_seat_from_dealer(out: np.ndarray, n: int) -> np.ndarray:
    won = out[out[:, L.O_STALLED] == 0]
    return np.bincount((won[:, L.O_WINNER] - won[:, L.O_DEALER]) % n, minlength=n)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_winner_seat_shares_stable_across_disjoint_halves(players: int) -> None:
    """Win shares by seat relative to the dealer are not uniform in UNO (the first player to
    act has an edge), but two disjoint samples (different seeds, 10k hands each) must agree:
    every seat within 5 two-sample SE, and a chi-square homogeneity test with p > 1e-4."""
    a = wins_by_seat_from_dealer(hands(players, 101, 10_000), players)
    b = wins_by_seat_from_dealer(hands(players, 202, 10_000), players)
    na, nb = a.sum(), b.sum()
    assert na > 9_900 and nb > 9_900  # stalls are rare under the official rules
    pooled = (a + b) / (na + nb)
    se = np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    z = (a / na - b / nb) / se
    assert (np.abs(z) < 5).all(), z
    assert stats.chi2_contingency(np.vstack([a, b]))[1] > 1e-4


def test_mean_turns_agree_between_seeds() -> None:
    """Mean hand length (O1 turns) from two seeds agrees within 5 Welch standard errors."""
    a = hands(4, 11, 10_000)[:, L.O_TURNS].astype(float)
    b = hands(4, 12, 10_000)[:, L.O_TURNS].astype(float)
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert abs(a.mean() - b.mean()) < 5 * se, (a.mean(), b.mean(), se)
    assert 30 < a.mean() < 80  # a sanity band for 4 B0 players (measured: about 50)


def test_first_player_to_act_wins_more_than_one_in_n() -> None:
    """The first player to act (O1 first_player) wins more than 1/n of the decided hands:
    one-sided z > 3 over 20k hands of 6 players (the effect measured is about z = 7.5)."""
    n = 6
    out = hands(n, 7, 20_000)
    won = out[out[:, L.O_STALLED] == 0]
    share = (won[:, L.O_WINNER] == won[:, L.O_FIRST]).mean()
    z = (share - 1 / n) / math.sqrt((1 / n) * (1 - 1 / n) / len(won))
    assert z > 3, (share, z)


def test_r3_first_player_frequencies_match_the_deck() -> None:
    """R3 in batch: the turned card is uniform over the 104 cards other than Wild Draw
    Fours (they go back), so the first player is the dealer after a Reverse (8/104), the
    seat after next after a Skip or Draw Two (16/104), else the seat after the dealer
    (80/104).  Chi-square over 20k hands of 4 players, p > 1e-4."""
    n = 4
    out = hands(n, 31, 20_000)
    rel = (out[:, L.O_FIRST] - out[:, L.O_DEALER]) % n
    observed = np.array([(rel == 0).sum(), (rel == 1).sum(), (rel == 2).sum()])
    assert observed.sum() == 20_000
    expected = np.array([8, 80, 16]) / 104 * 20_000
    assert stats.chisquare(observed, expected).pvalue > 1e-4, observed


def test_r4_dealer_rotation_and_random_dealer_shares() -> None:
    """R4 over 20k batch hands: "rotate" gives each seat exactly 1/n of the deals, and
    "random" each seat within 5 SE of 1/n."""
    n = 5
    rot = hands(n, 3, 20_000)[:, L.O_DEALER]
    assert (np.bincount(rot, minlength=n) == 4_000).all()
    rnd = hands(n, 3, 20_000, dealer="random")[:, L.O_DEALER]
    share = np.bincount(rnd, minlength=n) / 20_000
    se = math.sqrt(0.2 * 0.8 / 20_000)
    assert (np.abs(share - 0.2) < 5 * se).all(), share
