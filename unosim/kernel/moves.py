"""Which cards may be played: R5 matching, the R8 Wild Draw Four restriction, H6 groups, H7.

Hands are per-kind counts, so a legality question is a handful of array reads: the 13
kinds of the colour in force, the same rank in the other three colours, the two wilds.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_COLOR, S_HAND0, S_HS0, S_IN, S_TOP
from unosim.kernel.table import color_count, kind_colour, kind_rank, rule
from unosim.rules.cards import DRAW2, N_COLORS, RANKS_PER_COLOR, WILD, WILD_DRAW4
from unosim.rules.codes import MultiPlay, TwoPlayerReverse, WildDraw4
from unosim.rules.params import P_MULTI_PLAY, P_TWO_PLAYER_REVERSE, P_WILD_DRAW4, P_WILD_LAST

RULES = ("R5", "H7", "H14", "E1")


@jit(inline=True)
def wild_allowed(st, P, p, count):
    """H7: with ``wild_last = false`` a wild may not be the last card(s) played."""
    return rule(st, P_WILD_LAST) != 0 or st[S_HS0 + p] > count


@jit(inline=True)
def draw4_honest(st, P, p):
    """R8: Wild Draw Four is legal when free, or when p holds no card of the colour in force;
    E1 ``last_resort``: only when no other card (not even a Wild) may be played."""
    mode = rule(st, P_WILD_DRAW4)
    if mode == WildDraw4.restricted:
        return color_count(st, p, st[S_COLOR]) == 0
    if mode == WildDraw4.free:
        return True
    return no_other_play(st, p)


@jit()
def no_other_play(st, p):
    """E1: p holds nothing playable but Wild Draw Fours (RLCard's rule)."""
    base = S_HAND0 + p * N_KINDS
    if st[base + WILD] > 0 or color_count(st, p, st[S_COLOR]) > 0:
        return False
    top = st[S_TOP]
    if top >= WILD:
        return True
    r = kind_rank(top)
    for c in range(N_COLORS):
        if st[base + c * RANKS_PER_COLOR + r] > 0:
            return False
    return True


@jit(inline=True)
def matches(st, k):
    """R5: k matches the colour in force, or the top card's number/symbol, or is wild."""
    if k >= WILD:
        return True
    if kind_colour(k) == st[S_COLOR]:
        return True
    top = st[S_TOP]
    return top < WILD and kind_rank(k) == kind_rank(top)


@jit(inline=True)
def is_legal(st, P, p, k):
    """A card seat p may play honestly now (B0's notion of legal: no bluffs)."""
    if k == WILD_DRAW4:
        return wild_allowed(st, P, p, 1) and draw4_honest(st, P, p)
    if k == WILD:
        return wild_allowed(st, P, p, 1)
    return matches(st, k)


@jit(inline=True)
def is_draw2(k):
    """A Draw Two of any colour."""
    return k < WILD and kind_rank(k) == DRAW2


@jit()
def group_size(st, P, p, k):
    """H6: the cards p may put down together with k, k included: every copy of k
    (``identical``, and always for a wild), every card of k's number or symbol
    (``same_rank``); 1 without H6.  Under H7 wilds stop one short of p's last card."""
    mode = rule(st, P_MULTI_PLAY)
    base = S_HAND0 + p * N_KINDS
    if mode == MultiPlay.none:
        return 1
    if k >= WILD:
        n = st[base + k]
        if rule(st, P_WILD_LAST) == 0 and n >= st[S_HS0 + p]:
            n = st[S_HS0 + p] - 1
        return max(n, 1)
    if mode == MultiPlay.identical:
        return st[base + k]
    r = kind_rank(k)
    n = 0
    for c in range(N_COLORS):
        n += st[base + c * RANKS_PER_COLOR + r]
    return n


@jit(inline=True)
def reverse_is_skip(st):
    """R9/H14: with 2 players in, a Reverse acts as a Skip (unless ``two_player_reverse = none``)."""
    return st[S_IN] == 2 and rule(st, P_TWO_PLAYER_REVERSE) == TwoPlayerReverse.skip
