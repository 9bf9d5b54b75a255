"""The draw and discard piles: building, drawing and the reshuffle (R11).

Draws are lazy: the pile is kept unordered and each draw takes a uniform card of it,
which is the top card of a shuffled pile in distribution, at one random number a card
drawn instead of one a card in the deck.  The top ``S_PILE_KNOWN`` cards are the
exception: a pile laid out in order (a scenario's) is drawn in that order.
"""

import numpy as np

from unosim.kernel.jit import jit
from unosim.kernel.layout import (EV_DRAW, EV_RESHUFFLE, N_KINDS, S_DISC0, S_DRAW0, S_DRAWN, S_MAX_DRAW, S_NDISC,
    S_NDRAW, S_PILE_KNOWN, S_RESHUFFLES, S_TOTAL)
from unosim.rules.cards import deck_counts
from unosim.rules.params import P_DECKS
from unosim.kernel.rng import below
from unosim.kernel.table import add_card, log_event, rule

RULES = ("R11",)


DECK = np.repeat(np.arange(N_KINDS, dtype=np.int64), deck_counts())
"""One R1 deck, kind by kind: what :func:`build_deck` copies in (a constant to compiled code)."""


@jit()
def build_deck(st, P):
    """Fill the draw pile with the R1 deck, unordered (each draw takes a uniform card)."""
    decks = rule(st, P_DECKS)
    size = len(DECK)
    for d in range(decks):
        lo = S_DRAW0 + d * size
        for i in range(size):
            st[lo + i] = DECK[i]
    n = decks * size
    st[S_NDRAW] = n
    st[S_NDISC] = 0
    st[S_TOTAL] = n
    st[S_PILE_KNOWN] = 0


@jit(inline=True)
def reshuffle(st, log):
    """R11: the draw pile is empty; every discard but the top becomes it, unordered."""
    nd = st[S_NDISC]
    if nd <= 1:
        return
    for i in range(nd - 1):
        st[S_DRAW0 + i] = st[S_DISC0 + i]
    st[S_DISC0] = st[S_DISC0 + nd - 1]
    st[S_NDISC] = 1
    st[S_NDRAW] = nd - 1
    st[S_PILE_KNOWN] = 0
    st[S_RESHUFFLES] += 1
    log_event(st, log, EV_RESHUFFLE, nd - 1, 0, 0)


@jit(inline=True)
def to_top(st, rng):
    """Bring the card the next draw takes to the top of the (non-empty) pile and return it:
    the known top card, or a uniform card of the unordered pile."""
    n = S_DRAW0 + st[S_NDRAW] - 1
    if st[S_PILE_KNOWN] == 0:
        j = S_DRAW0 + below(rng, st[S_NDRAW])
        k = st[j]
        st[j] = st[n]
        st[n] = k
    return st[n]


@jit(inline=True)
def pop(st):
    """Take the top card off the pile (brought there by :func:`to_top`)."""
    st[S_NDRAW] -= 1
    if st[S_PILE_KNOWN] > 0:
        st[S_PILE_KNOWN] -= 1


@jit(inline=True)
def take(st, rng):
    """Take the next card off the (non-empty) pile and return it."""
    k = to_top(st, rng)
    pop(st)
    return k


@jit(inline=True)
def draw_card(st, rng, log, p, reason):
    """One card from the draw pile to seat p, reshuffling lazily; -1 if nothing is left."""
    if st[S_NDRAW] == 0:
        reshuffle(st, log)
        if st[S_NDRAW] == 0:
            return -1
    k = take(st, rng)
    add_card(st, p, k, 1)
    st[S_DRAWN] += 1
    log_event(st, log, EV_DRAW, p, k, reason)
    return k


@jit(inline=True)
def draw_cards(st, rng, log, p, count, reason):
    """A penalty of ``count`` cards, drawn as far as the piles go (R11); returns the number drawn."""
    got = 0
    for _ in range(count):
        if draw_card(st, rng, log, p, reason) < 0:
            break
        got += 1
    if got > st[S_MAX_DRAW]:
        st[S_MAX_DRAW] = got
    return got


@jit(inline=True)
def discard(st, k):
    n = st[S_NDISC]
    st[S_DISC0 + n] = k
    st[S_NDISC] = n + 1

