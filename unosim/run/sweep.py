"""Sweeps over rule grids: many configs, one Parquet dataset, resumable, local or on Dask.

A sweep file (docs/sweeps.md) names a base config, the keys to vary and the table settings
to cross; each point is an ordinary result in ``DIR/point-NNNN/``, all on the sweep's seed.
"""

from __future__ import annotations

import os

import dataclasses
import difflib
import hashlib
import itertools
import json
import math
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unosim.rules.config import KEYS, ConfigError, RulesConfig, default_config, load_config
from unosim.kernel.layout import ENGINE_VERSION
from unosim.run.jobs import DEFAULT_MAX_HANDS, HAND_STRIDE, Job, Progress, RunError, check_run, make_job
from unosim.run.modes import MODES as RUN_MODES, Mode
from unosim.run.runner import execute
from unosim.rules.bundled import find_config
from unosim.rules.keys import NAME_RULE, SECTIONS
from unosim.rules.validate import read_toml, valid_name
from unosim.run.guard import inside, refuse_other_output
from unosim.run.dataset import POINTS_FILE, partition_text, point_folder, point_shape, setting_types, write_points
from unosim.run.integrity import REJECTED, hold_lock, write_json_atomic
from unosim.run.store import MANIFEST, StoreError, manifest_diff, read_manifest, remove_result
from unosim.run.summary import Summary
from unosim.run.workers import check_workers

__all__ = ["MODES", "SWEEP_MANIFEST", "Point", "Sweep", "SweepError", "load_sweep", "parse_sweep",
           "prepare_sweep", "run_sweep", "sweep_jobs"]

MODES = ("one_at_a_time", "grid")
LAYOUT = 2  # the sweep manifest's layout: point-NNNN folders (absent: key=value folders)
SWEEP_MANIFEST = "_unosim_sweep.json"
_TOP_KEYS = ("name", "base", "mode", "hands", "matches", "seed", "chunk_size", "max_hands",
             "skip_invalid", "set", "axes", "strata")


class SweepError(ValueError):
    """A sweep that cannot be run; one line naming the sweep key (``axes.rules.stacking``)."""


# --------------------------------------------------------------------------- the sweep file


@dataclass(frozen=True)
class Point:
    """One config of the sweep.  ``values``: varied key -> value, in partition order;
    ``rel``: its directory; ``label``: what differs from the base (``stacking=draw2,players=4``)."""

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
    def run_mode(self) -> Mode:
        """The run mode of every point (``unit``: ``hands`` or ``matches``)."""
        return RUN_MODES[self.unit]

    @property
    def keys(self) -> list[str]:
        """The varied keys (``section.key``) in partition order."""
        return [k for k, _ in self.axes] + [k for k, _ in self.strata]

    def base_values(self) -> dict[str, str]:
        """Bare key -> the base config's value as partition text, for every varied key."""
        return {KEYS[_bare(k)].name: partition_text(self.base.value(k)) for k in self.keys}

    def with_count(self, unit: str, count: int | None) -> Sweep:
        """The sweep with ``count`` hands (``unit = "hands"``) or matches per point instead of
        the file's (``--hands/--matches``)."""
        if count is None:
            return self
        if unit != self.unit:
            raise SweepError(f"--{unit}: this sweep plays {self.unit} (its file gives {self.unit} = "
                             f"{self.count:,}); use --{self.unit}")
        try:
            check_run(f"--{unit}", count, 0, min(self.chunk_size, count))
        except RunError as e:
            raise SweepError(str(e)) from None
        return dataclasses.replace(self, count=count, chunk_size=min(self.chunk_size, count))

    def with_chunk_size(self, chunk_size: int | None) -> Sweep:
        if chunk_size is None:
            return self
        try:
            check_run("--chunk-size", 1, 0, chunk_size)
        except RunError as e:
            raise SweepError(str(e)) from None
        return dataclasses.replace(self, chunk_size=chunk_size)


def _bare(key: str) -> str:
    return key.rpartition(".")[2]


def load_sweep(path: str | Path) -> Sweep:
    """Read and validate a sweep file (see the module docstring).  Every problem is a
    one-line :class:`SweepError` naming the sweep key, and the value when one is at fault."""
    try:
        p = find_config(str(path), kind="sweep")  # a file, or a bundled sweep's name
    except FileNotFoundError as e:
        raise SweepError(str(e)) from None
    _, data = read_toml(p, "sweep", SweepError, limit=64 << 20)  # a long list is refused by its points, not its bytes
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
    if not valid_name(name):  # a label and the default folder's name (runs/<name>): never a path
        raise SweepError(f"name: expected {NAME_RULE}, got {name!r}")
    base = _set(_load_base(data.get("base"), Path(root)), data.get("set", {}))
    design = data.get("mode", "one_at_a_time")  # the sweep's design, not a run mode
    if design not in MODES:
        raise SweepError(f"mode: {design!r} is not one of {', '.join(MODES)}{_did_you_mean(str(design), MODES)}")
    if ("hands" in data) == ("matches" in data):
        raise SweepError("hands or matches: give exactly one, the number of hands (or matches) per point")
    unit = "hands" if "hands" in data else "matches"
    run_mode = RUN_MODES[unit]
    count = _int(data, unit, 1)
    seed = _int(data, "seed", 0, 2**63 - 1, default=0)
    chunk_size = _int(data, "chunk_size", 1, default=None)
    max_hands = None
    if run_mode.matches:
        max_hands = _int(data, "max_hands", 1, HAND_STRIDE, default=DEFAULT_MAX_HANDS)
    elif "max_hands" in data:
        raise SweepError("max_hands: only for a sweep of matches")
    chunk_size = chunk_size or min(run_mode.default_chunk, count)
    skip_invalid = data.get("skip_invalid", False)
    if not isinstance(skip_invalid, bool):
        raise SweepError(f"skip_invalid: expected true or false, got {skip_invalid!r}")

    _check_count(design, data.get("axes", {}), data.get("strata", {}))  # before any value is validated
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

    points, notes = _points(name, base, design, axes, strata, skip_invalid)
    if design == "grid" and axes and not any(p.label.startswith("base") for p in points):
        notes.append("grid: no point has every axis at the base value, so the balance report has no "
                     "base point to compare with (list the base's value in every axis)")
    return Sweep(name, base, design, axes, strata, unit, count, seed, chunk_size, tuple(points), max_hands,
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
            raise SweepError(f"base: expected the path of a config file or a bundled config's name, got {base!r}")
        # a path next to the sweep file wins; else a bundled name ("standard"), as on the command line
        return load_config(find_config(base, root=root))
    except (ConfigError, FileNotFoundError) as e:
        raise SweepError(f"base: {e}") from None


def _flatten(table: Any) -> list[tuple[str, Any]]:
    """``{"rules": {"stacking": x}}`` and ``{"rules.stacking": x}`` alike -> ``[("rules.stacking", x)]``.
    Only a section's table is opened: ``"bots.seats" = {strategy = ...}`` is one value."""
    flat: list[tuple[str, Any]] = []
    for k, v in table.items():
        if isinstance(v, Mapping) and k in SECTIONS:
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
        if k.type == "seats":
            raise SweepError(f"{where}.{k.full}: the bots are not varied by a sweep (its points differ in rules "
                             "only); set them for every point in [set] \"bots.seats\" = \"search\" (or an inline "
                             "table, or a list with one per seat), or compare bots with `unosim duel` or "
                             "`unosim league`")
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


MAX_POINTS = 10_000
"""Points one sweep may have: each is a folder, a job and a manifest entry; ten thousand
points of even 1,000 hands are hours, and a grid past that is nearly always a mistake."""
_NAME_MAX = 64  # a config name's length (rules/keys.py NAME_RULE)


def point_name(name: str, label: str) -> str:
    """The config name of a point, ``<sweep>:<label>``, cut past 64 characters and ended in a
    digest of the whole, so every point's name is valid and distinct."""
    full = f"{name}:{label}"
    if len(full) <= _NAME_MAX:
        return full
    digest = hashlib.sha256(full.encode()).hexdigest()[:8]
    return full[:_NAME_MAX - len(digest) - 1].rstrip(" ") + "+" + digest


def _check_count(design: str, axes: Any, strata: Any) -> None:
    """Refuse a sweep of more than :data:`MAX_POINTS` points from the lengths of its lists
    alone (validating a million values first would take minutes; validation keeps them)."""
    a, s = ([len(v) for _, v in _flatten(t) if isinstance(v, list)] if isinstance(t, Mapping) else []
            for t in (axes, strata))
    # one at a time: at most, as a value equal to the base's is listed once
    n = (math.prod(a) if design == "grid" else 1 + sum(a)) * math.prod(s)
    if n > MAX_POINTS:
        raise SweepError(f"axes: this sweep has {n:,} points; at most {MAX_POINTS:,} (vary fewer keys or values, "
                         "or split it into several sweeps)")


def _points(name: str, base: RulesConfig, design: str, axes: tuple, strata: tuple,
            skip_invalid: bool) -> tuple[list[Point], list[str]]:
    base_of = {k: base.value(k) for k, _ in axes}
    if design == "grid":
        combos = [dict(zip([k for k, _ in axes], vs)) for vs in itertools.product(*[v for _, v in axes])]
    else:
        combos = [dict(base_of)]
        for k, values in axes:
            combos += [{**base_of, k: v} for v in values if v != base_of[k]]  # both typed by the config
    layers = [dict(zip([k for k, _ in strata], vs)) for vs in itertools.product(*[v for _, v in strata])]
    points: list[Point] = []
    skipped: list[str] = []
    for combo in combos:
        changed = [f"{_bare(k)}={partition_text(v)}" for k, v in combo.items() if v != base_of[k]]
        for layer in layers:
            values = {**combo, **layer}
            strat = [f"{_bare(k)}={partition_text(v)}" for k, v in layer.items()]
            label = ",".join((changed or ["base"]) + strat)
            try:
                cfg = base.with_values({**values, "name": point_name(name, label)})
            except ConfigError as e:
                if not skip_invalid:
                    raise SweepError(f"point {label}: {e} (skip_invalid = true drops such points)") from None
                skipped.append(f"{label} ({e})")
                continue
            points.append(Point(tuple(values.items()), cfg, point_folder(len(points)), label))
    notes = [f"skipped {len(skipped)} invalid point(s): " + "; ".join(skipped)] if skipped else []
    if not points:
        raise SweepError("every point of the sweep is invalid: " + "; ".join(skipped))
    return points, notes


# --------------------------------------------------------------------------- sweeps


def sweep_jobs(sweep: Sweep, out: str | Path) -> list[Job]:
    """One job per point, its directory under ``out``."""
    root = Path(out)
    extra = {"unosim.sweep": sweep.name, "unosim.sweep_mode": sweep.mode,
             "unosim.sweep_keys": json.dumps([_bare(k) for k in sweep.keys]),
             "unosim.sweep_strata": json.dumps([_bare(k) for k, _ in sweep.strata]),
             "unosim.sweep_base": json.dumps(sweep.base_values())}
    types = setting_types(sweep)

    def values(p: Point) -> str:
        return json.dumps({_bare(k): partition_text(v) for k, v in p.values})

    return [make_job(p.cfg, sweep.unit, sweep.count, sweep.seed, chunk_size=sweep.chunk_size,
                     max_hands=sweep.max_hands, out=root / p.rel, label=p.label,
                     extra_metadata={**extra, "unosim.sweep_point": p.label, "unosim.sweep_values": values(p)},
                     shape=point_shape(sweep, i, types))
            for i, p in enumerate(sweep.points)]


def sweep_manifest(sweep: Sweep, jobs: list[Job]) -> dict[str, Any]:
    """``_unosim_sweep.json``: enough to tell the same sweep from a changed one."""
    return {"layout": LAYOUT, "name": sweep.name, "mode": sweep.mode, "unit": sweep.unit, "count": sweep.count,
            "seed": sweep.seed, "chunk_size": sweep.chunk_size, "max_hands": sweep.max_hands,
            "keys": sweep.keys, "base_values": sweep.base_values(), "engine_version": ENGINE_VERSION,
            "points": {p.rel: {"label": p.label, **j.manifest()} for p, j in zip(sweep.points, jobs)}}


def _sweep_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    top = manifest_diff(*({k: v for k, v in m.items() if k != "points"} for m in (old, new)))
    out = [top] if top else []
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
    """``--force`` on a sweep: remove each listed point's result (unosim files only), the
    point folders left empty, and the sweep manifest."""
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
    (root / POINTS_FILE).unlink(missing_ok=True)
    (root / SWEEP_MANIFEST).unlink()


def prepare_sweep(sweep: Sweep, out: str | Path, *, force: bool = False,
                  resume: bool = False) -> tuple[list[Job], list[set[int]]]:
    """Create (or check, to resume) the sweep directory and every point's; returns the jobs
    and, per job, the chunks already written.  A different sweep is refused naming the
    difference; ``force`` replaces it (its files only)."""
    root = Path(out)
    jobs = sweep_jobs(sweep, root)
    manifest = sweep_manifest(sweep, jobs)
    refuse_other_output(root, "sweep", "a unosim sweep", StoreError)
    for job in jobs:  # a point folder (or one of its parents) that is a link would lead outside --out
        if not inside(root, job.out) and job.out.exists():
            raise StoreError(f"--out: {job.out} leads outside {root} (a symlink); a sweep writes only inside "
                             "its folder: remove the link or choose another path")
    if root.is_dir() and any(f.name != REJECTED for f in root.iterdir()):
        old = read_manifest(root / SWEEP_MANIFEST)
        if old is None:
            raise StoreError(f"--out: {root} is a non-empty directory that is not a unosim sweep; "
                             "choose another path (--force only replaces a unosim sweep)")
        if force:
            remove_sweep(root, old)
        elif old.get("layout") != LAYOUT:
            raise StoreError(f"--out: {root} holds a sweep of an earlier unosim (one folder per key); it still "
                             "reads (unosim.load, unosim report) but is not resumed: use --force to replace it or "
                             "choose another path")
        elif old != manifest:
            raise StoreError(f"--out: {root} holds a different sweep (differs in: "
                             f"{_sweep_diff(old, manifest)}); use --force to overwrite it or choose "
                             "another path")
    try:
        root.mkdir(parents=True, exist_ok=True)
        write_json_atomic(root / SWEEP_MANIFEST, manifest)
        write_points(root, sweep)
    except OSError as e:
        if root.is_symlink() and not root.exists():  # mkdir says "File exists" of a link to nothing
            raise StoreError(f"--out: {root} is a link to {os.readlink(root)}, which does not exist; create "
                             "that folder or give another path") from None
        raise StoreError(f"--out: cannot write to {root}: {e.strerror or e}") from None
    # the sweep manifest matched: every point is ours
    return jobs, [j.prepare(force=False, resume=True, adopt=True) for j in jobs]


def run_sweep(sweep: Sweep, out: str | Path, *, workers: int | None = None, client: Any = None,
              force: bool = False, resume: bool = False, progress: Progress | None = None) -> list[Summary]:
    """Run every point of ``sweep`` into the dataset ``out`` (see the module docstring);
    one summary per point, in the sweep's order."""
    for note in sweep.warnings:
        warnings.warn(note, stacklevel=2)
    if client is None:
        check_workers(workers)  # a bad --workers is refused before the output is touched
    with hold_lock(Path(out)):
        jobs, done = prepare_sweep(sweep, out, force=force, resume=resume)
        summaries = execute(jobs, done, workers=workers, client=client, progress=progress)
    for job, summary in zip(jobs, summaries):
        summary.notes = [f"{job.name}: {n}" for n in job.notes]
    return summaries
