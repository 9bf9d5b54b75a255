"""Matches: hands played in sequence until every scoring system has ended (docs/rules.md S1-S4).

A match's rows depend on (seed, match index) alone; with ``split`` every hand has its own
stream so seat rotations play the same deals.  Each parallel block fills a fixed slab of
rows.  A row is the hand's O1 record followed by the ``M_*`` columns below.  Streams and
slabs: docs/design.md, "Matches and tournaments".
"""

import numpy as np
from numba import prange
from unosim.kernel.jit import jit, kernel

from .batch import STREAM_MATCHES, deal_next, replay, write_row
from unosim.kernel.borrow import address, borrow, handles, scratch
from .hand import play_hand
from .setup import load_rules
from .search import C_SEED
from .search_batch import play_hand as search_hand
from unosim.kernel.layout import HAND_STRIDE, N_OUT, O_POINTS0, O_RANK0, O_STALLED, O_WINNER
from unosim.rules.params import MAX_PLAYERS, P_CHIPS_HANDS, P_FINISH, P_MATCH_TARGET, P_PLAYERS, P_TEAMS
from unosim.kernel.rng import stream_start
from unosim.rules.codes import Finish

RULES = ("H19", "S1", "S2", "S3", "S4")

# --------------------------------------------------------------------------- match columns
M_MATCH = N_OUT          # match index in the run
M_HAND_IN_MATCH = N_OUT + 1  # 0-based
M_POS_END = N_OUT + 2    # 1 on the hand where the S1 match ended
M_NEG_END = N_OUT + 3    # 1 on the hand where the S2 match ended
M_CAPPED = N_OUT + 4     # 1 on the last hand of a match stopped by max_hands
M_POS0 = N_OUT + 5       # per seat: S1 running total after this hand (team total with H12)
M_NEG0 = M_POS0 + MAX_PLAYERS  # per seat: S2 running total
M_CHIPS_END = M_NEG0 + MAX_PLAYERS  # 1 on the hand where S4 ended (hand chips_hands - 1)
M_CHIPS0 = M_CHIPS_END + 1          # per seat: S4 chip balance after this hand (team balance with H12)
N_MOUT = M_CHIPS0 + MAX_PLAYERS

STREAM_MATCH_HANDS = 4
STREAM_MATCH_SEARCH = 6
"""The searches' own stream per hand of a match (batch uses 1 and 2, tournaments 3 and 5;
4 is both split matches' deals and the searches of hands runs, which never meet)."""

TOT_CHIPS0 = 2 * MAX_PLAYERS     # in a match's running-state vector ``tot``
TOT_POS_DONE = 3 * MAX_PLAYERS
TOT_NEG_DONE = 3 * MAX_PLAYERS + 1
TOT_CHIPS_DONE = 3 * MAX_PLAYERS + 2
TOT_HANDS = 3 * MAX_PLAYERS + 3  # hands scored so far
N_TOT = 3 * MAX_PLAYERS + 4
"""``tot``: S1 totals per side, S2 totals per side, S4 balances per side, whether each
system has ended, hands scored."""


@jit()
def start_match(P, tot):
    """Zero the totals; S2 counts as ended from the start under H13 last_standing, where
    it is not defined."""
    for i in range(N_TOT):
        tot[i] = 0
    if int(P[P_FINISH]) == Finish.last_standing:
        tot[TOT_NEG_DONE] = 1


@jit()
def score_row(P, row, tot):
    """Score the hand recorded in ``row`` into the running state ``tot`` and write the
    row's match columns (totals, ``pos_end``, ``neg_end``, ``chips_end``); True once every
    system ended.

    A side is a seat, or a team under H12 (seat s plays for team s mod teams).  A stalled
    hand scores nothing (S3) and moves no chips, but counts as one of S4's hands.  S1: the
    winner's side scores the points of every other side's cards; S2: every other side adds
    its own (S1, S2, H12); S4: every other side pays its own points to the winner's side,
    so a side's balance moves by its S1 gain minus its S2 gain.  H13 last_standing: each
    seat's rank points n + 1 - 2r go to its side's S1 total and S4 balance.  S1 and S2 end
    on the hand where a total reaches ``match_target``, S4 after ``chips_hands`` hands; a
    system's totals then stay frozen."""
    n = int(P[P_PLAYERS])
    teams = int(P[P_TEAMS])
    target = int(P[P_MATCH_TARGET])
    pos_open = tot[TOT_POS_DONE] == 0
    neg_open = tot[TOT_NEG_DONE] == 0
    chips_open = tot[TOT_CHIPS_DONE] == 0
    row[M_POS_END] = 0
    row[M_NEG_END] = 0
    row[M_CHIPS_END] = 0
    if row[O_STALLED] == 0:
        if int(P[P_FINISH]) == Finish.last_standing:
            for s in range(n):
                side = s % teams if teams > 1 else s
                rank_points = n + 1 - 2 * row[O_RANK0 + s]
                if pos_open:
                    tot[side] += rank_points
                if chips_open:
                    tot[TOT_CHIPS0 + side] += rank_points
        else:
            w = row[O_WINNER]
            wside = w % teams if teams > 1 else w
            for s in range(n):
                side = s % teams if teams > 1 else s
                if side != wside:
                    pts = row[O_POINTS0 + s]
                    if pos_open:
                        tot[wside] += pts
                    if neg_open:
                        tot[MAX_PLAYERS + side] += pts
                    if chips_open:
                        tot[TOT_CHIPS0 + wside] += pts
                        tot[TOT_CHIPS0 + side] -= pts
    tot[TOT_HANDS] += 1
    sides = teams if teams > 1 else n
    for i in range(sides):
        if pos_open and tot[i] >= target:
            tot[TOT_POS_DONE] = 1
            row[M_POS_END] = 1
        if neg_open and tot[MAX_PLAYERS + i] >= target:
            tot[TOT_NEG_DONE] = 1
            row[M_NEG_END] = 1
    if chips_open and tot[TOT_HANDS] >= int(P[P_CHIPS_HANDS]):
        tot[TOT_CHIPS_DONE] = 1
        row[M_CHIPS_END] = 1
    for s in range(MAX_PLAYERS):
        if s < n:
            side = s % teams if teams > 1 else s
            row[M_POS0 + s] = tot[side]
            row[M_NEG0 + s] = tot[MAX_PLAYERS + side]
            row[M_CHIPS0 + s] = tot[TOT_CHIPS0 + side]
        else:
            row[M_POS0 + s] = 0
            row[M_NEG0 + s] = 0
            row[M_CHIPS0 + s] = 0
    return tot[TOT_POS_DONE] != 0 and tot[TOT_NEG_DONE] != 0 and tot[TOT_CHIPS_DONE] != 0


@jit()
def score_rows(P, rows):
    """Score ``rows`` (hand records in order, ``N_MOUT`` wide) as one match, in place;
    returns the hands the match took (all of them if it did not end).  For tests."""
    tot = np.zeros(N_TOT, np.int64)
    start_match(P, tot)
    for h in range(rows.shape[0]):
        rows[h, M_HAND_IN_MATCH] = h
        if score_row(P, rows[h], tot):
            return h + 1
    return rows.shape[0]


@jit()
def play_match(st, P, rng, log, seed, match, max_hands, slab, first, tot, split, ctx):
    """Play match ``match`` into ``slab[first:]``; return its number of rows, or -1 if it
    did not fit (the rows written are then garbage).  ``tot`` is scratch (``N_TOT``);
    ``split``: one stream per hand; ``ctx``: the search table's context, None at a plain
    table (module docstring).

    S3: seat 0 deals the first hand (a random seat under R4 "random", the last seat under
    "fixed"), R4 (:func:`unosim.engine.batch.deal_next`) each next one.  The match ends when
    S1, S2 and S4 have all ended (S3; under H13 last_standing S2 is not kept), or after
    ``max_hands`` hands, the last row then flagged ``M_CAPPED``."""
    start_match(P, tot)
    load_rules(st, P)
    if split:
        rng[0] = stream_start(seed, STREAM_MATCH_HANDS, match * HAND_STRIDE)
    else:
        rng[0] = stream_start(seed, STREAM_MATCHES, match)
    dealer = deal_next(P, rng, 0, -1)
    cap = slab.shape[0]
    h = 0
    while True:
        i = first + h
        if i >= cap:
            return -1
        if ctx is None:
            play_hand(st, P, rng, log, dealer)
        else:
            ctx[C_SEED] = np.int64(stream_start(seed, STREAM_MATCH_SEARCH, match * HAND_STRIDE + h))
            search_hand(st, P, rng, log, dealer, ctx)
        write_row(st, P, slab, i, match * HAND_STRIDE + h)
        row = slab[i]
        row[M_MATCH] = match
        row[M_HAND_IN_MATCH] = h
        row[M_CAPPED] = 0
        ended = score_row(P, row, tot)
        h += 1
        if ended:
            return h
        if h >= max_hands:
            row[M_CAPPED] = 1
            return h
        if split:
            rng[0] = stream_start(seed, STREAM_MATCH_HANDS, match * HAND_STRIDE + h)
        dealer = deal_next(P, rng, (dealer + 1) % int(P[P_PLAYERS]), row[O_WINNER])


@jit(inline=True)
def matches_block(mem, P, seed, lo, hi, max_hands, slab, split, ctx):
    """Matches ``lo .. hi-1`` in order into ``slab`` until they are all played or it is full,
    on one block's arrays ``mem`` (:func:`unosim.kernel.borrow.scratch`, ``N_TOT`` of
    scratch) and its own context ``ctx`` (None at a plain table); returns (rows written,
    matches finished)."""
    st, rng, log, tot = handles(mem)
    Pv = address(P)
    used = 0
    k = 0
    for m in range(lo, hi):
        got = play_match(st, Pv, rng, log, seed, m, max_hands, slab, used, tot, split, ctx)
        if got < 0:
            break
        used += got
        k += 1
    return used, k


@kernel(parallel=True, nogil=True)
def play_matches(P, seed, lo, hi, max_hands, rows, nrows, done, split):
    """Block b plays matches ``lo[b] .. hi[b]-1`` in order into slab ``rows[b]`` until they
    are all played or the slab is full; ``nrows[b]`` gets the rows written and ``done[b]``
    the matches finished (``lo[b] .. lo[b]+done[b]-1``; 0 if the first did not fit in the
    empty slab).  ``rows`` holds ``(blocks, slab rows, N_MOUT)``; ``split``: one stream per
    hand (module docstring)."""
    for b in prange(lo.shape[0]):
        used, k = matches_block(scratch(N_TOT), P, seed, lo[b], hi[b], max_hands, borrow(rows)[b], split, None)
        nrows[b] = used
        done[b] = k


@kernel(parallel=True, nogil=True)
def play_search_matches(P, seats, seed, lo, hi, max_hands, rows, nrows, done, split):
    """:func:`play_matches` for a table with search seats: ``P`` and ``seats`` from
    :func:`unosim.engine.search_batch.split_params`, each block on its own copy of the
    context.  Every hand's cards and dealer come from the same streams as in the plain
    kernel; its searches from (seed, STREAM_MATCH_SEARCH, match x HAND_STRIDE + hand)."""
    for b in prange(lo.shape[0]):
        used, k = matches_block(scratch(N_TOT), P, seed, lo[b], hi[b], max_hands, borrow(rows)[b], split,
                                seats.copy())
        nrows[b] = used
        done[b] = k


@jit()
def trace_match_hand(P, seed, match, hand, log, split):
    """Replay hand ``hand`` of match ``match`` of a run exactly as the run played it (the
    match's earlier hands are played again, unlogged: they move its random stream and pick
    its dealers), with the event log on for that hand; returns its final state (the events
    are the first ``st[S_NLOG]`` rows of ``log``).  ``split``: the run gave every hand its
    own stream (a seat-rotated run; ``P`` is then that rotation's vector)."""
    mem = scratch(0)
    if split:
        replay(mem, P, log, stream_start(seed, STREAM_MATCH_HANDS, match * HAND_STRIDE), 0, True, hand, seed,
               STREAM_MATCH_HANDS, match * HAND_STRIDE)
    else:
        replay(mem, P, log, stream_start(seed, STREAM_MATCHES, match), 0, True, hand, seed, -1, 0)
    return mem[0]
