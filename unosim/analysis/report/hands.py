"""Hand figures: hands and stalls, win shares by seat, by position after the dealer,
by team and by bot, game length and the per-hand counters."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from unosim.analysis import stats
from unosim.analysis.report.model import LENGTH_COLUMNS, MAX_COUNTERS
from unosim.analysis.report.stream import Aggregate, HistStats, hist_quantile


class Rows:
    """Collects figure rows for one label."""

    def __init__(self, label: str, confidence: float) -> None:
        self.label = label
        self.confidence = confidence
        self.rows: list[dict[str, Any]] = []

    def _add(self, section: str, figure: str, key: Any, stat: str, value: float, **kw: Any) -> None:
        row = {
            "label": self.label, "section": section, "figure": figure, "key": str(key),
            "stat": stat, "value": float(value), "low": math.nan, "high": math.nan,
            "n": math.nan, "successes": math.nan, "sd": math.nan, "clusters": math.nan,
        }  # fmt: skip
        row.update({k: float(v) for k, v in kw.items()})
        self.rows.append(row)

    def share(self, section: str, figure: str, key: Any, x: float, n: float) -> None:
        p, lo, hi = stats.proportion(x, n, self.confidence)
        self._add(section, figure, key, "share", p, low=lo, high=hi, n=n, successes=x)

    def clustered_share(self, section: str, figure: str, key: Any, x: np.ndarray, n: np.ndarray) -> None:
        """A share from per-cluster totals (the rotations of one match or tournament), its
        interval cluster-robust (:func:`unosim.analysis.stats.clustered_share`)."""
        p, lo, hi = stats.clustered_share(x, n, self.confidence)
        self._add(section, figure, key, "share", p, low=lo, high=hi, n=float(np.sum(n)), successes=float(np.sum(x)),
                  clusters=len(x))

    def count(self, section: str, figure: str, key: Any, value: float) -> None:
        self._add(section, figure, key, "count", value)

    def mean(self, section: str, figure: str, key: Any, mean: float, sd: float, n: int,
             clusters: tuple[np.ndarray, np.ndarray] | None = None, floor: float | None = None) -> None:
        """A mean with its t interval, or the cluster-robust one given ``clusters`` (each
        cluster's sum and count); ``floor``: the least value a hand can have, which bounds the
        interval."""
        if clusters is None:
            _, lo, hi = stats.mean_interval_from_moments(mean, sd, n, self.confidence)
        else:
            _, lo, hi = stats.clustered_mean(*clusters, self.confidence)
        if floor is not None and np.isfinite(lo):
            lo = max(float(lo), floor)
        more = {} if clusters is None else {"clusters": len(clusters[0])}
        self._add(section, figure, key, "mean", mean, low=lo, high=hi, n=n, sd=sd, **more)

    def plain(self, section: str, figure: str, key: Any, stat: str, value: float) -> None:
        self._add(section, figure, key, stat, value)

    def distribution(self, section: str, figure: str, h: np.ndarray, qs: Sequence[float],
                     clusters: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """Mean with interval (``clusters``: as :meth:`mean`) and quantiles of an integer histogram."""
        st = HistStats.of(h)
        self.mean(section, figure, "", st.mean, st.sd, st.n, clusters, floor=0.0)  # a histogram counts from 0
        for q in qs:
            name = "median" if q == 0.5 else f"p{round(q * 100)}"
            self.plain(section, figure, "", name, hist_quantile(h, q) if st.n else math.nan)


def hand_rows(agg: Aggregate, out: Rows) -> None:
    info, p = agg.src.info, agg.players
    decided = agg.n - agg.stalled
    cl = agg.clusters  # a seat-rotated run: shares over its deals (matches, tournaments) as clusters

    def share(section: str, figure: str, key: Any, x: float, n: float, cx: str, cn: str) -> None:
        if cl is None:
            out.share(section, figure, key, x, n)
        else:
            out.clustered_share(section, figure, key, cl.totals(cx), cl.totals(cn))

    out.count("hands", "hands", "", agg.n)
    share("hands", "stalled", "", agg.stalled, agg.n, "stalled", "rows")
    for s in range(p):
        share("seat", "win_share", s, agg.seat_wins[s], decided, f"seat:{s}", "decided")
    for r in range(p):
        share("after_dealer", "win_share", r, agg.rel_wins[r], decided, f"after_dealer:{r}", "decided")
    if agg.teams > 1:
        for t in range(agg.teams):
            share("team", "win_share", t, agg.team_wins[t], decided, f"team:{t}", "decided")
    bot_wins, bot_held = agg.bot_wins, agg.bot_seat_hands
    labels = info.seat_labels
    if not agg.bot_cols and len(set(labels)) > 1 and not agg.tournaments:  # T1: seats change
        bot_wins, bot_held = {}, {}
        for s, b in enumerate(labels[:p]):
            bot_wins[b] = bot_wins.get(b, 0) + int(agg.seat_wins[s])
            bot_held[b] = bot_held.get(b, 0) + decided
    for b in sorted(bot_wins):
        share("bot", "win_share", b, bot_wins[b], decided, f"won:{b}", "decided")
        share("bot", "win_per_seat", b, bot_wins[b], bot_held[b], f"won:{b}", f"held:{b}")

    def sums(c: str) -> tuple[np.ndarray, np.ndarray] | None:
        return None if cl is None else (cl.sum_totals(c), cl.totals("rows"))

    for c in LENGTH_COLUMNS:
        if c in agg.hists:
            out.distribution("length", c, agg.hists[c], (0.5, 0.9, 0.99), sums(c))
    for c in agg.counters:
        if c not in agg.hists:
            continue
        st = HistStats.of(agg.hists[c])
        out.mean("counters", c, "", st.mean, st.sd, st.n, sums(c), floor=0.0)
        if c in MAX_COUNTERS:
            out.plain("counters", c, "", "max", st.maximum)
