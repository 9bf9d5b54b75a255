"""Running jobs: the one entry point of every command that plays.

Commands build :class:`unosim.run.jobs.Job` objects and call :func:`run_job` or
:func:`execute`, locally (:mod:`unosim.run.local`) or on Dask (:mod:`unosim.run.cluster`);
rows never depend on where.  :func:`run_hands` and :func:`run_matches` are the Python API.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from unosim.rules.config import RulesConfig
from unosim.run.cluster import run_dask
from unosim.run.guard import lock_owners
from unosim.run.integrity import hold_lock
from unosim.run.jobs import (DEFAULT_CHUNK, DEFAULT_MAX_HANDS, Job, Progress, RunError,
    chunks, make_job)
from unosim.run.local import run_local
from unosim.run.play import play_chunk
from unosim.run.store import StoreError
from unosim.run.summary import Summary
from unosim.run.workers import check_workers, kernel_workers

__all__ = ["DEFAULT_CHUNK", "Progress", "RunError", "StoreError", "Summary", "chunks", "execute", "play_chunk",
           "run_hands", "run_job", "run_matches"]


def execute(jobs: Sequence[Job], done: Sequence[set[int]] | None = None, *, workers: int | None = None,
            client: Any = None, progress: Progress | None = None) -> list[Summary]:
    """Play every chunk of the prepared ``jobs`` not in ``done``, locally on ``workers`` cores
    or as tasks of a Dask ``client``; one summary per job."""
    done = list(done) if done is not None else [set() for _ in jobs]
    if client is not None:
        return run_dask(client, jobs, done, workers, progress)
    with kernel_workers(workers) as count:
        return run_local(jobs, done, count, progress)


def run_job(job: Job, *, workers: int | None = None, client: Any = None, force: bool = False,
            resume: bool = False, progress: Progress | None = None) -> Summary:
    """Prepare ``job``'s output (``force``/``resume``: see
    :meth:`unosim.run.store.ResultDir.prepare`) and play what is missing."""
    if client is None:
        check_workers(workers)  # a bad --workers is refused before the output is touched
    if job.out is None:
        return execute([job], [set()], workers=workers, client=client, progress=progress)[0]
    with ExitStack() as stack:
        # one writer per result: a second run into it is refused at once, and so is a run
        # into a point of a sweep (a table of a league) while the sweep (league) writes
        lock_owners(stack, job.out)
        stack.enter_context(hold_lock(job.out))
        done = job.prepare(force=force, resume=resume)
        summary = execute([job], [done], workers=workers, client=client, progress=progress)[0]
    summary.notes = list(job.notes)
    return summary


def run_hands(cfg: RulesConfig, games: int, seed: int, out: str | Path, *, workers: int | None = None,
              chunk_size: int = DEFAULT_CHUNK, force: bool = False, resume: bool = False,
              progress: Progress | None = None, rotate_seats: bool = False) -> Summary:
    """Play ``games`` independent hands of ``cfg`` and store them under ``out``
    (``rotate_seats``: every hand once per rotation of the bots)."""
    job = make_job(cfg, "rotated" if rotate_seats else "hands", games, seed, chunk_size=chunk_size, out=out)
    return run_job(job, workers=workers, force=force, resume=resume, progress=progress)


def run_matches(cfg: RulesConfig, matches: int, seed: int, out: str | Path, *, workers: int | None = None,
                chunk_size: int | None = None, force: bool = False, resume: bool = False,
                progress: Progress | None = None, max_hands: int = DEFAULT_MAX_HANDS,
                rotate_seats: bool = False) -> Summary:
    """Play ``matches`` matches of ``cfg`` and store one row per hand under ``out``
    (``rotate_seats``: every match once per rotation of the bots, on the same deals)."""
    job = make_job(cfg, "matches", matches, seed, chunk_size=chunk_size, max_hands=max_hands, out=out,
                   rotate=rotate_seats)
    return run_job(job, workers=workers, force=force, resume=resume, progress=progress)
