"""Small synthetic result files for the report and plot tests, written here with exactly
the engine's schema (docs/rules.md O1 and the store's column list) and ``unosim.*``
metadata, so those tests do not depend on the engine.

A plain module rather than fixtures: tests call the writers with their own columns
(``from result_files import write_result``; conftest.py puts this directory on
``sys.path``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

INT_COLUMNS = (
    "dealer", "first_player", "winner", "winning_team", "turns", "cards_played",
    "cards_drawn", "reshuffles", "challenges", "uno_penalties", "longest_stack",
    "stack_drawn", "jump_ins", "swaps", "passes", "slaps", "noises", "giveaways", "max_draw",
)  # fmt: skip


def result_table(n: int, players: int, cols: dict[str, Any], matches: bool = False) -> pa.Table:
    """A table with the full engine schema; ``cols`` overrides the zero defaults."""
    cols = dict(cols)
    arrays: dict[str, pa.Array] = {"hand": pa.array(np.arange(n, dtype=np.int64))}
    for c in INT_COLUMNS:
        arrays[c] = pa.array(np.asarray(cols.pop(c, np.zeros(n)), dtype=np.int32))
    arrays["stalled"] = pa.array(np.asarray(cols.pop("stalled", np.zeros(n)), dtype=bool))
    for s in range(players):
        for pre in ("points", "cards", "rank"):
            arrays[f"{pre}_{s}"] = pa.array(np.asarray(cols.pop(f"{pre}_{s}", np.zeros(n)), dtype=np.int32))
    if matches:
        arrays["match"] = pa.array(np.asarray(cols.pop("match"), dtype=np.int64))
        arrays["hand_in_match"] = pa.array(np.asarray(cols.pop("hand_in_match"), dtype=np.int32))
        for s in range(players):
            for pre in ("pos_total", "neg_total"):
                arrays[f"{pre}_{s}"] = pa.array(np.asarray(cols.pop(f"{pre}_{s}"), dtype=np.int32))
        for c in ("pos_end", "neg_end"):
            arrays[c] = pa.array(np.asarray(cols.pop(c), dtype=bool))
    for s in range(players):
        if f"bot_{s}" in cols:
            arrays[f"bot_{s}"] = pa.array([str(x) for x in cols.pop(f"bot_{s}")], pa.string())
    assert not cols, f"unknown columns {sorted(cols)}"
    return pa.table(arrays)


def write_result(
    path: Path,
    cols: dict[str, Any],
    players: int = 4,
    name: str = "standard",
    bots: list[str] | None = None,
    teams: int = 1,
    finish: str = "first_out",
    config: str | None = None,
    row_group_size: int | None = None,
) -> Path:
    """Write a result file with the engine's columns and ``unosim.*`` metadata."""
    n = len(next(iter(cols.values())))
    matches = "match" in cols
    table = result_table(n, players, cols, matches)
    meta = {
        "unosim.version": "0.1.0",
        "unosim.engine_version": "1",
        "unosim.config": config or f'name = "{name}"\n[table]\nplayers = {players}\n',
        "unosim.config_name": name,
        "unosim.seed": "1",
        "unosim.players": str(players),
        "unosim.teams": str(teams),
        "unosim.match_target": "500",
        "unosim.bots": json.dumps(bots or ["random"] * players),
        "unosim.mode": "matches" if matches else "hands",
        "unosim.finish": finish,
    }
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=row_group_size)
    return path


# 10 hands, 4 players; row 5 is stalled.
DEALER = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
WINNER = [1, 2, 3, 0, 2, -1, 3, 1, 1, 2]
TURNS = [10, 20, 30, 40, 50, 5000, 70, 80, 90, 100]
PLAYED = [9, 19, 29, 39, 49, 400, 69, 79, 89, 99]
DRAWN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def ten_hands(**extra: Any) -> dict[str, Any]:
    stalled = [w == -1 for w in WINNER]
    return {
        "dealer": DEALER, "first_player": [(d + 1) % 4 for d in DEALER], "winner": WINNER,
        "winning_team": WINNER, "stalled": stalled, "turns": TURNS, "cards_played": PLAYED,
        "cards_drawn": DRAWN, "reshuffles": [0] * 9 + [2], **extra,
    }  # fmt: skip


def match_file(tmp_path: Path, name: str = "m.parquet", **kw: Any) -> Path:
    """Two 3-player matches.

    Match 0 (3 hands): S1 ends on hand 2 with seat 1 at 510; S2 ends on hand 1 with
    totals (520, 30, 30): seats 1 and 2 tie for the lowest and share the win.
    Match 1 (2 hands): both end on hand 1; S1 seat 0 (600), S2 seat 2 (10, 5 < ...).
    """
    pos = [[0, 200, 0], [0, 300, 0], [0, 510, 0], [300, 0, 0], [600, 0, 0]]
    neg = [[300, 10, 0], [520, 30, 30], [520, 30, 30], [10, 100, 5], [10, 550, 5]]
    cols = {
        "dealer": [0, 1, 2, 0, 1], "winner": [1, 1, 1, 0, 0], "winning_team": [1, 1, 1, 0, 0],
        "turns": [30, 40, 50, 60, 70], "cards_played": [1] * 5,
        "match": [0, 0, 0, 1, 1], "hand_in_match": [0, 1, 2, 0, 1],
        "pos_end": [False, False, True, False, True], "neg_end": [False, True, False, False, True],
    }  # fmt: skip
    for s in range(3):
        cols[f"pos_total_{s}"] = [r[s] for r in pos]
        cols[f"neg_total_{s}"] = [r[s] for r in neg]
    cols.update(kw)
    return write_result(tmp_path / name, cols, players=3, **({"bots": ["a", "b", "b"]}))


def sweep(tmp_path: Path, meta_stacking: str | None = None) -> Path:
    """stacking x players; stacking makes games longer and favours dealer+1.

    Each file's ``unosim.rules.config`` holds its own point's config, or, with
    ``meta_stacking``, the same base config with that stacking value.
    """
    root = tmp_path / "sweep"
    for players in (2, 4):
        for stacking, extra in (("none", 0), ("draw2", 20), ("all", 60)):
            n = 40
            dealer = [h % players for h in range(n)]
            won_first = 20 + extra // 4  # of 40 hands, dealer+1 wins this many
            winner = [(d + 1) % players if h < won_first else d for h, d in enumerate(dealer)]
            cols = {
                "dealer": dealer, "winner": winner, "winning_team": winner,
                "turns": [50 + extra + (h % 7) for h in range(n)],
                "cards_drawn": [10 + extra // 10 + (h % 3) for h in range(n)],
                "longest_stack": [1 + (stacking != "none")] * n,  # the rule acted (report/triggers.py)
            }  # fmt: skip
            shown = meta_stacking or stacking
            cfg = f'name = "sweep"\n[table]\nplayers = {players}\n[rules]\nstacking = "{shown}"\n'
            write_result(root / f"stacking={stacking}" / f"players={players}" / "part-00000.parquet",
                         cols, players=players, name="sweep", config=cfg)  # fmt: skip
    return root
