#!/usr/bin/env python3
"""Benchmark: do unosim's `configs/rlcard.toml` and RLCard's own UNO game play the same game?

Plays the same number of hands in both (RLCard under a Python that has rlcard 1.2.0,
driven by benchmarks/rlcard_baseline.py; unosim in-process on one core) and prints side
by side: mean actions (turns) per hand with a two-sample z test, the seat that takes the
first turn and the winner's position counted from the first player to act, each with a
chi-square test of homogeneity, and the speed ratio.  A p-value far below 0.01 means the
presets differ; the target is every p-value > 0.001.  The speed ratio is shown too
(unosim's hands/s: the median of R timed runs).

The policy pairs RLCard's side with a unosim bot: ``b0`` (unosim's reference bot, seats
``random``) or ``distinct`` (RLCard's RandomAgent, uniform over legal action ids: seats
``rlcard_random``).  ``--players 2`` checks E5 (a turned Reverse lets seat 1 start).

    python benchmarks/vs_rlcard_rules.py --hands 20000 --rlcard-python PATH/TO/venv/bin/python
    python benchmarks/vs_rlcard_rules.py --players 2 --policy distinct
    python benchmarks/vs_rlcard_rules.py --quick      # 2,000 hands
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

from harness import Benchmark, Run, child, count, median

HERE = Path(__file__).resolve().parent
BOTS = {"b0": "random", "distinct": "rlcard_random"}  # RLCard-side policy -> unosim strategy
TARGET_P = 0.001

bench = Benchmark(__doc__, repeats=1, quick={"hands": 2000})
bench.option("--hands", type=count, default=20_000, help="hands per side [default: 20,000]")
bench.option("--seed", type=int, default=1)
bench.option("--players", type=count, default=4, help="[default: 4]")
bench.option("--policy", choices=sorted(BOTS), default="b0")
bench.option("--rlcard-python", default=os.environ.get("RLCARD_PYTHON", sys.executable),
             help="a Python with rlcard 1.2.0 installed [default: $RLCARD_PYTHON, else this one]")


def unosim_side(hands: int, seed: int, players: int, bot: str, repeats: int) -> dict:
    import numpy as np

    from unosim.rules.config import load_config
    from unosim.kernel import layout as L
    from unosim.run.runner import play_chunk
    from unosim.run.workers import kernel_workers

    cfg = load_config(HERE.parent / "configs" / "rlcard.toml").replace(players=players, seats=bot)
    from unosim.rules.config import to_params

    P = to_params(cfg)
    with kernel_workers(1):
        play_chunk(P, seed, 0, 100, 1)  # compile / load the cache outside the timing
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            out = play_chunk(P, seed, 0, hands, 1)
            times.append(time.perf_counter() - t0)
    seconds = median(times)
    n = cfg.players
    won = out[:, L.O_WINNER] >= 0
    # direction of the first turn: anticlockwise only after a turned Reverse (dealer starts)
    first, dealer = out[:, L.O_FIRST], out[:, L.O_DEALER]
    direction = np.where(first == dealer, -1, 1)
    rel = ((out[:, L.O_WINNER] - first) * direction) % n
    counts = np.bincount(rel[won], minlength=n)
    turns = out[:, L.O_TURNS].astype(float)
    return {"hands": hands, "hands_per_s": hands / seconds, "mean": turns.mean(), "sd": turns.std(ddof=1),
            "counts": counts.tolist(), "first": np.bincount(first, minlength=n).tolist()}


def homogeneity(a: list, b: list) -> tuple[float, float, int]:
    """Chi-square test of homogeneity of two count vectors (columns empty in both dropped)."""
    import numpy as np
    from scipy import stats

    table = np.array([a, b])
    table = table[:, table.sum(axis=0) > 0]
    chi2, p, dof, _ = stats.chi2_contingency(table)
    return chi2, p, dof


def measure(run: Run) -> None:
    import numpy as np
    from scipy import stats

    a = run.args
    if not Path(a.rlcard_python).exists():
        raise SystemExit(f"error: {a.rlcard_python} not found; set up RLCard's venv as benchmarks/rlcard_rules.md says")
    cmd = [a.rlcard_python, str(HERE / "rlcard_baseline.py"), "--hands", str(a.hands), "--seed", str(a.seed),
           "--players", str(a.players), "--policy", a.policy]
    rl = json.loads(child(cmd, what=f"RLCard's side (is rlcard 1.2.0 installed for {a.rlcard_python}?)").stdout)
    un = unosim_side(a.hands, a.seed, a.players, BOTS[a.policy], a.repeats)
    se = math.sqrt(rl["sd_actions_per_hand"] ** 2 / rl["hands"] + un["sd"] ** 2 / un["hands"])
    z = (un["mean"] - rl["mean_actions_per_hand"]) / se
    p_mean = 2 * stats.norm.sf(abs(z))
    table = np.array([rl["win_counts_by_position_from_first_to_act"], un["counts"]])
    chi2, p_share, dof = homogeneity(*table.tolist())
    rl_first = [round(f * rl["hands"]) for f in rl["first_to_act_share_by_seat"]]
    chi2_f, p_first, dof_f = homogeneity(rl_first, un["first"])
    print(f"hands per side: {a.hands:,} ({a.players} players, policy {a.policy} = unosim "
          f"{BOTS[a.policy]}, seed {a.seed})")
    print(f"{'':34}{'RLCard 1.2.0':>14}{'unosim rlcard.toml':>20}")
    print(f"{'mean actions (turns) per hand':34}{rl['mean_actions_per_hand']:>14.3f}{un['mean']:>20.3f}"
          f"   z = {z:+.2f}, p = {p_mean:.3f}")
    shares_rl = table[0] / table[0].sum()
    shares_un = table[1] / table[1].sum()
    for i in range(len(shares_rl)):
        label = "winner = first to act" if i == 0 else f"winner = first + {i}"
        print(f"{label:34}{shares_rl[i]:>14.4f}{shares_un[i]:>20.4f}")
    print(f"{'':34}chi-square = {chi2:.2f} on {dof} df, p = {p_share:.3f}")
    for seat in range(a.players):
        print(f"{f'first to act = seat {seat}':34}{rl_first[seat] / rl['hands']:>14.4f}"
              f"{un['first'][seat] / un['hands']:>20.4f}")
    print(f"{'':34}chi-square = {chi2_f:.2f} on {dof_f} df, p = {p_first:.3f}")
    print(f"{'hands/s (one core)':34}{rl['hands_per_s']:>14,.0f}{un['hands_per_s']:>20,.0f}"
          f"   unosim/RLCard = {un['hands_per_s'] / rl['hands_per_s']:.0f}x")
    run.figure("p, mean turns", p_mean)
    run.figure("p, winner's position", p_share)
    run.figure("p, first to act", p_first)
    run.figure("unosim / RLCard hands/s", un["hands_per_s"] / rl["hands_per_s"], "x")
    agree = run.target("smallest p-value (the two implementations agree)", min(p_mean, p_share, p_first), ">",
                       TARGET_P, fmt="{:.4f}")
    print(f"verdict: the two implementations {'agree' if agree else 'DIFFER'}")


if __name__ == "__main__":
    bench.main(measure)
