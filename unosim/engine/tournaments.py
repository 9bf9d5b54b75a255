"""The partner-rotation tournament (docs/rules.md T1): the compiled loop.

The seating of each (round, table) comes from :mod:`unosim.run.tournaments` as one parameter
vector.  A tournament's rows depend on (seed, tournament index) alone; with ``split`` every
hand has its own stream.  Rows come in the order round, table, hand: the hand's O1 record,
then the ``T_*`` columns below (running totals; champions on the last row).
"""

from numba import prange

from unosim.kernel.jit import jit, kernel

from .batch import deal_next, replay, write_row
from unosim.kernel.borrow import address, borrow, handles, scratch
from .hand import play_hand
from .setup import load_rules
from unosim.kernel.layout import HAND_STRIDE, N_OUT, O_POINTS0, O_STALLED, O_WINNER
from unosim.kernel.rng import stream_start
from unosim.rules.params import P_HANDS_PER_ROUND

RULES = ("T1",)

STREAM_TOURNAMENTS = 3
STREAM_TOURNAMENT_HANDS = 5
TABLE_SEATS = 4    # T1 tables seat four: two pairs
MAX_T_PLAYERS = 8  # T1 is for 4 or 8 players

# --------------------------------------------------------------------------- tournament columns
T_TOURNAMENT = N_OUT         # tournament index in the run
T_ROUND = N_OUT + 1          # 0-based round index
T_TABLE = N_OUT + 2          # 0 (the first table), 1 (the second, 8 players)
T_HAND_IN_ROUND = N_OUT + 3  # 0-based
T_END = N_OUT + 4            # 1 on the tournament's last row
T_PLAYER0 = N_OUT + 5        # per seat of the table: the player sitting there
T_POS0 = T_PLAYER0 + TABLE_SEATS     # per player: S1 running total after this row
T_NEG0 = T_POS0 + MAX_T_PLAYERS      # per player: S2 running total after this row
T_CHAMP_POS0 = T_NEG0 + MAX_T_PLAYERS  # per player: 1 on the last row if an S1 champion
T_CHAMP_NEG0 = T_CHAMP_POS0 + MAX_T_PLAYERS  # per player: 1 on the last row if an S2 champion
N_TOUT = T_CHAMP_NEG0 + MAX_T_PLAYERS

# The ``hand`` column of a tournament run is ``tournament * HAND_STRIDE + row``, ``row`` the
# hand's place in the tournament (0-based, in the order round, table, hand).


@jit()
def table_stream(seed, tournament, rnd, table, rounds, tables):
    """The random stream of one table's round."""
    return stream_start(seed, STREAM_TOURNAMENTS, (tournament * rounds + rnd) * tables + table)


@jit()
def score_hand(row, seating_row, tot):
    """T1 scoring of one table hand into the per-player totals ``tot`` (S1 first
    ``MAX_T_PLAYERS``, then S2): each member of the winning pair adds the points left in
    the other pair's hands (S1), each member of the losing pair adds the points left in
    both of its hands (S2).  A stalled hand scores nothing."""
    if row[O_STALLED] != 0:
        return
    w = row[O_WINNER]
    lose = 1 - w % 2  # the losing pair sits at seats lose and lose + 2
    pts = row[O_POINTS0 + lose] + row[O_POINTS0 + lose + 2]
    for k in range(2):
        tot[seating_row[w % 2 + 2 * k]] += pts
        tot[MAX_T_PLAYERS + seating_row[lose + 2 * k]] += pts


@jit()
def play_tournament(st, Ps, seating, rng, log, seed, t, players, rounds, tables, out, first, tot, split):
    """Tournament ``t`` into ``out[first : first + rounds * tables * hands_per_round]``;
    ``split``: one stream per hand (module docstring)."""
    for i in range(2 * MAX_T_PLAYERS):
        tot[i] = 0
    i = first
    k = 0
    for r in range(rounds):
        for x in range(tables):
            rt = r * tables + x
            P = address(Ps[rt])
            load_rules(st, P)
            hpr = int(P[P_HANDS_PER_ROUND])
            rng[0] = table_stream(seed, t, r, x, rounds, tables)
            dealer = 0  # T1: seat 0 deals the round's first hand, R4 the next ones
            winner = -1
            for h in range(hpr):
                if split:
                    rng[0] = stream_start(seed, STREAM_TOURNAMENT_HANDS, t * HAND_STRIDE + k)
                    if h > 0:
                        dealer = deal_next(P, rng, (dealer + 1) % TABLE_SEATS, winner)
                play_hand(st, P, rng, log, dealer)
                write_row(st, P, out, i, t * HAND_STRIDE + k)
                row = out[i]
                row[T_TOURNAMENT] = t
                row[T_ROUND] = r
                row[T_TABLE] = x
                row[T_HAND_IN_ROUND] = h
                row[T_END] = 0
                for s in range(TABLE_SEATS):
                    row[T_PLAYER0 + s] = seating[rt, s]
                score_hand(row, seating[rt], tot)
                for p in range(MAX_T_PLAYERS):
                    row[T_POS0 + p] = tot[p]
                    row[T_NEG0 + p] = tot[MAX_T_PLAYERS + p]
                    row[T_CHAMP_POS0 + p] = 0
                    row[T_CHAMP_NEG0 + p] = 0
                winner = row[O_WINNER]
                if not split:
                    dealer = deal_next(P, rng, (dealer + 1) % TABLE_SEATS, winner)
                i += 1
                k += 1
    last = out[i - 1]
    last[T_END] = 1
    best = tot[0]
    low = tot[MAX_T_PLAYERS]
    for p in range(1, players):
        best = max(best, tot[p])
        low = min(low, tot[MAX_T_PLAYERS + p])
    for p in range(players):
        last[T_CHAMP_POS0 + p] = 1 if tot[p] == best else 0
        last[T_CHAMP_NEG0 + p] = 1 if tot[MAX_T_PLAYERS + p] == low else 0
    return k


@jit(inline=True)
def tournaments_block(mem, Ps, seating, players, rounds, tables, seed, start, lo, hi, rows_per, out, split):
    """Tournaments ``start+lo .. start+hi-1`` into their rows of ``out``, on one block's
    arrays ``mem`` (:func:`unosim.kernel.borrow.scratch`, ``2 * MAX_T_PLAYERS`` of scratch)."""
    st, rng, log, tot = handles(mem)
    outv = borrow(out)
    Psv = borrow(Ps)
    seatv = borrow(seating)
    for j in range(lo, hi):
        play_tournament(st, Psv, seatv, rng, log, seed, start + j, players, rounds, tables, outv,
                        j * rows_per, tot, split)


@kernel(parallel=True, nogil=True)
def play_tournaments(Ps, seating, players, rounds, tables, seed, start, count, out, blocks, split):
    """Tournaments ``start .. start+count-1`` into ``out`` (``rows_per`` rows each, in
    tournament order; ``rows_per = rounds * tables * hands_per_round``); ``split``: one
    stream per hand (module docstring)."""
    rows_per = out.shape[0] // max(count, 1)
    for b in prange(blocks):
        tournaments_block(scratch(2 * MAX_T_PLAYERS), Ps, seating, players, rounds, tables, seed, start,
                          b * count // blocks, (b + 1) * count // blocks, rows_per, out, split)


@jit()
def trace_tournament_hand(P, seed, t, rnd, table, rounds, tables, hand, log, split):
    """Replay hand ``hand`` of one table's round exactly as the run played it (the round's
    earlier hands at that table are played again, unlogged), with the event log on for
    that hand; returns its final state (events: the first ``st[S_NLOG]`` rows of ``log``).
    ``P``: that table's parameter vector for that round (``TABLE_SEATS`` players; T1: seat
    0 deals the round's first hand); ``split``: the run gave every hand its own stream (a
    seat-rotated run)."""
    mem = scratch(0)
    first = t * HAND_STRIDE + (rnd * tables + table) * int(P[P_HANDS_PER_ROUND])  # the round's first row
    if split:
        replay(mem, P, log, stream_start(seed, STREAM_TOURNAMENT_HANDS, first), 0, False, hand, seed,
               STREAM_TOURNAMENT_HANDS, first)
    else:
        replay(mem, P, log, table_stream(seed, t, rnd, table, rounds, tables), 0, False, hand, seed, -1, 0)
    return mem[0]
