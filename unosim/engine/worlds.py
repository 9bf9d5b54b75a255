"""The worlds a search seat samples (:mod:`unosim.engine.search`): the cards it cannot see,
counted from what it saw, dealt afresh into the other hands and the draw pile, uniformly
or within the limits the table's void knowledge puts on each hand (``voids``).

Nothing here reads where the hidden cards lie: the pool is built from counts, and the
limits from public facts (tests/property/test_search.py permutes the hidden cards and checks that
neither the worlds nor the choice move).
"""

from __future__ import annotations

import numpy as np

from unosim.kernel.jit import jit
from unosim.kernel.layout import (N_KINDS, N_STATE, S_BLUFF, S_DISC0, S_DRAW0, S_HAND0, S_HS0, S_JUMPERS, S_LOGCAP,
    S_NDISC, S_NDRAW, S_NLOG, S_NP, S_PILE_KNOWN, S_SCR0)
from unosim.kernel.rng import below
from unosim.kernel.table import kind_colour, kind_rank, recount_colours, rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, WILD
from unosim.rules.params import MAX_CARDS, MAX_PLAYERS, P_DECKS

N_GROUPS = N_COLORS + RANKS_PER_COLOR + 2
"""Void groups: a colour, a rank (Wild and Wild Draw Four are ranks 13 and 14)."""
SCRATCH = MAX_CARDS + (MAX_PLAYERS + 1) * (N_GROUPS + 1)
"""int64 of scratch :func:`sample_world_within` needs."""


@jit()
def unknown_pool(st, P, p, pool):
    """The cards seat p cannot see, in kind order, into ``pool``: the deck (R1, H20) minus
    p's hand minus the discard pile, from counts alone.  Returns how many."""
    counts = np.zeros(N_KINDS, np.int64)
    decks = rule(st, P_DECKS)
    for k in range(N_KINDS):
        copies = 4 if k >= WILD else (1 if kind_rank(k) == 0 else 2)
        counts[k] = copies * decks - st[S_HAND0 + p * N_KINDS + k]
    for i in range(st[S_NDISC]):
        counts[st[S_DISC0 + i]] -= 1
    m = 0
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            pool[m] = k
            m += 1
    return m


@jit()
def sample_world(st, p, pool, m, rng, w):
    """A world for seat p into ``w``: the state ``st`` with the other hands (sizes kept)
    and the draw pile dealt afresh from the ``m`` unknown cards in ``pool``, shuffled with
    ``rng``; nothing is logged in it and the per-seat scratch starts empty."""
    world_base(st, w)
    shuffle(pool, 0, m, rng)
    deal_in_order(st, p, pool, m, w)


@jit(inline=True)
def world_base(st, w):
    """``w`` = ``st`` with nothing logged, the per-seat scratch empty and no seat's jump-in
    waited for (a playout never searches; the hidden cards are then dealt over it)."""
    for i in range(N_STATE):
        w[i] = st[i]
    w[S_JUMPERS] = 0
    w[S_LOGCAP] = 0
    w[S_NLOG] = 0
    w[S_BLUFF] = 0
    w[S_PILE_KNOWN] = 0  # the pile is dealt afresh
    for q in range(MAX_PLAYERS):
        w[S_SCR0 + q] = 0


@jit(inline=True)
def shuffle(pool, lo, hi, rng):
    """Fisher-Yates on ``pool[lo:hi]``."""
    for i in range(hi - 1, lo, -1):
        j = lo + below(rng, i - lo + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t


@jit()
def deal_in_order(st, p, pool, m, w):
    """The cards of ``pool`` in order: each other seat's hand (its size), then the draw pile."""
    n = st[S_NP]
    at = 0
    for q in range(n):
        if q == p:
            continue
        base = S_HAND0 + q * N_KINDS
        for k in range(N_KINDS):
            w[base + k] = 0
        for _ in range(st[S_HS0 + q]):
            if at < m:
                w[base + pool[at]] += 1
            at += 1
    for i in range(st[S_NDRAW]):
        w[S_DRAW0 + i] = pool[at] if at < m else 0
        at += 1
    recount_others(w, n, p)


@jit(inline=True)
def group_colour(k):
    """The colour group of kind k (-1 for a wild)."""
    return kind_colour(k) if k < WILD else -1


@jit(inline=True)
def group_rank(k):
    """The rank group of kind k: N_COLORS + its rank (Wild 13, Wild Draw Four 14)."""
    return N_COLORS + (kind_rank(k) if k < WILD else RANKS_PER_COLOR + k - WILD)


@jit(inline=True)
def _count(cnt, o, k, d):
    """Owner o's group counts += d for one card of kind k."""
    b = o * N_GROUPS
    if k < WILD:
        cnt[b + group_colour(k)] += d
    cnt[b + group_rank(k)] += d


@jit(inline=True)
def _within(cnt, caps, o, k):
    """Owner o's counts of kind k's groups are within its limits."""
    b = o * N_GROUPS
    if k < WILD and cnt[b + group_colour(k)] > caps[b + group_colour(k)]:
        return False
    return cnt[b + group_rank(k)] <= caps[b + group_rank(k)]


@jit()
def sample_world_within(st, p, pool, m, rng, w, caps, scr):
    """:func:`sample_world` with each other seat q's hand holding at most
    ``caps[q * N_GROUPS + g]`` cards of group g; returns 1, or 0 when this deal could not
    meet the limits and the world is the unconstrained one (a bluff, a voluntary draw or
    a declined drawn card can make the limits wrong).

    How close to uniform among the deals that meet the limits: the seats with a binding
    limit are dealt first, each taking the first cards of a fresh shuffle that fit (for
    limits of 0, the voids, that is exactly uniform for the seat), the rest in a fresh
    shuffle to the other seats and the draw pile; then ``m`` steps of a Metropolis chain
    (swap a card of a bound seat with any card of another owner when both still fit: a
    symmetric proposal, so its stationary law is the uniform one) undo most of what
    dealing the seats one after the other favours (a seat dealt first takes its share of
    a colour another seat may not hold; exact uniformity would weigh its hands by the
    completions left).  With no binding limit this is the plain uniform deal.  ``scr``: MAX_CARDS owners
    (a seat, MAX_PLAYERS for the draw pile), then per owner its group counts, then per
    owner 1 if it has a binding limit."""
    world_base(st, w)
    n = st[S_NP]
    cnt0 = MAX_CARDS
    bind0 = cnt0 + (MAX_PLAYERS + 1) * N_GROUPS
    for i in range(cnt0, bind0 + MAX_PLAYERS + 1):
        scr[i] = 0
    total = st[S_NDRAW]
    for q in range(n):
        if q == p:
            continue
        total += st[S_HS0 + q]
        for g in range(N_GROUPS):
            if caps[q * N_GROUPS + g] < st[S_HS0 + q]:
                scr[bind0 + q] = 1
    shuffle(pool, 0, m, rng)
    ok = total == m
    at = 0
    for bound in (1, 0):
        for q in range(n):
            if q == p or scr[bind0 + q] != bound or not ok:
                continue
            h = st[S_HS0 + q]
            start = at
            if bound:
                i = at
                while at - start < h and i < m:
                    k = pool[i]
                    _count(scr[cnt0:], q, k, 1)
                    if _within(scr[cnt0:], caps, q, k):
                        pool[i] = pool[at]
                        pool[at] = k
                        at += 1
                    else:
                        _count(scr[cnt0:], q, k, -1)
                    i += 1
                ok = at - start == h
                shuffle(pool, at, m, rng)
            else:
                at += h
            for i in range(start, min(start + h, m)):
                scr[i] = q
    if not ok:
        shuffle(pool, 0, m, rng)
        deal_in_order(st, p, pool, m, w)
        return 0
    for i in range(at, m):
        scr[i] = MAX_PLAYERS
    cnt = scr[cnt0:bind0]
    nb = 0  # the bound seats hold pool[:nb]: each swap moves one of their cards
    for q in range(n):
        if q != p and scr[bind0 + q]:
            nb += st[S_HS0 + q]
    for _ in range(m if nb > 0 else 0):
        i = below(rng, nb)
        j = below(rng, m)
        oi = scr[i]
        oj = scr[j]
        if oi == oj:
            continue
        a = pool[i]
        b = pool[j]
        fits = True
        if scr[bind0 + oi]:
            _count(cnt, oi, a, -1)
            _count(cnt, oi, b, 1)
            fits = _within(cnt, caps, oi, b)
        if fits and scr[bind0 + oj]:
            _count(cnt, oj, b, -1)
            _count(cnt, oj, a, 1)
            fits = _within(cnt, caps, oj, a)
            if not fits:
                _count(cnt, oj, b, 1)
                _count(cnt, oj, a, -1)
        if not fits:
            if scr[bind0 + oi]:
                _count(cnt, oi, a, 1)
                _count(cnt, oi, b, -1)
            continue
        pool[i] = b
        pool[j] = a
    for q in range(n):
        if q != p:
            base = S_HAND0 + q * N_KINDS
            for k in range(N_KINDS):
                w[base + k] = 0
    d = 0
    for i in range(m):
        o = scr[i]
        if o < MAX_PLAYERS:
            w[S_HAND0 + o * N_KINDS + pool[i]] += 1
        else:
            w[S_DRAW0 + d] = pool[i]
            d += 1
    recount_others(w, n, p)
    return 1


@jit(inline=True)
def recount_others(w, n, p):
    """The colour counts of every hand but p's, dealt afresh kind by kind."""
    for q in range(n):
        if q != p:
            recount_colours(w, q)


__all__ = ["N_GROUPS", "SCRATCH", "deal_in_order", "group_colour", "group_rank", "sample_world", "sample_world_within",
           "shuffle", "unknown_pool", "world_base"]
