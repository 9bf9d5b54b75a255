#!/usr/bin/env python3
"""Benchmark: a kernel runs as fast whatever the process ran before it.

A batch kernel's loop body is the engine optimized whole; the same engine functions
also exist alone, lightly optimized, once anything calls them from Python (a scenario,
a trace, `engine.search.choice_at`) or a kernel compiles.  When the body bound its calls
to those copies, the same kernel ran several times slower in such a process: the first
run after a compile, a notebook that traced a hand first, a benchmark that found its
positions first (unosim/kernel/jit.py, `_BodyLibrary`).

For each table (the official rules heads-up with `counter` at both seats, and with a
`search` seat at 16 worlds x 2 rollouts), R rounds, each with two fresh child
processes, one core each (numba's threads set to 1):
  alone   the kernel is loaded first, then timed (`runner.play_chunk`, N hands)
  after   a hand is first played from Python through the scenario functions
          (`scenario.first_turn`, `engine.search.step_at`: the light copies are loaded),
          then the same kernel is loaded and timed
Target (printed as met / NOT MET, never asserted): `after` at least 0.9 of `alone` by
medians of the rounds.

    python benchmarks/load_order.py            # 3 rounds
    python benchmarks/load_order.py --quick    # 1 round, a tenth of the hands
"""

from __future__ import annotations

from harness import Benchmark, Run, count, median, this_tree

TABLES = {"counter x2": ("counter", "counter_hands"),
          "search 16x2 + counter": ({"strategy": "search", "worlds": 16, "rollouts": 2}, "search_hands")}
TARGET = 0.9

CHILD = """
import json, sys, time
import numba
import numpy as np
numba.set_num_threads(1)
from unosim.rules.config import default_config, to_params
from unosim.run.runner import play_chunk
seat, hands, after = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "after"
cfg = default_config(players=2).replace(seats=[seat, "counter"])
P = to_params(cfg)
if after:
    from unosim.engine import search, search_batch
    from unosim.kernel.layout import LOG_WIDTH, S_DONE
    from unosim.scenario import first_turn
    Ps, ctx = search_batch.split_params(P) if search_batch.has_search(P) else (P, np.zeros(search.C_LEN, np.int64))
    st = first_turn(cfg, 1, dealer=0)
    rng, log = np.ones(1, np.uint64), np.zeros((0, LOG_WIDTH), np.int64)
    while st[S_DONE] == 0:
        search.step_at(st, Ps, rng, log, ctx)
play_chunk(P, 0, 0, max(hands // 10, 1), 1)  # load the kernel (first, or after the scenario)
t = time.perf_counter()
play_chunk(P, 1, 0, hands, 1)
print(json.dumps(hands / (time.perf_counter() - t)))
"""

bench = Benchmark(__doc__, repeats=3, quick={"counter_hands": 20_000, "search_hands": 40})
bench.option("--counter-hands", type=count, default=200_000, help="hands per timing at the counter table "
             "[default: 200,000]")
bench.option("--search-hands", type=count, default=400, help="hands per timing at the search table [default: 400]")


def measure(run: Run) -> None:
    import json

    tree = this_tree()
    ratios = []
    for name, (seat, option) in TABLES.items():
        n = getattr(run.args, option)
        rates: dict[str, list[float]] = {"alone": [], "after": []}
        for _ in range(run.repeats):
            for order in rates:
                out = tree.python(CHILD, json.dumps(seat), n, order, pin=True, what=f"{name}, {order}")
                rates[order].append(out.last_json())
        alone, after = median(rates["alone"]), median(rates["after"])
        ratios.append(after / alone)
        print(f"  {name}: {n:,} hands on one core; alone {alone:,.1f} hands/s, after a scenario "
              f"{after:,.1f} hands/s ({after / alone:.2f}x)")
        run.figure(f"{name} alone", rates["alone"], "hands/s")
        run.figure(f"{name} after", rates["after"], "hands/s")
    run.target("after / alone (worst table)", min(ratios), ">=", TARGET, unit="x")


if __name__ == "__main__":
    bench.main(measure)
