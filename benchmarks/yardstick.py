#!/usr/bin/env python3
"""Benchmark: unosim's hands per CPU second against an external yardstick program.

The yardstick is any command that plays the official rules with the reference bot B0 in
every seat and prints one JSON line with ``hands_per_cpu_s`` (and ``players``): a tight C
program of the same game, say, built outside this repository. ``{players}`` and
``{hands}`` in the command are filled in; without ``{players}`` only the table size the
command plays is measured.

Each round runs, one after another and each on one pinned core: the yardstick, then per
bot (``random``, ``counter``) unosim's kernel alone (``runner.play_chunk`` in a child,
its CPU time) and ``unosim run`` end to end (the whole process's CPU time: start-up,
imports, kernel and Parquet). Ratios are of medians over the rounds, all taken in the
same run, so a busy machine slows both sides alike. ``counter`` is compared with the
yardstick's B0 figure, as the targets say.

    gcc -O3 -march=native -o /tmp/uno_c uno_c.c -lm
    python benchmarks/yardstick.py --yardstick "/tmp/uno_c {players} {hands} 1"
    python benchmarks/yardstick.py --yardstick "/tmp/uno_c {players} {hands} 1" --quick
"""

from __future__ import annotations

import json
import shlex
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness import Benchmark, Run, child, count, median, this_tree, unosim_command

TARGET_END_TO_END = 0.8   # unosim run, random, 4 players, x the yardstick
TARGET_KERNEL = 0.9       # the kernel alone, random, 4 players
TARGET_COUNTER = 0.5      # the kernel with counter bots, 4 players, x the yardstick's B0
BOTS = ("random", "counter")

bench = Benchmark(__doc__, repeats=3, quick={"hands": 100_000})
bench.option("--yardstick", required=True, metavar="CMD",
             help="the external command; {players} and {hands} are filled in; its last line is JSON "
                  "with hands_per_cpu_s")
bench.option("--players", default="2,4", help="table sizes, comma-separated [default: 2,4]")
bench.option("--hands", type=count, default=3_000_000, help="hands per timed run, each side [default: 3,000,000]")

KERNEL = """
import sys, time
from unosim.rules.config import load_config, to_params
from unosim.run.runner import chunks, play_chunk
from unosim.run.workers import kernel_workers
P = to_params(load_config(sys.argv[1]))
hands, size = int(sys.argv[2]), 200_000
with kernel_workers(1):
    buffer = play_chunk(P, 0, 0, min(size, hands), 1)  # loads the cached kernel
    t0 = time.process_time()
    for _, start, n in chunks(hands, size):
        play_chunk(P, 0, start, n, 1, buffer)
    print(hands / (time.process_time() - t0))
"""


@dataclass
class Side:
    """Hands per CPU second, one figure per round."""

    rates: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return median(self.rates)


def config_for(folder: Path, players: int, bot: str) -> Path:
    path = folder / f"yardstick_{bot}_{players}p.toml"
    path.write_text(f'name = "yardstick_{bot}_{players}p"\n[table]\nplayers = {players}\n'
                    f'[bots]\nseats = "{bot}"\n')
    return path


def yardstick(template: str, players: int, hands: int) -> tuple[int, float]:
    """(players, hands per CPU second) of one yardstick run, pinned to one core."""
    cmd = shlex.split(template.replace("{players}", str(players)).replace("{hands}", str(hands)))
    out = child(cmd, pin=True, what="the yardstick").last_json()
    try:
        return int(out["players"]), float(out["hands_per_cpu_s"])
    except (KeyError, TypeError, ValueError):
        raise SystemExit(f"error: the yardstick's last line has no players and hands_per_cpu_s: {json.dumps(out)}")


def kernel_rate(config: Path, hands: int) -> float:
    return float(this_tree().python(KERNEL, config, hands, pin=True, what="the kernel").stdout.strip())


def end_to_end_rate(config: Path, hands: int, out: Path) -> float:
    cmd = unosim_command() + ["run", str(config), "--hands", str(hands), "--workers", "1", "--quiet", "--force",
                              "--out", str(out)]
    try:
        return hands / this_tree().run(cmd, pin=True, what="unosim run").cpu
    finally:
        shutil.rmtree(out, ignore_errors=True)


def measure(run: Run) -> None:
    args = run.args
    sizes = [int(p) for p in args.players.split(",") if p.strip()]
    if "{players}" not in args.yardstick:
        sizes = [yardstick(args.yardstick, 0, args.hands)[0]]
        print(f"the yardstick plays {sizes[0]} players only (no {{players}} in its command)")
    with tempfile.TemporaryDirectory(prefix="unosim-yardstick-") as tmp:
        folder = Path(tmp)
        configs = {(p, b): config_for(folder, p, b) for p in sizes for b in BOTS}
        for cfg in configs.values():  # the kernels loaded (or compiled) before any timing
            end_to_end_rate(cfg, 1000, folder / "warm")
        yard = {p: Side() for p in sizes}
        kern = {key: Side() for key in configs}
        whole = {key: Side() for key in configs}
        for i in range(run.repeats):
            for p in sizes:
                yard[p].rates.append(yardstick(args.yardstick, p, args.hands)[1])
                for b in BOTS:
                    kern[p, b].rates.append(kernel_rate(configs[p, b], args.hands))
                    whole[p, b].rates.append(end_to_end_rate(configs[p, b], args.hands, folder / "out"))
            print(f"  round {i + 1}/{run.repeats} done", flush=True)
    print(f"\nhands per CPU second, one pinned core, {args.hands:,} hands a run, medians of {run.repeats} rounds")
    print(f"{'players':>7} {'bots':<8} {'yardstick B0':>12} {'kernel':>10} {'x':>6} {'unosim run':>10} {'x':>6}")
    for (p, b), k in kern.items():
        y = yard[p].rate
        w = whole[p, b].rate
        print(f"{p:>7} {b:<8} {y:>12,.0f} {k.rate:>10,.0f} {k.rate / y:>6.2f} {w:>10,.0f} {w / y:>6.2f}")
        run.figure(f"kernel_{b}_{p}p", k.rates, "hands/cpu s")
        run.figure(f"end_to_end_{b}_{p}p", whole[p, b].rates, "hands/cpu s")
        run.figure(f"yardstick_{p}p", yard[p].rates, "hands/cpu s")
    if 4 in sizes:
        y = yard[4].rate
        run.target("unosim run / yardstick, random, 4 players", whole[4, "random"].rate / y, ">=", TARGET_END_TO_END,
                   unit="x")
        run.target("kernel / yardstick, random, 4 players", kern[4, "random"].rate / y, ">=", TARGET_KERNEL, unit="x")
        run.target("kernel with counter / yardstick's B0, 4 players", kern[4, "counter"].rate / y, ">=",
                   TARGET_COUNTER, unit="x")


if __name__ == "__main__":
    bench.main(measure)
