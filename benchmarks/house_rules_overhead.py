#!/usr/bin/env python3
"""Benchmark: what the house-rule switches cost a hand of the official rules.

Plays standard 4-player B0 hands with the kernel of an earlier revision ("before",
`--against`, default the first engine commit, 463b050, which played the official rules
with only the hooks for house rules) and with this tree's ("after"), each in its own
subprocess on one core, the earlier one with its own new numba cache (its first run
compiles), in the same run.  Targets: after at least 0.90x before; and this tree's
configs/house_favourites.toml at least half as fast as its standard rules.

Each figure is the kernel alone (`engine.batch.play_hands` into one buffer, no Parquet),
the best of R runs in CPU time of the one thread, after an untimed warm-up call.  The
earlier revision gets a plain `name = "standard"` config: its registry may not know
keys added since.

    python benchmarks/house_rules_overhead.py                      # 500,000 hands, best of 3
    python benchmarks/house_rules_overhead.py --against HEAD~20 --hands 1000000
    python benchmarks/house_rules_overhead.py --quick              # 20,000 hands, 1 repeat
"""

from __future__ import annotations

from harness import ROOT, Benchmark, Run, Tree, count, revision, this_tree

TARGET_OVERHEAD = 0.90
TARGET_HOUSE = 0.50

bench = Benchmark(__doc__, repeats=3, quick={"hands": 20_000}, against="463b050")
bench.option("--hands", type=count, default=500_000, help="hands per timed run [default: 500,000]")
bench.option("--tmp", default=None, help="folder for the exported revision [default: the system's]")

# Runs inside the subprocess, in the tree measured: the kernel alone (no Parquet), best of
# R, CPU time of one thread.  Early trees kept the config module at unosim/config.py.
PROBE = r"""
import json, sys, time, numba
numba.set_num_threads(1)
try:
    from unosim.rules.config import load_config, to_params
except ImportError:
    from unosim.config import load_config, to_params
from unosim.engine.batch import play_hands, new_out
cfg = load_config(sys.argv[1]); n = int(sys.argv[2]); reps = int(sys.argv[3])
P = to_params(cfg)
out = new_out(1000); play_hands(P, 1, 0, 1000, out, 1)
out = new_out(n); best = 1e9
for _ in range(reps):
    t = time.process_time(); play_hands(P, 7, 0, n, out, 1); best = min(best, time.process_time() - t)
print(json.dumps({"hands_per_s": n / best, "mean_turns": float(out[:, 6].mean())}))
"""


def probe(tree: Tree, config: str, hands: int, repeats: int) -> dict:
    return tree.python(PROBE, config, hands, repeats, what="the kernel probe").last_json()


def measure(run: Run) -> None:
    a = run.args
    print(f"{a.hands:,} hands, best of {a.repeats}, one core, kernel only", flush=True)
    with revision(a.against, a.tmp) as before_tree:
        plain = before_tree.path.parent / "plain-standard.toml"
        plain.write_text('name = "standard"\n')
        print(f"before: {before_tree.desc} (compiling into a new cache first)", flush=True)
        before = probe(before_tree, str(plain), a.hands, a.repeats)
    now = this_tree()
    after = probe(now, str(ROOT / "configs" / "standard.toml"), a.hands, a.repeats)
    fav = probe(now, str(ROOT / "configs" / "house_favourites.toml"), a.hands, a.repeats)
    for label, r in ((f"standard, engine {a.against} (before)", before), ("standard, this tree (after)", after),
                     ("house_favourites, this tree", fav)):
        print(f"  {label:<40} {r['hands_per_s']:>10,.0f} hands/s  (mean turns {r['mean_turns']:.3f})")
        run.figure(f"{label} hands/s", r["hands_per_s"], "hands/s")
    run.target(f"after / before ({a.against})", after["hands_per_s"] / before["hands_per_s"], ">=", TARGET_OVERHEAD,
               unit="x", fmt="{:.3f}")
    run.target("house_favourites / standard", fav["hands_per_s"] / after["hands_per_s"], ">=", TARGET_HOUSE,
               unit="x", fmt="{:.3f}")


if __name__ == "__main__":
    bench.main(measure)
