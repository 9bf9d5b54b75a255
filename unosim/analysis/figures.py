"""The helpers every figure of :mod:`unosim.analysis.plots` and :mod:`unosim.analysis.charts`
draws with; both call them through this module (``figures.save``), so one patch sees all."""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from unosim.analysis import report as rp
from unosim.analysis.report.paired import PAIRED
from unosim.run.bots_text import bots_line, said

DPI = 120
ZERO = {"color": "0.3", "linestyle": "dashed", "linewidth": 0.9, "zorder": 0.5}


# ------------------------------------------------------------------------------ helpers


def summary(obj: rp.Report | Any) -> rp.Report:
    """Accept a summary Report or anything :func:`unosim.analysis.report.summarize` accepts."""
    if isinstance(obj, rp.Report):
        return obj
    return rp.summarize(obj)


MAX_WIDTH: ContextVar[float | None] = ContextVar("MAX_WIDTH", default=None)
"""The widest a figure may be drawn, in inches (None: as wide as its panels ask).  A page
draws each figure twice, for a laptop and for a phone (unosim/page.py), so that its
smallest text stays legible at either width."""


@contextmanager
def max_width(inches: float | None) -> Iterator[None]:
    """Draw the figures made inside at most ``inches`` wide: panels in fewer columns."""
    token = MAX_WIDTH.set(inches)
    try:
        yield
    finally:
        MAX_WIDTH.reset(token)


def columns(n: int, panel: float, extra: float = 0.0) -> tuple[int, float]:
    """How many of ``n`` panels ``panel`` inches wide fit side by side (with ``extra``
    inches beside them) under :data:`MAX_WIDTH`, and the panel width to draw them at."""
    limit = MAX_WIDTH.get()
    if limit is None:
        return n, panel
    cols = max(1, min(n, int((limit - extra) // panel)))
    return cols, min(panel, limit - extra) if cols == 1 else panel


def new(
    ncols: int = 1, nrows: int = 1, size: tuple[float, float] = (7.0, 4.0), **kw: Any
) -> tuple[Figure, np.ndarray]:
    """A figure of ``ncols`` x ``nrows`` panels of ``size`` inches; under :func:`max_width`
    the same panels in as many columns as fit, one after another as before."""
    count = ncols * nrows
    cols, width = columns(ncols, size[0])
    if cols < ncols:
        ncols, nrows = cols, -(-count // cols)
    fig = Figure(figsize=(width * ncols, size[1] * nrows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False, **kw).ravel())
    for ax in axes[count:]:
        fig.delaxes(ax)
    return fig, axes[:count]


def fit_titles(fig: Figure) -> None:
    """Re-wrap any title wider than its axes (or the figure) once the layout is known."""
    for _ in range(3):
        fig.draw_without_rendering()
        r = fig.canvas.get_renderer()
        items = [(fig._suptitle, fig.bbox.width * 0.98)] if fig.get_suptitle() else []  # noqa: SLF001
        items += [(ax.title, ax.get_window_extent(r).width) for ax in fig.axes if ax.get_title()]
        changed = False
        for text, room in items:
            width = text.get_window_extent(r).width
            if width <= room or room <= 0:
                continue
            lines = text.get_text().split("\n")
            chars = max(12, int(max(map(len, lines)) * room / width * 0.95))
            text.set_text("\n".join(textwrap.fill(line, chars) for line in lines))
            changed = True
        if not changed:
            return


def caption(fig: Figure, text: str) -> None:
    """One line under the axes (wrapped to the figure's width): what played, e.g. the bots."""
    fig.supxlabel(wrap(text, fig.get_figwidth(), 10.0), fontsize="small", color="0.25")


def save(fig: Figure, path: str | os.PathLike[str] | None, rep: rp.Report | None = None,
         labels: Sequence[str] | None = None) -> Figure:
    """Name the bots, fit the titles, say when the results are incomplete, write the PNG.
    ``labels``: the results the figure shows (None: all of ``rep``'s), whose bots and notes
    it carries."""
    bots, notes = shown(rep, labels) if rep is not None else ("", [])
    # results whose content could not be checked (no part journal) and how intervals were
    # paired say so in the caption; what the reader must know first (an unfinished run or
    # sweep) goes in the title
    unverified = [n for n in notes if "unverified" in n or PAIRED in n]
    notes = [n for n in notes if n not in unverified]
    below = fig.get_supxlabel() or bots_caption(bots)
    if unverified or (bots and not fig.get_supxlabel()):
        caption(fig, "; ".join([below.rstrip(".")] * bool(below) + unverified))
    if notes:
        notes = "\n".join(f"note: {n}" for n in notes)
        sup = fig.get_suptitle()
        fig.suptitle(f"{sup}\n{notes}" if sup else notes, fontsize="large" if sup else "medium")
    fit_titles(fig)
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=DPI)
    return fig


def bots_caption(bots: str) -> str:
    """``bots: ...`` for a caption, saying when they are the default ('' for no bots known;
    the whole of the report's default note is too long under a figure)."""
    return f"bots: {bots}" + (" (the default)" if said(bots) != bots else "") if bots else ""


def shown(rep: rp.Report, labels: Sequence[str] | None) -> tuple[str, list[str]]:
    """The bots and notes of the results ``labels`` (None: all) of ``rep``: a note that
    opens with another result's label, or ends with it in brackets, is that result's."""
    labels = list(rep.sources) if labels is None else labels
    others = [lab for lab in rep.sources if lab not in labels]
    notes = [n for n in dict.fromkeys(rep.notes)
             if not any(n.startswith((f"{lab}:", f"{lab} ")) or n.endswith(f"({lab})") for lab in others)]
    return bots_line({lab: rep.sources.get(lab, {}).get("seating", "") for lab in labels}), notes


def colors(n: int) -> list[Any]:
    """``n`` distinct colours: tab10 up to ten, then tab20's light shades, else a turbo sample."""
    if n <= 10:
        return list(colormaps["tab10"].colors[: max(n, 0)])
    if n <= 20:
        tab20 = colormaps["tab20"].colors  # dark/light pairs: the ten dark ones (tab10) first
        return list(tab20[0::2] + tab20[1::2])[:n]
    return [colormaps["turbo"](x) for x in np.linspace(0.05, 0.95, n)]


def wrap(text: str, width_in: float, points: float = 12.0) -> str:
    """Wrap ``text`` to fit ``width_in`` inches at about ``points`` pt (each line kept)."""
    chars = max(20, int(width_in * 72 / (points * 0.6)))
    return "\n".join(textwrap.fill(line, chars) for line in text.splitlines())


def suptitle(fig: Figure, text: str) -> None:
    fig.suptitle(wrap(text, fig.get_figwidth(), 14.0), fontsize="large")


def title(ax: Any, text: str) -> None:
    width = ax.get_position().width * ax.figure.get_figwidth()
    ax.set_title(wrap(text, width, 11.0), fontsize="medium")


def fig_legend(fig: Figure, handles: Sequence[Any], labels: Sequence[str], title: str | None = None) -> None:
    """One legend for the figure, outside every axes, on the right (the caption takes the bottom)."""
    if not handles:
        return
    limit = MAX_WIDTH.get()
    if limit is not None and limit < 5 and len(handles) <= 4:  # a phone's figure: no room on the right,
        fig.axes[0].legend(handles, labels, loc="best", fontsize="small", title=title,  # in the first panel
                           title_fontsize="small", framealpha=0.9)
        return
    fig.legend(handles, labels, loc="outside right upper", fontsize="small", title=title,
               title_fontsize="small", ncols=1 if len(handles) <= 16 else 2, frameon=False)  # fmt: skip


def pct(x: float) -> str:
    return f"{100 * x:.3g}%"


def even_note(players: Sequence[int]) -> str:
    """'1/4 = 25%' when every config has the same table, else '1/players'."""
    ps = sorted(set(players))
    if len(ps) == 1 and ps[0] > 0:
        return f"1/{ps[0]} = {pct(1 / ps[0])}"
    return "1/players"


def for_labels(labels: Sequence[str]) -> str:
    """' — standard' for one config, '' for several (the axis names them)."""
    return f" — {labels[0]}" if len(labels) == 1 else ""


Shares = dict[str, dict[Any, tuple[float, float, float]]]


def share_table(rep: rp.Report, section: str, figure: str = "win_share", numeric: bool = True) -> Shares:
    """label -> key (int seat, or bot name) -> (value, low, high) of a share section."""
    t = rep.table
    t = t[(t["section"] == section) & (t["figure"] == figure)]
    out: Shares = {}
    for r in t.itertuples(index=False):
        out.setdefault(r.label, {})[int(r.key) if numeric else str(r.key)] = (r.value, r.low, r.high)
    return out


def break_label(label: str, width: int) -> str:
    """Lines of at most ``width`` characters, broken after ``:`` ``,`` or a space (never in a word)."""
    tokens = re.findall(r"[^:, ]+[:, ]?|[:, ]", label)
    lines = [""]
    for tok in tokens:
        if lines[-1] and len(lines[-1]) + len(tok.rstrip()) > width:
            lines.append("")
        lines[-1] += tok
    return "\n".join(line.rstrip() for line in lines)


def tick_labels(ax: Any, x: np.ndarray, labels: Sequence[str]) -> None:
    """Config names under groups: wrapped, and slanted when there are many."""
    crowded = len(labels) > 5
    short = [break_label(lab, 18) for lab in labels]
    ax.set_xticks(x, short, rotation=30 if crowded else 0, ha="right" if crowded else "center",
                  fontsize="small" if crowded else "medium")  # fmt: skip


def no_data(ax: Any, x: float, text: str) -> None:
    """``text`` where a group's bars would stand (data x, the middle of the axes' height)."""
    ax.text(x, 0.5, text, transform=ax.get_xaxis_transform(), ha="center", va="center", fontsize="small",
            color="0.3")


def diff_bars(
    ax: Any,
    data: Shares,
    keys: Sequence[Any],
    key_name: Callable[[Any], str],
    even: Callable[[str, dict[Any, Any]], float],
    empty: str = "no hand decided:\nno win shares",
) -> tuple[list[Any], list[str]]:
    """One group per config, one bar per key: share - even share in points, with intervals
    (``empty`` for a config with no share); returns the legend handles and labels."""
    labels = list(data)
    width = 0.8 / max(len(keys), 1)
    x = np.arange(len(labels))
    handles, names = [], []
    for k, (key, colour) in enumerate(zip(keys, colors(len(keys)))):
        rows = []
        for lab in labels:
            e = even(lab, data[lab])
            v = data[lab].get(key)
            rows.append([np.nan] * 3 if v is None or not e else [(c - e) * 100 for c in v])
        vals = np.array(rows, dtype=float).reshape(-1, 3)
        if np.isnan(vals[:, 0]).all():
            continue
        err = np.abs(np.stack([vals[:, 0] - vals[:, 1], vals[:, 2] - vals[:, 0]]))
        bars = ax.bar(x - 0.4 + width * (k + 0.5), vals[:, 0], width, yerr=err, capsize=2,
                      color=colour, error_kw={"ecolor": "0.15", "elinewidth": 0.9})  # fmt: skip
        handles.append(bars)
        names.append(key_name(key))
    ax.axhline(0.0, **ZERO)
    for i, lab in enumerate(labels):
        if not any(np.isfinite(v[0]) for v in data[lab].values()):
            no_data(ax, x[i], empty)
    tick_labels(ax, x, labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.grid(axis="y", alpha=0.3)
    return handles, names


SYSTEMS = (("positive", "S1 positive scoring (highest total wins)"),
            ("negative", "S2 negative scoring (lowest total wins, ties shared)"))
WINNERS = SYSTEMS + (("chips", "S4 chips (highest balance after chips_hands hands)"),)
