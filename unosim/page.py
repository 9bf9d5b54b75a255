"""One page to share: a result's report, figures, config and bots in a single HTML file.

``unosim report RESULT... --html FILE`` writes it, self-contained: findings, notes, bots,
figures (each for a laptop and a phone), sortable tables, configs.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["write_html", "page", "plot_results"]

_STYLE = """
body { font-family: sans-serif; margin: 1em auto; max-width: 80em; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.4em; overflow-wrap: anywhere; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
.findings { background: #eef5ff; border-left: 4px solid #3b7dd8; padding: 0.3em 1em; }
.findings li { margin: 0.3em 0; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
td, th { padding: 0.15em 0.6em; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; cursor: pointer; user-select: none; }
th[aria-sort=ascending]::after { content: " \\25B2"; } th[aria-sort=descending]::after { content: " \\25BC"; }
td:first-child, th:first-child { text-align: left; }
tr.section td { font-weight: bold; background: #fafafa; text-align: left; }
.scroll { overflow-x: auto; max-width: 100%; }
.legend { font-size: 0.85em; color: #444; }
figure { margin: 1em 0; }
figure img { display: block; width: 100%; height: auto; border: 1px solid #eee; }
img.narrow { display: none; }
@media (max-width: 700px) { img.wide { display: none; } img.narrow { display: block; }
  td, th { white-space: normal; } }
figcaption { font-size: 0.85em; color: #555; }
.note { background: #fff4d6; padding: 0.4em 0.8em; border-left: 4px solid #e0a800; overflow-wrap: anywhere; }
pre { background: #f7f7f7; padding: 0.6em; font-size: 0.8em; white-space: pre-wrap; overflow-wrap: anywhere; }
summary { overflow-wrap: anywhere; }
"""

_CHECK = """
window.addEventListener("load", function () {
  var imgs = document.images, ok = 0;
  for (var i = 0; i < imgs.length; i++) { if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++; }
  document.body.setAttribute("data-figures", ok + "/" + imgs.length);
});
"""

_SORT = """
function unosimKey(cell) {
  var s = cell ? cell.textContent.trim() : "", m = s.replace(/,/g, "").replace(/\\u2212/g, "-").match(/^[+-]?\\d+(\\.\\d+)?/);
  return m ? parseFloat(m[0]) : s;
}
document.querySelectorAll("table.sortable").forEach(function (t) {
  t.querySelectorAll("thead th").forEach(function (th, i) {
    th.title = "click to sort by this column";
    th.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      t.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      t.querySelectorAll("tbody").forEach(function (body) {
        var rows = Array.prototype.filter.call(body.rows, function (r) { return !r.classList.contains("section"); });
        rows.sort(function (a, b) {
          var x = unosimKey(a.cells[i]), y = unosimKey(b.cells[i]), n = typeof x === "number", m = typeof y === "number";
          var c = n && m ? x - y : n ? -1 : m ? 1 : String(x).localeCompare(String(y));
          return up || (n !== m) ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
});
"""

WIDE_IN, NARROW_IN = 11.0, 3.4
"""The widest a figure is drawn for a laptop's page and for a phone's (inches): at these
widths its smallest text stays at 10 CSS pixels or more on screens 1280 and 390 wide."""
DPI = 110
SCREEN = 1.35
"""CSS pixels per point of the figure at its largest: a figure never grows beyond it."""


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _smallest_text(fig: Any) -> float:
    """The smallest font size of any text the figure shows, in points."""
    from matplotlib.text import Text

    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes) if sizes else 10.0


def _png(fig: Any) -> tuple[str, float, int]:
    """The figure as a ``data:`` URI, its smallest text (points) and its width in pixels."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")  # the skill figures are not constrained
    data = buf.getvalue()
    width = int.from_bytes(data[16:20], "big")  # the PNG header's width
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii"), _smallest_text(fig), width


def _figure(draw: Callable[[], Any], caption: str) -> str:
    """A figure drawn for a laptop and for a phone, each image carrying its smallest text and
    dpi (``data-font-pt``, ``data-dpi``)."""
    from unosim.analysis.figures import max_width

    imgs = []
    for cls, inches in (("wide", WIDE_IN), ("narrow", NARROW_IN)):
        with max_width(inches):
            uri, pt, px = _png(draw())
        imgs.append(f'<img class="{cls}" alt="{_esc(caption)}" src="{uri}" data-font-pt="{pt:.2f}" '
                    f'data-dpi="{DPI}" style="max-width: {round(px / DPI * 72 * SCREEN)}px">')
    return f"<figure>{''.join(imgs)}<figcaption>{_esc(caption)}</figcaption></figure>"


def _marks(text: str, discovery: str | None = None) -> str:
    """What each mark in a table means, for the marks ``text`` (the table's HTML) holds."""
    out = []
    if re.search(r"\[[^\]<]*,[^\]<]*\]", text):
        out.append("[a, b]: the 95% confidence interval of the figure before it")
    if "pp [" in text or "pp<" in text:
        out.append("pp: percentage points")
    if " h=" in text:
        out.append("h: Cohen's h, the size of a difference of two shares (about 0.2 is small, 0.5 medium, 0.8 large)")
    if " d=" in text:
        out.append("d: Cohen's d, the size of a difference of two means in standard deviations (the same scale)")
    if "†" in text and discovery:
        out.append(discovery)
    out.append("click a column's header to sort by it")
    return f'<p class="legend">{_esc("; ".join(out))}.</p>'


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], is_head: Sequence[bool] | None = None,
           discovery: str | None = None) -> str:
    """A sortable table (its section rows stay at the head of their section), with the
    meaning of its marks above it."""
    is_head = is_head or [False] * len(rows)
    out = ['<div class="scroll"><table class="sortable">',
           "<thead><tr>" + "".join(f"<th>{_esc(h)}</th>" for h in header) + "</tr></thead>", "<tbody>"]
    for i, (r, head) in enumerate(zip(rows, is_head)):
        if head:
            out.append(("</tbody><tbody>" if i else "") +
                       f'<tr class="section"><td colspan="{len(header)}">{_esc(r[0])}</td></tr>')
        else:
            out.append("<tr>" + "".join(f"<td>{_esc(str(c).strip())}</td>" for c in r) + "</tr>")
    body = "\n".join(out + ["</tbody></table></div>"])
    return _marks(body, discovery) + body


def _report_table(rep: Any) -> str:
    from unosim.analysis.report.model import discovery_legend
    from unosim.analysis.report.render import _display

    header, rows, is_head = _display(rep)
    over = "row of its section in its column" if rep.kind == "compare" else "row of its column"
    rate = rep.discovery_rate
    return _table(header, rows, is_head, discovery_legend(rate, over) if rate is not None else None)


def _frame_table(frame: pd.DataFrame, discovery: str | None = None) -> str:
    def cell(v: Any) -> str:
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    return _table(list(frame.columns), [[cell(v) for v in row] for row in frame.itertuples(index=False)],
                  discovery=discovery)


def _findings(lines: Sequence[str]) -> str:
    if not lines:
        return ""
    return ('<section class="findings"><h2>Findings</h2><ul>' + "".join(f"<li>{_esc(x)}</li>" for x in lines)
            + "</ul></section>")


def _skill_differences(frame: pd.DataFrame) -> list[str]:
    """A skill page's differences from the base point of each table size (as `unosim skill`
    prints them), with each one's verdict (docs/skill.md's), p-value and †."""
    from unosim.analysis.report.model import discovery_legend
    from unosim.analysis.stats import DISCOVERY_RATE
    from unosim.studies.skill_index import verdicts

    d = verdicts(frame)
    if not len(d):
        return []
    points = [c for c in ("diff", "low", "high", "ceiling_diff", "ceiling_low", "ceiling_high") if c in d]
    d[points] = (100 * d[points]).round(1)  # points of the index, as docs/skill.md and `unosim skill` print them
    d = d.rename(columns={"discovery": "†", "ceiling_discovery": "ceiling †"})
    for col in ("†", "ceiling †"):
        if col in d:
            d[col] = np.where(d[col], "†", "")
    note = ("Points of the normalised index, each point minus the base point of its table size, with 95% "
            "intervals (low, high); "
            "verdict: more skill where the interval lies above 0, more luck below, no clear change across it.")
    return ["<h2>Differences from the base point</h2>", f"<p>{_esc(note)}</p>",
            _frame_table(d, discovery_legend(DISCOVERY_RATE, "difference of its bound"))]


def _head(rep: Any) -> str:
    """What the reader must know first: the findings in words, the notes, which bots sat."""
    from unosim.analysis.report.render import _title, bots_of
    from unosim.analysis.report.words import findings as words
    from unosim.run.bots_text import said

    out = [_findings(words(rep))]
    out.append(f"<p><b>{_esc(_title(rep))}</b></p>")
    out += [f'<p class="note">note: {_esc(n)}</p>' for n in dict.fromkeys(rep.notes)]
    bots = bots_of(rep)
    if bots:
        out.append(f"<p>bots: {_esc(said(bots))}</p>")
    return "\n".join(out)


_POINTER = ('<p class="legend">Below: the figures, then the tables; each result\'s config is at the end '
            '(<a href="#config">config</a>).</p>')


def _configs(paths: Sequence[Path]) -> str:
    from unosim.run.schema import RunInfo

    out = []
    for p in paths:
        try:
            info = RunInfo.read(p)
        except (OSError, ValueError, FileNotFoundError):
            continue
        what = f"{p.name}: {info.config_name}, {info.players} players, mode {info.mode}, seed {info.seed}, " \
               f"engine {info.engine_version}"
        out.append(f"<details><summary>{_esc(what)}</summary><pre>{_esc(info.config_text)}</pre></details>")
    return "\n".join(out)


def _run_figures(rep: Any) -> list[str]:
    """Every figure ``unosim plot`` draws for these runs."""
    from unosim.analysis import plots

    return [_figure(draw, name.removesuffix(".png").replace("_", " ")) for name, draw in plots.run_figures(rep)]


def _kind(path: Path) -> str:
    if path.is_dir() and any((path / n).exists() for n in ("_leaderboard.csv", "leaderboard.csv")):
        return "league"
    if path.is_dir() and (path / "skill.parquet").exists():
        return "skill"
    from unosim.studies.screen import is_screen

    if is_screen(path):
        return "screen"
    from unosim.run.guard import is_sweep

    return "sweep" if is_sweep(path) else "run"


def _league_players(root: Path) -> int | None:
    import json

    from unosim.studies.league import LEAGUE_MANIFEST

    try:
        return int(json.loads((root / LEAGUE_MANIFEST).read_text())["players"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def page(paths: Sequence[str | os.PathLike[str]], skill: str | os.PathLike[str] | None = None) -> str:
    """The HTML text of the page for ``paths`` (what ``unosim report`` would read): the
    findings in words and the bots first, then the figures, the tables and the configs."""
    from unosim.analysis import plots
    from unosim.analysis import report as rp
    from unosim.analysis.report.balance import balance_of
    from unosim.analysis.report.words import league_findings, skill_findings

    items = [Path(p) for p in paths]
    kinds = [_kind(p) for p in items]
    body: list[str] = []
    title = "unosim: " + ", ".join(p.name for p in items)
    if len(items) == 1 and kinds[0] == "league":
        from unosim.analysis.skill_plots import plot_league

        from unosim.studies.league import leaderboard

        table = pd.read_csv(leaderboard(items[0]))
        n = _league_players(items[0])
        bots = ", ".join(map(str, table.sort_values("rank")["bot"]))
        body += [_findings(league_findings(table, n)),
                 f"<p>bots: {_esc(bots)}, as `unosim league --bots` named them"
                 + (f", at tables of {n}" if n else "") + "; strength: Plackett-Luce log-odds of winning against "
                 "the average bot (0).</p>",
                 _figure(lambda: plot_league(table, f"League {items[0].name}: strength with 95% intervals"),
                         "leaderboard"),
                 "<h2>League</h2>", _frame_table(table)]
    elif len(items) == 1 and kinds[0] == "skill":
        from unosim.analysis.skill_plots import plot_skill
        from unosim.studies.skill_index import verdicts

        frame = pd.read_parquet(items[0] / "skill.parquet")
        fixed = sorted({str(b) for b in frame.get("bot", []) if b and "_points" not in str(b)})
        who = (f"the bot {', '.join(fixed)} (given with --bot, not tuned)" if fixed else
               "per point, a `weights` bot tuned for its rules")
        body += [_findings(skill_findings(frame, verdicts(frame))),
                 f"<p>bots: {_esc(who)}, at a table of B0 bots (random, the reference), every deal once from "
                 "every seat; the index is 0 for a game of pure luck, 100% for one the bot always wins.</p>",
                 _figure(lambda: plot_skill(frame, f"Skill index of {items[0].name} (95% intervals)"), "skill index"),
                 *_skill_differences(frame), "<h2>Skill index</h2>", _frame_table(frame)]
    elif len(items) == 1 and kinds[0] == "screen":
        from unosim.studies.screen import read_screen
        from unosim.studies.screen_report import plot_interactions, plot_sobol, screen_text, strongest

        result = read_screen(items[0])
        body += ["<h2>Screen</h2>", f"<pre>{_esc(screen_text(result))}</pre>",
                 _figure(lambda: plot_interactions(result), "interaction matrix"),
                 _figure(lambda: plot_sobol(result), "Sobol indices"),
                 "<h2>Strongest interactions</h2>", _frame_table(strongest(result, 20))]
    elif len(items) == 1 and kinds[0] == "sweep" and (bal := balance_of(items[0], skill)) is not None:
        body += [_head(bal), _POINTER, _figure(lambda: plots.plot_balance(bal), "balance chart"),
                 "<h2>Balance report</h2>", _report_table(bal)]
    else:
        if any(k in ("league", "skill", "screen") for k in kinds):
            raise ValueError("--html: a league, skill or screen directory is a page of its own: give it alone")
        rep = rp.summarize(items)  # figures first: the page is read at a glance, the tables looked up
        cmp = rp.compare(items[0], items[1:]) if len(items) > 1 else None
        body += [_head(cmp if cmp is not None else rep)]
        body += [_POINTER, "<h2>Figures</h2>", *_run_figures(rep), "<h2>Report</h2>", _report_table(rep)]
        if cmp is not None:
            body += ["<h2>Comparison</h2>", _report_table(cmp)]
    configs = _configs(items if kinds != ["sweep"] else [items[0]])
    if configs:
        body += ['<h2 id="config">Config</h2>', configs]
    rest = (f"{_VIEWPORT}<title>{_esc(title)}</title><style>{_STYLE}</style></head>\n"
            f"<body><h1>{_esc(title)}</h1>\n" + "\n".join(body)
            + f"\n<script>{_CHECK}{_SORT}</script></body></html>\n")
    digest = hashlib.sha256(rest.encode("utf-8")).hexdigest()
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" +
            _GENERATOR.format(digest=digest) + rest)


_VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
_GENERATOR = '<meta name="generator" content="unosim report --html" data-sha256="{digest}">'
"""Marks a page as this command's, with the SHA-256 of everything after the marker: an
existing file is replaced only when it is such a page, unchanged since it was written."""
_MARKER = re.compile(re.escape(_GENERATOR).replace(re.escape("{digest}"), "([0-9a-f]{64})").encode())


def _ours(path: Path) -> bool:
    """Whether ``path`` is a page `unosim report --html` wrote and nobody changed since: its
    head carries the marker, and the rest of the file the digest the marker records."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    m = _MARKER.search(data, 0, 4096)
    return m is not None and hashlib.sha256(data[m.end():]).hexdigest() == m.group(1).decode()


def write_html(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str],
               skill: str | os.PathLike[str] | None = None) -> Path:
    """Write :func:`page` to ``out`` (its folder created); return the path.  An existing
    ``out`` is replaced only when it is an earlier page of this command."""
    from unosim.run.integrity import write_text_atomic

    dest = Path(out)
    target = dest.resolve() if dest.is_symlink() else dest
    if (target.exists() or target.is_symlink()) and not target.is_file():  # a FIFO would block the check forever
        raise ValueError(f"--html: {dest} exists and is not a regular file; choose another file name")
    if target.exists() and not _ours(target):
        raise ValueError(f"--html: {dest} exists and is not a page `unosim report --html` wrote, or was changed "
                         "since; choose another file name (a file this command did not write is never replaced)")
    text = page(paths, skill)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, text)
    except OSError as e:
        raise ValueError(f"--html: cannot write {dest} ({e.strerror or e})") from None
    return dest


def plot_results(paths: Sequence[str | os.PathLike[str]], out_dir: str | os.PathLike[str]) -> list[Path]:
    """``unosim plot``: :func:`unosim.analysis.plots.plot_all`, plus ``league_<dir>.png`` for a
    ``unosim league`` directory and ``skill_<dir>.png`` for a ``unosim skill`` one."""
    from unosim.analysis.plots import plot_all
    from unosim.analysis.skill_plots import plot_league, plot_skill
    from unosim.studies.league import leaderboard

    out = Path(out_dir)
    written: list[Path] = []
    rest = []
    for p in map(Path, paths):
        kind = _kind(p)
        if kind == "league":
            written.append(out / f"league_{p.name}.png")
            plot_league(pd.read_csv(leaderboard(p)), f"League {p.name}: strength with 95% intervals",
                        written[-1])
        elif kind == "skill":
            written.append(out / f"skill_{p.name}.png")
            plot_skill(pd.read_parquet(p / "skill.parquet"),
                       f"Skill index of {p.name}: how much a tuned bot beats B0 (95% intervals)", written[-1])
        elif kind == "screen":
            from unosim.studies.screen import read_screen
            from unosim.studies.screen_report import plot_interactions, plot_sobol

            result = read_screen(p)
            written += [out / f"interactions_{p.name}.png", out / f"sobol_{p.name}.png"]
            plot_interactions(result, written[-2])
            plot_sobol(result, written[-1])
        else:
            rest.append(p)
    return written + (plot_all(rest, out) if rest else [])
