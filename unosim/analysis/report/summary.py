"""The summary reports: :func:`hand_report`, :func:`match_report` and :func:`summarize`,
one streaming pass per source."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from unosim.analysis.report.hands import Rows, hand_rows
from unosim.analysis.report.matches import match_rows, tournament_rows
from unosim.analysis.report.model import LENGTH_COLUMNS, TABLE_COLUMNS, PathLike, Report
from unosim.analysis.report.sources import Result, as_inputs, discover, source_meta
from unosim.analysis.report.stream import aggregate


def _build(
    paths: Any, hands: bool, matches: bool, confidence: float, title: str
) -> Report:
    sources = discover(as_inputs(paths))
    # a sweep's base points first (its directories sort "stacking=none" after "stacking=all"):
    # every other column is read against them
    sources.sort(key=lambda s: (s.origin, (s.info.sweep_point or "").split(",")[0] != "base"))
    aggs = aggregate(sources, hands, matches)
    rows: list[dict[str, Any]] = []
    dists: dict[str, dict[str, np.ndarray]] = {}
    same_champions: list[str] = []
    for agg in aggs:
        label = agg.src.label
        r = Rows(label, confidence)
        d: dict[str, np.ndarray] = {}
        if hands:
            hand_rows(agg, r)
            d.update({c: agg.hists[c] for c in LENGTH_COLUMNS if c in agg.hists})
        if agg.matches:
            match_rows(agg, r, d)
        if agg.champ_cols:
            tournament_rows(agg, r)
            if agg.t_players == 4:
                same_champions.append(label)
        rows += r.rows
        dists[label] = d
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    srcs = source_meta(sources)
    notes = [n for s in sources for n in s.notes] + [f"{SAME_CHAMPIONS} ({label})" for label in same_champions]
    return Report("summary", table, srcs, title, dists, notes=notes)


SAME_CHAMPIONS = ("at 4 players everyone plays every hand, so each player's S1 total plus S2 total is the same sum "
                  "for all: S1 and S2 crown the same players and their champion shares are equal (T1)")
"""Why a 4-player tournament's two champion tables agree (docs/rules.md, T1)."""


def hand_report(
    paths: PathLike | Result | Sequence[PathLike | Result], confidence: float = 0.95
) -> Report:
    """Per-hand figures for every source: hands, stalls, win shares, length, counters."""
    return _build(paths, True, False, confidence, "hands")


def match_report(
    paths: PathLike | Result | Sequence[PathLike | Result], confidence: float = 0.95
) -> Report:
    """Match figures under S1, S2 and S4 for sources with ``match``, and T1 figures for
    sources with ``tournament``; other sources are skipped."""
    return _build(paths, False, True, confidence, "matches")


def summarize(
    paths: PathLike | Result | Sequence[PathLike | Result], confidence: float = 0.95
) -> Report:
    """:func:`hand_report` and, where there are matches, :func:`match_report`, in one pass."""
    return _build(paths, True, True, confidence, "summary")
