#!/usr/bin/env python3
"""Benchmark: do a 4-player league's reported intervals cover what they should?

`unosim league` reports each strength with a 95% interval from a bootstrap of the deals
(every deal's n! seatings at every table resampled together).  This script plays the same
league (5 bots at tables of 4: 5 tables x 6 cyclic orders x 4 rotations) with R seeds,
fresh deals each, and compares per bot:

  seeds sd   the standard deviation of the strength over the R independent leagues: what an
             interval's half-width / 1.96 should be (the truth, up to the seeds' own noise);
  boot se    the mean reported (bootstrap, 400 resamples) standard error;
  big se     seed 0's bootstrap with 4,000 resamples (the reported one's own Monte Carlo
             error);
  fisher se  the mean Fisher-information error, which treats hands as independent;
  covered    the share of the R leagues whose reported interval holds the mean strength
             over all R (target about 95%; with R = 20 a share of 17/20 or more is
             consistent with it).

Target: the reported intervals cover the bootstrap's (reported se >= big se x 0.95, the
Monte Carlo margin of 400 resamples) and the seeds' spread (boot se / seeds sd about 1 or
more).  `--repeats` (or `--seeds`) is the number of independent leagues.

    python benchmarks/league_intervals.py               # 20 seeds of 400 deals
    python benchmarks/league_intervals.py --quick       # 3 seeds of 40 deals (checks the script runs; says little)
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
# the harness first: it puts this tree ahead of any installed unosim on sys.path
from harness import Benchmark, Run, count


BOTS = ("counter", "greedy", "random", "wild_saver", "color_keeper")
TARGET_BIG = 0.95
TARGET_COVERED = 0.85

bench = Benchmark(__doc__, repeats=20, quick={"repeats": 3, "deals": 40},
                  repeats_help="independent leagues (seeds)")
bench.option("--seeds", dest="repeats", type=count, default=argparse.SUPPRESS, metavar="R", help="the same as --repeats")
bench.option("--deals", type=count, default=400, help="deals per table [default: 400]")
bench.option("--workers", type=count, default=2, help="[default: 2]")


def measure(run: Run) -> None:
    # imported here: `--help` and a bad argument answer without loading the engine
    from unosim.rules.botfile import resolve_bot
    from unosim.rules.config import default_config
    from unosim.studies.league import fit_league, fit_table, make_league, read_counts, run_league

    a = run.args
    seeds, deals = a.repeats, a.deals
    print(f"{len(BOTS)} bots at 4 players, {deals} deals x 24 seatings per table, {seeds} seeds")
    cfg = default_config().with_values({"players": 4})
    bots = [resolve_bot(b) for b in BOTS]
    strengths, lows, highs, fisher, pvals = [], [], [], [], []
    big = None
    with tempfile.TemporaryDirectory() as tmp:
        for s in range(seeds):
            lg = make_league(cfg, bots, players=4, deals=deals, seed=1000 + s)
            out = Path(tmp) / f"s{s}"
            run_league(lg, out, workers=a.workers)
            fit: list = []
            t = fit_league(lg, out, fit=fit).set_index("bot").loc[list(BOTS)]
            strengths.append(t["strength"].to_numpy())
            lows.append(t["low"].to_numpy())
            highs.append(t["high"].to_numpy())
            fisher.append(((t["fisher_high"] - t["fisher_low"]) / (2 * 1.959964)).to_numpy())
            pvals.append(fit[0].p)
            if s == 0:
                f = fit_table(lg, read_counts(lg, out), replicates=4000)
                order = [b.name for b in lg.bots]
                big = np.array([f.se_boot[order.index(b)] for b in BOTS])
    S, L, H, F = map(np.array, (strengths, lows, highs, fisher))
    boot = (H - L) / (2 * 1.959964)
    truth = S.mean(axis=0)
    covered = ((L <= truth) & (truth <= H)).sum(axis=0)
    sd = S.std(axis=0, ddof=1)
    print(f"{'bot':<13} {'strength':>8} {'seeds sd':>9} {'boot se':>8} {'big se':>7} {'fisher se':>9} "
          f"{'boot/sd':>7} {'boot/big':>8} {'boot/fisher':>11} covered")
    for i, b in enumerate(BOTS):
        print(f"{b:<13} {truth[i]:+8.3f} {sd[i]:9.4f} {boot[:, i].mean():8.4f} {big[i]:7.4f} {F[:, i].mean():9.4f} "
              f"{boot[:, i].mean() / sd[i]:7.2f} {boot[0, i] / big[i]:8.3f} {boot[:, i].mean() / F[:, i].mean():11.2f} "
              f"{covered[i]}/{seeds}")
    print(f"goodness-of-fit p-values over the seeds: {', '.join(f'{p:.2f}' for p in pvals if p is not None)}")
    for i, b in enumerate(BOTS):
        run.figure(f"{b}: strength, seeds sd, boot se, big se, fisher se, covered",
                   [truth[i], sd[i], boot[:, i].mean(), big[i], F[:, i].mean(), int(covered[i])])
    run.target("reported se / the 4,000-resample bootstrap's, smallest over the bots", (boot[0] / big).min(), ">=",
               TARGET_BIG, unit="x", fmt="{:.3f}")
    least = int(np.floor(TARGET_COVERED * seeds))
    run.target(f"leagues whose interval holds the mean over seeds, fewest over the bots (of {seeds})",
               int(covered.min()), ">=", least, fmt="{:.0f}", note=f"{TARGET_COVERED:.0%} of {seeds}, rounded down")


if __name__ == "__main__":
    bench.main(measure)
