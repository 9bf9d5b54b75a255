"""The partner-rotation tournament (docs/rules.md T1): schedule, seating, rows.

For 4 or 8 players, each keeping its bot, every player partnering every other once;
partners sit at seats 0/2 and 1/3 with ``teams = 2``.  The rows: docs/output.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim.kernel.layout import HAND_STRIDE
from unosim.rules.config import RulesConfig, seat_entry, to_params
from unosim.run import outcomes
from unosim.run.store import column_names

if TYPE_CHECKING:  # loaded by the functions that read results, so `unosim run` starts without it
    import pandas as pd

__all__ = ["HAND_STRIDE", "PLAYERS", "Tournament", "pairs", "rounds_tables", "schedule", "score_tournament",
           "tournament_columns", "tournament_outcomes", "tournament_rows"]

PLAYERS = (4, 8)
"""The table sizes T1 is defined for."""
TABLE_SEATS = 4
"""Seats at a T1 table (the tournament kernel's ``TABLE_SEATS``)."""


def _kernel() -> Any:
    """The tournament kernel's module, loaded when a tournament is first played or
    described (a run of hands never loads it)."""
    from unosim.engine import tournaments

    assert tournaments.TABLE_SEATS == TABLE_SEATS and tournaments.MAX_T_PLAYERS == max(PLAYERS)
    return tournaments


def rounds_tables(players: int) -> tuple[int, int]:
    """(rounds, tables) of a T1 tournament: (3, 1) for 4 players, (7, 2) for 8."""
    return (3, 1) if players == 4 else (7, 2)


def tournament_rows(cfg: RulesConfig) -> int:
    """Rows (hands) of one tournament: rounds x tables x ``hands_per_round``."""
    rounds, tables = rounds_tables(cfg.players)
    return rounds * tables * cfg.hands_per_round


def pairs(players: int) -> list[list[tuple[tuple[int, int], tuple[int, int]]]]:
    """Per round, per table: (first pair, second pair), each pair (lower, higher) player."""
    def pair(a: int, b: int) -> tuple[int, int]:
        return (min(a, b), max(a, b))

    if players == 4:
        out = []
        for r in (1, 2, 3):
            rest = [p for p in (1, 2, 3) if p != r]
            out.append([(pair(0, r), pair(*rest))])
        return out
    if players == 8:
        out = []
        for r in range(7):
            k = [pair((r + i) % 7, (r - i) % 7) for i in (1, 2, 3)]
            out.append([(pair(7, r), k[0]), (k[1], k[2])])
        return out
    raise ValueError(f"T1 is for 4 or 8 players, not {players}")


def schedule(players: int) -> np.ndarray:
    """``seating[round, table, seat]``: the player at each seat (T1: first pair at seats 0
    and 2, second at 1 and 3, lower-numbered first)."""
    rounds = pairs(players)
    out = np.zeros((len(rounds), len(rounds[0]), TABLE_SEATS), np.int64)
    for r, tables in enumerate(rounds):
        for x, (a, b) in enumerate(tables):
            out[r, x] = (a[0], b[0], a[1], b[1])
    return out


def tournament_columns(players: int) -> list[tuple[str, int]]:
    """(name, column of the tournament kernel's rows) in file order."""
    k = _kernel()
    extra = [("tournament", k.T_TOURNAMENT), ("round", k.T_ROUND), ("table", k.T_TABLE),
             ("hand_in_round", k.T_HAND_IN_ROUND), ("t_end", k.T_END)]
    extra += [(f"player_{s}", k.T_PLAYER0 + s) for s in range(TABLE_SEATS)]
    cols = column_names(TABLE_SEATS, extra)
    for name, base in (("t_pos_total", k.T_POS0), ("t_neg_total", k.T_NEG0), ("champion_pos", k.T_CHAMP_POS0),
                       ("champion_neg", k.T_CHAMP_NEG0)):
        cols += [(f"{name}_{p}", base + p) for p in range(players)]
    return cols


@dataclass
class Tournament:
    """A config's tournament: its schedule, one parameter vector per (round, table), and the
    kernel call.  In ``rotation`` r player p plays the bot listed for player (p - r) mod n."""

    cfg: RulesConfig
    rotation: int = 0
    players: int = field(init=False)
    seating: np.ndarray = field(init=False, repr=False)   # (rounds * tables, 4)
    params: np.ndarray = field(init=False, repr=False)    # (rounds * tables, N_PARAMS)

    def __post_init__(self) -> None:
        n = self.cfg.players
        if n not in PLAYERS:
            raise ValueError(f"T1 is for 4 or 8 players, not {n}")
        self.players = n
        seats = schedule(n)
        self.rounds, self.tables = seats.shape[:2]
        self.seating = np.ascontiguousarray(seats.reshape(-1, TABLE_SEATS))
        self.params = np.stack([to_params(self.table_config(r, x))
                                for r in range(self.rounds) for x in range(self.tables)])

    def table_config(self, rnd: int, table: int) -> RulesConfig:
        who = schedule(self.players)[rnd, table]
        entries = [seat_entry(*self.cfg.seats[(int(p) - self.rotation) % self.players]) for p in who]
        return self.cfg.with_values({"players": TABLE_SEATS, "teams": 2, "seats": entries})

    @property
    def rows_per(self) -> int:
        """Rows (hands) of one tournament."""
        return tournament_rows(self.cfg)

    @property
    def bot_labels(self) -> list[str]:
        from unosim.run.seating import bot_label

        return [bot_label(name, params) for name, params in self.cfg.seats]

    def play(self, seed: int, start: int, count: int, workers: int, split: bool = False) -> np.ndarray:
        """Kernel rows of tournaments ``start .. start+count-1``, in tournament order
        (``split``: one random stream per hand, as seat-rotated runs play them)."""
        k = _kernel()
        out = np.zeros((count * self.rows_per, k.N_TOUT), np.int64)
        k.play_tournaments(self.params, self.seating, self.players, self.rounds, self.tables, int(seed), int(start),
                           int(count), out, max(1, min(count, workers * 8)), bool(split))
        return out

    def warm_up(self) -> None:
        """Load (or compile) the tournament kernel: an empty call."""
        self.play(0, 0, 0, 1)


# --------------------------------------------------------------------------- reference scorer


def score_tournament(rows: pd.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray, set[int], set[int]]:
    """T1 scoring of one tournament's rows, the slow obvious way (tests check the kernel
    against it): S1 and S2 totals per player and the champions (highest S1, lowest S2)."""
    pos = np.zeros(players, np.int64)
    neg = np.zeros(players, np.int64)
    for r in rows.to_dict("records"):
        if r["stalled"]:
            continue
        seat_player = [int(r[f"player_{s}"]) for s in range(TABLE_SEATS)]
        w = int(r["winner"])
        winners = {seat_player[w], seat_player[(w + 2) % 4]}
        losers = [s for s in range(TABLE_SEATS) if seat_player[s] not in winners]
        left = sum(int(r[f"points_{s}"]) for s in losers)
        for p in winners:
            pos[p] += left
        for s in losers:
            neg[seat_player[s]] += left
    return pos, neg, {p for p in range(players) if pos[p] == pos.max()}, \
        {p for p in range(players) if neg[p] == neg.min()}


def tournament_outcomes(results: Any) -> pd.DataFrame:
    """One row per tournament: ``tournament``, and per system (``pos``, ``neg``)
    ``<sys>_champions`` and ``<sys>_win_<p>`` (player p's credit, 1/k for a k-way tie)."""
    import pandas as pd

    df = results if isinstance(results, pd.DataFrame) else pd.read_parquet(results)
    last = df[df["t_end"].astype(bool)].sort_values("tournament").reset_index(drop=True)
    n = sum(1 for c in df.columns if c.startswith("champion_pos_"))
    out = pd.DataFrame({"tournament": last["tournament"]})
    for pre in ("pos", "neg"):
        win = last[[f"champion_{pre}_{p}" for p in range(n)]].to_numpy(bool)
        credit = outcomes.credit(win)
        out[f"{pre}_champions"] = win.sum(axis=1)
        for p in range(n):
            out[f"{pre}_win_{p}"] = credit[:, p]
    return out

