"""H4 seven-o and H5 the red zero: the cards that move whole hands (a 0 passes every hand
on, a 7 swaps two, a giveaway red 0 hands all but one card to an opponent) and the +10.

The engine asks the seat's strategy for the opponent (:func:`unosim.engine.effects.opponent_for`)
and calls :func:`hand_move` and the moves below; :func:`silent_last_card` is how these
cards meet H13.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import (EV_GIVEAWAY, EV_PASS_HANDS, EV_SWAP, N_KINDS, S_COLOURS0, S_DIR, S_GIVEAWAYS,
    S_HAND0, S_HS0, S_IN, S_NP, S_PASSES, S_RANK0, S_SWAPS)
from unosim.kernel.rng import below
from unosim.kernel.table import add_card, kind_rank, log_event, next_seat, rule
from unosim.rules.cards import RED_ZERO, WILD
from unosim.rules.codes import RedZero
from unosim.rules.params import P_RED_ZERO, P_SEVEN_O

RULES = ("H4", "H5")

NONE, PASS, SWAP, GIVE = 0, 1, 2, 3
"""What a card does to the hands (:func:`hand_move`)."""


@jit(inline=True)
def is_draw10(st, k):
    """H5 ``draw10``: the red 0 is a draw card."""
    return rule(st, P_RED_ZERO) == RedZero.draw10 and k == RED_ZERO


@jit(inline=True)
def hand_move(st, k):
    """What k, a coloured card that is neither a Skip, a Reverse nor a draw card, does to
    the hands: a giveaway red 0 (H5), else a 0 or a 7 under seven-o (H4), else nothing."""
    if rule(st, P_RED_ZERO) == RedZero.giveaway and k == RED_ZERO:  # the rule first, as in calls.react
        return GIVE
    if rule(st, P_SEVEN_O) != 0:
        r = kind_rank(k)
        if r == 0:
            return PASS
        if r == 7:
            return SWAP
    return NONE


@jit(inline=True)
def silent_last_card(st, k):
    """H13: a card that moves hands (a 0 or 7 under seven-o, a giveaway red 0) does
    nothing as a last card."""
    return k < WILD and not is_draw10(st, k) and hand_move(st, k) != NONE


@jit(inline=True)
def swap_hands(st, p, q):
    a = S_HAND0 + p * N_KINDS
    b = S_HAND0 + q * N_KINDS
    for i in range(N_KINDS):
        t = st[a + i]
        st[a + i] = st[b + i]
        st[b + i] = t
    t = st[S_HS0 + p]
    st[S_HS0 + p] = st[S_HS0 + q]
    st[S_HS0 + q] = t
    t = st[S_COLOURS0 + p]
    st[S_COLOURS0 + p] = st[S_COLOURS0 + q]
    st[S_COLOURS0 + q] = t


@jit(inline=True)
def swap(st, log, p, q):
    """H4 seven: p swaps hands with q (-1: nobody to swap with)."""
    if q >= 0:
        swap_hands(st, p, q)
        st[S_SWAPS] += 1
        log_event(st, log, EV_SWAP, p, q, 0)


@jit()
def pass_hands(st, log):
    """H4 zero: every hand still in moves to the next seat in the direction of play."""
    n = st[S_NP]
    start = -1
    for q in range(n):
        if st[S_RANK0 + q] == 0:
            start = q
            break
    # walk the cycle backwards so each hand moves once: hand(prev) -> seat q
    q = start
    for _ in range(st[S_IN] - 1):
        st[S_DIR] = -st[S_DIR]
        prev = next_seat(st, q)
        st[S_DIR] = -st[S_DIR]
        swap_hands(st, q, prev)
        q = prev
    st[S_PASSES] += 1
    log_event(st, log, EV_PASS_HANDS, st[S_DIR], 0, 0)


@jit()
def give_away(st, rng, log, p, q):
    """H5 giveaway: q (-1: nobody) takes all of p's cards but one kept uniformly at random."""
    left = st[S_HS0 + p]
    if q < 0 or left <= 1:
        return
    base = S_HAND0 + p * N_KINDS
    u = below(rng, left)
    keep = -1
    for i in range(N_KINDS):
        u -= st[base + i]
        if u < 0:
            keep = i
            break
    for i in range(N_KINDS):
        c = st[base + i] - (1 if i == keep else 0)
        if c > 0:
            add_card(st, q, i, c)
            add_card(st, p, i, -c)
    st[S_GIVEAWAYS] += 1
    log_event(st, log, EV_GIVEAWAY, p, q, left - 1)
