"""Jobs: what one result is made of, as a plan of chunks.

A job is a config, a mode, a count, a seed, a chunk size and usually an output directory;
every way of playing goes through one.  Chunk ``i`` holds units ``start .. start+count-1``
and becomes part file ``i``; chunk boundaries never change rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

import numpy as np

from unosim.rules.config import RulesConfig, to_params
from unosim.kernel.layout import ENGINE_VERSION, HAND_STRIDE
from unosim.run.bounds import (DEFAULT_CHUNK, DEFAULT_MATCH_CHUNK, DEFAULT_MAX_HANDS, DEFAULT_TOURNAMENT_CHUNK,
    MAX_CHUNK_ROWS, MAX_COUNT, MAX_MATCH_CHUNK, MAX_PARTS, Progress, RunError, check_run)
from unosim.run.integrity import PartCheck
from unosim.run.modes import MODES, Mode, mode_named
from unosim.run.dataset import SCHEMA_VERSION, Shape
from unosim.run.schema import SCHEMA_VERSION as SCHEMA_VERSION_KEY, run_metadata
from unosim.run.store import ResultDir
from unosim.run.tournaments import tournament_rows

__all__ = ["DEFAULT_CHUNK", "DEFAULT_MATCH_CHUNK", "DEFAULT_MAX_HANDS", "DEFAULT_TOURNAMENT_CHUNK", "MAX_CHUNK_ROWS",
           "MAX_COUNT", "MAX_MATCH_CHUNK", "tournament_rows", "HAND_STRIDE", "MODES", "ChunkSpec", "ChunkPlan", "Job",
           "Mode", "Progress", "RunError", "check_run", "chunks", "make_job"]


class ChunkPlan(Sequence[tuple[int, int, int]]):
    """(chunk index, first unit, units) covering 0..total-1, computed on demand: a plan
    of 10**12 hands is three integers, not a list of millions of tuples."""

    def __init__(self, total: int, size: int) -> None:
        self.total = total
        self.size = size

    def __len__(self) -> int:
        return -(-self.total // self.size)

    @overload
    def __getitem__(self, i: int) -> tuple[int, int, int]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, int, int]]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        start = i * self.size
        return i, start, min(self.size, self.total - start)

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, ChunkPlan)) else NotImplemented


def chunks(total: int, size: int) -> ChunkPlan:
    """(chunk index, first unit, units) covering 0..total-1, as a lazy sequence."""
    return ChunkPlan(total, size)


@dataclass(frozen=True)
class Job:
    """One result to fill (or, with ``out`` None, to play and summarise only).  Build it
    with :func:`make_job`, which validates; the fields are then trusted."""

    cfg: RulesConfig
    mode: Mode
    count: int
    seed: int
    chunk_size: int
    out: Path | None = None
    max_hands: int | None = None
    label: str = ""
    extra_metadata: dict[str, Any] = field(default_factory=dict)
    shape: Shape | None = None  # columns beyond the kernel's (a sweep point's settings, seats as nulls)
    notes: list[str] = field(default_factory=list, compare=False)  # what preparing the output found

    @property
    def rotations(self) -> int:
        """How many times each unit is played: once per rotation, or once."""
        return self.mode.rotations(self.cfg)

    @property
    def name(self) -> str:
        """What summaries and progress call this job: its label, else the config's name."""
        return self.label or self.cfg.name

    def manifest(self) -> dict[str, Any]:
        """The result's ``_unosim.json`` (the mode's, see :meth:`Mode.manifest`)."""
        return self.mode.manifest(self)

    def run_id(self) -> str:
        """The run's identity: a digest of everything that changes its rows (config, seed, mode,
        rotation, ``max_hands``, engine version)."""
        ident = {"config": self.cfg.to_toml(), "seed": self.seed, **self.mode.identity(), "max_hands": self.max_hands,
                 "engine_version": ENGINE_VERSION}
        return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:32]

    def metadata(self, extra: dict[str, Any] | None = None) -> dict[bytes, bytes]:
        """The key-value metadata of every part file (``extra``: the player's own keys)."""
        more = {**self.extra_metadata, SCHEMA_VERSION_KEY: SCHEMA_VERSION, "unosim.count": self.count, "unosim.chunk_size": self.chunk_size,
                "unosim.run_id": self.run_id(), **self.mode.metadata(self)}
        more.update(extra or {})
        return run_metadata(self.cfg, self.seed, self.mode.file_mode, more)

    def params(self) -> np.ndarray:
        return to_params(self.cfg)

    def chunks(self) -> ChunkPlan:
        return chunks(self.count, self.chunk_size)

    def prepare(self, force: bool = False, resume: bool = False, adopt: bool = False) -> set[int]:
        """Create (or check, to resume) the output directory; returns the chunks already done,
        each part checked against :meth:`part_check`."""
        if self.out is None:
            return set()
        result = ResultDir(self.out)
        done = result.prepare(self.manifest(), force=force, resume=resume, adopt=adopt, checks=self.part_check)
        self.notes[:] = result.notes
        return done

    def part_check(self, index: int) -> PartCheck | None:
        """What part ``index`` must be (None: no such chunk in this run)."""
        plan = self.chunks()
        if not 0 <= index < len(plan):
            return None
        _, start, count = plan[index]
        meta = {k.decode(): v.decode() for k, v in run_metadata(self.cfg, self.seed, self.mode.file_mode).items()}
        same = tuple((k, meta[k]) for k in ("unosim.seed", "unosim.config", "unosim.mode", "unosim.engine_version"))
        same += (("unosim.run_id", self.run_id()),)
        if self.mode.rotate_flag:
            same += (("unosim.rotate_seats", "true"),)
        per_unit = self.mode.rows_per_unit(self.cfg)
        return PartCheck(index, start, count, self.mode.unit, None if per_unit is None else count * per_unit, same)

    def specs(self, done: set[int]) -> Iterator[ChunkSpec]:
        """The chunks still to play (those without a verified part), as tasks, one at a time."""
        return (ChunkSpec(self, i, start, count) for i, start, count in self.chunks() if i not in done)


@dataclass(frozen=True)
class ChunkSpec:
    """One task: chunk ``index`` (units ``start .. start+count-1``) of ``job``; what a
    remote worker needs (the config, not its arrays: the worker builds those)."""

    job: Job
    index: int
    start: int
    count: int
    engine_version: Any = ENGINE_VERSION


def make_job(cfg: RulesConfig, mode: str | Mode = "hands", count: int = 1, seed: int = 0, *,
             chunk_size: int | None = None, max_hands: int | None = None, out: str | Path | None = None,
             label: str = "", extra_metadata: dict[str, Any] | None = None,
             count_option: str | None = None, rotate: bool = False, shape: Shape | None = None) -> Job:
    """A validated job.  ``mode``: a :class:`Mode` or its name; ``chunk_size`` and
    ``max_hands`` default by mode; ``count_option`` names the count in errors; ``rotate``:
    every unit once per rotation of the bots (the ``rotated_`` mode)."""
    kind = mode_named(mode, rotate)
    chosen = chunk_size is not None
    if chunk_size is None:  # the default, grown for a run so long that it would pass MAX_PARTS files
        chunk_size = max(kind.default_chunk_size(cfg), -(-count // MAX_PARTS))
    max_hands = kind.max_hands(max_hands)
    kind.check(cfg)
    check_run(count_option or kind.option, count, seed, chunk_size, max_hands, kind.rows_per_unit(cfg) or 1,
              kind.rotations(cfg), kind.units, chosen)
    return Job(cfg, kind, count, seed, chunk_size, None if out is None else Path(out), max_hands, label,
               dict(extra_metadata or {}), shape)
