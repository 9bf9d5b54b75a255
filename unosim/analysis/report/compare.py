"""Comparisons: every figure of other results against a baseline, with intervals and
effect sizes."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pandas as pd

from unosim.analysis import stats
from unosim.analysis.report.model import COMPARE_COLUMNS, COMPARE_FAMILY, PathLike, Report, with_discoveries
from unosim.analysis.report.paired import PAIRED, FigureKey, paired_intervals
from unosim.analysis.report.sources import Result, Source, discover
from unosim.analysis.report.summary import summarize


def _diff_rows(base: pd.DataFrame, other: pd.DataFrame, confidence: float,
               paired: dict[FigureKey, stats.Interval] | None = None) -> pd.DataFrame:
    """Join two summary tables on the figure and compute differences and effects;
    ``paired``: the intervals of the figures the two runs pair hand by hand (.paired)."""
    keys = ["section", "figure", "key", "stat"]
    m = other.merge(base, on=keys, suffixes=("", "_b"), how="inner")
    diff = (m["value"] - m["value_b"]).to_numpy(float)
    low = np.full(len(m), np.nan)
    high = np.full(len(m), np.nan)
    effect = np.full(len(m), np.nan)
    kind = np.full(len(m), "", dtype=object)
    sh = (m["stat"] == "share").to_numpy()
    if sh.any():
        iv = stats.diff_proportions(
            m.loc[sh, "successes"], m.loc[sh, "n"], m.loc[sh, "successes_b"], m.loc[sh, "n_b"], confidence
        )
        low[sh], high[sh] = iv.low, iv.high
        effect[sh] = stats.cohen_h(m.loc[sh, "value"], m.loc[sh, "value_b"])
        kind[sh] = "h"
    mn = (m["stat"] == "mean").to_numpy()
    if mn.any():
        a = [m.loc[mn, c].to_numpy(float) for c in ("value", "sd", "n", "value_b", "sd_b", "n_b")]
        iv = stats.diff_means(*a, confidence=confidence)
        low[mn], high[mn] = iv.low, iv.high
        effect[mn] = stats.cohen_d(*a)
        kind[mn] = "d"
    # a figure of a seat-rotated run: its interval counts the deal as one cluster, which
    # hands and successes alone cannot; the difference is built from the two intervals
    clustered = np.zeros(len(m), dtype=bool)
    for c in ("clusters", "clusters_b"):
        if c in m:
            clustered |= m[c].notna().to_numpy()
    cl = clustered & (sh | mn)
    if cl.any():
        iv = stats.diff_intervals(*(m.loc[cl, c].to_numpy(float) for c in ("value", "low", "high",
                                                                           "value_b", "low_b", "high_b")))
        low[cl], high[cl] = iv.low, iv.high
    if paired:
        for i, key in enumerate(zip(m["section"], m["figure"], m["key"], m["stat"])):
            if key in paired:
                low[i], high[i] = paired[key].low, paired[key].high
    return pd.DataFrame(
        {
            "label": m["label"], "section": m["section"], "figure": m["figure"], "key": m["key"],
            "stat": m["stat"], "base": m["value_b"], "value": m["value"], "diff": diff,
            "low": low, "high": high, "effect": effect, "effect_kind": kind.astype(str),
        }
    )  # fmt: skip


def compare(
    baseline: Report | PathLike | Result,
    others: Report | PathLike | Result | Sequence[Report | PathLike | Result],
    confidence: float = 0.95,
) -> Report:
    """Every figure of ``others`` against ``baseline``: difference, interval, effect size.

    Inputs are paths or summary Reports; the baseline must be a single config.  Differences are
    ``other - baseline``: shares get Newcombe's interval and Cohen's h, means Welch's and
    Cohen's d, hand runs of the same deals paired intervals (:mod:`.paired`), seat-rotated
    figures the difference of their cluster-robust intervals.  Each gets a ``p`` and
    ``discovery`` (Benjamini-Hochberg over its section at 1 - ``confidence``).  Figures present
    on one side only are left out.
    """
    other_list = [others] if isinstance(others, (Report, str, os.PathLike, Result)) else list(others)
    found: dict[str, Source] = {}
    if not isinstance(baseline, Report) and not any(isinstance(o, Report) for o in other_list):
        rep = summarize([baseline, *other_list], confidence)
        found = {s.label: s for s in discover([baseline, *other_list])}
        base_labels = [s.label for s in found.values() if s.origin == 0]
        base_rep = Report("summary", rep.table[rep.table["label"].isin(base_labels)], rep.sources)
        other_tables = [rep.table[~rep.table["label"].isin(base_labels)]]
        sources = rep.sources
        notes = list(rep.notes)
    else:
        base_rep = baseline if isinstance(baseline, Report) else summarize(baseline, confidence)
        reps = [o if isinstance(o, Report) else summarize(o, confidence) for o in other_list]
        other_tables = [r.table for r in reps]
        sources = {**base_rep.sources}
        for r in reps:
            sources.update(r.sources)
        notes = [n for r in (base_rep, *reps) for n in r.notes]
    base_labels = base_rep.labels
    if len(base_labels) != 1:
        raise ValueError(f"the baseline must be one config, got {base_labels}")
    base_label = base_labels[0]
    base_table = base_rep.table[base_rep.table["label"] == base_label].drop(columns="label")
    parts = []
    for t in other_tables:
        for label in dict.fromkeys(t["label"]):
            paired = None
            if label in found and base_label in found:
                paired = paired_intervals(found[label], found[base_label], confidence)
                if paired is not None:
                    seeds = (found[label].info.seed, found[base_label].info.seed)
                    same = seeds[0] is not None and seeds[0] == seeds[1]
                    deals = ("one seed: the same deals" if same else
                             f"seeds {seeds[0]} and {seeds[1]}: other deals, so the pairing narrows little")
                    notes.append(f"{label}: intervals of the hand figures {PAIRED} with {base_label} "
                                 f"(the same hand indices; {deals})")
            parts.append(_diff_rows(base_table, t[t["label"] == label], confidence, paired))
    if parts:
        table = with_discoveries(pd.concat(parts, ignore_index=True), confidence, by=COMPARE_FAMILY)
    else:
        table = pd.DataFrame(columns=list(COMPARE_COLUMNS))
    return Report("compare", table, sources, f"compared with {base_label}", baseline=base_label, notes=notes,
                  discovery_rate=1 - confidence)
