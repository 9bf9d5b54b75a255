"""More figures on :mod:`unosim.analysis.figures`'s helpers: a sweep's balance chart, match
wins by bot, tournament champions (reached as ``plots.plot_balance`` and so on)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from unosim.analysis import figures as F
from unosim.analysis import report as rp
from unosim.analysis.report.model import FIGURE_NAMES
from unosim.analysis.report.render import bots_of
from unosim.run.bots_text import short_label

__all__ = ["plot_balance", "plot_match_bots", "plot_champions"]

_BALANCE = {
    "turns": ("turns", 1.0),
    "dealer1_win_share": ("percentage points", 100.0),
    "cards_drawn": ("cards", 1.0),
    "skill": ("percentage points", 100.0),
    "skill_ceiling": ("percentage points", 100.0),
}


def _clip_limit(vals: np.ndarray) -> float:
    """Half-width of a panel's x axis: the largest interval end within 5 times the median
    |end|; ends beyond it are clipped and labelled."""
    ends = np.abs(vals[np.isfinite(vals)])
    if not len(ends):
        return 1.0
    typical = 5.0 * max(float(np.median(ends)), 1e-9)
    inside = ends[ends <= typical]
    lim = float(inside.max()) if len(inside) else typical
    return max(lim * 1.12, 1e-6)


def _rule_order(t: Any) -> list[str]:
    """Changes grouped by rule (the key before ``=``), the rule with the largest effect first;
    a rule's values in the order the sweep listed them."""
    changes = list(dict.fromkeys(t["change"]))
    key = {c: c.split("=", 1)[0] for c in changes}
    size = t["effect"].abs().fillna(0.0).groupby([key[c] for c in t["change"]]).max()
    listed = list(dict.fromkeys(t.sort_values("label", kind="stable")["change"]))  # the sweep's order
    rules = sorted(dict.fromkeys(key.values()), key=lambda k: -size[k])
    return [c for r in rules for c in sorted((c for c in changes if key[c] == r), key=listed.index)]


def _base_caption(rep: rp.Report) -> str:
    """'base: official rules but ...' from the balance report's title."""
    inner = rep.title.partition("(")[2].rpartition(")")[0]
    return f"base: {inner}" if inner else ""


def plot_balance(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """The balance chart: one row per rule change, its table sizes side by side in the row.

    One panel per metric, each point a rule value's difference from its table size's base
    with its 95% interval; a rule that never acted is a hollow grey marker at zero, and a
    ``discovery`` carries the tables' †.
    """
    rep = report if isinstance(report, rp.Report) else rp.balance_report(report)
    if rep.kind != "balance":
        raise ValueError("plot_balance needs a balance report (unosim.analysis.report.balance_report)")
    t = rep.table
    metrics = [m for m in _BALANCE if m in set(t["metric"])] or list(_BALANCE)[:3]
    changes = _rule_order(t) if len(t) else []
    counts = sorted({int(p) for p in t["players"]}) if len(t) else []
    palette = dict(zip(counts, F.colors(len(counts))))
    status = {(c, int(p)): w for c, p, w in zip(t["change"], t["players"], t.get("status", [""] * len(t)))
              if isinstance(w, str) and w}
    # a page's drawing (figures.max_width) writes the clipped values larger, for a screen, and
    # spaces the rows to match; a file of `unosim plot` keeps them small and the chart compact
    paged = F.MAX_WIDTH.get() is not None
    note_size, mark_size = ("small", "small") if paged else (6.5, 7)
    row_h = 0.16 + (0.15 if paged else 0.07) * len(counts)
    cols, panel = F.columns(len(metrics), 2.55, 2.1)
    rows = -(-len(metrics) // cols)
    fig = Figure(figsize=(2.1 + panel * cols, rows * max(3.0, row_h * len(changes) + 1.5)), layout="constrained")
    FigureCanvasAgg(fig)
    axes = np.atleast_1d(fig.subplots(rows, cols, sharey=True, squeeze=False).ravel())
    for ax in axes[len(metrics):]:
        fig.delaxes(ax)
    axes = axes[:len(metrics)]
    y0 = np.arange(len(changes))[::-1].astype(float)
    ypos = {c: y for c, y in zip(changes, y0)}
    offset = {p: (0.25 - 0.5 * i / max(len(counts) - 1, 1)) if len(counts) > 1 else 0.0 for i, p in enumerate(counts)}
    handles: dict[str, Any] = {}
    marked = False
    for ax, m in zip(axes, metrics):
        unit, scale = _BALANCE[m]
        sub = t[t["metric"] == m]
        live = sub[[(c, int(p)) not in status for c, p in zip(sub["change"], sub["players"])]]
        lim = _clip_limit(live[["low", "high"]].to_numpy(float).ravel() * scale)
        series: dict[int, list[tuple[float, float, float, float]]] = {p: [] for p in counts}
        inert_y = []
        for r in sub.itertuples(index=False):
            p = int(r.players)
            y = ypos[r.change] + offset[p]
            if (r.change, p) in status or not np.isfinite(r.diff):
                inert_y.append(y)
                continue
            d, lo, hi = r.diff * scale, r.low * scale, r.high * scale
            dc, loc, hic = (float(v) for v in np.clip([d, lo, hi], -lim, lim))
            series[p].append((y, dc, dc - loc, hic - dc))
            found = bool(getattr(r, "discovery", False))  # the table's †
            marked |= found
            if hi > lim or lo < -lim:  # clipped: an arrow at the edge and the value (with its †)
                side = 1 if hi > lim else -1
                ax.annotate(f"{d:+.3g}" + (" †" if found else ""), (side * lim, y), xytext=(-10 * side, 0),
                            textcoords="offset points",
                            ha="right" if side > 0 else "left", va="center", fontsize=note_size, color=palette[p],
                            bbox={"fc": "white", "ec": "none", "pad": 0.4, "alpha": 0.85}, zorder=3)
                ax.annotate("", (side * lim, y), xytext=(-4 * side, 0), textcoords="offset points",
                            arrowprops={"arrowstyle": "-|>", "color": palette[p], "lw": 0.8})
            elif found:  # beside the interval's upper end
                ax.annotate("†", (hic, y), xytext=(3, 0), textcoords="offset points", ha="left", va="center",
                            fontsize=mark_size, color=palette[p])
        for p, pts in series.items():
            if pts:
                y, x, el, eh = (np.array(v) for v in zip(*pts))
                handles[f"{p} players"] = ax.errorbar(x, y, xerr=[el, eh], fmt="o", color=palette[p], ms=3.5,
                                                      capsize=2, elinewidth=1.0)
        if inert_y:
            ax.plot(np.zeros(len(inert_y)), inert_y, marker="o", mfc="none", mec="0.6", ms=4, ls="none")
        ax.axvline(0.0, **F.ZERO)
        ax.set_xlim(-lim, lim)
        ax.set_title(FIGURE_NAMES.get(m, m), fontsize="medium")
        ax.set_xlabel(unit, fontsize="small")
        ax.tick_params(axis="x", labelsize="small", labelbottom=True, labeltop=len(changes) > 12, top=len(changes) > 12)
        ax.set_yticks(y0, changes, fontsize="small")
        ax.yaxis.set_tick_params(labelleft=any(ax is a for a in axes[::cols]))
        ax.set_ylim(-0.7, len(changes) - 0.3)
        for y in y0[:-1]:
            ax.axhline(y - 0.5, color="0.92", lw=0.6, zorder=0)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_ylabel("rule change", fontsize="small")
    name = next((lab.split(":")[0] for lab in t["label"]), "") if len(t) and "label" in t else ""
    F.suptitle(fig, f"{name + ': ' if name else ''}each rule change minus the base of its table size, 95% intervals")
    caption = "; ".join(x for x in (_base_caption(rep), F.bots_caption(bots_of(rep))) if x)
    inert = " Hollow grey: never triggered or no hand changed." if status else ""
    if marked and rep.discovery_rate is not None:
        inert += f" †: remains with the false discovery rate at {rep.discovery_rate:.0%} over the panel's rows."
    if caption or inert:
        F.caption(fig, caption + ("." if caption else "") + inert)
    if handles:
        order = sorted(handles, key=lambda k: int(k.split()[0]))
        F.fig_legend(fig, [handles[k] for k in order], order, title="table")
    return F.save(fig, path, rep)


def _per_seat_held(rep: rp.Report, section: str) -> F.Shares:
    """A bot section's wins per seat held: its ``win_per_seat`` rows, else its ``win_share``
    divided by the seats the bot held."""
    per = F.share_table(rep, section, "win_per_seat", numeric=False)
    if per:
        return per
    out: F.Shares = {}
    for lab, shares in F.share_table(rep, section, "win_share", numeric=False).items():
        bots = [b for b in rep.sources.get(lab, {}).get("bots", "").split(",") if b]
        for b, v in shares.items():
            k = bots.count(b)
            if k:
                out.setdefault(lab, {})[b] = tuple(x / k for x in v)  # type: ignore[assignment]
    return out


def plot_match_bots(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """Match wins per seat held, by bot, under S1, S2 and S4: minus the even share, 95% intervals."""
    rep = F.summary(report)
    systems = [(sys, name) for sys, name in F.WINNERS if len(rep.figure(f"match_{sys}_bot", "win_share"))]
    fig, axes = F.new(len(systems) or 1, size=(4.8, 3.8), sharey=True)
    handles: dict[str, Any] = {}

    def even(lab: str, _: Any) -> float:
        p = rep.players(lab)
        return 1.0 / p if p else 0.0

    drawn: dict[str, None] = {}  # the results drawn, in order
    for ax, (sys, name) in zip(axes, systems):
        data = _per_seat_held(rep, f"match_{sys}_bot")
        drawn.update(dict.fromkeys(data))
        keys = sorted({k for v in data.values() for k in v})
        hs, names = F.diff_bars(ax, data, keys, short_label, even)
        handles.update(zip(names, hs))
        F.title(ax, name.split(" (")[0])
        ax.set_xlabel("config")
        ax.set_ylabel("match wins per seat held − 1/players\n(percentage points)")
        ax.yaxis.set_tick_params(labelleft=True)
    F.suptitle(fig, "Match wins per seat held, by bot, minus the even share (percentage points, 95% intervals)"
                   + F.for_labels(list(drawn)))
    F.fig_legend(fig, list(handles.values()), list(handles), title="bot")
    return F.save(fig, path, rep, list(drawn))


def plot_champions(report: rp.Report | Any, path: str | os.PathLike[str] | None = None) -> Figure:
    """T1 champion share per player and per bot, S1 and S2, minus the even share (95% Wilson)."""
    rep = F.summary(report)
    systems = (("pos", "S1 (highest total)"), ("neg", "S2 (lowest total)"))
    fig, axes = F.new(2, 2, size=(5.0, 3.4))

    def even(lab: str, shares: dict[Any, Any]) -> float:
        p = rep.players(lab) or len(shares)
        return 1.0 / p if p else 0.0

    drawn: dict[str, None] = {}  # the results drawn, in order
    for col, (sys, name) in enumerate(systems):
        for row, (section, figure, numeric, key_name, what) in enumerate((
                (f"tournament_{sys}_player", "win_share", True, lambda k: f"player {k}", "player"),
                (f"tournament_{sys}_bot", "win_per_seat", False, short_label, "bot"))):
            ax = axes[row * 2 + col]
            data = F.share_table(rep, section, figure, numeric=numeric)
            drawn.update(dict.fromkeys(data))
            keys = sorted({k for v in data.values() for k in v})
            hs, names = F.diff_bars(ax, data, keys, key_name, even)
            F.title(ax, f"{name}: champion share by {what}" + (" (per player held)" if what == "bot" else ""))
            ax.set_xlabel("config")
            ax.set_ylabel("champion share − 1/players\n(percentage points)")
            if col == 1 and hs:
                ax.legend(hs, names, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                          title=what, title_fontsize="small", frameon=False)  # fmt: skip
    F.suptitle(fig, "Tournament (T1) champion share minus the even share, in percentage points, with 95% intervals"
                   + F.for_labels(list(drawn)))
    return F.save(fig, path, rep, list(drawn))
