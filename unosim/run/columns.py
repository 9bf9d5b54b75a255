"""Every column of a result's rows: its type (from the writers), unit, meaning and rule.

:func:`kind_schema` builds each result kind's schema with the code that writes it;
:data:`ABOUT` says what each column is.  docs/data.md is generated from both.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pyarrow as pa

from unosim.kernel.layout import COUNTERS

__all__ = ["ABOUT", "KINDS", "describe", "kind_schema", "type_text"]

# column (per-seat columns as name_<s>, per-player as name_<p>) -> (unit, meaning, rule ids)
ABOUT: dict[str, tuple[str, str, str]] = {
    "hand": ("index", "the hand's index in the run; in a match or tournament run sequence * 1,000,000 + the hand's "
             "place in it (its random stream comes from the seed and this index)", "O1"),
    "rotation": ("index", "the rotation r of the bots over the seats: the bot the config puts at seat i sits at "
                 "seat (i + r) mod players", ""),
    "dealer": ("seat", "the seat that dealt", "R4"),
    "first_player": ("seat", "the seat that played first", "R4"),
    "winner": ("seat", "the first player out (-1: stalled)", "R12"),
    "winning_team": ("team", "the winner's team, seat mod teams (-1: stalled)", "H12"),
    "stalled": ("flag", "the hand reached max_turns without a winner", "R13"),
    **{c.column: (c.unit, c.meaning, c.rules) for c in COUNTERS},
    "match": ("index", "the match's index in the run", "S1-S3"),
    "hand_in_match": ("index", "the hand's place in its match, from 0", "S1-S3"),
    "pos_end": ("flag", "S1 (positive scoring) ended the match at this hand", "S1"),
    "neg_end": ("flag", "S2 (negative scoring) ended the match at this hand", "S2"),
    "capped": ("flag", "the match stopped at --max-hands before a system ended it", "S1-S3"),
    "chips_end": ("flag", "S4 (chips) ended the match at this hand", "S4"),
    "tournament": ("index", "the tournament's index in the run", "T1"),
    "round": ("index", "the round, from 0", "T1"),
    "table": ("index", "the table of the round: 0 (the first) or 1", "T1"),
    "hand_in_round": ("index", "the hand's place in its round, from 0", "T1"),
    "t_end": ("flag", "the tournament's last hand (the champion columns are set here)", "T1"),
    "player_<s>": ("player", "the tournament player sitting at table seat s", "T1"),
    "points_<s>": ("points", "points left in seat s's hand at the end (after an R12 penalty draw)", "R12 S1"),
    "cards_<s>": ("cards", "cards left in seat s's hand at the end", "O1"),
    "rank_<s>": ("rank", "seat s's finishing rank under last_standing, else 0", "H13"),
    "pos_total_<s>": ("points", "seat s's running S1 total after this hand", "S1"),
    "neg_total_<s>": ("points", "seat s's running S2 total after this hand", "S2"),
    "chips_total_<s>": ("chips", "seat s's S4 chip balance after this hand", "S4"),
    "t_pos_total_<p>": ("points", "player p's running S1 tournament total after this hand", "T1 S1"),
    "t_neg_total_<p>": ("points", "player p's running S2 tournament total after this hand", "T1 S2"),
    "champion_pos_<p>": ("flag", "on the tournament's last row: player p has the highest S1 total (ties: every "
                         "tied player)", "T1"),
    "champion_neg_<p>": ("flag", "on the tournament's last row: player p has the lowest S2 total (ties: every "
                         "tied player)", "T1"),
    "bot_<s>": ("bot", "the bot sitting at seat s (its name, else its strategy and changed parameters)", ""),
    "point": ("index", "the sweep point (its folder point-NNNN; unosim.load_points lists them)", ""),
    "<section>_<key>": ("config value", "the point's value of a varied key (rules.stacking -> rules_stacking), "
                        "the same in every row of the point", "C1"),
    "league_table": ("index", "the league table (a combination of bots)", ""),
    "league_order": ("index", "the table's cyclic order of its bots round the seats", ""),
}

KINDS = ("hands", "rotated hands", "matches", "rotated matches", "tournaments", "rotated tournaments", "sweep",
         "league")
"""The result kinds whose rows docs/data.md lists (a sweep of matches adds the matches' columns)."""


def describe(name: str) -> tuple[str, tuple[str, str, str]]:
    """(the catalogue's name, its entry) of a column; KeyError for a column it lacks."""
    if name in ABOUT:
        return name, ABOUT[name]
    generic = re.sub(r"_\d+$", "_<s>", name)
    if generic in ABOUT:
        return generic, ABOUT[generic]
    generic = re.sub(r"_\d+$", "_<p>", name)
    if generic in ABOUT:
        return generic, ABOUT[generic]
    if re.fullmatch(r"(table|rules|scoring|tournament|bots)_[a-z0-9_]+", name):
        return "<section>_<key>", ABOUT["<section>_<key>"]
    raise KeyError(f"column {name!r} is not described in unosim.run.columns.ABOUT")


def type_text(kind: pa.DataType) -> str:
    if pa.types.is_dictionary(kind):
        return "string (dictionary)"
    return {"bool": "bool", "large_string": "string"}.get(str(kind), str(kind))


def _config(players: int, seats: Any = "random") -> Any:
    from unosim.rules.config import default_config

    return default_config().with_values({"players": players, "seats": seats})


def kind_schema(kind: str, players: int = 4) -> pa.Schema:
    """The schema the writers give a result of ``kind`` at ``players`` (a sweep: its
    points at 2 and ``players``, varying rules.stacking; a league: a table of ``players``)."""
    from unosim.run.dataset import Shape
    from unosim.run.modes import MODES
    from unosim.run.seating import SeatRotation
    from unosim.run.store import Columns

    mode = {"hands": "hands", "rotated hands": "rotated", "matches": "matches", "rotated matches": "rotated_matches",
            "tournaments": "tournaments", "rotated tournaments": "rotated_tournaments", "sweep": "hands",
            "league": "rotated"}[kind]
    m = MODES[mode]
    table = Columns(m.columns(players), 0).table({})
    if m.rotated:
        rot = SeatRotation(_config(players))
        instances = np.zeros((0, 4), np.int64) if m.file_mode == "tournaments" else None
        table = rot.add_columns(table, np.zeros(0, np.int64), instances)
    if kind == "sweep":
        from unosim.run.dataset import point_shape
        from unosim.run.sweep import parse_sweep

        sw = parse_sweep({"name": "s", "hands": 1, "axes": {"rules.stacking": ["draw2"]},
                          "strata": {"table.players": sorted({2, players})}})
        table = point_shape(sw, 0)(Columns(m.columns(2), 0).table({}))
    if kind == "league":
        table = Shape(constants=(("league_table", 0, pa.int32()), ("league_order", 0, pa.int32())))(table)
    return table.schema


def markdown(players: int = 4) -> str:
    """docs/data.md's table: every column once (per-seat columns as ``name_<s>``), with the
    kinds of result whose rows have it."""
    rows: dict[str, list[Any]] = {}
    for kind in KINDS:
        for f in kind_schema(kind, players):
            name, (unit, meaning, rules) = describe(f.name)
            entry = rows.setdefault(name, [type_text(f.type), unit, meaning, rules, []])
            if kind not in entry[4]:
                entry[4].append(kind)
    out = ["| column | type | unit | meaning | rules | in |", "|---|---|---|---|---|---|"]
    for name, (kind, unit, meaning, rules, kinds) in rows.items():
        where = "every result" if len(kinds) == len(KINDS) else ", ".join(kinds)
        if name == "<section>_<key>":
            kind = "the key's: bool, int32, float64 or string (dictionary)"
        out.append(f"| `{name}` | {kind} | {unit} | {meaning} | {rules} | {where} |")
    return "\n".join(out)
