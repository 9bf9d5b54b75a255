"""Reading results: inputs expanded into labelled sources, and :func:`load` into frames.

Only the schemas are read here; the data is read by :func:`load` or streamed by :mod:`.stream`.
"""

from __future__ import annotations

import dataclasses
import os
from functools import lru_cache
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pandas as pd
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from unosim.analysis.report.model import PathLike
from unosim.run.schema import RunInfo


@dataclass(frozen=True)
class Source:
    """One labelled unit of input: a file, a leaf partition, or an in-memory frame."""

    label: str
    files: tuple[Path, ...]
    info: RunInfo
    names: tuple[str, ...]
    partition: Mapping[str, str]
    origin: int
    frame: pd.DataFrame | None = None
    notes: tuple[str, ...] = ()
    checks: tuple[Any, ...] = ()  # futures: each part's checksum, verified while the data streams

    def confirm(self) -> None:
        """Wait for the source's checksum checks; a part that fails refuses the report (one
        line).  Called once the data was read: hashing overlaps the reading."""
        for fut in self.checks:
            why = fut.result()
            if why is not None:
                raise ValueError(why)


@dataclass
class Result:
    """What :func:`load` returns per source: a frame with its metadata (the report functions
    take it in place of paths)."""

    label: str
    frame: pd.DataFrame
    info: RunInfo
    partition: dict[str, str] = field(default_factory=dict)
    files: tuple[Path, ...] = ()

    @property
    def meta(self) -> Mapping[str, str]:
        """The raw ``unosim.*`` metadata (prefix stripped)."""
        return self.info.raw


def _parse_partition(rel: Path) -> dict[str, str]:
    """``stacking=draw2/players=4`` -> {"stacking": "draw2", "players": "4"}, values URL-unquoted."""
    out: dict[str, str] = {}
    for part in rel.parts:
        if "=" in part:
            k, v = part.split("=", 1)
            out[unquote(k)] = unquote(v)
    return out


@lru_cache(maxsize=4096)
def _footer_schema(path: str, mtime_ns: int, size: int) -> Any:
    return pq.read_schema(path)


def read_schema(f: Path) -> Any:
    """A part's schema, read once per version of the file (its path, mtime and size): a
    sweep's parts are asked for it by several checks."""
    st = f.stat()
    return _footer_schema(str(f), st.st_mtime_ns, st.st_size)


def _sweep_values(f: Path) -> dict[str, str]:
    """A sweep point's varied keys and values from its part's metadata (schema 2: the
    point's folder is ``point-NNNN``, not ``key=value``); {} for anything else."""
    import json

    try:
        raw = (read_schema(f).metadata or {}).get(b"unosim.sweep_values")
        values = json.loads(raw) if raw else {}
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in values.items()} if isinstance(values, dict) else {}


def _paged(f: Path) -> bool:
    """Whether a part was written with page CRCs (schema 2 and later)."""
    try:
        version = (read_schema(f).metadata or {}).get(b"unosim.schema_version", b"1")
        return int(version) >= 2
    except (OSError, ValueError):
        return False


def source_meta(sources: Sequence[Source]) -> dict[str, dict[str, str]]:
    """label -> short metadata, with the partition values as ``partition.<key>``."""
    return {
        s.label: {**s.info.summary(), **{f"partition.{k}": v for k, v in s.partition.items()}}
        for s in sources
    }


# what every hand row of every mode has (O1): a Parquet file without them is not a result
_REQUIRED = ("winner", "stalled", "turns")
# what must agree between the parts of one result (one run: config, seed, engine)
_SAME_RUN = (b"unosim.config", b"unosim.seed", b"unosim.engine_version", b"unosim.mode", b"unosim.run_id")


def _schema(f: Path) -> Any:
    try:
        schema = read_schema(f)
    except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
        raise ValueError(f"{f}: not a readable Parquet file ({str(e).splitlines()[0]})") from None
    missing = [c for c in _REQUIRED if c not in schema.names]
    if missing:
        raise ValueError(f"{f}: not a unosim result (no {', '.join(missing)} column)")
    meta = schema.metadata or {}
    if b"unosim.players" not in meta or b"unosim.config" not in meta:
        raise ValueError(f"{f}: not a unosim result (its columns look like one, but it carries no unosim metadata)")
    return schema


def _one_run(leaf: Path, files: Sequence[Path], first: Any) -> None:
    """Refuse a folder whose parts come from different runs (they would be averaged)."""
    want = {k: (first.metadata or {}).get(k) for k in _SAME_RUN}
    for f in files[1:]:
        meta = _schema(f).metadata or {}
        for k in _SAME_RUN:
            if meta.get(k) != want[k]:
                raise ValueError(f"{leaf}: holds parts of different runs ({f.name} and {files[0].name} differ in "
                                 f"{k.decode()}); refusing to mix them: keep one run per folder")


def _seats_present(where: Path, info: RunInfo, names: Sequence[str]) -> None:
    """Refuse a result whose metadata names more or fewer seats than its columns hold (only
    results with a seat per player are checked)."""
    from unosim.run.modes import seat_shares

    if not seat_shares(info.mode):
        return
    missing = [f"points_{s}" for s in range(info.players) if f"points_{s}" not in names]
    extra = [c for c in names if c.startswith("points_") and c[7:].isdigit() and int(c[7:]) >= info.players
             and "point" not in names]
    if missing or extra:
        held = sum(1 for c in names if c.startswith("points_") and c[7:].isdigit())
        raise ValueError(f"{where}: its metadata says {info.players} players but its columns are for {held} "
                         f"({(missing or extra)[0]} {'is missing' if missing else 'is extra'}); refusing to "
                         "report seats it holds no data for")


_UNVERIFIED = "unverified"  # a placeholder note, gathered into one line per input by discover()


_HASHERS: Any = None


def _no_overlap(leaf: Path, files: Sequence[Path]) -> None:
    """Without a journal, refuse files whose units overlap, from the footers' statistics."""
    spans = []
    for f in files:
        try:
            md = pq.read_metadata(f)
        except (OSError, ValueError):
            return  # the reader's own checks name an unreadable file
        names = md.schema.to_arrow_schema().names
        unit = next((c for c in ("tournament", "match", "hand") if c in names), None)
        if unit is None or md.num_row_groups == 0:
            return
        j = names.index(unit)
        lo = hi = None
        for g in range(md.num_row_groups):
            st = md.row_group(g).column(j).statistics
            if st is None or not st.has_min_max:
                return
            lo = st.min if lo is None else min(lo, st.min)
            hi = st.max if hi is None else max(hi, st.max)
        spans.append((lo, hi, f.name, unit))
    spans.sort()
    for (a_lo, a_hi, a, unit), (b_lo, b_hi, b, _) in zip(spans, spans[1:]):
        if b_lo <= a_hi:
            raise ValueError(f"{leaf}: {a} and {b} both hold {unit}s {b_lo}-{min(a_hi, b_hi)} (a copied part?); "
                             "refusing to count them twice")


def _hash_later(rec: Any, f: Path) -> Any:
    """A future of ``rec.verify(f)`` phrased as the report's refusal, on a background thread
    (zlib releases the GIL, so hashing runs beside the report's own reading)."""
    global _HASHERS
    from concurrent.futures import ThreadPoolExecutor

    if _HASHERS is None:
        _HASHERS = ThreadPoolExecutor(max_workers=max(1, min(4, (os.cpu_count() or 2) - 1)),
                                      thread_name_prefix="unosim-verify")

    def check() -> str | None:
        why = rec.verify(f)
        return None if why is None else (f"{f}: {why}; not reported: the same command sets it aside and plays "
                                         "its chunk again")

    return _HASHERS.submit(check)


def _verified(leaf: Path, files: Sequence[Path], stem: str,
              hashed: bool = True, root: Path | None = None) -> tuple[list[Path], tuple[str, ...], tuple[Any, ...]]:
    """The parts of the result in ``leaf`` that may be counted, and the notes the reader must
    see first.  A journal's parts must match their records (a missing one is a note, an
    unlisted file never counted); a folder without one is unverified.  ``hashed`` False: the
    caller checks the pages it reads instead; ``root``: the result given."""
    from unosim.run.integrity import being_written, read_records
    from unosim.run.store import MANIFEST, PART, expected_parts, read_manifest

    manifest = read_manifest(leaf / MANIFEST)
    records = read_records(leaf)
    if records is None:
        _no_overlap(leaf, files)
        return list(files), (_UNVERIFIED,), ()
    notes: list[str] = []
    size = manifest.get("chunk_size") if manifest else None
    count = manifest.get("games", manifest.get("matches", manifest.get("tournaments"))) if manifest else None
    planned = isinstance(count, int) and isinstance(size, int) and count > 0 and size > 0
    use: list[Path] = []
    checks: list[Any] = []
    lost: list[str] = []
    for i, rec in sorted(records.items()):
        f = leaf / PART.format(i)
        if planned and (rec.start != i * size or rec.count != min(size, count - i * size) or rec.count < 1):
            raise ValueError(f"{f}: its journal record (units {rec.start}-{rec.start + rec.count - 1}) is not chunk "
                             f"{i} of the run its manifest describes; refusing to report a mixed result")
        try:
            nbytes = f.stat().st_size
        except FileNotFoundError:
            lost.append(f.name)
            continue
        if nbytes != rec.size:
            raise ValueError(f"{f}: {nbytes:,} bytes where its record says {rec.size:,}; not reported: the same "
                             "command sets it aside and plays its chunk again")
        if hashed:
            checks.append(_hash_later(rec, f))
        use.append(f)
    if not use:
        raise ValueError(f"{leaf}: no verified part (its journal lists {len(records)}); run the same command again")
    listed = set(use)
    stray = [f.name for f in files if f not in listed]
    if stray:
        shown = ", ".join(stray[:3]) + (f" and {len(stray) - 3} more" if len(stray) > 3 else "")
        notes.append(f"{stem}: ignored {shown}: not part{'s' if len(stray) > 1 else ''} of this run "
                     "(not in its journal)")
    if lost and manifest is None:
        notes.append(f"{stem} is incomplete: {', '.join(lost[:3])}{' and more' if len(lost) > 3 else ''} "
                     f"listed in its journal {'are' if len(lost) > 1 else 'is'} missing (`unosim repair` it, then "
                     "run the same command again)")
    if manifest is None:
        state = "is damaged (not a manifest unosim wrote)" if (leaf / MANIFEST).exists() else "is missing"
        notes.append(f"{stem}: its manifest {MANIFEST} {state}, so its completeness is unknown "
                     f"({len(use)} verified parts; `unosim repair` rebuilds it)")
    else:
        total = expected_parts(manifest)
        if total is not None and len(use) < total:
            writing = being_written(leaf) or (root is not None and being_written(root))  # a run, or its sweep
            how = ("another unosim command is writing it now: these figures are of the parts so far"
                   if writing else "run the same command again to finish it")
            notes.append(f"{stem} is incomplete: {len(use)} of {total} chunks ({how})")
        want = manifest.get("config")
        first = (read_schema(use[0]).metadata or {}).get(b"unosim.config")
        if isinstance(want, str) and first is not None and first.decode() != want:
            raise ValueError(f"{leaf}: its parts are not of the run its manifest describes (config differs); "
                             "refusing to report a mixed result")
    return use, tuple(notes), tuple(checks)


def _sweep_completeness(root: Path, groups: Mapping[Path, Sequence[Path]]) -> tuple[str, ...]:
    """A note when a sweep folder has points with no results yet."""
    from unosim.run.store import read_manifest

    manifest = read_manifest(root / "_unosim_sweep.json")
    points = manifest.get("points") if manifest else None
    if not isinstance(points, dict):
        return ()
    from unosim.run.integrity import being_written

    started = sum(1 for rel in points if (root / rel) in groups)
    if started >= len(points):
        return ()
    how = ("another unosim command is writing it now: these figures are of the results so far"
           if being_written(root) else "run the same command again to finish it")
    return (f"sweep {root.name} is incomplete: {started} of {len(points)} points have results ({how})",)


def discover(inputs: Iterable[PathLike | Result], page_checked: bool = False) -> list[Source]:
    """Expand inputs into labelled sources; ``page_checked``: the caller verifies page
    checksums, so parts with page CRCs are not hashed whole."""
    pending: list[tuple[str, Source]] = []  # (config name, source labelled by its stem)
    for origin, item in enumerate(inputs):
        if isinstance(item, Result):
            pending.append((item.info.config_name or item.label,
                            Source(item.label, item.files, item.info, tuple(item.frame.columns),
                                   dict(item.partition), origin, item.frame)))
            continue
        path = Path(item)
        if path.is_dir():
            groups: dict[Path, list[Path]] = {}
            for f in sorted(path.rglob("*.parquet")):
                if any(x.startswith(("_", ".")) for x in f.relative_to(path).parts):
                    continue  # _rejected/, temporary and hidden files: never part of a result
                if not f.is_file():
                    continue  # a result folder named like runs/<name>.parquet: its parts are under it
                groups.setdefault(f.parent, []).append(f)
            if not groups:
                raise FileNotFoundError(f"no .parquet files under {path}")
            sweep_note = _sweep_completeness(path, groups)
            first = len(pending)
            unverified: list[str] = []
            for leaf, files in sorted(groups.items()):
                rel = leaf.relative_to(path)
                part = _parse_partition(rel) or _sweep_values(files[0])
                if part:
                    stem = ",".join(f"{k}={v}" for k, v in part.items())
                elif rel.parts:
                    stem = rel.as_posix()
                else:
                    stem = path.name
                files, checked, checks = _verified(leaf, files, stem, not (page_checked and all(map(_paged, files))),
                                                   path)
                if _UNVERIFIED in checked:
                    unverified.append(stem)
                    checked = tuple(n for n in checked if n != _UNVERIFIED)
                schema = _schema(files[0])
                _one_run(leaf, files, schema)
                info = RunInfo.from_metadata(schema.metadata, schema.names)
                _seats_present(leaf, info, schema.names)
                pending.append((info.config_name or stem, Source(stem, tuple(files), info, tuple(schema.names), part,
                                                                 origin, None, sweep_note + checked, checks)))
                sweep_note = ()
            if unverified:  # one line for the whole input, on its first source
                what = (f"{unverified[0]}" if len(unverified) == 1 else
                        f"{path.name}: {len(unverified)} of {len(groups)} results")
                note = f"{what} unverified (no part journal)"
                name, src = pending[first]
                pending[first] = (name, dataclasses.replace(src, notes=(note, *src.notes)))
        elif path.is_file():
            schema = _schema(path)
            info = RunInfo.from_metadata(schema.metadata, schema.names)
            _seats_present(path, info, schema.names)
            pending.append((info.config_name or path.stem,
                            Source(path.stem, (path,), info, tuple(schema.names), {}, origin)))
        else:
            raise FileNotFoundError(f"no such result file or directory: {path}")
    counts = Counter(p[0] for p in pending)
    used: set[str] = set()
    out: list[Source] = []
    for name, src in pending:
        label = name if counts[name] == 1 or name == src.label else f"{name}:{src.label}"
        base, i = label, 2
        while label in used:
            label, i = f"{base}#{i}", i + 1
        used.add(label)
        out.append(dataclasses.replace(src, label=label))
    return out


def as_inputs(paths: Any) -> list[Any]:
    if isinstance(paths, (str, os.PathLike, Result)):
        return [paths]
    return list(paths)


# ------------------------------------------------------------------------------ loading


def load(
    paths: PathLike | Result | Sequence[PathLike | Result], columns: Sequence[str] | None = None
) -> list[Result]:
    """Read result files into pandas frames, one :class:`Result` per source (a directory:
    one per leaf partition, in ``Result.partition``).  Only ``columns`` are read (None: all);
    a column a source lacks is an error naming it."""
    out: list[Result] = []
    for src in discover(as_inputs(paths)):
        cols = list(src.names) if columns is None else list(columns)
        missing = [c for c in cols if c not in src.names]
        if missing:
            raise KeyError(f"{src.label}: no column(s) {missing}; the file has {list(src.names)}")
        if src.frame is not None:
            frame = src.frame[cols].copy()
        else:
            pages = pads.ParquetFragmentScanOptions(page_checksum_verification=True)  # each page checks itself
            fmt = pads.ParquetFileFormat(default_fragment_scan_options=pages)
            table = pads.dataset(list(map(str, src.files)), format=fmt).to_table(columns=cols)
            src.confirm()
            frame = table.to_pandas(strings_to_categorical=True)
        out.append(Result(src.label, frame, src.info, dict(src.partition), src.files))
    return out
