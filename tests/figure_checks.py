"""A figure is readable: a title, labelled axes, a legend outside the data when it has
several series, no colour used twice; and the figures ``plot_all`` writes, by file name.
Shared by tests/unit/test_plots.py and tests/e2e/test_result_figures.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from matplotlib.colors import to_hex
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.patches import StepPatch

from unosim.analysis import figures, plots


def png_ok(p: Path) -> None:
    assert p.exists() and p.stat().st_size > 1024
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def series_colours(ax: Any) -> list[str]:
    """One colour per data series of ``ax``: bar sets, error-bar series, step lines, labelled lines."""
    out = []
    for c in ax.containers:
        if isinstance(c, BarContainer) and c.patches:
            out.append(to_hex(c.patches[0].get_facecolor()))
        elif isinstance(c, ErrorbarContainer) and c.lines[0] is not None:  # bar whiskers have no data line
            out.append(to_hex(c.lines[0].get_color()))
    out += [to_hex(p.get_edgecolor()) for p in ax.patches if isinstance(p, StepPatch)]
    out += [to_hex(ln.get_color()) for ln in ax.lines if not ln.get_label().startswith("_")]
    return out


def assert_readable(fig: Figure) -> None:
    """Title, axis labels, legend outside the data (when needed) and distinct colours."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    page = fig.bbox
    data_axes = [ax for ax in fig.axes if series_colours(ax)]
    assert data_axes, "a figure with no data"
    sup = fig.get_suptitle()
    assert sup or all(ax.get_title() for ax in data_axes), "no title"
    titles = [fig._suptitle] if sup else []  # noqa: SLF001 - the suptitle Text, to measure it
    titles += [ax.title for ax in data_axes if ax.get_title()]
    for t in titles:  # a long title is wrapped, not cut off at the figure's edges
        b = t.get_window_extent(r)
        assert b.x0 >= -1 and b.x1 <= page.width + 1 and b.y1 <= page.height + 1, t.get_text()
    for ax in data_axes:
        assert ax.get_xlabel(), f"no x label on {ax.get_title()!r}"
        ylab = ax.get_ylabel() or any(o.get_ylabel() for o in ax.get_shared_y_axes().get_siblings(ax))
        assert ylab, f"no y label on {ax.get_title()!r}"
        colours = series_colours(ax)
        assert len(colours) == len(set(colours)), f"a colour used twice on {ax.get_title()!r}: {colours}"
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    if max(len(series_colours(ax)) for ax in data_axes) > 1:
        assert legends, "several series and no legend"
    for leg in legends:
        lb = leg.get_window_extent(r)
        assert lb.x0 >= -1 and lb.y0 >= -1 and lb.x1 <= page.width + 1 and lb.y1 <= page.height + 1
        for ax in data_axes:
            assert not lb.overlaps(ax.get_window_extent(r)), f"legend covers {ax.get_title()!r}"
        for t in titles:
            assert not lb.overlaps(t.get_window_extent(r)), "legend covers a title"
        if fig.get_supxlabel():
            assert not lb.overlaps(fig._supxlabel.get_window_extent(r)), "legend covers the caption"  # noqa: SLF001


def figures_of(paths: Any, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Figure]:
    """Every figure plot_all makes for ``paths``, by file name."""
    figs: dict[str, Figure] = {}
    real_save = figures.save

    def keep(fig: Figure, path: Any, *rest: Any) -> Figure:
        figs[Path(path).name] = fig
        return real_save(fig, path, *rest)

    monkeypatch.setattr(figures, "save", keep)
    written = plots.plot_all(paths, out)
    assert sorted(figs) == sorted(p.name for p in written)
    for p in written:
        png_ok(p)
    return figs
