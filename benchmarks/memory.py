#!/usr/bin/env python3
"""Benchmark: peak memory (RSS) of a long `unosim run`.

Issue target it checks: peak RSS < 1 GiB for a 10-million-hand run (printed as met /
NOT MET, never asserted).

It runs `unosim run CONFIG --hands N --quiet --force --out TMP` (default
configs/standard.toml, 10,000,000 hands, all workers) in a subprocess, R times, and reads
each child's own peak resident set size from the kernel (os.wait4's rusage.ru_maxrss: the
child alone, not the sum nor the max over earlier children), then deletes the output; the
largest peak is judged.  A 1,000-hand run first warms the numba cache, so the measured
run loads compiled code instead of compiling (a compile costs memory of its own: the
warm-up's peak is printed too, as is the peak of a cached 1,000-hand run, the floor any
run pays).

    python benchmarks/memory.py                       # 10,000,000 hands
    python benchmarks/memory.py --games 2000000 --workers 1
    python benchmarks/memory.py --quick               # smoke run: 200,000 hands

Prints GiB (and MiB), the wall time, the size of the output on disk and whether the
target is met.  The result directory goes in a temporary folder (--tmp), deleted at the
end; a 10-million-hand result takes a few hundred MB.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from harness import ROOT, Benchmark, Run, child, count, count0, median, resolve_config, shown, this_tree, unosim_command

TARGET_GIB = 1.0
GIB = 1024 ** 3
MIB = 1024 ** 2

bench = Benchmark(__doc__, repeats=1, quick={"games": 200_000})
bench.option("--config", type=resolve_config, default=ROOT / "configs" / "standard.toml",
             help="a TOML path or a bundled name [default: standard]")
bench.option("--games", type=count, default=10_000_000, help="hands in the measured run [default: 10,000,000]")
bench.option("--workers", type=count0, default=0, help="passed to `unosim run` [default: 0, all]")
bench.option("--chunk-size", type=count, default=None, help="passed to `unosim run` [default: its own]")
bench.option("--seed", type=int, default=0)
bench.option("--tmp", default=None, help="folder for the temporary result [default: the system's]")


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def measure(run: Run) -> None:
    a = run.args
    tmp = Path(tempfile.mkdtemp(prefix="unosim-mem-", dir=a.tmp))
    out = tmp / "run.parquet"
    base = unosim_command() + ["run", str(a.config), "--seed", str(a.seed), "--out", str(out), "--quiet", "--force"]
    extra = (["--workers", str(a.workers)] if a.workers else []) + \
            (["--chunk-size", str(a.chunk_size)] if a.chunk_size else [])
    env = this_tree().env
    print(f"unosim peak memory: {shown(a.config)}, {a.games:,} hands, workers {a.workers or 'all'}", flush=True)
    peaks, walls = [], []
    try:
        for label in ("warm-up, 1,000 hands (compiles if the cache is cold)", "cached, 1,000 hands (the floor)"):
            c = child(base + ["--hands", "1000"] + extra, env=env)
            print(f"  {label:<54}{c.wall:7.1f} s, peak RSS {c.rss / MIB:7.0f} MiB", flush=True)
        run.figure("floor peak RSS", c.rss / MIB, "MiB")
        for r in range(a.repeats):
            c = child(base + ["--hands", str(a.games)] + extra, env=env)
            size = du(out)
            peaks.append(c.rss)
            walls.append(c.wall)
            print(f"  {f'measured, {a.games:,} hands ({r + 1}/{a.repeats})':<54}{c.wall:7.1f} s, "
                  f"peak RSS {c.rss / MIB:7.0f} MiB; output {size / MIB:,.0f} MiB on disk", flush=True)
            shutil.rmtree(out, ignore_errors=True)
        printed = next((ln.strip() for ln in c.stdout.splitlines() if "hands/s" in ln), "")
        if printed:
            print(f"  unosim printed: {printed}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rss = max(peaks)
    run.figure("wall s", median(walls), "s")
    run.figure("output MiB", size / MIB, "MiB")
    print(f"\npeak RSS of the {a.games:,}-hand run: {rss / GIB:.3f} GiB ({rss / MIB:,.0f} MiB); output deleted")
    run.target(f"peak RSS of a {a.games:,}-hand run", rss / GIB, "<", TARGET_GIB, unit="GiB", fmt="{:.3f}",
               note="" if a.games == 10_000_000 else "the target is stated for 10,000,000 hands")


if __name__ == "__main__":
    bench.main(measure)
