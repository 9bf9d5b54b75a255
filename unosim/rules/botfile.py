"""Bots by name or by file: the one parser of every command that takes a bot.

A bot is a strategy name (``counter``), a name with TOML-literal parameters
(``counter:suspicion=0.5``), a search over a bot file (``search:rollout_bot=tuned.toml``) or
a bot file (a path ending in ``.toml``) that lists every parameter of its strategy.  Bot
files: docs/bots.md, "Bot files".  Plain Python on top of the config's own validation, so
loading a bot never imports or compiles the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unosim.compat import tomllib
from unosim.rules.config import ConfigError, seat_entry, strategies
from unosim.rules.keys import toml_value
from unosim.rules.validate import bot_key, check_seats, did_you_mean, label_text, read_toml

__all__ = ["Bot", "dump_bot", "is_bot_file", "load_bot_file", "param_text", "parse_spec", "resolve_bot", "split_bots"]

MAX_BOT_FILE = 64 * 1024
"""Bytes a bot file may hold: a bot is a dozen numbers; a bigger file is the wrong file."""


@dataclass(frozen=True)
class Bot:
    """A resolved, validated bot: ``name`` is its label in tables and plots; ``entry()`` its
    ``[bots] seats`` entry; ``source`` the file it came from (None for a name)."""

    name: str
    strategy: str
    params: dict[str, Any] = field(default_factory=dict, compare=False)
    source: str | None = field(default=None, compare=False)

    def entry(self) -> str | dict[str, Any]:
        """The config's seat entry: the bare name when every parameter is its default."""
        return seat_entry(self.strategy, self.params)

    def key(self) -> tuple[str, tuple[tuple[str, Any], ...]]:
        """What makes two bots the same bot (their strategy and parameters, not their name)."""
        return self.strategy, tuple(sorted((k, bot_key(v)) for k, v in self.params.items()))


def is_bot_file(spec: str) -> bool:
    """A spec names a file when it ends in ``.toml`` (then it must exist) or is a file, unless
    it is a strategy with parameters (``search:rollout_bot=tuned.toml``) or one parameter
    of one (``rollout_bot=tuned.toml`` after a comma) -- and is no existing file."""
    spec = spec.strip()
    if Path(spec).is_file():
        return True
    head, colon, _ = spec.partition(":")
    key, eq, _ = spec.partition("=")
    if (colon and head.strip() in strategies()) or (eq and key.strip().isidentifier()):
        return False
    return spec.lower().endswith(".toml")


ROLLOUT_PARAM = "rollout_bot"
"""The parameter a command-line spec may give as a bot file (the search's rollout bot)."""


def _with_bot_files(entry: dict[str, Any] | str, where: str) -> dict[str, Any] | str:
    """``entry`` with a ``rollout_bot`` given as a bot file read into the whole bot (an inline
    table with the file's name and every parameter), so the config a run keeps holds the
    bot itself and never depends on the file again."""
    if isinstance(entry, str) or not isinstance(entry.get(ROLLOUT_PARAM), str):
        return entry
    value = entry[ROLLOUT_PARAM].strip()
    if value in strategies() or not is_bot_file(value):
        return entry
    bot = load_bot_file(value, f"{where}: {ROLLOUT_PARAM}")
    return {**entry, ROLLOUT_PARAM: {"name": bot.name, "strategy": bot.strategy, **bot.params}}


def param_text(value: Any) -> str:
    """A bot parameter as a label shows it: a whole bot (a rollout bot's table) by its name,
    else as ``strategy(p=v, ...)`` with the parameters that differ from the defaults."""
    return label_text(value, strategies())


def _validated(entry: Any, where: str) -> tuple[str, dict[str, Any]]:
    """``entry`` checked as one seat of a config, errors re-worded to name ``where``."""
    try:
        return check_seats([entry], 1, strategies())[0]
    except ConfigError as e:
        msg = str(e)
        for prefix in ("bots.seats[0]", "bots.seats"):
            if msg.startswith(prefix):
                msg = where + msg[len(prefix):]
                break
        raise ConfigError(msg, where) from None


def load_bot_file(path: str | Path, where: str = "bot") -> Bot:
    """Read and validate a bot file (module docstring); ``where`` names the argument in errors."""
    p = Path(path)
    try:
        _, data = read_toml(p, "bot", limit=MAX_BOT_FILE)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}", where) from None
    name = data.pop("name", p.stem)
    data.pop("about", None)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: {p}: name must be a non-empty string", where)
    if "strategy" not in data:
        raise ConfigError(f'{where}: {p} has no strategy = "<name>"; known strategies: '
                          f"{', '.join(strategies())}", where)
    strategy, params = _validated(data, f"{where} ({p})")  # unknown names and bad values first
    missing = [k for k in params if k not in data]
    missing += [f"{k}.{p}" for k, v in params.items() if isinstance(v, dict) and isinstance(data.get(k), dict)
                for p in v if p not in data[k] and p not in ("name", "strategy")]  # a rollout bot's, too
    if missing:
        raise ConfigError(f"{where}: {p} leaves out {', '.join(missing)}; a bot file lists every parameter "
                          f"of its strategy ({strategy!r}), so a changed default never changes the bot", where)
    return Bot(name.strip(), strategy, params, str(p))


def parse_spec(spec: str, where: str) -> dict[str, Any] | str:
    """``name`` or ``name:param=value,...`` -> a seat entry (not yet validated; a rollout bot
    given as a bot file is read, and checked, at once)."""
    name, colon, rest = spec.partition(":")
    name = name.strip()
    if colon and not rest.strip():  # "counter:" would play counter under the label "counter:"
        raise ConfigError(f"{where}: bot {spec!r}: nothing after ':'; give name:param=value,... or the name alone",
                          where)
    if not rest.strip():
        return name
    entry: dict[str, Any] = {"strategy": name}
    for item in rest.split(","):
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"{where}: bot {spec!r}: expected name:param=value,...; got {item!r}", where)
        try:
            value = tomllib.loads(f"v = {raw.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip()  # a bare word: an enum choice
        if key.strip() in entry:  # as a config refuses a key given twice: the last value would win unseen
            raise ConfigError(f"{where}: bot {spec!r}: {key.strip()} given twice", where)
        entry[key.strip()] = value
    return _with_bot_files(entry, where)


def resolve_bot(spec: str, where: str = "bot") -> Bot:
    """A bot from a command-line spec (module docstring); one :class:`ConfigError` line
    naming ``where`` (the option) when the strategy, a parameter or the file is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"{where}: empty bot; give a strategy name ({', '.join(strategies())}) or a bot "
                          "file (.toml)", where)
    spec = spec.strip()
    if is_bot_file(spec):
        return load_bot_file(spec, where)
    entry = parse_spec(spec, where)
    name = entry if isinstance(entry, str) else entry["strategy"]
    if name not in strategies():
        raise ConfigError(f"{where}: {name!r} is neither a strategy{did_you_mean(name, strategies())} nor a bot "
                          f"file (.toml); strategies: {', '.join(strategies())}", where)
    strategy, params = _validated(entry, where)
    return Bot(spec, strategy, params, None)


def split_bots(values: str | list[str] | tuple[str, ...], option: str = "bots") -> list[str]:
    """``A,B,C`` (and repeated options) -> bot specs.  A comma also separates the parameters
    of ``name:p=v,q=w``, so an item with ``=`` and no ``:`` continues the bot before it.
    An empty item (``A,,B``, ``""``) is refused (ConfigError naming ``option``): a bot
    dropped silently would change the field or the league without a word."""
    items = [values] if isinstance(values, str) else list(values)
    out: list[str] = []
    for value in items:
        for part in value.split(","):
            part = part.strip()
            if not part:
                raise ConfigError(f"{option}: an empty bot in {value!r}; give a strategy name or a bot file "
                                  "between the commas", option)
            if out and "=" in part and ":" not in part and not is_bot_file(part) and ":" in out[-1]:
                out[-1] = f"{out[-1]},{part}"
            else:
                out.append(part)
    return out


def dump_bot(bot: Bot, about: dict[str, Any] | None = None) -> str:
    """A bot file's text: the label, the strategy, every parameter (full precision: the
    same file always plays the same bot), and an optional ``[about]`` table."""
    lines = ["# A unosim bot (docs/bots.md, \"Bot files\"): give this file's path wherever a bot goes",
             "# (unosim duel, tune --field, league --bots, skill --bot); everything but [about] is a",
             "# config's [bots] inline table: seats = [{name = ..., strategy = ..., ...}, \"random\", ...].",
             f"name = {toml_value(bot.name)}",
             f"strategy = {toml_value(bot.strategy)}"]
    lines += [f"{k} = {repr(float(v)) if isinstance(v, float) else toml_value(v)}" for k, v in bot.params.items()]
    if about:
        lines += ["", "[about]"] + [f"{k} = {toml_value(v)}" for k, v in about.items()]
    return "\n".join(lines) + "\n"
