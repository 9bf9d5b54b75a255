"""Does a sweep keep every core busy?  And what does Dask cost on one machine?

    python benchmarks/sweep_speed.py [--points 8] [--hands 50000] [--repeat 2]

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
Dask worker is another process).  The three are timed in turn, ``--repeat`` rounds, and
each figure is its best round (interleaving keeps a change in the machine's load from
favouring one of them).  The
kernel is compiled (or loaded from the numba cache) before timing.  The machine this was
written on has 2 cores shared with other engineers' jobs, so figures are indicative only:
the ratios are more stable than the absolute speeds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from unosim.rules.config import default_config
from unosim.run.runner import max_workers, run_hands
from unosim.run.sweep import parse_sweep, run_sweep


def timed(fn):
    t0, c0 = time.perf_counter(), os.times()
    out = fn()
    c1 = os.times()
    wall = time.perf_counter() - t0
    cpu = (c1.user - c0.user) + (c1.system - c0.system)
    return out, wall, cpu / wall / max_workers()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=8)
    ap.add_argument("--hands", type=int, default=50_000, help="hands per point")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
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
            for _ in range(args.repeat):
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
        print(f"machine: {os.cpu_count()} cores, numba threads {max_workers()}; figures indicative "
              f"(shared machine), best of {args.repeat} interleaved rounds")
        print(f"single run   {total:>10,} hands  {w_single:7.2f} s  {single:>10,.0f} hands/s  "
              f"CPU {cpu_single:6.1%} of {max_workers()} cores")
        print(f"local sweep  {total:>10,} hands  {w_sweep:7.2f} s  {swept:>10,.0f} hands/s  "
              f"CPU {cpu_sweep:6.1%} of {max_workers()} cores   ({args.points} points x {args.hands:,})")
        ratio = swept / single
        paired = sorted(ws / wv for (ws, _), (wv, _) in zip(rounds["single"], rounds["sweep"]))
        median = paired[len(paired) // 2]
        print(f"sweep / single: {ratio:.1%} best vs best; {median:.1%} median of the rounds' ratios "
              f"(target >= 85%: {'met' if max(ratio, median) >= 0.85 else 'NOT met'})")
        if client_cm is None:
            return
        w_dask = min(rounds["dask"])[0]
        dask = total / w_dask
        tasks = len(sweep.points) * -(-args.hands // sweep.chunk_size)
        print(f"dask sweep   {total:>10,} hands  {w_dask:7.2f} s  {dask:>10,.0f} hands/s  "
              f"(LocalCluster: 1 worker process x 1 thread)")
        paired = sorted(wv / wd for (wv, _), (wd, _) in zip(rounds["sweep"], rounds["dask"]))
        print(f"dask / local sweep: {dask / swept:.1%} best vs best, {paired[len(paired) // 2]:.1%} median; overhead {w_dask - w_sweep:+.2f} s on {tasks} tasks "
              f"({(w_dask - w_sweep) / tasks * 1000:+.0f} ms per task); cluster start-up {startup:.2f} s "
              f"(+ the worker's first kernel load, untimed)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
