"""Intervals and effect sizes against independent implementations and hand values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from unosim.analysis import stats


def _reference_wilson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """statsmodels when installed, else scipy's binomtest (both without correction)."""
    try:
        from statsmodels.stats.proportion import proportion_confint  # type: ignore[import-not-found]

        lo, hi = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
        return float(lo), float(hi)
    except ImportError:
        ci = st.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
        return ci.low, ci.high


@pytest.mark.parametrize("confidence", [0.95, 0.99, 0.8])
def test_wilson_matches_reference(confidence: float) -> None:
    cases = [(0, 10), (1, 10), (5, 10), (10, 10), (3, 7), (250, 1000), (1, 100_000), (99_999, 100_000)]
    k = np.array([c[0] for c in cases])
    n = np.array([c[1] for c in cases])
    lo, hi = stats.wilson_interval(k, n, confidence)
    for i, (ki, ni) in enumerate(cases):
        rl, rh = _reference_wilson(ki, ni, confidence)
        assert lo[i] == pytest.approx(rl, abs=1e-12) and hi[i] == pytest.approx(rh, abs=1e-12)


def test_wilson_scalars_and_edges() -> None:
    lo, hi = stats.wilson_interval(5, 10)
    assert isinstance(lo, float) and lo < 0.5 < hi
    lo, hi = stats.wilson_interval(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    # fractional successes (shared match wins) sit between their integer neighbours
    l1, _ = stats.wilson_interval(1, 4)
    lh, _ = stats.wilson_interval(1.5, 4)
    l2, _ = stats.wilson_interval(2, 4)
    assert l1 < lh < l2
    p = stats.proportion(3, 4)
    assert p.estimate == 0.75 and p.low < 0.75 < p.high
    assert stats.z_value() == pytest.approx(1.959963984540054)
    with pytest.raises(ValueError):
        stats.z_value(1.0)
    # none and all: the bound at the edge is the edge itself, not a rounding residue
    for n in (7, 200, 12_345):
        assert stats.wilson_interval(0, n)[0] == 0.0 and stats.wilson_interval(n, n)[1] == 1.0
    lows, highs = stats.wilson_interval(np.array([0, 3, 9]), np.array([9, 9, 9]))
    assert lows[0] == 0.0 and highs[2] == 1.0 and 0 < lows[1] < highs[1] < 1


def test_mean_interval() -> None:
    iv = stats.mean_interval([1, 2, 3, 4, 5])
    half = 2.7764451051977987 * math.sqrt(2.5) / math.sqrt(5)  # t(0.975, 4)
    assert iv.estimate == 3.0
    assert iv.low == pytest.approx(3 - half) and iv.high == pytest.approx(3 + half)
    iv = stats.mean_interval([1, 2, 3, 4, 5], method="normal")
    assert iv.high - 3 == pytest.approx(1.959963984540054 * math.sqrt(0.5))
    one = stats.mean_interval([7])
    assert one.estimate == 7 and math.isnan(one.low)
    m = stats.mean_interval_from_moments(np.array([3.0, 10.0]), np.array([1.0, 2.0]), np.array([5, 100]))
    assert m.low.shape == (2,)
    with pytest.raises(ValueError):
        stats.mean_interval([1, 2], method="bootstrap")


def test_diff_proportions_newcombe_published() -> None:
    # Newcombe (1998), Table II, method 10 (hybrid score)
    iv = stats.diff_proportions(56, 70, 48, 80)
    assert iv.estimate == pytest.approx(0.2)
    assert iv.low == pytest.approx(0.0524, abs=5e-5) and iv.high == pytest.approx(0.3339, abs=5e-5)
    iv = stats.diff_proportions(9, 10, 3, 10)
    assert iv.low == pytest.approx(0.1705, abs=5e-5) and iv.high == pytest.approx(0.8090, abs=5e-5)
    # sign: reversing the order mirrors the interval
    rev = stats.diff_proportions(3, 10, 9, 10)
    assert rev.low == pytest.approx(-0.8090, abs=5e-5) and rev.high == pytest.approx(-0.1705, abs=5e-5)


def test_diff_proportions_wald() -> None:
    iv = stats.diff_proportions(56, 70, 48, 80, method="wald")
    se = math.sqrt(0.8 * 0.2 / 70 + 0.6 * 0.4 / 80)
    assert iv.low == pytest.approx(0.2 - 1.959963984540054 * se)
    assert iv.high == pytest.approx(0.2 + 1.959963984540054 * se)


def test_diff_means_welch() -> None:
    a = np.array([5.0, 7.0, 9.0, 6.0, 8.0, 12.0])
    b = np.array([4.0, 5.0, 3.0, 6.0, 2.0, 4.0, 5.0, 3.0])
    iv = stats.diff_means(a.mean(), a.std(ddof=1), len(a), b.mean(), b.std(ddof=1), len(b))
    ref = st.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert iv.estimate == pytest.approx(a.mean() - b.mean())
    assert iv.low == pytest.approx(ref.low) and iv.high == pytest.approx(ref.high)
    # hand check of the Welch-Satterthwaite degrees of freedom
    va, vb = a.var(ddof=1) / 6, b.var(ddof=1) / 8
    df = (va + vb) ** 2 / (va**2 / 5 + vb**2 / 7)
    assert iv.high - iv.estimate == pytest.approx(st.t.ppf(0.975, df) * math.sqrt(va + vb))
    flat = stats.diff_means(3.0, 0.0, 10, 1.0, 0.0, 10)
    assert (flat.low, flat.high) == (2.0, 2.0)


def test_cohen_h_and_d() -> None:
    assert stats.cohen_h(0.5, 0.25) == pytest.approx(math.pi / 6)
    assert stats.cohen_h(0.25, 0.5) == pytest.approx(-math.pi / 6)
    assert stats.cohen_h(1.0, 0.0) == pytest.approx(math.pi)
    assert stats.cohen_d(10, 2, 10, 8, 2, 10) == pytest.approx(1.0)
    assert stats.cohen_d(10, 3, 5, 8, 1, 9) == pytest.approx(2 / math.sqrt(44 / 12))
    assert stats.cohen_d(5, 0, 4, 5, 0, 4) == 0.0
    assert math.isnan(stats.cohen_d(6, 0, 4, 5, 0, 4))
    d = stats.cohen_d(np.array([1.0, 2.0]), 1.0, 10, 0.0, 1.0, 10)
    assert list(d) == [1.0, 2.0]


def test_share_intervals_stay_within_what_a_share_can_be() -> None:
    """A share's bounds within [0, 1] and a difference's within [-1, 1], however few the
    deals: nine wins of ten matches, normal, would reach past 100%; nan stays nan."""
    from unosim.studies.arena import Share

    s = Share(np.array([1.0] * 9 + [0.0]), np.ones(10))
    low, high = s.interval()
    assert high == 1.0 and 0.7 < low < 0.8
    never = Share(np.zeros(10), np.ones(10))
    diff, dlow, dhigh = s.minus(never)
    assert diff == pytest.approx(0.9) and dhigh == 1.0 and 0.7 < dlow < 0.9
    lo0, hi0 = never.interval()
    assert lo0 == 0.0 and hi0 > 0.2  # no spread at 0: Wilson over the deals, not a point
    one = Share(np.array([1.0]), np.ones(1))
    assert all(math.isnan(x) for x in one.interval())
    iv = stats.normal_interval(0.5, math.nan, 1.96, -1.0, 1.0)
    assert math.isnan(iv.low) and math.isnan(iv.high)
    assert stats.normal_interval(-0.95, 0.1, 1.96, -1.0, 1.0) == (-0.95, -1.0, pytest.approx(-0.95 + 0.196))
    assert stats.normal_interval(-0.95, 0.1, 1.96) == pytest.approx((-0.95, -1.146, -0.754))  # unbounded
