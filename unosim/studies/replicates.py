"""Search noise: a figure of a tuned bot, combined over independently tuned replicates.

A tuned bot's strength has two kinds of luck: the deals it is measured on (the interval
of one check) and the search that found it (another seed tunes another bot, a little
stronger or weaker).  The second is invisible in one run, and between two separately
tuned rule sets it was larger than the first (heads-up, a standard deviation of about 1.5
points of skill index against an interval of +-1.25).  So `unosim tune --replicates K` and
`unosim skill --replicates K` tune K times with independent seeds (seed, seed+1, ...),
measure each replicate on its own fresh deals, and combine them here:

* the estimate is the plain mean over the replicates (every replicate is measured on as
  many deals, so equal weights are the random-effects weights);
* its variance is tau^2 / K + mean(v) / K, where v is each replicate's measurement variance
  (from its interval) and tau^2 the between-replicate (search) variance, estimated by the
  method of moments: the replicates' sample variance minus mean(v), never below 0;
* tau^2 is pooled over the points that share a table size (a sweep's points are tuned
  with the same search and budget, so their search noise is alike; one point's three
  replicates alone would give a very uncertain tau^2), with (K-1) degrees of freedom per
  point, and the interval uses Student's t with the pooled degrees of freedom: for one
  rule set tuned 3 times, t with 2 df (4.30 instead of 1.96);
* a difference of two points (the balance report's skill column) adds the two variances
  (separate tunings) and uses the same t.

With K = 1 there is no estimate of tau^2: the interval is the measurement's alone (as it
was before replicates), and the commands say so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as st

__all__ = ["Combined", "combine", "quantile"]


@dataclass(frozen=True)
class Combined:
    """Per point: the mean over replicates, its standard error (search noise included),
    the replicates' own standard deviation; and, for the group, tau^2 and the degrees of
    freedom of the intervals (None: no replicates to estimate the search noise)."""

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
