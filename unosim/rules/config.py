"""Rules configs: one key registry, TOML loading, validation, the kernel's ``P`` array.

Every config key of docs/rules.md is declared once, in :data:`KEYS` (OpenSpiel-style): its
section, type, allowed values, default, rule ids, a one-line meaning, the ``P_*`` slot of
:mod:`unosim.rules.params` it fills, and whether the engine supports it yet.  Validation,
``unosim rules``, the README table (:func:`rules_markdown`), the canonical TOML dump
(:meth:`RulesConfig.to_toml`) and :func:`to_params` are all driven by that one table, so a
new key is one new record.

House rules land one at a time: a key whose record says ``built=False`` may only be left at
its default; anything else is refused (``rules.stacking: house rule H1 is not supported
yet``).  When the engine implements it, flip ``built=False`` to ``built=True`` (or delete
the flag) in its record; nothing else changes.

Bots come from the strategies' registry, :mod:`unosim.rules.strategies`.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from unosim.rules import cards
from unosim.rules import codes
from unosim.rules import params as slots
from unosim.rules.strategies import STRATEGIES, WATCHERS

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - pyproject allows 3.10 with tomli
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = [
    "BUILT_KEYS", "KEYS", "SECTIONS", "ConfigError", "Key", "RulesConfig",
    "default_config", "describe_keys", "load_config", "parse_config", "rules_markdown",
    "strategies", "to_params",
]


class ConfigError(ValueError):
    """A config that cannot be run.  The message is one line and names the key
    (``section.key``) and what is allowed, so the CLI can print it as is.  ``key`` holds the
    offending key (``""`` when the problem is the file itself)."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


# --------------------------------------------------------------------------- the registry

SECTIONS = ("table", "rules", "scoring", "bots")  # C1; ``name`` is the one top-level key

# Value types.  "rank" is "none" or a card number 0-9; "seats" is the [bots] entry.
_TYPES = ("int", "float", "bool", "enum", "rank", "str", "seats")


@dataclass(frozen=True)
class Key:
    """One config key.  ``slot`` is the ``slots.P_*`` index it fills (None: not a rules
    switch).  Encoding in ``P``: enum -> index of the value in ``choices`` (the named code
    of :mod:`unosim.rules.codes`), bool -> 0/1, rank -> the number or -1 for "none", numbers as is."""

    name: str
    section: str            # "" for the top-level ``name``
    type: str
    default: Any
    rules: tuple[str, ...]
    doc: str
    slot: int | None = None
    choices: tuple[str, ...] = ()
    lo: float | None = None
    hi: float | None = None  # None: no upper bound
    built: bool = True

    @property
    def full(self) -> str:
        """``section.key`` as used in messages and in :meth:`RulesConfig.with_values`."""
        return f"{self.section}.{self.name}" if self.section else self.name

    def allowed(self) -> str:
        """Allowed values in words, for messages, ``unosim rules`` and the README."""
        if self.type == "enum":
            return ", ".join(self.choices)
        if self.type == "bool":
            return "true, false"
        if self.type == "rank":
            return f'"none" or {int(self.lo)}-{int(self.hi)}'
        if self.type in ("int", "float"):
            num = int if self.type == "int" else float
            lo = num(self.lo)
            return f"{lo} or more" if self.hi is None else f"{lo}-{num(self.hi)}"
        if self.type == "seats":
            return "a strategy name for every seat, or a list with one per seat"
        return NAME_RULE

    def encode(self, value: Any) -> float:
        """The number this key's value becomes in ``P``."""
        if self.type == "enum":
            return float(self.choices.index(value))
        if self.type == "bool":
            return 1.0 if value else 0.0
        if self.type == "rank":
            return -1.0 if value == "none" else float(value)
        return float(value)


def _k(section: str, name: str, type_: str, default: Any, rules: str, doc: str, slot: int | None = None,
       choices: Any = (), lo: float | None = None, hi: float | None = None, built: bool = True) -> Key:
    """Compact record constructor: ``rules`` is space-separated; an enum's ``choices`` is its
    NamedTuple of :mod:`unosim.rules.codes`, whose field order is the code the kernel reads."""
    return Key(name, section, type_, default, tuple(rules.split()), doc, slot, tuple(getattr(choices, "_fields", ())),
               lo, hi, built)


# The registry.  Order = order in configs, the README table and `unosim rules`.
# Enum ``choices`` come from unosim.rules.codes: the order there is the code the kernel reads.
_REGISTRY: tuple[Key, ...] = (
    _k("", "name", "str", "standard", "C1",
       "label stored with every result and the default output name (runs/<name>.parquet)"),
    # [table]
    _k("table", "players", "int", 4, "R2", "players at the table, seats 0..n-1",
       slots.P_PLAYERS, lo=2, hi=slots.MAX_PLAYERS),
    _k("table", "decks", "int", 1, "R1", "108-card decks shuffled together",
       slots.P_DECKS, lo=1, hi=slots.MAX_CARDS // 108),
    _k("table", "hand_size", "int", 7, "R2", "cards dealt to each player",
       slots.P_HAND_SIZE, lo=1, hi=30),
    _k("table", "dealer", "enum", "rotate", "R4 E4",
       "who deals the next hand: the next seat, the last winner, a random seat, or always the last seat",
       slots.P_DEALER, codes.Dealer),
    # [rules] official rules and their variants
    _k("rules", "first_card", "enum", "any", "R3 H16",
       "the turned first card: any card, or turn until a number card shows",
       slots.P_FIRST_CARD, codes.FirstCard),
    _k("rules", "first_draw2_skips", "bool", True, "R3 H15",
       "a turned Draw Two makes the first player draw and lose the turn (false: draw, then play)",
       slots.P_FIRST_DRAW2_SKIPS),
    _k("rules", "play_drawn", "enum", "may", "R6",
       "a legal drawn card may be played at once, must be, or never is",
       slots.P_PLAY_DRAWN, codes.PlayDrawn),
    _k("rules", "voluntary_draw", "bool", True, "R7 H8",
       "a player may draw instead of playing a legal card (false: forced play)",
       slots.P_VOLUNTARY_DRAW),
    _k("rules", "wild_draw4", "enum", "restricted", "R8 E1",
       "Wild Draw Four only without a card of the current colour (bluffs possible), any time, "
       "or only when nothing else plays",
       slots.P_WILD_DRAW4, codes.WildDraw4),
    _k("rules", "challenge", "bool", True, "R8",
       "the next player may challenge a restricted Wild Draw Four",
       slots.P_CHALLENGE),
    _k("rules", "challenge_success_skip", "bool", False, "R8 H9",
       "a challenger who proves a bluff still loses the turn",
       slots.P_CHALLENGE_SKIP),
    _k("rules", "two_player_reverse", "enum", "skip", "R9 H14",
       "with 2 players a Reverse acts as a Skip, or has no effect",
       slots.P_TWO_PLAYER_REVERSE, codes.TwoPlayerReverse),
    _k("rules", "uno_forget", "float", 0.0, "R10",
       "chance that a bot forgets to call UNO on its second-to-last card",
       slots.P_UNO_FORGET, lo=0.0, hi=1.0),
    _k("rules", "uno_caught", "float", 1.0, "R10",
       "chance that a forgotten UNO is caught (the player draws 2)",
       slots.P_UNO_CAUGHT, lo=0.0, hi=1.0),
    _k("rules", "drawn_match", "enum", "any", "R6 E2",
       "a drawn card may be played if it is legal, or only if it is wild or of the colour in force",
       slots.P_DRAWN_MATCH, codes.DrawnMatch),
    _k("rules", "drawn_draw4", "enum", "draw4", "R6 E3",
       "a drawn Wild Draw Four played at once acts as a Wild Draw Four, or as a plain Wild",
       slots.P_DRAWN_DRAW4, codes.DrawnDraw4),
    _k("rules", "max_turns", "int", 5000, "R13",
       "turns after which a hand stops with no winner, flagged stalled",
       slots.P_MAX_TURNS, lo=1, hi=1_000_000),
    _k("rules", "draw2_amount", "int", 2, "H18", "cards a Draw Two makes the next player draw",
       slots.P_DRAW2_AMOUNT, lo=0, hi=50),
    _k("rules", "draw4_amount", "int", 4, "H18", "cards a Wild Draw Four makes the next player draw",
       slots.P_DRAW4_AMOUNT, lo=0, hi=50),
    _k("rules", "challenge_extra", "int", 2, "H18",
       "extra cards a challenger draws when the Wild Draw Four was legal",
       slots.P_CHALLENGE_EXTRA, lo=0, hi=50),
    # [rules] house rules, off by default
    _k("rules", "stacking", "enum", "none", "H1",
       "draw cards stack on draw cards: no, Draw Two on Draw Two, also Wild Draw Four, or all",
       slots.P_STACKING, codes.Stacking),
    _k("rules", "jump_in", "enum", "none", "H2",
       "an identical card may be played out of turn: never, numbers, coloured cards, or all",
       slots.P_JUMP_IN, codes.JumpIn),
    _k("rules", "jump_in_stack", "enum", "replace", "H2",
       "jumped-in draw cards: only the last one counts, or the penalties add up",
       slots.P_JUMP_IN_STACK, codes.JumpInStack),
    _k("rules", "draw", "enum", "one", "H3",
       "a player with no legal card draws one card, or until a legal card shows",
       slots.P_DRAW, codes.Draw),
    _k("rules", "seven_o", "bool", False, "H4",
       "a 0 passes every hand on, a 7 swaps hands with a chosen opponent",
       slots.P_SEVEN_O),
    _k("rules", "red_zero", "enum", "none", "H5",
       "the red 0: a plain 0, a +10, or a giveaway of all but one card (then worth 100)",
       slots.P_RED_ZERO, codes.RedZero),
    _k("rules", "multi_play", "enum", "none", "H6",
       "several cards at once: no, identical cards, or cards of one number or symbol",
       slots.P_MULTI_PLAY, codes.MultiPlay),
    _k("rules", "wild_last", "bool", True, "H7",
       "a Wild or Wild Draw Four may be the last card (false: it may not)",
       slots.P_WILD_LAST),
    _k("rules", "slap_rank", "rank", "none", "H10",
       "a played card of this number makes the slowest slapper draw 2",
       slots.P_SLAP_RANK, lo=0, hi=9),
    _k("rules", "silent_rank", "rank", "none", "H11",
       "a played card of this number starts a silence",
       slots.P_SILENT_RANK, lo=0, hi=9),
    _k("rules", "noise_chance", "float", 0.0, "H11",
       "chance per turn that someone breaks a silence and draws 2",
       slots.P_NOISE_CHANCE, lo=0.0, hi=1.0),
    # teams: 1 (no teams) or t teams of players/t >= 2 seats each; see _check_cross.
    _k("rules", "teams", "int", 1, "H12",
       "teams, seat s playing for team s mod teams (1: no teams)",
       slots.P_TEAMS, lo=1, hi=slots.MAX_PLAYERS // 2),
    _k("rules", "finish", "enum", "first_out", "H13",
       "a hand ends when the first player is out, or goes on until one player is left",
       slots.P_FINISH, codes.Finish),
    # [scoring]
    _k("scoring", "zero_points", "int", 0, "R1 H17", "points of a 0 left in a hand",
       slots.P_ZERO_POINTS, lo=0, hi=50),
    _k("scoring", "match_target", "int", 500, "S1 S2 H19", "total that ends a match",
       slots.P_MATCH_TARGET, lo=1, hi=1_000_000),
    # [bots]
    _k("bots", "seats", "seats", "random", "B0",
       "the bot of every seat; a list entry may be an inline table {strategy = \"name\", <param> = value}"),
)

KEYS: dict[str, Key] = {k.name: k for k in _REGISTRY}
"""Every config key by its bare name (bare names are unique across sections)."""

BUILT_KEYS: frozenset[str] = frozenset(k.name for k in _REGISTRY if k.built)
"""Keys the engine supports; the others may only hold their default."""

_BY_SECTION: dict[str, tuple[Key, ...]] = {
    s: tuple(k for k in _REGISTRY if k.section == s) for s in ("",) + SECTIONS
}

# --------------------------------------------------------------------------- bot strategies

Strategies = Mapping[str, tuple[int, Mapping[str, tuple[Any, Any]]]]


def strategies() -> Strategies:
    """The bot registry (:data:`unosim.rules.strategies.STRATEGIES`)."""
    return STRATEGIES


# --------------------------------------------------------------------------- the config


def _d(name: str) -> Any:
    return KEYS[name].default


def _default_seats() -> tuple[tuple[str, dict[str, Any]], ...]:
    return tuple((KEYS["seats"].default, {}) for _ in range(KEYS["players"].default))


@dataclass(frozen=True)
class RulesConfig:
    """A validated rules config: every key's typed value, the bot of every seat.

    Build it with :func:`load_config`, :func:`parse_config` or :func:`default_config` (which
    validate); the field defaults are the registry defaults.  ``seats`` holds one
    ``(strategy, params)`` per seat with every parameter resolved (defaults filled in, in
    the strategy's order).  ``source`` is the TOML text it was read from (None if built
    in code); it does not take part in equality."""

    name: str = _d("name")
    # [table]
    players: int = _d("players")
    decks: int = _d("decks")
    hand_size: int = _d("hand_size")
    dealer: str = _d("dealer")
    # [rules]
    first_card: str = _d("first_card")
    first_draw2_skips: bool = _d("first_draw2_skips")
    play_drawn: str = _d("play_drawn")
    voluntary_draw: bool = _d("voluntary_draw")
    wild_draw4: str = _d("wild_draw4")
    challenge: bool = _d("challenge")
    challenge_success_skip: bool = _d("challenge_success_skip")
    two_player_reverse: str = _d("two_player_reverse")
    uno_forget: float = _d("uno_forget")
    uno_caught: float = _d("uno_caught")
    drawn_match: str = _d("drawn_match")
    drawn_draw4: str = _d("drawn_draw4")
    max_turns: int = _d("max_turns")
    draw2_amount: int = _d("draw2_amount")
    draw4_amount: int = _d("draw4_amount")
    challenge_extra: int = _d("challenge_extra")
    stacking: str = _d("stacking")
    jump_in: str = _d("jump_in")
    jump_in_stack: str = _d("jump_in_stack")
    draw: str = _d("draw")
    seven_o: bool = _d("seven_o")
    red_zero: str = _d("red_zero")
    multi_play: str = _d("multi_play")
    wild_last: bool = _d("wild_last")
    slap_rank: int | str = _d("slap_rank")
    silent_rank: int | str = _d("silent_rank")
    noise_chance: float = _d("noise_chance")
    teams: int = _d("teams")
    finish: str = _d("finish")
    # [scoring]
    zero_points: int = _d("zero_points")
    match_target: int = _d("match_target")
    # [bots]
    seats: tuple[tuple[str, dict[str, Any]], ...] = field(default_factory=_default_seats)
    source: str | None = field(default=None, compare=False, repr=False)

    def value(self, key: str) -> Any:
        """Value of ``key`` given as ``section.key`` or bare name."""
        return getattr(self, _lookup(key).name)

    def to_dict(self) -> dict[str, Any]:
        """The config as the nested dict TOML would give (``parse_config`` inverts it).

        Seats that are all the same bot collapse to one entry (a name, or an inline table
        when its parameters are not the defaults), so a changed ``players`` re-expands."""
        out: dict[str, Any] = {"name": self.name}
        for section in SECTIONS:
            out[section] = {k.name: getattr(self, k.name) for k in _BY_SECTION[section] if k.type != "seats"}
        out["bots"]["seats"] = self._seats_spec()
        return out

    def flat(self) -> dict[str, Any]:
        """``section.key -> value`` for every key but ``seats`` (result metadata, sweeps)."""
        return {k.full: getattr(self, k.name) for k in _REGISTRY if k.type != "seats"}

    def _seats_spec(self) -> Any:
        strat = strategies()

        def entry(seat: tuple[str, dict[str, Any]]) -> Any:
            name, params = seat
            defaults = {p: d for p, (d, _) in strat[name][1].items()} if name in strat else {}
            if params == defaults:
                return name
            return {"strategy": name, **params}

        if all(s == self.seats[0] for s in self.seats):
            return entry(self.seats[0])
        return [entry(s) for s in self.seats]

    def to_toml(self) -> str:
        """Canonical TOML: every key with its resolved value and a comment naming its rule
        ids, meaning and allowed values.  ``parse_config(tomllib.loads(...))`` gives back an
        equal config; ``configs/standard.toml`` is this for the defaults."""
        lines = ["# unosim rules config (docs/rules.md C1). Every key is optional; the defaults are the",
                 "# official rules and every house rule (H*) is off.", ""]

        def emit(k: Key, value: Any) -> None:
            lines.append(f"# {' '.join(k.rules)}: {k.doc}")
            allowed = "" if k.type in ("str", "seats") else f"  # {k.allowed()}"
            lines.append(f"{k.name} = {_toml_value(value)}{allowed}")

        emit(KEYS["name"], self.name)
        d = self.to_dict()
        for section in SECTIONS:
            lines += ["", f"[{section}]"]
            for k in _BY_SECTION[section]:
                if section == "rules" and k is KEYS["stacking"]:
                    lines += ["", "# House rules (off by default)."]
                emit(k, d[section][k.name])
        return "\n".join(lines) + "\n"

    def with_values(self, changes: Mapping[str, Any], *, allow_unbuilt: bool = False) -> RulesConfig:
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
        return parse_config(d, allow_unbuilt=allow_unbuilt)

    def replace(self, *, allow_unbuilt: bool = False, **changes: Any) -> RulesConfig:
        """Keyword form of :meth:`with_values`: ``cfg.replace(stacking="draw2")``."""
        return self.with_values(changes, allow_unbuilt=allow_unbuilt)


def _lookup(key: str) -> Key:
    """Registry record for ``section.key`` or a bare key name."""
    section, _, name = key.rpartition(".")
    k = KEYS.get(name)
    if k is None or (section and section != k.section):
        raise ConfigError(f"unknown key {key!r}; valid keys: {', '.join(k.full for k in _REGISTRY)}", key)
    return k


def _toml_value(v: Any) -> str:
    """A TOML literal for the values configs hold (flat; inline tables and arrays)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # JSON string escapes are valid TOML
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


# --------------------------------------------------------------------------- loading & validation


def load_config(path: str | Path, *, allow_unbuilt: bool = False) -> RulesConfig:
    """Read and validate a TOML rules config.  Every problem is a one-line ConfigError.
    A file without ``name`` is labelled by its file name (stem)."""
    p = Path(path)
    try:
        if not p.is_file():  # a folder, a pipe or /dev/zero: never read (it may never end)
            raise FileNotFoundError if not p.exists() else ConfigError(f"{p}: not a config file (not a regular file)")
        if p.stat().st_size > _MAX_CONFIG_BYTES:
            raise ConfigError(f"{p}: {p.stat().st_size:,} bytes is too large for a config "
                              f"(at most {_MAX_CONFIG_BYTES:,})")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {p}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config file {p}: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: invalid TOML: {e}") from None
    data.setdefault("name", safe_name(p.stem))
    return parse_config(data, source_text=text, allow_unbuilt=allow_unbuilt)


def default_config(*, allow_unbuilt: bool = False, **changes: Any) -> RulesConfig:
    """The official rules (every key at its default), optionally with some keys changed:
    ``default_config(players=2)``."""
    cfg = parse_config({})
    return cfg.with_values(changes, allow_unbuilt=allow_unbuilt) if changes else cfg


def parse_config(data: Mapping[str, Any], source_text: str | None = None, *,
                 allow_unbuilt: bool = False) -> RulesConfig:
    """Validate a config given as the nested dict ``tomllib`` returns.

    Checks, in order: sections and key names (C1), each value's type and range, keys the
    engine does not support yet (unless ``allow_unbuilt``, meant for the engine's own tests
    of a house rule in progress), then the cross-key rules (R2 deal size, H12 teams) and the
    seats against :func:`strategies`."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"a config is a table of sections, got {_tname(data)}")
    values: dict[str, Any] = {k.name: k.default for k in _REGISTRY}
    given: set[str] = set()
    for top, body in data.items():
        if top in SECTIONS:
            if not isinstance(body, Mapping):
                raise ConfigError(f"[{top}] must be a table of keys, got {_tname(body)}", top)
            for name, raw in body.items():
                k = _key_in(top, name)
                values[name] = _check_value(k, raw)
                given.add(name)
        elif top == "name":
            values["name"] = _check_value(KEYS["name"], body)
        elif isinstance(body, Mapping):
            hint = _did_you_mean(top, SECTIONS)
            raise ConfigError(f"unknown section [{top}]{hint}; sections are: {', '.join(SECTIONS)} "
                              f"(and the top-level key name)", top)
        else:
            _key_in("", top)  # raises: misplaced or unknown top-level key

    if not allow_unbuilt:
        for k in _REGISTRY:
            if not k.built and values[k.name] != k.default:
                raise ConfigError(f"{k.full}: house rule {'/'.join(k.rules)} is not supported yet "
                                  f"(only {_toml_value(k.default)} is)", k.full)

    _check_cross(values)
    values["seats"] = _check_seats(values["seats"], values["players"], strategies())
    return RulesConfig(**values, source=source_text)


def _key_in(section: str, name: str) -> Key:
    """The record of ``name`` in ``section``, or a ConfigError listing that section's keys."""
    k = KEYS.get(name)
    if k is not None and k.section == section:
        return k
    full = f"{section}.{name}" if section else name
    keys = [x.name for x in _BY_SECTION[section]]
    if k is not None:
        where = f"[{k.section}]" if k.section else "the top level"
        hint = f" ('{name}' belongs in {where})"
    else:
        hint = _did_you_mean(name, keys)
    where = f"[{section}]" if section else "the top level (besides the sections)"
    raise ConfigError(f"unknown key {full!r}{hint}; valid keys in {where}: {', '.join(keys)}", full)


# A config's name is a label and the default output folder's name: letters, digits, spaces
# and a few marks, at most 64 characters, no "/" and no "..": never a path (C1).
NAME_RULE = ("1-64 letters, digits, spaces or _ . + - : , = ( ) (starting with a letter, digit or _, not "
             "ending with a space; no '..')")
_NAME = re.compile(r"\w(?:[\w .+\-:,=()]{0,62}[\w.+\-:,=()])?")
_MAX_CONFIG_BYTES = 1 << 20


def safe_name(text: str) -> str:
    """A file stem made into a valid name: what the name rule refuses becomes ``_``."""
    name = re.sub(r"[^\w .+\-:,=()]", "_", text).replace("..", "_")[:64].rstrip()
    return name if _NAME.fullmatch(name) else ("_" + name)[:64]


def _did_you_mean(word: str, options: Any) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _tname(v: Any) -> str:
    """How a value looks to someone who wrote TOML."""
    if isinstance(v, bool):
        return f"boolean {'true' if v else 'false'}"
    if isinstance(v, int):
        return f"integer {v}"
    if isinstance(v, float):
        return f"float {v!r}"
    if isinstance(v, str):
        return f"string {v!r}"
    if isinstance(v, Mapping):
        return "a table"
    if isinstance(v, (list, tuple)):
        return "an array"
    return type(v).__name__


def _check_value(k: Key, v: Any) -> Any:
    """Type- and range-check one value; return it typed (floats as float)."""
    bad = f"{k.full}: expected"
    if k.type == "bool":
        if not isinstance(v, bool):
            raise ConfigError(f"{bad} true or false, got {_tname(v)}", k.full)
        return v
    if k.type == "enum":
        if not isinstance(v, str):
            raise ConfigError(f"{bad} one of {k.allowed()} (a string), got {_tname(v)}", k.full)
        if v not in k.choices:
            raise ConfigError(f"{k.full}: {v!r} is not one of {k.allowed()}{_did_you_mean(v, k.choices)}",
                              k.full)
        return v
    if k.type == "str":
        if not isinstance(v, str) or not _NAME.fullmatch(v) or ".." in v:
            shown = repr(v[:40]) + ("..." if len(v) > 40 else "") if isinstance(v, str) else _tname(v)
            raise ConfigError(f"{bad} {k.allowed()}, got {shown}", k.full)
        return v
    if k.type == "seats":
        if isinstance(v, (str, Mapping)) or (isinstance(v, (list, tuple)) and v):
            return v  # checked with the strategies in _check_seats
        raise ConfigError(f"{bad} {k.allowed()}, got {_tname(v)}", k.full)
    if k.type == "rank":
        if v == "none":
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConfigError(f"{bad} {k.allowed()}, got {_tname(v)}", k.full)
    elif k.type == "int":
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConfigError(f"{bad} an integer {k.allowed()}, got {_tname(v)}", k.full)
    elif k.type == "float":
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(f"{bad} a number {k.allowed()}, got {_tname(v)}", k.full)
        v = float(v)
    if not (k.lo <= v and (k.hi is None or v <= k.hi)):  # NaN fails too
        raise ConfigError(f"{k.full}: {v!r} is out of range; allowed: {k.allowed()}", k.full)
    return v


def _check_cross(v: dict[str, Any]) -> None:
    """Rules that tie keys together."""
    n, hand, decks = v["players"], v["hand_size"], v["decks"]
    if n * hand >= 108 * decks:
        raise ConfigError(
            f"table.hand_size: dealing {hand} cards to {n} players takes {n * hand} of the "
            f"{108 * decks} cards ({decks} deck{'s' if decks > 1 else ''}) and leaves none to turn "
            f"(R2: need players x hand_size < 108 x decks)", "table.hand_size")
    # H12: seat s plays for team s mod teams.  teams must divide players, and we require
    # two or more players per team (teams <= players / 2): teams == players would be
    # "no teams" under another name (use teams = 1), and partners then never sit side by
    # side as docs/rules.md says (seats s and s + teams are never neighbours when players >= 2 * teams).
    t = v["teams"]
    if t > 1:
        if n % t:
            raise ConfigError(f"rules.teams: {t} does not divide players = {n} "
                              f"(H12: seat s plays for team s mod teams, every team the same size)",
                              "rules.teams")
        if n // t < 2:
            raise ConfigError(f"rules.teams: {t} teams of {n} players would have one player each; "
                              f"allowed: 1 (no teams) or a divisor of players up to players / 2 (H12)",
                              "rules.teams")


def _check_seats(spec: Any, players: int, strat: Strategies) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Resolve the [bots] seats entry to one (strategy, params) per seat (B0)."""
    if isinstance(spec, (str, Mapping)):
        one = _check_seat(spec, "bots.seats", strat)
        return tuple((one[0], dict(one[1])) for _ in range(players))
    if len(spec) != players:
        raise ConfigError(f"bots.seats: {len(spec)} entries for {players} players; give one strategy "
                          f"name for every seat, or a list with exactly one entry per seat", "bots.seats")
    return tuple(_check_seat(s, f"bots.seats[{i}]", strat) for i, s in enumerate(spec))


def _check_seat(entry: Any, where: str, strat: Strategies) -> tuple[str, dict[str, Any]]:
    """One seat: a strategy name, or an inline table {strategy = "name", param = value...}."""
    if isinstance(entry, str):
        name, given = entry, {}
    elif isinstance(entry, Mapping):
        if "strategy" not in entry:
            raise ConfigError(f'{where}: an inline table needs strategy = "<name>"; '
                              f"known strategies: {', '.join(strat)}", where)
        name, given = entry["strategy"], {p: x for p, x in entry.items() if p != "strategy"}
        if not isinstance(name, str):
            raise ConfigError(f"{where}.strategy: expected a strategy name, got {_tname(name)}", where)
    else:
        raise ConfigError(f"{where}: expected a strategy name or an inline table, got {_tname(entry)}", where)
    if name not in strat:
        raise ConfigError(f"{where}: unknown strategy {name!r}{_did_you_mean(name, strat)}; "
                          f"known strategies: {', '.join(strat)}", where)
    spec = strat[name][1]
    if len(spec) > slots.BOT_STRIDE - 1:  # a bots-registry bug, but say so clearly
        raise ConfigError(f"{where}: strategy {name!r} has {len(spec)} parameters; "
                          f"P holds at most {slots.BOT_STRIDE - 1} per seat", where)
    for p in given:
        if p not in spec:
            known = ", ".join(spec) or "(none)"
            raise ConfigError(f"{where}.{p}: unknown parameter of strategy {name!r}"
                              f"{_did_you_mean(p, spec)}; its parameters: {known}", f"{where}.{p}")
    params = {p: _check_param(f"{where}.{p}", given.get(p, d), d, allowed) for p, (d, allowed) in spec.items()}
    return name, params


def _check_param(where: str, v: Any, default: Any, allowed: Any) -> Any:
    """A bot parameter, typed like its default (see DEFAULT_STRATEGIES for the format)."""
    if isinstance(default, bool):
        if not isinstance(v, bool):
            raise ConfigError(f"{where}: expected true or false, got {_tname(v)}", where)
        return v
    if isinstance(default, str):
        if not isinstance(v, str) or v not in allowed:
            raise ConfigError(f"{where}: {_tname(v)} is not one of {', '.join(allowed)}", where)
        return v
    lo, hi = allowed
    if isinstance(default, int):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConfigError(f"{where}: expected an integer {lo}-{hi}, got {_tname(v)}", where)
    else:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(f"{where}: expected a number {lo}-{hi}, got {_tname(v)}", where)
        v = float(v)
    if not (lo <= v <= hi):
        raise ConfigError(f"{where}: {v!r} is out of range; allowed: {lo}-{hi}", where)
    return v


# --------------------------------------------------------------------------- the kernel's P


def to_params(cfg: RulesConfig) -> np.ndarray:
    """The float64 vector ``P`` (length ``slots.N_PARAMS``) the kernel reads.

    Every registry key with a slot is encoded there (see :meth:`Key.encode`); the point
    table goes to ``P_SCORE0..+53`` (R1, H17, H5 giveaway); seat ``s`` gets, at
    ``P_BOT0 + s * BOT_STRIDE``, its strategy code then its parameters in the strategy's
    order (bools 0/1, enum strings as their index).  Seats beyond ``players`` get code -1."""
    strat = strategies()
    P = np.zeros(slots.N_PARAMS, dtype=np.float64)
    for k in _REGISTRY:
        if k.slot is not None:
            P[k.slot] = k.encode(getattr(cfg, k.name))
    P[slots.P_SCORE0:slots.P_SCORE0 + cards.N_KINDS] = cards.point_table(
        cfg.zero_points, cfg.red_zero == "giveaway")
    for s in range(slots.MAX_PLAYERS):
        base = slots.P_BOT0 + s * slots.BOT_STRIDE
        if s >= cfg.players:
            P[base] = -1.0
            continue
        name, params = cfg.seats[s]
        code, spec = strat[name]
        P[base] = float(code)
        for i, (p, (_, allowed)) in enumerate(spec.items()):
            v = params[p]
            P[base + 1 + i] = float(allowed.index(v)) if isinstance(v, str) else float(v)
    P[slots.P_WATCHERS] = float(any(name in WATCHERS for name, _ in cfg.seats))
    return P


# --------------------------------------------------------------------------- documentation


def describe_keys() -> list[dict[str, Any]]:
    """One dict per key, in registry order, for ``unosim rules`` and :func:`rules_markdown`."""
    return [
        {"key": k.full, "section": k.section, "type": k.type, "default": k.default,
         "allowed": k.allowed(), "rules": list(k.rules), "description": k.doc, "built": k.built}
        for k in _REGISTRY
    ]


def rules_markdown() -> str:
    """The README's config-key table (markdown), generated from the registry."""
    rows = ["| Key | Rule | Default | Allowed | Meaning |", "|---|---|---|---|---|"]
    for d in describe_keys():
        meaning = d["description"] + ("" if d["built"] else " *(not supported yet)*")
        allowed = d["allowed"].replace("|", "\\|")
        rows.append(f"| `{d['key']}` | {' '.join(d['rules'])} | `{_toml_value(d['default'])}` "
                    f"| {allowed} | {meaning} |")
    return "\n".join(rows) + "\n"


assert all(k.type in _TYPES for k in _REGISTRY)
assert all(k.slot is None or 0 <= k.slot < slots.P_SCORE0 for k in _REGISTRY)
assert len({k.slot for k in _REGISTRY if k.slot is not None}) == sum(k.slot is not None for k in _REGISTRY)
assert {f.name for f in dataclasses.fields(RulesConfig)} - {"source"} == set(KEYS), "RulesConfig fields != KEYS"
