#!/usr/bin/env python3
"""Benchmark: start-up time of `unosim run`, with a cold and with a warm numba cache.

Issue target it checks: a cached start of `unosim run --hands 1000` < 3 s (printed as
met / NOT MET, never asserted).

What it runs, each in a fresh subprocess, timed from outside (wall seconds):
  cold     `unosim run CONFIG --hands 1000 --quiet --force` with NUMBA_CACHE_DIR set to a
           new, empty temporary folder: every kernel is compiled (the JIT cold start)
  cached   the same command again with the same folder, R times (median): every kernel
           is loaded from that cache; this is the figure the target is about
  import   `python -c "import unosim.cli"` (R times, median): the CLI's own imports
           (click; everything heavy is imported inside the commands)
  where the time goes in a cached start, measured inside one child with the same cache:
           importing unosim.run.runner (numba, numpy, pyarrow, the engine modules), loading
           the config, the first play_chunk (numba loads its cached machine code), a
           second play_chunk (the play itself), the first Parquet write
  importtime  the top costs of `python -X importtime -c "import unosim.run.runner"`

    python benchmarks/startup.py              # cold compile + 3 cached repeats
    python benchmarks/startup.py --no-cold    # skip the compile: use unosim's own cache
    python benchmarks/startup.py --quick      # smoke run: 1 repeat, no cold compile

The temporary cache folder is deleted at the end; the user's own cache is not touched.
A cold compile of the hands kernel takes a minute or more (benchmarks/README.md).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import ROOT, Benchmark, Run, child, count, median, resolve_config, this_tree, unosim_command

TARGET_CACHED = 3.0
GAMES = 1000

bench = Benchmark(__doc__, repeats=3, quick={"no_cold": True})
bench.option("--config", type=resolve_config, default=ROOT / "configs" / "standard.toml",
             help="a TOML path or a bundled name [default: standard]")
bench.option("--top", type=count, default=12, help="rows of the import-time tables [default: 12]")
bench.option("--no-cold", action="store_true",
             help="skip the cold compile: use unosim's own numba cache folder, warmed by one run")

# Run inside a child: where a cached start spends its time (seconds per phase).
PHASES = r"""
import json, sys, time
t = [time.perf_counter()]
import unosim.run.runner
from unosim.rules.config import load_config, to_params
from unosim.run.schema import run_metadata
from unosim.run.store import ResultDir, column_names, to_table
t.append(time.perf_counter())
cfg = load_config(sys.argv[1]); P = to_params(cfg)
t.append(time.perf_counter())
import unosim.run.workers
w = unosim.run.workers.max_workers()
rows = unosim.run.runner.play_chunk(P, 0, 0, 1000, w)
t.append(time.perf_counter())
rows = unosim.run.runner.play_chunk(P, 0, 1000, 1000, w)
t.append(time.perf_counter())
out = ResultDir(__import__("pathlib").Path(sys.argv[2]))
out.prepare({"config": cfg.to_toml(), "seed": 0, "games": 1000, "chunk_size": 1000, "mode": "hands"}, force=True, resume=False)
out.write_chunk(0, to_table(rows, column_names(cfg.players), run_metadata(cfg, 0, "hands"), 1000))
t.append(time.perf_counter())
print(json.dumps([b - a for a, b in zip(t, t[1:])]))
"""
PHASE_NAMES = ["import unosim.run.runner, config, store", "load and check the config",
               "first play_chunk(1,000): numba cache load", "second play_chunk(1,000): the play alone",
               "first Parquet write (1,000 rows)"]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess]:
    c = child(cmd, env=env)
    return c.wall, subprocess.CompletedProcess(cmd, 0, c.stdout, c.stderr)


def importtime(module: str, env: dict[str, str], top: int) -> tuple[list[tuple[int, int, str]], float]:
    """The `top` imports with the largest own time, and the total, from -X importtime."""
    _, proc = timed([sys.executable, "-X", "importtime", "-c", f"import {module}"], env)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:"):].split("|")
        rows.append((int(own), int(cumulative), name.rstrip()))
    total = sum(r[0] for r in rows) / 1e6
    return sorted(rows, reverse=True)[:top], total


def top_level(module: str, env: dict[str, str], top: int) -> list[tuple[int, str]]:
    """Cumulative import time of the packages `module` pulls in, grouped by top-level name."""
    _, proc = timed([sys.executable, "-X", "importtime", "-c", f"import {module}"], env)
    by_root: dict[str, int] = {}
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = line[len("import time:"):].split("|")
        root = name.strip().split(".")[0]
        by_root[root] = by_root.get(root, 0) + int(own)
    return sorted(((us, root) for root, us in by_root.items()), reverse=True)[:top]


def measure(run: Run) -> None:
    a = run.args
    cache = Path(tempfile.mkdtemp(prefix="unosim-numba-cache-"))
    # --no-cold: unosim's own cache folder (warmed by the first run), else the empty temp one
    user = {k: v for k, v in this_tree().env.items() if k != "NUMBA_CACHE_DIR"}
    env = this_tree().env if a.no_cold else dict(user, NUMBA_CACHE_DIR=str(cache))
    out = cache.parent / (cache.name + "-run.parquet")
    cmd = unosim_command() + ["run", str(a.config), "--hands", str(GAMES), "--quiet", "--force", "--out", str(out)]
    print(f"unosim start-up: {' '.join(cmd[1:])}")
    where = "unosim's own cache folder" if a.no_cold else f"NUMBA_CACHE_DIR={cache} (temporary)"
    print(f"{where}\n", flush=True)
    try:
        cold, _ = timed(cmd, env)
        label = "warm-up run (--no-cold: not a cold start)" if a.no_cold else "cold (empty numba cache: compiles)"
        print(f"  {label:<50} {cold:7.2f} s", flush=True)
        cached = [timed(cmd, env)[0] for _ in range(a.repeats)]
        print(f"  {'cached (same cache folder)':<50} {median(cached):7.2f} s   "
              f"(runs: {', '.join(f'{x:.2f}' for x in cached)})", flush=True)
        imports = [timed([sys.executable, "-c", "import unosim.cli"], env)[0] for _ in range(a.repeats)]
        bare = [timed([sys.executable, "-c", "pass"], env)[0] for _ in range(a.repeats)]
        label = 'python -c "import unosim.cli"'
        print(f"  {label:<50} {median(imports):7.2f} s   "
              f"(bare `python -c pass`: {median(bare):.2f} s)", flush=True)
        _, proc = timed([sys.executable, "-c", PHASES, str(a.config), str(out)], env)
        phases = json.loads(proc.stdout.strip().splitlines()[-1])
        shutil.rmtree(out, ignore_errors=True)
        print("\n  where a cached start spends its time (one child, same cache; plus interpreter start):")
        for name, sec in zip(PHASE_NAMES, phases):
            print(f"    {name:<48} {sec:7.3f} s")
            run.figure(f"phase: {name}", sec, "s")
        print(f"    {'sum':<48} {sum(phases):7.3f} s")
        rows, total = importtime("unosim.run.runner", env, a.top)
        roots = top_level("unosim.run.runner", env, a.top)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)

    print(f"\n  python -X importtime -c \"import unosim.run.runner\": {total:.2f} s of imports in all "
          "(-X importtime itself slows imports)")
    print("    by top-level package (own times summed):")
    for us, root in roots:
        print(f"      {root:<30} {us / 1e6:7.3f} s")
    print("    single modules with the largest own time (cumulative = with what they import):")
    for own, cumulative, name in rows:
        print(f"      {name.strip():<44} own {own / 1e6:6.3f} s   cumulative {cumulative / 1e6:6.3f} s")
    run.figure("cold s" if not a.no_cold else "warm-up s", cold, "s")
    run.figure("cached s", cached, "s")
    run.figure("import unosim.cli s", median(imports), "s")
    print()
    run.target(f"cached start of `unosim run --hands {GAMES}`", median(cached), "<", TARGET_CACHED, unit="s",
               note="" if a.no_cold else f"cold: {cold:.1f} s")


if __name__ == "__main__":
    bench.main(measure)
