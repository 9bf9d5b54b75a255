"""`greedy`: sheds the highest-point card first.

Plays the legal card worth the most points (R1: Wild and Wild Draw Four 50, Skip,
Reverse and Draw Two 20, a number its face value), so a hand lost early costs little;
ties uniformly at random over the physical cards.  Never draws voluntarily, always plays
a legal drawn card (R6), always jumps in (H2), stacks its highest-point stackable card
(H1: a Wild Draw Four before a Draw Two), names the colour whose cards in hand are worth
the most points, sheds every card it may in a multi-play (H6), swaps with or gives to
the opponent with the fewest cards (H4, H5).

Parameters: ``bluff_rate`` (chance to play a Wild Draw Four as a bluff when only a
bluff would play it, R8), ``challenge_rate`` (chance to challenge a Wild Draw Four).
"""

from numba import njit

from unosim.kernel.layout import N_KINDS, S_HAND0
from unosim.kernel.rng import chance
from .common import (N_CAND, NEG, WILD_DRAW4, argmax4, cand, colour_points, legal_copies, legal_view,
                     maybe_bluff, param, plan_all, points, stack_cand, stack_copies, tie)

BLUFF_RATE = 0
CHALLENGE_RATE = 1


@njit(cache=True)
def choose_play(st, P, rng, p):
    if maybe_bluff(st, P, rng, p, param(P, p, BLUFF_RATE)):
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
        take, best, ties = tie(rng, points(P, k), n, best, ties)
        if take:
            choice = k
    return choice


@njit(cache=True)
def choose_color(st, P, rng, p):
    return argmax4(rng, colour_points(st, P, p, 0), colour_points(st, P, p, 1),
                   colour_points(st, P, p, 2), colour_points(st, P, p, 3))


@njit(cache=True)
def play_drawn(st, P, rng, p, k):
    return True


@njit(cache=True)
def challenge(st, P, rng, p):
    return chance(rng, param(P, p, CHALLENGE_RATE))


@njit(cache=True)
def choose_stack(st, P, rng, p):
    choice = -1
    best = NEG
    ties = 0
    for i in range(5):
        k = stack_cand(i)
        n = stack_copies(st, P, p, k)
        if n == 0:
            continue
        take, best, ties = tie(rng, points(P, k), n, best, ties)
        if take:
            choice = k
    return choice


@njit(cache=True)
def wants_jump(st, P, rng, p, k):
    return True


@njit(cache=True)
def multi_plan(st, P, rng, p, k):
    return plan_all(st, P, rng, p, k, 99)
