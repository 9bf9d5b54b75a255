"""The local executor: the chunks of every job through one pipeline of threads.

The kernel plays the next chunk on all cores while a thread writes the last; hands are
played in slices of :data:`SLICE` into two row buffers that take turns (benchmarks/README.md).
A stop lets the write in flight finish, so only whole parts are left.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from unosim.engine.batch import new_out
from unosim.run.jobs import Job, Progress
from unosim.run.play import play_chunk
from unosim.run.store import Columns, ResultDir
from unosim.run.summary import Summary

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["SLICE", "run_local"]

SLICE = 25_000  # hands per kernel call within a chunk: the progress and Ctrl-C step


def _write_rows(result: ResultDir | None, chunk: tuple[int, int, int], rows: np.ndarray,
                columns: list[tuple[str, int]], meta: dict[bytes, bytes], counted: Future) -> None:
    """On the writer thread: wait for the chunk's last slice to be counted, then write the
    part and record it in the journal."""
    counted.result()
    if result is not None:
        _write_table(result, chunk, Columns.of_rows(rows, columns, chunk[1]).table(meta))


def _write_table(result: ResultDir | None, chunk: tuple[int, int, int], table: pa.Table | None) -> None:
    if result is not None and table is not None:
        result.record(result.write_chunk(chunk[0], table, chunk[1], chunk[2]))


def _stamp(summary: Summary) -> Callable[[Future], None]:
    """A done-callback: the job's clock stops when its last part is written."""
    def stamp(_: Future) -> None:
        summary.ended = time.perf_counter()
    return stamp


def run_local(jobs: Sequence[Job], done: Sequence[set[int]], workers: int,
              progress: Progress | None = None) -> list[Summary]:
    """Play every chunk of ``jobs`` not in ``done`` (per job) on ``workers`` cores (already
    set, see :func:`unosim.run.workers.kernel_workers`); one summary per job."""
    players = [job.mode.player(job, workers) for job in jobs]
    summaries = [Summary.of(job) for job in jobs]
    for player, summary in zip(players, summaries):
        summary.startup = player.warm_up()
    pending: Future | None = None  # the previous chunk's write
    buffers: list[np.ndarray | None] = [None, None]  # a chunk's rows: one played, one written
    turn = 0
    # Two helper threads, each running its jobs in order: one counts slices into the
    # summary, one writes chunks.  A chunk's buffer is played again two chunks later, when
    # its write (waited for before the next chunk's went in) is done.
    with ThreadPoolExecutor(max_workers=1) as counter, ThreadPoolExecutor(max_workers=1) as writer:
        for job, player, summary, skip in zip(jobs, players, summaries, done):
            result = ResultDir(job.out, job.shape) if job.out is not None else None
            summary.started = time.perf_counter()
            for index, start, count in job.chunks():
                if index in skip:
                    summary.chunks_skipped += 1
                    if progress:
                        progress(count)
                    continue
                task: tuple
                if job.mode.sliced:
                    b = turn % 2
                    turn += 1
                    if buffers[b] is None or buffers[b].shape[0] < count:
                        buffers[b] = new_out(count)
                    buffer = buffers[b]
                    for offset in range(0, count, SLICE):
                        m = min(SLICE, count - offset)
                        rows = play_chunk(player.P, job.seed, start + offset, m, workers, buffer[offset:])
                        counted = counter.submit(summary.add, rows)
                        if progress:
                            progress(m)
                    task = (_write_rows, result, (index, start, count), buffer[:count], player.columns, player.meta,
                            counted)
                else:
                    rows, rotation = player.rows(start, count)
                    summary.add(rows, rotation)
                    table = player.table(rows, rotation, start) if result else None
                    task = (_write_table, result, (index, start, count), table)
                    if progress:
                        progress(count)
                if pending is not None:
                    pending.result()  # at most one chunk waits to be written: memory stays flat
                pending = writer.submit(*task)
                pending.add_done_callback(_stamp(summary))
        if pending is not None:
            pending.result()
    return summaries
