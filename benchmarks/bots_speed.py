#!/usr/bin/env python3
"""Benchmark: hands/s of 4 `counter` bots against 4 `random` (B0) bots, in one run.

Target (printed as met / NOT MET, never asserted): `counter`, the strategy with the most
work per decision (card counting on every play, per-colour odds on every choice), at
least half as fast as B0.

How it measures: both tables use the official rules with 4 players and differ only in
their [bots] seats.  After a warm-up call per table (numba compiles or loads its cache),
the kernel alone (`runner.play_chunk` into one reused buffer, no Parquet) plays N hands per table, alternating
the two tables R times so that a change in machine load hits both alike; the median rate
of each is reported, and the ratio of the medians.

    python benchmarks/bots_speed.py                # 400,000 hands per table, 5 rounds
    python benchmarks/bots_speed.py --quick        # 40,000 hands, 3 rounds
    python benchmarks/bots_speed.py --workers 1    # one core

Timings on a shared machine are indicative only: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from unosim.rules.config import default_config, to_params
from unosim.run.runner import play_chunk, set_workers

TABLES = {"random x4": ["random"] * 4, "counter x4": ["counter"] * 4}
TARGET = 0.5


def rate(P, hands: int, workers: int, seed: int, buffer) -> float:
    t0 = time.perf_counter()
    play_chunk(P, seed, 0, hands, workers, buffer)
    return hands / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=400_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--quick", action="store_true", help="40,000 hands, 3 rounds")
    args = ap.parse_args()
    if args.quick:
        args.hands, args.rounds = 40_000, 3
    workers = set_workers(args.workers)
    params = {name: to_params(default_config().replace(seats=seats)) for name, seats in TABLES.items()}
    print(f"load average before: {os.getloadavg()[0]:.2f}; workers {workers}; "
          f"{args.hands:,} hands per table x {args.rounds} rounds")
    for name, P in params.items():
        t0 = time.perf_counter()
        play_chunk(P, 0, 0, 1000, workers)
        print(f"  warm-up {name}: {time.perf_counter() - t0:.1f} s (compile or cache load)")
    # one output buffer, touched once before timing: fresh pages cost ~4 ms per MiB on
    # this kind of VM, which would be timed as the kernel's (the runner reuses buffers too)
    buffer = play_chunk(params["random x4"], 0, 0, args.hands, workers)
    rates: dict[str, list[float]] = {name: [] for name in params}
    for r in range(args.rounds):
        for name, P in params.items():
            rates[name].append(rate(P, args.hands, workers, 1 + r, buffer))
    med = {name: statistics.median(v) for name, v in rates.items()}
    for name, v in rates.items():
        print(f"  {name:<11} {med[name]:>12,.0f} hands/s  (median of {len(v)}; "
              f"min {min(v):,.0f}, max {max(v):,.0f})")
    ratio = med["counter x4"] / med["random x4"]
    verdict = "met" if ratio >= TARGET else "NOT MET"
    print(f"  ratio counter/random: {ratio:.2f}  (target >= {TARGET}: {verdict})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
