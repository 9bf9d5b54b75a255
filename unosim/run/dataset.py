"""A result as a dataset: one schema for every part, a sweep point's settings as columns.

A sweep's points are folders ``point-0007/`` whose rows carry ``point`` and one column per
varied key (``rules.stacking`` -> ``rules_stacking``); ``_points.pq`` lists the points
(docs/data.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["POINTS_FILE", "SCHEMA_VERSION", "Shape", "point_folder", "setting_column", "setting_type"]

SCHEMA_VERSION = 2
"""The layout and columns of a result's parts (file metadata ``unosim.schema_version``;
parts without it are version 1: a sweep's points in ``key=value`` folders, one level per
key, and only the seats of the point's own table)."""
POINTS_FILE = "_points.pq"
"""A sweep's table of points, beside the point folders."""


def point_folder(index: int) -> str:
    """The folder of a sweep's point ``index``."""
    return f"point-{index:04d}"


def setting_column(key: str) -> str:
    """The column of a varied config key (``rules.stacking`` -> ``rules_stacking``)."""
    return key.replace(".", "_")


def setting_type(values: Iterable[Any]) -> pa.DataType:
    """One Arrow type for every value a key takes in a sweep: booleans, integers, floats,
    else text (a dictionary column: a point's value is stored once per part)."""
    import pyarrow as pa

    vs = list(values)
    if all(isinstance(v, bool) for v in vs):
        return pa.bool_()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vs):
        return pa.int32() if all(-2**31 <= v < 2**31 for v in vs) else pa.int64()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vs):
        return pa.float64()
    return pa.dictionary(pa.int32(), pa.string())


def partition_text(v: Any) -> str:
    """A value as text, as in a ``key=value`` folder name (TOML spelling of booleans)."""
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def constant(value: Any, kind: pa.DataType, n: int) -> pa.Array:
    """``n`` copies of ``value`` as an array of ``kind``."""
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        codes = pa.array(np.zeros(n, np.int32))
        return pa.DictionaryArray.from_arrays(codes, pa.array([partition_text(value)], pa.string()))
    if pa.types.is_boolean(kind):
        return pa.array(np.full(n, bool(value)))
    return pa.array(np.full(n, value, dtype=kind.to_pandas_dtype()))


@dataclass(frozen=True)
class Shape:
    """What a job's parts hold beyond the kernel's columns: ``columns`` (name, type) in file
    order, missing ones as nulls, then ``constants`` (name, value, type) in every row."""

    columns: tuple[tuple[str, pa.DataType], ...] | None = None
    constants: tuple[tuple[str, Any, pa.DataType], ...] = ()

    def __call__(self, table: pa.Table) -> pa.Table:
        import pyarrow as pa

        n = table.num_rows
        names: list[str] = []
        arrays: list[Any] = []
        for name, kind in self.columns or [(f.name, f.type) for f in table.schema]:
            names.append(name)
            arrays.append(table.column(name) if name in table.column_names else pa.nulls(n, kind))
        for name, value, kind in self.constants:
            names.append(name)
            arrays.append(constant(value, kind, n))
        return pa.Table.from_arrays(arrays, names=names).replace_schema_metadata(table.schema.metadata)


def seat_padding(columns: Sequence[tuple[str, int]], numpy_type: Any) -> tuple[tuple[str, pa.DataType], ...]:
    """(name, Arrow type) of the columns of the widest table, for :class:`Shape`."""
    import pyarrow as pa

    return tuple((name, pa.bool_() if numpy_type(name) is np.bool_ else pa.from_numpy_dtype(numpy_type(name)))
                 for name, _ in columns)


# --------------------------------------------------------------------------- a sweep's points
# (``sweep``: a unosim.run.sweep.Sweep, which imports this module)


def setting_types(sweep: Any) -> dict[str, Any]:
    """Varied key -> the Arrow type of its column (one for every point)."""
    return {k: setting_type(dict(p.values)[k] for p in sweep.points) for k in sweep.keys}


def point_shape(sweep: Any, index: int, types: dict[str, Any] | None = None) -> Shape:
    """What point ``index``'s parts hold beyond its kernel's columns: the seats of the sweep's
    largest table and its settings (``types``: the sweep's :func:`setting_types`)."""
    import pyarrow as pa
    from unosim.run.store import _numpy_type

    p = sweep.points[index]
    width = max(q.cfg.players for q in sweep.points)
    columns = seat_padding(sweep.run_mode.columns(width), _numpy_type) if width > p.cfg.players else None
    types = setting_types(sweep) if types is None else types
    values = dict(p.values)
    constants = (("point", index, pa.int32()),) + tuple((setting_column(k), values[k], types[k]) for k in sweep.keys)
    return Shape(columns, constants)


def points_table(sweep: Any) -> pa.Table:
    """``_points.pq``: per point its number, folder, label, the varied keys' values (the
    columns of its rows), its players and its bots."""
    import pyarrow as pa
    from unosim.run.bots_text import seating_text

    n = len(sweep.points)
    types = setting_types(sweep)
    cols: dict[str, Any] = {"point": pa.array(range(n), pa.int32()),
                            "folder": pa.array([p.rel for p in sweep.points], pa.string()),
                            "label": pa.array([p.label for p in sweep.points], pa.string())}
    for k in sweep.keys:
        cols[setting_column(k)] = pa.concat_arrays([constant(dict(p.values)[k], types[k], 1) for p in sweep.points])
    cols["players"] = pa.array([p.cfg.players for p in sweep.points], pa.int32())
    cols["bots"] = pa.array([seating_text(p.cfg.seats) for p in sweep.points], pa.string())
    return pa.table(cols)


def write_points(root: Path, sweep: Any) -> None:
    """Write ``_points.pq`` atomically (:func:`unosim.run.integrity.write_atomic`)."""
    import pyarrow.parquet as pq

    from unosim.run.integrity import write_atomic

    write_atomic(root / POINTS_FILE, lambda tmp: pq.write_table(points_table(sweep), tmp))


# A skill folder reads, with any Parquet reader, as one table: skill.parquet.  Every other
# file's name starts with ``_`` (pandas and pyarrow skip it) and does not end in ``.parquet``
# (a ``**/*.parquet`` glob skips it).
REPLICATES_FILE = "_skill_replicates.pq"
"""Every replicate's own figures: one row per point and replicate (what resuming keeps)."""
CEILING_FILE = "_skill_ceiling.pq"
"""The ceiling's measurements (``--ceiling``): one row per point, bot (``tuned``, ``ceiling``),
field (``random``, ``counter``) and replicate (what resuming keeps)."""
FIGURE_FILE = "_skill.png"
POINTS_DIR = "_points"
"""Each point's tuned bots: ``_points/<point>/[replicate=<r>/]bot.toml`` and ``history.pq``."""
OLD_NAMES = {REPLICATES_FILE: "skill_replicates.parquet", CEILING_FILE: "skill_ceiling.parquet",
             FIGURE_FILE: "skill.png", POINTS_DIR: "points", "history.pq": "history.parquet"}
"""The names a skill folder written before held the same files under."""


def table_path(root: Path, name: str) -> Path:
    """``root / name``, or the same table under its older name when only that is there."""
    new, old = root / name, root / OLD_NAMES.get(name, name)
    return old if old.is_file() and not new.is_file() else new
