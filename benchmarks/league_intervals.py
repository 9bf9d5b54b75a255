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
more).  `--quick` plays 3 seeds of 40 deals (checks the script runs; says little).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from unosim.rules.config import default_config  # noqa: E402
from unosim.run.botfile import resolve_bot  # noqa: E402
from unosim.skill.league import fit_league, fit_table, make_league, read_counts, run_league  # noqa: E402

BOTS = ("counter", "greedy", "random", "wild_saver", "color_keeper")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    seeds, deals = (3, 40) if a.quick else (a.seeds, a.deals)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(BOTS)} bots at 4 players, {deals} deals x 24 seatings "
          f"per table, {seeds} seeds")
    cfg = default_config().with_values({"players": 4})
    bots = [resolve_bot(b) for b in BOTS]
    strengths, lows, highs, fisher, pvals = [], [], [], [], []
    big = None
    t0 = time.perf_counter()
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
    ok_big = bool((boot[0] >= 0.95 * big).all())
    ok_sd = bool((covered >= np.floor(0.85 * seeds)).all())
    print(f"goodness-of-fit p-values over the seeds: {', '.join(f'{p:.2f}' for p in pvals if p is not None)}")
    print(f"reported se >= 0.95 x the 4,000-resample bootstrap's for every bot: {'met' if ok_big else 'NOT MET'}")
    print(f"reported intervals hold the mean over seeds in >= 85% of the leagues for every bot: "
          f"{'met' if ok_sd else 'NOT MET'}")
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
