#!/usr/bin/env python3
"""Benchmark: CPU seconds `unosim run` spends before its first hand, with a warm cache.

Issue target it checks: a cached `unosim run CONFIG --hands 1` spends < 0.5 CPU s before
its first hand (printed as met / NOT MET, never asserted).  CPU time, not wall time: the
machine may be shared, and another job's load moves a wall clock, not this process's
own CPU seconds.

Each figure is taken in a fresh child that runs the `unosim` command in its own process
(the process that plays), with the kernel entry point wrapped to read the process's CPU
clock (``time.process_time``: every thread, interpreter start included) at three
moments: the kernel's first call (it loads the cached machine code), that call's end,
and the first call that plays a hand.  The figures:

  before first hand   CPU seconds from the interpreter's start to the first hand
  imports + setup     ... to the cached kernel's load (imports, config, output folder)
  cache load          the load itself (numba reads and links the cached machine code)
  whole command       the child's CPU seconds to its end (os.wait4): one hand, the part
                      file written, the exit

With ``--against REV`` the same figures are taken of another revision (exported with
`git archive`, its own numba cache, compiled in an untimed first run), in interleaved
rounds (this tree, then REV, then this tree ...), so a drift in the host's speed hits
both alike; medians of the rounds are reported.

    python benchmarks/first_hand.py                    # this tree, 5 rounds
    python benchmarks/first_hand.py --against main     # interleaved with main
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from harness import ROOT, Benchmark, Run, median, resolve_config, revision, this_tree

TARGET = 0.5

bench = Benchmark(__doc__, repeats=5, quick={}, against="")
bench.option("--config", type=resolve_config, default=ROOT / "configs" / "standard.toml",
             help="a TOML path or a bundled name [default: standard]")

# Run in a child, in the tree measured: the unosim command with its kernel entry point timed.
CHILD = r"""
import json, sys, time
import unosim.engine.batch as batch

kernel, marks = batch.play_hands, {}


class Timed:
    def __getattr__(self, name):  # the warm-up checks read the dispatcher's cache
        return getattr(kernel, name)

    def __call__(self, P, seed, start, count, *rest):
        if count > 0 and "first" not in marks:
            marks["first"] = time.process_time()
        if count == 0 and "load0" not in marks:
            marks["load0"] = time.process_time()
        result = kernel(P, seed, start, count, *rest)
        if count == 0 and "load1" not in marks:
            marks["load1"] = time.process_time()
        return result


batch.play_hands = Timed()
from unosim.cli import main

try:
    main(sys.argv[1:])
except SystemExit as e:
    if e.code:
        raise
print(json.dumps(marks))
"""

NAMES = ("before first hand", "imports + setup", "cache load", "whole command")


def figures(tree, config: Path, out: Path) -> dict[str, float]:
    """One child's figures, in CPU seconds."""
    c = tree.python(CHILD, "run", config, "--hands", 1, "--quiet", "--force", "--out", out,
                    what="unosim run --hands 1")
    m = c.last_json()
    return {"before first hand": m["first"], "imports + setup": m["load0"],
            "cache load": m["load1"] - m["load0"], "whole command": c.cpu}


def measure(run: Run) -> None:
    a = run.args
    trees = [this_tree()]
    with tempfile.TemporaryDirectory(prefix="unosim-first-hand-") as tmp:
        out = Path(tmp) / "run.parquet"
        if a.against:
            ctx = revision(a.against)
            trees.append(ctx.__enter__())
        try:
            for tree in trees:  # untimed: a baseline compiles its kernel here
                print(f"warming {tree.desc} ...", flush=True)
                figures(tree, a.config, out)
            taken: dict[str, dict[str, list[float]]] = {t.label: {n: [] for n in NAMES} for t in trees}
            for r in range(a.repeats):
                for tree in trees:
                    for name, value in figures(tree, a.config, out).items():
                        taken[tree.label][name].append(value)
                print(f"  round {r + 1}: " + "; ".join(
                    f"{t.label} {taken[t.label]['before first hand'][-1]:.3f}" for t in trees), flush=True)
        finally:
            if a.against:
                ctx.__exit__(None, None, None)
    print(f"\nCPU seconds, `unosim run {a.config.stem} --hands 1` (medians of {a.repeats} rounds):")
    print(f"  {'':<20}" + "".join(f"{t.desc[:24]:>26}" for t in trees))
    for name in NAMES:
        print(f"  {name:<20}" + "".join(f"{median(taken[t.label][name]):>26.3f}" for t in trees))
        for t in trees:
            run.figure(f"{t.label}: {name}", taken[t.label][name], "CPU s")
    for t in trees:
        print(f"  rounds, {t.label}, before first hand: "
              + ", ".join(f"{x:.3f}" for x in taken[t.label]["before first hand"]))
    print()
    run.target("CPU s before the first hand (this tree)", median(taken[trees[0].label]["before first hand"]),
               "<", TARGET, unit="CPU s", fmt="{:.3f}")


if __name__ == "__main__":
    bench.main(measure)
