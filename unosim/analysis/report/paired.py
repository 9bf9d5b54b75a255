"""Differences of two hand runs that played the same deals, paired hand by hand.

A mean takes the paired t interval, a share the delta method's standard error over hands;
both runs stream in lockstep.  Why: docs/design.md, "Paired differences".
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow.parquet as pq
from scipy import stats as _st

from unosim.analysis import stats
from unosim.analysis.report.model import BASE_COUNTERS, HOUSE_COUNTERS, LENGTH_COLUMNS
from unosim.analysis.report.sources import Source
from unosim.analysis.report.stream import _iter_batches
from unosim.run import outcomes
from unosim.run.modes import mode_of_file

__all__ = ["PAIRED", "FigureKey", "paired_intervals"]

PAIRED = "paired hand by hand"
"""The words every note of a paired comparison holds (figures put such notes in the caption:
they say how the intervals were made, not what the reader must know first)."""

FigureKey = tuple[str, str, str, str]
"""(section, figure, key, stat) of a report row."""

_BLOCK = 1 << 17


def pairable(a: Source, b: Source) -> bool:
    """Whether two sources can be paired by hand: unrotated hand runs of the same table
    size, read from files."""
    try:
        modes = [mode_of_file(s.info.mode, s.info.rotate_seats) for s in (a, b)]
    except KeyError:  # a mode no run writes
        return False
    return (all(m.pairs_by_hand for m in modes) and a.frame is None and b.frame is None
            and "rotation" not in a.names and "rotation" not in b.names and a.info.players == b.info.players
            and "hand" in a.names and "hand" in b.names)


def _blocks(it: Iterator[dict[str, Any]], size: int) -> Iterator[dict[str, np.ndarray]]:
    """The batches of ``it`` re-cut into blocks of ``size`` rows (the last one shorter)."""
    pending: list[dict[str, np.ndarray]] = []
    have = 0
    for b in it:
        pending.append(b)
        have += len(b["hand"])
        while have >= size:
            whole = {c: np.concatenate([p[c] for p in pending]) for c in pending[0]}
            yield {c: v[:size] for c, v in whole.items()}
            pending, have = [{c: v[size:] for c, v in whole.items()}], have - size
    if have:
        yield {c: np.concatenate([p[c] for p in pending]) for c in pending[0]}


def _figures(b: dict[str, np.ndarray], players: int, teams: int,
             means: Sequence[str]) -> dict[FigureKey, tuple[np.ndarray, np.ndarray | None]]:
    """Each paired figure of one block of hands: (x, n) per hand for a share, (value, None)
    for a mean."""
    stalled = np.asarray(b["stalled"], dtype=bool)
    decided = (~stalled).astype(np.float64)
    winner = np.asarray(b["winner"]).astype(np.int64)
    rel = outcomes.from_dealer(winner, np.asarray(b["dealer"]).astype(np.int64), players)
    out: dict[FigureKey, tuple[np.ndarray, np.ndarray | None]] = {
        ("hands", "stalled", "", "share"): (stalled.astype(np.float64), np.ones(len(stalled)))}
    for s in range(players):
        out[("seat", "win_share", str(s), "share")] = (decided * (winner == s), decided)
        out[("after_dealer", "win_share", str(s), "share")] = (decided * (rel == s), decided)
    if teams > 1 and "winning_team" in b:
        team = np.asarray(b["winning_team"]).astype(np.int64)
        for t in range(teams):
            out[("team", "win_share", str(t), "share")] = (decided * (team == t), decided)
    for c in means:
        section = "length" if c in LENGTH_COLUMNS else "counters"
        out[(section, c, "", "mean")] = (np.asarray(b[c]).astype(np.float64), None)
    return out


class _Sums:
    """What one figure's interval needs of its pairs: the totals of v_h = (x1, n1, x2, n2)
    and their Gram matrix sum(v_h v_h')."""

    def __init__(self) -> None:
        self.total = np.zeros(4)
        self.gram = np.zeros((4, 4))
        self.hands = 0

    def add(self, x1: np.ndarray, n1: np.ndarray, x2: np.ndarray, n2: np.ndarray) -> None:
        v = np.stack([x1, n1, x2, n2])
        self.total += v.sum(axis=1)
        self.gram += v @ v.T
        self.hands += len(x1)

    def interval(self, mean: bool, confidence: float) -> stats.Interval:
        (x1, n1, x2, n2), h = self.total, self.hands
        if h < 2 or not n1 or not n2:
            return stats.Interval(math.nan, math.nan, math.nan)
        p1, p2 = x1 / n1, x2 / n2
        w = np.array([1 / n1, -p1 / n1, -1 / n2, p2 / n2])
        # the quadratic form cancels large terms: what is left within rounding of their size
        # is no spread (a run against an identical copy), not a tiny one
        var = float(w @ self.gram @ w)
        if var <= 1e-9 * float(np.abs(w) @ self.gram @ np.abs(w)):
            var = 0.0
        se = math.sqrt(h / (h - 1) * var)
        q = float(_st.t.ppf(0.5 + confidence / 2.0, h - 1)) if mean else stats.z_value(confidence)
        d = p1 - p2
        return stats.Interval(d, d - q * se, d + q * se)


def paired_intervals(other: Source, base: Source, confidence: float = 0.95) -> dict[FigureKey, stats.Interval] | None:
    """``other - base`` of every paired figure, or None when the two cannot be paired."""
    if not pairable(other, base):
        return None
    players, teams = other.info.players, min(other.info.teams, base.info.teams)
    means = [c for c in (*LENGTH_COLUMNS, *BASE_COUNTERS, *HOUSE_COUNTERS) if c in other.names and c in base.names]
    cols = ["hand", "stalled", "winner", "dealer", *(["winning_team"] if teams > 1 else []), *means]
    if any(c not in s.names for s in (other, base) for c in cols):
        return None
    sums: dict[FigureKey, _Sums] = {}
    pairs = zip(_blocks(_iter_batches(other, cols), _BLOCK), _blocks(_iter_batches(base, cols), _BLOCK))
    n_other = n_base = 0
    for bo, bb in pairs:
        n_other, n_base = n_other + len(bo["hand"]), n_base + len(bb["hand"])
        if len(bo["hand"]) != len(bb["hand"]) or not np.array_equal(bo["hand"], bb["hand"]):
            return None
        fo, fb = _figures(bo, players, teams, means), _figures(bb, players, teams, means)
        for key, (x1, n1) in fo.items():
            x2, n2 = fb[key]
            ones = np.ones(len(x1))
            sums.setdefault(key, _Sums()).add(x1, ones if n1 is None else n1, x2, ones if n2 is None else n2)
    if not sums or n_other != n_base or n_other != _rows(other) or n_base != _rows(base):
        return None  # one ran out first: other hands
    out = {key: s.interval(key[3] == "mean", confidence) for key, s in sums.items()}
    # no spread between the pairs (no stall in either run, a counter zero in both, a rule
    # that changed no hand): nothing to estimate the noise from, so the figure keeps its
    # independent interval rather than shrink to the point
    return {key: iv for key, iv in out.items() if iv.high > iv.low}


def _rows(src: Source) -> int:
    """The rows of a source, from its files' metadata."""
    return sum(pq.ParquetFile(f).metadata.num_rows for f in src.files)
