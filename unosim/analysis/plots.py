"""Matplotlib figures of reports.

Every function takes a report (or result paths), returns the Figure and writes a PNG when
``path`` is given; figures are built without pyplot.  Why: docs/design.md, "Figures".
"""

from __future__ import annotations

import math
import os
from functools import partial
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from unosim.analysis import figures as F
from unosim.analysis import report as rp
from unosim.analysis.charts import plot_balance, plot_champions, plot_match_bots
from unosim.analysis.report.balance import balance_of
from unosim.analysis.figures import colors
from unosim.run.bots_text import short_label
from unosim.run.guard import is_sweep

__all__ = [
    "plot_win_share",
    "plot_bot_win_share",
    "plot_game_length",
    "plot_match_winners",
    "plot_hands_per_match",
    "plot_balance",
    "plot_match_bots",
    "plot_champions",
    "run_figures",
    "plot_all",
    "colors",
]

# ------------------------------------------------------------------------------ hand figures


def plot_win_share(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Hand win share by seat and by position after the dealer, per config: each bar the share
    minus the even share 1 / players, in points, with the 95% Wilson interval."""
    rep = F.summary(report)
    sections = (
        ("seat", "by seat", lambda k: f"seat {k}", "seat"),
        ("after_dealer", "by position after the dealer", lambda k: "dealer" if k == 0 else f"dealer+{k}", "position"),
    )
    shares = [F.share_table(rep, sec) for sec, *_ in sections]
    labels = list(dict.fromkeys(lab for s in shares for lab in s))
    fig, axes = F.new(1, 2, size=(max(7.0, 3.0 + 0.9 * len(labels)), 3.6))
    players = [rep.players(lab, len(shares[0].get(lab, {}))) for lab in labels]
    for ax, data, (_, what, key_name, legend_title) in zip(axes, shares, sections):
        keys = sorted({k for v in data.values() for k in v})
        handles, names = F.diff_bars(ax, data, keys, key_name, lambda lab, seats: 1.0 / len(seats) if seats else 0.0)
        F.title(ax, f"Hand win share {what}")
        ax.set_ylabel("win share − 1/players\n(percentage points)")
        ax.set_xlabel("config")
        if handles:
            ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                      title=legend_title, title_fontsize="small", frameon=False)  # fmt: skip
    F.suptitle(
        fig,
        f"Hand win share minus the even share {F.even_note(players)}, in percentage points, "
        f"with 95% intervals{F.for_labels(labels)}",
    )
    return F.save(fig, path, rep, labels)


def plot_bot_win_share(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Hand wins per seat held, by bot, minus the even share 1 / players (points, 95% Wilson)."""
    rep = F.summary(report)
    data = F.share_table(rep, "bot", "win_per_seat", numeric=False)
    labels = list(data)
    keys = sorted({k for v in data.values() for k in v})
    fig, (ax,) = F.new(1, size=(max(7.0, 3.0 + 0.9 * len(labels)), 4.0))
    players = [rep.players(lab) for lab in labels]

    def even(lab: str, _: Any) -> float:
        p = rep.players(lab)
        return 1.0 / p if p else 0.0

    handles, names = F.diff_bars(ax, data, keys, short_label, even)
    ax.set_ylabel("wins per seat held − 1/players\n(percentage points)")
    ax.set_xlabel("config")
    if handles:
        ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                  title="bot", title_fontsize="small", frameon=False)  # fmt: skip
    F.title(
        ax,
        f"Hand wins per seat held, by bot, minus the even share {F.even_note(players)} "
        f"(percentage points, 95% intervals){F.for_labels(labels)}",
    )
    return F.save(fig, path, rep, labels)


def plot_game_length(
    report: rp.Report | Any,
    column: str = "turns",
    path: str | os.PathLike[str] | None = None,
    tail: float = 0.995,
) -> Figure:
    """Distribution of ``column`` (``turns`` or ``cards_played``), one step line per config;
    the x axis stops at the ``tail`` quantile of the longest config."""
    rep = F.summary(report)
    fig, (ax,) = F.new(1, size=(8.0, 4.0))
    drawn = [(lab, d[column]) for lab, d in rep.dists.items() if d.get(column) is not None and d[column].sum() > 0]
    xmax = max([1, *(int(rp.hist_quantile(h, tail)) + 1 for _, h in drawn)])
    for (label, h), colour in zip(drawn, F.colors(len(drawn))):
        p = h[: xmax + 1] / h.sum()
        ax.stairs(p, np.arange(len(p) + 1) - 0.5, label=label, color=colour, linewidth=1.3)
    what = column.replace("_", " ")
    ax.set_xlim(-0.5, xmax + 0.5)
    ax.set_xlabel(f"{what} per hand")
    ax.set_ylabel("share of hands")
    ax.grid(alpha=0.3)
    names = [lab for lab, _ in drawn]
    F.title(
        ax,
        f"Distribution of {what} per hand (share of hands at each value; "
        f"x axis cut at the {100 * tail:g}th percentile){F.for_labels(names)}",
    )
    if drawn:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", title="config",
                  title_fontsize="small", frameon=False, ncols=1 if len(drawn) <= 16 else 2)  # fmt: skip
    return F.save(fig, path, rep, names)


# ------------------------------------------------------------------------------ match figures


def _match_labels(rep: rp.Report) -> list[str]:
    t = rep.table
    return list(dict.fromkeys(t.loc[t["section"] == "match_positive", "label"]))


def _target(rep: rp.Report, label: str) -> str:
    t = rep.sources.get(label, {}).get("match_target")
    return f"first to {t}" if t else "to the match target"


def plot_match_winners(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Match win share per seat under S1, S2 and S4 scoring, minus the even share 1 / players
    in points, with the 95% Wilson interval; one axes per config with matches."""
    rep = F.summary(report)
    labels = _match_labels(rep)
    ncols = min(max(len(labels), 1), 3)
    nrows = max(1, math.ceil(len(labels) / ncols))
    fig, axes = F.new(ncols, nrows, size=(max(4.6, 8.0 / ncols), 3.6), sharey=True)
    tables = {sys: F.share_table(rep, f"match_{sys}_seat") for sys, _ in F.WINNERS}
    systems = [(sys, name) for sys, name in F.WINNERS if any(tables[sys].get(lab) for lab in labels)]
    palette = dict(zip((s for s, _ in F.WINNERS), F.colors(3)))
    handles: dict[str, Any] = {}
    players: list[int] = []
    targets = sorted({_target(rep, lab) for lab in labels})
    for ax, label in zip(axes, labels):
        n = rep.players(label, max(len(tables[sys].get(label, {})) for sys, _ in F.WINNERS) or 1)
        players.append(n)
        if not any(np.isfinite(v[0]) for sys, _ in F.WINNERS for v in tables[sys].get(label, {}).values()):
            F.no_data(ax, (n - 1) / 2, "no match ended:\nno match win shares")
        width = 0.8 / max(len(systems), 1)
        for j, (sys, name) in enumerate(systems):
            seats = tables[sys].get(label, {})
            if not seats:
                continue
            k = np.array(sorted(seats))
            v = (np.array([seats[s] for s in k], dtype=float) - 1.0 / n) * 100
            err = np.abs(np.stack([v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]]))
            handles[name] = ax.bar(k - 0.4 + width * (j + 0.5), v[:, 0], width, yerr=err, capsize=2,
                                   color=palette[sys], error_kw={"ecolor": "0.15", "elinewidth": 0.9})  # fmt: skip
        ax.axhline(0.0, **F.ZERO)
        ax.set_xlim(-0.6, n - 0.4)
        narrow = (F.MAX_WIDTH.get() or 99) < 5  # a phone's figure: seat numbers only, the axis says "seat"
        ax.set_xticks(range(n), [f"{s}" if narrow else f"seat {s}" for s in range(n)],
                      fontsize="small" if n > 5 else "medium")
        ax.set_xlabel("seat")
        ax.set_ylabel("match win share − 1/players\n(percentage points)")
        ax.yaxis.set_tick_params(labelleft=True)
        ax.grid(axis="y", alpha=0.3)
        teams = rep.sources.get(label, {}).get("teams", "1")
        what = f"{label}: {n} players" + (f" in {teams} teams" if teams not in ("", "1") else "")
        F.title(ax, what if len(targets) == 1 else f"{what}, {_target(rep, label)}")
    for ax in axes[len(labels) :]:
        ax.set_axis_off()
    if not labels:
        axes[0].set_axis_off()
        F.suptitle(fig, "Match win share by seat: no match results")
        return F.save(fig, path, rep, labels)
    F.suptitle(
        fig,
        f"Match win share by seat minus {F.even_note(players)} (percentage points, 95% intervals)"
        + (f", {targets[0]}" if len(targets) == 1 else "")
        + F.for_labels(labels),
    )
    # short names in the legend, right of the first row's last axes (never clipped, never on
    # the title); the rules are in the glossary
    if handles and (F.MAX_WIDTH.get() or 99) < 5:  # a phone's figure: no room on the right
        axes[0].legend(list(handles.values()), [n.split(" (")[0] for n in handles], loc="best", fontsize="small",
                       title="scoring", title_fontsize="small", framealpha=0.9)
    elif handles:
        axes[min(ncols, len(labels)) - 1].legend(
            list(handles.values()), [n.split(" (")[0] for n in handles], loc="upper left",
            bbox_to_anchor=(1.01, 1.0), fontsize="small", title="scoring", title_fontsize="small", frameon=False)
    return F.save(fig, path, rep, labels)


def plot_hands_per_match(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Distribution of hands per match: one axes per scoring system, one step line per config."""
    rep = F.summary(report)
    present = [
        (sys, name)
        for sys, name in F.SYSTEMS
        if any((h := d.get(f"hands_per_match_{sys}")) is not None and h.sum() > 0 for d in rep.dists.values())
    ] or [F.SYSTEMS[0]]
    fig, axes = F.new(len(present), size=(5.0, 3.8), sharey=True)
    labels = [lab for lab, d in rep.dists.items()
              if any(d.get(f"hands_per_match_{s}") is not None for s, _ in F.SYSTEMS)]  # fmt: skip
    palette = dict(zip(labels, F.colors(len(labels))))
    handles: dict[str, Any] = {}
    for ax, (sys, name) in zip(axes, present):
        for label in labels:
            h = rep.dists[label].get(f"hands_per_match_{sys}")
            if h is None or h.sum() == 0:
                continue
            handles[label] = ax.stairs(h / h.sum(), np.arange(len(h) + 1) - 0.5, color=palette[label],
                                       linewidth=1.3, label=label)  # fmt: skip
        ax.set_xlabel("hands per match")
        ax.set_ylabel("share of matches")
        ax.yaxis.set_tick_params(labelleft=True)
        ax.grid(alpha=0.3)
        F.title(ax, name)
    targets = sorted({_target(rep, lab) for lab in labels})
    F.suptitle(
        fig,
        "Match length: distribution of hands per match"
        + (f", {targets[0]}" if len(targets) == 1 else "")
        + F.for_labels(labels),
    )
    F.fig_legend(fig, list(handles.values()), list(handles), title="config")
    return F.save(fig, path, rep, labels)


# ------------------------------------------------------------------------------ everything


def plot_all(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], out_dir: str | os.PathLike[str]
) -> list[Path]:
    """Write every figure that applies to ``paths`` into ``out_dir``; return the files.

    Runs get :func:`run_figures`'s figures; a sweep directory with a base point gets
    ``balance_<dir>.png`` only (its points' own figures: pass their ``point-NNNN`` folders).
    """
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    runs: list[Any] = []
    balances: list[tuple[str, rp.Report]] = []
    for item in items:
        p = Path(item) if isinstance(item, (str, os.PathLike)) else None
        if p is None or not is_sweep(p):
            runs.append(item)
            continue
        bal = balance_of(p)
        if bal is not None and not all(math.isnan(v) for v in bal.table["diff"]):
            balances.append((p.name, bal))
        else:
            runs.append(item)
    figs = run_figures(rp.summarize(runs)) if runs else []
    figs += [(f"balance_{name}.png", partial(plot_balance, bal)) for name, bal in balances]
    for name, draw in figs:
        draw(path=out / name)
    return [out / name for name, _ in figs]


def run_figures(rep: rp.Report) -> list[tuple[str, Callable[..., Figure]]]:
    """Every figure of a summary report: (file name, a function drawing it, ``path=`` to
    write).  A tournament run gets champion shares instead of hand win shares by seat."""
    modes = {m.get("mode", "") for m in rep.sources.values()}
    figs: list[tuple[str, Callable[..., Figure]]] = []
    from unosim.run.modes import seat_shares
    if not modes or any(seat_shares(m) for m in modes):
        figs.append(("win_share.png", partial(plot_win_share, rep)))
    if len(rep.figure("bot", "win_per_seat")):
        figs.append(("bot_win_share.png", partial(plot_bot_win_share, rep)))
    figs.append(("turns.png", partial(plot_game_length, rep, "turns")))
    figs.append(("cards_played.png", partial(plot_game_length, rep, "cards_played")))
    if _match_labels(rep):
        figs.append(("match_winners.png", partial(plot_match_winners, rep)))
        if any(len(rep.figure(f"match_{sys}_bot", "win_share")) for sys, _ in F.WINNERS):
            figs.append(("match_bots.png", partial(plot_match_bots, rep)))
        figs.append(("hands_per_match.png", partial(plot_hands_per_match, rep)))
    if len(rep.figure("tournament_pos_player", "win_share")):
        figs.append(("champions.png", partial(plot_champions, rep)))
    return figs

