"""The figures of the skill commands: the tuning curve, the league table, the skill chart.

Every estimate carries its 95% interval, and the chance level is drawn.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_curve", "plot_league", "plot_skill"]

PathLike = str | os.PathLike


def _new(size: tuple[float, float]):
    """A figure outside pyplot (no global state: safe in threads and notebooks), as
    unosim.analysis.plots builds its own."""
    from unosim.analysis.figures import MAX_WIDTH

    limit = MAX_WIDTH.get()
    fig = Figure(figsize=(min(size[0], limit) if limit else size[0], size[1]))
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def _wrap(fig, text: str) -> str:
    """``text`` wrapped to the figure's width (a narrow figure's labels stay inside it)."""
    from unosim.analysis.figures import wrap

    return wrap(text, fig.get_figwidth() * 0.8, 10.0)


def _save(fig, path: PathLike | None):
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig


def plot_curve(history: pd.DataFrame, even: float, title: str, path: PathLike | None = None,
               check: tuple[float, float, float] | None = None, start: tuple[float, float, float] | None = None,
               measure: str = "win share against the field", percent: bool = True):
    """Fitness per generation (a win share, or with ``percent`` False points per hand): every
    candidate, the search's mean with its interval and, at the end, the tuned bot's ``check``
    beside its ``start`` (each value, low, high) on the same fresh deals."""
    k = 100 if percent else 1
    sign = "%" if percent else ""

    def show(v: float) -> str:
        return f"{v:.1f}%" if percent else f"{v:+.2f}"

    fig, ax = _new((7.5, 4.2))
    cand = history[history["candidate"] >= 0]
    mean = history[history["candidate"] < 0]
    ax.scatter(cand["generation"], k * cand["fitness"], s=6, color="0.7", label="candidates", zorder=1)
    ax.fill_between(mean["generation"], k * mean["low"], k * mean["high"], color="C0", alpha=0.2, lw=0)
    ax.plot(mean["generation"], k * mean["fitness"], color="C0", lw=1.8, label="the search's mean (95% interval)")
    ax.axhline(k * even, color="0.3", ls="--", lw=1, label=f"even {show(k * even)}")
    x = (mean["generation"].max() if len(mean) else 0) + 1
    for point, fmt, color, what in ((check, "D", "C3", "tuned bot, fresh deals"),
                                    (start, "s", "0.35", "its start (defaults), same deals")):
        if point is not None:
            s, lo, hi = (k * v for v in point)
            ax.errorbar([x], [s], yerr=[[s - lo], [hi - s]], fmt=fmt, color=color, capsize=4,
                        label=f"{what}: {show(s)}")
    ax.set_xlabel("generation (fresh deals each; all candidates of one generation on the same deals)")
    ax.set_ylabel(f"{measure}{f' ({sign})' if sign else ''}")
    ax.set_title(title, fontsize="medium")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    return _save(fig, path)


def plot_league(table: pd.DataFrame, title: str, path: PathLike | None = None):
    """One row per bot, strongest on top: its Plackett-Luce strength with its interval."""
    t = table.sort_values("strength")
    fig, ax = _new((7.0, 0.45 * len(t) + 1.6))
    y = np.arange(len(t))
    err = np.abs(np.stack([t["strength"] - t["low"], t["high"] - t["strength"]]))
    ax.errorbar(t["strength"], y, xerr=err, fmt="o", color="C0", capsize=4)
    ax.axvline(0, color="0.4", ls="--", lw=1)
    ax.set_yticks(y, [f"{b}\n({s:.1%} of its hands)" for b, s in zip(t["bot"], t["win_share"])])
    ax.set_xlabel(_wrap(fig, "strength: log-odds of winning against the average bot\n"
                        "(Plackett-Luce; 95% intervals from a bootstrap of the deals)"))
    ax.set_title(_wrap(fig, title), fontsize="medium")
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def plot_skill(table: pd.DataFrame, title: str, path: PathLike | None = None):
    """The skill index of every point, one row per rule set and a colour per table size, the
    base point of each size a vertical line; a table with the ceiling adds the search player's
    index as a hollow diamond."""
    t = table.copy()
    roof = "ceiling_norm" in t and bool(t["ceiling_norm"].notna().any())
    labels = list(dict.fromkeys(t["rules"]))
    per_row = 0.32 * (1.5 if roof else 1.0)  # the ceiling's diamonds need their own line in the row
    fig, ax = _new((8.0, per_row * len(labels) * max(1, t["players"].nunique()) ** 0.5 + 1.8))
    order = t.groupby("rules")["skill_norm"].mean().sort_values().index.tolist()
    y_of = {r: i for i, r in enumerate(order)}
    sizes = sorted(t["players"].unique())
    k = len(sizes)
    for j, p in enumerate(sizes):
        sub = t[t["players"] == p]
        off = (j - (k - 1) / 2) * 0.22
        y = np.array([y_of[r] for r in sub["rules"]]) + off
        v = 100 * sub["skill_norm"].to_numpy()
        err = 100 * np.abs(np.stack([sub["skill_norm"] - sub["norm_low"], sub["norm_high"] - sub["skill_norm"]]))
        ax.errorbar(v, y, xerr=err, fmt="o", capsize=3, markersize=4, color=f"C{j}",
                    label=f"{p} players" + (": tuned bot (lower bound)" if roof else ""))
        if roof:
            c = sub[sub["ceiling_norm"].notna()]
            yc = np.array([y_of[r] for r in c["rules"]]) + off + 0.09
            cerr = 100 * np.abs(np.stack([c["ceiling_norm"] - c["ceiling_norm_low"],
                                          c["ceiling_norm_high"] - c["ceiling_norm"]]))
            ax.errorbar(100 * c["ceiling_norm"].to_numpy(), yc, xerr=cerr, fmt="D", mfc="white", capsize=2,
                        markersize=4.5, elinewidth=0.8, color=f"C{j}", label=f"{p} players: search (ceiling)")
        base = sub[sub["is_base"]]
        if len(base):
            ax.axvline(100 * base["skill_norm"].iloc[0], color=f"C{j}", ls=":", lw=1)
    ax.axvline(0, color="0.3", lw=1)
    ax.set_yticks(range(len(order)), order, fontsize="small")
    k = int(t["replicates"].min()) if "replicates" in t and len(t) else 1
    bars = (f"bars: 95% intervals, mean of {k} tunings, the search's noise included" if k > 1 else
            "bars: 95% intervals of the measurement (one tuning: the search's noise not included)")
    if roof:
        bars += "\ndiamonds: the search player (not tuned), its measurement's interval"
    who = "the bot's" if roof else "tuned bot's"
    ax.set_xlabel(_wrap(fig, f"skill index: ({who} share at a table of B0 - 1/n) / (1 - 1/n), % (0 = pure luck)\n"
                        f"dotted: the official rules{' (tuned bot)' if roof else ''} of that table size; {bars}"))
    ax.set_title(_wrap(fig, title), fontsize="medium")
    ax.grid(axis="x", alpha=0.3)
    if roof:  # two entries per table size: beside the axes, never over a point
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    else:
        ax.legend(fontsize="small", loc="lower right")
    return _save(fig, path)
