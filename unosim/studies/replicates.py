"""Search noise: a figure of a tuned bot, combined over independently tuned replicates.

The mean has variance tau^2 / K + mean(v) / K (tau^2 by the method of moments, pooled per
table size) and a Student t interval.  Why: docs/skill.md, "Search noise".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as st

__all__ = ["Combined", "combine", "quantile"]


@dataclass(frozen=True)
class Combined:
    """Per point: the mean over replicates, its standard error and the replicates' sd; for
    the group, tau^2 and the intervals' degrees of freedom (None: no search noise estimate)."""

    mean: np.ndarray
    se: np.ndarray
    sd: np.ndarray
    tau2: float
    df: int | None

    def interval(self, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        q = quantile(self.df, confidence)
        return self.mean - q * self.se, self.mean + q * self.se


def quantile(df: int | float | None, confidence: float = 0.95) -> float:
    """Two-sided Student t quantile with ``df`` degrees of freedom (normal when None)."""
    if df is None or not np.isfinite(df) or df <= 0:
        return float(st.norm.ppf(0.5 + confidence / 2))
    return float(st.t.ppf(0.5 + confidence / 2, df))


def combine(values: np.ndarray, ses: np.ndarray) -> Combined:
    """``values``, ``ses``: (points, K) per-replicate estimates and their measurement
    standard errors, every point of one group (one table size).  See the module."""
    y = np.atleast_2d(np.asarray(values, float))
    v = np.atleast_2d(np.asarray(ses, float)) ** 2
    P, K = y.shape
    mean = y.mean(axis=1)
    vbar = v.mean(axis=1)
    if K < 2:
        return Combined(mean, np.sqrt(vbar / K), np.full(P, np.nan), 0.0, None)
    s2 = y.var(axis=1, ddof=1)
    tau2 = max(0.0, float((s2 - vbar).mean()))
    return Combined(mean, np.sqrt((tau2 + vbar) / K), np.sqrt(s2), tau2, P * (K - 1))
