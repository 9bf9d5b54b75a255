"""Which format best crowns the better player?  One strong bot against B0 bots, side by side.

A format is a single hand, a match under S1, S2 or S4, or a T1 tournament; the format that
gives the strong bot the largest share of wins best tells the better player from luck.
Every format spreads the strong bot evenly over the seats.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from unosim.analysis import stats
from unosim.analysis.report import Report, summarize
from unosim.rules.config import RulesConfig, default_config
from unosim.run.jobs import make_job
from unosim.run.runner import run_job

__all__ = ["FORMATS", "format_report", "formats_config", "play_formats", "plot_formats"]

FORMATS = (
    ("single hand", "hands", "bot", "win_share"),
    ("match S1", "matches", "match_positive_bot", "win_share"),
    ("match S2", "matches", "match_negative_bot", "win_share"),
    ("match S4", "matches", "match_chips_bot", "win_share"),
    ("tournament S1", "tournaments", "tournament_pos_bot", "win_share"),
    ("tournament S2", "tournaments", "tournament_neg_bot", "win_share"),
)
"""(format, the run that plays it, the report section holding the bot's share, figure)."""


def formats_config(strong: str, others: str = "random", players: int = 4, at: int = 0,
                   cfg: RulesConfig | None = None) -> RulesConfig:
    """``cfg`` (default: the official rules) with ``strong`` at seat (player) ``at`` and
    ``others`` everywhere else, named after them."""
    base = cfg or default_config()
    seats = [others] * players
    seats[at] = strong
    name = f"{strong}_vs_{others}_at_{at}"
    return base.with_values({"name": name, "players": players, "teams": 1, "seats": seats})


def play_formats(strong: str, others: str = "random", *, players: int = 4, hands: int = 20_000,
                 matches: int = 400, tournaments: int = 400, seed: int = 0, cfg: RulesConfig | None = None,
                 out: str | Path | None = None, workers: int | None = None) -> dict[str, list[Path]]:
    """Play every format for ``strong`` against ``others``; returns the result paths by run
    kind (``hands``, ``matches``, ``tournaments``).  ``out``: the folder (a temporary one when
    None), an existing result there resumed; tournaments need 4 or 8 ``players``."""
    root = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="unosim-formats-"))
    paths: dict[str, list[Path]] = {"hands": [], "matches": [], "tournaments": []}
    runs = [("hands", "rotated", hands, 0)]  # (kind, run mode, count, the strong bot's seat)
    for mode, count in (("matches", matches), ("tournaments", tournaments)):
        if count > 0:
            runs += [(mode, mode, math.ceil(count / players), at) for at in range(players)]
    for kind, mode, count, at in runs:
        c = formats_config(strong, others, players, at, cfg)
        p = root / f"{c.name}.{kind}.parquet"
        run_job(make_job(c, mode, count, seed, out=p), workers=workers, resume=True)
        paths[kind].append(p)
    return paths


def format_report(results: Mapping[str, Sequence[str | Path]], bot: str, confidence: float = 0.95) -> Report:
    """The share of wins of ``bot`` in every format the ``results`` hold, pooled over a kind's
    results: one row per format in section ``formats``, and ``even_share`` (1 / players) in
    the ``sd`` column's place."""
    rows: list[dict[str, Any]] = []
    sources: dict[str, dict[str, str]] = {}
    reports = {kind: summarize(list(paths), confidence) for kind, paths in results.items() if paths}
    for name, kind, section, figure in FORMATS:
        rep = reports.get(kind)
        if rep is None:
            continue
        sources.update(rep.sources)
        t = rep.table
        sel = t[(t["section"] == section) & (t["figure"] == figure) & (t["key"] == bot)]
        if not len(sel):
            continue
        x, n = float(sel["successes"].sum()), float(sel["n"].sum())
        if len(sel) == 1:  # the rotated hand run: its own interval, a deal one cluster
            p, lo, hi = (float(sel[c].iloc[0]) for c in ("value", "low", "high"))
        else:  # separate runs, one per seat of the strong bot, each match independent: pooled
            p, lo, hi = stats.proportion(x, n, confidence)
        players = int(next(iter(rep.sources.values())).get("players", "0") or 0)
        rows.append({"label": bot, "section": "formats", "figure": "win_share", "key": name, "stat": "share",
                     "value": p, "low": lo, "high": hi, "n": n, "successes": x, "sd": math.nan,
                     "even_share": 1 / players if players else math.nan})
    table = pd.DataFrame(rows, columns=["label", "section", "figure", "key", "stat", "value", "low", "high", "n",
                                        "successes", "sd", "even_share"])
    return Report("summary", table, sources, f"formats: the share of wins of {bot}")


def plot_formats(report: Report, ax: Any = None, path: str | Path | None = None) -> Any:
    """One bar per format with its interval, the even share dashed, on ``ax`` (a new figure
    when None); ``path``: also save a PNG.  Returns the figure."""
    import matplotlib

    if ax is None and path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    t = report.table
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 3.6))
    else:
        fig = ax.figure
    x = np.arange(len(t))
    v = t["value"].to_numpy(float)
    err = np.vstack([v - t["low"].to_numpy(float), t["high"].to_numpy(float) - v])
    ax.bar(x, 100 * v, yerr=100 * err, capsize=4, color="#4c72b0")
    even = t["even_share"].dropna()
    if len(even):
        ax.axhline(100 * float(even.iloc[0]), ls="--", color="grey", lw=1, label="even share")
        ax.legend(loc="upper left", frameon=False)
    ax.set_xticks(x)
    ax.set_xticklabels(t["key"], rotation=20, ha="right")
    ax.set_ylabel("share of wins (%)")
    bot = t["label"].iloc[0] if len(t) else ""
    ax.set_title(f"How often each format crowns {bot} (95% intervals)")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
