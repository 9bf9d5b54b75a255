"""Which cards may be played: R5 matching, the R8 Wild Draw Four restriction, H7, H1 stacks.

Hands are per-kind counts, so a legality question is a handful of array reads: the 13
kinds of the colour in force, the same rank in the other three colours, the two wilds.
"""

from numba import njit

from unosim.kernel.table import rule
from unosim.kernel.layout import N_KINDS, S_COLOR, S_HAND0, S_HS0, S_PENDING_KIND, S_TOP
from unosim.rules.params import P_STACKING, P_WILD_DRAW4, P_WILD_LAST

WILD = 52
WILD_DRAW4 = 53
DRAW2_RANK = 12


@njit(cache=True, inline="always")
def color_count(st, p, c):
    """Cards of colour c in seat p's hand (the R8 test counts only these)."""
    base = S_HAND0 + p * N_KINDS + c * 13
    n = 0
    for r in range(13):
        n += st[base + r]
    return n


@njit(cache=True, inline="always")
def wild_allowed(st, P, p, count):
    """H7: with ``wild_last = false`` a wild may not be the last card(s) played."""
    return rule(st, P_WILD_LAST) != 0 or st[S_HS0 + p] > count


@njit(cache=True, inline="always")
def draw4_honest(st, P, p):
    """R8: Wild Draw Four is legal when free, or when p holds no card of the colour in force;
    E1 ``last_resort``: only when no other card (not even a Wild) may be played."""
    mode = rule(st, P_WILD_DRAW4)
    if mode == 0:
        return color_count(st, p, st[S_COLOR]) == 0
    if mode == 1:
        return True
    return no_other_play(st, p)


@njit(cache=True)
def no_other_play(st, p):
    """E1: p holds nothing playable but Wild Draw Fours (RLCard's rule)."""
    base = S_HAND0 + p * N_KINDS
    if st[base + WILD] > 0 or color_count(st, p, st[S_COLOR]) > 0:
        return False
    top = st[S_TOP]
    if top >= WILD:
        return True
    r = top % 13
    for c in range(4):
        if st[base + c * 13 + r] > 0:
            return False
    return True


@njit(cache=True, inline="always")
def matches(st, k):
    """R5: k matches the colour in force, or the top card's number/symbol, or is wild."""
    if k >= WILD:
        return True
    if k // 13 == st[S_COLOR]:
        return True
    top = st[S_TOP]
    return top < WILD and k % 13 == top % 13


@njit(cache=True, inline="always")
def is_legal(st, P, p, k):
    """A card seat p may play honestly now (B0's notion of legal: no bluffs)."""
    if k == WILD_DRAW4:
        return wild_allowed(st, P, p, 1) and draw4_honest(st, P, p)
    if k == WILD:
        return wild_allowed(st, P, p, 1)
    return matches(st, k)


@njit(cache=True)
def can_stack(st, P, k):
    """H1: may k be stacked on the pending penalty card?"""
    mode = rule(st, P_STACKING)
    if mode == 0:
        return False
    pk = st[S_PENDING_KIND]
    if pk < 0:
        return False
    pending_d2 = pk < WILD and pk % 13 == DRAW2_RANK
    k_d2 = k < WILD and k % 13 == DRAW2_RANK
    if pending_d2:
        return k_d2 or (mode >= 2 and k == WILD_DRAW4)
    if pk == WILD_DRAW4:
        return (mode >= 2 and k == WILD_DRAW4) or (mode == 3 and k_d2)
    return False
