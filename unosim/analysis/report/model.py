"""The report table: the column sets reports read and write, :class:`Report`, and the
false discovery marks of reports of differences (:func:`with_discoveries`)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Union

import numpy as np
import pandas as pd

from unosim.analysis import stats
from unosim.kernel.layout import COUNTERS


# The counter columns by kind, from the one list of counters (unosim.kernel.layout.COUNTERS).
LENGTH_COLUMNS = tuple(c.column for c in COUNTERS if c.kind == "length")
BASE_COUNTERS = tuple(c.column for c in COUNTERS if c.kind == "base")
HOUSE_COUNTERS = tuple(c.column for c in COUNTERS if c.kind == "house")
#: Counters that are per-hand maxima: their overall maximum is reported too.
MAX_COUNTERS = tuple(c.column for c in COUNTERS if c.maximum)
TABLE_COLUMNS = (
    "label", "section", "figure", "key", "stat",
    "value", "low", "high", "n", "successes", "sd", "clusters",
)  # fmt: skip

PathLike = Union[str, "os.PathLike[str]"]

COMPARE_COLUMNS = (
    "label", "section", "figure", "key", "stat", "base", "value",
    "diff", "low", "high", "effect", "effect_kind", "p", "discovery",
)  # fmt: skip

#: The balance report's metrics: (name, description, effect size kind).
BALANCE_METRICS = (
    ("turns", "mean turns", "d"),
    ("dealer1_win_share", "dealer+1 win share: the share of decided hands won by the seat after the dealer", "h"),
    ("cards_drawn", "mean cards drawn", "d"),
)

#: The one name of each balance figure in every table header, chart panel, summary line and
#: docs/reports.md's glossary (the key stays in CSV and JSON).
FIGURE_NAMES = {
    "turns": "mean turns",
    "dealer1_win_share": "dealer+1 win share",
    "cards_drawn": "mean cards drawn",
    "skill": "skill index",
    "skill_ceiling": "skill ceiling (search)",
}


@dataclass
class Report:
    """A report: a long table of figures (one row each) plus what is needed to render and
    plot it: ``dists``, per label, integer histograms for plots; ``sources``, each label's
    short metadata."""

    kind: str
    table: pd.DataFrame
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    title: str = ""
    dists: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    baseline: str | None = None
    notes: list[str] = field(default_factory=list)  # what the reader must know first (incomplete runs)
    discovery_rate: float | None = None  # the false discovery rate the table's ``discovery`` column holds
    sort: str = "effect"  # a balance report's row order (:func:`unosim.analysis.report.balance.sort_balance`)

    @property
    def labels(self) -> list[str]:
        """The labels in input order."""
        return list(dict.fromkeys(self.table["label"])) if len(self.table) else list(self.sources)

    def players(self, label: str, fallback: int = 0) -> int:
        """The table size of result ``label``, ``fallback`` where its metadata has none."""
        try:
            return int(self.sources.get(label, {}).get("players", fallback))
        except (TypeError, ValueError):
            return fallback

    def figure(self, section: str, figure: str, stat: str | None = None) -> pd.DataFrame:
        """Rows of one figure (a convenience for notebooks and tests)."""
        t = self.table
        m = (t["section"] == section) & (t["figure"] == figure)
        if stat is not None:
            m &= t["stat"] == stat
        return t[m]


COMPARE_FAMILY = ("label", "section")
"""The differences a comparison's false discovery rate is held over: one section (the
seats' win shares, the game length, ...) of one compared result.  Not the whole column:
the many figures a house rule certainly moves (turns, cards drawn) would make the bar
for a seat's share as low as that of an unadjusted interval."""


def discovery_legend(rate: float, over: str) -> str:
    """What a † means, in the one wording of the tables and pages: ``over`` names the
    differences the rate is held over ("row of its column", "difference of its bound")."""
    return (f"† the difference remains with the false discovery rate at {rate:.0%} over every {over} "
            "(Benjamini-Hochberg)")


def with_discoveries(table: pd.DataFrame, confidence: float,
                     by: str | list[str] | tuple[str, ...] = "metric") -> pd.DataFrame:
    """``table`` with ``p`` (each difference's two-sided p-value) and ``discovery`` (whether
    it remains with the false discovery rate at 1 - ``confidence`` over the rows of the same
    ``by``); a row without an interval is never a discovery."""
    inverted = np.atleast_1d(stats.p_from_interval(table["diff"], table["low"], table["high"], confidence))
    own = table["p"].to_numpy(float) if "p" in table else np.full(len(table), np.nan)
    out = table.assign(p=np.where(np.isfinite(own), own, inverted), discovery=False)
    for _, rows in out.groupby(list(by) if isinstance(by, tuple) else by, sort=False):
        out.loc[rows.index, "discovery"] = stats.discoveries(rows["p"].to_numpy(), 1 - confidence)
    return out
