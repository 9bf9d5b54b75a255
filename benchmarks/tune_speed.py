#!/usr/bin/env python3
"""Benchmark: how fast `unosim tune` plays, and how long a default `unosim tune` takes.

Prints, for one config and table size:

1. the hands/s the tuner achieves (its own count of hands over its wall time) and the
   share of that wall time spent inside the kernel call, against the hands/s of a plain
   in-memory run of the same table and as many hands (the tuner's start, ``weights`` at
   seat 0 and ``random`` elsewhere, rotated, as one job without output), in interleaved
   rounds (``--repeats``), medians: target >= 80% in the kernel;
2. the wall time of the command, ``unosim tune CONFIG --players N`` (a subprocess,
   interpreter start and final check included): target <= 3 minutes on 2 cores at the
   command's defaults (600 evaluations x 1,000 deals, 10,000 check deals); with other
   sizes (``--quick``) the time is shown but not judged.

    python benchmarks/tune_speed.py                       # the command's defaults, 3 rounds
    python benchmarks/tune_speed.py --skip-command
    python benchmarks/tune_speed.py --quick               # 24 evaluations x 100 deals
"""

from __future__ import annotations

import sys
import tempfile

from harness import Benchmark, Run, child, count, median, this_tree

TARGET_SHARE = 0.80
TARGET_COMMAND = 180.0
DEFAULTS = {"budget": 600, "deals": 1000, "check_deals": 10_000}

bench = Benchmark(__doc__, repeats=3, quick={"budget": 24, "deals": 100, "check_deals": 500})
bench.option("--config", default="standard", help="a bundled name or a TOML path [default: standard]")
bench.option("--players", type=count, default=4, help="[default: 4]")
bench.option("--budget", type=count, default=DEFAULTS["budget"], help="evaluations [default: the command's, 600]")
bench.option("--deals", type=count, default=DEFAULTS["deals"], help="deals per evaluation [default: the command's, 1000]")
bench.option("--check-deals", type=count, default=DEFAULTS["check_deals"],
             help="deals of the command's final check [default: the command's, 10,000]")
bench.option("--skip-command", action="store_true", help="only the in-process figures")


def measure(run: Run) -> None:
    from unosim.rules.bundled import find_config
    from unosim.rules.config import load_config
    from unosim.rules.botfile import resolve_bot
    from unosim.run.jobs import make_job
    from unosim.run.workers import max_workers
    from unosim.run.runner import run_job
    from unosim.studies.tune import start_bot, tune

    a = run.args
    cfg = load_config(find_config(a.config)).with_values({"players": a.players})
    workers = max_workers()
    field = [resolve_bot("random")]
    tune(cfg, field, budget=12, deals=10, seed=1, workers=workers)  # load the kernel first

    # interleaved rounds (the machine is shared: its load moves between runs), medians
    table = cfg.with_values({"seats": [start_bot().entry()] + ["random"] * (cfg.players - 1)})
    per_round = max(1, a.budget // a.repeats)
    rates, shares, plains = [], [], []
    for r in range(a.repeats):
        res = tune(cfg, field, budget=per_round, deals=a.deals, seed=r, workers=workers)
        rates.append(res.hands / res.seconds)
        shares.append(res.kernel_share)
        job = make_job(table, "rotated", max(1, res.hands // cfg.players), r, chunk_size=25_000)
        s = run_job(job, workers=workers)
        plains.append(s.rows / s.seconds)
    rate, share, plain = median(rates), median(shares), median(plains)
    print(f"{cfg.name}, {cfg.players} players, {workers} workers, deals {a.deals}, "
          f"{a.repeats} interleaved rounds of {per_round} evaluations (medians):")
    print(f"  tuner: {rate:,.0f} hands/s; plain rotated run of the same table, same hands (a job without output): "
          f"{plain:,.0f} hands/s; tuner / plain = {rate / plain:.2f}")
    run.figure("tuner hands/s", rates, "hands/s")
    run.figure("plain rotated hands/s", plains, "hands/s")
    run.target("tuner's wall time in the kernel", share * 100, ">=", TARGET_SHARE * 100, unit="%", fmt="{:.1f}")
    if a.skip_command:
        return
    sizes = {"budget": a.budget, "deals": a.deals, "check_deals": a.check_deals}
    extra = [f"--{k.replace('_', '-')}={v}" for k, v in sizes.items() if v != DEFAULTS[k]]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "unosim.cli", "tune", a.config, "--players", str(a.players), *extra,
               "--out", tmp, "--quiet"]
        wall = child(cmd, env=this_tree().env).wall
    label = f"`unosim tune {a.config} --players {a.players}{' ' + ' '.join(extra) if extra else ''}`"
    run.figure("command wall s", wall, "s")
    if extra:
        print(f"  {label}: {wall:.1f} s wall (not judged: the <= {TARGET_COMMAND:.0f} s target is for the defaults)")
    else:
        run.target(f"{label} at its defaults, final check included", wall, "<=", TARGET_COMMAND, unit="s",
                   fmt="{:.1f}")


if __name__ == "__main__":
    bench.main(measure)
