"""The local executor: the chunks of every job through one pipeline of threads.

The kernel plays the next chunk on all cores while a background thread compresses and
writes the last one, so writing costs almost no wall time, and the chunks of all jobs
(the points of a sweep) follow each other without a pause, so small jobs leave no core
idle.  Hands are played in slices of :data:`SLICE` into two small reused kernel buffers;
a copier thread moves each slice into the chunk's columns (and the summary) while the
kernel plays the next slice, so a run touches little fresh memory (first touches of
fresh pages are slow on virtual machines) and memory stays flat.  Matches and rotated deals are played a chunk at a time (a match's rows are not
known before it ends).  This design was tuned hard; see benchmarks/README.md.

A stop (an exception, Ctrl-C) lets the write in flight finish, so only whole parts are
ever left, and the same command resumes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import pyarrow as pa

from unosim.run.jobs import Job, Progress
from unosim.run.play import play_chunk
from unosim.run.store import Columns, ResultDir
from unosim.run.summary import Summary

__all__ = ["SLICE", "run_local"]

SLICE = 25_000  # hands per kernel call within a chunk (a 10 MiB buffer, reused)


def _copy_out(summary: Summary, cols: Columns | None, offset: int, rows: np.ndarray) -> None:
    """On the copier thread (jobs in order, so the summary needs no lock): the slice into
    the chunk's columns and into the summary, off the kernel's thread."""
    if cols is not None:
        cols.fill(offset, rows)
    summary.add(rows)


def _write_columns(result: ResultDir | None, chunk: tuple[int, int, int], cols: Columns | None,
                   meta: dict[bytes, bytes], last_copy: Future) -> None:
    """On the writer thread: wait for the chunk's last slice to be copied (the copier runs
    in order, so every slice is), then write the part and record it in the journal."""
    last_copy.result()
    if result is not None and cols is not None:
        result.record(result.write_chunk(chunk[0], cols.table(meta), chunk[1], chunk[2]))


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
    scratch: list[np.ndarray | None] = [None, None]  # kernel rows of a slice: one played, one copied
    copied: list[Future | None] = [None, None]
    turn = 0
    # Two helper threads, each running its jobs in order: one copies slices into columns,
    # one writes chunks.  Copies never queue behind a Parquet write, so the kernel waits
    # for a free buffer only as long as one slice's copy takes.
    with ThreadPoolExecutor(max_workers=1) as copier, ThreadPoolExecutor(max_workers=1) as writer:
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
                    cols = Columns(player.columns, count) if result is not None else None
                    for offset in range(0, count, SLICE):
                        m = min(SLICE, count - offset)
                        b = turn % 2
                        turn += 1
                        if copied[b] is not None:
                            copied[b].result()  # this buffer's last slice is copied out: reuse it
                        rows = scratch[b] = play_chunk(player.P, job.seed, start + offset, m, workers, scratch[b])
                        copied[b] = copier.submit(_copy_out, summary, cols, offset, rows)
                        if progress:
                            progress(m)
                    task = (_write_columns, result, (index, start, count), cols, player.meta, copied[b])
                else:
                    rows, rotation = player.rows(start, count)
                    summary.add(rows, rotation)
                    task = (_write_table, result, (index, start, count), player.table(rows, rotation) if result else None)
                    if progress:
                        progress(count)
                if pending is not None:
                    pending.result()  # at most one chunk waits to be written: memory stays flat
                pending = writer.submit(*task)
                pending.add_done_callback(_stamp(summary))
        if pending is not None:
            pending.result()
    return summaries
