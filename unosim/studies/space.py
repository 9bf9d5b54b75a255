"""Rule spaces: the keys a screening varies, their values, and the design that picks its points.

A space file names a base config, shared settings (``[set]``), the keys to vary with their
values (``[factors]``, the first the reference) and the hands per point.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from unosim.rules.bundled import bundled_files
from unosim.rules.config import ConfigError, RulesConfig
from unosim.rules.keys import NAME_RULE
from unosim.rules.validate import read_toml, valid_name
from unosim.run import sweep as sw
from unosim.run.dataset import point_folder

__all__ = ["Factor", "Space", "SpaceError", "bundled_spaces", "design", "load_space", "parse_space", "space_sweep"]

_TOP_KEYS = ("name", "base", "hands", "seed", "points", "set", "factors")
MAX_POINTS = 4_000  # a design past this is hours of play at any useful number of hands


class SpaceError(ValueError):
    """A space that cannot be screened; one line naming the key (``factors.rules.stacking``)."""


@dataclass(frozen=True)
class Factor:
    """One varied key: its full name (``rules.stacking``), its values (the first the
    reference of every effect) and its short name (``stacking``)."""

    key: str
    levels: tuple[Any, ...]

    @property
    def name(self) -> str:
        return self.key.rpartition(".")[2]


@dataclass(frozen=True)
class Space:
    """A validated rule space."""

    name: str
    base: RulesConfig
    factors: tuple[Factor, ...]
    hands: int
    seed: int
    min_points: int = 0
    path: str = ""

    def label(self, values: Mapping[str, Any]) -> str:
        """What differs from the reference values (``stacking=all,players=4``; ``base``)."""
        changed = [f"{f.name}={sw.partition_text(values[f.key])}" for f in self.factors
                   if values[f.key] != f.levels[0]]
        return ",".join(changed) or "base"


def bundled_spaces() -> dict[str, Path]:
    """Every bundled space file, by name."""
    return bundled_files("spaces")


def load_space(path: str | Path) -> Space:
    """Read and validate a space file, or a bundled space by name (``house_rules``)."""
    p = Path(path)
    if not p.exists():
        known = bundled_spaces()
        stem = p.name.removesuffix(".toml")
        if p.parent != Path(".") or stem not in known:
            raise SpaceError(f"{path}: space file not found, and no bundled space has that name"
                             f"{sw._did_you_mean(stem, known)} (bundled: {', '.join(known)})")
        p = known[stem]
    _, data = read_toml(p, "space", SpaceError)
    data.setdefault("name", p.stem)
    return dataclasses.replace(parse_space(data, p.parent), path=str(p))


def parse_space(data: Mapping[str, Any], root: str | Path = ".") -> Space:
    """Validate a space given as the dict ``tomllib`` returns; every problem is a one-line
    :class:`SpaceError` naming the key and what is allowed."""
    for k in data:
        if k not in _TOP_KEYS:
            raise SpaceError(f"unknown space key {k!r}{sw._did_you_mean(k, _TOP_KEYS)}; "
                             f"valid keys: {', '.join(_TOP_KEYS)}")
    name = data.get("name", "space")
    if not isinstance(name, str) or not valid_name(name):
        raise SpaceError(f"name: expected {NAME_RULE}, got {name!r}")
    try:
        base = sw._set(sw._load_base(data.get("base"), Path(root)), data.get("set", {}))
        hands = sw._int(data, "hands", 2)
        seed = sw._int(data, "seed", 0, 2**63 - 1, default=0)
        min_points = sw._int(data, "points", 1, MAX_POINTS, default=0)
        axes = sw._axes(data.get("factors", {}), "factors", base)
    except sw.SweepError as e:
        raise SpaceError(str(e)) from None
    if not axes:
        raise SpaceError("factors: the space is empty; give at least one key with two or more values, "
                         'e.g. "rules.stacking" = ["none", "all"]')
    for key, values in axes:
        if len(values) < 2:
            raise SpaceError(f"factors.{key}: give at least two values (the first is the reference); "
                             f"a key with one value belongs in [set]")
    fixed = {sw._full(k) for k, _ in sw._flatten(data.get("set", {}))} & {k for k, _ in axes}
    if fixed:
        raise SpaceError(f"set.{sorted(fixed)[0]}: the key is also a factor; set it or vary it, not both")
    return Space(name, base, tuple(Factor(k, v) for k, v in axes), hands, seed, min_points)


def terms(levels: Sequence[int]) -> int:
    """Coefficients of a model with every main effect and two-way interaction of factors
    with these numbers of levels (intercept included)."""
    d = [n - 1 for n in levels]
    return 1 + sum(d) + (sum(d) ** 2 - sum(x * x for x in d)) // 2


def _prime(n: int) -> bool:
    return n >= 2 and all(n % q for q in range(2, math.isqrt(n) + 1))


def design_size(space: Space) -> int:
    """Points of the design: p squared for the smallest prime p that holds every factor, gives
    half again as many points as the model has terms, and at least the space's ``points``."""
    need = max(space.min_points, math.ceil(1.5 * terms([len(f.levels) for f in space.factors])), 9)
    p = max(2, len(space.factors) - 1)
    while not (_prime(p) and p * p >= need):
        p += 1
    if p * p > MAX_POINTS:
        raise SpaceError(f"factors: this space needs {p * p:,} points for its two-way interactions; at most "
                         f"{MAX_POINTS:,} (vary fewer keys or values)")
    return p * p


def design(space: Space) -> np.ndarray:
    """The design: one row per point, one column per factor, each cell a level index (a
    strength-2 orthogonal-array Latin hypercube, scipy.stats.qmc)."""
    from scipy.stats import qmc

    n = design_size(space)
    d = len(space.factors)
    u = qmc.LatinHypercube(d=max(d, 2), strength=2, seed=space.seed).random(n)[:, :d]
    counts = np.array([len(f.levels) for f in space.factors])
    return np.minimum((u * counts).astype(np.int64), counts - 1)


def point_values(space: Space, row: Sequence[int]) -> dict[str, Any]:
    """Full key -> value of one design row."""
    return {f.key: f.levels[int(i)] for f, i in zip(space.factors, row)}


def space_sweep(space: Space, rows: np.ndarray, name: str | None = None) -> sw.Sweep:
    """The design as a sweep: one point per row, every point on the space's seed (the same
    deals everywhere), so :func:`unosim.run.sweep.run_sweep` runs and resumes it."""
    name = name or space.name
    points = []
    for i, row in enumerate(rows):
        values = point_values(space, row)
        label = space.label(values)
        try:
            cfg = space.base.with_values({**values, "name": sw.point_name(name, f"{i}:{label}")})
        except ConfigError as e:
            raise SpaceError(f"factors: the point {label} is not a valid config ({e}); drop one of its "
                             "values from the space or fix it in [set]") from None
        points.append(sw.Point(tuple(values.items()), cfg, point_folder(i), label))
    axes = tuple((f.key, f.levels) for f in space.factors)
    return sw.Sweep(name, space.base, "design", axes, (), "hands", space.hands, space.seed,
                    min(space.hands, 200_000), tuple(points))
