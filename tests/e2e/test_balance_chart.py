"""The balance chart reads at 100+ points (#22): rules grouped with their table sizes side
by side, each panel on the scale of its typical rows (an outlier clipped and labelled with
its value), tick labels on every panel, a one-line title and one caption line naming the
base and the bots."""

from __future__ import annotations

import numpy as np
import pandas as pd

from unosim.analysis import report as rp
from unosim.analysis.plots import plot_balance

RULES = [f"rule{i}={v}" for i in range(17) for v in ("a", "b")]  # 34 changes x 3 tables = 102 points


def _report() -> rp.Report:
    rows = []
    rng = np.random.default_rng(0)
    for c in RULES:
        for p in (2, 4, 7):
            for m, kind in (("turns", "d"), ("dealer1_win_share", "h"), ("cards_drawn", "d")):
                d = float(rng.normal(0, 2 if m != "dealer1_win_share" else 0.01))
                if c == "rule3=a" and m == "turns" and p == 7:
                    d = 140.0  # last_standing's outlier
                rows.append({"change": c, "players": p, "label": f"sw:{c},players={p}", "base_label": "b",
                             "metric": m, "base": 0.0, "value": d, "diff": d, "low": d - 1, "high": d + 1,
                             "effect": d / 10, "effect_kind": kind, "status": "never triggered" if c == "rule9=b" else ""})
    sources = {f"sw:{c},players={p}": {"seating": f"wild_saver x{p} (bluff_rate 0.2)"} for c in RULES for p in (2, 4, 7)}
    return rp.Report("balance", pd.DataFrame(rows), sources, "balance against the base point (official rules "
                     "but noise_chance=0.05)")


def test_balance_chart_fits_and_reads() -> None:
    fig = plot_balance(_report())
    width, height = fig.get_size_inches() * 120
    assert width <= 1400 and height <= 1900, (width, height)
    title = fig.get_suptitle()
    assert "\n" not in title and len(title) <= 90, title
    caption = fig.get_supxlabel().replace("\n", " ")
    assert caption.startswith("base: official rules but noise_chance=0.05; bots: wild_saver at every seat")
    assert len(fig.get_supxlabel().split("\n")) <= 2
    axes = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in axes] == ["mean turns", "dealer+1 win share", "mean cards drawn"]
    fig.draw_without_rendering()
    for ax in axes:  # x tick labels on every panel
        assert any(t.get_text() for t in ax.get_xticklabels()), ax.get_title()
    ticks = [t.get_text() for t in axes[0].get_yticklabels()]
    assert ticks.index("rule0=a") + 1 == ticks.index("rule0=b")  # one rule's values together
    assert len(ticks) == len(RULES)  # one row per change: the table sizes sit side by side
    turns = axes[0]
    assert turns.get_xlim()[1] < 20  # the outlier does not set the scale ...
    assert "+140" in [t.get_text() for t in turns.texts]  # ... it is clipped and labelled
