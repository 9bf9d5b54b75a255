"""Matplotlib figures of reports.

Every function takes a :class:`unosim.analysis.report.Report` (or result paths, summarised on
the spot), returns the :class:`~matplotlib.figure.Figure`, and writes a PNG when
``path`` is given. Figures are built with ``matplotlib.figure.Figure`` and the Agg
canvas, never through pyplot: no global figure registry to leak memory in long sweeps,
no GUI backend needed on a cluster node, and a notebook's own backend is left alone
(Jupyter still shows a returned Figure).

Error bars are the report's 95% intervals (Wilson for shares, t for means, Newcombe /
Welch for balance differences).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from unosim.analysis import report as rp

__all__ = [
    "plot_win_share",
    "plot_game_length",
    "plot_match_winners",
    "plot_hands_per_match",
    "plot_balance",
    "plot_all",
]

_DPI = 120


def _summary(obj: rp.Report | Any) -> rp.Report:
    """Accept a summary Report or anything :func:`unosim.analysis.report.summarize` accepts."""
    if isinstance(obj, rp.Report):
        return obj
    return rp.summarize(obj)


def _new(ncols: int = 1, nrows: int = 1, size: tuple[float, float] = (7.0, 4.0)) -> tuple[Figure, np.ndarray]:
    fig = Figure(figsize=(size[0] * ncols, size[1] * nrows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False).ravel())
    return fig, axes


def _save(fig: Figure, path: str | os.PathLike[str] | None) -> Figure:
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=_DPI)
    return fig


def _share_table(rep: rp.Report, section: str) -> _Shares:
    """label -> key (int) -> (value, low, high) of a win-share section."""
    t = rep.table
    t = t[(t["section"] == section) & (t["figure"] == "win_share")]
    out: _Shares = {}
    for r in t.itertuples(index=False):
        out.setdefault(r.label, {})[int(r.key)] = (r.value, r.low, r.high)
    return out


_Shares = dict[str, dict[int, tuple[float, float, float]]]


def _grouped_bars(ax: Any, data: _Shares, key_name: Any, title: str) -> None:
    """One group per config, one bar per seat, interval whiskers, fair-share ticks."""
    labels = list(data)
    nkeys = max((len(v) for v in data.values()), default=0)
    width = 0.8 / max(nkeys, 1)
    x = np.arange(len(labels))
    for k in range(nkeys):
        vals = np.array([data[lab].get(k, (np.nan,) * 3) for lab in labels], dtype=float).reshape(-1, 3)
        err = np.abs(np.stack([vals[:, 0] - vals[:, 1], vals[:, 2] - vals[:, 0]]))
        ax.bar(x - 0.4 + width * (k + 0.5), vals[:, 0], width, yerr=err, capsize=2, label=key_name(k))
    for i, lab in enumerate(labels):
        n = len(data[lab])
        if n:
            ax.hlines(1.0 / n, i - 0.42, i + 0.42, colors="0.3", linestyles="dashed", linewidth=0.8)
    crowded = len(labels) > 3
    ax.set_xticks(x, labels, rotation=20 if crowded else 0, ha="right" if crowded else "center")
    ax.set_ylabel("win share")
    ax.set_title(title)
    if nkeys:
        ax.legend(fontsize="small", ncols=min(nkeys, 5))


def plot_win_share(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Hand win share by seat and by position after the dealer, per config.

    Two axes; in each, one group per config and one bar per seat with its 95% Wilson
    interval; the dashed tick is the fair share 1 / players.
    """
    rep = _summary(report)
    fig, (a1, a2) = _new(2)
    _grouped_bars(a1, _share_table(rep, "seat"), lambda k: f"seat {k}", "Hand win share by seat")
    _grouped_bars(
        a2,
        _share_table(rep, "after_dealer"),
        lambda k: "dealer" if k == 0 else f"dealer+{k}",
        "Hand win share by position after the dealer",
    )
    return _save(fig, path)


def plot_game_length(
    report: rp.Report | Any,
    column: str = "turns",
    path: str | os.PathLike[str] | None = None,
    tail: float = 0.995,
) -> Figure:
    """Distribution of ``column`` (``turns`` or ``cards_played``), one step line per config.

    Drawn as probability per value from the report's exact histograms; the x axis stops
    at the ``tail`` quantile of the longest config so stalls at ``max_turns`` do not
    squash the picture (they are counted in the report's stalled share).
    """
    rep = _summary(report)
    fig, (ax,) = _new(1)
    xmax = 1
    for label, d in rep.dists.items():
        h = d.get(column)
        if h is None or h.sum() == 0:
            continue
        xmax = max(xmax, int(rp.hist_quantile(h, tail)) + 1)
    for label, d in rep.dists.items():
        h = d.get(column)
        if h is None or h.sum() == 0:
            continue
        p = h[: xmax + 1] / h.sum()
        ax.stairs(p, np.arange(len(p) + 1) - 0.5, label=label)
    ax.set_xlim(-0.5, xmax + 0.5)
    ax.set_xlabel(column.replace("_", " ") + " per hand")
    ax.set_ylabel("share of hands")
    ax.set_title(f"Distribution of {column.replace('_', ' ')}")
    ax.legend(fontsize="small")
    return _save(fig, path)


def _match_labels(rep: rp.Report) -> list[str]:
    t = rep.table
    return list(dict.fromkeys(t.loc[t["section"] == "match_positive", "label"]))


def plot_match_winners(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Match winner share per seat under S1 (positive) and S2 (negative) scoring.

    One axis per config with matches; per seat one bar per system with its interval
    (ties under S2 are shared 1/k, so bars sum to 1 per system).
    """
    rep = _summary(report)
    labels = _match_labels(rep)
    fig, axes = _new(max(len(labels), 1), size=(5.0, 4.0))
    pos = _share_table(rep, "match_positive_seat")
    neg = _share_table(rep, "match_negative_seat")
    for ax, label in zip(axes, labels):
        for j, (name, data) in enumerate((("S1 positive", pos), ("S2 negative", neg))):
            seats = data.get(label, {})
            if not seats:
                continue
            k = np.array(sorted(seats))
            v = np.array([seats[s] for s in k], dtype=float)
            err = np.abs(np.stack([v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]]))
            ax.bar(k - 0.2 + 0.4 * j, v[:, 0], 0.4, yerr=err, capsize=2, label=name)
        n = max(len(pos.get(label, {})), len(neg.get(label, {})), 1)
        ax.axhline(1.0 / n, color="0.3", linestyle="dashed", linewidth=0.8)
        ax.set_xticks(range(n), [f"seat {s}" for s in range(n)])
        ax.set_ylabel("match winner share")
        ax.set_title(label)
        ax.legend(fontsize="small")
    if not labels:
        axes[0].set_title("no match results")
    return _save(fig, path)


def plot_hands_per_match(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Distribution of hands per match, one step line per config and scoring system."""
    rep = _summary(report)
    fig, (ax,) = _new(1)
    for label, d in rep.dists.items():
        for system, style in (("positive", "-"), ("negative", "--")):
            h = d.get(f"hands_per_match_{system}")
            if h is None or h.sum() == 0:
                continue
            name = f"{label} S{1 if system == 'positive' else 2}"
            ax.stairs(h / h.sum(), np.arange(len(h) + 1) - 0.5, linestyle=style, label=name)
    ax.set_xlabel("hands per match")
    ax.set_ylabel("share of matches")
    ax.set_title("Match length (solid: S1 positive, dashed: S2 negative)")
    ax.legend(fontsize="small")
    return _save(fig, path)


_BALANCE_TITLES = {
    "turns": "mean turns (diff)",
    "seat_advantage": "dealer+1 win share (diff, pp)",
    "cards_drawn": "mean cards drawn (diff)",
}


def plot_balance(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """The balance chart: one row per rule change and player count, one axis per metric.

    Each row is the difference from the base point with its 95% interval; rows are in
    the report's order (largest effect first, at the top). Accepts a balance Report or
    a sweep directory.
    """
    rep = report if isinstance(report, rp.Report) else rp.balance_report(report)
    if rep.kind != "balance":
        raise ValueError("plot_balance needs a balance report (unosim.analysis.report.balance_report)")
    t = rep.table
    metrics = [m for m in _BALANCE_TITLES if m in set(t["metric"])] or list(_BALANCE_TITLES)
    rows = list(dict.fromkeys(zip(t["change"], t["players"])))
    fig, axes = _new(len(metrics), size=(4.0, max(2.5, 0.35 * len(rows) + 1.2)))
    y = np.arange(len(rows))[::-1]
    for ax, m in zip(axes, metrics):
        sub = t[t["metric"] == m].set_index(["change", "players"])
        scale = 100.0 if m == "seat_advantage" else 1.0
        cells = [
            sub.loc[r, ["diff", "low", "high"]].to_numpy(float) if r in sub.index else [np.nan] * 3
            for r in rows
        ]
        vals = np.array(cells, dtype=float).reshape(-1, 3) * scale
        err = np.abs(np.stack([vals[:, 0] - vals[:, 1], vals[:, 2] - vals[:, 0]]))
        ax.errorbar(vals[:, 0], y, xerr=err, fmt="o", capsize=3)
        ax.axvline(0.0, color="0.3", linewidth=0.8)
        ax.set_title(_BALANCE_TITLES[m])
        ax.set_yticks(y, [f"{c} ({p}p)" for c, p in rows] if ax is axes[0] else [""] * len(rows))
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(rep.title)
    return _save(fig, path)


def _is_sweep(path: Path) -> bool:
    if not path.is_dir():
        return False
    return any("=" in part for f in path.rglob("*.parquet") for part in f.relative_to(path).parts[:-1])


def plot_all(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], out_dir: str | os.PathLike[str]
) -> list[Path]:
    """Write every figure that applies to ``paths`` into ``out_dir``; return the files.

    Always: ``win_share.png``, ``turns.png``, ``cards_played.png``. With match results:
    ``match_winners.png``, ``hands_per_match.png``. For each partitioned sweep directory:
    ``balance_<dir>.png`` (skipped when the sweep has no base point to compare with).
    """
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rep = rp.summarize(items)
    written: list[Path] = []

    def emit(name: str, fig_fn: Any, *args: Any) -> None:
        p = out / name
        fig_fn(*args, path=p)
        written.append(p)

    emit("win_share.png", plot_win_share, rep)
    emit("turns.png", plot_game_length, rep, "turns")
    emit("cards_played.png", plot_game_length, rep, "cards_played")
    if _match_labels(rep):
        emit("match_winners.png", plot_match_winners, rep)
        emit("hands_per_match.png", plot_hands_per_match, rep)
    for item in items:
        p = Path(item)
        if not _is_sweep(p):
            continue
        try:
            bal = rp.balance_report(p)
        except ValueError:
            continue
        if len(bal.table) and not all(math.isnan(v) for v in bal.table["diff"]):
            emit(f"balance_{p.name}.png", plot_balance, bal)
    return written
