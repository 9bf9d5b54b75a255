"""Seats, cards in hands and the trace log: the small helpers every rule uses."""

import numpy as np
from numba import types
from unosim.kernel.jit import jit
from numba.extending import overload

from unosim.kernel.layout import (COLOUR_BITS, LOG_WIDTH, N_KINDS, S_COLOURS0, S_DIR, S_HAND0, S_HS0, S_LOGCAP,
    S_NLOG, S_NP, S_RANK0, S_RULE0, S_SCORE0)
from unosim.rules.cards import RANKS_PER_COLOR
from unosim.rules.params import MAX_PLAYERS


@jit(inline=True)
def kind_colour(k):
    """The colour (0-3) of a coloured kind k >= 0.  Unsigned: numba's floor division of a
    signed integer adds a sign fix-up to every use."""
    return np.int64(np.uint64(k) // np.uint64(RANKS_PER_COLOR))


@jit(inline=True)
def kind_rank(k):
    """The number or symbol (0-12) of a coloured kind k >= 0, unsigned as :func:`kind_colour`."""
    return np.int64(np.uint64(k) % np.uint64(RANKS_PER_COLOR))


@jit(inline=True)
def next_seat(st, p):
    """The seat after p in the direction of play, passing over seats already out (H13)."""
    n = st[S_NP]
    d = st[S_DIR]
    q = wrap(p + d, n)
    while st[S_RANK0 + q] != 0:
        q = wrap(q + d, n)
    return q


@jit(inline=True)
def rule(st, i):
    """Rule switch i (a ``P_*`` index below ``P_SCORE0``) as the integer load_rules()
    copied into the state.  This is the one way compiled code reads a switch during a hand,
    compared with its named code: ``rule(st, P_STACKING) == Stacking.draw2``.  Only code
    with no hand state reads ``P`` itself: load_rules() (which makes the copy), the dealer
    choice before a hand and the match scoring after it.  Probabilities (``uno_forget``,
    ``uno_caught``, ``noise_chance``) and bot parameters are fractions and stay in P."""
    return st[S_RULE0 + i]


@jit(inline=True)
def wrap(q, n):
    """q mod n for -n <= q < 2n, without a division (this runs several times a turn)."""
    if q >= n:
        return q - n
    if q < 0:
        return q + n
    return q


@jit(inline=True)
def leave_choice(st, slot, p, value):
    """Seat p leaves ``value`` (0 to MAX_PLAYERS - 1) in ``slot`` for its own next play to
    use (a search seat's swap target, H4 H5, or multi-play, H6): ``1 + p * MAX_PLAYERS +
    value``; 0 clears it."""
    st[slot] = 1 + p * MAX_PLAYERS + value


@jit(inline=True)
def take_choice(st, slot, p):
    """The value seat p left in ``slot`` (:func:`leave_choice`), taken once; -1 if the slot
    is empty or holds another seat's."""
    v = st[slot]
    if v > 0 and (v - 1) // MAX_PLAYERS == p:
        st[slot] = 0
        return (v - 1) % MAX_PLAYERS
    return -1


@jit(inline=True)
def colour_shift(k):
    """Where kind k's colour sits in its seat's packed colour counts."""
    return COLOUR_BITS * kind_colour(k)


@jit(inline=True)
def add_card(st, p, k, n):
    """n copies of kind k into p's hand (n < 0: out of it), its size and colour counts kept."""
    st[S_HAND0 + p * N_KINDS + k] += n
    st[S_HS0 + p] += n
    st[S_COLOURS0 + p] += n << colour_shift(k)


@jit(inline=True)
def color_count(st, p, c):
    """Cards of colour c (0-3; 4: the wilds) in p's hand, from the counts add_card keeps
    (the R8 test counts only these)."""
    return (st[S_COLOURS0 + p] >> (COLOUR_BITS * c)) & ((1 << COLOUR_BITS) - 1)


@jit()
def recount_colours(st, p):
    """p's colour counts from its hand, after code that wrote the hand's kinds directly."""
    base = S_HAND0 + p * N_KINDS
    packed = 0
    for k in range(N_KINDS):
        packed += st[base + k] << colour_shift(k)
    st[S_COLOURS0 + p] = packed


@jit()
def hand_points(st, P, p):
    """Points of the cards left in p's hand (R1, H5, H17), from the integer copy of the
    score table that load_rules() puts in the state, not from P's floats (a branch-free
    integer loop the compiler vectorises).  ``P`` is unused; it keeps the signature of
    every other rule helper."""
    if st[S_HS0 + p] == 0:
        return 0
    base = S_HAND0 + p * N_KINDS
    total = 0
    for k in range(N_KINDS):
        total += st[base + k] * st[S_SCORE0 + k]
    return total


def log_room(st, log, i):
    """Can the trace log take event i?  (Uncompiled here; compiled per log type by the overload below.)"""
    return i < (st[S_LOGCAP] if log.ndim == 1 else log.shape[0])


@overload(log_room, inline="always")
def _log_room(st, log, i):
    if isinstance(log, types.CPointer):  # a kernel's pointer: the capacity is in st
        return lambda st, log, i: i < st[S_LOGCAP]
    return lambda st, log, i: i < log.shape[0]  # a (rows, LOG_WIDTH) array (tests)


def log_put(log, i, j, v):
    """log[i, j] = v for a pointer or a 2-d log.  (Uncompiled here; compiled by the overload below.)"""
    if log.ndim == 1:
        log[i * LOG_WIDTH + j] = v
    else:
        log[i, j] = v


@overload(log_put, inline="always")
def _log_put(log, i, j, v):
    if isinstance(log, types.CPointer):
        def put(log, i, j, v):
            log[i * LOG_WIDTH + j] = v
        return put

    def put2(log, i, j, v):
        log[i, j] = v
    return put2


@jit(inline=True)
def log_event(st, log, ev, a, b, c):
    """Append one trace event; a zero-capacity log (the batch case) records nothing."""
    i = st[S_NLOG]
    if log_room(st, log, i):
        log_put(log, i, 0, ev)
        log_put(log, i, 1, a)
        log_put(log, i, 2, b)
        if LOG_WIDTH > 3:
            log_put(log, i, 3, c)
        st[S_NLOG] = i + 1
