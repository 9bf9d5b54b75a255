#!/usr/bin/env python3
"""Benchmark: peak memory (RSS) of a long `unosim run`.

Issue target it checks: peak RSS < 1 GiB for a 10-million-hand run (printed as met /
NOT MET, never asserted).

It runs `unosim run CONFIG --games N --quiet --force --out TMP` (default
configs/standard.toml, 10,000,000 hands, all workers) in a subprocess and reads that
child's own peak resident set size from the kernel (os.wait4's rusage.ru_maxrss: the
child alone, not the sum nor the max over earlier children), then deletes the output.
A 1,000-hand run first warms the numba cache, so the measured run loads compiled code
instead of compiling (a compile costs memory of its own: the warm-up's peak is printed
too, as is the peak of a cached 1,000-hand run, the floor any run pays).

    python benchmarks/memory.py                       # 10,000,000 hands
    python benchmarks/memory.py --games 2000000 --workers 1
    python benchmarks/memory.py --quick               # smoke run: 200,000 hands

Prints GiB (and MiB), the wall time, the size of the output on disk and whether the
target is met.  The result directory goes in a temporary folder (--tmp), deleted at the
end; a 10-million-hand result takes a few hundred MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = ROOT / "configs" / "standard.toml"
CHILD_ENV = dict(os.environ)
TARGET_GIB = 1.0
GIB = 1024 ** 3


def unosim_command() -> list[str]:
    exe = shutil.which("unosim", path=str(Path(sys.executable).parent)) or shutil.which("unosim")
    return [exe] if exe else [sys.executable, "-m", "unosim.cli"]


def measured_run(cmd: list[str]) -> tuple[float, int, str]:
    """(wall s, peak RSS in bytes, stdout) of one child; exits with its stderr on failure."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, env=CHILD_ENV, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4, tell Popen
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.exit(f"error: {' '.join(cmd)} failed ({proc.returncode}):\n{err.read()}{out.read()}")
        return wall, usage.ru_maxrss * 1024, out.read()  # Linux: ru_maxrss is in KiB


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(DEFAULT_CONFIG), help="[default: configs/standard.toml]")
    p.add_argument("--games", type=int, default=10_000_000, help="hands in the measured run [default: 10,000,000]")
    p.add_argument("--workers", type=int, default=None, help="passed to `unosim run` [default: all]")
    p.add_argument("--chunk-size", type=int, default=None, help="passed to `unosim run` [default: its own]")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tmp", default=None, help="folder for the temporary result [default: the system's]")
    p.add_argument("--quick", action="store_true", help="smoke run: 200,000 hands (overrides --games)")
    a = p.parse_args(argv)
    if a.quick:
        a.games = 200_000
    if a.games < 1:
        p.error("--games must be at least 1")

    tmp = Path(tempfile.mkdtemp(prefix="unosim-mem-", dir=a.tmp))
    out = tmp / "run.parquet"
    base = unosim_command() + ["run", a.config, "--seed", str(a.seed), "--out", str(out), "--quiet", "--force"]
    extra = (["--workers", str(a.workers)] if a.workers else []) + \
            (["--chunk-size", str(a.chunk_size)] if a.chunk_size else [])
    print(f"unosim peak memory: {a.config}, {a.games:,} hands, workers {a.workers or 'all'}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    try:
        wall, warm_rss, _ = measured_run(base + ["--games", "1000"] + extra)
        print(f"  {'warm-up, 1,000 hands (compiles if the cache is cold)':<54}{wall:7.1f} s, "
              f"peak RSS {warm_rss / 2**20:7.0f} MiB", flush=True)
        wall, floor_rss, _ = measured_run(base + ["--games", "1000"] + extra)
        print(f"  {'cached, 1,000 hands (the floor)':<54}{wall:7.1f} s, "
              f"peak RSS {floor_rss / 2**20:7.0f} MiB", flush=True)
        wall, rss, stdout = measured_run(base + ["--games", str(a.games)] + extra)
        size = du(out)
        print(f"  {f'measured, {a.games:,} hands':<54}{wall:7.1f} s, "
              f"peak RSS {rss / 2**20:7.0f} MiB; output {size / 2**20:,.0f} MiB on disk", flush=True)
        rate = next((ln.strip() for ln in stdout.splitlines() if "hands/s" in ln), "")
        if rate:
            print(f"  unosim printed: {rate}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    ok = rss < TARGET_GIB * GIB
    print(f"\npeak RSS of the {a.games:,}-hand run: {rss / GIB:.3f} GiB ({rss / 2**20:,.0f} MiB)")
    print(f"[{'met' if ok else 'NOT MET'}] peak RSS < {TARGET_GIB:g} GiB for a "
          f"{a.games:,}-hand run{'' if a.games == 10_000_000 else ' (the target is stated for 10,000,000 hands)'}")
    print(f"output deleted ({tmp})")


if __name__ == "__main__":
    main()
