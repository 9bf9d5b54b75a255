"""Benchmark: does a sweep keep every core busy?  And what does Dask cost on one machine?

    python benchmarks/sweep_speed.py                    # 8 points x 50,000 hands, 3 repeats
    python benchmarks/sweep_speed.py --no-dask
    python benchmarks/sweep_speed.py --quick            # 2 points x 5,000 hands, 1 repeat

Prints, for the official rules at 4 players:

1. a single run of ``points x hands`` hands with all cores (``runner.run_hands``);
2. a local sweep of ``points`` points of ``hands`` hands each (``sweep.run_sweep``): the
   points vary ``scoring.zero_points`` only, which changes scores and not play, so every
   point costs exactly what the single run costs per hand and the ratio of the two speeds
   measures the sweep's own overhead (per-point setup, chunk tails, part files).  Target:
   the sweep's aggregate hands/s >= 85% of the single run's;
3. the same sweep on a Dask ``LocalCluster`` (one worker process, one thread; the
   kernel uses every core in the worker), with the cluster's start-up time apart.

CPU use is the process's user+sys time over wall time and cores (the local runs only; a
Dask worker is another process).  The three are timed in turn, ``--repeats`` rounds, and
each figure is its best round (interleaving keeps a change in the machine's load from
favouring one of them).  The kernel is compiled (or loaded from the numba cache) before
timing.  On a shared machine the ratios are more stable than the absolute speeds.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

# the harness first: it puts this tree ahead of any installed unosim on sys.path
from harness import Benchmark, Run, count

from unosim.rules.config import default_config
from unosim.run.runner import run_hands
from unosim.run.workers import max_workers
from unosim.run.sweep import parse_sweep, run_sweep

TARGET = 0.85

bench = Benchmark(__doc__, repeats=3, quick={"points": 2, "hands": 5_000})
bench.option("--points", type=count, default=8, help="points of the sweep [default: 8]")
bench.option("--hands", type=count, default=50_000, help="hands per point [default: 50,000]")
bench.option("--no-dask", action="store_true", help="skip the Dask figures")


def timed(fn):
    t0, c0 = time.perf_counter(), os.times()
    out = fn()
    c1 = os.times()
    wall = time.perf_counter() - t0
    cpu = (c1.user - c0.user) + (c1.system - c0.system)
    return out, wall, cpu / wall / max_workers()


def measure(run: Run) -> None:
    args = run.args
    total = args.points * args.hands
    cfg = default_config()
    sweep = parse_sweep({"name": "bench", "hands": args.hands, "seed": 0,
                         "axes": {"scoring.zero_points": list(range(1, args.points))}})
    assert len(sweep.points) == args.points
    tmp = Path(tempfile.mkdtemp(prefix="unosim-sweep-bench-"))
    try:
        run_hands(cfg, 2000, 0, tmp / "warm", force=True)  # compile / load the kernel

        rounds: dict[str, list[tuple[float, float]]] = {"single": [], "sweep": [], "dask": []}
        client_cm = None
        startup = float("nan")
        from unosim.run.cluster import connect, dask_available

        if not args.no_dask and not dask_available():
            print("dask: not installed (pip install 'unosim[dask]'); Dask figures skipped")
            args.no_dask = True
        if not args.no_dask:

            t0 = time.perf_counter()
            client_cm = connect(local=True)
            client = client_cm.__enter__()
            startup = time.perf_counter() - t0
            # the worker's first task loads the compiled kernel from the cache: warm it, untimed
            run_sweep(parse_sweep({"name": "w", "hands": 500, "axes": {"zero_points": [1]}}), tmp / "dwarm",
                      client=client, force=True)
        try:
            for _ in range(args.repeats):
                _, w, cpu = timed(lambda: run_hands(cfg, total, 0, tmp / "single", force=True))
                rounds["single"].append((w, cpu))
                _, w, cpu = timed(lambda: run_sweep(sweep, tmp / "sweep", force=True))
                rounds["sweep"].append((w, cpu))
                if client_cm is not None:
                    _, w, cpu = timed(lambda: run_sweep(sweep, tmp / "dask", client=client, force=True))
                    rounds["dask"].append((w, cpu))
        finally:
            if client_cm is not None:
                client_cm.__exit__(None, None, None)
        (w_single, cpu_single), (w_sweep, cpu_sweep) = min(rounds["single"]), min(rounds["sweep"])
        single, swept = total / w_single, total / w_sweep
        print(f"numba threads {max_workers()}; best of {args.repeats} interleaved rounds")
        print(f"single run   {total:>10,} hands  {w_single:7.2f} s  {single:>10,.0f} hands/s  "
              f"CPU {cpu_single:6.1%} of {max_workers()} cores")
        print(f"local sweep  {total:>10,} hands  {w_sweep:7.2f} s  {swept:>10,.0f} hands/s  "
              f"CPU {cpu_sweep:6.1%} of {max_workers()} cores   ({args.points} points x {args.hands:,})")
        ratio = swept / single
        paired = sorted(ws / wv for (ws, _), (wv, _) in zip(rounds["single"], rounds["sweep"]))
        median = paired[len(paired) // 2]
        run.figure("single hands/s", single, "hands/s")
        run.figure("local sweep hands/s", swept, "hands/s")
        run.figure("sweep / single, median of the rounds", median, "x")
        run.target("local sweep / single run", max(ratio, median), ">=", TARGET, unit="x",
                   note=f"the better of {ratio:.1%} best vs best and {median:.1%}, the median of the rounds' ratios")
        if client_cm is None:
            return
        w_dask = min(rounds["dask"])[0]
        dask = total / w_dask
        tasks = len(sweep.points) * -(-args.hands // sweep.chunk_size)
        print(f"dask sweep   {total:>10,} hands  {w_dask:7.2f} s  {dask:>10,.0f} hands/s  "
              f"(LocalCluster: 1 worker process x 1 thread)")
        paired = sorted(wv / wd for (wv, _), (wd, _) in zip(rounds["sweep"], rounds["dask"]))
        run.figure("dask sweep hands/s", dask, "hands/s")
        run.figure("dask cluster start s", startup, "s")
        print(f"dask / local sweep: {dask / swept:.1%} best vs best, {paired[len(paired) // 2]:.1%} median; overhead {w_dask - w_sweep:+.2f} s on {tasks} tasks "
              f"({(w_dask - w_sweep) / tasks * 1000:+.0f} ms per task); cluster start-up {startup:.2f} s "
              f"(+ the worker's first kernel load, untimed)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    bench.main(measure)
