"""What keeps a result whole: one writer at a time, an atomic manifest, verified parts.

Every complete part is recorded in the part journal (``_unosim_parts.jsonl``: chunk, unit
range, rows, CRC-32 and size); readers check parts against it and their footers, and a part
that fails is moved to ``DIR/_rejected/``, never deleted.
"""

from __future__ import annotations

import errno
import fcntl
import json
import mmap
import os
import re
import uuid
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["JOURNAL", "LockedError", "PartCheck", "PartRecord", "REJECTED", "append_record", "being_written",
           "check_part", "file_crc", "hold_lock", "part_index", "probe_writable", "read_json", "read_records", "reject",
           "temporary", "write_atomic", "write_json_atomic", "write_records", "write_text_atomic"]

_PART = re.compile(r"part-(\d{6})\.parquet")
JOURNAL = "_unosim_parts.jsonl"
"""The part journal of a result: one JSON line per complete part (see the module docstring)."""
REJECTED = "_rejected"
"""Where parts that fail verification and unrecognised Parquet files are moved (never deleted)."""


class LockedError(Exception):
    """Another process is writing the result directory."""


@contextmanager
def hold_lock(directory: Path, option: str = "--out", create: bool = True, what: str | None = None) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``directory`` (created if missing, when ``create``) for
    the ``with`` block; ``what`` names it in the refusal.  The kernel drops it when the holder
    dies, so no lock goes stale."""
    try:
        if create and not directory.exists():
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
                held = f"{directory} ({what})" if what else str(directory)
                raise LockedError(f"{option}: {held} is being written by another unosim command; wait for it "
                                  "to finish or choose another path") from None
            raise
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def being_written(directory: Path) -> bool:
    """Whether a unosim command holds ``directory``'s lock now (:func:`hold_lock`): a
    reader then sees a result that is still growing, not one that stopped."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


@contextmanager
def temporary(path: Path) -> Iterator[Path]:
    """``path`` for the block, deleted after it unless the block renamed it into place."""
    try:
        yield path
    finally:
        if path.exists():
            path.unlink()


def write_atomic(path: Path, write: Callable[[Path], Any]) -> None:
    """Write ``path`` so that a reader (or a later run after a crash or a full disk) sees the
    old file or the new one, never a torn or empty one: ``write(temporary path)``, fsync,
    rename, fsync dir."""
    with temporary(path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")) as tmp:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def write_text_atomic(path: Path, text: str) -> None:
    """:func:`write_atomic` of ``text``."""
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """:func:`write_text_atomic` of ``data`` as JSON."""
    write_text_atomic(path, json.dumps(data, indent=1, sort_keys=True))


def read_json(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or None for a missing, unreadable or foreign file."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def part_index(path: Path) -> int | None:
    """The chunk index a part file's name claims, or None for any other name."""
    m = _PART.fullmatch(path.name)
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class PartCheck:
    """What a part must be: chunk ``index`` covering units ``start..start+count-1``, with
    ``rows`` rows when known, and these metadata values."""

    index: int
    start: int
    count: int
    unit_column: str = "hand"
    rows: int | None = None
    metadata: tuple[tuple[str, str], ...] = ()


def check_part(path: Path, want: PartCheck) -> str | None:
    """None if the part at ``path`` is the chunk ``want`` describes, else why not (a short
    phrase naming what differs).  Reads the file's footer only."""
    import pyarrow.parquet as pq

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


def probe_writable(directory: Path) -> None:
    """Raise OSError unless a file can be created in ``directory``."""
    probe = directory / f".unosim-probe-{os.getpid()}-{uuid.uuid4().hex}"
    try:
        probe.write_bytes(b"")
    finally:
        probe.unlink(missing_ok=True)


def file_crc(path: Path) -> tuple[int, int]:
    """(CRC-32, size in bytes) of a file's content.  The file is mapped, not copied: zlib
    hashes the page cache's pages in place (the GIL released)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            return 0, 0
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            return zlib.crc32(m), size


@dataclass(frozen=True)
class PartRecord:
    """One line of the part journal: part ``index`` holds units ``start..start+count-1`` in
    ``rows`` rows, and its bytes have this CRC-32 and size."""

    index: int
    start: int
    count: int
    rows: int
    crc32: int
    size: int

    def line(self) -> str:
        return json.dumps({"part": self.index, "start": self.start, "count": self.count, "rows": self.rows,
                           "crc32": self.crc32, "size": self.size}, sort_keys=True)

    def verify(self, path: Path) -> str | None:
        """None if the file's bytes are the ones recorded, else why not."""
        try:
            size = path.stat().st_size
            if size != self.size:
                return f"{size:,} bytes where its record says {self.size:,}"
            crc, _ = file_crc(path)
        except OSError as e:
            return f"unreadable ({e.strerror or e})"
        if crc != self.crc32:
            return "content differs from its recorded checksum (damaged or replaced)"
        return None


def read_records(directory: Path) -> dict[int, PartRecord] | None:
    """The part journal as chunk index -> record (the last line of an index wins); None
    when there is no journal.  A torn last line (a crash while appending) is ignored."""
    try:
        text = (directory / JOURNAL).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError:
        return {}
    out: dict[int, PartRecord] = {}
    for line in text.splitlines():
        try:
            d = json.loads(line)
            rec = PartRecord(int(d["part"]), int(d["start"]), int(d["count"]), int(d["rows"]), int(d["crc32"]),
                             int(d["size"]))
        except (ValueError, KeyError, TypeError):
            continue
        out[rec.index] = rec
    return out


def append_record(directory: Path, rec: PartRecord) -> None:
    """Append one record to the journal and fsync it: once this returns, the part counts."""
    with open(directory / JOURNAL, "a", encoding="utf-8") as f:
        f.write(rec.line() + "\n")
        f.flush()
        os.fsync(f.fileno())


def write_records(directory: Path, records: dict[int, PartRecord]) -> None:
    """Rewrite the journal with exactly ``records`` (atomically, :func:`write_text_atomic`)."""
    write_text_atomic(directory / JOURNAL, "".join(records[i].line() + "\n" for i in sorted(records)))


def reject(directory: Path, f: Path, why: str) -> str:
    """Move ``f`` into ``directory/_rejected/`` (a Parquet file gets ``.rejected`` appended) and
    note why in ``_rejected/why.txt``; returns the line saying so."""
    dest = directory / REJECTED
    dest.mkdir(exist_ok=True)
    tail = ".rejected" if f.name.endswith(".parquet") else ""
    target = dest / f"{f.name}{tail}"
    n = 1
    while target.exists() or target.is_symlink():
        target = dest / f"{f.name}.{n}{tail}"
        n += 1
    os.replace(f, target)
    line = f"{f.name}: {why}; moved to {REJECTED}/{target.name}"
    with open(dest / "why.txt", "a", encoding="utf-8") as w:
        w.write(line + "\n")
    return line
