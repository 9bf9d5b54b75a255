"""One page to share: a result's report, figures, config and bots in a single HTML file.

``unosim report RESULT... --html FILE`` writes it.  The page is self-contained (figures
as ``data:`` URIs, inline style, no network), so it opens the same anywhere.  It holds the
summary or comparison and its figures for runs, the balance table for a sweep, the
leaderboard for a league and the table for a skill folder, then the notes, the bots and
each result's config.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["write_html", "page", "plot_results"]

_STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 80em; padding: 0 1em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
td, th { padding: 0.15em 0.6em; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
td:first-child, th:first-child { text-align: left; }
tr.section td { font-weight: bold; background: #f4f4f4; text-align: left; }
.scroll { overflow-x: auto; }
figure { margin: 0.5em 0.5em 0.5em 0; display: inline-block; vertical-align: top; max-width: 49%; }
figure.wide { max-width: 100%; display: block; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #555; }
.note { background: #fff4d6; padding: 0.4em 0.8em; border-left: 4px solid #e0a800; }
pre { background: #f7f7f7; padding: 0.6em; font-size: 0.8em; overflow-x: auto; }
"""

_CHECK = """
window.addEventListener("load", function () {
  var imgs = document.images, ok = 0;
  for (var i = 0; i < imgs.length; i++) { if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++; }
  document.body.setAttribute("data-figures", ok + "/" + imgs.length);
});
"""


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")  # the skill figures are not constrained
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(fig: Any, caption: str, wide: bool = False) -> str:
    cls = ' class="wide"' if wide else ""
    return (f'<figure{cls}><img alt="{_esc(caption)}" src="{_png(fig)}">'
            f"<figcaption>{_esc(caption)}</figcaption></figure>")


def _report_table(rep: Any) -> str:
    from unosim.analysis.report.render import _display

    header, rows, is_head = _display(rep)
    out = ['<div class="scroll"><table>', "<tr>" + "".join(f"<th>{_esc(h)}</th>" for h in header) + "</tr>"]
    for r, head in zip(rows, is_head):
        if head:
            out.append(f'<tr class="section"><td colspan="{len(header)}">{_esc(r[0])}</td></tr>')
        else:
            out.append("<tr>" + "".join(f"<td>{_esc(c.strip())}</td>" for c in r) + "</tr>")
    return "\n".join(out + ["</table></div>"])


def _frame_table(frame: pd.DataFrame) -> str:
    return '<div class="scroll">' + frame.to_html(index=False, float_format=lambda v: f"{v:.4g}", border=0) + "</div>"


def _skill_differences(frame: pd.DataFrame) -> list[str]:
    """A skill page's differences from the base point of each table size (as `unosim skill`
    prints them), with each one's p-value and its † (docs/reports.md)."""
    from unosim.analysis.report.model import discovery_legend
    from unosim.analysis.stats import DISCOVERY_RATE
    from unosim.studies.skill_index import base_differences

    d = base_differences(frame)
    if not len(d):
        return []
    d = d.rename(columns={"discovery": "†", "ceiling_discovery": "ceiling †"})
    for col in ("†", "ceiling †"):
        if col in d:
            d[col] = np.where(d[col], "†", "")
    note = ("note: normalised index, each point minus the base point of its table size, 95% intervals; "
            + discovery_legend(DISCOVERY_RATE, "difference of its bound"))
    return ["<h2>Differences from the base point</h2>", f'<p class="note">{_esc(note)}</p>', _frame_table(d)]


def _head(rep: Any) -> str:
    from unosim.analysis.report.render import _title, bots_of, notes_of

    out = [f"<p><b>{_esc(_title(rep))}</b></p>"]
    out += [f'<p class="note">note: {_esc(n)}</p>' for n in notes_of(rep)]
    bots = bots_of(rep)
    if bots:
        out.append(f"<p>bots: {_esc(bots)}</p>")
    return "\n".join(out)


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

    out = []
    for name, draw in plots.run_figures(rep):
        out.append(_figure(draw(), name.removesuffix(".png").replace("_", " ")))
    return out


def _kind(path: Path) -> str:
    if path.is_dir() and any((path / n).exists() for n in ("_leaderboard.csv", "leaderboard.csv")):
        return "league"
    if path.is_dir() and (path / "skill.parquet").exists():
        return "skill"
    from unosim.studies.screen import is_screen

    if is_screen(path):
        return "screen"
    from unosim.analysis.plots import _is_sweep

    return "sweep" if _is_sweep(path) else "run"


def _balance(path: Path, skill: str | os.PathLike[str] | None) -> Any:
    """The sweep's balance report, or None when it has none (no base point: its points are
    then shown as runs, as ``unosim plot`` does)."""
    from unosim.analysis import report as rp

    try:
        bal = rp.balance_report(path, skill=skill)
    except ValueError:
        return None
    return bal if len(bal.table) else None


def page(paths: Sequence[str | os.PathLike[str]], skill: str | os.PathLike[str] | None = None) -> str:
    """The HTML text of the page for ``paths`` (what ``unosim report`` would read)."""
    from unosim.analysis import plots
    from unosim.analysis import report as rp

    items = [Path(p) for p in paths]
    kinds = [_kind(p) for p in items]
    body: list[str] = []
    title = "unosim: " + ", ".join(p.name for p in items)
    if len(items) == 1 and kinds[0] == "league":
        from unosim.analysis.skill_plots import plot_league

        from unosim.studies.league import leaderboard

        table = pd.read_csv(leaderboard(items[0]))
        body += ["<h2>League</h2>", _frame_table(table),
                 _figure(plot_league(table, f"League {items[0].name}: strength with 95% intervals"), "leaderboard")]
    elif len(items) == 1 and kinds[0] == "skill":
        from unosim.analysis.skill_plots import plot_skill

        frame = pd.read_parquet(items[0] / "skill.parquet")
        body += ["<h2>Skill index</h2>", _frame_table(frame),
                 _figure(plot_skill(frame, f"Skill index of {items[0].name} (95% intervals)"), "skill index"),
                 *_skill_differences(frame)]
    elif len(items) == 1 and kinds[0] == "screen":
        from unosim.studies.screen import read_screen
        from unosim.studies.screen_report import plot_interactions, plot_sobol, screen_text, strongest

        result = read_screen(items[0])
        body += ["<h2>Screen</h2>", f"<pre>{_esc(screen_text(result))}</pre>",
                 _figure(plot_interactions(result), "interaction matrix", wide=True),
                 _figure(plot_sobol(result), "Sobol indices", wide=True),
                 "<h2>Strongest interactions</h2>", _frame_table(strongest(result, 20))]
    elif len(items) == 1 and kinds[0] == "sweep" and (bal := _balance(items[0], skill)) is not None:
        body += [_head(bal), _figure(plots.plot_balance(bal), "balance chart", wide=True), "<h2>Balance report</h2>",
                 _report_table(bal)]
    else:
        if any(k in ("league", "skill", "screen") for k in kinds):
            raise ValueError("--html: a league, skill or screen directory is a page of its own: give it alone")
        rep = rp.summarize(items)  # figures first: the page is read at a glance, the tables looked up
        body += [_head(rep), "<h2>Figures</h2>", *_run_figures(rep), "<h2>Report</h2>", _report_table(rep)]
        if len(items) > 1:
            cmp = rp.compare(items[0], items[1:])
            body += ["<h2>Comparison</h2>", _head(cmp), _report_table(cmp)]
    configs = _configs(items if kinds != ["sweep"] else [items[0]])
    if configs:
        body += ["<h2>Config</h2>", configs]
    rest = (f"<title>{_esc(title)}</title><style>{_STYLE}</style></head>\n"
            f"<body><h1>{_esc(title)}</h1>\n" + "\n".join(body) + f"\n<script>{_CHECK}</script></body></html>\n")
    digest = hashlib.sha256(rest.encode("utf-8")).hexdigest()
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" +
            _GENERATOR.format(digest=digest) + rest)


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
    """Write :func:`page` to ``out`` (its folder is created); return the path.  Like every
    writing command, it never replaces a file it did not write: an existing ``out`` (a
    symlink judged by its target) is replaced only when it is an earlier page of this
    command.  The page goes to a temporary name first and is renamed into place."""
    import uuid

    dest = Path(out)
    target = dest.resolve() if dest.is_symlink() else dest
    if (target.exists() or target.is_symlink()) and not target.is_file():  # a FIFO would block the check forever
        raise ValueError(f"--html: {dest} exists and is not a regular file; choose another file name")
    if target.exists() and not _ours(target):
        raise ValueError(f"--html: {dest} exists and is not a page `unosim report --html` wrote, or was changed "
                         "since; choose another file name (a file this command did not write is never replaced)")
    text = page(paths, skill)
    tmp = target.with_name(f".unosim-{uuid.uuid4().hex[:12]}.{target.name}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as e:
        raise ValueError(f"--html: cannot write {dest} ({e.strerror or e})") from None
    finally:
        if tmp.exists():
            tmp.unlink()
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
