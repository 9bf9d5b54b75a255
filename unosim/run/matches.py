"""Match play and the scoring systems (docs/rules.md S1-S4, R4, H12, H13, R13).

:func:`run_matches` stores one row per hand: the O1 record plus the match columns
(docs/output.md; the choices left open: docs/design.md, "Matches and tournaments").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim.rules.config import RulesConfig
from unosim.engine.matches import HAND_STRIDE
from unosim.run import outcomes
from unosim.run.jobs import DEFAULT_MATCH_CHUNK, DEFAULT_MAX_HANDS
from unosim.run.play import Slabs, match_columns, play_match_chunk
from unosim.run.runner import run_matches

if TYPE_CHECKING:  # loaded by the functions that read results, so `unosim run` starts without it
    import pandas as pd

__all__ = [
    "DEFAULT_MATCH_CHUNK", "DEFAULT_MAX_HANDS", "HAND_STRIDE", "MatchScore", "SYSTEMS", "Slabs", "match_columns",
    "match_outcomes", "play_match_chunk", "run_matches", "running_totals", "score_match",
]


# --------------------------------------------------------------------------- reference scorer


@dataclass
class MatchScore:
    """A match scored by :func:`score_match`: per-seat totals, one row per hand; ``pos_end``/
    ``neg_end`` the 0-based hand where that system ended (None: not ended); winners are seats."""

    pos_totals: np.ndarray
    neg_totals: np.ndarray
    pos_end: int | None
    neg_end: int | None
    pos_winners: tuple[int, ...]
    neg_winners: tuple[int, ...]
    chips_totals: np.ndarray | None = None
    chips_end: int | None = None
    chips_winners: tuple[int, ...] = ()

    @property
    def hands(self) -> int:
        """Hands the match took: up to the later of the two ends (S3)."""
        return len(self.pos_totals)

    def frame(self) -> pd.DataFrame:
        """The match columns as the kernel writes them, one row per hand."""
        import pandas as pd

        n = self.pos_totals.shape[1]
        d: dict[str, Any] = {"hand_in_match": np.arange(self.hands)}
        d["pos_end"] = d["hand_in_match"] == (-1 if self.pos_end is None else self.pos_end)
        d["neg_end"] = d["hand_in_match"] == (-1 if self.neg_end is None else self.neg_end)
        for s in range(n):
            d[f"pos_total_{s}"] = self.pos_totals[:, s]
        for s in range(n):
            d[f"neg_total_{s}"] = self.neg_totals[:, s]
        if self.chips_totals is not None:
            d["chips_end"] = d["hand_in_match"] == (-1 if self.chips_end is None else self.chips_end)
            for s in range(n):
                d[f"chips_total_{s}"] = self.chips_totals[:, s]
        return pd.DataFrame(d)


def _side(s: int, teams: int) -> int:
    """The side seat ``s`` plays for: its team (H12), else the seat itself."""
    return s % teams if teams > 1 else s


def _gains(r: Mapping[str, Any], n: int, teams: int, ranked: bool) -> tuple[list[int], list[int]]:
    """One hand's S1 and S2 gains per side (nothing for a stalled hand)."""
    sides = teams if teams > 1 else n
    gain_pos = [0] * sides
    gain_neg = [0] * sides
    if not bool(r["stalled"]):
        if ranked:
            for s in range(n):
                gain_pos[_side(s, teams)] += n + 1 - 2 * int(r[f"rank_{s}"])
        else:
            ws = _side(int(r["winner"]), teams)
            for s in range(n):
                if _side(s, teams) != ws:
                    gain_pos[ws] += int(r[f"points_{s}"])
                    gain_neg[_side(s, teams)] += int(r[f"points_{s}"])
    return gain_pos, gain_neg


def _chip_moves(r: Mapping[str, Any], n: int, teams: int, ranked: bool) -> list[int]:
    """S4, as its text says it: each losing side pays the winning side its own points
    (H13: each side's balance moves by its rank points)."""
    move = [0] * (teams if teams > 1 else n)
    if bool(r["stalled"]):
        return move
    for s in range(n):
        if ranked:
            move[_side(s, teams)] += n + 1 - 2 * int(r[f"rank_{s}"])
        elif _side(s, teams) != _side(int(r["winner"]), teams):
            move[_side(s, teams)] -= int(r[f"points_{s}"])
            move[_side(int(r["winner"]), teams)] += int(r[f"points_{s}"])
    return move


def _records(hand_rows: pd.DataFrame | Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return list(hand_rows) if isinstance(hand_rows, Sequence) else hand_rows.to_dict("records")


def running_totals(hand_rows: pd.DataFrame | Sequence[Mapping[str, Any]],
                   cfg: RulesConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """S1, S2 and S4 totals per seat after every hand, never frozen (a system's match may
    have ended): the quantities S4's invariant speaks of (balance = S1 total - S2 total)."""
    n, teams, ranked = cfg.players, cfg.teams, cfg.finish == "last_standing"

    sides = teams if teams > 1 else n
    pos, neg, chips = [0] * sides, [0] * sides, [0] * sides
    out: list[list[list[int]]] = [[], [], []]
    for r in _records(hand_rows):
        gp, gn = _gains(r, n, teams, ranked)
        mv = _chip_moves(r, n, teams, ranked)
        pos = [a + b for a, b in zip(pos, gp)]
        neg = [a + b for a, b in zip(neg, gn)]
        chips = [a + b for a, b in zip(chips, mv)]
        for k, tot in enumerate((pos, neg, chips)):
            out[k].append([tot[_side(s, teams)] for s in range(n)])
    return tuple(np.array(o, np.int64).reshape(-1, n) for o in out)  # type: ignore[return-value]


def score_match(hand_rows: pd.DataFrame | Sequence[Mapping[str, Any]], cfg: RulesConfig) -> MatchScore:
    """Score a sequence of hands under S1, S2 and S4, the slow obvious way (tests check the
    kernel against it).

    ``hand_rows`` gives, per hand in order, ``stalled``, ``winner`` and per seat
    ``points_<s>`` (and ``rank_<s>`` under last_standing), as in a result file.  Hands
    after every system has ended are ignored.  Rules: a stalled hand scores nothing; S1,
    the winner's side scores every other side's points; S2, every other side adds its own
    points; S4, every other side pays its own points to the winner's side; S1 and S2 end
    on the hand where a side's total reaches ``match_target``, S4 after ``chips_hands``
    hands; S1's and S4's winners are the sides at the highest total, S2's at the lowest.
    H12: a side is a team (seat s plays for team s mod teams).  H13 last_standing: each
    side adds its members' rank points n + 1 - 2r to its S1 total and S4 balance, and S2
    is not kept (totals 0, never ends)."""
    rows = _records(hand_rows)
    n, teams, target = cfg.players, cfg.teams, cfg.match_target
    ranked = cfg.finish == "last_standing"

    sides = teams if teams > 1 else n
    pos = [0] * sides
    neg = [0] * sides
    chips = [0] * sides
    pos_end: int | None = None
    neg_end: int | None = None
    chips_end: int | None = None
    pos_hist: list[list[int]] = []
    neg_hist: list[list[int]] = []
    chips_hist: list[list[int]] = []
    for h, r in enumerate(rows):
        if pos_end is not None and (neg_end is not None or ranked) and chips_end is not None:
            break
        gain_pos, gain_neg = _gains(r, n, teams, ranked)
        if pos_end is None:
            pos = [a + b for a, b in zip(pos, gain_pos)]
            if max(pos) >= target:
                pos_end = h
        if neg_end is None and not ranked:
            neg = [a + b for a, b in zip(neg, gain_neg)]
            if max(neg) >= target:
                neg_end = h
        if chips_end is None:
            chips = [a + b for a, b in zip(chips, _chip_moves(r, n, teams, ranked))]
            if h + 1 >= cfg.chips_hands:
                chips_end = h
        pos_hist.append([pos[_side(s, teams)] for s in range(n)])
        neg_hist.append([neg[_side(s, teams)] for s in range(n)])
        chips_hist.append([chips[_side(s, teams)] for s in range(n)])
    pos_t = np.array(pos_hist, np.int64).reshape(-1, n)
    neg_t = np.array(neg_hist, np.int64).reshape(-1, n)
    chips_t = np.array(chips_hist, np.int64).reshape(-1, n)
    pos_w = tuple(s for s in range(n) if pos_end is not None and pos[_side(s, teams)] == max(pos))
    neg_w = tuple(s for s in range(n) if neg_end is not None and neg[_side(s, teams)] == min(neg))
    chips_w = tuple(s for s in range(n) if chips_end is not None and chips[_side(s, teams)] == max(chips))
    return MatchScore(pos_t, neg_t, pos_end, neg_end, pos_w, neg_w, chips_t, chips_end, chips_w)


# --------------------------------------------------------------------------- per-match table


SYSTEMS = tuple(outcomes.BEST.items())
"""The scoring systems of a match run as column prefixes (S1, S2, S4) and how they crown."""


def match_outcomes(results: str | Path | pd.DataFrame) -> pd.DataFrame:
    """One row per match: ``match``, ``first_dealer``, ``hands`` and per system (``pos`` S1,
    ``neg`` S2, ``chips`` S4) ``<sys>_hands`` (NaN if it did not end), ``<sys>_winner`` (-1 a
    tie, -2 not ended) and ``<sys>_win_<s>`` (seat s's credit, 1/k for a k-way tie)."""
    import pandas as pd

    df = results if isinstance(results, pd.DataFrame) else pd.read_parquet(results)
    df = df.sort_values(["match", "hand_in_match"])
    n = sum(1 for c in df.columns if c.startswith("pos_total_"))
    g = df.groupby("match", sort=True)
    out = pd.DataFrame({"first_dealer": g["dealer"].first(), "hands": g["hand_in_match"].max() + 1,
                        "capped": g["capped"].any() if "capped" in df else False})
    for pre, best in SYSTEMS:
        if f"{pre}_end" not in df:
            continue
        ended = df[df[f"{pre}_end"].astype(bool)].set_index("match")
        win = outcomes.winners(ended[[f"{pre}_total_{s}" for s in range(n)]].to_numpy(np.float64), best)
        credit = outcomes.credit(win)
        winner = outcomes.sole_winner(win)
        out[f"{pre}_hands"] = (ended["hand_in_match"] + 1).reindex(out.index)
        out[f"{pre}_winner"] = pd.Series(winner, index=ended.index).reindex(out.index).fillna(-2).astype(int)
        for s in range(n):
            out[f"{pre}_win_{s}"] = pd.Series(credit[:, s], index=ended.index).reindex(out.index).fillna(0.0)
    return out.reset_index()
