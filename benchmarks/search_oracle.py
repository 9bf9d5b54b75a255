#!/usr/bin/env python3
"""Benchmark: how good the `search` strategy's choices are, judged by an oracle.

A duel measures the search hand by hand, and at 4 players one decision moves a hand so
little that thousands of deals leave the interval around 0.  This measures decisions:
positions where seat 0 (a search at a table of `counter`s, official rules) chooses its
card in turn, reached by the table's bots with the void limits kept on the way, as in a
game.  An oracle values every option there from the true hands, the draw pile (unknown
to every seat) shuffled afresh for each of its playouts, the same shuffles and random
streams for every option.  Each setting's choice is scored by the oracle's value of it
minus that of the (first setting's) rollout bot's own card: the gain per decision in points of win share,
with a 95% interval, and the difference from the first setting paired position by
position.  The true hands are one draw of what the seat cannot see, so the mean is an
unbiased measure of what the setting's choices win; the oracle's own playouts add noise
to each value, not bias.

It prints, per setting: the share of decisions where it plays another card than its
rollout bot, the mean gain per decision, and the paired difference from the first
setting.  No target: it compares settings (a default changed, a new idea) on the same
positions at a small fraction of a duel's cost.

    python benchmarks/search_oracle.py                  # 4 players, 2,000 positions
    python benchmarks/search_oracle.py --players 2 --settings "search:deepen=1;search:deepen=4"
    python benchmarks/search_oracle.py --quick          # 100 positions, 100 oracle playouts
"""

from __future__ import annotations

import argparse
import time

# the harness first: it puts this tree ahead of any installed unosim on sys.path
from harness import Benchmark, Run, count
from search_speed import positions

import numpy as np
from numba import njit

from unosim.analysis.stats import z_value
from unosim.engine import search, search_batch
from unosim.engine.choices import TURN, own_choice, play_option
from unosim.engine.hand import step
from unosim.kernel import layout as L
from unosim.kernel.rng import stream_start
from unosim.rules.config import default_config, to_params
from unosim.rules.params import MAX_PLAYERS
from unosim.studies.duel import parse_bot

SETTINGS = "search:deepen=1;search"


def table(spec: str, players: int):
    """(config, rules vector, context) of the setting at seat 0 among `counter`s."""
    seat = parse_bot(spec, "--settings")
    if (seat if isinstance(seat, str) else seat.get("strategy")) != "search":
        raise ValueError("not a search bot")
    cfg = default_config(players=players).replace(seats=[seat] + ["counter"] * (players - 1))
    P, ctx = search_batch.split_params(to_params(cfg))
    return cfg, P, ctx


def settings_list(text: str) -> list[str]:
    """``search;search:deepen=4`` -> the specs, each a search bot `unosim duel` would take."""
    specs = [s.strip() for s in text.split(";") if s.strip()]
    for spec in specs:
        try:
            table(spec, 2)
        except Exception as e:  # a bad parameter: the config's own message, one line
            raise argparse.ArgumentTypeError(f"{spec!r}: {e}") from None
    if not specs:
        raise argparse.ArgumentTypeError("no setting given")
    return specs


def players_count(text: str) -> int:
    """A table size unosim plays: 2 to ``MAX_PLAYERS``."""
    n = count(text)
    if not 2 <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{n} players: give 2 to {MAX_PLAYERS}")
    return n


bench = Benchmark(__doc__, repeats=1, quick={"positions": 100, "oracle": 100})
bench.option("--players", type=players_count, default=4, help="seats at the table [default: 4]")
bench.option("--positions", type=count, default=2000, help="decisions scored [default: 2,000]")
bench.option("--oracle", type=count, default=400, help="oracle playouts per option [default: 400]")
bench.option("--seed", type=count, default=1, help="which positions [default: 1]")
bench.option("--settings", type=settings_list, default=SETTINGS,
             help=f"search bots as `unosim duel` takes them, ';'-separated, the first the reference "
                  f"[default: {SETTINGS}]")


@njit(cache=True)
def oracle_values(st, P, p, opt, n, playouts, seed):
    """Seat p's win share after each of the n options in ``opt``, from the true hands of
    ``st``, the draw pile shuffled for each playout (the same for every option)."""
    w = np.empty_like(st)
    base = st.copy()
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    rng = np.empty(1, np.uint64)
    np.random.seed(seed)
    nd = st[L.S_NDRAW]
    v = np.zeros(n)
    for i in range(playouts):
        order = np.random.permutation(nd)
        for j in range(nd):
            base[L.S_DRAW0 + j] = st[L.S_DRAW0 + order[j]]
        for t in range(n):
            w[:] = base
            rng[0] = stream_start(np.uint64(seed), i, 0)
            play_option(w, P, rng, log, p, opt[t], TURN, -1)
            while w[L.S_DONE] == 0:
                step(w, P, rng, log)
            v[t] += 1.0 if w[L.S_WINNER] == p else 0.0
    return v / playouts


@njit(cache=True)
def rollout_choice(st, P, p, seed):
    """The rollout bot's card as ``search.choice_at`` with search ``seed`` takes it for seat
    p's first decision (the ties from the same stream), so a choice differs from it only
    where the search moved away."""
    r = np.empty(1, np.uint64)
    r[0] = stream_start(stream_start(np.uint64(seed), 0, p), 0, 0)
    return own_choice(st, P, r, p, TURN, -1)


def interval(x: np.ndarray) -> str:
    half = z_value(0.95) * x.std(ddof=1) / np.sqrt(len(x))
    return f"{100 * x.mean():+.3f} [{100 * (x.mean() - half):+.3f}, {100 * (x.mean() + half):+.3f}]"


def measure(run: Run) -> None:
    a = run.args
    specs = a.settings
    tables = [table(s, a.players) for s in specs]
    cfg, P, _ = tables[0]
    t0 = time.perf_counter()
    found = positions(cfg, P, a.positions, a.seed, steps=15 * a.players)  # a hand's length or so
    rng = np.random.default_rng(a.seed)
    opt = np.zeros(search.MAX_OPTIONS, np.int64)
    bank = []
    for st, seen in found:
        n = search.options(st, P, 0, opt)
        seed = int(rng.integers(1, 2**62))
        own = rollout_choice(st, P, 0, seed)
        values = oracle_values(st, P, 0, opt[:n].copy(), n, a.oracle, seed % 2**31)
        j0 = list(opt[:n]).index(own)
        bank.append((st, seen, seed, {int(o): values[j] - values[j0] for j, o in enumerate(opt[:n])}))
    print(f"{a.players} players, {len(bank):,} positions (seed {a.seed}), {a.oracle} oracle playouts per option: "
          f"valued in {time.perf_counter() - t0:.0f} s")
    first = None
    for spec, (_, Ps, ctx) in zip(specs, tables):
        t0 = time.perf_counter()
        gains = np.empty(len(bank))
        changed = 0
        for i, (st, seen, seed, value) in enumerate(bank):
            c = ctx.copy()
            c[search.C_TRACK:] = seen[search.C_TRACK:]
            choice = int(search.choice_at(st, Ps, c, 0, seed))
            gains[i] = value[choice]
            changed += choice != rollout_choice(st, Ps, 0, seed)
        line = (f"  {spec}: plays another card than its rollout bot in {changed / len(bank):.1%}; "
                f"gain per decision {interval(gains)} points")
        if first is None:
            first = gains
        else:
            line += f"; minus {specs[0]}: {interval(gains - first)} (paired)"
        print(line + f" ({time.perf_counter() - t0:.0f} s)")
        run.figure(f"{spec} gain per decision", [100 * gains.mean()], "points")


if __name__ == "__main__":
    bench.main(measure)
