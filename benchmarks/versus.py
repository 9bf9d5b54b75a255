#!/usr/bin/env python3
"""Benchmark: this tree's speed against another commit's, measured in the same run.

The performance targets read "within 3% of today's figures, measured in the same run
against a baseline commit".  Figures taken on different days, or even an hour apart, on
this shared 2-core VM differ by more than 3% for reasons that have nothing to do with
the code (other jobs, host load drifting over minutes), so a figure is only compared with
one taken right next to it.  This script:

  1. checks REV (any git revision, default `main`) out into a temporary git worktree
     (`git worktree add --detach`), removed again at the end, also on Ctrl-C or an error;
  2. warms each tree once (a tiny run of every chosen benchmark, untimed): each tree
     computes its own numba cache folder from its own sources, so the baseline's first
     run compiles (~3 min) and that compile must not be timed;
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
  --bench bots    (benchmarks/bots_speed.py's measure: its TABLES and rate())
    random x4     the kernel alone, 4 `random` bots, N hands into a reused buffer
    counter x4    the same with 4 `counter` bots (the most work per decision)

    python benchmarks/versus.py                          # against main: engine, 2,000,000 hands, 5 rounds
    python benchmarks/versus.py HEAD~1 --bench both
    python benchmarks/versus.py main --bench engine --hands 5000000 --rounds 7
    python benchmarks/versus.py v1.2 --workers 1         # one core (the CLI run pinned to one CPU)

"Current" is the tree this script lives in, uncommitted edits included.  The numba
cache the baseline's worktree compiled is deleted with it (the worktree path is new on
every run, so it could never be reused).  Figures at small --hands or few --rounds are
noisy; the per-round ratios show how noisy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = "configs/standard.toml"
SEED = 1
CHUNK_SIZE = 200_000  # engine_speed.py's and `unosim run`'s default
WARM_HANDS = 1000

# The child that takes the kernel-only figures.  It loads the measured tree's own
# benchmark scripts by path and calls their measuring functions, so the imports match
# that tree's package layout.  Prints one JSON object on its last line.
CHILD = r'''
import importlib.util, json, os, sys
from pathlib import Path

tree, bench, hands, workers, seed, chunk = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
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
if bench == "engine":
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
'''


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def git(*args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise SystemExit(f"error: git {' '.join(args)} failed:\n{proc.stderr.strip()}")
    return proc.stdout.strip()


def child_env(tree: Path) -> dict[str, str]:
    """This environment, with only `tree` on PYTHONPATH and no NUMBA_CACHE_DIR: the child
    then computes its tree's own cache folder, as unosim does for a user."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def pin_one_cpu():
    """preexec_fn for --workers 1: the whole process on one CPU, as engine_speed.py does."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    return lambda: os.sched_setaffinity(0, {cpu})


@dataclass
class Tree:
    label: str  # "current" / "baseline"
    path: Path
    desc: str  # commit and state, for the header
    cache: str = ""  # its numba cache folder, once known
    figures: dict[str, list[float]] = field(default_factory=dict)


def fail(tree: Tree, what: str, proc: subprocess.CompletedProcess) -> None:
    raise SystemExit(f"error: {what} failed in the {tree.label} tree ({tree.path}), exit status "
                     f"{proc.returncode}:\n{(proc.stderr or '')[-3000:]}{(proc.stdout or '')[-1000:]}")


def e2e(tree: Tree, hands: int, workers: int, out: Path) -> float:
    """hands/s of `unosim run` end to end, timed from outside."""
    cmd = [sys.executable, "-m", "unosim.cli", "run", CONFIG, "--games", str(hands), "--seed", str(SEED),
           "--out", str(out), "--quiet"]
    if workers:
        cmd += ["--workers", str(workers)]
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tree.path, env=child_env(tree.path), capture_output=True, text=True,
                          preexec_fn=pin_one_cpu() if workers == 1 else None)
    wall = time.perf_counter() - t0
    shutil.rmtree(out, ignore_errors=True)
    if proc.returncode != 0:
        fail(tree, " ".join(cmd[1:]), proc)
    return hands / wall


def kernel(tree: Tree, bench: str, hands: int, workers: int) -> dict[str, float]:
    """The kernel-only figures of `bench`, from the tree's own benchmark script, in a child."""
    cmd = [sys.executable, "-c", CHILD, str(tree.path), bench, str(hands), str(workers), str(SEED), str(CHUNK_SIZE)]
    proc = subprocess.run(cmd, cwd=tree.path, env=child_env(tree.path), capture_output=True, text=True)
    if proc.returncode != 0:
        fail(tree, f"the kernel-only {bench} measure", proc)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    where = Path(out["unosim"]).resolve()
    if not where.is_relative_to(tree.path.resolve()):
        raise SystemExit(f"error: the {tree.label} tree's child imported unosim from {where}, not from "
                         f"{tree.path}: something on the path shadows PYTHONPATH")
    tree.cache = out["cache"]
    return out["figures"]


def cache_dir(tree: Tree) -> str:
    """The numba cache folder the tree's unosim computes for itself ("" if it cannot say)."""
    code = ("import os, unosim\ntry:\n    from unosim.kernel.cache import cache_folder\n    print(cache_folder())\n"
            "except ImportError:\n    print(os.environ.get('NUMBA_CACHE_DIR', ''))")
    proc = subprocess.run([sys.executable, "-c", code],
                          cwd=tree.path, env=child_env(tree.path), capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def measure(tree: Tree, bench: str, hands: int, workers: int, out: Path) -> dict[str, float]:
    """Every figure of one benchmark in one tree, once."""
    if bench == "engine":
        return {"e2e": e2e(tree, hands, workers, out), **kernel(tree, "engine", hands, workers)}
    return kernel(tree, "bots", hands, workers)


def remove_baseline_cache(tree: Tree) -> None:
    """Delete the numba cache entries compiled for the temporary worktree: numba keeps them
    in CACHE_DIR/<folder name>_<sha1 of the folder's absolute path>, one per source folder,
    and that path never comes back.  Only those exact folders are removed."""
    if not tree.cache:
        return
    cache = Path(tree.cache)
    for folder in [tree.path / "unosim", *(p for p in (tree.path / "unosim").rglob("*") if p.is_dir())]:
        entry = cache / f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
    try:
        cache.rmdir()  # only if nothing else is left in it
    except OSError:
        pass


def verdict(ratio: float, tolerance: float) -> str:
    pct = (ratio - 1) * 100
    if abs(pct) <= tolerance:
        return f"[within {tolerance:g}%]"
    return f"[SLOWER by {-pct:.1f}%]" if pct < 0 else f"[faster by {pct:.1f}%]"


def report(cur: Tree, base: Tree, rounds: int, tolerance: float) -> None:
    names = list(cur.figures)
    width = max(len(n) for n in names) + 2
    print(f"\nhands/s per round (higher is faster); current = {cur.desc}; baseline = {base.desc}")
    print(f"  {'round':>5}  {'figure':<{width}} {'current':>12} {'baseline':>12} {'cur/base':>9}")
    for r in range(rounds):
        for n in names:
            c, b = cur.figures[n][r], base.figures[n][r]
            print(f"  {r + 1:>5}  {n:<{width}} {c:>12,.0f} {b:>12,.0f} {c / b:>9.3f}")
    print(f"\nmedians of {rounds} round{'s' if rounds > 1 else ''}:")
    print(f"  {'figure':<{width}} {'current':>12} {'baseline':>12} {'cur/base':>9}  verdict (tolerance {tolerance:g}%)")
    for n in names:
        c, b = statistics.median(cur.figures[n]), statistics.median(base.figures[n])
        q = c / b
        per_round = [x / y for x, y in zip(cur.figures[n], base.figures[n])]
        spread = (max(per_round) - min(per_round)) * 100
        note = (f"  (per-round ratios {min(per_round):.3f}-{max(per_round):.3f}: noisier than the tolerance, "
                "add rounds or hands)" if rounds > 1 and spread > tolerance else "")
        print(f"  {n:<{width}} {c:>12,.0f} {b:>12,.0f} {q:>9.3f}  {verdict(q, tolerance)}{note}")


def describe_current() -> str:
    head = git("rev-parse", "--short", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return f"{ROOT} at {head}{' + uncommitted edits' if dirty else ''}"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rev", nargs="?", default="main", metavar="REV", help="baseline git revision [default: main]")
    p.add_argument("--bench", choices=["engine", "bots", "both"], default="engine", help="[default: engine]")
    p.add_argument("--hands", type=int, default=2_000_000, help="hands per timed run [default: 2,000,000]")
    p.add_argument("--rounds", type=int, default=5, help="A B rounds; medians are compared [default: 5]")
    p.add_argument("--workers", type=int, default=0, help="cores for every run [default: all numba may use]")
    p.add_argument("--tolerance", type=float, default=3.0, help="percent counted as `within` [default: 3]")
    p.add_argument("--tmp", default=None, help="folder for the worktree and result files [default: the system's]")
    a = p.parse_args(argv)
    if a.hands < 1 or a.rounds < 1 or a.workers < 0:
        p.error("--hands and --rounds must be at least 1, --workers at least 0")
    benches = ["engine", "bots"] if a.bench == "both" else [a.bench]

    sha = git("rev-parse", "--verify", "--quiet", f"{a.rev}^{{commit}}", check=False)
    if not sha:
        p.error(f"not a git revision here: {a.rev}")
    cur = Tree("current", ROOT, describe_current())
    base = Tree("baseline", Path(), f"{a.rev} ({sha[:7]})")

    # SIGTERM/SIGHUP end the run like Ctrl-C does, through the cleanup below
    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)

    tmp = Path(tempfile.mkdtemp(prefix="unosim-versus-", dir=a.tmp)).resolve()
    base.path = tmp / "baseline"
    out = tmp / "run.parquet"
    added = False
    try:
        log(f"checking out {a.rev} ({sha[:7]}) into {base.path}")
        git("worktree", "add", "--detach", str(base.path), sha)
        added = True
        base.cache = cache_dir(base)  # known before anything compiles, for the cleanup
        print(f"unosim versus: current {cur.desc}\n               baseline {base.desc}")
        print(f"bench {a.bench}; {a.hands:,} hands per run; {a.rounds} rounds, interleaved current/baseline; "
              f"workers {a.workers or 'all'}; seed {SEED}; python {sys.version.split()[0]}")
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

        for tree in (cur, base):
            log(f"compiling {tree.label} tree (first run only, ~3 min)")
            t0 = time.perf_counter()
            for bench in benches:
                measure(tree, bench, WARM_HANDS, a.workers, out)
            log(f"  {tree.label} warm: {time.perf_counter() - t0:.1f} s")

        for r in range(a.rounds):
            for bench in benches:
                for tree in (cur, base):
                    for name, value in measure(tree, bench, a.hands, a.workers, out).items():
                        tree.figures.setdefault(name, []).append(value)
            line = "; ".join(f"{n} {c[-1]:,.0f} vs {base.figures[n][-1]:,.0f}" for n, c in cur.figures.items())
            log(f"round {r + 1}/{a.rounds}: {line}")

        report(cur, base, a.rounds, a.tolerance)
        load = os.getloadavg()
        print(f"load average after: {' '.join(f'{x:.2f}' for x in load)}")
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        if load[1] > cpus:
            print(f"(the machine was busy: load {load[1]:.1f} over the last 5 min on {cpus} cores; other work "
                  "competes with both trees, so differences of a few % are noise: add rounds, or rerun when quiet)")
    except KeyboardInterrupt:
        log("interrupted")
        raise SystemExit(130)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave the worktree behind
        if added:
            remove_baseline_cache(base)
            git("worktree", "remove", "--force", str(base.path), check=False)
        shutil.rmtree(tmp, ignore_errors=True)
        git("worktree", "prune", check=False)
        log(f"removed the temporary worktree {base.path}")


if __name__ == "__main__":
    main()
