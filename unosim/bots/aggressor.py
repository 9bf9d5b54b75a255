"""`aggressor`: aims Skips, Draw Twos and Wild Draw Fours at the player closest to going out.

The *victim* of an attack card (Skip, Draw Two, Wild Draw Four, the H5 +10, a Reverse
with 2 players in) is the next seat.  When the victim is an opponent holding the fewest
cards of all opponents (ties count), the aggressor plays its hardest attack (most cards
to draw, then a Skip); otherwise it keeps its attacks and plays the highest-point other
card, an attack only when nothing else plays.  It bluffs a Wild Draw Four (R8) only at
such a victim.  Names the colour it holds most of, always jumps in (H2), always stacks
(H1: the hardest card at the victim, else the cheapest), sheds every card it may in a
multi-play (H6), swaps with or gives to the opponent with the fewest cards (H4, H5).

Parameters: ``bluff_rate``, ``challenge_rate``, and ``hold_attacks``: when true and
voluntary draws are allowed (R7), it draws rather than waste an attack on a victim who is
not the closest to going out, and keeps a drawn attack card for later (R6).
"""

from numba import njit

from unosim.kernel.layout import N_KINDS, S_HAND0, S_HS0
from unosim.rules.params import P_DRAW2_AMOUNT, P_DRAW4_AMOUNT, P_VOLUNTARY_DRAW
from unosim.kernel.rng import chance
from unosim.kernel.table import next_seat
from .common import (N_CAND, NEG, WILD, WILD_DRAW4, cand, is_attack, is_opponent, legal_copies, legal_view,
                     maybe_bluff, min_opponent_cards, most_held_colour, param, plan_all, points, stack_cand,
                     stack_copies, tie)

BLUFF_RATE = 0
CHALLENGE_RATE = 1
HOLD_ATTACKS = 2


@njit(cache=True, inline="always")
def aiming(st, P, p):
    """Whether the next seat is an opponent with the fewest cards among p's opponents."""
    v = next_seat(st, p)
    return is_opponent(P, p, v) and st[S_HS0 + v] <= min_opponent_cards(st, P, p)


@njit(cache=True, inline="always")
def damage(P, k):
    """Cards an attack makes its victim draw (R9, H5, H18); 0 for a Skip."""
    if k == WILD_DRAW4:
        return P[P_DRAW4_AMOUNT]
    if k < WILD and k % 13 == 12:
        return P[P_DRAW2_AMOUNT]
    if k == 0:
        return 10.0  # only an attack under H5 "draw10"
    return 0.0


@njit(cache=True, inline="always")
def score(st, P, k, aim):
    if is_attack(st, P, k):
        if aim:
            return 1000.0 + damage(P, k)
        return -1000.0 + points(P, k)
    return points(P, k)


@njit(cache=True)
def choose_play(st, P, rng, p):
    aim = aiming(st, P, p)
    if aim and maybe_bluff(st, P, rng, p, param(P, p, BLUFF_RATE)):
        return WILD_DRAW4
    choice = -1
    best = NEG
    ties = 0
    base = S_HAND0 + p * N_KINDS
    c, tr, wok, w4ok = legal_view(st, P, p)
    for i in range(N_CAND):
        k = cand(i, c, tr)
        n = legal_copies(st, base, k, wok, w4ok)
        if n == 0:
            continue
        take, best, ties = tie(rng, score(st, P, k, aim), n, best, ties)
        if take:
            choice = k
    if (choice >= 0 and not aim and best < 0.0 and param(P, p, HOLD_ATTACKS) != 0.0
            and P[P_VOLUNTARY_DRAW] != 0.0):
        return -1
    return choice


@njit(cache=True)
def choose_color(st, P, rng, p):
    return most_held_colour(st, rng, p)


@njit(cache=True)
def play_drawn(st, P, rng, p, k):
    if param(P, p, HOLD_ATTACKS) != 0.0 and is_attack(st, P, k):
        return aiming(st, P, p)
    return True


@njit(cache=True)
def challenge(st, P, rng, p):
    return chance(rng, param(P, p, CHALLENGE_RATE))


@njit(cache=True)
def choose_stack(st, P, rng, p):
    aim = aiming(st, P, p)
    choice = -1
    best = NEG
    ties = 0
    for i in range(5):
        k = stack_cand(i)
        n = stack_copies(st, P, p, k)
        if n == 0:
            continue
        d = damage(P, k)
        take, best, ties = tie(rng, d if aim else -d, n, best, ties)
        if take:
            choice = k
    return choice


@njit(cache=True)
def wants_jump(st, P, rng, p, k):
    return True


@njit(cache=True)
def multi_plan(st, P, rng, p, k):
    return plan_all(st, P, rng, p, k, 99)
