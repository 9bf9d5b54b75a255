"""Parquet output: one row per hand, one file per chunk, written atomically.

A result is a directory of ``part-NNNNNN.parquet`` files, the ``_unosim.json`` manifest and
the part journal (integrity.py); every part carries the run's metadata.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim.kernel.layout import ENGINE_VERSION, HAND_COLUMNS, SEAT_COLUMNS
from unosim.run.integrity import (JOURNAL, REJECTED, PartCheck, PartRecord, append_record, check_part, file_crc,
    part_index, probe_writable, read_json, read_records, reject, temporary, write_json_atomic, write_records)

if TYPE_CHECKING:
    import pyarrow as pa


MANIFEST = "_unosim.json"
PART = "part-{:06d}.parquet"
# a part's temporary name while it is written (a 12-hex token per writer; ".tmp" alone
# from writers before the token): a name only unosim makes, so a dead writer's may go
_TEMP = re.compile(r"part-\d{6}\.parquet(\.[0-9a-f]{12})?\.tmp")
_BOOL_COLUMNS = {"stalled", "pos_end", "neg_end", "capped", "chips_end", "t_end"}
_BOOL_PREFIXES = ("champion_pos_", "champion_neg_")
_INT64_COLUMNS = {"hand", "match", "tournament"}


class StoreError(Exception):
    """An output path that cannot be used; the message names it and why."""


def column_names(players: int, extra: Iterable[tuple[str, int]] = ()) -> list[tuple[str, int]]:
    """(name, column of the kernel's out array) in file order, for this many seats."""
    cols = list(HAND_COLUMNS) + list(extra)
    for prefix, first in SEAT_COLUMNS:
        cols += [(f"{prefix}_{s}", first + s) for s in range(players)]
    return cols


def _numpy_type(name: str) -> type:
    """The file type of a column: flags bool, hand/match indices int64, the rest int32."""
    if name in _BOOL_COLUMNS or name.startswith(_BOOL_PREFIXES):
        return np.bool_
    if name in _INT64_COLUMNS:
        return np.int64
    return np.int32


def hand_column(low: np.ndarray, start: int) -> np.ndarray:
    """The int64 hand indices of rows whose int32 ``hand`` column holds their low 32 bits,
    every index in ``start .. start + 2**32 - 1``."""
    offset = (low.view(np.uint32) - np.uint32(start & 0xFFFFFFFF)).astype(np.int64)
    return offset + start


class Columns:
    """One chunk's columns in their file types, as Arrow arrays over their buffers;
    ``Columns(columns, count)`` is an empty chunk of ``count`` rows."""

    def __init__(self, columns: list[tuple[str, int]], count: int) -> None:
        self.columns = columns
        self.count = count
        self.data = [np.zeros(count, _numpy_type(name)) for name, _ in columns]

    @classmethod
    def of_rows(cls, rows: np.ndarray, columns: list[tuple[str, int]], start: int | None = None) -> Columns:
        """The columns of kernel ``rows`` (int32 rows are viewed, not copied); ``start``: the
        chunk's first index, for an int32 ``hand`` column."""
        self = cls.__new__(cls)
        self.columns, self.count = columns, len(rows)
        self.data = []
        for name, j in columns:
            kind, values = _numpy_type(name), rows[:, j]
            if kind is np.int64 and values.dtype != np.int64:
                if name != "hand" or start is None:
                    raise ValueError(f"column {name}: int32 rows need the chunk's start")
                values = hand_column(values, start)
            elif kind is np.int32 and values.dtype == np.int32:
                values = np.ascontiguousarray(values)  # a view of new_out's rows
            elif kind is not np.bool_:
                values = values.astype(kind)
            self.data.append(values)
        return self

    def table(self, metadata: dict[bytes, bytes]) -> pa.Table:
        """The columns as an Arrow table built from their buffers (``pa.array`` would
        import pandas on first use)."""
        import pyarrow as pa

        arrays = []
        for (name, _), values in zip(self.columns, self.data):
            if _numpy_type(name) is np.bool_:  # flags: 0 or 1 in any integer type, or bool
                kind, data = pa.bool_(), np.packbits(values, bitorder="little")
            else:
                kind, data = pa.from_numpy_dtype(values.dtype), values
            arrays.append(pa.Array.from_buffers(kind, self.count, [None, pa.py_buffer(data)]))
        names = [name for name, _ in self.columns]
        return pa.Table.from_arrays(arrays, names=names).replace_schema_metadata(metadata)


def to_table(out: np.ndarray, columns: list[tuple[str, int]], metadata: dict[bytes, bytes],
             start: int | None = None) -> pa.Table:
    """The kernel's rows as an Arrow table with compact types."""
    return Columns.of_rows(out, columns, start).table(metadata)


def writer_options(schema: pa.Schema, rows: int) -> dict[str, Any]:
    """``pyarrow.parquet.write_table``'s options for a part (docs/design.md, "Parquet
    parts"): one row group, LZ4, page checksums, delta-encoded integers, dictionary text."""
    import pyarrow as pa

    ints = [f.name for f in schema if pa.types.is_integer(f.type)]
    flags = {f.name for f in schema if pa.types.is_boolean(f.type)}
    return dict(compression="lz4", row_group_size=max(1, rows), write_page_checksum=True,
                use_dictionary=[n for n in schema.names if n not in flags and n not in ints],
                column_encoding={name: "DELTA_BINARY_PACKED" for name in ints})


@dataclass
class ResultDir:
    """The output directory of one run; ``shape`` (dataset.py) completes every table written."""

    path: Path
    shape: Callable[[pa.Table], pa.Table] | None = None

    def prepare(self, manifest: dict[str, Any], force: bool, resume: bool, adopt: bool = False,
                checks: Callable[[int], PartCheck | None] | None = None) -> set[int]:
        """Create (or check, to resume) the directory; returns the chunks already done.

        The same run already there is resumed, its parts verified by ``checks`` (chunk index
        -> what that part must be); a different run is refused naming what changed, unless
        ``force`` replaces it.  ``adopt`` (a sweep whose manifest matched) lets a point folder
        hold the user's files; ``resume`` rebuilds a folder whose manifest is damaged."""
        from unosim.run.guard import refuse_other_output

        self.notes: list[str] = []
        manifest = {**manifest, "engine_version": ENGINE_VERSION}
        p = self.path
        refuse_other_output(p, "run", "a unosim run result", StoreError)
        old = read_manifest(p / MANIFEST) if p.is_dir() else None
        if p.is_dir() and _entries(p) and not (adopt and old is None):
            if old is None:
                problem = damaged_manifest(p)
                if problem is None:
                    raise StoreError(f"--out: {p} is a non-empty directory that is not a unosim result; "
                                     "choose another path (--force only replaces a unosim result)")
                if not resume:
                    raise StoreError(f"--out: {p}: {problem}; run the same command with --resume to rebuild it "
                                     "from the parts (every verified part is kept), or `unosim repair` it")
                self.notes.append(f"{problem}: rebuilt from this command and the parts")
            elif force:
                self.notes += remove_result(p)
            elif old != manifest:
                raise StoreError(f"--out: {p} holds a different run (differs in: {manifest_diff(old, manifest)}); "
                                 "use --force to overwrite it or choose another path")
        try:
            p.mkdir(parents=True, exist_ok=True)
            probe_writable(p)
        except OSError as e:
            if p.is_symlink() and not p.exists():  # mkdir says "File exists" of a link to nothing
                raise StoreError(f"--out: {p} is a link to {os.readlink(p)}, which does not exist; create "
                                 "that folder or give another path") from None
            raise StoreError(f"--out: cannot write to {p}: {e.strerror or e}") from None
        for tmp in p.glob("part-*.tmp"):
            if _TEMP.fullmatch(tmp.name):
                tmp.unlink()  # a temporary part of a writer that died: a name only unosim writes
        write_json_atomic(p / MANIFEST, manifest)
        return self.verified(checks) if checks is not None else self.done()

    def verified(self, checks: Callable[[int], PartCheck | None]) -> set[int]:
        """The chunks whose part matches its journal record, its footer and its page
        checksums; every other Parquet file goes to ``_rejected/`` (said in :attr:`notes`)
        and the journal is rewritten to list exactly the parts kept."""
        records = read_records(self.path) or {}
        good: dict[int, PartRecord] = {}
        for f in sorted(self.path.iterdir()):
            if not f.name.endswith(".parquet") or not (f.is_file() or f.is_symlink()):
                continue  # not a Parquet file: nothing a reader would count; left alone
            index = part_index(f)
            want = None if index is None else checks(index)
            why = None
            if index is None:
                why = "not a part name of this run"
            elif want is None:
                why = "not a chunk of this run"
            else:
                rec = records.get(index)
                if rec is not None and (rec.start, rec.count) != (want.start, want.count):
                    why = f"its record covers units {rec.start}-{rec.start + rec.count - 1}, not chunk {index}'s"
                if rec is None:
                    why = "not in the part journal (a part counts only as its writer recorded it)"
                why = why or rec.verify(f) or check_part(f, want) or _decodes(f)
                if why is None:
                    good[index] = rec
                    continue
            self.notes.append(reject(self.path, f, f"{why}; its chunk is played again" if want else why))
        write_records(self.path, good)
        return set(good)

    def done(self) -> set[int]:
        """Indices of the chunks whose part file is in place (unchecked)."""
        return {i for f in self.path.glob("part-*.parquet") if (i := part_index(f)) is not None}

    def write_chunk(self, index: int, table: pa.Table, start: int = 0, count: int = 0) -> PartRecord:
        """Write one chunk atomically under a temporary name unique to the writer; returns
        its record (units ``start..start+count-1``, CRC-32 and size) for :meth:`record`."""
        import pyarrow.parquet as pq

        if self.shape is not None:
            table = self.shape(table)
        final = self.path / PART.format(index)
        with temporary(final.with_name(f"{final.name}.{uuid.uuid4().hex[:12]}.tmp")) as tmp:
            pq.write_table(table, tmp, **writer_options(table.schema, table.num_rows))
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            crc, size = file_crc(tmp)  # the bytes now on disk (read back from the page cache)
            os.replace(tmp, final)
        return PartRecord(index, start, count, table.num_rows, crc, size)

    def record(self, rec: PartRecord) -> None:
        """Count a written part: its record appended to the journal (fsynced)."""
        append_record(self.path, rec)


_PROBE = re.compile(r"\.unosim-probe-\d+-[0-9a-f]{32}")


def _entries(path: Path) -> bool:
    """Whether ``path`` holds anything but a ``_rejected`` folder and a dead writer's probe."""
    return any(f.name != REJECTED and not _PROBE.fullmatch(f.name) for f in path.iterdir())


def _decodes(path: Path) -> str | None:
    """None if every page of the part decodes and matches its page checksum, else why not."""
    import pyarrow.parquet as pq

    try:
        pq.read_table(path, page_checksum_verification=True)
    except (OSError, ValueError) as e:
        return f"does not decode ({str(e).splitlines()[0][:80] if str(e) else type(e).__name__})"
    return None


def read_manifest(path: Path) -> dict[str, Any] | None:
    """A unosim manifest (a JSON object with an ``engine_version``), or None for anything else:
    a missing, unreadable or foreign file proves nothing, so nothing may be deleted on it."""
    data = read_json(path)
    return data if data is not None and "engine_version" in data else None


def remove_result(path: Path) -> list[str]:
    """``--force``: delete the unosim result at ``path``, only the parts its journal proves
    it wrote; other Parquet files go to ``_rejected/``.  Returns the lines saying what moved."""
    if not path.is_dir() or read_manifest(path / MANIFEST) is None:
        raise StoreError(f"--out: {path} is not a unosim result; --force only replaces a unosim result")
    records = read_records(path) or {}
    lines = []
    for f in sorted(path.iterdir()):
        if f.is_symlink() or not f.is_file():
            if f.name.endswith(".parquet"):
                lines.append(reject(path, f, "not a file this result wrote"))
            continue
        index = part_index(f)
        if index is not None and index in records and records[index].verify(f) is None:
            f.unlink()
        elif _TEMP.fullmatch(f.name):
            f.unlink()
        elif f.name.endswith(".parquet"):
            lines.append(reject(path, f, "not a part the replaced result's journal lists"))
    for name in (JOURNAL, MANIFEST):
        (path / name).unlink(missing_ok=True)
    return lines


def damaged_manifest(path: Path) -> str | None:
    """What is wrong with a folder whose manifest does not prove a result but whose part
    files carry unosim metadata (None: no unosim part at all, so nothing here is ours)."""
    import pyarrow.parquet as pq

    parts = [f for f in sorted(path.glob("part-*.parquet")) if part_index(f) is not None]
    ours = 0
    for f in parts:
        try:
            meta = pq.read_schema(f).metadata or {}
        except (OSError, ValueError):
            continue
        ours += b"unosim.engine_version" in meta
    if not ours:
        return None
    mf = path / MANIFEST
    if not mf.exists():
        what = "its manifest _unosim.json is missing"
    elif mf.stat().st_size == 0:
        what = "its manifest _unosim.json is empty (a full disk?)"
    else:
        what = "its manifest _unosim.json is damaged"
    return f"{what} but it holds {ours} unosim part file{'s' if ours > 1 else ''}"


def expected_parts(manifest: dict[str, Any]) -> int | None:
    """Part files a finished run has: ceil(games, matches or tournaments / chunk_size) (None: unknown)."""
    n = manifest.get("games", manifest.get("matches", manifest.get("tournaments")))
    size = manifest.get("chunk_size")
    if not isinstance(n, int) or not isinstance(size, int) or size < 1:
        return None
    return -(-n // size)


# manifest keys kept for old manifests, said in today's words (`--hands`, not `--games`)
_WORDS = {"games": "hands"}


def manifest_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    """What differs between two run manifests, in words: manifest keys, and for the config
    the keys that changed (``config: rules.stacking "none" -> "draw2"``)."""
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if a == b:
            continue
        if k == "config" and isinstance(a, str) and isinstance(b, str):
            out.append("config: " + _config_diff(a, b))
        else:
            out.append(f"{_WORDS.get(k, k)} {json.dumps(a)} -> {json.dumps(b)}")
    return "; ".join(out)


def _config_diff(a: str, b: str) -> str:
    from unosim.compat import tomllib

    def flat(text: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in tomllib.loads(text).items():
            if isinstance(v, dict):
                out.update({f"{k}.{x}": y for x, y in v.items()})
            else:
                out[k] = v
        return out

    try:
        fa, fb = flat(a), flat(b)
    except Exception:  # noqa: BLE001 - a hand-edited manifest: fall back on the short form
        return "the config text"
    keys = [k for k in [*fb, *(k for k in fa if k not in fb)] if fa.get(k) != fb.get(k)]
    if not keys:
        return "the config text"
    return ", ".join(f"{k} {json.dumps(fa.get(k))} -> {json.dumps(fb.get(k))}" for k in keys)
