"""The Dask executor: the chunks of jobs (a run, the points of a sweep) as Dask tasks.

A worker plays one chunk and writes its part straight to the shared output path; the driver
merges the summaries.  Results equal a local run's.  Setup: docs/cluster.md.
"""

from __future__ import annotations


import logging
import socket
import struct
import threading
import time
import uuid
from concurrent.futures import CancelledError, ThreadPoolExecutor
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from unosim import configure
from unosim.kernel.layout import ENGINE_VERSION
from unosim.run.jobs import ChunkSpec, Job, Progress, RunError
from unosim.run.play import Player
from unosim.run.store import ResultDir
from unosim.run.summary import Summary
from unosim.run.workers import kernel_workers, max_workers

__all__ = ["ClusterError", "connect", "dask_available", "normalise_address", "need_a_worker", "on_worker",
           "probe_scheduler", "run_dask", "task"]

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


def normalise_address(address: str) -> str:
    """``--scheduler`` as ``scheme://host:port`` (a bare ``host:port`` is TCP); a scheme other
    than ``tcp://`` or ``tls://`` is a one-line :class:`ClusterError`."""
    a = address.strip()
    scheme, sep, rest = a.partition("://")
    if not sep:
        scheme, rest = "tcp", a
    scheme = scheme.lower()
    if scheme == "inproc":
        raise ClusterError(f"--scheduler: {address}: an inproc:// address lives inside one Python process; give the "
                           "scheduler's tcp://host:port (or use --cluster local)")
    if scheme not in ("tcp", "tls"):
        raise ClusterError(f"--scheduler: {address}: unsupported scheme {scheme}://; give tcp://host:port "
                           "(or tls://host:port)")
    host, _, port = rest.rstrip("/").rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not host or not 1 <= number <= 65535:
        raise ClusterError(f"--scheduler: {address}: expected {scheme}://host:port with a port between 1 and 65535")
    return f"{scheme}://{host}:{number}"


def probe_scheduler(address: str, timeout: float = 10.0) -> None:
    """Refuse, within ``timeout``, an address where no Dask scheduler listens.

    A Dask scheduler speaks first on TCP (an 8-byte message length, then the frame count, both
    small); over TLS the client speaks first, so only the connection is probed there."""
    scheme, _, rest = address.partition("://")
    host, _, port = rest.rpartition(":")
    number = int(port)
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", number), timeout=timeout) as s:
            if scheme != "tcp":
                return
            s.settimeout(timeout)
            head = b""
            while len(head) < 16:
                got = s.recv(16 - len(head))
                if not got:
                    break
                head += got
    except socket.timeout:
        raise ClusterError(f"--scheduler: {address} answered nothing in {timeout:.0f} s: not a Dask scheduler") from None
    except OSError as e:
        raise ClusterError(f"--scheduler: cannot connect to {address}: {e.strerror or e}") from None
    length, frames = struct.unpack("<QQ", head) if len(head) == 16 else (0, 0)
    if not (16 <= length <= 1 << 24 and 1 <= frames <= 64):
        raise ClusterError(f"--scheduler: {address} is not a Dask scheduler (it answered {head[:12]!r})")


def _client_within(distributed: Any, address: str, timeout: float) -> Any:
    """``distributed.Client(address)``, or a one-line error when it has not connected within
    ``timeout`` (a peer that mimics the first bytes of a scheduler kept it for minutes)."""
    box: dict[str, Any] = {}

    def make() -> None:
        try:
            box["client"] = distributed.Client(address, timeout=timeout)
        except BaseException as e:  # noqa: BLE001 - reported below, in one line
            box["error"] = e

    t = threading.Thread(target=make, name="unosim-connect", daemon=True)
    t.start()
    t.join(timeout + 3)
    if t.is_alive():
        raise ClusterError(f"--scheduler: {address} did not complete a Dask handshake in {timeout + 3:.0f} s: "
                           "not a Dask scheduler (or an unreachable one)")
    if "error" in box:
        e = box["error"]
        raise ClusterError(f"--scheduler: cannot connect to {address}: {str(e).splitlines()[0][:200] if str(e) else type(e).__name__}")
    return box["client"]


@contextmanager
def connect(scheduler: str | None = None, *, local: bool = False, n_workers: int = 1,
            threads_per_worker: int = 1, processes: bool = True, timeout: float = 30.0) -> Iterator[Any]:
    """A ``distributed.Client`` to ``scheduler``, or to a new one-worker, one-thread
    ``LocalCluster`` when ``local``; closed (the cluster shut down) on exit."""
    if (scheduler is None) == (not local):
        raise ClusterError("name a scheduler address or local=True (not both)")
    option = "--scheduler" if scheduler else "--cluster"
    distributed = _distributed(option)
    cluster = None
    try:
        if scheduler:
            scheduler = normalise_address(scheduler)
            probe_scheduler(scheduler, min(timeout, 10.0))
            client = _client_within(distributed, scheduler, min(timeout, 5.0))
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
    """The one thread of this process that runs the kernel: numba's OpenMP layer keeps a team
    of threads per calling thread, and two teams would compete for the cores."""
    global _KERNEL_THREAD
    with _KERNEL_THREAD_LOCK:
        if _KERNEL_THREAD is None:
            _KERNEL_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="unosim-kernel")
        return _KERNEL_THREAD


def _play(spec: ChunkSpec, workers: int) -> tuple[Player, np.ndarray, np.ndarray | None]:
    """The chunk's rows on ``workers`` cores, run by :func:`on_worker` on the kernel thread."""
    player = spec.job.mode.player(spec.job, workers)
    rows, rotation = player.rows(spec.start, spec.count)
    return player, rows, rotation


def _same_engine(planned: int) -> None:
    """Refuse a task planned with another engine (another unosim on the driver), and tune
    this worker process as the unosim command tunes its own."""
    if planned != ENGINE_VERSION:
        raise RunError(f"this process runs engine version {ENGINE_VERSION}, the run was planned with "
                       f"{planned}: install the same unosim everywhere")
    configure()


def on_worker(engine_version: int, workers: int | None, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """What a Dask worker runs for a chunk or a study's task: ``fn(*args, workers=w, **kwargs)`` on the
    kernel thread after the engine check, ``w`` at most this machine's cores."""
    _same_engine(engine_version)

    def call() -> Any:
        top = max_workers()
        w = top if workers is None else max(1, min(workers, top))
        with kernel_workers(w):  # thread-local in numba: set in the thread that runs the kernel
            return fn(*args, workers=w, **kwargs)

    return _kernel_thread().submit(call).result()


def need_a_worker(client: Any) -> None:
    """Wait for a worker to join (a minute at most), or say how to start one."""
    try:
        client.wait_for_workers(1, timeout=60)
    except (TimeoutError, OSError):
        raise ClusterError("--scheduler: no worker joined the scheduler within 60 s; start one with "
                           "`dask worker <scheduler address> --nthreads 2`") from None


def task(spec: ChunkSpec, workers: int | None = None) -> Summary:
    """What a Dask worker runs: the chunk played on the kernel thread, its part written here,
    its summary sent back (a clear error for another engine or an unwritable path)."""
    job = spec.job
    summary = Summary.of(job, backend="dask")
    try:
        summary.started = time.perf_counter()
        player, rows, rotation = on_worker(spec.engine_version, workers, _play, spec)
        if job.out is not None:
            table = player.table(rows, rotation, spec.start)
            summary.part = ResultDir(job.out, job.shape).write_chunk(spec.index, table, spec.start, spec.count)
        summary.ended = time.perf_counter()
    except OSError as e:
        raise ClusterError(f"worker {socket.gethostname()} cannot write {job.out}: {e.strerror or e} "
                           "(the output path must be shared storage, the same path on every machine)") from None
    summary.add(rows, rotation)
    return summary


def run_dask(client: Any, jobs: Sequence[Job], done: Sequence[set[int]], workers: int | None = None,
             progress: Progress | None = None) -> list[Summary]:
    """Submit every chunk of ``jobs`` not in ``done`` as a task; one merged summary per job.
    On an error or an interrupt the remaining tasks are cancelled."""
    distributed = _distributed("--scheduler")
    summaries = [Summary.of(job, backend="dask") for job in jobs]
    specs: list[tuple[int, ChunkSpec]] = []
    for j, (job, skip) in enumerate(zip(jobs, done)):
        mine = list(job.specs(skip))
        summaries[j].chunks_skipped = len(job.chunks()) - len(mine)
        skipped = sum(c for i, _, c in job.chunks() if i in skip)
        if progress and skipped:
            progress(skipped)
        specs += [(j, spec) for spec in mine]
    if not specs:
        return summaries
    need_a_worker(client)
    run = uuid.uuid4().hex[:8]
    t0 = time.perf_counter()
    futures = {client.submit(task, spec, workers, key=f"unosim-{run}-{k:06d}", pure=False): j
               for k, (j, spec) in enumerate(specs)}
    for s in summaries:
        s.started = t0
    # a lost scheduler is said in one line below; the client's own reconnection tracebacks are not
    quiet = logging.getLogger("distributed.client")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        for fut, part in _as_completed(client, distributed, list(futures)):
            j = futures[fut]
            if part.part is not None and jobs[j].out is not None:
                ResultDir(jobs[j].out).record(part.part)  # the driver alone writes the journal
            summaries[j].merge(part)
            summaries[j].ended = time.perf_counter()
            if progress:
                progress(part.units)
    except BaseException:
        try:
            client.cancel(list(futures))
        except Exception:  # noqa: BLE001 - a scheduler that is gone has nothing left to cancel
            pass
        raise
    finally:
        quiet.setLevel(level)
    return summaries


NO_WORKER_WAIT = 60.0
"""Seconds a run waits on a cluster that has lost every worker before it stops in one line."""
_GONE = ("the scheduler stopped answering: the parts written so far are kept; when it is back "
         "(with a worker), the same command resumes")


def _as_completed(client: Any, distributed: Any, futures: list[Any]) -> Iterator[tuple[Any, Any]]:
    """(future, result) as they complete; no worker for :data:`NO_WORKER_WAIT` seconds, or a
    scheduler gone, is a one-line :class:`ClusterError`."""
    pending = set(futures)
    alone_since: float | None = None
    while pending:
        try:
            done, pending = distributed.wait(list(pending), timeout=2.0, return_when="FIRST_COMPLETED")
            pending = set(pending)
        except TimeoutError:
            done = set()
        except (OSError, CancelledError):
            raise ClusterError(f"--scheduler: {_GONE}") from None
        for fut in done:
            if fut.status == "cancelled":
                raise ClusterError(f"--scheduler: {_GONE}")
            if fut.status not in ("finished", "error"):  # lost with its worker: to be computed again
                pending.add(fut)
                continue
            try:
                part = fut.result(timeout=10)
            except TimeoutError:  # its data went with its worker: the scheduler computes it again
                pending.add(fut)
                continue
            except CancelledError:  # the scheduler went away with the task (distributed's FutureCancelledError)
                raise ClusterError(f"--scheduler: {_GONE}") from None
            except OSError as e:  # the connection to the scheduler, not the task, failed
                if isinstance(e, distributed.comm.CommClosedError) or client.status != "running":
                    raise ClusterError(f"--scheduler: {_GONE}") from None
                raise
            yield fut, part
        again = [f for f in done if f in pending]
        if len(again) < len(done):
            alone_since = None
            continue
        if again:
            time.sleep(0.5)  # wait() returns a lost future at once: pace the watch
        try:
            workers = len(client.nthreads())
        except (OSError, TimeoutError, AttributeError):  # AttributeError: the client dropped its closed scheduler
            raise ClusterError(f"--scheduler: {_GONE}") from None
        except RuntimeError as e:  # distributed's "ConnectionPool is closed": the scheduler closed under the call
            if "closed" not in str(e):
                raise
            raise ClusterError(f"--scheduler: {_GONE}") from None
        if client.status not in ("running", "connecting"):
            raise ClusterError(f"--scheduler: {_GONE}")
        if workers:
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since > NO_WORKER_WAIT:
            raise ClusterError(f"--scheduler: the cluster has had no worker for {NO_WORKER_WAIT:.0f} s (the last "
                               "one stopped or was lost); the parts written so far are kept: start a worker "
                               "(`dask worker <scheduler address> --nthreads 2`) and run the same command again")
