"""The Dask backend: chunks of a run or a sweep as tasks on Dask workers.

Each task is :func:`task` (``unosim.run.sweep.play`` then ``unosim.run.sweep.write``, as locally):
the worker plays one chunk with the parallel kernel on its cores and writes the chunk's part file straight to the output path, to a
temporary name renamed into place (so the path must be storage every worker and the
driver share, mounted at the same path).  The driver prepares the output directory
(manifests, which chunks are done), submits the missing chunks, and receives only a
:class:`unosim.run.sweep.ChunkResult` per chunk (a few numbers) for progress and the summary.
Results are identical to a local run with the same seed: a chunk's rows depend on the
config, the seed and the chunk's hand indices only, whoever plays it.

A worker process runs one kernel at a time, always on the same thread (see
:func:`_kernel_thread`), on all its cores: one worker with one thread per machine
(``dask worker ADDRESS --nthreads 1``) is the simple setup; a second thread lets a part
be written while the next chunk plays, which pays off when writing to shared storage is
slow. A lost worker's task is re-run by the scheduler; a stopped driver leaves whole
parts only, and the same command resumes.

Dask is optional (``pip install 'unosim[dask]'``): without it, asking for a scheduler is
a one-line :class:`ClusterError`; local runs never import it.  See docs/cluster.md.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from unosim.run.sweep import ChunkResult, ChunkSpec, play, write

__all__ = ["ClusterError", "connect", "dask_available", "run_specs", "task"]

INSTALL_HINT = "pip install 'unosim[dask]' (or: pip install 'dask[distributed]')"


class ClusterError(RuntimeError):
    """Dask missing, a scheduler that cannot be reached, a worker that cannot write."""


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _distributed(option: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"{option}: Dask is not installed; {INSTALL_HINT}") from None
    return distributed


@contextmanager
def connect(scheduler: str | None = None, *, local: bool = False, n_workers: int = 1,
            threads_per_worker: int = 1, processes: bool = True, timeout: float = 30.0) -> Iterator[Any]:
    """A ``distributed.Client``: to the scheduler at ``scheduler`` (``tcp://host:8786``),
    or to a new ``LocalCluster`` on this machine when ``local`` (by default one worker
    process with one thread: one task at a time, its kernel on every core; a second
    thread, which would write a part while the next chunk plays, measured slower on 2
    busy cores).
    Closed (and the local cluster shut down) on exit."""
    if (scheduler is None) == (not local):
        raise ClusterError("name a scheduler address or local=True (not both)")
    option = "--scheduler" if scheduler else "--cluster"
    distributed = _distributed(option)
    cluster = None
    try:
        if scheduler:
            try:
                client = distributed.Client(scheduler, timeout=timeout)
            except (OSError, TimeoutError, ValueError) as e:
                raise ClusterError(f"--scheduler: cannot connect to {scheduler}: {e}") from None
        else:
            cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                                               processes=processes, dashboard_address=":0")
            client = distributed.Client(cluster)
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


_KERNEL_THREAD: ThreadPoolExecutor | None = None
_KERNEL_THREAD_LOCK = threading.Lock()


def _kernel_thread() -> ThreadPoolExecutor:
    """The one thread of this process that runs the kernel.  A Dask worker runs tasks on
    several threads; numba's OpenMP layer keeps a team of threads per calling thread, and
    an idle team's threads spin for a while, so kernels called from alternating threads
    would keep two teams competing for the cores (and the workqueue layer must not be
    entered by two threads at once).  One calling thread keeps one team; writing stays on
    the task threads, overlapping the next chunk's play when a worker has two threads."""
    global _KERNEL_THREAD
    with _KERNEL_THREAD_LOCK:
        if _KERNEL_THREAD is None:
            _KERNEL_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="unosim-kernel")
        return _KERNEL_THREAD


def task(spec: ChunkSpec, workers: int | None = None) -> ChunkResult:
    """What a Dask worker runs: :func:`unosim.run.sweep.play` on this process's kernel thread,
    then :func:`unosim.run.sweep.write` here, with a clear error when this machine cannot write
    to the output path (not shared storage)."""
    try:
        t0 = time.perf_counter()
        rows = _kernel_thread().submit(play, spec, workers).result()
        return write(spec, rows, time.perf_counter() - t0)
    except OSError as e:
        raise ClusterError(f"worker {socket.gethostname()} cannot write {spec.out}: {e.strerror or e} "
                           "(the output path must be shared storage, the same path on every machine)") from None


def run_specs(client: Any, specs: list[ChunkSpec], workers: int | None = None) -> Iterator[ChunkResult]:
    """Submit every chunk as a task; yield each result as it completes.  On an error or an
    interrupt the remaining tasks are cancelled (parts written so far stay: resume)."""
    distributed = _distributed("--scheduler")
    if not specs:
        return
    try:
        client.wait_for_workers(1, timeout=60)
    except (TimeoutError, OSError):
        raise ClusterError("--scheduler: no worker joined the scheduler within 60 s; start one with "
                           "`dask worker <scheduler address> --nthreads 2`") from None
    run = uuid.uuid4().hex[:8]
    futures = [client.submit(task, spec, workers, key=f"unosim-{run}-{i:06d}", pure=False)
               for i, spec in enumerate(specs)]
    try:
        for fut in distributed.as_completed(futures):
            yield fut.result()
    except BaseException:
        client.cancel(futures)
        raise
