"""The draw and discard piles: building, shuffling, drawing with the lazy reshuffle (R11)."""

from unosim.kernel.jit import jit
from unosim.kernel.layout import (EV_DRAW, EV_RESHUFFLE, N_KINDS, S_DISC0, S_DRAW0, S_DRAWN, S_MAX_DRAW,
    S_NDISC, S_NDRAW, S_RESHUFFLES, S_TOTAL)
from unosim.rules.cards import RANKS_PER_COLOR, WILD
from unosim.rules.params import P_DECKS
from unosim.kernel.rng import below
from unosim.kernel.table import add_card, log_event, rule

RULES = ("R11",)


@jit()
def shuffle(st, lo, n, rng):
    """Fisher-Yates over st[lo:lo+n]."""
    for i in range(n - 1, 0, -1):
        j = lo + below(rng, i + 1)
        t = st[lo + i]
        st[lo + i] = st[j]
        st[j] = t


@jit()
def build_deck(st, P, rng):
    """Fill the draw pile with the R1 deck and shuffle it."""
    decks = rule(st, P_DECKS)
    n = 0
    for _ in range(decks):
        for k in range(N_KINDS):
            copies = 2
            if k >= WILD:
                copies = 4
            elif k % RANKS_PER_COLOR == 0:
                copies = 1
            for _c in range(copies):
                st[S_DRAW0 + n] = k
                n += 1
    st[S_NDRAW] = n
    st[S_NDISC] = 0
    st[S_TOTAL] = n
    shuffle(st, S_DRAW0, n, rng)


@jit(inline=True)
def reshuffle(st, rng, log):
    """R11: every discard but the top becomes the new draw pile."""
    nd = st[S_NDISC]
    if nd <= 1:
        return
    nr = st[S_NDRAW]
    # the draw pile is empty when this is called, but keep any rest underneath
    for i in range(nd - 1):
        st[S_DRAW0 + nr + i] = st[S_DISC0 + i]
    top = st[S_DISC0 + nd - 1]
    st[S_DISC0] = top
    st[S_NDISC] = 1
    shuffle(st, S_DRAW0 + nr, nd - 1, rng)
    st[S_NDRAW] = nr + nd - 1
    st[S_RESHUFFLES] += 1
    log_event(st, log, EV_RESHUFFLE, nd - 1, 0, 0)


@jit(inline=True)
def draw_card(st, rng, log, p, reason):
    """One card from the draw pile to seat p, reshuffling lazily; -1 if nothing is left."""
    if st[S_NDRAW] == 0:
        reshuffle(st, rng, log)
        if st[S_NDRAW] == 0:
            return -1
    n = st[S_NDRAW] - 1
    k = st[S_DRAW0 + n]
    st[S_NDRAW] = n
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

