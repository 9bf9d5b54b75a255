"""Sweeps over rule grids: many configs, one Parquet dataset, resumable, local or on Dask.

A sweep file (TOML) names a base config and the keys to vary::

    name = "stacking"                 # label (default: the file name)
    base = "../standard.toml"         # the base config, relative to this file (default: the official rules)
    mode = "one_at_a_time"            # or "grid"
    hands = 200_000                   # per point (or: matches = 5_000 once match play exists)
    seed = 0                          # the same seed at every point (common random numbers)
    # chunk_size = 200_000            # hands per part file (default: 200,000, at most hands)
    # skip_invalid = false            # true: drop points a cross-key rule refuses, with a warning

    [set]                             # optional: keys set at every point, on top of the base
    "rules.noise_chance" = 0.05

    [axes]                            # key ("section.key" or bare) -> values to try
    "rules.stacking" = ["draw2", "draw2_draw4", "all"]
    "rules.draw" = ["until_playable"]

    [strata]                          # crossed with every point, in both modes
    "table.players" = [2, 4, 7]

Points.  ``one_at_a_time``: the base point, then every axis value alone with every other
axis at its base value (a value equal to the base's is the base point, listed once).
``grid``: the full product of the axes (the base point is a point only if every axis lists
the base's value).  ``[strata]`` is a grid crossed with those points in both modes: the
house-rule sweep is "each rule alone, at 2, 4 and 7 players" (``strata`` is the design
for it: keys that are a setting of the table, not an effect being measured; the balance
report compares each point with the base point of the same player count).

Output.  ``DIR/<axis>=<value>/.../<stratum>=<value>/part-NNNNNN.parquet``: one directory
level per varied key (axes in file order, then strata), the bare key name and the value
as text (``true``/``false``, numbers as written); every point has every level, so the
dataset is uniformly hive-partitioned.  Each point directory is an ordinary result
(``_unosim.json`` manifest, parts written atomically) whose files carry the point's full
config (``unosim.config``) and the sweep's ``unosim.sweep*`` metadata, among them the base
values of the varied keys (``unosim.sweep_base``, read by the balance report).
``DIR/_unosim_sweep.json`` describes the whole sweep.

Common random numbers.  Every point uses the sweep's seed, and hand ``i`` draws its
randomness from (seed, i) only, so two points play the very same shuffles and the
differences between points come from the rules alone (they are then positively
correlated, which makes differences more precise than with independent seeds; the
report's intervals treat the points as independent, so they are conservative).

Resume.  The same command on a sweep that was stopped (Ctrl-C, SIGKILL, a lost worker)
keeps every finished part file and plays only the missing chunks; the result is
identical to an uninterrupted run.  A changed sweep (points, configs, hands, seed, chunk
size, engine version) in an existing directory is refused, naming the difference;
``force`` deletes the old result first.

Execution.  Every chunk of every point is one task: :func:`play` (the parallel kernel on
all cores) then :func:`write` (a part file, atomically).  Locally the chunks of all points
run through one pipeline, the kernel on the next chunk while a writer thread writes the
last one, so small points do not leave cores idle; with Dask (:mod:`unosim.run.cluster`)
each task runs on a worker, which writes its part to the shared output path and returns
only a :class:`ChunkResult`.
"""

from __future__ import annotations

import dataclasses
import difflib
import itertools
import json
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np

from unosim.rules.config import KEYS, ConfigError, RulesConfig, default_config, load_config, to_params
from unosim.kernel.layout import ENGINE_VERSION, O_DEALER, O_STALLED, O_TURNS, O_WINNER
from unosim.run.runner import DEFAULT_CHUNK, RunError, chunks, max_workers, play_chunk, set_workers
from unosim.run.store import (MANIFEST, ResultDir, StoreError, column_names, manifest_diff, read_manifest,
    remove_result, run_metadata, to_table)

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = [
    "MODES", "SWEEP_MANIFEST", "ChunkResult", "ChunkSpec", "Job", "Point", "PointSummary", "Sweep",
    "SweepError", "SweepSummary", "execute", "load_sweep", "parse_sweep", "play", "run_chunk",
    "run_job", "run_sweep", "write",
]

MODES = ("one_at_a_time", "grid")
SWEEP_MANIFEST = "_unosim_sweep.json"
_TOP_KEYS = ("name", "base", "mode", "hands", "matches", "seed", "chunk_size", "max_hands",
             "skip_invalid", "set", "axes", "strata")
Progress = Callable[[int], None]


class SweepError(ValueError):
    """A sweep that cannot be run; one line naming the sweep key (``axes.rules.stacking``)."""


# --------------------------------------------------------------------------- the sweep file


@dataclass(frozen=True)
class Point:
    """One config of the sweep.  ``values``: varied key (``section.key``) -> value, in
    partition order; ``rel``: its directory under the output; ``label``: what differs from
    the base (``stacking=draw2,players=4``; ``base,players=4`` for a base point)."""

    values: tuple[tuple[str, Any], ...]
    cfg: RulesConfig
    rel: str
    label: str


@dataclass(frozen=True)
class Sweep:
    """A validated sweep: its points, each with a validated config."""

    name: str
    base: RulesConfig
    mode: str
    axes: tuple[tuple[str, tuple[Any, ...]], ...]
    strata: tuple[tuple[str, tuple[Any, ...]], ...]
    unit: str                 # "hands" or "matches"
    count: int                # hands (or matches) per point
    seed: int
    chunk_size: int
    points: tuple[Point, ...]
    max_hands: int | None = None
    warnings: tuple[str, ...] = ()

    @property
    def keys(self) -> list[str]:
        """The varied keys (``section.key``) in partition order."""
        return [k for k, _ in self.axes] + [k for k, _ in self.strata]

    def base_values(self) -> dict[str, str]:
        """Bare key -> the base config's value as partition text, for every varied key."""
        return {KEYS[_bare(k)].name: partition_text(self.base.value(k)) for k in self.keys}

    def with_chunk_size(self, chunk_size: int | None) -> Sweep:
        if chunk_size is None:
            return self
        if chunk_size < 1:
            raise SweepError(f"--chunk-size: must be at least 1 (got {chunk_size})")
        return dataclasses.replace(self, chunk_size=chunk_size)


def _bare(key: str) -> str:
    return key.rpartition(".")[2]


def partition_text(v: Any) -> str:
    """A value as it appears in a ``key=value`` directory name (TOML spelling)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def load_sweep(path: str | Path) -> Sweep:
    """Read and validate a sweep file (see the module docstring).  Every problem is a
    one-line :class:`SweepError` naming the sweep key, and the value when one is at fault."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SweepError(f"sweep file not found: {p}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SweepError(f"cannot read sweep file {p}: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SweepError(f"{p}: invalid TOML: {e}") from None
    data.setdefault("name", p.stem)
    return parse_sweep(data, p.parent)


def parse_sweep(data: Mapping[str, Any], root: str | Path = ".") -> Sweep:
    """Validate a sweep given as the dict ``tomllib`` returns; ``root`` is the folder the
    ``base`` path is relative to."""
    for k in data:
        if k not in _TOP_KEYS:
            hint = _did_you_mean(k, _TOP_KEYS)
            raise SweepError(f"unknown sweep key {k!r}{hint}; valid keys: {', '.join(_TOP_KEYS)}")
    name = data.get("name", "sweep")
    if not isinstance(name, str) or not name.strip() or "\n" in name:
        raise SweepError(f"name: expected a non-empty one-line string, got {name!r}")
    base = _set(_load_base(data.get("base"), Path(root)), data.get("set", {}))
    mode = data.get("mode", "one_at_a_time")
    if mode not in MODES:
        raise SweepError(f"mode: {mode!r} is not one of {', '.join(MODES)}{_did_you_mean(str(mode), MODES)}")
    if ("hands" in data) == ("matches" in data):
        raise SweepError("hands or matches: give exactly one, the number of hands (or matches) per point")
    unit = "hands" if "hands" in data else "matches"
    count = _int(data, unit, 1)
    seed = _int(data, "seed", 0, 2**63 - 1, default=0)
    chunk_size = _int(data, "chunk_size", 1, default=None)
    max_hands = None
    if unit == "matches":
        mm = _matches_api()
        max_hands = _int(data, "max_hands", 1, mm.HAND_STRIDE, default=mm.DEFAULT_MAX_HANDS)
        chunk_size = chunk_size or min(mm.DEFAULT_MATCH_CHUNK, count)
    elif "max_hands" in data:
        raise SweepError("max_hands: only for a sweep of matches")
    chunk_size = chunk_size or min(DEFAULT_CHUNK, count)
    skip_invalid = data.get("skip_invalid", False)
    if not isinstance(skip_invalid, bool):
        raise SweepError(f"skip_invalid: expected true or false, got {skip_invalid!r}")

    axes = _axes(data.get("axes", {}), "axes", base)
    strata = _axes(data.get("strata", {}), "strata", base)
    if not axes and not strata:
        raise SweepError("axes: nothing to vary; give at least one key in [axes] (or [strata])")
    both = {k for k, _ in axes} & {k for k, _ in strata}
    if both:
        raise SweepError(f"strata.{sorted(both)[0]}: the key is also an axis; vary it in one of the two")
    fixed = {_full(k) for k, _ in _flatten(data.get("set", {}))} & {k for k, _ in axes + strata}
    if fixed:
        raise SweepError(f"set.{sorted(fixed)[0]}: the key is also varied; set it or vary it, not both")

    points, notes = _points(name, base, mode, axes, strata, skip_invalid)
    if mode == "grid" and axes and not any(p.label.startswith("base") for p in points):
        notes.append("grid: no point has every axis at the base value, so the balance report has no "
                     "base point to compare with (list the base's value in every axis)")
    return Sweep(name, base, mode, axes, strata, unit, count, seed, chunk_size, tuple(points), max_hands,
                 tuple(notes))


def _did_you_mean(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _int(data: Mapping[str, Any], key: str, lo: int, hi: int | None = None, default: Any = ...) -> Any:
    if key not in data:
        if default is ...:
            raise SweepError(f"{key}: missing")
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise SweepError(f"{key}: expected an integer, got {v!r}")
    if v < lo or (hi is not None and v > hi):
        allowed = f"{lo} or more" if hi is None else f"{lo}-{hi}"
        raise SweepError(f"{key}: {v} is out of range; allowed: {allowed}")
    return v


def _load_base(base: Any, root: Path) -> RulesConfig:
    try:
        if base is None:
            return default_config()
        if not isinstance(base, str) or not base:
            raise SweepError(f"base: expected the path of a config file, got {base!r}")
        return load_config(root / base)
    except ConfigError as e:
        raise SweepError(f"base: {e}") from None


def _flatten(table: Any) -> list[tuple[str, Any]]:
    """``{"rules": {"stacking": x}}`` and ``{"rules.stacking": x}`` alike -> ``[("rules.stacking", x)]``."""
    flat: list[tuple[str, Any]] = []
    for k, v in table.items():
        if isinstance(v, Mapping):
            flat += [(f"{k}.{k2}", v2) for k2, v2 in v.items()]
        else:
            flat.append((k, v))
    return flat


def _full(key: str) -> str:
    k = KEYS.get(_bare(key))
    return k.full if k is not None else key


def _key(key: str, where: str) -> Any:
    """The registry record of a sweep key, or a SweepError with a suggestion."""
    section, _, bare = key.rpartition(".")
    k = KEYS.get(bare)
    if k is None or (section and section != k.section):
        fulls = [x.full for x in KEYS.values()]
        raise SweepError(f"{where}.{key}: unknown config key{_did_you_mean(key, fulls)}; "
                         f"see `unosim rules` for the keys")
    if k.name == "name":
        raise SweepError(f"{where}.{key}: the config's name is a label, not a rule; it cannot be varied")
    return k


def _set(base: RulesConfig, table: Any) -> RulesConfig:
    """The base with the sweep's ``[set]`` keys applied (each validated, naming the key)."""
    if not isinstance(table, Mapping):
        raise SweepError(f"set: expected a table of key = value, got {table!r}")
    for key, v in _flatten(table):
        k = _key(key, "set")
        try:
            base = base.with_values({k.full: v})
        except ConfigError as e:
            raise SweepError(f"set.{k.full} = {_show(v)}: {e}") from None
    return base


def _axes(table: Any, where: str, base: RulesConfig) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Validate ``[axes]`` or ``[strata]``: key -> non-empty list of distinct valid values.
    ``[axes.rules]`` sub-tables and quoted ``"rules.stacking"`` keys both work."""
    if not isinstance(table, Mapping):
        raise SweepError(f"{where}: expected a table of key = [values], got {table!r}")
    out: list[tuple[str, tuple[Any, ...]]] = []
    seen: set[str] = set()
    for key, values in _flatten(table):
        k = _key(key, where)
        if k.full in seen:
            raise SweepError(f"{where}.{k.full}: given twice")
        seen.add(k.full)
        if not isinstance(values, list):
            raise SweepError(f"{where}.{k.full}: expected a list of values, got {values!r}")
        if not values:
            raise SweepError(f"{where}.{k.full}: the list of values is empty")
        typed: list[Any] = []
        for v in values:
            if isinstance(v, (list, dict)):
                raise SweepError(f"{where}.{k.full}: each value must be a single string, number or "
                                 f"boolean, got {v!r}")
            try:
                cfg = base.with_values({k.full: v})
            except ConfigError as e:
                raise SweepError(f"{where}.{k.full} = {_show(v)}: {e}") from None
            t = cfg.value(k.full)
            if t in typed:
                raise SweepError(f"{where}.{k.full}: value {_show(v)} is listed twice")
            typed.append(t)
        out.append((k.full, tuple(typed)))
    return tuple(out)


def _show(v: Any) -> str:
    return json.dumps(v) if isinstance(v, (str, bool)) else repr(v)


def _points(name: str, base: RulesConfig, mode: str, axes: tuple, strata: tuple,
            skip_invalid: bool) -> tuple[list[Point], list[str]]:
    base_of = {k: base.value(k) for k, _ in axes}
    if mode == "grid":
        combos = [dict(zip([k for k, _ in axes], vs)) for vs in itertools.product(*[v for _, v in axes])]
    else:
        combos = [dict(base_of)]
        for k, values in axes:
            combos += [{**base_of, k: v} for v in values if not _same(v, base_of[k])]
    layers = [dict(zip([k for k, _ in strata], vs)) for vs in itertools.product(*[v for _, v in strata])]
    points: list[Point] = []
    skipped: list[str] = []
    for combo in combos:
        changed = [f"{_bare(k)}={partition_text(v)}" for k, v in combo.items() if not _same(v, base_of[k])]
        for layer in layers:
            values = {**combo, **layer}
            strat = [f"{_bare(k)}={partition_text(v)}" for k, v in layer.items()]
            label = ",".join((changed or ["base"]) + strat)
            rel = "/".join(f"{_bare(k)}={quote(partition_text(v), safe='')}" for k, v in values.items())
            try:
                cfg = base.with_values({**values, "name": f"{name}:{label}"})
            except ConfigError as e:
                if not skip_invalid:
                    raise SweepError(f"point {label}: {e} (skip_invalid = true drops such points)") from None
                skipped.append(f"{label} ({e})")
                continue
            points.append(Point(tuple(values.items()), cfg, rel, label))
    notes = [f"skipped {len(skipped)} invalid point(s): " + "; ".join(skipped)] if skipped else []
    if not points:
        raise SweepError("every point of the sweep is invalid: " + "; ".join(skipped))
    return points, notes


def _same(a: Any, b: Any) -> bool:
    return a == b  # both typed by the config's validation


def _matches_api() -> Any:
    """unosim.run.matches, when match play exists; else a clear error."""
    try:
        from unosim.run import matches as mm
    except ImportError as e:
        raise SweepError(f"matches: match play is not available in this version ({e}); use hands") from None
    needed = ("play_match_chunk", "match_columns", "HAND_STRIDE", "DEFAULT_MAX_HANDS", "DEFAULT_MATCH_CHUNK")
    for name in needed:
        if not hasattr(mm, name):
            raise SweepError(f"matches: unosim.run.matches has no {name} yet; use hands")
    return mm


# --------------------------------------------------------------------------- jobs and chunks


@dataclass(frozen=True)
class ChunkSpec:
    """One task: play chunk ``index`` (hands or matches ``start .. start+count-1``) of one
    result and write its part file.  Everything a remote worker needs, and nothing big."""

    out: str
    index: int
    start: int
    count: int
    P: np.ndarray
    seed: int
    unit: str
    players: int
    columns: tuple[tuple[str, int], ...]
    metadata: dict[bytes, bytes]
    label: str
    max_hands: int | None = None
    engine_version: Any = ENGINE_VERSION


@dataclass
class ChunkResult:
    """What a task sends back: counts only (the rows stay in the part file)."""

    label: str
    index: int
    rows: int
    units: int               # hands, or matches
    turns_sum: int
    stalled: int
    wins_from_dealer: np.ndarray
    seconds: float = 0.0


# One kernel at a time per process: numba's default (workqueue) threading layer must not be
# entered by two threads at once, and a Dask worker may run several tasks in threads.
# Writing (compression, I/O) runs outside the lock, so it overlaps the next chunk's play.
_KERNEL_LOCK = threading.Lock()


def play(spec: ChunkSpec, workers: int | None = None, buffer: np.ndarray | None = None) -> np.ndarray:
    """The kernel rows of one chunk, on ``workers`` cores (all when None); hands are played
    into ``buffer`` when it is big enough (see :func:`unosim.run.runner.play_chunk`)."""
    if spec.engine_version != ENGINE_VERSION:
        raise RunError(f"this process runs engine version {ENGINE_VERSION}, the run was planned with "
                       f"{spec.engine_version}: install the same unosim everywhere")
    import numba

    top = max_workers()
    w = top if workers is None else max(1, min(workers, top))
    with _KERNEL_LOCK:
        numba.set_num_threads(w)  # thread-local in numba: set in the thread that runs the kernel
        if spec.unit == "matches":
            mm = _matches_api()
            return mm.play_match_chunk(spec.P, spec.seed, spec.start, spec.count, w, spec.max_hands)
        return play_chunk(spec.P, spec.seed, spec.start, spec.count, w, buffer)


def write(spec: ChunkSpec, rows: np.ndarray, seconds: float = 0.0) -> ChunkResult:
    """Write the chunk's part file (atomically) and summarise it."""
    ResultDir(Path(spec.out)).write_chunk(spec.index, to_table(rows, list(spec.columns), spec.metadata))
    return summarize_rows(spec, rows, seconds)


def run_chunk(spec: ChunkSpec, workers: int | None = None) -> ChunkResult:
    """The whole task (a Dask worker runs this): play, then write the part."""
    t0 = time.perf_counter()
    rows = play(spec, workers)
    return write(spec, rows, time.perf_counter() - t0)


def summarize_rows(spec: ChunkSpec, rows: np.ndarray, seconds: float = 0.0) -> ChunkResult:
    n = spec.players
    stalled = rows[:, O_STALLED] != 0
    won = rows[~stalled]
    wins = np.bincount((won[:, O_WINNER] - won[:, O_DEALER]) % n, minlength=n)
    return ChunkResult(spec.label, spec.index, len(rows), spec.count, int(rows[:, O_TURNS].sum()),
                       int(stalled.sum()), wins, seconds)


@dataclass
class Job:
    """One result directory to fill: a config, a number of hands (or matches), a seed."""

    out: Path
    cfg: RulesConfig
    count: int
    seed: int
    chunk_size: int
    unit: str = "hands"
    label: str = ""
    max_hands: int | None = None
    extra_metadata: dict[str, Any] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)

    def manifest(self) -> dict[str, Any]:
        """The result's ``_unosim.json`` (the same as ``unosim run`` writes for these arguments)."""
        m: dict[str, Any] = {"config": self.cfg.to_toml(), "seed": self.seed,
                             "games" if self.unit == "hands" else "matches": self.count,
                             "chunk_size": self.chunk_size}
        if self.unit == "matches":
            m["max_hands"] = self.max_hands
        m["mode"] = self.unit
        return m

    def prepare(self, force: bool, resume: bool, adopt: bool = False) -> None:
        self.done = ResultDir(self.out).prepare(self.manifest(), force=force, resume=resume, adopt=adopt)

    def chunks(self) -> list[tuple[int, int, int]]:
        return chunks(self.count, self.chunk_size)

    def specs(self) -> list[ChunkSpec]:
        """The chunks still to play (those without a part file)."""
        P = to_params(self.cfg)
        extra = dict(self.extra_metadata)
        if self.unit == "matches":
            mm = _matches_api()
            extra.update({"unosim.max_hands": self.max_hands, "unosim.hand_stride": mm.HAND_STRIDE})
            columns = mm.match_columns(self.cfg.players)
        else:
            columns = column_names(self.cfg.players)
        meta = run_metadata(self.cfg, self.seed, self.unit, extra)
        return [ChunkSpec(str(self.out), i, start, count, P, self.seed, self.unit, self.cfg.players,
                          tuple(columns), meta, self.label or self.cfg.name, self.max_hands)
                for i, start, count in self.chunks() if i not in self.done]


def run_job(cfg: RulesConfig, count: int, seed: int, out: str | Path, chunk_size: int = DEFAULT_CHUNK, *,
            unit: str = "hands", max_hands: int | None = None) -> Job:
    """The job of ``unosim run`` (``unit="matches"``: ``unosim run --matches``): the same
    manifest and part files as :func:`unosim.run.runner.run_hands` (``run_matches``)."""
    option = "--games" if unit == "hands" else "--matches"
    if count < 1:
        raise RunError(f"{option}: must be at least 1 (got {count})")
    if chunk_size < 1:
        raise RunError(f"--chunk-size: must be at least 1 (got {chunk_size})")
    if seed < 0 or seed >= 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    if unit == "matches":
        mm = _matches_api()
        max_hands = mm.DEFAULT_MAX_HANDS if max_hands is None else max_hands
        if not 1 <= max_hands <= mm.HAND_STRIDE:
            raise RunError(f"--max-hands: must be between 1 and {mm.HAND_STRIDE:,} (got {max_hands})")
    return Job(Path(out), cfg, count, seed, chunk_size, unit, cfg.name, max_hands)


# --------------------------------------------------------------------------- execution


@dataclass
class PointSummary:
    """Counts of one job, over the chunks played by this command."""

    label: str
    players: int
    units: int = 0
    rows: int = 0
    turns_sum: int = 0
    stalled: int = 0
    wins_from_dealer: np.ndarray | None = None
    chunks_skipped: int = 0

    def add(self, r: ChunkResult) -> None:
        self.units += r.units
        self.rows += r.rows
        self.turns_sum += r.turns_sum
        self.stalled += r.stalled
        w = self.wins_from_dealer
        self.wins_from_dealer = r.wins_from_dealer if w is None else w + r.wins_from_dealer

    @property
    def mean_turns(self) -> float:
        return self.turns_sum / self.rows if self.rows else float("nan")

    def shares(self) -> np.ndarray:
        w = self.wins_from_dealer if self.wins_from_dealer is not None else np.zeros(self.players)
        return w / w.sum() if w.sum() else w.astype(float)


@dataclass
class SweepSummary:
    """What a sweep (or a Dask run) played: per job counts, speed, chunks kept."""

    points: list[PointSummary]
    seconds: float = 0.0
    backend: str = "local"

    @property
    def rows(self) -> int:
        return sum(p.rows for p in self.points)

    @property
    def units(self) -> int:
        return sum(p.units for p in self.points)

    @property
    def chunks_skipped(self) -> int:
        return sum(p.chunks_skipped for p in self.points)

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else float("nan")


def execute(jobs: list[Job], *, workers: int | None = None, client: Any = None,
            progress: Progress | None = None) -> SweepSummary:
    """Play every missing chunk of the (prepared) jobs, locally or on a Dask ``client``."""
    summaries = {j.label or j.cfg.name: PointSummary(j.label or j.cfg.name, j.cfg.players) for j in jobs}
    specs: list[ChunkSpec] = []
    for j in jobs:
        mine = j.specs()
        summaries[j.label or j.cfg.name].chunks_skipped = len(j.chunks()) - len(mine)
        if progress:
            skipped = sum(c for i, _, c in j.chunks() if i in j.done)
            if skipped:
                progress(skipped)
        specs += mine
    t0 = time.perf_counter()
    if client is not None:
        from unosim.run.cluster import run_specs

        results: Iterator[ChunkResult] = run_specs(client, specs, workers)
        backend = "dask"
    else:
        results = _run_local(specs, set_workers(workers))
        backend = "local"
    for r in results:
        summaries[r.label].add(r)
        if progress:
            progress(r.units)
    return SweepSummary(list(summaries.values()), time.perf_counter() - t0, backend)


def _run_local(specs: list[ChunkSpec], workers: int) -> Iterator[ChunkResult]:
    """One pipeline over the chunks of every job: the kernel plays chunk k+1 on all cores
    while one writer thread writes chunk k.  A stop (exception, Ctrl-C) lets the write in
    flight finish, so only whole parts are ever left."""
    pending: Future | None = None
    # two output buffers, reused: chunk k+1 is played into one while chunk k is written
    # from the other (fresh pages cost ~4 ms per MiB on this kind of virtual machine)
    buffers: list[np.ndarray | None] = [None, None]
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="unosim-writer") as writer:
        for spec in specs:
            t0 = time.perf_counter()
            rows = play(spec, workers, buffers[0])
            if spec.unit != "matches":
                buffers[0] = rows
            buffers.reverse()
            dt = time.perf_counter() - t0
            if pending is not None:
                yield pending.result()
            pending = writer.submit(write, spec, rows, dt)
        if pending is not None:
            yield pending.result()


# --------------------------------------------------------------------------- sweeps


def sweep_jobs(sweep: Sweep, out: str | Path) -> list[Job]:
    """One job per point, its directory under ``out``."""
    root = Path(out)
    extra = {"unosim.sweep": sweep.name, "unosim.sweep_mode": sweep.mode,
             "unosim.sweep_keys": json.dumps([_bare(k) for k in sweep.keys]),
             "unosim.sweep_strata": json.dumps([_bare(k) for k, _ in sweep.strata]),
             "unosim.sweep_base": json.dumps(sweep.base_values())}
    return [Job(root / p.rel, p.cfg, sweep.count, sweep.seed, sweep.chunk_size, sweep.unit, p.label,
                sweep.max_hands, {**extra, "unosim.sweep_point": p.label})
            for p in sweep.points]


def sweep_manifest(sweep: Sweep, jobs: list[Job]) -> dict[str, Any]:
    """``_unosim_sweep.json``: enough to tell the same sweep from a changed one."""
    return {"name": sweep.name, "mode": sweep.mode, "unit": sweep.unit, "count": sweep.count,
            "seed": sweep.seed, "chunk_size": sweep.chunk_size, "max_hands": sweep.max_hands,
            "keys": sweep.keys, "base_values": sweep.base_values(), "engine_version": ENGINE_VERSION,
            "points": {p.rel: {"label": p.label, **j.manifest()} for p, j in zip(sweep.points, jobs)}}


def _sweep_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    out = []
    for k in sorted(set(old) | set(new)):
        if k == "points" or old.get(k) == new.get(k):
            continue
        out.append(f"{k} {json.dumps(old.get(k))} -> {json.dumps(new.get(k))}")
    po, pn = old.get("points", {}), new.get("points", {})
    added = [pn[r]["label"] for r in pn if r not in po]
    removed = [po[r].get("label", r) for r in po if r not in pn]
    if added:
        out.append(f"new points {', '.join(added)}")
    if removed:
        out.append(f"points no longer in the sweep {', '.join(removed)}")
    changed = [f"point {pn[r]['label']}: {manifest_diff(po[r], pn[r])}"
               for r in pn if r in po and po[r] != pn[r]]
    out += changed[:3] + ([f"{len(changed) - 3} more points"] if len(changed) > 3 else [])
    return "; ".join(out) or "the sweep description"


def remove_sweep(root: Path, manifest: dict[str, Any]) -> None:
    """``--force`` on a sweep: remove each point's result that its manifest lists (through
    :func:`remove_result`, so only unosim files go), the point folders left empty, and the
    sweep manifest; a point path that would leave ``root`` is ignored."""
    base = root.resolve()
    for rel in manifest.get("points", {}) if isinstance(manifest.get("points"), dict) else ():
        point = (root / rel)
        if not isinstance(rel, str) or not point.resolve().is_relative_to(base) or point.resolve() == base:
            continue
        if point.is_dir() and not point.is_symlink() and read_manifest(point / MANIFEST) is not None:
            remove_result(point)
            d = point
            while d.resolve() != base and d.is_dir() and not any(d.iterdir()):
                d.rmdir()
                d = d.parent
    (root / SWEEP_MANIFEST).unlink()


def prepare_sweep(sweep: Sweep, out: str | Path, *, force: bool = False, resume: bool = False) -> list[Job]:
    """Create (or check) the sweep directory and every point's; returns the prepared jobs.

    The same sweep already there and unfinished is resumed; finished, it is refused unless
    ``resume`` (nothing left to do); a different sweep is refused naming the difference;
    ``force`` deletes the directory first."""
    root = Path(out)
    jobs = sweep_jobs(sweep, root)
    manifest = sweep_manifest(sweep, jobs)
    if root.exists() and not root.is_dir():
        raise StoreError(f"--out: {root} exists and is not a directory; choose another path "
                         "(--force only replaces a unosim sweep)")
    if root.is_dir() and any(root.iterdir()):
        old = read_manifest(root / SWEEP_MANIFEST)
        if old is None:
            raise StoreError(f"--out: {root} is a non-empty directory that is not a unosim sweep; "
                             "choose another path (--force only replaces a unosim sweep)")
        if force:
            remove_sweep(root, old)
        elif old != manifest:
            raise StoreError(f"--out: {root} holds a different sweep (differs in: "
                             f"{_sweep_diff(old, manifest)}); use --force to overwrite it or choose "
                             "another path")
        elif all(len(ResultDir(j.out).done()) >= len(j.chunks()) for j in jobs) and not resume:
            raise StoreError(f"--out: {root} already holds this sweep, complete; use --force to run it "
                             "again (or --resume to accept it as it is)")
    try:
        root.mkdir(parents=True, exist_ok=True)
        (root / SWEEP_MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    except OSError as e:
        raise StoreError(f"--out: cannot write to {root}: {e.strerror or e}") from None
    for j in jobs:
        j.prepare(force=False, resume=True, adopt=True)  # the sweep manifest matched: every point is ours
    return jobs


def run_sweep(sweep: Sweep, out: str | Path, *, workers: int | None = None, client: Any = None,
              force: bool = False, resume: bool = False, progress: Progress | None = None) -> SweepSummary:
    """Run every point of ``sweep`` into the dataset ``out`` (see the module docstring)."""
    for note in sweep.warnings:
        warnings.warn(note, stacklevel=2)
    jobs = prepare_sweep(sweep, out, force=force, resume=resume)
    return execute(jobs, workers=workers, client=client, progress=progress)
