"""Runs: chunks of hands through the parallel kernel, into the store, with progress.

The kernel plays chunk k+1 on all cores while a background thread compresses and
writes chunk k, so writing costs almost no wall time.  Chunk boundaries never change
results (each hand's randomness depends on the seed and its index only); they only
decide file boundaries, which is what makes ``--resume`` possible.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numba
import numpy as np

from unosim.rules.config import RulesConfig, to_params
from unosim.engine.batch import new_out, play_hands
from unosim.kernel.layout import O_DEALER, O_STALLED, O_TURNS, O_WINNER
from unosim.run.seating import SeatRotation
from unosim.run.store import Columns, ResultDir, StoreError, column_names, run_metadata, to_table

DEFAULT_CHUNK = 200_000
SLICE = 25_000  # hands per kernel call within a chunk (a 10 MiB buffer, reused)
Progress = Callable[[int], None]


class RunError(Exception):
    """Bad run arguments; the message names the option."""


def max_workers() -> int:
    return int(numba.config.NUMBA_NUM_THREADS)


def set_workers(workers: int | None) -> int:
    """Use this many cores for the kernel (all when None)."""
    top = max_workers()
    if workers is None:
        workers = top
    if workers < 1 or workers > top:
        raise RunError(f"--workers: {workers} is not between 1 and {top} (the cores numba may use here)")
    numba.set_num_threads(workers)
    return workers


@dataclass
class RunSummary:
    """What `unosim run` prints at the end: speed, length, winner's seat after the dealer."""

    players: int
    hands: int = 0
    seconds: float = 0.0
    turns_sum: int = 0
    stalled: int = 0
    wins_from_dealer: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    chunks_skipped: int = 0
    startup: float = 0.0

    def add(self, out: np.ndarray) -> None:
        n = self.players
        self.hands += len(out)
        self.turns_sum += int(out[:, O_TURNS].sum())
        stalled = out[:, O_STALLED] != 0
        self.stalled += int(stalled.sum())
        rel = (out[~stalled, O_WINNER] - out[~stalled, O_DEALER]) % n
        counts = np.bincount(rel, minlength=n)
        self.wins_from_dealer = counts if self.wins_from_dealer.size == 0 else self.wins_from_dealer + counts

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("nan")

    @property
    def mean_turns(self) -> float:
        return self.turns_sum / self.hands if self.hands else float("nan")

    def shares(self) -> np.ndarray:
        total = self.wins_from_dealer.sum()
        return self.wins_from_dealer / total if total else self.wins_from_dealer.astype(float)


def chunks(total: int, size: int) -> list[tuple[int, int, int]]:
    """(chunk index, first hand, hands) covering 0..total-1."""
    return [(i, start, min(size, total - start)) for i, start in enumerate(range(0, total, size))]


def warm_up(P: np.ndarray) -> float:
    """Load (or compile) the kernel before the clock starts; returns the seconds it took,
    so the hands/s a run reports is the steady rate and start-up is reported apart."""
    t = time.perf_counter()
    play_hands(P, 0, 0, 0, new_out(0), 1)
    return time.perf_counter() - t


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


def run_hands(cfg: RulesConfig, games: int, seed: int, out: str | Path, *, workers: int | None = None,
              chunk_size: int = DEFAULT_CHUNK, force: bool = False, resume: bool = False,
              progress: Progress | None = None, rotate_seats: bool = False) -> RunSummary:
    """Play ``games`` independent hands of ``cfg`` and store them under ``out``.

    ``rotate_seats``: play every hand index once per rotation of the bots over the seats
    (``games x players`` rows, with ``rotation`` and ``bot_<s>`` columns; see seating.py)."""
    if games < 1:
        raise RunError(f"--games: must be at least 1 (got {games})")
    if chunk_size < 1:
        raise RunError(f"--chunk-size: must be at least 1 (got {chunk_size})")
    if seed < 0 or seed >= 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    workers = set_workers(workers)
    P = to_params(cfg)
    result = ResultDir(Path(out))
    manifest = {"config": cfg.to_toml(), "seed": seed, "games": games, "chunk_size": chunk_size,
                "mode": "hands"}
    rot = SeatRotation(cfg) if rotate_seats else None
    if rot is not None:
        manifest["rotate_seats"] = True
    done = result.prepare(manifest, force=force, resume=resume)
    meta = run_metadata(cfg, seed, "hands", rot.metadata() if rot is not None else None)
    columns = column_names(cfg.players)
    summary = RunSummary(cfg.players)
    summary.startup = warm_up(P)
    t0 = time.perf_counter()
    pending: Future | None = None  # the previous chunk's write
    scratch: list[np.ndarray | None] = [None, None]  # kernel rows of a slice: one played, one copied
    copied: list[Future | None] = [None, None]
    turn = 0

    def copy_out(cols: Columns, offset: int, rows: np.ndarray) -> None:
        """On the copier thread (jobs in order, so the summary needs no lock): the slice
        into the chunk's columns and into the summary, off the kernel's thread."""
        cols.fill(offset, rows)
        summary.add(rows)

    # Two helper threads, each running its jobs in order: one copies slices into columns,
    # one writes chunks.  Copies never queue behind a Parquet write, so the kernel waits
    # for a free buffer only as long as one slice's copy takes.
    with ThreadPoolExecutor(max_workers=1) as copier, ThreadPoolExecutor(max_workers=1) as writer:
        for index, start, count in chunks(games, chunk_size):
            if index in done:
                summary.chunks_skipped += 1
                if progress:
                    progress(count)
                continue
            if rot is None:
                cols = Columns(columns, count)
                for offset in range(0, count, SLICE):
                    m = min(SLICE, count - offset)
                    b = turn % 2
                    turn += 1
                    if copied[b] is not None:
                        copied[b].result()  # this buffer's last slice is copied out: reuse it
                    rows = scratch[b] = play_chunk(P, seed, start + offset, m, workers, scratch[b])
                    copied[b] = copier.submit(copy_out, cols, offset, rows)
                    if progress:
                        progress(m)
                job = (lambda i, c, last: lambda: (last.result(), result.write_chunk(i, c.table(meta))))(
                    index, cols, copied[b])  # the copier is in order: its last job done means all are
            else:
                rows, rotation = rot.play(play_chunk, seed, start, count, workers)
                summary.add(rows)
                table = rot.add_columns(to_table(rows, columns, meta), rotation)
                job = (lambda i, t: lambda: result.write_chunk(i, t))(index, table)
                if progress:
                    progress(count)
            if pending is not None:
                pending.result()  # at most one chunk waits to be written: memory stays flat
            pending = writer.submit(job)
        if pending is not None:
            pending.result()
    summary.seconds = time.perf_counter() - t0
    return summary


__all__ = ["RunError", "RunSummary", "StoreError", "run_hands", "set_workers", "play_chunk", "chunks",
           "DEFAULT_CHUNK", "max_workers"]
