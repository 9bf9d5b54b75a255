"""Runs of hands at a table with search seats (:mod:`unosim.engine.search`): the rules
vector and context for such a table, and its batch kernel, the twin of
:func:`unosim.engine.batch.play_hands`."""

from __future__ import annotations

import numpy as np
from numba import prange

from unosim.kernel.borrow import address, borrow, handles, scratch
from unosim.kernel.jit import jit, kernel
from unosim.kernel.layout import S_DONE, S_LOGCAP
from unosim.kernel.piles import build_deck
from unosim.kernel.rng import stream_start
from unosim.rules.params import BOT_STRIDE, MAX_PLAYERS, P_BOT0, P_WATCHERS, rollout_slots
from unosim.rules.strategies import STRATEGIES, Strategy, watches
from .batch import STREAM_HANDS, hand_dealer, write_row
from .search import (C_DECISIONS, C_LEN, C_SEAT0, C_SEED, C_STRIDE, C_TRACK, C_VSTARTED, OBJ_HANDS, OBJ_POINTS,
                     choice_at, search_step)
from .setup import deal, load_rules, new_hand, turn_first_card

STREAM_SEARCH = 4
"""The searches' own random stream per hand (batch uses 1 and 2, tournaments 3)."""


# --------------------------------------------------------------------------- Python side
def has_search(P: np.ndarray) -> bool:
    """Whether any seat of the rules vector ``P`` is a search seat."""
    codes = P[P_BOT0:P_BOT0 + MAX_PLAYERS * BOT_STRIDE:BOT_STRIDE]
    return bool(np.any(codes == Strategy.search))


OBJECTIVE_AUTO = 2
"""``objective = "auto"``'s code: what the run counts, resolved here (the kernel sees 0 or 1)."""


def split_params(P: np.ndarray, matches: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(rules vector, context) for a table with search seats: each search seat's block in
    ``P`` becomes its rollout bot, code and parameters, copied from the seat's rollout
    region (``rollout_slots``, filled by ``to_params``: a bot named by strategy alone is that
    strategy's defaults) -- what the engine plays for it everywhere but the searched
    card -- and the context lists the
    seats that search with their ``worlds``, ``rollouts``, ``objective``, ``margin``,
    ``voids``, ``colours``, ``deepen`` and ``promise`` (and whether the table keeps the void limits:
    some seat uses them).

    ``matches``: the table plays matches, where ``objective = "auto"`` means ``points``
    (what S1 adds up to the target); elsewhere it means ``hands``."""
    Pr = P.copy()
    ctx = np.zeros(C_LEN, np.int64)
    for s in range(MAX_PLAYERS):
        base = P_BOT0 + s * BOT_STRIDE
        if P[base] != Strategy.search:
            continue
        worlds, rollouts, bot, objective = (int(x) for x in P[base + 1:base + 5])
        if objective == OBJECTIVE_AUTO:
            objective = OBJ_POINTS if matches else OBJ_HANDS
        margin = int(round(P[base + 5] * 1000))
        voids = int(P[base + 6])
        colours = int(P[base + 7])
        deepen = int(P[base + 8])
        promise = int(round(P[base + 9] * 1000))
        block = P[rollout_slots(s)]
        code = int(block[0])
        if not (0 <= code < Strategy.search) or code != bot:
            raise ValueError(f"seat {s}: the rules vector has no rollout bot for its search "
                             "(build it with unosim.rules.config.to_params)")
        Pr[base:base + BOT_STRIDE] = block
        name = Strategy._fields[code]
        spec = STRATEGIES[name][1]
        params = {p: (allowed[int(block[1 + i])] if isinstance(default, str) else block[1 + i])
                  for i, (p, (default, allowed)) in enumerate(spec.items())}
        if watches(name, params):
            Pr[P_WATCHERS] = 1.0
        c = C_SEAT0 + s * C_STRIDE
        ctx[c:c + C_STRIDE] = (1, worlds, rollouts, objective, margin, voids, colours, deepen, promise)
        if voids:
            ctx[C_TRACK] = 1
    return Pr, ctx


# --------------------------------------------------------------------------- hands
@jit()
def play_hand(st, P, rng, log, dealer, ctx):
    """:func:`unosim.engine.hand.play_hand` with the search seats of ``ctx`` searching."""
    new_hand(st, P, dealer)
    build_deck(st, P)
    deal(st, P, rng, log)
    turn_first_card(st, P, rng, log)
    ctx[C_DECISIONS] = 0
    ctx[C_VSTARTED] = 0
    while st[S_DONE] == 0:
        search_step(st, P, rng, log, ctx)


@jit(inline=True)
def search_block(mem, ctx_mem, P, seed, start, lo, hi, out):
    """Hands ``start+lo .. start+hi-1`` into ``out[lo:hi]`` on one block's arrays ``mem``
    (:func:`unosim.kernel.borrow.scratch`) and its own copy ``ctx_mem`` of the context."""
    st, rng, log, _ = handles(mem)
    ctx = address(ctx_mem)
    Pv = address(P)
    outv = borrow(out)
    load_rules(st, Pv)
    for i in range(lo, hi):
        index = start + i
        rng[0] = stream_start(seed, STREAM_HANDS, index)
        ctx[C_SEED] = np.int64(stream_start(seed, STREAM_SEARCH, index))
        dealer = hand_dealer(Pv, rng, index)
        play_hand(st, Pv, rng, log, dealer, ctx)
        write_row(st, Pv, outv, i, index)


@kernel(parallel=True, nogil=True)
def play_hands(P, seats, seed, start, count, out, blocks):
    """:func:`unosim.engine.batch.play_hands` for a table with search seats: ``P`` and
    ``seats`` from :func:`split_params`.  Hand i's cards come from the same stream as in
    the plain kernel; its searches from (seed, STREAM_SEARCH, i)."""
    for b in prange(blocks):
        search_block(scratch(0), seats.copy(), P, seed, start, b * count // blocks, (b + 1) * count // blocks, out)


@jit()
def trace_hand(P, seats, seed, index, log):
    """:func:`unosim.engine.batch.trace_hand` for a table with search seats (the
    playouts log nothing)."""
    mem = scratch(0)
    _trace(mem, seats.copy(), P, seed, index, log)
    return mem[0]


@jit()
def _trace(mem, ctx_mem, P, seed, index, log):
    st, rng, _, _ = handles(mem)
    st[S_LOGCAP] = log.shape[0]
    ctx = address(ctx_mem)
    rng[0] = stream_start(seed, STREAM_HANDS, index)
    ctx[C_SEED] = np.int64(stream_start(seed, STREAM_SEARCH, index))
    Pv = address(P)
    load_rules(st, Pv)
    dealer = hand_dealer(Pv, rng, index)
    play_hand(st, Pv, rng, address(log), dealer, ctx)


# --------------------------------------------------------------------------- decisions
@kernel(parallel=True, nogil=True)
def decide_all(states, P, ctxs, p, seeds, out):
    """``out[i]``: :func:`unosim.engine.search.choice_at` for seat p in ``states[i]`` with
    the context ``ctxs[i]`` (brought up to date in place) and the search stream
    ``seeds[i]``.  The decisions compiled as the batch kernels are, where a game makes
    them (``choice_at`` called from Python runs the engine's lightly optimized code)."""
    for i in prange(states.shape[0]):
        out[i] = choice_at(states[i], P, ctxs[i], p, seeds[i])


__all__ = ["STREAM_SEARCH", "decide_all", "has_search", "play_hand", "play_hands", "split_params", "trace_hand"]
