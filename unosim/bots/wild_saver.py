"""`wild_saver`: keeps Wild and Wild Draw Four for when nothing else plays.

Otherwise it is B0: a legal coloured card uniformly among the physical ones.  When only
wilds play it plays the Wild Draw Four first (legal now, R8, and maybe not later), then
the Wild.  It names the colour it holds most of, keeps a drawn wild unless it holds 2
cards or fewer (R6), never jumps in with a wild (H2), stacks a Draw Two before a Wild
Draw Four (H1), plays every coloured copy but a single wild in a multi-play (H6), and
swaps with or gives to the opponent with the fewest cards (H4, H5).

Parameters: ``bluff_rate``, ``challenge_rate`` (as for every strategy), and
``draw_before_wild``: when true and voluntary draws are allowed (R7), it draws instead of
playing a wild while it holds more than 2 cards.
"""

from numba import njit

from unosim.kernel.layout import N_KINDS, S_HAND0, S_HS0
from unosim.rules.params import P_VOLUNTARY_DRAW
from unosim.kernel.rng import chance
from .common import (N_CAND, NEG, WILD, WILD_DRAW4, cand, legal_copies, legal_view, maybe_bluff,
                     most_held_colour, param, plan_all, stack_cand, stack_copies, tie)

BLUFF_RATE = 0
CHALLENGE_RATE = 1
DRAW_BEFORE_WILD = 2
SAVE_HAND = 2  # with this many cards or fewer a wild is played, not saved


@njit(cache=True, inline="always")
def score(k):
    if k == WILD_DRAW4:
        return -1.0
    if k == WILD:
        return -2.0
    return 0.0


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
        take, best, ties = tie(rng, score(k), n, best, ties)
        if take:
            choice = k
    if (choice >= WILD and param(P, p, DRAW_BEFORE_WILD) != 0.0 and P[P_VOLUNTARY_DRAW] != 0.0
            and st[S_HS0 + p] > SAVE_HAND):
        return -1
    return choice


@njit(cache=True)
def choose_color(st, P, rng, p):
    return most_held_colour(st, rng, p)


@njit(cache=True)
def play_drawn(st, P, rng, p, k):
    return k < WILD or st[S_HS0 + p] <= SAVE_HAND


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
        take, best, ties = tie(rng, score(k), n, best, ties)
        if take:
            choice = k
    return choice


@njit(cache=True)
def wants_jump(st, P, rng, p, k):
    return k < WILD


@njit(cache=True)
def multi_plan(st, P, rng, p, k):
    return plan_all(st, P, rng, p, k, 1)
