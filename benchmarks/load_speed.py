#!/usr/bin/env python3
"""Benchmark: ``unosim.load(DIR, columns=[two])`` against ``pd.read_parquet`` of the same columns.

Writes a synthetic 10-million-hand result directory (report_10m.py's rows: parts of 1M
rows, a manifest and the part journal), then reads two columns (``turns`` and
``winner``) with both, alternately in the same process (so the page cache and the
machine's load favour neither), R rounds.  ``unosim.load`` does more: it discovers and
checks the parts (journal, sizes, footers) and hashes each part against its CRC-32 while
pyarrow reads.  Target: its median time at most 1.2x pandas'.

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


def measure(run: Run) -> None:
    import pandas as pd
    from report_10m import write_result

    import unosim

    rows = run.args.rows
    with tempfile.TemporaryDirectory(prefix="unosim_bench_") as tmp:
        path = Path(tmp) / "result"
        t = time.perf_counter()
        write_result(path, rows)
        size = sum(f.stat().st_size for f in path.glob("part-*.parquet"))
        print(f"wrote {rows:,} rows as {len(list(path.glob('part-*')))} parts ({size / 2**20:.0f} MiB) in "
              f"{time.perf_counter() - t:.1f} s")
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
