"""How fast `unosim tune` plays, and how long a default `unosim tune` takes.

Prints, for one config and table size:

1. the hands/s the tuner achieves (its own count of hands over its wall time) and the
   share of that wall time spent inside the kernel call, against the hands/s of a plain
   in-memory run of the same table and as many hands (the tuner's start, ``weights`` at
   seat 0 and ``random`` elsewhere, rotated, as one job without output), in interleaved
   rounds: target >= 80% in the kernel;
2. the wall time of the default command, ``unosim tune CONFIG --players N`` (a subprocess,
   interpreter start and final check included): target <= 3 minutes on 2 cores.

    python benchmarks/tune_speed.py [--config standard] [--players 4] [--budget N] [--deals N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

from unosim.rules.bundled import find_config
from unosim.run.botfile import resolve_bot
from unosim.rules.config import load_config
from unosim.run.jobs import make_job
from unosim.run.play import set_workers
from unosim.run.runner import run_job
from unosim.skill.tune import start_bot, tune


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="standard")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--budget", type=int, default=600, help="the command's default")
    ap.add_argument("--deals", type=int, default=1000, help="the command's default")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the rate comparison")
    ap.add_argument("--skip-command", action="store_true", help="only the in-process figures")
    args = ap.parse_args()
    cfg = load_config(find_config(args.config)).with_values({"players": args.players})
    workers = set_workers(None)
    field = [resolve_bot("random")]
    tune(cfg, field, budget=12, deals=10, seed=1, workers=workers)  # load the kernel first

    # interleaved rounds (the machine is shared: its load moves between runs), medians
    table = cfg.with_values({"seats": [start_bot().entry()] + ["random"] * (cfg.players - 1)})
    rates, shares, plains = [], [], []
    for r in range(args.rounds):
        res = tune(cfg, field, budget=args.budget // args.rounds, deals=args.deals, seed=r, workers=workers)
        rates.append(res.hands / res.seconds)
        shares.append(res.kernel_share)
        job = make_job(table, "rotated", max(1, res.hands // cfg.players), r, chunk_size=25_000)
        s = run_job(job, workers=workers)
        plains.append(s.rows / s.seconds)
    rate, share, plain = (sorted(x)[len(x) // 2] for x in (rates, shares, plains))
    print(f"{cfg.name}, {cfg.players} players, {workers} workers, deals {args.deals}, "
          f"{args.rounds} interleaved rounds of {args.budget // args.rounds} evaluations (medians):")
    print(f"  tuner: {rate:,.0f} hands/s; {share:.1%} of its wall time in the kernel (target >= 80%)")
    print(f"  plain rotated run of the same table, same hands (a job without output): {plain:,.0f} hands/s; "
          f"tuner / plain = {rate / plain:.2f}")
    if args.skip_command:
        return
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "unosim.cli", "tune", args.config, "--players", str(args.players),
                        "--out", tmp, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
    print(f"  `unosim tune {args.config} --players {args.players}` (defaults, final check included): "
          f"{wall:.1f} s wall (target <= 180 s)")


if __name__ == "__main__":
    main()
