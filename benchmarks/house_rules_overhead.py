#!/usr/bin/env python3
"""Benchmark: what the house-rule switches cost the official-rules run (issue 3).

Plays standard 4-player B0 hands with the kernel of an earlier engine revision ("before",
default: the first engine commit, 463b050, which played the official rules with only the
hooks for house rules) and with the current one ("after"), each in its own subprocess
on one core with its own numba cache, in the same run; prints both rates and their ratio
(target: after within 10% of before).  Then the current engine on
configs/house_favourites.toml against standard (target: at least half as fast).

    python benchmarks/house_rules_overhead.py [--before REV] [--hands N] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the subprocess: the kernel alone (no Parquet), best of R, CPU time of one thread.
PROBE = r"""
import json, sys, time, numba, numpy as np
numba.set_num_threads(1)
from unosim.rules.config import load_config, to_params
from unosim.engine.batch import play_hands, new_out
cfg = load_config(sys.argv[1]); n = int(sys.argv[2]); reps = int(sys.argv[3])
P = to_params(cfg)
out = new_out(1000); play_hands(P, 1, 0, 1000, out, 1)
out = new_out(n); best = 1e9
for _ in range(reps):
    t = time.process_time(); play_hands(P, 7, 0, n, out, 1); best = min(best, time.process_time() - t)
print(json.dumps({"hands_per_s": n / best, "mean_turns": float(out[:, 6].mean())}))
"""


def export(rev: str, dest: Path) -> None:
    """The unosim package as it was at ``rev``, without touching the work tree."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "unosim"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as t:
        t.extractall(dest, filter="data")


def probe(pkg_root: Path, config: Path, hands: int, reps: int, cache: Path | None) -> dict:
    """Rate of ``config`` with the package at ``pkg_root``; ``cache=None`` keeps unosim's
    own (warm) numba cache."""
    env = dict(os.environ, PYTHONPATH=str(pkg_root))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    out = subprocess.run([sys.executable, "-c", PROBE, str(config), str(hands), str(reps)],
                         env=env, capture_output=True, text=True, check=True, cwd=pkg_root)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="463b050", help="git revision of the 'before' engine")
    ap.add_argument("--hands", type=int, default=500_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="20,000 hands, 1 repeat")
    a = ap.parse_args()
    if a.quick:
        a.hands, a.repeats = 20_000, 1
    standard = ROOT / "configs" / "standard.toml"
    favourites = ROOT / "configs" / "house_favourites.toml"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        before_pkg = tmp / "before"
        export(a.before, before_pkg)
        # The old registry may not know newer keys: give it the plain official rules.
        plain = tmp / "standard.toml"
        plain.write_text('name = "standard"\n')
        print(f"load average {os.getloadavg()[0]:.2f}; {a.hands:,} hands, best of {a.repeats}, one core, kernel only")
        before = probe(before_pkg, plain, a.hands, a.repeats, tmp / "cache-before")
        after = probe(ROOT, standard, a.hands, a.repeats, None)
        fav = probe(ROOT, favourites, a.hands, a.repeats, None)
    ratio = after["hands_per_s"] / before["hands_per_s"]
    print(f"standard, engine {a.before} (before): {before['hands_per_s']:>10,.0f} hands/s  "
          f"(mean turns {before['mean_turns']:.3f})")
    print(f"standard, engine now (after):      {after['hands_per_s']:>10,.0f} hands/s  "
          f"(mean turns {after['mean_turns']:.3f})")
    print(f"after / before = {ratio:.3f}  target >= 0.90: {'met' if ratio >= 0.9 else 'NOT MET'}")
    fr = fav["hands_per_s"] / after["hands_per_s"]
    print(f"house_favourites, engine now:      {fav['hands_per_s']:>10,.0f} hands/s  "
          f"(mean turns {fav['mean_turns']:.3f})")
    print(f"house_favourites / standard = {fr:.3f}  target >= 0.50: {'met' if fr >= 0.5 else 'NOT MET'}")


if __name__ == "__main__":
    main()
