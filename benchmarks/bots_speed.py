#!/usr/bin/env python3
"""Benchmark: hands/s of 4 `counter` bots against 4 `random` (B0) bots, in one run.

Target (printed as met / NOT MET, never asserted): `counter`, the strategy with the most
work per decision (card counting on every play, per-colour odds on every choice), at
least half as fast as B0.

How it measures: both tables use the official rules with 4 players and differ only in
their [bots] seats.  After a warm-up call per table (numba compiles or loads its cache),
the kernel alone (`runner.play_chunk` into one reused buffer, no Parquet) plays N hands
per table, alternating the two tables R times so that a change in machine load hits both
alike; the median rate of each is reported, and the ratio of the medians.  The buffer is
touched once before timing (first touches of fresh pages are slow on a virtual machine,
and would be timed as the kernel's; the runner reuses its buffers too).

    python benchmarks/bots_speed.py                # 400,000 hands per table, 5 repeats
    python benchmarks/bots_speed.py --quick        # 40,000 hands, 1 repeat
    python benchmarks/bots_speed.py --workers 1    # one core

versus.py takes this script's TABLES and rate() in each tree it compares.
"""

from __future__ import annotations

import time

# the harness first: it puts this tree ahead of any installed unosim on sys.path
from harness import Benchmark, Run, count, count0, median

from unosim.rules.config import default_config, to_params
from unosim.run.runner import play_chunk
from unosim.run.workers import check_workers

TABLES = {"random x4": ["random"] * 4, "counter x4": ["counter"] * 4}
TARGET = 0.5

bench = Benchmark(__doc__, repeats=5, quick={"hands": 40_000})
bench.option("--hands", type=count, default=400_000, help="hands per table and repeat [default: 400,000]")
bench.option("--workers", type=count0, default=0, help="cores [default: 0, all numba may use]")


def set_workers(workers: int | None) -> int:
    """The kernel's cores for the rest of this process, which only measures (versus.py calls
    it in each tree's child, by this name)."""
    import numba

    w = check_workers(workers)
    numba.set_num_threads(w)
    return w


def rate(P, hands: int, workers: int, seed: int, buffer) -> float:
    t0 = time.perf_counter()
    play_chunk(P, seed, 0, hands, workers, buffer)
    return hands / (time.perf_counter() - t0)


def measure(run: Run) -> None:
    a = run.args
    workers = set_workers(a.workers or None)
    params = {name: to_params(default_config().replace(seats=seats)) for name, seats in TABLES.items()}
    print(f"workers {workers}; {a.hands:,} hands per table x {a.repeats} repeats")
    for name, P in params.items():
        t0 = time.perf_counter()
        play_chunk(P, 0, 0, 1000, workers)
        print(f"  warm-up {name}: {time.perf_counter() - t0:.1f} s (compile or cache load)")
    buffer = play_chunk(params["random x4"], 0, 0, a.hands, workers)  # touched once, then reused
    rates: dict[str, list[float]] = {name: [] for name in params}
    for r in range(a.repeats):
        for name, P in params.items():
            rates[name].append(rate(P, a.hands, workers, 1 + r, buffer))
    med = {name: median(v) for name, v in rates.items()}
    for name, v in rates.items():
        print(f"  {name:<11} {med[name]:>12,.0f} hands/s  (median of {len(v)}; min {min(v):,.0f}, max {max(v):,.0f})")
        run.figure(f"{name} hands/s", v, "hands/s")
    run.target("counter / random", med["counter x4"] / med["random x4"], ">=", TARGET, unit="x")


if __name__ == "__main__":
    bench.main(measure)
