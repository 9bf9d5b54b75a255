#!/usr/bin/env python3
"""Benchmark: ``hand_report`` on a synthetic 10-million-hand result file.

Writes a file with the engine's schema (4 players, a draw2-stacking config so the
stacking counters are non-zero and must be read), one row group of 1M rows at a time so
the writer's memory stays flat, then times ``hand_report`` + ``to_text`` in a fresh
subprocess (R times: the median wall, the largest peak) and prints its wall time and peak
RSS (``ru_maxrss`` of that child alone).

Targets: < 30 s and < 2 GiB peak RSS on a 2-core machine.

``--verify``: the same rows as a result directory (parts of 1M rows, a manifest and the
part journal with each part's CRC-32), reported twice in the same run: verified (every
part hashed against the journal, as ``unosim report`` does) and with the journal set
aside (what was read before verification existed), alternately, best of max(2, R) each.
Target: verified < 1.1x unverified.

    python benchmarks/report_10m.py [--rows 10000000] [--path FILE] [--keep]
    python benchmarks/report_10m.py --quick        # 200,000 rows
    python benchmarks/report_10m.py --verify [--rows N]
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from harness import Benchmark, Run, count, median, this_tree

TARGET_SECONDS = 30.0
TARGET_MIB = 2048.0
TARGET_VERIFY = 1.1
PLAYERS = 4
CONFIG = """name = "stack2"
[table]
players = 4
[rules]
stacking = "draw2"
[bots]
seats = "random"
"""


def _chunk(rng: np.random.Generator, start: int, n: int) -> pa.Table:
    """One row group of plausible hands (distributions shaped like random-bot UNO)."""
    i32 = np.int32
    hand = np.arange(start, start + n, dtype=np.int64)
    dealer = (hand % PLAYERS).astype(i32)
    first = ((dealer + 1) % PLAYERS).astype(i32)
    # turns: right-skewed, mean ~ 45 (gamma), a rare stall at max_turns
    turns = np.maximum(8, rng.gamma(2.2, 20.0, n)).astype(i32)
    stalled = rng.random(n) < 1e-5
    turns[stalled] = 5000
    # the first seat after the dealer wins a little more often
    rel = rng.choice(PLAYERS, n, p=[0.24, 0.265, 0.25, 0.245])
    winner = ((dealer + rel) % PLAYERS).astype(i32)
    winner[stalled] = -1
    played = (turns * rng.uniform(0.55, 0.8, n)).astype(i32)
    drawn = (turns * 0.35 + rng.poisson(6, n)).astype(i32)
    reshuffles = rng.poisson(turns / 180.0).astype(i32)
    longest = rng.choice(5, n, p=[0.3, 0.45, 0.18, 0.05, 0.02]).astype(i32)
    stack_drawn = (longest * 2 * (longest > 1)).astype(i32)
    max_draw = np.maximum(stack_drawn, 4 * (rng.random(n) < 0.6)).astype(i32)
    zeros = np.zeros(n, i32)
    cols: dict[str, pa.Array] = {
        "hand": pa.array(hand),
        "dealer": pa.array(dealer),
        "first_player": pa.array(first),
        "winner": pa.array(winner),
        "winning_team": pa.array(winner),
        "stalled": pa.array(stalled),
        "turns": pa.array(turns),
        "cards_played": pa.array(played),
        "cards_drawn": pa.array(drawn),
        "reshuffles": pa.array(reshuffles),
        "challenges": pa.array(zeros),
        "uno_penalties": pa.array(zeros),
        "longest_stack": pa.array(longest),
        "stack_drawn": pa.array(stack_drawn),
    }
    for c in ("jump_ins", "swaps", "passes", "slaps", "noises", "giveaways"):
        cols[c] = pa.array(zeros)
    cols["max_draw"] = pa.array(max_draw)
    for s in range(PLAYERS):
        cards = (rng.poisson(4.0, n) + 1).astype(i32)
        cards[winner == s] = 0
        points = (cards * rng.uniform(5, 15, n)).astype(i32)
        cols[f"points_{s}"] = pa.array(points)
        cols[f"cards_{s}"] = pa.array(cards)
        cols[f"rank_{s}"] = pa.array(zeros)
    return pa.table(cols)


def write(path: Path, rows: int, row_group: int = 1_000_000, seed: int = 1) -> None:
    """Write ``rows`` hands in row groups of ``row_group`` with unosim metadata."""
    rng = np.random.default_rng(seed)
    meta = {
        "unosim.version": "0.1.0",
        "unosim.engine_version": "bench",
        "unosim.config": CONFIG,
        "unosim.config_name": "stack2",
        "unosim.seed": str(seed),
        "unosim.players": str(PLAYERS),
        "unosim.teams": "1",
        "unosim.match_target": "500",
        "unosim.bots": json.dumps(["random"] * PLAYERS),
        "unosim.mode": "hands",
        "unosim.finish": "first_out",
    }
    first = _chunk(rng, 0, min(row_group, rows))
    schema = first.schema.with_metadata({k.encode(): v.encode() for k, v in meta.items()})
    with pq.ParquetWriter(path, schema) as w:
        w.write_table(first.cast(schema), row_group_size=row_group)
        for start in range(row_group, rows, row_group):
            t = _chunk(rng, start, min(row_group, rows - start))
            w.write_table(t.cast(schema), row_group_size=row_group)


CHILD = """
import sys, time
t0 = time.perf_counter()
from unosim.analysis.report import hand_report, to_text
t1 = time.perf_counter()
rep = hand_report(sys.argv[1])
text = to_text(rep, width=100)
t2 = time.perf_counter()
print(text)
print(f"import {t1 - t0:.2f} s, hand_report + to_text {t2 - t1:.2f} s")
"""


def write_result(path: Path, rows: int, row_group: int = 1_000_000, seed: int = 1) -> None:
    """The rows as a result directory: one part per row group, a manifest, a journal."""
    from unosim.run.integrity import PartRecord, append_record, file_crc

    path.mkdir(parents=True)
    single = path / "all.tmp.parquet"
    write(single, rows, row_group, seed)
    pf = pq.ParquetFile(single)
    for g in range(pf.num_row_groups):
        part = path / f"part-{g:06d}.parquet"
        t = pf.read_row_group(g)
        pq.write_table(t, part, compression="lz4", row_group_size=t.num_rows)
        crc, size = file_crc(part)
        append_record(path, PartRecord(g, g * row_group, t.num_rows, t.num_rows, crc, size))
    single.unlink()
    (path / "_unosim.json").write_text(json.dumps({"config": CONFIG, "seed": seed, "games": rows,
                                                   "chunk_size": row_group, "mode": "hands",
                                                   "engine_version": "bench"}))


def written(path: Path, rows: int, write: Callable[[Path, int], None]) -> None:
    """``write(path, rows)``, then one line: the parts it made, their size, its time."""
    t = time.perf_counter()
    write(path, rows)
    size = sum(f.stat().st_size for f in path.glob("part-*.parquet"))
    print(f"wrote {rows:,} rows as {len(list(path.glob('part-*')))} parts ({size / 2**20:.0f} MiB) in "
          f"{time.perf_counter() - t:.1f} s")


def _timed(path: Path) -> tuple[float, str]:
    out = this_tree().python(CHILD, path, what="hand_report")
    return out.wall, out.stdout


def verify_main(run: Run, rows: int) -> None:
    rounds = max(2, run.repeats)
    with tempfile.TemporaryDirectory(prefix="unosim_bench_") as tmp:
        path = Path(tmp) / "result"
        written(path, rows, write_result)
        journal = path / "_unosim_parts.jsonl"
        times: dict[str, list[float]] = {"verified": [], "unverified": []}
        for _ in range(rounds):  # alternate, so the page cache and the machine's load favour neither
            times["verified"].append(_timed(path)[0])
            journal.rename(path / "journal.aside")
            wall, text = _timed(path)
            times["unverified"].append(wall)
            (path / "journal.aside").rename(journal)
        print(text.splitlines()[-1])
        v, u = min(times["verified"]), min(times["unverified"])
        print(f"report on {rows:,} rows: verified {v:.2f} s, unverified {u:.2f} s (best of {rounds} each)")
        run.figure("verified s", times["verified"], "s")
        run.figure("unverified s", times["unverified"], "s")
        run.target("verified / unverified", v / u, "<", TARGET_VERIFY, unit="x", fmt="{:.3f}")


bench = Benchmark(__doc__, repeats=1, quick={"rows": 200_000})
bench.option("--rows", type=count, default=10_000_000, help="rows of the synthetic file [default: 10,000,000]")
bench.option("--path", type=Path, default=None, help="the file: written if missing, else reused [default: a temporary one]")
bench.option("--keep", action="store_true", help="keep the generated file")
bench.option("--verify", action="store_true", help="time verification (see the docstring)")


def measure(run: Run) -> None:
    args = run.args
    if args.verify:
        verify_main(run, args.rows)
        return
    tmp = None
    path = args.path
    if path is None:
        tmp = tempfile.TemporaryDirectory(prefix="unosim_bench_")
        path = Path(tmp.name) / "report_10m.parquet"
    if not path.exists():
        t = time.perf_counter()
        write(path, args.rows)
        print(f"wrote {args.rows:,} rows to {path} ({path.stat().st_size / 2**20:.0f} MiB) "
              f"in {time.perf_counter() - t:.1f} s")  # fmt: skip
    walls, peaks = [], []
    for _ in range(args.repeats):
        out = this_tree().python(CHILD, path, what="hand_report")
        walls.append(out.wall)
        peaks.append(out.rss / 2**20)
    print(out.stdout, end="")
    wall, rss = median(walls), max(peaks)
    print(f"hand_report on {args.rows:,} rows: {wall:.2f} s wall (subprocess), peak RSS {rss:.0f} MiB")
    run.figure("wall s", walls, "s")
    run.target("hand_report + to_text, wall", wall, "<", TARGET_SECONDS, unit="s")
    run.target("hand_report + to_text, peak RSS", rss, "<", TARGET_MIB, unit="MiB", fmt="{:,.0f}")
    if tmp is not None and not args.keep:
        tmp.cleanup()


if __name__ == "__main__":
    bench.main(measure)
