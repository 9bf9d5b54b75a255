"""Checking a config's values (C1): every problem is one ConfigError naming the key.

Types and ranges come from the registry (:mod:`unosim.rules.keys`); the checks that tie
keys together (R2 deal size, H12 teams) and the bots' seats and parameters (B0) are here
too, so :func:`unosim.rules.config.parse_config` reads as the order of the checks.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from unosim.compat import tomllib
from unosim.rules import params as slots
from unosim.rules.keys import BY_SECTION, KEYS, ConfigError, Key

RULES = ("H20",)

Strategies = Mapping[str, tuple[int, Mapping[str, tuple[Any, Any]]]]

__all__ = ["MAX_CONFIG_BYTES", "check_cross", "check_seats", "check_value", "did_you_mean", "key_in", "read_toml",
           "safe_name", "type_name", "valid_name"]

def key_in(section: str, name: str) -> Key:
    """The record of ``name`` in ``section``, or a ConfigError listing that section's keys."""
    k = KEYS.get(name)
    if k is not None and k.section == section:
        return k
    full = f"{section}.{name}" if section else name
    keys = [x.name for x in BY_SECTION[section]]
    if k is not None:
        where = f"[{k.section}]" if k.section else "the top level"
        hint = f" ('{name}' belongs in {where})"
    else:
        hint = did_you_mean(name, keys)
    where = f"[{section}]" if section else "the top level (besides the sections)"
    raise ConfigError(f"unknown key {full!r}{hint}; valid keys in {where}: {', '.join(keys)}", full)


_NAME = re.compile(r"\w(?:[\w .+\-:,=()]{0,62}[\w.+\-:,=()])?")
MAX_CONFIG_BYTES = 1 << 20


def read_toml(p: Path, what: str, error: type[ValueError] = ConfigError,
              limit: int = MAX_CONFIG_BYTES) -> tuple[str, dict[str, Any]]:
    """The text and the table of ``p``, a ``what`` file (config, sweep, space, bot), or one
    ``error`` line.  A folder, a FIFO or a device is never read: it may never end."""
    try:
        if not p.is_file():
            raise FileNotFoundError if not p.exists() else error(f"{p}: not a {what} file (not a regular file)")
        if p.stat().st_size > limit:
            raise error(f"{p}: {p.stat().st_size:,} bytes is too large for a {what} file (at most {limit:,})")
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark (a Windows editor's) is no TOML error
    except FileNotFoundError:
        raise error(f"{what} file not found: {p}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"cannot read {what} file {p}: {e}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{p}: invalid TOML: {e}") from None


def valid_name(v: Any) -> bool:
    """Whether ``v`` is a name (:data:`unosim.rules.keys.NAME_RULE`): a label and a folder's
    name, never a path."""
    return isinstance(v, str) and _NAME.fullmatch(v) is not None and ".." not in v


def safe_name(text: str) -> str:
    """A file stem made into a valid name: what the name rule refuses becomes ``_``."""
    name = re.sub(r"[^\w .+\-:,=()]", "_", text).replace("..", "_")[:64].rstrip()
    return name if _NAME.fullmatch(name) else ("_" + name)[:64]


def did_you_mean(word: str, options: Any) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def type_name(v: Any) -> str:
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
        return f"an array of {len(v)}" if v else "an empty array"
    return type(v).__name__


def check_value(k: Key, v: Any) -> Any:
    """Type- and range-check one value; return it typed (floats as float)."""
    bad = f"{k.full}: expected"
    if k.type == "bool":
        if not isinstance(v, bool):
            raise ConfigError(f"{bad} true or false, got {type_name(v)}", k.full)
        return v
    if k.type == "enum":
        if not isinstance(v, str):
            raise ConfigError(f"{bad} one of {k.allowed()} (a string), got {type_name(v)}", k.full)
        if v not in k.choices:
            raise ConfigError(f"{k.full}: {v!r} is not one of {k.allowed()}{did_you_mean(v, k.choices)}",
                              k.full)
        return v
    if k.type == "str":
        if not valid_name(v):
            shown = repr(v[:40]) + ("..." if len(v) > 40 else "") if isinstance(v, str) else type_name(v)
            raise ConfigError(f"{bad} {k.allowed()}, got {shown}", k.full)
        return v
    if k.type == "seats":
        if isinstance(v, (str, Mapping)) or (isinstance(v, (list, tuple)) and v):
            return v  # checked with the strategies in check_seats
        raise ConfigError(f"{bad} {k.allowed()}, got {type_name(v)}", k.full)
    if k.type == "rank":
        if v == "none":
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConfigError(f"{bad} {k.allowed()}, got {type_name(v)}", k.full)
    elif k.type == "int":
        if isinstance(v, str) and v in k.words:
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            what = k.allowed() if k.words else f"an integer {k.allowed()}"
            raise ConfigError(f"{bad} {what}, got {type_name(v)}", k.full)
    elif k.type == "float":
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(f"{bad} a number {k.allowed()}, got {type_name(v)}", k.full)
        v = float(v)
    if not (k.lo <= v and (k.hi is None or v <= k.hi)):  # NaN fails too
        raise ConfigError(f"{k.full}: {v!r} is out of range; allowed: {k.allowed()}", k.full)
    return v


def deck_count(decks: int | str, players: int) -> int:
    """The decks a table plays with: ``decks``, or for ``"auto"`` (H20) one deck for 2-4
    players and two for 5 or more."""
    if decks == "auto":
        return 2 if players >= 5 else 1
    return int(decks)


def check_cross(v: dict[str, Any]) -> None:
    """Rules that tie keys together."""
    n, hand = v["players"], v["hand_size"]
    decks = deck_count(v["decks"], n)
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


def check_seats(spec: Any, players: int, strat: Strategies) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Resolve the [bots] seats entry to one (strategy, params) per seat (B0)."""
    if isinstance(spec, (str, Mapping)):
        one = _check_seat(spec, "bots.seats", strat)
        return tuple((one[0], dict(one[1])) for _ in range(players))
    if len(spec) != players:
        raise ConfigError(f"bots.seats: {len(spec)} entries for {players} players; give one strategy "
                          f"name for every seat, or a list with exactly one entry per seat", "bots.seats")
    seats = tuple(_check_seat(s, f"bots.seats[{i}]", strat) for i, s in enumerate(spec))
    _check_labels(seats, strat)
    return seats


def _check_labels(seats: tuple[tuple[str, dict[str, Any]], ...], strat: Strategies) -> None:
    """Two seats whose bots differ must not share a label: reports, duels and leagues count
    a bot's wins by its label, so two tuned bots both named ``tuned`` would be one bot
    winning every hand."""
    seen: dict[str, tuple[int, Any]] = {}
    for i, (name, params) in enumerate(seats):
        label = label_text({**params, "strategy": name}, strat)
        key = bot_key({**params, "strategy": name})
        if label in seen and seen[label][1] != key:
            j = seen[label][0]
            how = "other parameters" if name == seats[j][0] else f"{seats[j][0]} / {name}"
            raise ConfigError(f"bots.seats[{i}]: called {label!r} like bots.seats[{j}], but a different bot "
                              f"({how}); give them different names (a seat's name = \"...\", a bot file's name)",
                              f"bots.seats[{i}]")
        seen.setdefault(label, (i, key))


def label_text(value: Any, strat: Strategies) -> str:
    """A bot (or a bot parameter) as labels show it: a whole bot (a seat, a rollout bot's
    table) by its name, else as ``strategy(p=v, ...)`` with the parameters that differ from
    the strategy's defaults."""
    if not isinstance(value, Mapping):
        return str(value)
    if isinstance(value.get("name"), str):
        return value["name"]
    strategy = value.get("strategy")
    spec = strat.get(strategy, (0, {}))[1]
    changed = [f"{p}={label_text(v, strat)}" for p, v in value.items()
               if p not in ("strategy", "name") and (p not in spec or spec[p][0] != v)]
    return f"{strategy}({', '.join(changed)})" if changed else str(strategy)


def bot_key(value: Any) -> Any:
    """A bot (or a bot parameter) as a hashable key, without its labels: a bot is its
    strategy and parameters, whatever it is called."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, bot_key(v)) for k, v in value.items() if k != "name"))
    return value


def _check_seat(entry: Any, where: str, strat: Strategies) -> tuple[str, dict[str, Any]]:
    """One seat: a strategy name, or an inline table {strategy = "name", param = value...}.

    An inline table may carry ``name = "label"`` (a bot file's name, which pastes in with
    the rest of the file): reports label the bot by it, not by its parameter list.  It is
    kept in the parameters under ``name``; the kernel reads only the strategy's own."""
    label = None
    if isinstance(entry, str):
        name, given = entry, {}
    elif isinstance(entry, Mapping):
        if "strategy" not in entry:
            raise ConfigError(f'{where}: an inline table needs strategy = "<name>"; '
                              f"known strategies: {', '.join(strat)}", where)
        name, given = entry["strategy"], {p: x for p, x in entry.items() if p not in ("strategy", "name")}
        if "name" in entry:
            label = entry["name"]
            if not isinstance(label, str) or not label.strip():
                raise ConfigError(f"{where}.name: expected a non-empty string (the bot's label), got "
                                  f"{type_name(label)}", f"{where}.name")
        if not isinstance(name, str):
            raise ConfigError(f"{where}.strategy: expected a strategy name, got {type_name(name)}", where)
    else:
        raise ConfigError(f"{where}: expected a strategy name or an inline table, got {type_name(entry)}", where)
    if name not in strat:
        raise ConfigError(f"{where}: unknown strategy {name!r}{did_you_mean(name, strat)}; "
                          f"known strategies: {', '.join(strat)}", where)
    spec = strat[name][1]
    if len(spec) > slots.BOT_STRIDE - 1:  # a bots-registry bug, but say so clearly
        raise ConfigError(f"{where}: strategy {name!r} has {len(spec)} parameters; "
                          f"P holds at most {slots.BOT_STRIDE - 1} per seat", where)
    for p in given:
        if p not in spec:
            known = ", ".join(spec) or "(none)"
            raise ConfigError(f"{where}.{p}: unknown parameter of strategy {name!r}"
                              f"{did_you_mean(p, spec)}; its parameters: {known}", f"{where}.{p}")
    params = {p: _bot_param(f"{where}.{p}", given.get(p, d), d, allowed, strat) for p, (d, allowed) in spec.items()}
    if label is not None:
        params["name"] = label.strip()
    return name, params


def _bot_param(where: str, v: Any, default: Any, allowed: Any, strat: Strategies) -> Any:
    """A bot parameter; one whose choices are strategies (the search's ``rollout_bot``)
    also takes a whole bot as an inline table, checked exactly as a seat (every parameter
    range-checked, the rest at their defaults) and kept with every parameter resolved, so
    a tuned bot can be the one a search improves on.  The table's strategy must be one
    of the choices (never ``search`` itself: no recursion)."""
    bots = isinstance(default, str) and bool(allowed) and all(a in strat for a in allowed)
    if bots and not isinstance(v, (str, Mapping)) or bots and isinstance(v, str) and v not in allowed:
        raise ConfigError(f"{where}: {type_name(v)} is not one of {', '.join(allowed)}, nor a bot as an inline "
                          f"table {{strategy = ..., param = value, ...}}", where)
    if bots and isinstance(v, Mapping):
        if "strategy" not in v:
            raise ConfigError(f'{where}: an inline table needs strategy = "<name>"; allowed: {", ".join(allowed)}',
                              where)
        name = v.get("strategy")
        if isinstance(name, str) and name in strat and name not in allowed:
            raise ConfigError(f"{where}.strategy: {name!r} is not allowed here; allowed: {', '.join(allowed)}",
                              f"{where}.strategy")
        strategy, params = _check_seat(v, where, strat)
        return {"strategy": strategy, **params}
    return _check_param(where, v, default, allowed)


def _check_param(where: str, v: Any, default: Any, allowed: Any) -> Any:
    """A bot parameter, typed like its default (see DEFAULT_STRATEGIES for the format)."""
    if isinstance(default, bool):
        if not isinstance(v, bool):
            raise ConfigError(f"{where}: expected true or false, got {type_name(v)}", where)
        return v
    if isinstance(default, str):
        if not isinstance(v, str) or v not in allowed:
            raise ConfigError(f"{where}: {type_name(v)} is not one of {', '.join(allowed)}", where)
        return v
    lo, hi = allowed
    if isinstance(default, int):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConfigError(f"{where}: expected an integer {lo}-{hi}, got {type_name(v)}", where)
    else:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(f"{where}: expected a number {lo}-{hi}, got {type_name(v)}", where)
        v = float(v)
    if not (lo <= v <= hi):
        raise ConfigError(f"{where}: {v!r} is out of range; allowed: {lo}-{hi}", where)
    return v


