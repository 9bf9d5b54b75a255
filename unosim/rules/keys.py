"""The key registry (C1): every config key declared once, with what its rule needs.

A :class:`Key` holds a key's section, type, allowed values, default, rule ids and one-line
meaning.  A rules switch also says its ``P`` slot (``switch``), and a rule may declare the
``st`` slots, counters and trace events it adds.  The named codes
(:mod:`unosim.rules.codes`), ``P`` (:mod:`unosim.rules.params`), the kernel's layout
(:mod:`unosim.kernel.layout`), trace texts, balance triggers, validation, ``unosim rules``
and the docs are all made from this one table: a new rule is one record here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from unosim.rules import cards
from unosim.rules.cards import MAX_CARDS, MAX_PLAYERS

__all__ = ["BY_SECTION", "KEYS", "NAME_RULE", "REGISTRY", "SECTIONS", "ConfigError", "Counter", "Event", "Key",
           "describe_keys", "rules_markdown", "toml_value"]


class ConfigError(ValueError):
    """A config that cannot be run.  The message is one line and names the key
    (``section.key``) and what is allowed, so the CLI can print it as is.  ``key`` holds the
    offending key (``""`` when the problem is the file itself)."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


class Counter(NamedTuple):
    """One tally a hand row carries.  ``name`` names both slots: ``S_<name>``, where the
    kernel counts during the hand, and ``O_<name>``, its column in ``out``."""

    column: str        # the output file's column
    name: str          # S_<name> and O_<name>
    kind: str          # "length" (how long a hand ran), "base" (official rules) or "house"
    rules: str         # the rule ids that make it move (docs/rules.md O1)
    unit: str          # what it counts, for docs/data.md: turns, cards or count
    meaning: str       # one line for docs/data.md
    maximum: bool = False  # a per-hand maximum, not a count: reports give its overall maximum too


class Event(NamedTuple):
    """One kind of trace event a rule writes: ``EV_<name>`` in the kernel, and what
    ``unosim trace`` says of it, given the event's three numbers."""

    name: str
    text: Callable[[int, int, int], str | None]


# --------------------------------------------------------------------------- the registry

SECTIONS = ("table", "rules", "scoring", "tournament", "bots")  # C1; ``name`` is the one top-level key

# Value types.  "rank" is "none" or a card number 0-9; "seats" is the [bots] entry.
_TYPES = ("int", "float", "bool", "enum", "rank", "str", "seats")


@dataclass(frozen=True)
class Key:
    """One config key.  Encoding in ``P``: enum -> index of the value in ``choices`` (the
    named code of :mod:`unosim.rules.codes`), bool -> 0/1, rank -> the number or -1 for
    "none", numbers as is.

    A rule's kernel needs: ``switch``, its ``P`` slot among the switches (append-only: a
    new key takes the next free number); ``state``, ``st`` scalars ``S_<NAME>`` with their
    meaning; ``counters`` (output columns, each with a state slot of that name);
    ``events`` (``EV_<NAME>``, numbered after the engine's own); ``acts``, the counters
    that show the rule acting in a balance report."""

    name: str
    section: str            # "" for the top-level ``name``
    type: str
    default: Any
    rules: tuple[str, ...]
    doc: str
    choices: tuple[str, ...] = ()
    lo: float | None = None
    hi: float | None = None  # None: no upper bound
    words: tuple[str, ...] = ()  # strings a number key also takes (H20 decks = "auto")
    switch: int | None = None
    state: tuple[tuple[str, str], ...] = ()
    counters: tuple[Counter, ...] = ()
    events: tuple[Event, ...] = ()
    acts: tuple[str, ...] = ()

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
            span = f"{lo} or more" if self.hi is None else f"{lo}-{num(self.hi)}"
            return "".join(f'"{w}" or ' for w in self.words) + span
        if self.type == "seats":
            return "a strategy name for every seat, or a list with one per seat"
        return NAME_RULE

    def encode(self, value: Any) -> float:
        """The number this key's value becomes in ``P``."""
        if self.type == "enum":
            return float(self.choices.index(value))
        if self.type == "bool":
            return 1.0 if value else 0.0
        if value in self.words:
            raise ValueError(f"{self.full} = {value!r} has no number of its own: resolve it first")
        if self.type == "rank":
            return -1.0 if value == "none" else float(value)
        return float(value)


def _k(section: str, name: str, type_: str, default: Any, rules: str, doc: str, choices: str = "",
       lo: float | None = None, hi: float | None = None, words: tuple[str, ...] = (), **kernel: Any) -> Key:
    """Compact record constructor: ``rules`` and an enum's ``choices`` are space-separated
    (the order of the choices is the code the kernel reads); ``kernel`` holds ``switch``,
    ``state``, ``counters``, ``events`` and ``acts``."""
    return Key(name, section, type_, default, tuple(rules.split()), doc, tuple(choices.split()), lo, hi, words,
               **kernel)


# The registry.  Order = order in configs, the README table and `unosim rules`.
REGISTRY: tuple[Key, ...] = (
    _k("", "name", "str", "standard", "C1",
       "label stored with every result and the default output name (runs/<name>.parquet); "
       "a config file without one takes its file's stem"),
    # [table]
    _k("table", "players", "int", 4, "R2", "players at the table, seats 0..n-1",
       lo=2, hi=MAX_PLAYERS, switch=0),
    _k("table", "decks", "int", 1, "R1 H20",
       "108-card decks shuffled together; \"auto\": 1 for 2-4 players, 2 for 5 or more",
       lo=1, hi=MAX_CARDS // 108, words=("auto",), switch=1),
    _k("table", "hand_size", "int", 7, "R2", "cards dealt to each player",
       lo=1, hi=30, switch=2),
    _k("table", "dealer", "enum", "rotate", "R4 E4",
       "who deals the next hand: the next seat, the last winner, a random seat, or always the last seat",
       "rotate winner random fixed", switch=3),
    # [rules] official rules and their variants
    _k("rules", "first_card", "enum", "any", "R3 H16",
       "the turned first card: any card, or turn until a number card shows",
       "any number_only", switch=4),
    _k("rules", "first_draw2_skips", "bool", True, "R3 H15",
       "a turned Draw Two makes the first player draw and lose the turn (false: draw, then play)", switch=5),
    _k("rules", "play_drawn", "enum", "may", "R6",
       "a legal drawn card may be played at once, must be, or never is",
       "may must never", switch=6),
    _k("rules", "voluntary_draw", "bool", True, "R7 H8",
       "a player may draw instead of playing a legal card (false: forced play)", switch=7),
    _k("rules", "wild_draw4", "enum", "restricted", "R8 E1",
       "Wild Draw Four only without a card of the current colour (bluffs possible), any time, "
       "or only when nothing else plays",
       "restricted free last_resort", switch=8),
    _k("rules", "challenge", "bool", True, "R8",
       "the next player may challenge a restricted Wild Draw Four", switch=9),
    _k("rules", "challenge_success_skip", "bool", False, "R8 H9",
       "a challenger who proves a bluff still loses the turn", switch=10),
    _k("rules", "bluff_penalty", "enum", "draw", "R8 H22",
       "a proven bluffer draws the Wild Draw Four's cards, or takes it back, plays a card of the "
       "colour it hid instead and draws them",
       "draw take_back", switch=38),
    _k("rules", "two_player_reverse", "enum", "skip", "R9 H14",
       "with 2 players a Reverse acts as a Skip, or has no effect",
       "skip none", switch=11),
    _k("rules", "turned_reverse", "enum", "as_played", "R3 E5",
       "with 2 players a turned Reverse acts as two_player_reverse says, lets the dealer play first, "
       "or does nothing",
       "as_played dealer first_player", switch=36),
    _k("rules", "first_player", "enum", "after_dealer", "R3 H21",
       "who takes the first turn: the seat after the dealer, or the player whose dealt hand is worth "
       "the most points",
       "after_dealer highest_points", switch=37),
    _k("rules", "uno_forget", "float", 0.0, "R10",
       "chance that a bot forgets to call UNO on its second-to-last card",
       lo=0.0, hi=1.0, switch=12),
    _k("rules", "uno_caught", "float", 1.0, "R10",
       "chance that a forgotten UNO is caught (the player draws 2)",
       lo=0.0, hi=1.0, switch=13),
    _k("rules", "uno_false_call", "float", 0.0, "R10 H23",
       "chance that a bot calls UNO wrongly after a play that leaves it 2 or more cards (it draws 2)",
       lo=0.0, hi=1.0, switch=39),
    _k("rules", "misplay", "float", 0.0, "R10 H24",
       "chance, as a turn begins, that a bot holding an illegal card puts one down by mistake "
       "(taken back, it draws 1)",
       lo=0.0, hi=1.0, switch=40),
    _k("rules", "drawn_match", "enum", "any", "R6 E2",
       "a drawn card may be played if it is legal, or only if it is wild or of the colour in force",
       "any color", switch=33),
    _k("rules", "drawn_draw4", "enum", "draw4", "R6 E3",
       "a drawn Wild Draw Four played at once acts as a Wild Draw Four, or as a plain Wild",
       "draw4 wild", switch=34),
    _k("rules", "max_turns", "int", 5000, "R13",
       "turns after which a hand stops with no winner, flagged stalled",
       lo=1, hi=1_000_000, switch=14),
    _k("rules", "draw2_amount", "int", 2, "H18", "cards a Draw Two makes the next player draw",
       lo=0, hi=50, switch=15),
    _k("rules", "draw4_amount", "int", 4, "H18", "cards a Wild Draw Four makes the next player draw",
       lo=0, hi=50, switch=16),
    _k("rules", "challenge_extra", "int", 2, "H18",
       "extra cards a challenger draws when the Wild Draw Four was legal",
       lo=0, hi=50, switch=17),
    # [rules] house rules, off by default
    _k("rules", "stacking", "enum", "none", "H1 H25",
       "draw cards stack on draw cards: no, Draw Two on Draw Two, also Wild Draw Four, all, or by amount "
       "(a play of draw cards that makes at least what the play it answers made)",
       "none draw2 draw2_draw4 all amount", switch=20),
    _k("rules", "deflect", "enum", "none", "H26",
       "facing a pending draw, a Reverse of the current colour (or also a Skip) passes it on, "
       "not increased, instead of drawing or stacking",
       "none reverse reverse_skip", switch=41,
       state=(("DEFLECTIONS", "pending draws passed on by a Reverse or Skip"),
              ("DEFLECTED", "1 while the pending draw has been deflected: no challenge")),
       counters=(Counter("deflections", "DEFLECTIONS", "house", "H26", "count",
                         "pending draws passed on by a Reverse or Skip"),),
       events=(Event("DEFLECT", lambda a, b, c:
                     f"Seat {a} deflects the draw with {cards.name(b)}; it passes on, not increased."),),
       acts=("deflections",)),
    _k("rules", "jump_in", "enum", "none", "H2",
       "an identical card may be played out of turn: never, numbers, coloured cards, or all",
       "none numbers colored all", switch=21),
    _k("rules", "jump_in_stack", "enum", "replace", "H2",
       "jumped-in draw cards: only the last one counts, or the penalties add up",
       "replace accumulate", switch=22),
    _k("rules", "draw", "enum", "one", "H3",
       "a player with no legal card draws one card, or until a legal card shows",
       "one until_playable", switch=23),
    _k("rules", "seven_o", "bool", False, "H4",
       "a 0 passes every hand on, a 7 swaps hands with a chosen opponent", switch=24),
    _k("rules", "red_zero", "enum", "none", "H5",
       "the red 0: a plain 0, a +10, or a giveaway of all but one card (then worth 100)",
       "none draw10 giveaway", switch=25),
    _k("rules", "multi_play", "enum", "none", "H6",
       "several cards at once: no, identical cards, or cards of one number or symbol",
       "none identical same_rank", switch=26),
    _k("rules", "wild_last", "bool", True, "H7",
       "a Wild or Wild Draw Four may be the last card (false: it may not)", switch=27),
    _k("rules", "slap_rank", "rank", "none", "H10",
       "a played card of this number makes the slowest slapper draw 2",
       lo=0, hi=9, switch=28),
    _k("rules", "silent_rank", "rank", "none", "H11",
       "a played card of this number starts a silence",
       lo=0, hi=9, switch=29),
    _k("rules", "noise_chance", "float", 0.0, "H11",
       "chance per turn that someone breaks a silence and draws 2",
       lo=0.0, hi=1.0, switch=30),
    # teams: 1 (no teams) or t teams of players/t >= 2 seats each; see _check_cross.
    _k("rules", "teams", "int", 1, "H12",
       "teams, seat s playing for team s mod teams (1: no teams)",
       lo=1, hi=MAX_PLAYERS // 2, switch=31),
    _k("rules", "finish", "enum", "first_out", "H13",
       "a hand ends when the first player is out, or goes on until one player is left",
       "first_out last_standing", switch=32),
    # [scoring]
    _k("scoring", "zero_points", "int", 0, "R1 H17", "points of a 0 left in a hand",
       lo=0, hi=50, switch=18),
    _k("scoring", "match_target", "int", 500, "S1 S2 H19", "total that ends a match",
       lo=1, hi=1_000_000, switch=19),
    _k("scoring", "chips_hands", "int", 10, "S4", "hands after which the chips (S4) of a match are counted",
       lo=1, hi=10_000),
    # [tournament]
    _k("tournament", "hands_per_round", "int", 4, "T1",
       "hands each table plays per round of a partner-rotation tournament",
       lo=1, hi=1_000),
    # [bots]
    _k("bots", "seats", "seats", "random", "B0",
       "the bot of every seat; a list entry may be an inline table {strategy = \"name\", <param> = value}"),
)

KEYS: dict[str, Key] = {k.name: k for k in REGISTRY}
"""Every config key by its bare name (bare names are unique across sections)."""

BY_SECTION: dict[str, tuple[Key, ...]] = {
    s: tuple(k for k in REGISTRY if k.section == s) for s in ("",) + SECTIONS
}

def toml_value(v: Any) -> str:
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
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


# A config's name is a label and the default output folder's name: letters, digits, spaces
# and a few marks, at most 64 characters, no "/" and no "..": never a path (C1).
NAME_RULE = ("1-64 letters, digits, spaces or _ . + - : , = ( ) (starting with a letter, digit or _, not "
             "ending with a space; no '..')")


# --------------------------------------------------------------------------- documentation


def describe_keys() -> list[dict[str, Any]]:
    """One dict per key, in registry order, for ``unosim rules`` and :func:`rules_markdown`."""
    return [
        {"key": k.full, "section": k.section, "type": k.type, "default": k.default,
         "allowed": k.allowed(), "rules": list(k.rules), "description": k.doc}
        for k in REGISTRY
    ]


def rules_markdown() -> str:
    """The README's config-key table (markdown), generated from the registry."""
    rows = ["| Key | Rule | Default | Allowed | Meaning |", "|---|---|---|---|---|"]
    for d in describe_keys():
        meaning = d["description"]
        allowed = d["allowed"].replace("|", "\\|")
        rows.append(f"| `{d['key']}` | {' '.join(d['rules'])} | `{toml_value(d['default'])}` "
                    f"| {allowed} | {meaning} |")
    return "\n".join(rows) + "\n"


assert all(k.type in _TYPES for k in REGISTRY)
assert all(k.type == "enum" or not k.choices for k in REGISTRY)
