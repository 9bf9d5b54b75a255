"""Interval estimates and effect sizes for reports.

Vectorised over numpy arrays, from summary statistics rather than raw samples.
``confidence`` is two-sided; a difference is ``first - second``; undefined results are
``nan``, never an exception.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats as _st

__all__ = [
    "Interval",
    "z_value",
    "wilson_interval",
    "proportion",
    "clustered_share",
    "clustered_mean",
    "ratio_estimate",
    "mean_interval",
    "mean_interval_from_moments",
    "diff_proportions",
    "diff_means",
    "diff_intervals",
    "cohen_h",
    "cohen_d",
]


class Interval(NamedTuple):
    """A point estimate with its two-sided interval (arrays or floats)."""

    estimate: np.ndarray | float
    low: np.ndarray | float
    high: np.ndarray | float


def _out(x: np.ndarray) -> np.ndarray | float:
    """Return 0-d results as plain floats so scalar callers get scalars back."""
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile (1.959964 for 95%), from ``scipy.stats.norm``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(_st.norm.ppf(0.5 + confidence / 2.0))


def wilson_interval(
    successes: ArrayLike, n: ArrayLike, confidence: float = 0.95
) -> tuple[np.ndarray | float, np.ndarray | float]:
    """Wilson score interval for a binomial proportion (it stays in [0, 1] near 0 and 1).
    ``successes`` may be fractional; ``n == 0`` gives ``nan``."""
    x = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / m
        denom = 1.0 + z * z / m
        centre = (p + z * z / (2.0 * m)) / denom
        half = z * np.sqrt(p * (1.0 - p) / m + z * z / (4.0 * m * m)) / denom
    # at p = 0 (or 1) the bound is 0 (or 1) exactly: centre - half only rounds to it
    low = np.where(m > 0, np.where(x <= 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
    high = np.where(m > 0, np.where(x >= m, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
    return _out(low), _out(high)


def proportion(successes: ArrayLike, n: ArrayLike, confidence: float = 0.95) -> Interval:
    """Observed proportion with its Wilson interval."""
    x = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(m > 0, x / np.where(m > 0, m, 1.0), np.nan)
    low, high = wilson_interval(x, m, confidence)
    return Interval(_out(p), low, high)


def clustered_share(x: ArrayLike, n: ArrayLike, confidence: float = 0.95) -> Interval:
    """A share sum(x) / sum(n) from per-cluster totals, with the cluster-robust interval.

    The standard error is the sandwich estimator's over clusters (:func:`ratio_estimate`) and the
    interval normal, clipped to [0, 1]; fewer than two clusters give ``nan`` bounds.  A share
    of exactly 0 or 1 gets the Wilson interval of k independent clusters instead."""
    p, se, k = ratio_estimate(x, n)
    if not np.isfinite(se):
        return Interval(p, math.nan, math.nan)
    if p in (0.0, 1.0):
        low, high = wilson_interval(p * k, k, confidence)
        return Interval(p, float(low), float(high))
    return normal_interval(p, se, z_value(confidence), 0.0, 1.0)


def ratio_estimate(x: ArrayLike, n: ArrayLike) -> tuple[float, float, int]:
    """``sum(x) / sum(n)`` over k clusters, its sandwich standard error
    ``sqrt(k/(k-1) * sum((x_c - r n_c)^2)) / sum(n)`` (nan for fewer than two clusters), and k."""
    xs = np.asarray(x, dtype=float)
    ns = np.asarray(n, dtype=float)
    k, total = len(xs), float(ns.sum())
    if not total:
        return math.nan, math.nan, k
    ratio = float(xs.sum()) / total
    if k < 2:
        return ratio, math.nan, k
    r = xs - ratio * ns
    return ratio, math.sqrt(k / (k - 1) * float((r * r).sum())) / total, k


def clustered_mean(sums: ArrayLike, n: ArrayLike, confidence: float = 0.95) -> Interval:
    """A mean sum(sums) / sum(n) from per-cluster totals, with the cluster-robust interval:
    the sandwich standard error with Student's t on k-1 degrees of freedom (``nan`` bounds for
    fewer than two clusters)."""
    m, se, k = ratio_estimate(sums, n)
    if not np.isfinite(se):
        return Interval(m, math.nan, math.nan)
    half = float(_st.t.ppf(0.5 + confidence / 2.0, k - 1)) * se
    return Interval(m, m - half, m + half)


def mean_interval_from_moments(
    mean: ArrayLike,
    sd: ArrayLike,
    n: ArrayLike,
    confidence: float = 0.95,
    method: str = "t",
) -> Interval:
    """Interval for a mean given its sample mean, sample sd (ddof=1) and size: Student's t
    (``method="t"``) or z (``"normal"``); fewer than two observations give ``nan``."""
    mu = np.asarray(mean, dtype=float)
    s = np.asarray(sd, dtype=float)
    m = np.asarray(n, dtype=float)
    if method == "t":
        with np.errstate(invalid="ignore"):
            q = _st.t.ppf(0.5 + confidence / 2.0, np.where(m > 1, m - 1, np.nan))
    elif method == "normal":
        q = z_value(confidence)
    else:
        raise ValueError(f"method must be 't' or 'normal', got {method!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        half = q * s / np.sqrt(m)
    half = np.where(m > 1, half, np.nan)
    return Interval(_out(mu), _out(mu - half), _out(mu + half))


def mean_interval(
    values: ArrayLike, confidence: float = 0.95, method: str = "t"
) -> Interval:
    """Sample mean of ``values`` with a t (default) or normal interval."""
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    mu = float(v.mean()) if n else float("nan")
    sd = float(v.std(ddof=1)) if n > 1 else float("nan")
    return mean_interval_from_moments(mu, sd, n, confidence, method)


def diff_proportions(
    x1: ArrayLike,
    n1: ArrayLike,
    x2: ArrayLike,
    n2: ArrayLike,
    confidence: float = 0.95,
    method: str = "newcombe",
) -> Interval:
    """Difference ``p1 - p2`` of two independent proportions with an interval: Newcombe's
    hybrid score interval (his method 10, 1998; :func:`diff_intervals` of two Wilson
    intervals) by default, or ``method="wald"``."""
    p1, l1, u1 = proportion(x1, n1, confidence)
    p2, l2, u2 = proportion(x2, n2, confidence)
    p1, l1, u1, p2, l2, u2 = (np.asarray(a, dtype=float) for a in (p1, l1, u1, p2, l2, u2))
    d = p1 - p2
    if method == "newcombe":
        return diff_intervals(p1, l1, u1, p2, l2, u2)
    if method == "wald":
        z = z_value(confidence)
        m1 = np.asarray(n1, dtype=float)
        m2 = np.asarray(n2, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            se = np.sqrt(p1 * (1 - p1) / m1 + p2 * (1 - p2) / m2)
        low, high = d - z * se, d + z * se
    else:
        raise ValueError(f"method must be 'newcombe' or 'wald', got {method!r}")
    return Interval(_out(d), _out(low), _out(high))


def diff_means(
    mean1: ArrayLike,
    sd1: ArrayLike,
    n1: ArrayLike,
    mean2: ArrayLike,
    sd2: ArrayLike,
    n2: ArrayLike,
    confidence: float = 0.95,
) -> Interval:
    """Welch's interval for ``mean1 - mean2`` (unequal variances, Welch-Satterthwaite df);
    when both standard errors are 0 the interval is the point itself."""
    a = np.asarray(sd1, dtype=float) ** 2 / np.asarray(n1, dtype=float)
    b = np.asarray(sd2, dtype=float) ** 2 / np.asarray(n2, dtype=float)
    d = np.asarray(mean1, dtype=float) - np.asarray(mean2, dtype=float)
    se = np.sqrt(a + b)
    with np.errstate(invalid="ignore", divide="ignore"):
        df = (a + b) ** 2 / (
            a**2 / (np.asarray(n1, dtype=float) - 1) + b**2 / (np.asarray(n2, dtype=float) - 1)
        )
        q = _st.t.ppf(0.5 + confidence / 2.0, df)
    half = np.where(se == 0, 0.0, q * se)
    return Interval(_out(d), _out(d - half), _out(d + half))


def normal_interval(estimate: float, se: float, z: float, lowest: float = -math.inf,
                    highest: float = math.inf) -> Interval:
    """``estimate +- z se`` clipped to [``lowest``, ``highest``], what the quantity can be;
    a standard error that is not finite gives ``nan`` bounds."""
    if not np.isfinite(se):
        return Interval(estimate, math.nan, math.nan)
    return Interval(estimate, max(lowest, estimate - z * se), min(highest, estimate + z * se))


def diff_intervals(
    est1: ArrayLike, low1: ArrayLike, high1: ArrayLike,
    est2: ArrayLike, low2: ArrayLike, high2: ArrayLike,
) -> Interval:
    """``est1 - est2`` of two independent estimates, its interval built from their own by
    the MOVER construction (Zou and Donner, 2008); a side without an interval gives ``nan``."""
    e1, l1, u1, e2, l2, u2 = (np.asarray(a, dtype=float) for a in (est1, low1, high1, est2, low2, high2))
    d = e1 - e2
    low = d - np.sqrt((e1 - l1) ** 2 + (u2 - e2) ** 2)
    high = d + np.sqrt((u1 - e1) ** 2 + (e2 - l2) ** 2)
    return Interval(_out(d), _out(low), _out(high))


def cohen_h(p1: ArrayLike, p2: ArrayLike) -> np.ndarray | float:
    """Cohen's h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2)), the effect size for proportions."""
    a = np.clip(np.asarray(p1, dtype=float), 0.0, 1.0)
    b = np.clip(np.asarray(p2, dtype=float), 0.0, 1.0)
    return _out(2.0 * np.arcsin(np.sqrt(a)) - 2.0 * np.arcsin(np.sqrt(b)))


def cohen_d(
    mean1: ArrayLike,
    sd1: ArrayLike,
    n1: ArrayLike,
    mean2: ArrayLike,
    sd2: ArrayLike,
    n2: ArrayLike,
) -> np.ndarray | float:
    """Cohen's d = (mean1 - mean2) / pooled sd, pooled with n-1 weights; a pooled sd of 0
    gives 0 when the means agree and ``nan`` otherwise."""
    m1 = np.asarray(n1, dtype=float)
    m2 = np.asarray(n2, dtype=float)
    s1 = np.asarray(sd1, dtype=float)
    s2 = np.asarray(sd2, dtype=float)
    d = np.asarray(mean1, dtype=float) - np.asarray(mean2, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = np.sqrt(((m1 - 1) * s1**2 + (m2 - 1) * s2**2) / (m1 + m2 - 2))
        out = np.where(pooled > 0, d / pooled, np.where(d == 0, 0.0, np.nan))
    return _out(out)


DISCOVERY_RATE = 0.05
"""The false discovery rate the reports hold over many differences at once (their †)."""


def discoveries(p: ArrayLike, rate: float = DISCOVERY_RATE) -> np.ndarray:
    """Which of many tests remain with the false discovery rate held at ``rate``
    (Benjamini-Hochberg); a missing p-value (nan) is never one."""
    p = np.asarray(p, dtype=float)
    out = np.zeros(p.shape, dtype=bool)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = _st.false_discovery_control(p[ok], method="bh") < rate
    return out


def p_value(estimate: ArrayLike, se: ArrayLike, df: float | None = None) -> np.ndarray | float:
    """Two-sided p-value of ``estimate`` against 0 with standard error ``se``: Student t with
    ``df`` degrees of freedom, normal when None or not finite; 0 with no error has p = 1."""
    est, se = np.asarray(estimate, dtype=float), np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(est) / se
    normal = df is None or not np.isfinite(df) or df <= 0
    p = 2 * (_st.norm.sf(z) if normal else _st.t.sf(z, df))
    p = np.where(se > 0, p, np.where(est == 0, 1.0, 0.0))
    return _out(np.where(np.isfinite(est) & np.isfinite(se), p, np.nan))


def p_from_interval(estimate: ArrayLike, low: ArrayLike, high: ArrayLike,
                    confidence: float = 0.95) -> np.ndarray | float:
    """:func:`p_value` of an estimate with a symmetric normal interval ``[low, high]``."""
    half = (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / 2
    return p_value(estimate, half / z_value(confidence))
