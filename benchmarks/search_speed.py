#!/usr/bin/env python3
"""Benchmark: how fast the `search` strategy decides and plays, at 2 and 4 players.

For each table (one `search` seat, `counter` at the others, official rules) and each budget
(`worlds` x `rollouts`), it prints:

* decisions/s: searched decisions (positions where the search seat has 2+ options,
  reached by the table's bots, with the void limits the table kept on the way: `voids`
  is on by default) on one core, through `engine.search_batch.decide_all`: the
  decisions compiled as in a game (`engine.search.choice_at` called from Python runs
  the engine's lightly optimized code, several times slower);
* playouts/s: those decisions' playouts (options x worlds x rollouts each) per second,
  timed with the second look off (``deepen = 1``: every decision plays exactly that many);
* hands/s: whole hands of the search table through the runner's kernel
  (`runner.play_chunk`, which picks the search kernel);
* the rollout rate: playouts/s as a share of the plain kernel's hands/s at the same
  table with the search seat played by its rollout bot (`counter`).  A playout starts
  mid-hand, so it is shorter than a whole hand;
* the same decisions and hands at the default second look (``deepen``), which plays more
  worlds where an option is ahead: its decisions/s as a share of the flat search's.

Target (printed as met / NOT MET, never asserted): the rollout rate at least 0.5, the
playouts about as fast as the plain kernel's hands.

    python benchmarks/search_speed.py            # 200 positions, 40 hands per table and budget
    python benchmarks/search_speed.py --quick    # 20 positions, 4 hands, one small budget
    python benchmarks/search_speed.py --workers 1
"""

from __future__ import annotations

import argparse
import time

# the harness first: it puts this tree ahead of any installed unosim on sys.path
from harness import Benchmark, Run, count, count0, median

import numba
import numpy as np

from unosim.engine import search, search_batch
from unosim.kernel import layout as L
from unosim.rules.config import default_config, to_params
from unosim.rules.strategies import STRATEGIES
from unosim.run.runner import play_chunk
from unosim.run.workers import check_workers, kernel_workers
from unosim.scenario import first_turn

BUDGETS = [(4, 1), (32, 2)]
TARGET = 0.5
DEEPEN = STRATEGIES["search"][1]["deepen"][0]

def budget_list(text: str) -> list[tuple[int, int]]:
    """``4x1,16x2`` -> [(4, 1), (16, 2)]: worlds x rollouts, each a whole number >= 1."""
    out = []
    for item in text.split(","):
        w, x, r = item.strip().partition("x")
        if not x:
            raise argparse.ArgumentTypeError(f"{item!r} is not WORLDSxROLLOUTS (e.g. 16x2)")
        out.append((count(w), count(r)))
    return out


bench = Benchmark(__doc__, repeats=3, quick={"positions": 20, "hands": 4, "plain": 20_000, "budgets": [(2, 1)]})
bench.option("--positions", type=count, default=200, help="searched decisions timed per table and budget [default: 200]")
bench.option("--hands", type=count, default=40, help="whole hands per table and budget [default: 40]")
bench.option("--plain", type=count, default=200_000, help="hands of the plain kernel per table [default: 200,000]")
bench.option("--budgets", type=budget_list, default=BUDGETS,
             help="worlds x rollouts, comma-separated [default: 4x1,32x2, the search default]")
bench.option("--workers", type=count0, default=0, help="cores for the hands [default: 0, all numba may use]")


def positions(cfg, P, count: int, seed: int = 1, steps: int = 30) -> list[tuple[np.ndarray, np.ndarray]]:
    """States where seat 0 has 2+ options in turn, reached by the table's bots in up to
    ``steps`` steps, each with the context holding the void limits the table kept on the
    way (as in a real hand)."""
    idle = np.zeros(search.C_LEN, np.int64)
    idle[search.C_TRACK] = 1
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    opt = np.zeros(search.MAX_OPTIONS, np.int64)
    rng = np.random.default_rng(seed)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    h = 0
    while len(found) < count:
        st = first_turn(cfg, seed * 100_000 + h, dealer=h % cfg.players)
        r = np.array([h + 1], np.uint64)
        idle[search.C_VSTARTED] = 0
        for _ in range(int(rng.integers(0, steps))):
            if st[L.S_DONE]:
                break
            search.step_at(st, P, r, log, idle)
        h += 1
        if st[L.S_DONE] or st[L.S_CUR] != 0 or st[L.S_PENDING_KIND] >= 0 or search.options(st, P, 0, opt) < 2:
            continue
        found.append((st, idle.copy()))
    return found


def _timed(cfg, found, a, workers: int) -> tuple[list[float], list[float]]:
    """Decisions/s on one core at the positions ``found`` (each with the limits its table
    kept), and whole hands/s of the table on ``workers`` cores, per round."""
    P0 = to_params(cfg)
    P, ctx = search_batch.split_params(P0)
    ctxs = []
    for _, seen in found:  # the seat's budget, the limits its table kept
        ctxs.append(ctx.copy())
        ctxs[-1][search.C_TRACK:] = seen[search.C_TRACK:]
    rows, contexts = np.array([st for st, _ in found]), np.array(ctxs)
    chosen = np.zeros(len(found), np.int64)
    with kernel_workers(1):
        search_batch.decide_all(rows[:1], P, contexts[:1].copy(), 0, np.ones(1, np.int64), chosen[:1])  # load
    play_chunk(P0, 0, 0, 1, workers)
    dec_rates, hand_rates = [], []
    for r in range(a.repeats):
        seeds = np.arange(1, len(found) + 1, dtype=np.int64) + r * len(found)
        with kernel_workers(1):
            t0 = time.perf_counter()
            search_batch.decide_all(rows, P, contexts.copy(), 0, seeds, chosen)
            dec_rates.append(len(found) / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        play_chunk(P0, 1 + r, 0, a.hands, workers)
        hand_rates.append(a.hands / (time.perf_counter() - t0))
    return dec_rates, hand_rates


def measure(run: Run) -> None:
    a = run.args
    workers = check_workers(a.workers or None)
    numba.set_num_threads(workers)  # this process only measures
    budgets = a.budgets
    print(f"workers {workers} for hands; decisions on one core; budgets "
          f"{', '.join(f'{w}x{r}' for w, r in budgets)} (worlds x rollouts)")
    shares = []
    for players in (2, 4):
        plain = to_params(default_config(players=players).replace(seats=["counter"] * players))
        play_chunk(plain, 0, 0, 1000, workers)  # compile or load
        buffer = play_chunk(plain, 0, 0, a.plain, workers)
        plain_rates = []
        for r in range(a.repeats):
            t0 = time.perf_counter()
            play_chunk(plain, 1 + r, 0, a.plain, workers, buffer)
            plain_rates.append(a.plain / (time.perf_counter() - t0))
        plain_rate = median(plain_rates)
        print(f"{players} players: plain kernel (counter x{players}) {plain_rate:,.0f} hands/s on {workers} cores, "
              f"{plain_rate / workers:,.0f} per core")
        for worlds, rollouts in budgets:
            # the rate counts the first look's playouts (options x worlds x rollouts), so it
            # is timed with the second look off; the default's pace is printed beside it
            flat = {"strategy": "search", "worlds": worlds, "rollouts": rollouts, "deepen": 1}
            cfg = default_config(players=players).replace(seats=[flat] + ["counter"] * (players - 1))
            P, _ = search_batch.split_params(to_params(cfg))
            found = positions(cfg, P, a.positions)
            opt = np.zeros(search.MAX_OPTIONS, np.int64)
            per = sum(search.options(st, P, 0, opt) for st, _ in found) * worlds * rollouts / len(found)
            name = f"{players}p {worlds}x{rollouts}"
            dec_rates, hand_rates = _timed(cfg, found, a, workers)
            dec = median(dec_rates)
            share = dec * per / (plain_rate / workers)
            shares.append(share)
            print(f"  {name}, deepen=1: {dec:,.1f} decisions/s ({per:,.0f} playouts each: {dec * per:,.0f} "
                  f"playouts/s, {share:.2f} of the plain kernel's hands/s per core); {median(hand_rates):,.2f} "
                  f"hands/s on {workers} cores")
            run.figure(f"{name} decisions/s", dec_rates, "decisions/s")
            run.figure(f"{name} hands/s", hand_rates, "hands/s")
            seat = {"strategy": "search", "worlds": worlds, "rollouts": rollouts}
            deep_rates, deep_hands = _timed(cfg.replace(seats=[seat] + ["counter"] * (players - 1)), found, a, workers)
            print(f"  {name}, deepen={DEEPEN} (the default second look): {median(deep_rates):,.1f} decisions/s "
                  f"({median(deep_rates) / dec:.2f}x), {median(deep_hands):,.2f} hands/s on {workers} cores")
            run.figure(f"{name} deepen={DEEPEN} decisions/s", deep_rates, "decisions/s")
            run.figure(f"{name} deepen={DEEPEN} hands/s", deep_hands, "hands/s")
    run.target("playouts/s / plain hands/s (worst)", min(shares), ">=", TARGET, unit="x")


if __name__ == "__main__":
    bench.main(measure)
