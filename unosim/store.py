"""Parquet output: one row per hand, one file per chunk, written atomically.

A result is a directory (``runs/standard.parquet/``) of ``part-NNNNNN.parquet`` files
plus a ``_unosim.json`` manifest.  Each part is written to a temporary name and renamed
into place, so an interrupted run leaves only whole chunks and can be resumed;
``pandas.read_parquet`` and ``pyarrow.dataset`` read the directory as one table.
Every part carries the run's metadata (config TOML, seed, versions, bots), so a part
copied elsewhere still says where it came from.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .config import RulesConfig
from .engine.layout import ENGINE_VERSION, HAND_COLUMNS, SEAT_COLUMNS

MANIFEST = "_unosim.json"
PART = "part-{:06d}.parquet"
_BOOL_COLUMNS = {"stalled", "pos_end", "neg_end", "capped"}
_INT64_COLUMNS = {"hand", "match"}


class StoreError(Exception):
    """An output path that cannot be used; the message names it and why."""


def column_names(players: int, extra: Iterable[tuple[str, int]] = ()) -> list[tuple[str, int]]:
    """(name, column of the kernel's out array) in file order, for this many seats."""
    cols = list(HAND_COLUMNS) + list(extra)
    for prefix, first in SEAT_COLUMNS:
        cols += [(f"{prefix}_{s}", first + s) for s in range(players)]
    return cols


def to_table(out: np.ndarray, columns: list[tuple[str, int]], metadata: dict[bytes, bytes]) -> pa.Table:
    """The kernel's int64 rows as an Arrow table with compact types."""
    arrays = []
    names = []
    for name, j in columns:
        col = out[:, j]
        if name in _BOOL_COLUMNS:
            arrays.append(pa.array(col.astype(bool)))
        elif name in _INT64_COLUMNS:
            arrays.append(pa.array(np.ascontiguousarray(col)))
        else:
            arrays.append(pa.array(col.astype(np.int32)))
        names.append(name)
    return pa.Table.from_arrays(arrays, names=names).replace_schema_metadata(metadata)


def run_metadata(cfg: RulesConfig, seed: int, mode: str, extra: dict[str, Any] | None = None) -> dict[bytes, bytes]:
    """The key-value metadata every part file carries."""
    meta: dict[str, Any] = {
        "unosim.version": __version__,
        "unosim.engine_version": ENGINE_VERSION,
        "unosim.config": cfg.to_toml(),
        "unosim.config_name": cfg.name,
        "unosim.seed": seed,
        "unosim.players": cfg.players,
        "unosim.teams": cfg.teams,
        "unosim.match_target": cfg.match_target,
        "unosim.bots": json.dumps([s for s, _ in cfg.seats]),
        "unosim.bot_params": json.dumps([p for _, p in cfg.seats]),
        "unosim.mode": mode,
        "unosim.finish": cfg.finish,
    }
    meta.update(extra or {})
    return {k.encode(): str(v).encode() for k, v in meta.items()}


@dataclass
class ResultDir:
    """The output directory of one run."""

    path: Path

    def prepare(self, manifest: dict[str, Any], force: bool, resume: bool) -> set[int]:
        """Create (or check, for a resume) the directory; returns the chunks already done.

        A different run already there is refused unless ``force``; a matching one is
        resumed.  ``force`` deletes the old result first."""
        p = self.path
        if p.exists() and not p.is_dir():
            if not force:
                raise StoreError(f"--out: {p} exists (a file); use --force to overwrite it")
            p.unlink()
        if p.is_dir() and any(p.iterdir()):
            mf = p / MANIFEST
            old = json.loads(mf.read_text()) if mf.exists() else None
            if force:
                shutil.rmtree(p)
            elif old is None:
                raise StoreError(f"--out: {p} is a non-empty directory that is not a unosim result; "
                                 "choose another path or use --force")
            elif old != manifest:
                changed = sorted(k for k in set(old) | set(manifest) if old.get(k) != manifest.get(k))
                raise StoreError(f"--out: {p} holds a different run (differs in: {', '.join(changed)}); "
                                 "use --force to overwrite it or choose another path")
            elif not resume:
                raise StoreError(f"--out: {p} already exists; use --force to overwrite it "
                                 "(or --resume to finish an interrupted run)")
        try:
            p.mkdir(parents=True, exist_ok=True)
            probe = p / ".write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as e:
            raise StoreError(f"--out: cannot write to {p}: {e.strerror or e}") from None
        for tmp in p.glob("*.tmp"):
            tmp.unlink()
        (p / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
        return {int(f.name[5:11]) for f in p.glob("part-*.parquet")}

    def write_chunk(self, index: int, table: pa.Table) -> Path:
        """Write one chunk atomically: a reader sees the whole part or none of it."""
        final = self.path / PART.format(index)
        tmp = final.with_name(final.name + ".tmp")
        pq.write_table(table, tmp, compression="zstd", row_group_size=max(1, table.num_rows))
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, final)
        return final


def read_metadata(path: str | Path) -> dict[str, str]:
    """The unosim metadata of a result file or directory (from its first part)."""
    p = Path(path)
    if p.is_dir():
        parts = sorted(p.glob("**/part-*.parquet"))
        if not parts:
            raise StoreError(f"{p}: no result files in this directory")
        p = parts[0]
    meta = pq.read_schema(p).metadata or {}
    return {k.decode(): v.decode() for k, v in meta.items() if k.startswith(b"unosim.")}
