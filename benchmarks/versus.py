#!/usr/bin/env python3
"""Benchmark: this tree's speed against another commit's, measured in the same run.

The performance targets read "within 3% of today's figures, measured in the same run
against a baseline commit".  Figures taken on different days, or even an hour apart, on
a shared machine differ by more than 3% for reasons that have nothing to do with the
code (other jobs, host load drifting over minutes), so a figure is only compared with
one taken right next to it.  This script:

  1. exports REV (`--against`, any git revision, default `main`) with `git archive` into
     a temporary folder (harness.revision), removed again at the end, also on Ctrl-C,
     SIGTERM or an error, with the numba cache compiled for it;
  2. warms each tree once (a tiny run of every chosen benchmark, untimed): the baseline
     compiles into its own new cache folder (a few minutes: "compiling ..." on stderr),
     and that compile must not be timed;
  3. runs the benchmarks in R rounds, alternately in the current tree and in the baseline
     (A B A B ...: each figure of a round is taken in A, then at once in B), so a drift
     in the host's speed hits both trees alike instead of whichever ran later;
  4. reports, per figure, every round, the MEDIAN of the rounds for each tree and the
     ratio current / baseline of the medians.  Medians, not means: one round hit by a
     burst of other work would move a mean, it does not move the median.  The ratio is
     `[within 3%]`, `[SLOWER by x%]` or `[faster by x%]`; the spread of the per-round
     ratios says how far to trust it (if it is wider than the tolerance, add rounds).

Every figure is taken in a subprocess whose PYTHONPATH (and working directory) is the
tree being measured, so it runs that tree's code with that tree's own benchmark
scripts: the package layout moves between commits (unosim/config.py became
unosim/rules/config.py, ...) and each tree's scripts match its layout.  The figures, in
hands/s (higher is faster):

  --bench engine  (benchmarks/engine_speed.py's measures, configs/standard.toml)
    e2e           N / wall clock of `python -m unosim.cli run configs/standard.toml
                  --games N --seed 1 --out TMP --quiet`, timed from outside: interpreter
                  start, imports, numba cache load, kernel and Parquet writing.  The
                  figure for changes to the run pipeline (runner, store, CLI).
    kernel        the kernel alone: that tree's `engine_speed.kernel_rates`
                  (`runner.play_chunk` over the same N hands, chunk by chunk into a reused
                  buffer, no Parquet, after an untimed warm-up call).  The figure for
                  changes to compiled code (rules/, kernel/, bots/, engine/).
  --clock cpu     e2e and kernel per CPU second of the measured process (every thread;
                  e2e from os.wait4, kernel from time.process_time), not per wall second:
                  the figure to take on a shared machine
  --bench bots    (benchmarks/bots_speed.py's measure: its TABLES and rate())
    random x4     the kernel alone, 4 `random` bots, N hands into a reused buffer
    counter x4    the same with 4 `counter` bots (the most work per decision)

    python benchmarks/versus.py                          # against main: engine, 2,000,000 hands, 5 rounds
    python benchmarks/versus.py --against HEAD~1 --bench both
    python benchmarks/versus.py --bench engine --hands 5000000 --repeats 7
    python benchmarks/versus.py --against v1.2 --workers 1   # one core (the CLI run pinned to one CPU)
    python benchmarks/versus.py --quick                  # 20,000 hands, 1 round (the baseline still compiles)

"Current" is the tree this script lives in, uncommitted edits included.  Figures at
small --hands or few --repeats are noisy; the per-round ratios show how noisy.  The
target line judges each figure's ratio against 1 - tolerance: not slower by more than
the tolerance.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness import Benchmark, Run, Tree, count, count0, median, revision, this_tree

CONFIG = "configs/standard.toml"
SEED = 1
CHUNK_SIZE = 200_000  # engine_speed.py's and `unosim run`'s default
WARM_HANDS = 1000

bench = Benchmark(__doc__, repeats=5, quick={"hands": 20_000}, against="main")
bench.option("--bench", choices=["engine", "bots", "both"], default="engine", help="[default: engine]")
bench.option("--hands", type=count, default=2_000_000, help="hands per timed run [default: 2,000,000]")
bench.option("--workers", type=count0, default=0, help="cores for every run [default: 0, all numba may use]")
bench.option("--tolerance", type=float, default=3.0, help="percent counted as `within` [default: 3]")
bench.option("--tmp", default=None, help="folder for the exported baseline and result files [default: the system's]")
bench.option("--clock", choices=["wall", "cpu"], default="wall",
             help="wall: hands per second; cpu: hands per CPU second of the process (every thread), the "
                  "figure to take on a shared machine [default: wall]")

# The child that takes the kernel-only figures.  It loads the measured tree's own
# benchmark scripts by path and calls their measuring functions, so the imports match
# that tree's package layout.  Prints one JSON object on its last line.
CHILD = r"""
import importlib.util, json, os, sys
from pathlib import Path

tree, bench, hands, workers, seed, chunk = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
clock = sys.argv[7] if len(sys.argv) > 7 else "wall"
sys.path.insert(0, str(tree / "benchmarks"))  # the tree's scripts import its harness
import unosim  # this tree's package (older trees also set NUMBA_CACHE_DIR here)
try:
    from unosim.kernel.cache import cache_folder
except ImportError:  # a tree from before unosim.kernel.cache
    def cache_folder():
        return os.environ.get("NUMBA_CACHE_DIR", "")

def script(name):
    path = tree / "benchmarks" / f"{name}.py"
    if not path.exists():
        sys.exit(f"{path} does not exist in this tree: versus.py needs it to measure")
    spec = importlib.util.spec_from_file_location(f"_versus_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod

def need(mod, *names):
    missing = [n for n in names if not hasattr(mod, n)]
    if missing:
        sys.exit(f"{mod.__file__} has no {', '.join(missing)}: this tree's benchmark script is too "
                 f"different for versus.py")

figures = {}
if bench == "engine" and clock == "cpu":  # engine_speed.kernel_rates' loop, on the process's CPU clock
    import time
    import numba
    from unosim.rules.config import load_config, to_params
    from unosim.run.runner import chunks, play_chunk
    w = workers or int(numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(w)
    P = to_params(load_config(tree / "configs" / "standard.toml"))
    buffer = play_chunk(P, seed, 0, chunk, w)  # loads the kernel; touched once, then reused
    t0 = time.process_time()
    for _, start, n in chunks(hands, chunk):
        play_chunk(P, seed, start, n, w, buffer)
    figures["kernel"] = hands / (time.process_time() - t0)
elif bench == "engine":
    es = script("engine_speed")
    need(es, "kernel_rates")
    import numba
    w = workers or int(numba.config.NUMBA_NUM_THREADS)
    figures["kernel"] = es.kernel_rates(tree / "configs" / "standard.toml", hands, [w], 1, seed, chunk)[w][0]
else:
    bs = script("bots_speed")
    need(bs, "TABLES", "rate", "play_chunk", "set_workers", "default_config", "to_params")
    w = bs.set_workers(workers or None)
    params = {name: bs.to_params(bs.default_config().replace(seats=seats)) for name, seats in bs.TABLES.items()}
    for P in params.values():
        bs.play_chunk(P, 0, 0, 1000, w)  # loads (or compiles) the kernel for this table
    buffer = bs.play_chunk(next(iter(params.values())), 0, 0, hands, w)  # touched once, as bots_speed does
    for name, P in params.items():
        figures[name] = bs.rate(P, hands, w, seed, buffer)
print(json.dumps({"figures": figures, "unosim": unosim.__file__, "cache": cache_folder()}))
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@dataclass
class Side:
    tree: Tree
    figures: dict[str, list[float]] = field(default_factory=dict)


def e2e(tree: Tree, hands: int, workers: int, out: Path, clock: str = "wall") -> float:
    """hands/s of `unosim run` end to end, timed from outside (``clock`` "cpu": per CPU
    second of the whole process, from ``os.wait4``)."""
    cmd = [sys.executable, "-m", "unosim.cli", "run", CONFIG, "--games", str(hands), "--seed", str(SEED),
           "--out", str(out), "--quiet"]
    if workers:
        cmd += ["--workers", str(workers)]
    shutil.rmtree(out, ignore_errors=True)
    try:
        c = tree.run(cmd, pin=workers == 1, what="unosim run")
        return hands / (c.cpu if clock == "cpu" else c.wall)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def kernel(tree: Tree, bench_name: str, hands: int, workers: int, clock: str = "wall") -> dict[str, float]:
    """The kernel-only figures of `bench_name`, from the tree's own benchmark script, in a child."""
    out = tree.python(CHILD, tree.path, bench_name, hands, workers, SEED, CHUNK_SIZE, clock,
                      what=f"the kernel-only {bench_name} measure").last_json()
    where = Path(out["unosim"]).resolve()
    if not where.is_relative_to(tree.path.resolve()):
        raise SystemExit(f"error: the child of {tree.label} imported unosim from {where}, not from "
                         f"{tree.path}: something on the path shadows PYTHONPATH")
    return out["figures"]


def figures(tree: Tree, bench_name: str, hands: int, workers: int, out: Path, clock: str = "wall") -> dict[str, float]:
    """Every figure of one benchmark in one tree, once."""
    if bench_name == "engine":
        return {"e2e": e2e(tree, hands, workers, out, clock), **kernel(tree, "engine", hands, workers, clock)}
    return kernel(tree, "bots", hands, workers)


def describe(ratio: float, tolerance: float) -> str:
    pct = (ratio - 1) * 100
    if abs(pct) <= tolerance:
        return f"within {tolerance:g}%"
    return f"SLOWER by {-pct:.1f}%" if pct < 0 else f"faster by {pct:.1f}%"


def report(run: Run, cur: Side, base: Side) -> None:
    rounds, tolerance = run.repeats, run.args.tolerance
    names = list(cur.figures)
    width = max(len(n) for n in names) + 2
    unit = "hands per CPU second" if run.args.clock == "cpu" else "hands/s"
    print(f"\n{unit} per round (higher is faster); current = {cur.tree.desc}; baseline = {base.tree.desc}")
    print(f"  {'round':>5}  {'figure':<{width}} {'current':>12} {'baseline':>12} {'cur/base':>9}")
    for r in range(rounds):
        for n in names:
            c, b = cur.figures[n][r], base.figures[n][r]
            print(f"  {r + 1:>5}  {n:<{width}} {c:>12,.0f} {b:>12,.0f} {c / b:>9.3f}")
    print(f"\nmedians of {rounds} round{'s' if rounds > 1 else ''}:")
    print(f"  {'figure':<{width}} {'current':>12} {'baseline':>12} {'cur/base':>9}")
    for n in names:
        c, b = median(cur.figures[n]), median(base.figures[n])
        print(f"  {n:<{width}} {c:>12,.0f} {b:>12,.0f} {c / b:>9.3f}")
        run.figure(f"{n} hands/s, this tree", cur.figures[n], "hands/s")
        run.figure(f"{n} hands/s, {base.tree.label}", base.figures[n], "hands/s")
    print(f"\nverdicts (median ratio current / baseline, tolerance {tolerance:g}%):")
    for n in names:
        q = median(cur.figures[n]) / median(base.figures[n])
        per_round = [x / y for x, y in zip(cur.figures[n], base.figures[n])]
        spread = (max(per_round) - min(per_round)) * 100
        note = describe(q, tolerance)
        if rounds > 1 and spread > tolerance:
            note += (f"; per-round ratios {min(per_round):.3f}-{max(per_round):.3f}: noisier than the tolerance, "
                     "add repeats or hands")
        run.target(f"{n}: this tree / {base.tree.label}", q, ">=", 1 - tolerance / 100, unit="x", fmt="{:.3f}",
                   note=note)


def measure(run: Run) -> None:
    a = run.args
    benches = ["engine", "bots"] if a.bench == "both" else [a.bench]
    tmp = Path(tempfile.mkdtemp(prefix="unosim-versus-", dir=a.tmp)).resolve()
    out = tmp / "run.parquet"
    try:
        log(f"exporting {a.against}")
        with revision(a.against, a.tmp) as baseline:
            cur, base = Side(this_tree()), Side(baseline)
            print(f"unosim versus: current {cur.tree.desc}; baseline {base.tree.desc}")
            print(f"bench {a.bench}; {a.hands:,} hands per run; {a.repeats} rounds, interleaved current/baseline; "
                  f"workers {a.workers or 'all'}; seed {SEED}; clock {a.clock}", flush=True)
            for side in (cur, base):
                log(f"warming {side.tree.label} (the baseline compiles: a few minutes)")
                t0 = time.perf_counter()
                for b in benches:
                    figures(side.tree, b, WARM_HANDS, a.workers, out, a.clock)
                log(f"  {side.tree.label} warm: {time.perf_counter() - t0:.1f} s")
            for r in range(a.repeats):
                for b in benches:
                    for side in (cur, base):
                        for name, value in figures(side.tree, b, a.hands, a.workers, out, a.clock).items():
                            side.figures.setdefault(name, []).append(value)
                line = "; ".join(f"{n} {c[-1]:,.0f} vs {base.figures[n][-1]:,.0f}" for n, c in cur.figures.items())
                log(f"round {r + 1}/{a.repeats}: {line}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report(run, cur, base)


if __name__ == "__main__":
    bench.main(measure)
