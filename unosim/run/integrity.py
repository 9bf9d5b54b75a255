"""What keeps a result whole: one writer at a time, an atomic manifest, verified parts.

A result directory is trusted on resume only as far as it can be checked cheaply: each
part's footer (row count, the hand/match range in its column statistics, the run's
metadata) must say it is exactly the chunk its name claims, of this run.  Reading footers
only keeps a resume check at a few milliseconds per part, whatever the part's size.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

__all__ = ["LockedError", "PartCheck", "check_part", "hold_lock", "part_index", "write_json_atomic"]

_PART = re.compile(r"part-(\d{6})\.parquet")


class LockedError(Exception):
    """Another process is writing the result directory."""


@contextmanager
def hold_lock(directory: Path, option: str = "--out") -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (created if missing) for the ``with`` block.

    The lock is a ``flock`` on the directory itself, so no lock file is left behind in a
    user's folder, and the kernel drops it when the holder dies however it dies (kill -9
    included): a stale lock cannot exist."""
    try:
        if not directory.exists():
            directory.mkdir(parents=True)
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:  # not a folder, or not one we can make: the caller's own checks say why
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno in (errno.EWOULDBLOCK, errno.EACCES):
                raise LockedError(f"{option}: {directory} is being written by another unosim run; wait for it "
                                  "to finish or choose another path") from None
            raise
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write JSON so that a reader (or a later run after a crash or a full disk) sees the
    old file or the new one, never a torn or empty one: temp file, fsync, rename, fsync dir."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w") as f:
            f.write(json.dumps(data, indent=1, sort_keys=True))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def part_index(path: Path) -> int | None:
    """The chunk index a part file's name claims, or None for any other name."""
    m = _PART.fullmatch(path.name)
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class PartCheck:
    """What a part must be: chunk ``index`` covering units ``start..start+count-1`` (hands,
    or matches when ``unit_column`` is ``"match"``), with ``rows`` rows when known, and
    these metadata values."""

    index: int
    start: int
    count: int
    unit_column: str = "hand"
    rows: int | None = None
    metadata: tuple[tuple[str, str], ...] = ()


def check_part(path: Path, want: PartCheck) -> str | None:
    """None if the part at ``path`` is the chunk ``want`` describes, else why not (a short
    phrase naming what differs).  Reads the file's footer only."""
    try:
        md = pq.read_metadata(path)
    except (OSError, ValueError) as e:  # zero-byte, truncated, not Parquet
        return f"unreadable ({str(e).splitlines()[0][:80]})"
    meta = {k.decode(): v.decode() for k, v in (md.metadata or {}).items() if k.startswith(b"unosim.")}
    for key, value in want.metadata:
        if meta.get(key) != value:
            return f"from another run ({key} differs)"
    if want.rows is not None and md.num_rows != want.rows:
        return f"{md.num_rows} rows where the chunk has {want.rows}"
    if want.count and md.num_rows == 0:
        return "no rows"
    names = md.schema.to_arrow_schema().names
    if want.unit_column not in names:
        return f"no {want.unit_column} column"
    col = names.index(want.unit_column)
    lo = hi = None
    for g in range(md.num_row_groups):
        stats = md.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return f"no statistics for {want.unit_column}"
        lo = stats.min if lo is None else min(lo, stats.min)
        hi = stats.max if hi is None else max(hi, stats.max)
    first, last = want.start, want.start + want.count - 1
    if (lo, hi) != (first, last):
        unit = "matches" if want.unit_column == "match" else f"{want.unit_column}s"
        return f"{unit} {lo}-{hi} where chunk {want.index} has {first}-{last}"
    return None
