#!/usr/bin/env python3
"""Benchmark: ``unosim.load(DIR, columns=[two])`` against ``pd.read_parquet`` of the same columns.

Writes a synthetic 10-million-hand result directory (report_10m.py's rows, written by
the run's own part writer: parts of 1M rows with page CRCs, a manifest, the part
journal), then reads two columns (``turns`` and ``winner``) with both, alternately in the
same process (so the page cache and the machine's load favour neither), R rounds.
``unosim.load`` does more: it checks the journal, every part's size and footer, and the
CRC of every page it decodes.  Target: its median time at most 1.2x pandas'.

    python benchmarks/load_speed.py [--rows 10000000] [--repeats 5]
    python benchmarks/load_speed.py --quick        # 200,000 rows
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from harness import Benchmark, Run, count, median

TARGET = 1.2
COLUMNS = ["turns", "winner"]

bench = Benchmark(__doc__, repeats=5, quick={"rows": 200_000})
bench.option("--rows", type=count, default=10_000_000, help="rows of the synthetic result [default: 10,000,000]")


def write_result(path: Path, rows: int, part_rows: int = 1_000_000) -> None:
    """``rows`` synthetic hands as a result directory, through unosim's part writer."""
    import json

    import numpy as np
    from report_10m import CONFIG, _chunk

    from unosim.run.store import MANIFEST, ResultDir

    result = ResultDir(path)
    path.mkdir(parents=True)
    meta = {b"unosim.config": CONFIG.encode(), b"unosim.players": b"4", b"unosim.bots": b'["random"]',
            b"unosim.mode": b"hands", b"unosim.seed": b"1", b"unosim.schema_version": b"2"}
    rng = np.random.default_rng(1)
    for i, start in enumerate(range(0, rows, part_rows)):
        n = min(part_rows, rows - start)
        result.record(result.write_chunk(i, _chunk(rng, start, n).replace_schema_metadata(meta), start, n))
    (path / MANIFEST).write_text(json.dumps({"config": CONFIG, "seed": 1, "games": rows, "chunk_size": part_rows,
                                             "mode": "hands", "engine_version": "bench"}))


def measure(run: Run) -> None:
    import pandas as pd
    from report_10m import written

    import unosim

    rows = run.args.rows
    with tempfile.TemporaryDirectory(prefix="unosim_bench_") as tmp:
        path = Path(tmp) / "result"
        written(path, rows, write_result)
        first = unosim.load(path, columns=COLUMNS)  # the same rows, once, before the clock
        assert first.equals(pd.read_parquet(path, columns=COLUMNS)), "unosim.load and pandas disagree"
        times: dict[str, list[float]] = {"unosim.load": [], "pd.read_parquet": []}
        for _ in range(max(2, run.repeats)):
            for name, read in (("unosim.load", unosim.load), ("pd.read_parquet", pd.read_parquet)):
                t = time.perf_counter()
                df = read(path, columns=COLUMNS)
                times[name].append(time.perf_counter() - t)
                assert len(df) == rows
        mine, theirs = median(times["unosim.load"]), median(times["pd.read_parquet"])
        print(f"{len(COLUMNS)} columns of {rows:,} rows: unosim.load {mine:.3f} s, pd.read_parquet {theirs:.3f} s "
              f"(medians of {len(times['unosim.load'])} alternating rounds)")
        run.figure("unosim.load s", times["unosim.load"], "s")
        run.figure("pd.read_parquet s", times["pd.read_parquet"], "s")
        run.target("unosim.load / pd.read_parquet", mine / theirs, "<=", TARGET, unit="x", fmt="{:.3f}")


if __name__ == "__main__":
    bench.main(measure)
