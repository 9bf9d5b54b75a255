"""Interval estimates and effect sizes for reports.

Every function is vectorised over numpy arrays (scalars work too) and takes summary
statistics rather than raw samples where that is possible: reports aggregate
10-million-row files one row group at a time and keep only counts, sums and
histograms, so the formulas must run on those.

Conventions
-----------
* ``confidence`` is two-sided (0.95 gives the 2.5% and 97.5% bounds).
* A difference is always ``first - second`` (``other - baseline`` in reports), and
  its effect size carries the same sign.
* Undefined results (no observations, zero variance where it divides) are ``nan``,
  never an exception: a report over a config where nothing happened must still print.
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
    """Wilson score interval for a binomial proportion.

    Chosen over Wald because win shares near 0 or 1 (stalls, a dominant bot) and small
    test runs are common: Wilson never leaves [0, 1] and keeps its coverage there.
    ``successes`` may be fractional (a k-way shared match win counts 1/k); the formula
    only needs the observed proportion. ``n == 0`` gives ``nan``.
    """
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

    For plays that come in correlated groups: the seat rotations of one match (or
    tournament, or deal) share its deals, so they are one observation, not ``n``.  The
    share is a ratio estimator; its standard error is the delta method's over clusters,
    ``sqrt(k/(k-1) * sum((x_c - p n_c)^2)) / sum(n)`` for k clusters (the sandwich
    estimator of survey sampling), and the interval normal, clipped to [0, 1].  Fewer
    than two clusters (or no plays) give ``nan`` bounds.  A share of exactly 0 or 1 (no
    stall in any deal) has no spread to estimate, and the normal interval would shrink
    to the point; it gets the Wilson interval of k independent clusters instead (every
    cluster one observation: the widest the correlation can make it)."""
    p, se, k = _ratio(x, n)
    if not np.isfinite(se):
        return Interval(p, math.nan, math.nan)
    if p in (0.0, 1.0):
        low, high = wilson_interval(p * k, k, confidence)
        return Interval(p, float(low), float(high))
    return normal_interval(p, se, z_value(confidence), 0.0, 1.0)


def _ratio(x: ArrayLike, n: ArrayLike) -> tuple[float, float, int]:
    """``sum(x) / sum(n)`` over k clusters, its sandwich standard error
    ``sqrt(k/(k-1) * sum((x_c - r n_c)^2)) / sum(n)`` (nan for fewer than two clusters;
    the ratio too when there is nothing to divide by), and k."""
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
    """A mean sum(sums) / sum(n) from per-cluster totals, with the cluster-robust interval.

    The mean's counterpart of :func:`clustered_share`, for the same groups (the seat
    rotations of one deal play the same cards, so their game lengths move together): the
    same sandwich standard error ``sqrt(k/(k-1) * sum((s_c - m n_c)^2)) / sum(n)`` over k
    clusters, with Student's t on k-1 degrees of freedom (when every cluster holds one
    observation it is the ordinary t interval).  Fewer than two clusters give ``nan``
    bounds; no spread between clusters gives the point itself."""
    m, se, k = _ratio(sums, n)
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
    """Interval for a mean given its sample mean, sample sd (ddof=1) and size.

    ``method="t"`` uses Student's t with n-1 degrees of freedom (exact for normal data,
    and indistinguishable from the normal interval at report sizes); ``"normal"`` uses z.
    Fewer than two observations give a ``nan`` interval.
    """
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
    """Difference ``p1 - p2`` of two independent proportions with an interval.

    ``method="newcombe"`` (default) is Newcombe's hybrid score interval (his method 10,
    Statistics in Medicine 1998): it combines the two Wilson intervals,

        low  = d - sqrt((p1 - l1)^2 + (u2 - p2)^2)
        high = d + sqrt((u1 - p1)^2 + (p2 - l2)^2),

    and inherits Wilson's good behaviour near 0 and 1, where Wald collapses to a zero
    width. ``method="wald"`` gives ``d +- z * sqrt(p1 q1 / n1 + p2 q2 / n2)`` for
    comparison with textbooks.
    """
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
    """Welch's interval for ``mean1 - mean2`` (unequal variances).

    Welch rather than the pooled t because rule changes move the spread of game length
    as much as its centre. Degrees of freedom by Welch-Satterthwaite. When both standard
    errors are 0 the interval is the point itself.
    """
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
    """``estimate +- z se`` within [``lowest``, ``highest``], what the quantity can be (a
    share [0, 1], a difference of shares [-1, 1]): a few matches can put a normal bound past
    it, and a bound no result can reach is no information.  A standard error that is not
    finite gives ``nan`` bounds."""
    if not np.isfinite(se):
        return Interval(estimate, math.nan, math.nan)
    return Interval(estimate, max(lowest, estimate - z * se), min(highest, estimate + z * se))


def diff_intervals(
    est1: ArrayLike, low1: ArrayLike, high1: ArrayLike,
    est2: ArrayLike, low2: ArrayLike, high2: ArrayLike,
) -> Interval:
    """``est1 - est2`` of two independent estimates, its interval built from their own.

    The MOVER construction (Zou and Donner, 2008): ``low = d - sqrt((e1 - l1)^2 + (u2 - e2)^2)``,
    ``high = d + sqrt((u1 - e1)^2 + (e2 - l2)^2)``.  Newcombe's interval
    (:func:`diff_proportions`) is this applied to two Wilson intervals; applied to
    cluster-robust intervals it carries whatever noise each side's interval counts (the
    rotations of a deal moving together), which a formula from hands and successes alone
    cannot see.  A side without an interval gives ``nan``."""
    e1, l1, u1, e2, l2, u2 = (np.asarray(a, dtype=float) for a in (est1, low1, high1, est2, low2, high2))
    d = e1 - e2
    low = d - np.sqrt((e1 - l1) ** 2 + (u2 - e2) ** 2)
    high = d + np.sqrt((u1 - e1) ** 2 + (e2 - l2) ** 2)
    return Interval(_out(d), _out(low), _out(high))


def cohen_h(p1: ArrayLike, p2: ArrayLike) -> np.ndarray | float:
    """Cohen's h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2)).

    The effect size for proportions: the arcsine transform makes 0.01 -> 0.02 count as
    much larger than 0.50 -> 0.51, as it should for a seat advantage. 0.2 is "small".
    """
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
    """Cohen's d = (mean1 - mean2) / pooled sd, pooled with n-1 weights.

    Lets a change in turns and a change in cards drawn be ranked on one scale.
    A pooled sd of 0 gives 0 when the means agree and ``nan`` otherwise.
    """
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
    """Which of many tests remain with the false discovery rate held at ``rate`` over all
    of them (Benjamini-Hochberg, scipy's ``false_discovery_control``); a missing p-value
    (nan) is never one.  With a hundred rules tested at 95%, about five intervals exclude
    0 by chance alone: these are the differences that remain once that is allowed for."""
    p = np.asarray(p, dtype=float)
    out = np.zeros(p.shape, dtype=bool)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = _st.false_discovery_control(p[ok], method="bh") < rate
    return out


def p_value(estimate: ArrayLike, se: ArrayLike, df: float | None = None) -> np.ndarray | float:
    """Two-sided p-value of ``estimate`` against 0 with standard error ``se``: Student t
    with ``df`` degrees of freedom, normal when None or not finite (as the intervals of
    unosim.studies.replicates).  A difference measured as exactly 0 with no error (a rule
    that changed no deal) has p = 1; a missing estimate or error gives nan."""
    est, se = np.asarray(estimate, dtype=float), np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(est) / se
    normal = df is None or not np.isfinite(df) or df <= 0
    p = 2 * (_st.norm.sf(z) if normal else _st.t.sf(z, df))
    p = np.where(se > 0, p, np.where(est == 0, 1.0, 0.0))
    return _out(np.where(np.isfinite(est) & np.isfinite(se), p, np.nan))


def p_from_interval(estimate: ArrayLike, low: ArrayLike, high: ArrayLike,
                    confidence: float = 0.95) -> np.ndarray | float:
    """:func:`p_value` of an estimate with a symmetric normal interval ``[low, high]`` at
    ``confidence``: its standard error is the half-width over z."""
    half = (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / 2
    return p_value(estimate, half / z_value(confidence))
