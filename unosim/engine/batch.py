"""Many hands at once: the parallel kernel the runner calls, one row of ``out`` per hand.

Each hand's randomness comes from (seed, STREAM_HANDS, hand index) alone and each
iteration writes only its own rows, so a run is bit-identical whatever the thread
count or chunking.  Threads work on contiguous blocks so the state vector is allocated
once per block, not once per hand.
"""

import numpy as np
from numba import prange
from unosim.kernel.jit import jit, kernel
from unosim.kernel.borrow import address, borrow, handles, scratch
from .hand import play_hand
from .setup import load_rules
from unosim.kernel.layout import (COUNTER_SLOTS, N_COUNTERS, N_OUT, O_CARDS0, O_COUNTER0,
    O_DEALER, O_FIRST, O_HAND, O_POINTS0, O_RANK0, O_STALLED, O_WIN_TEAM, O_WINNER, S_DEALER, S_FIRST, S_HS0,
    S_LOGCAP, S_NP, S_RANK0, S_STALLED, S_WINNER)
from unosim.rules.params import P_DEALER, P_FINISH, P_PLAYERS, P_TEAMS
from unosim.kernel.rng import below, stream_start
from unosim.kernel.table import hand_points, rule
from unosim.rules.codes import Dealer, Finish

RULES = ("R4", "E4", "O1")

STREAM_HANDS = 1
STREAM_MATCHES = 2

# The counters' st slots as a global array: numba freezes it into the machine code as a
# constant, so write_row's loop unrolls into one fixed slot read per counter, the code a
# line per counter would give (a tuple indexed in a loop does not fold the same way).
_COUNTER_SLOTS = np.array(COUNTER_SLOTS, np.int64)


@jit()
def deal_next(P, rng, rotate_to, winner):
    """R4/E4, the one statement of who deals: a random seat, the last seat every hand
    (``fixed``), the last winner (``winner``; -1 when there is none, e.g. after a stalled
    hand, R13), else the seat ``rotate_to``.  Runs before a hand, so it reads ``P``."""
    n = int(P[P_PLAYERS])
    mode = int(P[P_DEALER])
    if mode == Dealer.random:
        return below(rng, n)
    if mode == Dealer.fixed:
        return n - 1
    if mode == Dealer.winner and winner >= 0:
        return winner
    return rotate_to


@jit()
def hand_dealer(P, rng, index):
    """Dealer of independent hand ``index``: seats take turns (R4 "rotate"; also used for
    "winner", since independent hands have no previous winner), a random seat, or the
    last seat every hand (E4 "fixed")."""
    return deal_next(P, rng, index % int(P[P_PLAYERS]), -1)


@jit()
def write_row(st, P, out, i, index):
    """Copy the finished hand's O1 record into row i: who dealt, started and won, the
    counters block (:data:`unosim.kernel.layout.COUNTERS`), then each seat's points, cards and rank.
    ``out`` is int64 (the match and tournament slabs) or int32 (:func:`new_out`, whose
    ``hand`` column keeps the index's low 32 bits)."""
    n = st[S_NP]
    out[i, O_HAND] = index
    out[i, O_DEALER] = st[S_DEALER]
    out[i, O_FIRST] = st[S_FIRST]
    w = st[S_WINNER]
    out[i, O_WINNER] = w
    teams = rule(st, P_TEAMS)
    out[i, O_WIN_TEAM] = w % teams if w >= 0 else -1
    out[i, O_STALLED] = st[S_STALLED]
    for j in range(N_COUNTERS):  # the counters block (layout.COUNTERS), one constant slot each
        out[i, O_COUNTER0 + j] = st[_COUNTER_SLOTS[j]]
    ranked = rule(st, P_FINISH) == Finish.last_standing
    for s in range(n):
        out[i, O_POINTS0 + s] = hand_points(st, P, s)
        out[i, O_CARDS0 + s] = st[S_HS0 + s]
        out[i, O_RANK0 + s] = st[S_RANK0 + s] if ranked else 0


@jit(inline=True)
def hands_block(mem, P, seed, start, lo, hi, out):
    """Hands ``start+lo .. start+hi-1`` into ``out[lo:hi]``, on one block's arrays ``mem``
    (:func:`unosim.kernel.borrow.scratch`)."""
    st, rng, log, _ = handles(mem)  # log: capacity st[S_LOGCAP] = 0, nothing is logged
    Pv = address(P)
    outv = borrow(out)
    load_rules(st, Pv)
    for i in range(lo, hi):
        index = start + i
        rng[0] = stream_start(seed, STREAM_HANDS, index)
        dealer = hand_dealer(Pv, rng, index)
        play_hand(st, Pv, rng, log, dealer)
        write_row(st, Pv, outv, i, index)


@kernel(parallel=True, nogil=True)
def play_hands(P, seed, start, count, out, blocks):
    """Play hands ``start .. start+count-1`` of the run with this seed into ``out[:count]``."""
    for b in prange(blocks):
        hands_block(scratch(0), P, seed, start, b * count // blocks, (b + 1) * count // blocks, out)


@jit()
def replay(mem, P, log, state, rotate_to, draw_first, hand, seed, stream, base):
    """The one trace replay: hands ``0 .. hand`` of a sequence (a hand of a batch, a match, a
    table's round of a tournament) played again exactly as the run played them, the last
    with the event log on (the earlier ones unlogged: they move the random stream and pick
    the dealers); the final state is left in ``mem[0]`` (its events: the first
    ``st[S_NLOG]`` rows of ``log``).

    The sequence starts from random state ``state``; its first dealer is seat
    ``rotate_to``, or with ``draw_first`` R4's choice from it (:func:`deal_next`), and
    every later hand's follows R4 from the hand before and its winner.  ``stream`` >= 0
    (a split run: one stream per hand): hand ``h`` > 0 restarts from ``stream_start(seed,
    stream, base + h)`` before its dealer is chosen."""
    st, rng, none, _ = handles(mem)
    Pv = address(P)
    load_rules(st, Pv)
    rng[0] = state
    dealer = rotate_to
    if draw_first:
        dealer = deal_next(Pv, rng, rotate_to, -1)
    n = int(Pv[P_PLAYERS])
    for h in range(hand):
        play_hand(st, Pv, rng, none, dealer)
        if stream >= 0:
            rng[0] = stream_start(seed, stream, base + h + 1)
        dealer = deal_next(Pv, rng, (dealer + 1) % n, st[S_WINNER])
    st[S_LOGCAP] = log.shape[0]
    play_hand(st, Pv, rng, address(log), dealer)


@jit()
def trace_hand(P, seed, index, log):
    """Replay hand ``index`` of a run with the event log on; returns the final state (the
    events written to ``log`` are its first ``st[S_NLOG]`` rows)."""
    mem = scratch(0)
    replay(mem, P, log, stream_start(seed, STREAM_HANDS, index), index % int(P[P_PLAYERS]), True, 0, seed, -1, 0)
    return mem[0]


def new_out(count: int) -> np.ndarray:
    """Rows of ``count`` hands as :func:`play_hands` writes them, ``(count, N_OUT)`` int32,
    the file columns' type: each column is contiguous, so a file column is a view of it,
    never a copy.  The ``hand`` column holds the index's low 32 bits (the file's int64
    column is the chunk's start plus the row, :func:`unosim.run.store.hand_column`).

    Each column has one spare slot at its end, so the buffer and every non-empty slice
    of its rows are of numba's layout "A": the one compiled kernel serves them all
    (numba types an array by its layout, and a contiguous one would compile anew).  At
    least one row (an empty array counts as contiguous): pass ``count`` to the kernel."""
    n = max(count, 1)
    return np.zeros((N_OUT, n + 1), np.int32)[:, :n].T



