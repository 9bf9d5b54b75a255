#!/usr/bin/env python3
"""Benchmark: the CPU seconds of a first run, the engine compiled from an empty cache.

Issue target it checks: a cold `unosim run CONFIG --hands 1000` costs at most 60 CPU
seconds (numba compiles on one thread, so CPU time is what a user waits on a quiet
machine; on a busy one the wall time is longer, the CPU time about the same).

What it runs, each in a fresh subprocess with NUMBA_CACHE_DIR set to a new, empty
temporary folder (deleted afterwards; the user's own cache is not touched):
  run      `unosim run CONFIG --hands 1000 --quiet --force`: compiles what a hands run
           needs (the hands kernel); CPU seconds (user + system, the child's own threads),
           wall seconds and peak RSS; the target is judged on the median CPU seconds
  warmup   with --warmup, also `unosim warmup --quiet`: every kernel
  where    with --where, a child that compiles the hands kernel with numba's code
           libraries timed: for each library (one per compiled function, plus the parallel
           kernel's wrappers) the CPU seconds of LLVM's module optimisation and of machine
           code generation, largest first; and the total of each

    python benchmarks/compile_time.py                 # 1 cold run (a minute or more)
    python benchmarks/compile_time.py --repeats 3     # median of 3 cold runs
    python benchmarks/compile_time.py --where         # and where the compile spends it

A cold compile is minutes of CPU on a busy machine: run it alone.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from harness import ROOT, Benchmark, Run, child, count, median, resolve_config, this_tree, unosim_command

TARGET_CPU = 60.0
HANDS = 1000

bench = Benchmark(__doc__, repeats=1, quick={})
bench.option("--config", type=resolve_config, default=ROOT / "configs" / "standard.toml",
             help="a TOML path or a bundled name [default: standard]")
bench.option("--warmup", action="store_true", help="also time a cold `unosim warmup` (every kernel)")
bench.option("--where", action="store_true", help="also time numba's code libraries in a cold compile")
bench.option("--top", type=count, default=15, help="libraries listed by --where [default: 15]")

# Run inside a child with an empty cache: numba's code libraries, timed.
WHERE = r"""
import json, sys, time, collections
from numba.core import codegen
T = collections.defaultdict(lambda: [0.0, 0.0])
def timed(cls, name, i):
    orig = getattr(cls, name)
    def f(self, *a, **k):
        t = time.process_time()
        try:
            return orig(self, *a, **k)
        finally:
            T[self.name][i] += time.process_time() - t
    setattr(cls, name, f)
timed(codegen.CPUCodeLibrary, "_optimize_final_module", 0)
timed(codegen.JITCodeLibrary, "_finalize_specific", 1)
from unosim.run.warmup import warm
t = time.process_time()
warm("hands")
print(json.dumps({"total": time.process_time() - t, "libraries": T}))
"""


def _cold_env(cache: Path) -> dict[str, str]:
    return dict(this_tree().env, NUMBA_CACHE_DIR=str(cache))


def measure(run: Run) -> None:
    a = run.args
    cmd = unosim_command() + ["run", str(a.config), "--hands", str(HANDS), "--quiet", "--force"]
    print(f"cold start: {' '.join(cmd[1:])} --out TMP, NUMBA_CACHE_DIR a new empty folder\n", flush=True)
    cpu, wall, rss = [], [], []
    for _ in range(a.repeats):
        cache = Path(tempfile.mkdtemp(prefix="unosim-cold-cache-"))
        try:
            c = child(cmd + ["--out", str(cache / "run")], env=_cold_env(cache))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        cpu.append(c.cpu)
        wall.append(c.wall)
        rss.append(c.rss / 2**30)
        print(f"  run     {c.cpu:7.1f} CPU s  {c.wall:7.1f} s wall  {c.rss / 2**30:5.2f} GiB peak", flush=True)
    run.figure("cold run CPU s", cpu, "s")
    run.figure("cold run wall s", wall, "s")
    run.figure("cold run peak GiB", rss, "GiB")
    if a.warmup:
        cache = Path(tempfile.mkdtemp(prefix="unosim-cold-cache-"))
        try:
            c = child(unosim_command() + ["warmup", "--quiet"], env=_cold_env(cache))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        print(f"  warmup  {c.cpu:7.1f} CPU s  {c.wall:7.1f} s wall  {c.rss / 2**30:5.2f} GiB peak", flush=True)
        run.figure("cold warmup CPU s", c.cpu, "s")
    if a.where:
        cache = Path(tempfile.mkdtemp(prefix="unosim-cold-cache-"))
        try:
            got = child([sys.executable, "-c", WHERE], env=_cold_env(cache)).last_json()
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        libs = sorted(got["libraries"].items(), key=lambda kv: -sum(kv[1]))
        opt = sum(v[0] for _, v in libs)
        gen = sum(v[1] for _, v in libs)
        print(f"\n  where the hands kernel's compile goes ({got['total']:.1f} CPU s in the compiling process; "
              f"{len(libs)} code libraries):")
        print(f"    LLVM module optimisation {opt:6.1f} s, machine code {gen:6.1f} s, the rest (typing, "
              f"lowering, caching) {got['total'] - opt - gen:6.1f} s")
        for name, (o, g) in libs[:a.top]:
            print(f"    {o:6.2f} + {g:6.2f} s  {name[:70]}")
        run.figure("where: module optimisation CPU s", opt, "s")
        run.figure("where: machine code CPU s", gen, "s")
    print()
    run.target(f"cold `unosim run --hands {HANDS}` (CPU s)", median(cpu), "<=", TARGET_CPU, unit="s",
               note=f"wall {median(wall):.1f} s")


if __name__ == "__main__":
    bench.main(measure)
