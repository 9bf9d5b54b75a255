"""`color_keeper`: plays from, and names, the colour it holds most of.

Among its legal cards it plays one of the colour it holds most cards of (counting the
card itself), the highest-point one first, so the colour in force stays one it can
follow; a card matching by number or symbol switches to that colour when it is the
bigger one.  Wilds only when nothing else plays (Wild Draw Four first).  It names the
colour it holds most of, plays a legal drawn card (R6), always jumps in (H2), stacks the
Draw Two of its biggest colour before a Wild Draw Four (H1), sheds every card it may in
a multi-play ending on its biggest colour (H6), swaps with or gives to the opponent with
the fewest cards (H4, H5).  Never draws voluntarily.

Parameters: ``bluff_rate``, ``challenge_rate``.
"""

from numba import njit

from unosim.kernel.layout import N_KINDS, S_HAND0
from unosim.kernel.moves import color_count
from unosim.kernel.rng import chance
from .common import (N_CAND, NEG, WILD, WILD_DRAW4, cand, legal_copies, legal_view, maybe_bluff,
                     most_held_colour, param, plan_all, points, stack_cand, stack_copies, tie)

BLUFF_RATE = 0
CHALLENGE_RATE = 1


@njit(cache=True, inline="always")
def score(st, P, p, k):
    if k == WILD_DRAW4:
        return -1.0
    if k == WILD:
        return -2.0
    return 100.0 * color_count(st, p, k // 13) + points(P, k)


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
        take, best, ties = tie(rng, score(st, P, p, k), n, best, ties)
        if take:
            choice = k
    return choice


@njit(cache=True)
def choose_color(st, P, rng, p):
    return most_held_colour(st, rng, p)


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
        take, best, ties = tie(rng, score(st, P, p, k), n, best, ties)
        if take:
            choice = k
    return choice


@njit(cache=True)
def wants_jump(st, P, rng, p, k):
    return True


@njit(cache=True)
def multi_plan(st, P, rng, p, k):
    return plan_all(st, P, rng, p, k, 99)
