"""The Dask backend: a LocalCluster run writes the very rows of the local run; errors are
one clear line (Dask missing, a worker that cannot write)."""

from __future__ import annotations

import functools
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from unosim.cli import main
from unosim.rules.config import default_config
from unosim.run.jobs import make_job
from unosim.run.runner import execute, run_hands
from unosim.run.sweep import load_sweep, run_sweep

SWEEP = """
hands = 600
chunk_size = 200
seed = 11
[axes]
"rules.stacking" = ["draw2"]
[strata]
"table.players" = [3, 5]
"""


def rows(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path).sort_values("hand").reset_index(drop=True)


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed")
    from unosim.run.cluster import connect

    # threads in this process: light, and the same task code as on remote workers
    with connect(local=True, processes=False, n_workers=1, threads_per_worker=2) as c:
        yield c


def test_local_cluster_sweep_is_row_identical_to_the_local_sweep(tmp_path: Path, client) -> None:
    f = tmp_path / "s.toml"
    f.write_text(SWEEP)
    sw = load_sweep(f)
    s_dask = run_sweep(sw, tmp_path / "dask", client=client)
    run_sweep(sw, tmp_path / "local", workers=1)
    assert [s.backend for s in s_dask] == ["dask"] * 4 and [s.rows for s in s_dask] == [600] * 4
    dirs = sorted({p.parent.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("part-*.parquet")})
    assert len(dirs) == 4
    for d in dirs:
        pd.testing.assert_frame_equal(rows(tmp_path / "dask" / d), rows(tmp_path / "local" / d))
    # resume on the cluster: a lost part is replayed there, nothing else
    lost = tmp_path / "dask" / dirs[0] / "part-000001.parquet"
    lost.unlink()
    again = run_sweep(sw, tmp_path / "dask", client=client)
    assert sorted(s.rows for s in again) == [0, 0, 0, 200] and sum(s.chunks_skipped for s in again) == 11
    pd.testing.assert_frame_equal(rows(tmp_path / "dask" / dirs[0]), rows(tmp_path / "local" / dirs[0]))


def test_cli_run_on_a_local_cluster_equals_the_local_run(tmp_path: Path, client, monkeypatch) -> None:
    import unosim.run.cluster as cl

    monkeypatch.setattr(cl, "connect", functools.partial(cl.connect, processes=False, threads_per_worker=2))
    out = tmp_path / "dask"
    res = CliRunner().invoke(main, ["run", "standard", "--hands", "500", "--chunk-size", "200", "--seed", "4",
                                    "--out", str(out), "--cluster", "local", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "500 hands of 4 players, seed 4, Dask at a LocalCluster" in res.output
    run_hands(default_config(), 500, 4, tmp_path / "local", chunk_size=200, workers=1)
    pd.testing.assert_frame_equal(rows(out), rows(tmp_path / "local"))
    # the manifests agree too: a Dask run and a local run of the same command are one run
    assert (out / "_unosim.json").read_text() == (tmp_path / "local" / "_unosim.json").read_text()


def test_rotated_seats_and_matches_on_a_local_cluster_equal_the_local_runs(tmp_path: Path, client) -> None:
    """Every mode is a job of the one pipeline, so Dask plays every mode alike (R4, S1-S3)."""
    cfg = default_config(players=3)
    for mode, extra in (("rotated", {}), ("matches", {"max_hands": 300})):
        count, chunk = (50, 20) if mode == "rotated" else (12, 5)
        jobs = [make_job(cfg, mode, count, 3, chunk_size=chunk, out=tmp_path / f"{mode}-{where}", **extra)
                for where in ("dask", "local")]
        done = [j.prepare() for j in jobs]
        on_dask = execute(jobs[:1], done[:1], client=client)[0]
        here = execute(jobs[1:], done[1:], workers=1)[0]
        assert on_dask.backend == "dask" and here.backend == "local"
        assert (on_dask.units, on_dask.rows, on_dask.stalled) == (here.units, here.rows, here.stalled)
        assert (on_dask.wins_from_dealer == here.wins_from_dealer).all()
        keys = ["hand", "rotation"] if mode == "rotated" else ["hand"]
        a, b = (pd.read_parquet(j.out).sort_values(keys).reset_index(drop=True) for j in jobs)
        pd.testing.assert_frame_equal(a, b)


def test_a_worker_that_cannot_write_says_so(tmp_path: Path, client) -> None:
    from unosim.run.cluster import ClusterError

    job = make_job(default_config(), "hands", 100, 0, chunk_size=100, out=tmp_path / "r")
    done = job.prepare(force=False, resume=False)
    shutil.rmtree(tmp_path / "r")  # as if the workers did not see the driver's disk
    with pytest.raises(ClusterError, match="cannot write .* must be shared storage"):
        execute([job], [done], client=client)


def test_without_dask_the_error_says_how_to_install_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    from unosim.run.cluster import ClusterError, connect, dask_available

    assert not dask_available()
    with pytest.raises(ClusterError, match=r"--scheduler: Dask is not installed; pip install 'unosim\[dask\]'"):
        with connect("tcp://127.0.0.1:1"):
            pass
    f = tmp_path / "s.toml"
    f.write_text(SWEEP)
    res = CliRunner().invoke(main, ["sweep", str(f), "--out", str(tmp_path / "o"), "--cluster", "local"])
    assert res.exit_code == 2 and "Error: --cluster: Dask is not installed" in res.output
    res = CliRunner().invoke(main, ["sweep", str(f), "--out", str(tmp_path / "o"), "--cluster", "local",
                                    "--scheduler", "tcp://x:1"])
    assert res.exit_code == 2 and "give one of the two" in res.output


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from unosim.run.cluster import ClusterError, connect

    with pytest.raises(ClusterError, match="--scheduler: cannot connect to tcp://127.0.0.1:9"):
        with connect("tcp://127.0.0.1:9", timeout=2):
            pass


def _server(greeting: bytes | None) -> tuple[object, str]:
    """A TCP server on loopback that greets with ``greeting`` (None: says nothing)."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()

    def serve() -> None:
        try:
            conn, _ = srv.accept()
        except OSError:
            return
        if greeting:
            conn.sendall(greeting)
        threading.Event().wait(5)
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv, f"tcp://127.0.0.1:{srv.getsockname()[1]}"


@pytest.mark.parametrize("greeting, needle", [
    (b"SSH-2.0-OpenSSH_9.2\r\n", "is not a Dask scheduler"),
    (None, "answered nothing"),
])
def test_a_scheduler_address_where_something_else_listens_fails_fast(greeting, needle) -> None:
    """Bad hour 7: distributed waited minutes (or allocated exabytes) on such an address."""
    import time

    from unosim.run.cluster import ClusterError, probe_scheduler

    srv, address = _server(greeting)
    try:
        t0 = time.monotonic()
        with pytest.raises(ClusterError, match=needle):
            probe_scheduler(address, timeout=2.0)
        assert time.monotonic() - t0 < 5
    finally:
        srv.close()


def test_a_real_scheduler_passes_the_probe() -> None:
    distributed = pytest.importorskip("distributed")
    from unosim.run.cluster import probe_scheduler

    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        probe_scheduler(cluster.scheduler_address, timeout=5.0)


@pytest.mark.slow
@pytest.mark.parametrize("lost", ["worker", "scheduler"])
def test_a_cluster_that_loses_its_worker_or_scheduler_ends_in_one_line(tmp_path: Path, monkeypatch, lost: str) -> None:
    """The only worker gone: after NO_WORKER_WAIT the run stops with a line saying the
    cluster has no worker (never a silent wait); the scheduler gone: a line, never a
    FutureCancelledError traceback.  The parts written so far stay verified."""
    pytest.importorskip("distributed")
    import threading

    import unosim.run.cluster as cl
    from distributed import Client, LocalCluster

    monkeypatch.setattr(cl, "NO_WORKER_WAIT", 3.0)
    job = make_job(default_config(), "hands", 400_000, 0, chunk_size=1000, out=tmp_path / "r")
    done = job.prepare()
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    client = Client(cluster)
    fired: list[bool] = []

    def kill(_: int) -> None:
        if not fired:
            fired.append(True)
            threading.Thread(target=(lambda: cluster.scale(0)) if lost == "worker" else cluster.close,
                             daemon=True).start()

    try:
        with pytest.raises(cl.ClusterError) as e:
            execute([job], [done], client=client, progress=kill)
    finally:
        client.close()
        cluster.close()
    msg = str(e.value)
    assert "\n" not in msg
    assert ("the cluster has had no worker for 3 s" if lost == "worker" else "the scheduler stopped answering") in msg
    assert job.prepare(resume=True) is not None  # what was written is a result the same command resumes


def test_a_scheduler_dropped_under_the_watch_is_one_line() -> None:
    """distributed sets the client's scheduler to None as it closes: the watch's worker count
    then raised AttributeError, a traceback, where a lost scheduler is one line."""
    import unosim.run.cluster as cl

    class Closing:
        status = "running"
        scheduler = None

        def nthreads(self) -> dict:
            return self.scheduler.ncores()  # as distributed's Client.nthreads reads it

    class Quiet:
        @staticmethod
        def wait(*_: object, **__: object) -> None:
            raise TimeoutError

    with pytest.raises(cl.ClusterError, match="the scheduler stopped answering"):
        list(cl._as_completed(Closing(), Quiet, [object()]))
