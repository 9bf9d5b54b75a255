"""Jobs: what one result is made of, as a plan of chunks.

A job is a config, a mode, a count, a seed and a chunk size (plus ``max_hands`` for
matches) and, usually, an output directory.  Every way of playing goes through a job:
``unosim run`` (hands, ``--matches``, ``--rotate-seats``), every point of a sweep, the Dask
path and ``unosim duel`` (a job without output).  The job validates its arguments once,
here, and cuts its count into chunks: chunk ``i`` holds units ``start .. start+count-1``
and becomes part file ``i``.  Chunk boundaries never change rows (a hand's randomness
depends on the seed and its index only; a match's on the seed and the match index), they
only decide file boundaries, which is what makes resuming possible.

The modes (:data:`MODES`) differ in what a unit is and what a row adds:

* ``hands``: one row per independent hand (O1);
* ``matches``: a unit is a match (docs/rules.md S1-S3), one row per hand of it;
* ``rotated``: a unit is a deal, played once per rotation of the bots over the seats
  (``rotation`` and ``bot_<s>`` columns; see seating.py);
* ``tournaments``: a unit is a partner-rotation tournament (docs/rules.md T1, 4 or 8
  players), one row per hand of it (see tournaments.py).

``matches`` and ``tournaments`` jobs with ``rotate`` play every unit once per rotation of
the bots (over the seats of a match, over the player numbers of a tournament), on the
same deals, with the ``rotation`` and ``bot_<s>`` columns of ``rotated`` (seating.py).

A new mode (a tournament, a league of bots) is one more :class:`Mode` here, its kernel
call in play.py and its counts in summary.py; the executors, the store and the
commands stay as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

import numpy as np

from unosim.rules.config import RulesConfig, to_params
from unosim.engine.matches import HAND_STRIDE
from unosim.kernel.layout import ENGINE_VERSION
from unosim.run.integrity import PartCheck
from unosim.run.schema import run_metadata
from unosim.run.store import ResultDir
from unosim.run.tournaments import PLAYERS, tournament_rows

__all__ = ["DEFAULT_CHUNK", "DEFAULT_MATCH_CHUNK", "DEFAULT_MAX_HANDS", "DEFAULT_TOURNAMENT_CHUNK",
           "TOURNAMENT_PLAYERS", "tournament_rows", "HAND_STRIDE", "MODES", "ChunkSpec",
           "ChunkPlan", "Job", "Mode", "Progress", "RunError", "chunks", "make_job"]

DEFAULT_CHUNK = 200_000
"""Hands (or deals) per Parquet part file."""
DEFAULT_MATCH_CHUNK = 10_000
"""Matches per Parquet part file (about 150,000-300,000 rows with the official rules)."""
DEFAULT_TOURNAMENT_CHUNK = 10_000
"""Tournaments per Parquet part file (120,000 rows for 4 players with the default
``hands_per_round``)."""
DEFAULT_MAX_HANDS = 10_000
"""Hands after which a match is stopped and flagged ``capped``."""
Progress = Callable[[int], None]


class RunError(Exception):
    """Bad run arguments; the message names the option."""


@dataclass(frozen=True)
class Mode:
    """What sets a mode apart outside the kernel: the manifest key of its count (kept from
    the first results, so old results resume), the option that sets it, its progress unit,
    its default chunk size, and the ``unosim.mode`` its part files carry."""

    name: str
    count_key: str
    option: str
    unit: str
    default_chunk: int
    file_mode: str


MODES: dict[str, Mode] = {m.name: m for m in (
    Mode("hands", "games", "--hands", "hand", DEFAULT_CHUNK, "hands"),
    Mode("matches", "matches", "--matches", "match", DEFAULT_MATCH_CHUNK, "matches"),
    Mode("rotated", "games", "--hands", "hand", DEFAULT_CHUNK, "hands"),
    Mode("tournaments", "tournaments", "--tournaments", "tournament", DEFAULT_TOURNAMENT_CHUNK, "tournaments"),
)}

TOURNAMENT_PLAYERS = PLAYERS
"""The table sizes T1 is defined for (4 or 8)."""


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

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, ChunkPlan)) else NotImplemented


def chunks(total: int, size: int) -> ChunkPlan:
    """(chunk index, first unit, units) covering 0..total-1, as a lazy sequence."""
    return ChunkPlan(total, size)


MAX_COUNT = 10**12
"""Units one run may hold: a million million hands is weeks of this engine on a big machine."""
MAX_CHUNK_ROWS = 5_000_000
"""Rows of one part in memory (about 1 GB while it is built): hands, or deals x players."""
MAX_MATCH_CHUNK = 200_000
"""Matches of one part (each about 15 rows with the official rules)."""


def check_run(option: str, count: int, seed: int, chunk_size: int, max_hands: int | None = None,
              rows_per_unit: int = 1, rotations: int = 1) -> None:
    """The checks every run shares, each a one-line :class:`RunError` naming its option.
    The upper bounds are what fits this machine's memory and a user could mean: past
    them a run would die of a MemoryError after seconds, leaving only a manifest."""
    if not 1 <= count <= MAX_COUNT:
        raise RunError(f"{option}: must be between 1 and {MAX_COUNT:,} (got {count:,})")
    if max_hands is not None:
        top = MAX_MATCH_CHUNK // rotations
    else:
        top = MAX_CHUNK_ROWS // rows_per_unit
    if not 1 <= chunk_size <= top:
        unit = "matches" if max_hands is not None else "hands" if rows_per_unit == 1 else (
            "tournaments" if option == "--tournaments" else "deals")
        raise RunError(f"--chunk-size: must be between 1 and {top:,} {unit} (got {chunk_size:,})")
    if seed < 0 or seed >= 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    if max_hands is not None and not 1 <= max_hands <= HAND_STRIDE:
        raise RunError(f"--max-hands: must be between 1 and {HAND_STRIDE:,} (got {max_hands})")


@dataclass(frozen=True)
class Job:
    """One result to fill (or, with ``out`` None, to play and summarise only).  Build it
    with :func:`make_job`, which validates; the fields are then trusted."""

    cfg: RulesConfig
    mode: str
    count: int
    seed: int
    chunk_size: int
    out: Path | None = None
    max_hands: int | None = None
    label: str = ""
    extra_metadata: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list, compare=False)  # what preparing the output found
    rotate: bool = False  # matches / tournaments: every unit once per rotation of the bots

    @property
    def rotations(self) -> int:
        """How many times each unit is played: once per rotation, or once."""
        return self.cfg.players if self.rotate or self.mode == "rotated" else 1

    @property
    def kind(self) -> Mode:
        return MODES[self.mode]

    @property
    def name(self) -> str:
        """What summaries and progress call this job: its label, else the config's name."""
        return self.label or self.cfg.name

    def manifest(self) -> dict[str, Any]:
        """The result's ``_unosim.json``: the same keys and values as every earlier version
        wrote, so results written before resume (``mode`` stays "hands" when rotated)."""
        m: dict[str, Any] = {"config": self.cfg.to_toml(), "seed": self.seed, self.kind.count_key: self.count,
                             "chunk_size": self.chunk_size}
        if self.mode == "matches":
            m["max_hands"] = self.max_hands
        m["mode"] = self.kind.file_mode
        if self.mode == "rotated" or self.rotate:
            m["rotate_seats"] = True
        return m

    def run_id(self) -> str:
        """The run's identity: a digest of everything that changes its rows (config, seed,
        mode and seat rotation, ``max_hands``, engine version).  Every part carries it, so a
        part of any other run is refused whatever its name or footer says."""
        ident = {"config": self.cfg.to_toml(), "seed": self.seed, "mode": self.mode, "max_hands": self.max_hands,
                 "engine_version": ENGINE_VERSION}
        if self.rotate:  # matches / tournaments once per rotation: other rows, another run
            ident["rotate"] = True
        return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:32]

    def metadata(self, extra: dict[str, Any] | None = None) -> dict[bytes, bytes]:
        """The key-value metadata of every part file (``extra``: the mode's own keys)."""
        more = {**self.extra_metadata, "unosim.count": self.count, "unosim.chunk_size": self.chunk_size,
                "unosim.run_id": self.run_id()}
        if self.mode == "matches":
            more.update({"unosim.max_hands": self.max_hands, "unosim.hand_stride": HAND_STRIDE})
        if self.mode == "tournaments":
            more.update({"unosim.hand_stride": HAND_STRIDE})
        more.update(extra or {})
        return run_metadata(self.cfg, self.seed, self.kind.file_mode, more)

    def params(self) -> np.ndarray:
        return to_params(self.cfg)

    def chunks(self) -> ChunkPlan:
        return chunks(self.count, self.chunk_size)

    def prepare(self, force: bool = False, resume: bool = False, adopt: bool = False) -> set[int]:
        """Create (or check, to resume) the output directory; the chunks already done, each
        part checked against :meth:`part_checks` (what it found goes to :attr:`notes`).
        A job without output has none done."""
        if self.out is None:
            return set()
        result = ResultDir(self.out)
        done = result.prepare(self.manifest(), force=force, resume=resume, adopt=adopt, checks=self.part_check)
        self.notes[:] = result.notes
        return done

    def part_check(self, index: int) -> PartCheck | None:
        """What part ``index`` must be (None: no such chunk in this run): its units' range,
        its row count where the mode fixes it, and this run's identity digest, seed,
        config, mode and engine."""
        plan = self.chunks()
        if not 0 <= index < len(plan):
            return None
        _, start, count = plan[index]
        meta = {k.decode(): v.decode() for k, v in run_metadata(self.cfg, self.seed, self.kind.file_mode).items()}
        same = tuple((k, meta[k]) for k in ("unosim.seed", "unosim.config", "unosim.mode", "unosim.engine_version"))
        same += (("unosim.run_id", self.run_id()),)
        if self.rotate:
            same += (("unosim.rotate_seats", "true"),)
        unit = {"matches": "match", "tournaments": "tournament"}.get(self.mode, "hand")
        per_unit = {"hands": 1, "rotated": self.cfg.players}.get(self.mode)
        if self.mode == "tournaments":
            per_unit = tournament_rows(self.cfg) * self.rotations
        return PartCheck(index, start, count, unit, None if per_unit is None else count * per_unit, same)

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


def make_job(cfg: RulesConfig, mode: str = "hands", count: int = 1, seed: int = 0, *,
             chunk_size: int | None = None, max_hands: int | None = None, out: str | Path | None = None,
             label: str = "", extra_metadata: dict[str, Any] | None = None,
             count_option: str | None = None, rotate: bool = False) -> Job:
    """A validated job.  ``chunk_size`` and ``max_hands`` default by mode;
    ``count_option`` names the count in errors when a command calls it otherwise
    (``unosim duel --hands``).  ``rotate`` (matches, tournaments): every unit once per
    rotation of the bots; the default chunk then holds 1/players as many units, so a part
    keeps about the rows of an unrotated one."""
    if mode not in MODES:
        raise RunError(f"mode: {mode!r} is not one of {', '.join(MODES)}")
    if rotate and mode not in ("matches", "tournaments"):
        raise RunError(f"--rotate-seats: a {mode} job rotates with mode 'rotated' (hands), not this flag")
    kind = MODES[mode]
    rotations = cfg.players if rotate else 1
    if chunk_size is None:
        chunk_size = max(1, kind.default_chunk // rotations)
    if mode == "matches":
        max_hands = DEFAULT_MAX_HANDS if max_hands is None else max_hands
    elif max_hands is not None:
        raise RunError(f"--max-hands: only for matches (this run plays {mode})")
    rows_per_unit = cfg.players if mode == "rotated" else 1
    if mode == "tournaments":
        if cfg.players not in TOURNAMENT_PLAYERS:
            raise RunError(f"--tournaments: a partner-rotation tournament (T1) is for 4 or 8 players; "
                           f"this config has table.players = {cfg.players}")
        rows_per_unit = tournament_rows(cfg) * rotations
    check_run(count_option or kind.option, count, seed, chunk_size, max_hands, rows_per_unit, rotations)
    return Job(cfg, mode, count, seed, chunk_size, None if out is None else Path(out), max_hands, label,
               dict(extra_metadata or {}), rotate=rotate)
