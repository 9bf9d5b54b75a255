"""``unosim.load``: any result as one pandas DataFrame, its parts verified.

Every part the journal lists must be there and match its recorded size and page CRCs; a
damaged part is named in the error, never returned.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from unosim.analysis.report.sources import Source, discover
from unosim.run.dataset import POINTS_FILE, constant, setting_column

__all__ = ["load", "load_points"]

Filters = Any  # a pyarrow expression, or pandas' list of (column, op, value) tuples (or a list of such lists)


def _expression(filters: Filters) -> pads.Expression | None:
    if filters is None or isinstance(filters, pads.Expression):
        return filters
    try:
        return pq.filters_to_expression(filters)
    except (TypeError, ValueError) as e:
        raise ValueError(f"filters: {e}; give [(column, op, value), ...] or a pyarrow expression") from None


def _skill_file(p: Path) -> Path | None:
    from unosim.analysis.report.skill import SKILL_FILE

    f = p / SKILL_FILE
    return f if p.is_dir() and f.is_file() and not (p / "_unosim_sweep.json").exists() else None


SKILL_TABLES = ("skill", "replicates", "ceiling")
"""The tables of a skill folder ``load(..., table=)`` reads: the skill table (one row per
point, the folder's rows), every replicate's figures, the ceiling's measurements."""


def load(path: str | Path, columns: Sequence[str] | None = None, filters: Filters = None,
         table: str | None = None) -> pd.DataFrame:
    """Every row of the result at ``path`` (a run, a sweep, a league, a skill folder, a
    part file) as one DataFrame; a sweep's rows carry their point's settings as columns.

    ``columns``: only these columns; ``filters``: rows where they hold (``[("table_players",
    "==", 4)]`` or a pyarrow expression); ``table``: of a skill folder, which of
    :data:`SKILL_TABLES`.  A damaged part is a ValueError naming it."""
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"no such result file or directory: {p}")
    expr = _expression(filters)
    skill = _skill_file(p)
    if table is not None and (skill is None or table not in SKILL_TABLES):
        raise ValueError(f"table: {table!r} is not a table of {p}; " + (
            f"a skill folder's are {', '.join(SKILL_TABLES)}" if skill is not None else
            "only a skill folder (unosim skill) has several tables; leave table out"))
    if skill is not None and table not in (None, "skill"):
        from unosim.run.dataset import CEILING_FILE, REPLICATES_FILE, table_path

        skill = table_path(p, REPLICATES_FILE if table == "replicates" else CEILING_FILE)
        if not skill.is_file():
            raise FileNotFoundError(f"{p}: no {table} table ({skill.name}: a run without --ceiling has none)")
    if skill is not None:
        return _read([skill], columns, expr, pq.read_schema(skill).names)
    from unosim.run.guard import not_a_result

    if (other := not_a_result(p, also=("league",))) is not None:  # a tune's folder, a plot's
        raise ValueError(other)
    # a filter prunes by footer statistics, which no page CRC covers: then every part is hashed
    sources = discover([p], page_checked=expr is None)
    _one_result(p, sources)
    for s in sources:
        for note in s.notes:
            warnings.warn(note, stacklevel=3)  # the caller of unosim.load
    first = sources[0].names
    # one schema, and any folder values already columns (schema 2: ``point`` is): one dataset
    if all(s.names == first and (not s.partition or "point" in s.names) for s in sources):
        frame = _read([f for s in sources for f in s.files], columns, expr, list(first))
    else:
        frame = _read_old(sources, columns, expr)
    for s in sources:
        s.confirm()
    return frame


def _one_result(p: Path, sources: Sequence[Source]) -> None:
    """Refuse a plain folder holding several separate results (``runs/``): their rows have no
    column telling them apart (a sweep's have ``point``, a league's its bots), so one frame
    would mix them silently."""
    from unosim.run.guard import folder_kind

    if len(sources) < 2 or not p.is_dir() or folder_kind(p) is not None:
        return
    if all(s.partition or "point" in s.names for s in sources):
        return  # a sweep's points (its manifest lost, or the old key=value layout)
    leaves = sorted({s.files[0].parent.relative_to(p).as_posix() for s in sources if s.files})
    shown = ", ".join(leaves[:5]) + (f" and {len(leaves) - 5} more" if len(leaves) > 5 else "")
    raise ValueError(f"{p}: holds {len(sources)} separate results ({shown}), not one; load each by its own path "
                     f"(unosim.load({str(p / leaves[0])!r})), or compare them with `unosim report`")


def _check_columns(columns: Sequence[str] | None, names: Sequence[str]) -> list[str] | None:
    if columns is None:
        return None
    if isinstance(columns, str):
        raise TypeError(f"columns: a list of names, not the string {columns!r}")
    missing = [c for c in columns if c not in names]
    if missing:
        raise KeyError(f"columns: no column {', '.join(map(repr, missing))} in this result; it has "
                       f"{', '.join(names)}")
    return list(columns)


_CHECKED = pads.ParquetFileFormat(
    default_fragment_scan_options=pads.ParquetFragmentScanOptions(page_checksum_verification=True))


def _read(files: Sequence[Path], columns: Sequence[str] | None, expr: Any, names: Sequence[str]) -> pd.DataFrame:
    """The rows of ``files`` (one schema), every page read checked against its CRC."""
    cols = _check_columns(columns, names)
    if expr is not None:
        _check_filter(expr, pq.read_schema(files[0]))
    try:
        table = pads.dataset([str(f) for f in files], format=_CHECKED).to_table(columns=cols, filter=expr)
    except (OSError, ValueError, pa.ArrowException) as e:  # name the part that fails
        for f in files:
            try:
                pads.dataset(str(f), format=_CHECKED).to_table(columns=cols, filter=expr)
            except (OSError, ValueError, pa.ArrowException) as bad:
                raise ValueError(f"{f}: does not read ({str(bad).splitlines()[0]}); not returned: the same command "
                                 "that wrote it sets it aside and plays its chunk again") from None
        raise ValueError(f"{files[0].parent}: does not read ({str(e).splitlines()[0]})") from None
    return table.to_pandas()


def _check_filter(expr: Any, schema: pa.Schema) -> None:
    """A filter naming a column the result lacks, or comparing it with a value of another
    type, is the caller's mistake: one line saying so (not a damaged part)."""
    try:
        schema.empty_table().filter(expr)
    except (pa.ArrowException, TypeError, ValueError) as e:
        raise ValueError(f"filters: {str(e).splitlines()[0]}; the result's columns: "
                         f"{', '.join(schema.names)}") from None


def _typed(texts: Sequence[str]) -> tuple[pa.DataType, list[Any]]:
    """A folder's values as text -> one Arrow type and the typed values."""
    for kind, parse in ((pa.int32(), int), (pa.float64(), float)):
        try:
            return kind, [parse(t) for t in texts]
        except ValueError:
            pass
    if set(texts) <= {"true", "false"}:
        return pa.bool_(), [t == "true" for t in texts]
    return pa.dictionary(pa.int32(), pa.string()), list(texts)


def _old_settings(sources: Sequence[Source]) -> dict[str, tuple[pa.DataType, list[Any]]]:
    """Column -> (type, value per source) of the ``key=value`` folders of a schema-1 result."""
    from unosim.rules.config import KEYS

    keys = list(dict.fromkeys(k for s in sources for k in s.partition))
    names = {n for s in sources for n in s.names}
    out = {}
    for k in keys:
        col = setting_column(KEYS[k].full) if k in KEYS else (k if k not in names else f"{k}_folder")
        out[col] = _typed([s.partition.get(k, "") for s in sources])
    return out


def _read_old(sources: Sequence[Source], columns: Sequence[str] | None, expr: Any) -> pd.DataFrame:
    """Sources of different schemas (schema 1, or several results): each read, its folder's
    values added as columns, missing columns null, then filtered."""
    settings = _old_settings(sources) if any(s.partition for s in sources) else {}
    extra = (["point"] if settings else []) + list(settings)
    names = list(dict.fromkeys([n for s in sources for n in s.names] + extra))
    cols = _check_columns(columns, names)
    tables = []
    for i, s in enumerate(sources):
        t = pads.dataset([str(f) for f in s.files], format=_CHECKED).to_table()
        if settings:
            t = t.append_column("point", constant(i, pa.int32(), t.num_rows))
            for col, (kind, values) in settings.items():
                t = t.append_column(col, constant(values[i], kind, t.num_rows))
        tables.append(t.replace_schema_metadata(None))
    table = pa.concat_tables(tables, promote_options="permissive")
    if expr is not None:
        _check_filter(expr, table.schema)
        table = table.filter(expr)
    return (table if cols is None else table.select(cols)).to_pandas()


def load_points(path: str | Path) -> pd.DataFrame:
    """A sweep's points, one row each: ``point``, ``folder``, ``label``, the varied keys'
    values (the columns :func:`load` gives its rows), ``players`` and ``bots``."""
    p = Path(path)
    if (p / POINTS_FILE).is_file():
        return pq.read_table(p / POINTS_FILE).to_pandas()
    if not p.is_dir():
        raise FileNotFoundError(f"no such sweep folder: {p}")
    sources = discover([p])
    if not any(s.partition for s in sources):
        raise ValueError(f"{p}: not a sweep (no {POINTS_FILE} and no key=value folders)")
    from unosim.run.bots_text import seating_text

    rows: dict[str, list[Any]] = {"point": list(range(len(sources))),
                                  "folder": [s.files[0].parent.relative_to(p).as_posix() for s in sources],
                                  "label": [s.info.sweep_point or s.label for s in sources],
                                  **{col: values for col, (_, values) in _old_settings(sources).items()},
                                  "players": [s.info.players for s in sources],
                                  "bots": [seating_text(s.info.seats) for s in sources]}
    frame = pd.DataFrame(rows)
    return frame.astype({c: "category" for c in frame.columns if frame[c].dtype == object and c not in
                         ("folder", "label", "bots")})

