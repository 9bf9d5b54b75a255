"""The file-metadata schema of a result: its ``unosim.*`` keys, their writer and reader.

The writers (:func:`run_metadata` and the runners' extras) and the readers
(:func:`read_metadata`, :class:`RunInfo`) share the key names defined here.  The bytes
written must never change for a given run: values are ``str(value)`` in UTF-8, lists and
dicts JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unosim import __version__
from unosim.kernel.layout import ENGINE_VERSION

if TYPE_CHECKING:  # only attributes are read: the rules layer need not load for a report
    from unosim.rules.config import RulesConfig

PREFIX = "unosim."

# Written for every run by run_metadata, in this order.
VERSION = PREFIX + "version"
ENGINE = PREFIX + "engine_version"
CONFIG = PREFIX + "config"
CONFIG_NAME = PREFIX + "config_name"
SEED = PREFIX + "seed"
PLAYERS = PREFIX + "players"
TEAMS = PREFIX + "teams"
MATCH_TARGET = PREFIX + "match_target"
BOTS = PREFIX + "bots"
BOT_PARAMS = PREFIX + "bot_params"
MODE = PREFIX + "mode"  # the file mode of run/modes.py: hands, matches or tournaments
FINISH = PREFIX + "finish"

# Optional: match play (S1-S3) adds the hand cap and the hand-index stride.
MAX_HANDS = PREFIX + "max_hands"
HAND_STRIDE = PREFIX + "hand_stride"
# Optional: a sweep point adds the sweep's name, mode, varied keys, strata, base values
# (read by the balance report) and the point's label.
SWEEP = PREFIX + "sweep"
SWEEP_MODE = PREFIX + "sweep_mode"
SWEEP_KEYS = PREFIX + "sweep_keys"
SWEEP_STRATA = PREFIX + "sweep_strata"
SWEEP_BASE = PREFIX + "sweep_base"
SWEEP_POINT = PREFIX + "sweep_point"
# Optional: rotated seats add the flag, the number of rotations and the bot labels.
# Optional: the run's plan (its count and chunk size), so `unosim repair` can rebuild a
# lost manifest from any one part.
COUNT = PREFIX + "count"
CHUNK_SIZE = PREFIX + "chunk_size"
ROTATE_SEATS = PREFIX + "rotate_seats"
ROTATIONS = PREFIX + "rotations"
BOT_LABELS = PREFIX + "bot_labels"
RUN_ID = PREFIX + "run_id"
# The layout and columns of the parts (unosim.run.dataset.SCHEMA_VERSION; absent: 1), and a
# sweep point's varied keys -> their values as text.
SCHEMA_VERSION = PREFIX + "schema_version"
SWEEP_VALUES = PREFIX + "sweep_values"

REQUIRED_KEYS = (VERSION, ENGINE, CONFIG, CONFIG_NAME, SEED, PLAYERS, TEAMS, MATCH_TARGET,
                 BOTS, BOT_PARAMS, MODE, FINISH)  # fmt: skip
OPTIONAL_KEYS = (MAX_HANDS, HAND_STRIDE, SWEEP, SWEEP_MODE, SWEEP_KEYS, SWEEP_STRATA,
                 SWEEP_BASE, SWEEP_POINT, COUNT, CHUNK_SIZE, ROTATE_SEATS, ROTATIONS, BOT_LABELS,
                 RUN_ID, SCHEMA_VERSION, SWEEP_VALUES)  # fmt: skip


def run_metadata(cfg: RulesConfig, seed: int, mode: str, extra: dict[str, Any] | None = None) -> dict[bytes, bytes]:
    """The key-value metadata every part file carries: the required keys, then ``extra``
    (full ``unosim.*`` keys from :data:`OPTIONAL_KEYS`)."""
    meta: dict[str, Any] = {
        VERSION: __version__,
        ENGINE: ENGINE_VERSION,
        CONFIG: cfg.to_toml(),
        CONFIG_NAME: cfg.name,
        SEED: seed,
        PLAYERS: cfg.players,
        TEAMS: cfg.teams,
        MATCH_TARGET: cfg.match_target,
        BOTS: json.dumps([s for s, _ in cfg.seats]),
        BOT_PARAMS: json.dumps([p for _, p in cfg.seats]),
        MODE: mode,
        FINISH: cfg.finish,
    }
    meta.update(extra or {})
    return {k.encode(): str(v).encode() for k, v in meta.items()}


def decode(meta: Mapping[bytes, bytes] | Mapping[str, str] | None) -> dict[str, str]:
    """The ``unosim.*`` entries of a file's key-value metadata as text, full keys kept
    (undecodable bytes become U+FFFD)."""
    out: dict[str, str] = {}
    for k, v in (meta or {}).items():
        key = k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)
        if key.startswith(PREFIX):
            out[key] = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    return out


def first_part(path: str | Path) -> Path:
    """The file whose metadata stands for a result: the file itself, or the first part of
    a result directory (every part of a run carries the same metadata)."""
    p = Path(path)
    if p.is_dir():
        parts = sorted(p.glob("**/part-*.parquet"))
        if not parts:
            raise FileNotFoundError(f"{p}: no result files in this directory")
        p = parts[0]
    return p


def read_metadata(path: str | Path) -> dict[str, str]:
    """The unosim metadata of a result file or directory (from its first part), as the
    written strings under their full keys (``meta["unosim.seed"] == "18"``)."""
    import pyarrow.parquet as pq

    return decode(pq.read_schema(first_part(path)).metadata)


def _int_or(text: str | None, default: Any) -> Any:
    try:
        return int(str(text))
    except (TypeError, ValueError):
        return default


def _json_or(text: str | None, default: Any) -> Any:
    if text is None:
        return default
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return default


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


@dataclass(frozen=True)
class RunInfo:
    """The metadata of one result, typed.  ``raw`` keeps the written strings (prefix
    stripped: ``raw["seed"]``) for keys this class does not know."""

    config_name: str
    players: int
    teams: int
    bots: tuple[str, ...]
    mode: str
    finish: str
    match_target: int | None
    seed: int | None
    version: str
    engine_version: str
    config_text: str = field(repr=False)
    raw: Mapping[str, str] = field(repr=False)
    bot_params: tuple[Any, ...] = ()
    max_hands: int | None = None
    hand_stride: int | None = None
    sweep: str | None = None
    sweep_mode: str | None = None
    sweep_keys: tuple[str, ...] = ()
    sweep_strata: tuple[str, ...] = ()
    sweep_base: Mapping[str, Any] | None = None
    sweep_point: str | None = None
    rotate_seats: bool = False
    rotations: int | None = None
    bot_labels: tuple[str, ...] = ()

    @classmethod
    def from_metadata(cls, meta: Mapping[bytes, bytes] | Mapping[str, str] | None,
                      names: Sequence[str]) -> RunInfo:
        """Parse a file's metadata; fall back on its column ``names`` where keys are absent.
        A malformed value reads as absent rather than failing the report."""
        full = decode(meta)
        get = full.get
        seats = sum(1 for c in names if c.startswith("points_"))
        players = _int_or(get(PLAYERS), seats or 0)
        bots = _strings(_json_or(get(BOTS, "[]"), []))
        if len(bots) == 1 and players > 1:
            bots = bots * players
        params = _json_or(get(BOT_PARAMS), [])
        base = _json_or(get(SWEEP_BASE), None)
        return cls(
            config_name=get(CONFIG_NAME, ""),
            players=players,
            teams=_int_or(get(TEAMS), 1) or 1,
            bots=bots,
            mode=get(MODE) or ("matches" if "match" in names else "hands"),
            finish=get(FINISH, "first_out"),
            match_target=_int_or(get(MATCH_TARGET), None),
            seed=_int_or(get(SEED), None),
            version=get(VERSION, ""),
            engine_version=get(ENGINE, ""),
            config_text=get(CONFIG, ""),
            raw={k[len(PREFIX):]: v for k, v in full.items()},
            bot_params=tuple(params) if isinstance(params, list) else (),
            max_hands=_int_or(get(MAX_HANDS), None),
            hand_stride=_int_or(get(HAND_STRIDE), None),
            sweep=get(SWEEP),
            sweep_mode=get(SWEEP_MODE),
            sweep_keys=_strings(_json_or(get(SWEEP_KEYS), [])),
            sweep_strata=_strings(_json_or(get(SWEEP_STRATA), [])),
            sweep_base=base if isinstance(base, dict) else None,
            sweep_point=get(SWEEP_POINT),
            rotate_seats=get(ROTATE_SEATS) == "true",
            rotations=_int_or(get(ROTATIONS), None),
            bot_labels=_strings(_json_or(get(BOT_LABELS), [])),
        )

    @classmethod
    def read(cls, path: str | Path) -> RunInfo:
        """The typed metadata of a result file or directory (from its first part)."""
        import pyarrow.parquet as pq

        schema = pq.read_schema(first_part(path))
        return cls.from_metadata(schema.metadata, schema.names)

    @property
    def seats(self) -> list[tuple[str, Any]]:
        """(strategy, parameters) per seat, as the config placed them."""
        from unosim.run.bots_text import seats_of

        return seats_of(self.bots, self.bot_params)

    @property
    def seat_labels(self) -> list[str]:
        """Each config seat's bot as a rotated run's ``bot_<s>`` columns name it (its name,
        else its strategy and changed parameters): two bots of one strategy stay apart."""
        from unosim.run.seating import bot_label

        return [bot_label(name, dict(params)) for name, params in self.seats]

    def summary(self) -> dict[str, str]:
        """The short metadata a rendered report shows (the config TOML is left out)."""
        from unosim.run.bots_text import seating_text

        out = {
            "config_name": self.config_name,
            "players": str(self.players),
            "teams": str(self.teams),
            "bots": ",".join(self.bots),
            "seating": (seating_text(self.seats) + ("; seats rotated" if self.rotate_seats else "")
                        if self.bots else ""),
            "mode": self.mode,
            "finish": self.finish,
            "seed": self.raw.get("seed", ""),
            "version": self.version,
            "engine_version": self.engine_version,
        }
        if self.match_target is not None:
            out["match_target"] = str(self.match_target)
        return out
