"""Rules configs: a validated :class:`RulesConfig`, TOML loading, and the kernel's ``P`` array.

Every key is declared once in the registry (:mod:`unosim.rules.keys`) and checked by
:mod:`unosim.rules.validate`; this module puts them together: :func:`load_config`,
:func:`parse_config`, :func:`default_config`, the canonical TOML dump
(:meth:`RulesConfig.to_toml`) and :func:`to_params`.  It is the public face of the rules
layer, so the registry's names are importable from here too.

Bots come from the strategies' registry, :mod:`unosim.rules.strategies`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from unosim.rules import cards
from unosim.rules import params as slots
from unosim.rules.keys import (BY_SECTION, KEYS, REGISTRY, SECTIONS, ConfigError, Key, describe_keys,
                               rules_markdown, toml_value)
from unosim.rules.strategies import STRATEGIES, watches
from unosim.rules.validate import (Strategies, check_cross, check_seats, check_value, deck_count, did_you_mean, key_in,
                                   read_toml, safe_name, type_name)

RULES = ("C1",)

__all__ = [
    "KEYS", "SECTIONS", "ConfigError", "Key", "RulesConfig",
    "default_config", "describe_keys", "load_config", "parse_config", "rules_markdown",
    "default_params", "encode_rollout", "encode_seat", "safe_name", "seat_entry", "strategies", "to_params",
]


# --------------------------------------------------------------------------- bot strategies


def strategies() -> Strategies:
    """The bot registry (:data:`unosim.rules.strategies.STRATEGIES`)."""
    return STRATEGIES


def default_params(strategy: str) -> dict[str, Any]:
    """A strategy's parameters at their defaults, in its order ({} for an unknown name)."""
    return {p: d for p, (d, _) in STRATEGIES.get(strategy, (0, {}))[1].items()}


def seat_entry(strategy: str, params: Mapping[str, Any]) -> str | dict[str, Any]:
    """A seat's ``[bots] seats`` entry: the bare name when every parameter is its default."""
    return strategy if params == default_params(strategy) else {"strategy": strategy, **params}


# --------------------------------------------------------------------------- the config


def _default_seats() -> tuple[tuple[str, dict[str, Any]], ...]:
    name = KEYS["seats"].default
    return tuple((name, default_params(name)) for _ in range(KEYS["players"].default))


# A key's type in the record: the Python type of its value ("rank" and number keys with
# words such as decks = "auto" also hold a string).
_FIELD_TYPES = {"int": "int", "float": "float", "bool": "bool", "enum": "str", "rank": "int | str", "str": "str"}


def _registry_fields(cls: type) -> type:
    """Give the record one field per registry key, in registry order and with the key's
    default, before the fields the class itself declares (``seats``, ``source``): a new
    key in :data:`unosim.rules.keys.REGISTRY` is a new field here without an edit."""
    own = dict(cls.__dict__.get("__annotations__", {}))
    fields: dict[str, Any] = {}
    for k in REGISTRY:
        if k.name in own:
            continue
        fields[k.name] = _FIELD_TYPES[k.type] + (" | str" if k.words else "")
        setattr(cls, k.name, k.default)
    cls.__annotations__ = {**fields, **own}
    return cls


@dataclass(frozen=True)
@_registry_fields
class RulesConfig:
    """A validated rules config: every key's typed value, the bot of every seat.

    Build it with :func:`load_config`, :func:`parse_config` or :func:`default_config` (which
    validate).  Its fields are made from the key registry (one per key, the registry
    default as the field default), then ``seats`` and ``source``.  ``seats`` holds one
    ``(strategy, params)`` per seat with every parameter resolved (defaults filled in, in
    the strategy's order).  ``source`` is the TOML text it was read from (None if built
    in code); it does not take part in equality."""

    seats: tuple[tuple[str, dict[str, Any]], ...] = field(default_factory=_default_seats)
    source: str | None = field(default=None, compare=False, repr=False)

    @property
    def deck_count(self) -> int:
        """The decks this table plays with: ``decks``, or what ``"auto"`` became (H20)."""
        return deck_count(self.decks, self.players)

    def value(self, key: str) -> Any:
        """Value of ``key`` given as ``section.key`` or bare name."""
        return getattr(self, _lookup(key).name)

    def to_dict(self) -> dict[str, Any]:
        """The config as the nested dict TOML would give (``parse_config`` inverts it).

        Seats that are all the same bot collapse to one entry (a name, or an inline table
        when its parameters are not the defaults), so a changed ``players`` re-expands."""
        out: dict[str, Any] = {"name": self.name}
        for section in SECTIONS:
            out[section] = {k.name: getattr(self, k.name) for k in BY_SECTION[section] if k.type != "seats"}
        out["bots"]["seats"] = self._seats_spec()
        return out

    def flat(self) -> dict[str, Any]:
        """``section.key -> value`` for every key but ``seats`` (result metadata, sweeps)."""
        return {k.full: getattr(self, k.name) for k in REGISTRY if k.type != "seats"}

    def _seats_spec(self) -> Any:
        if all(s == self.seats[0] for s in self.seats):
            return seat_entry(*self.seats[0])
        return [seat_entry(*s) for s in self.seats]

    def to_toml(self) -> str:
        """Canonical TOML: every key with its resolved value and a comment naming its rule
        ids, meaning and allowed values.  ``parse_config(tomllib.loads(...))`` gives back an
        equal config; ``configs/standard.toml`` is this for the defaults."""
        lines = ["# unosim rules config (docs/rules.md C1). Every key is optional; the defaults are the",
                 "# official rules and every house rule (H*) is off.", ""]

        def emit(k: Key, value: Any) -> None:
            lines.append(f"# {' '.join(k.rules)}: {k.doc}")
            allowed = "" if k.type in ("str", "seats") else f"  # {k.allowed()}"
            lines.append(f"{k.name} = {toml_value(value)}{allowed}")
            if k.name == "decks" and value == "auto":  # H20: the config records what it became
                lines.append(f"# decks = \"auto\" became {self.deck_count} for {self.players} players")

        emit(KEYS["name"], self.name)
        d = self.to_dict()
        for section in SECTIONS:
            lines += ["", f"[{section}]"]
            for k in BY_SECTION[section]:
                if section == "rules" and k is KEYS["stacking"]:
                    lines += ["", "# House rules (off by default)."]
                emit(k, d[section][k.name])
        return "\n".join(lines) + "\n"

    def with_values(self, changes: Mapping[str, Any]) -> RulesConfig:
        """A new validated config with some keys changed, e.g. for a sweep:
        ``cfg.with_values({"rules.stacking": "draw2", "players": 6})``.  Keys may be
        ``section.key`` or bare.  Uniform seats follow a change of ``players``."""
        d = self.to_dict()
        for key, value in changes.items():
            k = _lookup(key)
            if k.section:
                d[k.section][k.name] = value
            else:
                d[k.name] = value
        return parse_config(d)

    def replace(self, **changes: Any) -> RulesConfig:
        """Keyword form of :meth:`with_values`: ``cfg.replace(stacking="draw2")``."""
        return self.with_values(changes)


def _lookup(key: str) -> Key:
    """Registry record for ``section.key`` or a bare key name."""
    section, _, name = key.rpartition(".")
    k = KEYS.get(name)
    if k is None or (section and section != k.section):
        hint = did_you_mean(key, [x.full for x in REGISTRY]) if section else did_you_mean(name, list(KEYS))
        raise ConfigError(f"unknown key {key!r}{hint}; valid keys: {', '.join(x.full for x in REGISTRY)}", key)
    return k


# --------------------------------------------------------------------------- loading & validation


def load_config(path: str | Path) -> RulesConfig:
    """Read and validate a TOML rules config.  Every problem is a one-line ConfigError.
    A file without ``name`` is labelled by its file name (stem)."""
    p = Path(path)
    text, data = read_toml(p, "config")
    data.setdefault("name", safe_name(p.stem))
    return parse_config(data, source_text=text)


def default_config(**changes: Any) -> RulesConfig:
    """The official rules (every key at its default), optionally with some keys changed:
    ``default_config(players=2)``."""
    cfg = parse_config({})
    return cfg.with_values(changes) if changes else cfg


def parse_config(data: Mapping[str, Any], source_text: str | None = None) -> RulesConfig:
    """Validate a config given as the nested dict ``tomllib`` returns.

    Checks, in order: sections and key names (C1), each value's type and range, then the
    cross-key rules (R2 deal size, H12 teams) and the seats against :func:`strategies`."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"a config is a table of sections, got {type_name(data)}")
    values: dict[str, Any] = {k.name: k.default for k in REGISTRY}
    given: set[str] = set()
    problems: list[ConfigError] = []  # every key's problem at once: two typos need not two runs
    for top, body in data.items():
        try:
            if top in SECTIONS:
                if not isinstance(body, Mapping):
                    raise ConfigError(f"[{top}] must be a table of keys, got {type_name(body)}", top)
                for name, raw in body.items():
                    try:
                        values[name] = check_value(key_in(top, name), raw)
                        given.add(name)
                    except ConfigError as e:
                        problems.append(e)
            elif top == "name":
                values["name"] = check_value(KEYS["name"], body)
            elif isinstance(body, Mapping):
                hint = did_you_mean(top, SECTIONS)
                raise ConfigError(f"unknown section [{top}]{hint}; sections are: {', '.join(SECTIONS)} "
                                  f"(and the top-level key name)", top)
            else:
                key_in("", top)  # raises: misplaced or unknown top-level key
        except ConfigError as e:
            problems.append(e)
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise ConfigError(f"{len(problems)} problems: " + " | ".join(str(e) for e in problems), problems[0].key)

    check_cross(values)
    values["seats"] = check_seats(values["seats"], values["players"], strategies())
    return RulesConfig(**values, source=source_text)


# --------------------------------------------------------------------------- the kernel's P


def encode_seat(strategy: str, params: dict) -> np.ndarray:
    """The ``BOT_STRIDE`` floats of one seat's bot in ``P`` (at ``slots.seat_slots(seat)``):
    its strategy code, then its parameters in the strategy's order (bools 0/1, enum
    strings as their index), zeros after."""
    code, spec = strategies()[strategy]
    block = np.zeros(slots.BOT_STRIDE)
    block[0] = float(code)
    for i, (p, (_, allowed)) in enumerate(spec.items()):
        v = params[p]
        if isinstance(v, Mapping):  # a whole rollout bot: its strategy here, the bot in encode_rollout
            v = v["strategy"]
        block[1 + i] = float(allowed.index(v)) if isinstance(v, str) else float(v)
    return block


def encode_rollout(strategy: str, params: dict) -> np.ndarray:
    """The ``BOT_STRIDE`` floats at ``slots.rollout_slots(seat)``: for a ``search`` seat its
    rollout bot as :func:`encode_seat` writes a seat (a name: that strategy at its defaults);
    for any other seat code -1 (nothing there)."""
    if strategy != "search":
        block = np.zeros(slots.BOT_STRIDE)
        block[0] = -1.0
        return block
    bot = params["rollout_bot"]
    if isinstance(bot, Mapping):
        return encode_seat(bot["strategy"], bot)
    return encode_seat(bot, default_params(bot))


def to_params(cfg: RulesConfig) -> np.ndarray:
    """The float64 vector ``P`` (length ``slots.N_PARAMS``) the kernel reads.

    Every registry key with a slot is encoded there (see :meth:`Key.encode`); the point
    table goes to ``P_SCORE0..+53`` (R1, H17, H5 giveaway); seat ``s`` gets its bot
    (:func:`encode_seat`) at ``slots.seat_slots(s)`` and, for a search seat, its rollout bot
    (:func:`encode_rollout`) at ``slots.rollout_slots(s)``.  Seats beyond ``players`` get code -1."""
    P = np.zeros(slots.N_PARAMS, dtype=np.float64)
    for k in REGISTRY:
        if k.name in slots.SLOTS:
            P[slots.SLOTS[k.name]] = k.encode(getattr(cfg, k.name)) if k.name != "decks" else float(cfg.deck_count)
    P[slots.P_SCORE0:slots.P_SCORE0 + cards.N_KINDS] = cards.point_table(
        cfg.zero_points, cfg.red_zero == "giveaway")
    for s in range(slots.MAX_PLAYERS):
        if s >= cfg.players:
            P[slots.seat_slots(s).start] = -1.0
            P[slots.rollout_slots(s).start] = -1.0
            continue
        P[slots.seat_slots(s)] = encode_seat(*cfg.seats[s])
        P[slots.rollout_slots(s)] = encode_rollout(*cfg.seats[s])
    P[slots.P_WATCHERS] = float(any(watches(name, params) for name, params in cfg.seats))
    return P


assert {f.name for f in dataclasses.fields(RulesConfig)} - {"source"} == set(KEYS), "RulesConfig fields != KEYS"
