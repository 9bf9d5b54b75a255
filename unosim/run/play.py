"""Playing one chunk of a job on this process: the kernel calls of every mode.

Nothing here writes files: a mode's :class:`Player` turns (start, count) into an Arrow
table, and the executors decide where it goes.
"""

from __future__ import annotations

import json
import math
import time
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from unosim.engine.batch import new_out, play_hands
from unosim.interrupts import interruptible
from unosim.kernel.layout import HAND_STRIDE
from unosim.rules.params import BOT_STRIDE, MAX_PLAYERS, P_BOT0
from unosim.rules.strategies import Strategy
from unosim.run.bounds import DEFAULT_MAX_HANDS, RunError
from unosim.run.seating import SeatRotation, instance_at, join_rotations
from unosim.run.tournaments import Tournament
from unosim.run.store import column_names, to_table

if TYPE_CHECKING:
    import pyarrow as pa

# The search, match and tournament kernels' modules are loaded by the functions that
# call them: a run of plain hands starts without them.

__all__ = ["MatchPlayer", "Player", "RotatedMatchPlayer", "RotatedPlayer", "RotatedTournamentPlayer", "Slabs",
           "TournamentPlayer", "match_columns", "play_chunk", "play_match_chunk"]

_START_ROWS = 2048
_BLOCKS_PER_WORKER = 8
SEARCH_HANDS_PER_WORKER = 128
"""At a table with search seats, a chunk is played in kernel calls of this many hands per
worker (:data:`SEARCH_MATCHES_PER_WORKER` matches): a call cannot be stopped, so Ctrl-C
and SIGTERM wait for it, and there a hand costs about a thousand plain ones.  Every hand's
randomness comes from its index, so the calls change no row."""
SEARCH_MATCHES_PER_WORKER = 8


# --------------------------------------------------------------------------- hands


def has_search(P: np.ndarray) -> bool:
    """Whether any seat of the rules vector ``P`` is a search seat
    (:func:`unosim.engine.search_batch.has_search`, without loading the search kernel)."""
    return bool(np.any(P[P_BOT0:P_BOT0 + MAX_PLAYERS * BOT_STRIDE:BOT_STRIDE] == Strategy.search))


def play_chunk(P: np.ndarray, seed: int, start: int, count: int, workers: int,
               buffer: np.ndarray | None = None) -> np.ndarray:
    """Hands start..start+count-1 as int32 kernel rows; ``buffer``: rows of :func:`new_out`
    to play into (reused across chunks), of which the first ``count`` are returned."""
    out = buffer if buffer is not None and buffer.shape[0] >= count else new_out(count)
    # blocks go to the kernel's threads one at a time (dynamic scheduling), so a core that
    # is also busy writing Parquet takes fewer blocks instead of holding the others up
    before = numba.set_parallel_chunksize(1)
    try:
        if has_search(P):  # a table with search seats has a kernel of its own
            from unosim.engine import search_batch

            Pr, seats = search_batch.split_params(P)
            step = SEARCH_HANDS_PER_WORKER * workers
            for a in range(0, count, step):
                m = min(step, count - a)
                interruptible(search_batch.play_hands, Pr, seats, seed, start + a, m, out[a:a + m],
                              max(1, min(m, workers * 16)))  # a search decision may take minutes: signals end it
        else:  # the whole buffer, never an empty slice: numba would type that anew (new_out)
            play_hands(P, seed, start, count, out, max(1, min(count, workers * 16)))
    finally:
        numba.set_parallel_chunksize(before)
    return out[:count]


# --------------------------------------------------------------------------- matches


def match_columns(players: int) -> list[tuple[str, int]]:
    """(name, column of the match kernel's rows) in file order."""
    from unosim.engine.matches import (M_CAPPED, M_CHIPS0, M_CHIPS_END, M_HAND_IN_MATCH, M_MATCH, M_NEG0,
                                       M_NEG_END, M_POS0, M_POS_END)

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


def _mout() -> int:
    from unosim.engine.matches import N_MOUT

    return N_MOUT


class Slabs:
    """The kernel's per-block row buffers, ``(blocks, rows, N_MOUT)``, reused across chunks;
    ``rows`` starts at 2048 and doubles, up to ``max_hands``, only when a block cannot fit one
    match."""

    def __init__(self, workers: int, max_hands: int = DEFAULT_MAX_HANDS, rows: int = _START_ROWS,
                 blocks: int | None = None) -> None:
        self.max_hands = max_hands
        self.blocks = blocks or max(1, workers * _BLOCKS_PER_WORKER)
        self.array = np.zeros((self.blocks, min(rows, max_hands), _mout()), np.int64)

    @property
    def rows(self) -> int:
        return self.array.shape[1]

    def grow(self) -> None:
        """Double the rows (a match did not fit in an empty slab)."""
        if self.rows >= self.max_hands:  # a match never has more than max_hands rows
            raise AssertionError("a match did not fit in a slab of max_hands rows")
        self.array = np.zeros((self.blocks, min(2 * self.rows, self.max_hands), _mout()), np.int64)


def play_match_chunk(P: np.ndarray, seed: int, start: int, count: int, workers: int,
                     max_hands: int = DEFAULT_MAX_HANDS, slabs: Slabs | None = None,
                     split: bool = False) -> np.ndarray:
    """Rows of matches ``start .. start+count-1``, in match order (kernel columns ``M_*``);
    ``split``: one random stream per hand, as seat-rotated runs play them.  Which block plays
    a match never changes its rows."""
    if not 1 <= max_hands <= HAND_STRIDE:
        raise RunError(f"--max-hands: must be between 1 and {HAND_STRIDE:,} (got {max_hands})")
    from unosim.engine import search_batch
    from unosim.engine.matches import play_matches, play_search_matches

    if slabs is None or slabs.max_hands != max_hands:
        slabs = Slabs(workers, max_hands)
    seats = None
    if has_search(P):
        step = SEARCH_MATCHES_PER_WORKER * workers
        if count > step:  # short kernel calls (SEARCH_MATCHES_PER_WORKER), rows in match order as one call's
            parts = [play_match_chunk(P, seed, a, min(step, start + count - a), workers, max_hands, slabs, split)
                     for a in range(start, start + count, step)]
            return np.concatenate(parts)
        P, seats = search_batch.split_params(P, matches=True)
    pending = [(start, start + count)]
    segments: list[tuple[int, np.ndarray]] = []
    nrows = np.zeros(slabs.blocks, np.int64)
    done = np.zeros(slabs.blocks, np.int64)
    while pending:
        pieces = _pieces(pending, slabs.blocks)
        now, pending = pieces[: slabs.blocks], pieces[slabs.blocks:]
        lo = np.array([a for a, _ in now], np.int64)
        hi = np.array([b for _, b in now], np.int64)
        if seats is None:
            play_matches(P, int(seed), lo, hi, max_hands, slabs.array, nrows, done, bool(split))
        else:
            interruptible(play_search_matches, P, seats, int(seed), lo, hi, max_hands, slabs.array, nrows, done,
                          bool(split))
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
    return np.concatenate([s for _, s in segments]) if segments else np.zeros((0, _mout()), np.int64)


# --------------------------------------------------------------------------- one job's chunks


class Player:
    """Plays the chunks of one job of independent hands on ``workers`` cores, holding what
    the chunks share (parameters, buffers, columns, metadata)."""

    def __init__(self, job: Any, workers: int) -> None:
        self.job = job
        self.workers = workers
        self.P = job.params()
        self.columns = job.mode.columns(job.cfg.players)
        self.meta = job.metadata(self.extra_metadata())

    def extra_metadata(self) -> dict[str, Any] | None:
        """The mode's own keys of every part file."""
        return None

    def warm_up(self) -> float:
        """Load (or compile) this mode's kernel before the clock starts; returns the seconds
        it took, so the rate a run reports is the steady rate and start-up is reported apart."""
        t = time.perf_counter()
        self._warm()
        return time.perf_counter() - t

    def _warm(self) -> None:
        if has_search(self.P):  # a search table's own kernel
            play_chunk(self.P, 0, 0, 0, 1)
        else:
            play_hands(self.P, 0, 0, 0, new_out(0), 1)

    def _refuse_search(self) -> None:
        if has_search(np.asarray(self.P)):
            raise RunError(f"bots.seats: the search strategy plays hands and match runs and duels, not yet "
                           f"{self.job.mode.file_mode}")

    def rows(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray | None]:
        """Kernel rows of units start..start+count-1, and (rotated modes) each row's rotation."""
        return play_chunk(self.P, self.job.seed, start, count, self.workers), None

    def table(self, rows: np.ndarray, rotation: np.ndarray | None, start: int | None = None) -> pa.Table:
        """The rows of units ``start ..`` as the part file's table (compact types, the job's
        metadata)."""
        return to_table(rows, self.columns, self.meta, start)


class RotatedPlayer(Player):
    """Every deal once per rotation of the bots over the seats (one parameter vector per
    rotation); rows gain ``rotation`` and ``bot_<s>``."""

    def __init__(self, job: Any, workers: int) -> None:
        self.rotation = SeatRotation(job.cfg)
        super().__init__(job, workers)

    def extra_metadata(self) -> dict[str, Any] | None:
        return self.rotation.metadata()

    def rows(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray | None]:
        return self.rotation.play(play_chunk, self.job.seed, start, count, self.workers)

    def table(self, rows: np.ndarray, rotation: np.ndarray | None, start: int | None = None) -> pa.Table:
        table = super().table(rows, rotation, start)
        return table if rotation is None else self.rotation.add_columns(table, rotation, self._instances(rows, rotation))

    def _instances(self, rows: np.ndarray, rotation: np.ndarray) -> np.ndarray | None:
        """The config seat of the bot at each seat of each row (None: the seat rotation's own)."""
        return None


class MatchPlayer(Player):
    """Matches, with the match kernel's slabs (reused across chunks)."""

    split = False  # one random stream per hand (seat-rotated matches)

    def __init__(self, job: Any, workers: int) -> None:
        self.slabs = Slabs(workers, job.max_hands or DEFAULT_MAX_HANDS)
        super().__init__(job, workers)

    def _warm(self) -> None:
        from unosim.engine import search_batch
        from unosim.engine.matches import play_matches, play_search_matches

        empty = np.zeros(0, np.int64)
        if has_search(self.P):  # a search table's own kernel
            Pr, seats = search_batch.split_params(self.P, matches=True)
            play_search_matches(Pr, seats, 0, empty, empty, self.slabs.max_hands, self.slabs.array, empty, empty,
                                self.split)
        else:
            play_matches(self.P, 0, empty, empty, self.slabs.max_hands, self.slabs.array, empty, empty, self.split)

    def rows(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray | None]:
        return play_match_chunk(self.P, self.job.seed, start, count, self.workers, self.slabs.max_hands,
                                self.slabs), None


class RotatedMatchPlayer(RotatedPlayer, MatchPlayer):
    """Every match once per rotation of the bots over the seats, on the same deals."""

    split = True

    def rows(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray | None]:
        slabs = self.slabs

        def matches(P: np.ndarray, seed: int, start: int, count: int, workers: int) -> np.ndarray:
            return play_match_chunk(P, seed, start, count, workers, slabs.max_hands, slabs, split=True)

        return self.rotation.play(matches, self.job.seed, start, count, self.workers)


class TournamentPlayer(Player):
    """Partner-rotation tournaments: one parameter vector per round and table."""

    def __init__(self, job: Any, workers: int) -> None:
        self.tournament = Tournament(job.cfg)
        super().__init__(job, workers)
        self._refuse_search()

    def extra_metadata(self) -> dict[str, Any] | None:
        return {"unosim.bot_labels": json.dumps(self.tournament.bot_labels)}

    def _warm(self) -> None:
        self.tournament.warm_up()

    def rows(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray | None]:
        return self.tournament.play(self.job.seed, start, count, self.workers), None


class RotatedTournamentPlayer(RotatedPlayer, TournamentPlayer):
    """Every tournament once per rotation of the bots over the player numbers, on the same
    deals (one tournament's parameter vectors per rotation)."""

    def __init__(self, job: Any, workers: int) -> None:
        self.tournaments = [Tournament(job.cfg, r) for r in range(job.rotations)]
        super().__init__(job, workers)

    def extra_metadata(self) -> dict[str, Any] | None:
        return {**self.rotation.metadata(), **TournamentPlayer.extra_metadata(self)}

    def rows(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray | None]:
        return join_rotations([t.play(self.job.seed, start, count, self.workers, split=True) for t in self.tournaments])

    def _instances(self, rows: np.ndarray, rotation: np.ndarray) -> np.ndarray | None:
        from unosim.engine.tournaments import T_PLAYER0, TABLE_SEATS

        players = rows[:, T_PLAYER0:T_PLAYER0 + TABLE_SEATS]  # the table's seats hold players, each with its bot
        return instance_at(players, rotation[:, None], self.job.cfg.players)
