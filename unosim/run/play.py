"""Playing one chunk of a job on this process: the kernel calls of every mode.

Everything here runs wherever a chunk is played (the local executor, a Dask worker), and
nothing here writes files: :class:`Player` turns (start, count) into kernel rows and the
rows into an Arrow table, and the executors decide where the table goes.
"""

from __future__ import annotations

import json
import math
import time

import numba
import numpy as np
import pyarrow as pa

from unosim.engine.batch import new_out, play_hands
from unosim.engine.matches import (HAND_STRIDE, M_CAPPED, M_CHIPS0, M_CHIPS_END, M_HAND_IN_MATCH, M_MATCH, M_NEG0,
    M_NEG_END, M_POS0, M_POS_END, N_MOUT, play_matches)
from unosim.run.jobs import DEFAULT_MAX_HANDS, Job, RunError
from unosim.engine.tournaments import T_PLAYER0, TABLE_SEATS
from unosim.run.seating import SeatRotation, instance_at, join_rotations
from unosim.run.tournaments import Tournament, tournament_columns
from unosim.run.store import column_names, to_table

__all__ = ["Player", "Slabs", "match_columns", "play_chunk", "play_match_chunk"]

_START_ROWS = 2048
_BLOCKS_PER_WORKER = 8


# --------------------------------------------------------------------------- hands


def play_chunk(P: np.ndarray, seed: int, start: int, count: int, workers: int,
               buffer: np.ndarray | None = None) -> np.ndarray:
    """Hands start..start+count-1 as kernel rows (the unit every backend runs).

    ``buffer``: an array from an earlier call to play into, so a long run does not pay
    for fresh zeroed pages every chunk (the kernel writes every column of every row)."""
    if buffer is not None and buffer.shape[0] >= count:
        out = buffer[:count]
    else:
        out = new_out(count)
    # blocks go to the kernel's threads one at a time (dynamic scheduling), so a core that
    # is also busy writing Parquet takes fewer blocks instead of holding the others up
    before = numba.set_parallel_chunksize(1)
    try:
        play_hands(P, seed, start, count, out, max(1, min(count, workers * 16)))
    finally:
        numba.set_parallel_chunksize(before)
    return out


# --------------------------------------------------------------------------- matches


def match_columns(players: int) -> list[tuple[str, int]]:
    """(name, column of the match kernel's rows) in file order: the hand columns of a
    normal run with ``match`` .. ``chips_end`` after the scalars, then per seat ``points``,
    ``cards``, ``rank``, ``pos_total``, ``neg_total``, ``chips_total``."""
    extra = [("match", M_MATCH), ("hand_in_match", M_HAND_IN_MATCH), ("pos_end", M_POS_END),
             ("neg_end", M_NEG_END), ("capped", M_CAPPED), ("chips_end", M_CHIPS_END)]
    cols = column_names(players, extra)
    cols += [(f"pos_total_{s}", M_POS0 + s) for s in range(players)]
    cols += [(f"neg_total_{s}", M_NEG0 + s) for s in range(players)]
    cols += [(f"chips_total_{s}", M_CHIPS0 + s) for s in range(players)]
    return cols


def _pieces(pending: list[tuple[int, int]], blocks: int) -> list[tuple[int, int]]:
    """Cut the pending match ranges into pieces of about equal size, one per block."""
    total = sum(hi - lo for lo, hi in pending)
    size = max(1, math.ceil(total / blocks))
    out = []
    for lo, hi in pending:
        for a in range(lo, hi, size):
            out.append((a, min(hi, a + size)))
    return out


class Slabs:
    """The kernel's per-block row buffers, ``(blocks, rows, N_MOUT)``, reused across chunks.

    They start small (``rows`` = 2048, about 150 matches of the official rules per block
    and call) and double, up to ``max_hands`` rows, only when a block could not fit even
    one match into its empty slab, so memory follows the longest match seen, never the
    cap: ``blocks x rows x N_MOUT x 8`` bytes (16 blocks x 2048 rows = 20 MB)."""

    def __init__(self, workers: int, max_hands: int = DEFAULT_MAX_HANDS, rows: int = _START_ROWS,
                 blocks: int | None = None) -> None:
        self.max_hands = max_hands
        self.blocks = blocks or max(1, workers * _BLOCKS_PER_WORKER)
        self.array = np.zeros((self.blocks, min(rows, max_hands), N_MOUT), np.int64)

    @property
    def rows(self) -> int:
        return self.array.shape[1]

    def grow(self) -> None:
        """Double the rows (a match did not fit in an empty slab)."""
        if self.rows >= self.max_hands:  # a match never has more than max_hands rows
            raise AssertionError("a match did not fit in a slab of max_hands rows")
        self.array = np.zeros((self.blocks, min(2 * self.rows, self.max_hands), N_MOUT), np.int64)


def play_match_chunk(P: np.ndarray, seed: int, start: int, count: int, workers: int,
                     max_hands: int = DEFAULT_MAX_HANDS, slabs: Slabs | None = None,
                     split: bool = False) -> np.ndarray:
    """Rows of matches ``start .. start+count-1``, in match order (kernel columns ``M_*``);
    ``split``: one random stream per hand, as seat-rotated runs play them.

    Each block plays its matches into its slab and stops when the next match does not fit;
    the matches it did not finish go to the next kernel call (see
    :mod:`unosim.engine.matches`).  Which block plays a match never changes its rows."""
    if not 1 <= max_hands <= HAND_STRIDE:
        raise RunError(f"--max-hands: must be between 1 and {HAND_STRIDE:,} (got {max_hands})")
    if slabs is None or slabs.max_hands != max_hands:
        slabs = Slabs(workers, max_hands)
    pending = [(start, start + count)]
    segments: list[tuple[int, np.ndarray]] = []
    nrows = np.zeros(slabs.blocks, np.int64)
    done = np.zeros(slabs.blocks, np.int64)
    while pending:
        pieces = _pieces(pending, slabs.blocks)
        now, pending = pieces[: slabs.blocks], pieces[slabs.blocks:]
        lo = np.array([a for a, _ in now], np.int64)
        hi = np.array([b for _, b in now], np.int64)
        play_matches(P, int(seed), lo, hi, max_hands, slabs.array, nrows, done, bool(split))
        too_small = False
        for b, (a, z) in enumerate(now):
            if done[b]:
                segments.append((a, slabs.array[b, : nrows[b]].copy()))
            else:
                too_small = True
            if a + done[b] < z:
                pending.append((a + int(done[b]), z))
        if too_small:
            slabs.grow()
    segments.sort(key=lambda x: x[0])
    return np.concatenate([s for _, s in segments]) if segments else np.zeros((0, N_MOUT), np.int64)


# --------------------------------------------------------------------------- one job's chunks


class Player:
    """Plays the chunks of one job on this process, on ``workers`` cores.

    It holds what the job's chunks share: the parameter vector (one per rotation in
    ``rotated`` mode and rotated matches, one per round and table in ``tournaments``
    mode, for every rotation of a rotated one), the match kernel's slabs, the file
    columns and metadata."""

    def __init__(self, job: Job, workers: int) -> None:
        self.job = job
        self.workers = workers
        self.P = job.params()
        self.rotation = SeatRotation(job.cfg) if job.mode == "rotated" or job.rotate else None
        self.slabs = Slabs(workers, job.max_hands or DEFAULT_MAX_HANDS) if job.mode == "matches" else None
        self.tournament = Tournament(job.cfg) if job.mode == "tournaments" else None
        self.tournaments = ([Tournament(job.cfg, r) for r in range(job.rotations)]
                            if job.rotate and job.mode == "tournaments" else None)
        n = job.cfg.players
        if job.mode == "matches":
            self.columns = match_columns(n)
        elif self.tournament is not None:
            self.columns = tournament_columns(n)
        else:
            self.columns = column_names(n)
        extra = self.rotation.metadata() if self.rotation is not None else None
        if self.tournament is not None:
            extra = {**(extra or {}), "unosim.bot_labels": json.dumps(self.tournament.bot_labels)}
        self.meta = job.metadata(extra)

    def warm_up(self) -> float:
        """Load (or compile) this mode's kernel before the clock starts; returns the seconds
        it took, so the rate a run reports is the steady rate and start-up is reported apart."""
        t = time.perf_counter()
        if self.slabs is not None:
            empty = np.zeros(0, np.int64)
            play_matches(self.P, 0, empty, empty, self.slabs.max_hands, self.slabs.array, empty, empty,
                         self.job.rotate)
        elif self.tournament is not None:
            self.tournament.warm_up()
        else:
            play_hands(self.P, 0, 0, 0, new_out(0), 1)
        return time.perf_counter() - t

    def rows(self, start: int, count: int, buffer: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """Kernel rows of units start..start+count-1, and (rotated mode) each row's rotation.
        ``buffer`` (hands mode): see :func:`play_chunk`."""
        seed = self.job.seed
        if self.slabs is not None and self.rotation is not None:
            slabs = self.slabs

            def matches(P: np.ndarray, seed: int, start: int, count: int, workers: int) -> np.ndarray:
                return play_match_chunk(P, seed, start, count, workers, slabs.max_hands, slabs, split=True)

            return self.rotation.play(matches, seed, start, count, self.workers)
        if self.slabs is not None:
            return play_match_chunk(self.P, seed, start, count, self.workers, self.slabs.max_hands,
                                    self.slabs), None
        if self.tournaments is not None:
            return join_rotations([t.play(seed, start, count, self.workers, split=True) for t in self.tournaments])
        if self.rotation is not None:
            return self.rotation.play(play_chunk, seed, start, count, self.workers)
        if self.tournament is not None:
            return self.tournament.play(seed, start, count, self.workers), None
        return play_chunk(self.P, seed, start, count, self.workers, buffer), None

    def table(self, rows: np.ndarray, rotation: np.ndarray | None) -> pa.Table:
        """The rows as the part file's table (compact types, the job's metadata)."""
        table = to_table(rows, self.columns, self.meta)
        if self.rotation is not None and rotation is not None:
            instances = None
            if self.tournaments is not None:  # the table's seats hold players, each with its bot
                players = rows[:, T_PLAYER0:T_PLAYER0 + TABLE_SEATS]
                instances = instance_at(players, rotation[:, None], self.job.cfg.players)
            table = self.rotation.add_columns(table, rotation, instances)
        return table

