#!/usr/bin/env python3
"""Benchmark: end-to-end hands/s of `unosim run`, with one worker and with more.

Issue targets it checks (printed as met / NOT MET, never asserted):
  * one core, end to end: >= 300,000 hands/s   (`unosim run CONFIG --workers 1`, the
    process pinned to one CPU, so the Parquet writer thread shares that core too)
  * 2 workers (both cores) >= 1.7x one core
  * with --compare CONFIG2: CONFIG2 at least half as fast as CONFIG
    (house rules: `--compare configs/house_favourites.toml`)

How it measures, for each config:
  1. warm-up: `unosim run CONFIG --hands 1000` once, so the numba cache is compiled;
  2. start cost: the same 1000-hand run, median of R, timed from outside;
  3. R rounds, each running 1 worker, 2 workers (and all, if numba may use more than 2
     cores) once, so host-speed drift hits all alike: the real CLI
     `unosim run CONFIG --hands N --workers W --quiet --force --out TMP` in a subprocess,
     the subprocess's wall clock gives the end-to-end rate N / wall (interpreter
     start, imports, numba cache load, the kernel and Parquet writing all included).
     The 1-worker run is pinned to one CPU (sched_setaffinity): "one core" means the
     whole process, its Parquet writer thread included, on one core;
  4. the kernel alone, in this process: `runner.play_chunk` chunk by chunk over the same
     N hands into a reused buffer (no Parquet), after a warm-up call, R times.

Figures per worker count (medians of R):
  wall        N / subprocess wall clock: what the target means by "end to end"
  wall-start  N / (wall - median start cost of a 1000-hand run): the steady rate
              with the fixed cost of starting Python and loading the cache taken out
  printed     the rate `unosim run` prints itself (its chunk loop only: no interpreter
              start, no imports; the numba cache load and Parquet writing are inside)
  kernel      runner.play_chunk only, in this process
Targets are judged on `wall`; the other columns say where a miss comes from.  The
default run is 10 million hands, a typical run of a config: the fixed start
(interpreter, numba and its scipy import, the cached kernel load; its own target is
< 3 s, see startup.py) is then a small part of it.  `--games 1000000` shows a
start-dominated run.

    python benchmarks/engine_speed.py                  # 10,000,000 hands, 3 repeats
    python benchmarks/engine_speed.py --quick          # smoke run: 20,000 hands, 1 repeat
    python benchmarks/engine_speed.py --compare configs/house_favourites.toml

Output files go to a temporary directory that is deleted at the end.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness import ROOT, Benchmark, Run, child, count, median, resolve_config, shown, this_tree, unosim_command

TARGET_ONE_CORE = 300_000
TARGET_SCALING = 1.7
TARGET_HOUSE_RATIO = 0.5
START_GAMES = 1000
_RATE_LINE = re.compile(r"([\d,]+) hands/s.*?; mean ([\d.]+) turns per hand")

bench = Benchmark(__doc__, repeats=3, quick={"games": 20_000})
bench.option("--config", type=resolve_config, default=ROOT / "configs" / "standard.toml",
             help="config to benchmark: a TOML path or a bundled name [default: standard]")
bench.option("--compare", metavar="CONFIG2", type=resolve_config,
             help="also benchmark CONFIG2 and print its speed relative to --config")
bench.option("--games", type=count, default=10_000_000, help="hands per timed run [default: 10,000,000]")
bench.option("--seed", type=int, default=0)
bench.option("--chunk-size", type=count, default=200_000, help="passed to `unosim run` [default: its own, 200,000]")
bench.option("--tmp", default=None, help="folder for the temporary result files [default: the system's]")


def engine_tag() -> str:
    """The numba cache folder unosim would use now (it changes when the compiled sources do)."""
    code = "import os; from unosim.kernel.cache import cache_folder; print(os.path.basename(cache_folder()))"
    return this_tree().python(code, what="reading the cache folder").stdout.strip() or "unknown"


@dataclass
class CliRun:
    wall: float
    printed: float  # the hands/s `unosim run` prints
    mean_turns: float


def run_cli(config: Path, games: int, out: Path, workers: int | None, seed: int, chunk_size: int | None = None) -> CliRun:
    """`unosim run` in a subprocess, timed from outside; 1 worker pins the whole process to one CPU."""
    cmd = unosim_command() + ["run", str(config), "--hands", str(games), "--seed", str(seed),
                              "--out", str(out), "--quiet", "--force"]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    if chunk_size is not None:
        cmd += ["--chunk-size", str(chunk_size)]
    try:
        proc = child(cmd, env=this_tree().env, pin=workers == 1)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    m = _RATE_LINE.search(proc.stdout)
    if not m:
        raise SystemExit(f"error: cannot read the rate in the output of {' '.join(cmd)}:\n{proc.stdout}")
    return CliRun(proc.wall, float(m.group(1).replace(",", "")), float(m.group(2)))


@dataclass
class Row:
    """Medians over the repeats for one worker count."""

    workers: int
    walls: list[float] = field(default_factory=list)
    printed: list[float] = field(default_factory=list)
    kernel: list[float] = field(default_factory=list)

    def wall_rate(self, games: int) -> float:
        return games / median(self.walls)

    def steady_rate(self, games: int, start: float) -> float:
        left = median(self.walls) - start
        return games / left if left > 0 else float("nan")

    def printed_rate(self) -> float:
        return median(self.printed)

    def kernel_rate(self) -> float:
        return median(self.kernel) if self.kernel else float("nan")


@dataclass
class ConfigResult:
    config: Path
    players: int
    start: float  # median wall of a START_GAMES run
    rows: list[Row]
    mean_turns: float

    def row(self, workers: int) -> Row | None:
        return next((r for r in self.rows if r.workers == workers), None)


def kernel_rates(config: Path, games: int, worker_counts: list[int], repeats: int, seed: int,
                 chunk_size: int) -> dict[int, list[float]]:
    """hands/s of runner.play_chunk alone, in this process, chunked as `unosim run` does."""
    from unosim.rules.config import load_config, to_params
    from unosim.run.runner import chunks, play_chunk
    from unosim.run.workers import kernel_workers

    P = to_params(load_config(config))
    rates: dict[int, list[float]] = {}
    for w in worker_counts:
        with kernel_workers(w):
            buffer = play_chunk(P, seed, 0, chunk_size, w)  # loads (or compiles) the kernel
            rates[w] = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                for _, start, n in chunks(games, chunk_size):
                    play_chunk(P, seed, start, n, w, buffer)
                rates[w].append(games / (time.perf_counter() - t0))
    return rates


def measure_config(config: Path, games: int, worker_counts: list[int], repeats: int, seed: int, chunk_size: int,
                   tmp: Path) -> ConfigResult:
    out = tmp / "run.parquet"
    print(f"\n== {shown(config)}", flush=True)
    t0 = time.perf_counter()
    run_cli(config, START_GAMES, out, None, seed)
    print(f"warm-up ({START_GAMES:,} hands, compiles the numba cache if needed): "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    starts = [run_cli(config, START_GAMES, out, None, seed).wall for _ in range(repeats)]
    start = median(starts)
    print(f"start cost (a {START_GAMES:,}-hand run, cached): {fmt_list(starts, '{:.2f}')} s -> median {start:.2f} s",
          flush=True)
    rows = [Row(w) for w in worker_counts]
    turns = float("nan")
    # rounds, each running every worker count once: a drift in the shared host's speed
    # then hits all worker counts alike instead of biasing their ratio
    for i in range(repeats):
        for row in rows:
            w = row.workers
            r = run_cli(config, games, out, w, seed, chunk_size)
            row.walls.append(r.wall)
            row.printed.append(r.printed)
            turns = r.mean_turns
            print(f"  round {i + 1}/{repeats}, workers {w}: {r.wall:6.2f} s wall = {games / r.wall:>9,.0f} hands/s; "
                  f"unosim printed {r.printed:>9,.0f} hands/s", flush=True)
    for w, rates in kernel_rates(config, games, worker_counts, repeats, seed, chunk_size).items():
        next(r for r in rows if r.workers == w).kernel = rates
        print(f"  kernel only (runner.play_chunk in-process), workers {w}: {fmt_list(rates, '{:,.0f}')} hands/s",
              flush=True)
    from unosim.rules.config import load_config

    return ConfigResult(config, load_config(config).players, start, rows, turns)


def fmt_list(values: list[float], spec: str) -> str:
    return ", ".join(spec.format(v) for v in values)


def rate(x: float, width: int = 10) -> str:
    return f"{'n/a':>{width}}" if x != x else f"{x:>{width},.0f}"


def ratio(x: float, y: float, width: int = 9) -> str:
    q = x / y if y else float("nan")
    return f"{'n/a':>{width + 1}}" if q != q else f"{q:>{width}.2f}x"


def print_table(res: ConfigResult, games: int) -> None:
    name = res.config.name
    print(f"\n{name} ({res.players} players, mean {res.mean_turns:.1f} turns per hand), {games:,} hands, "
          f"hands/s (medians):")
    print(f"  {'workers':>7}  {'wall':>10}  {'wall-start':>10}  {'printed':>10}  {'kernel':>10}")
    for r in res.rows:
        print(f"  {r.workers:>7}  {rate(r.wall_rate(games))}  {rate(r.steady_rate(games, res.start))}  "
              f"{rate(r.printed_rate())}  {rate(r.kernel_rate())}")
    print("  (workers 1: the whole process pinned to one core; kernel: in-process, not pinned)")
    one = res.row(1)
    for r in res.rows:
        if r.workers == 1:
            continue
        print(f"  {r.workers} vs 1  {ratio(r.wall_rate(games), one.wall_rate(games))}  "
              f"{ratio(r.steady_rate(games, res.start), one.steady_rate(games, res.start))}  "
              f"{ratio(r.printed_rate(), one.printed_rate())}  {ratio(r.kernel_rate(), one.kernel_rate())}")


def judge(run: Run, res: ConfigResult, games: int, other: ConfigResult | None) -> None:
    print("\nTargets (judged on `wall`: the CLI end to end, in a subprocess, 1 worker pinned to one core;"
          " the other columns in brackets):")
    one = res.row(1)
    one_rate = one.wall_rate(games)
    run.target("1 core", one_rate, ">=", TARGET_ONE_CORE, unit="hands/s", fmt="{:,.0f}",
               note=f"wall-start {rate(one.steady_rate(games, res.start), 0)}, printed {one.printed_rate():,.0f}, "
                    f"kernel {one.kernel_rate():,.0f}")
    two = res.row(2)
    if two is None:
        print(f"  [n/a    ] 2 workers >= {TARGET_SCALING}x 1 worker: numba may use only 1 core here")
    else:
        rounds = sorted(a / b for a, b in zip(one.walls, two.walls))
        print(f"  (2 workers / 1 core, wall, round by round: {', '.join(f'{q:.2f}x' for q in rounds)})")
        run.target("2 workers / 1 core", two.wall_rate(games) / one_rate, ">=", TARGET_SCALING, unit="x",
                   note=f"wall-start {ratio(two.steady_rate(games, res.start), one.steady_rate(games, res.start), 0)}, "
                        f"printed {ratio(two.printed_rate(), one.printed_rate(), 0)}, "
                        f"kernel {ratio(two.kernel_rate(), one.kernel_rate(), 0)}")
    if other is not None:
        for r in res.rows:
            o = other.row(r.workers)
            run.target(f"{other.config.name} / {res.config.name}, {r.workers} worker{'s' if r.workers > 1 else ''}",
                       o.wall_rate(games) / r.wall_rate(games), ">=", TARGET_HOUSE_RATIO, unit="x",
                       note=f"wall-start {ratio(o.steady_rate(games, other.start), r.steady_rate(games, res.start), 0)}, "
                            f"printed {ratio(o.printed_rate(), r.printed_rate(), 0)}, "
                            f"kernel {ratio(o.kernel_rate(), r.kernel_rate(), 0)}")


def measure(run: Run) -> None:
    a = run.args
    import numba  # only for the core count numba will use (the CLI's default --workers)

    top = int(numba.config.NUMBA_NUM_THREADS)
    worker_counts = sorted({w for w in (1, 2, top) if w <= top})
    configs = [a.config] + ([a.compare] if a.compare else [])
    tag = engine_tag()
    print(f"unosim engine speed: {a.games:,} hands per run, median of {a.repeats}; workers {worker_counts}")
    print(f"CLI: {' '.join(unosim_command())}; numba {numba.__version__}; numba threads {top}; engine cache {tag}")

    tmp = Path(tempfile.mkdtemp(prefix="unosim-bench-", dir=a.tmp))
    try:
        results = [measure_config(c, a.games, worker_counts, a.repeats, a.seed, a.chunk_size, tmp) for c in configs]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    for res in results:
        print_table(res, a.games)
        for r in res.rows:
            run.figure(f"{res.config.stem} wall hands/s, {r.workers} workers", r.wall_rate(a.games), "hands/s")
            run.figure(f"{res.config.stem} wall-start hands/s, {r.workers} workers",
                       r.steady_rate(a.games, res.start), "hands/s")
            run.figure(f"{res.config.stem} printed hands/s, {r.workers} workers", r.printed_rate(), "hands/s")
            run.figure(f"{res.config.stem} kernel hands/s, {r.workers} workers", r.kernel_rate(), "hands/s")
        run.figure(f"{res.config.stem} start s", res.start, "s")
    if len(results) == 2:
        base, other = results
        print(f"\n{other.config.name} / {base.config.name}, speed ratio (hands/s):")
        print(f"  {'workers':>7}  {'wall':>10}  {'wall-start':>10}  {'printed':>10}  {'kernel':>10}")
        for r in base.rows:
            o = other.row(r.workers)
            print(f"  {r.workers:>7}  {ratio(o.wall_rate(a.games), r.wall_rate(a.games))}  "
                  f"{ratio(o.steady_rate(a.games, other.start), r.steady_rate(a.games, base.start))}  "
                  f"{ratio(o.printed_rate(), r.printed_rate())}  {ratio(o.kernel_rate(), r.kernel_rate())}")
    judge(run, results[0], a.games, results[1] if len(results) == 2 else None)
    if engine_tag() != tag:
        print(f"WARNING: the engine sources changed during the benchmark (cache {tag} -> {engine_tag()}); "
              "some runs may include a compile or measure different code. Run it again.")


if __name__ == "__main__":
    bench.main(measure)
