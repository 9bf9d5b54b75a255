#!/usr/bin/env python3
"""Benchmark: the Parquet writer's options on a real run, in CPU seconds and bytes.

The parts of one `unosim run CONFIG --hands N` (played once, by this tree) are written
again under each set of writer options, as `ResultDir.write_chunk` writes them (one row
group, LZ4, page checksums), then read back.  The sets, varied one choice at a time:

  dictionary   every column but the unit index dictionary-encoded (the store's choice
               before this benchmark), column statistics everywhere
  plain        integer and flag columns plain-encoded (strings keep their dictionary)
  delta        integer columns DELTA_BINARY_PACKED (as the unit index always is), flags plain
  byte stream split   integer columns BYTE_STREAM_SPLIT, flags plain
  delta, few statistics   delta, statistics only on the columns unosim reads them of (the
               unit index: resume and unosim.load check a part's range with them; the
               counters: reports skip an all-zero counter by them)

For each set and round: the CPU seconds of writing every part (``time.process_time``,
every thread of this process), the bytes on disk, and the CPU seconds of reading the
result with ``pandas.read_parquet`` (every column) and with ``unosim.load`` of two
columns (``winner``, ``turns``; every page checked against its checksum).  The sets take
turns within each round, so a drift in the host's speed hits them alike; medians of the
rounds are reported.  CPU time, not wall time: the machine may be shared.

    python benchmarks/parquet_options.py                  # 1,000,000 hands, 5 rounds
    python benchmarks/parquet_options.py --hands 3000000 --repeats 7
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import ROOT, Benchmark, Run, count, median, resolve_config, this_tree, unosim_command

bench = Benchmark(__doc__, repeats=5, quick={"hands": 50_000})
bench.option("--hands", type=count, default=1_000_000, help="hands of the run [default: 1,000,000]")
bench.option("--config", type=resolve_config, default=ROOT / "configs" / "standard.toml",
             help="a TOML path or a bundled name [default: standard]")

READ_COLUMNS = ["winner", "turns"]


def variants() -> dict[str, Any]:
    """Each set's ``writer_options(schema, rows)``."""
    import pyarrow as pa

    from unosim.kernel.layout import COUNTERS

    units = {"hand", "match", "tournament"}
    counters = {c.column for c in COUNTERS}

    def options(encoding: str, statistics: bool):
        def make(schema: pa.Schema, rows: int) -> dict[str, Any]:
            names = schema.names
            indices = [n for n in names if n in units]
            ints = [f.name for f in schema if pa.types.is_integer(f.type) and f.name not in units]
            numeric = set(ints) | {f.name for f in schema if pa.types.is_boolean(f.type)}
            coded = [n for n in names if n not in indices and (encoding == "dictionary" or n not in numeric)]
            encodings = {n: "DELTA_BINARY_PACKED" for n in indices}
            if encoding not in ("dictionary", "plain"):
                encodings.update({n: encoding for n in ints})
            kw = dict(compression="lz4", row_group_size=max(1, rows), write_page_checksum=True,
                      use_dictionary=coded, column_encoding=encodings)
            if not statistics:
                kw["write_statistics"] = [n for n in names if n in units or n in counters]
            return kw
        return make

    return {"dictionary": options("dictionary", True), "plain": options("plain", True),
            "delta": options("DELTA_BINARY_PACKED", True), "byte stream split": options("BYTE_STREAM_SPLIT", True),
            "delta, few statistics": options("DELTA_BINARY_PACKED", False)}


def write(source: Path, parts: list[Any], target: Path, make: Any) -> float:
    """Every part of ``source`` written into ``target`` with options ``make``; CPU seconds."""
    import pyarrow.parquet as pq

    from unosim.run import store

    if target.exists():
        shutil.rmtree(target)
    target.mkdir()
    shutil.copy(source / store.MANIFEST, target / store.MANIFEST)
    result = store.ResultDir(target)
    writer = pq.write_table
    spent = 0.0
    for index, start, n, table in parts:
        def patched(t: Any, where: Any, **_: Any) -> None:
            writer(t, where, **make(t.schema, t.num_rows))
        pq.write_table = patched
        try:
            t0 = time.process_time()
            rec = result.write_chunk(index, table, start, n)
            spent += time.process_time() - t0
        finally:
            pq.write_table = writer
        result.record(rec)
    return spent


def measure(run: Run) -> None:
    a = run.args
    import pandas as pd
    import pyarrow.parquet as pq

    import unosim
    from unosim.run.integrity import read_records

    tree = this_tree()
    with tempfile.TemporaryDirectory(prefix="unosim-parquet-") as tmp:
        source = Path(tmp) / "source.parquet"
        tree.run(unosim_command() + ["run", str(a.config), "--hands", str(a.hands), "--seed", "1", "--quiet",
                                     "--out", str(source)], what="the source run")
        records = read_records(source) or {}
        parts = [(i, r.start, r.count, pq.read_table(source / f"part-{i:06d}.parquet"))
                 for i, r in sorted(records.items())]
        pd.read_parquet(source)  # untimed: the readers' own imports and first calls
        unosim.load(source, columns=READ_COLUMNS)
        sets = variants()
        taken: dict[str, dict[str, list[float]]] = {k: {"write": [], "bytes": [], "pandas": [], "load": []}
                                                   for k in sets}
        for r in range(a.repeats):
            for name, make in sets.items():
                target = Path(tmp) / "written.parquet"
                got = taken[name]
                got["write"].append(write(source, parts, target, make))
                got["bytes"].append(sum(f.stat().st_size for f in target.glob("part-*.parquet")))
                t0 = time.process_time()
                frame = pd.read_parquet(target)
                got["pandas"].append(time.process_time() - t0)
                t0 = time.process_time()
                two = unosim.load(target, columns=READ_COLUMNS)
                got["load"].append(time.process_time() - t0)
                assert len(frame) == len(two) == a.hands
            print(f"  round {r + 1} done", flush=True)
    print(f"\n{a.hands:,} hands of {a.config.stem} in {len(parts)} parts; CPU seconds, medians of "
          f"{a.repeats} rounds (the sets interleaved in each round)")
    print(f"  {'options':<28}{'write s':>10}{'MB':>10}{'pandas read s':>16}{'load 2 cols s':>16}")
    for name, got in taken.items():
        print(f"  {name:<28}{median(got['write']):>10.3f}{median(got['bytes']) / 1e6:>10.2f}"
              f"{median(got['pandas']):>16.3f}{median(got['load']):>16.3f}")
        for k, v in got.items():
            run.figure(f"{name}: {k}", v, "bytes" if k == "bytes" else "CPU s")
    print("\n  per round, write CPU s: " + json.dumps({k: [round(x, 3) for x in g["write"]] for k, g in taken.items()}))


if __name__ == "__main__":
    bench.main(measure)
