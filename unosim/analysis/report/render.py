"""Renderers: a report as fixed-width text, markdown, CSV or JSON."""

from __future__ import annotations

import json
import math
import os
import sys
import textwrap
from typing import Any

import numpy as np
import pandas as pd

from unosim.analysis.report.model import (BALANCE_METRICS, COMPARE_FAMILY, FIGURE_NAMES, LENGTH_COLUMNS, Report,
                                         discovery_legend)
from unosim.analysis.report.balance import balance_order
from unosim.analysis.report.skill import CEILING_METRIC, SKILL_METRIC
from unosim.run.bots_text import bots_line, said


_SECTION_TITLES = {
    "hands": "Hands",
    "seat": "Win share by seat (decided hands)",
    "after_dealer": "Win share by position after the dealer",
    "team": "Win share by team",
    "bot": "Win share by bot",
    "length": "Game length",
    "counters": "Per hand (mean)",
    "match_positive": "Matches, S1 positive scoring",
    "match_positive_seat": "S1 match winner share by seat (ties shared)",
    "match_positive_team": "S1 match winner share by team",
    "match_positive_bot": "S1 match winner share by bot",
    "match_negative": "Matches, S2 negative scoring",
    "match_negative_seat": "S2 match winner share by seat (ties shared)",
    "match_negative_team": "S2 match winner share by team",
    "match_negative_bot": "S2 match winner share by bot",
    "match_chips": "Matches, S4 chips (balance after chips_hands hands)",
    "match_chips_seat": "S4 match winner share by seat (ties shared)",
    "match_chips_team": "S4 match winner share by team",
    "match_chips_bot": "S4 match winner share by bot",
    "match_agreement": "Matches where two systems crown the same winner (same seats, ties included)",
    "tournament": "Tournaments (T1)",
    "formats": "Share of the wins by format (hands, matches S1/S2/S4, tournaments T1)",
    "tournament_pos_player": "S1 champion share by player (highest total, ties shared)",
    "tournament_neg_player": "S2 champion share by player (lowest total, ties shared)",
    "tournament_pos_bot": "S1 champion share by bot (ties shared)",
    "tournament_neg_bot": "S2 champion share by bot (ties shared)",
}


def _row_name(section: str, figure: str, key: str, stat: str) -> str:
    """The row caption of a figure in rendered tables."""
    if figure in ("win_share", "win_per_seat"):
        word = next((w for w in ("seat", "team", "player") if section.endswith(w)), None)
        if section.endswith("after_dealer"):
            who = "dealer" if int(key) == 0 else f"dealer+{int(key)}"
        else:
            who = key if word is None else f"{word} {key}"
        held = "player" if section.startswith("tournament") else "seat"
        return who if figure == "win_share" else f"{who} (per {held} held)"
    name = figure.replace("_", " ")
    if key:
        name += f" {key}"
    if stat not in ("count", "share", "mean") or figure in LENGTH_COLUMNS or figure in (
        "hands_per_match", "final_winner", "final_runner_up",
    ):  # fmt: skip
        name += f" {stat}"
    return name


def _fmt_num(v: float) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.2f}"


def _pct_digits(high: float) -> int:
    """Decimals for a percentage: 2, or 4 when the whole interval is below 0.1%."""
    return 4 if not math.isnan(high) and 0 < high < 0.001 else 2


def _fmt_cell(stat: str, value: float, low: float, high: float) -> str:
    if stat == "count":
        return "-" if math.isnan(value) else f"{int(value):,}"
    if stat == "share":
        if math.isnan(value):
            return "-"
        d = _pct_digits(high)
        return f"{100 * value:.{d}f}% [{100 * low:.{d}f}, {100 * high:.{d}f}]"
    if stat == "mean" and not math.isnan(low):
        return f"{_fmt_num(value)} [{_fmt_num(low)}, {_fmt_num(high)}]"
    if stat in ("median", "max") or stat.startswith("p"):
        return "-" if math.isnan(value) else f"{value:g}"
    return _fmt_num(value)


def _fmt_diff(stat: str, diff: float, low: float, high: float, effect: float, kind: str) -> str:
    if math.isnan(diff):
        return "-"
    if stat == "share":
        d = _pct_digits(max(abs(low), abs(high)))
        s = f"{100 * diff:+.{d}f}pp [{100 * low:+.{d}f}, {100 * high:+.{d}f}]"
    elif stat == "count":
        s = f"{int(diff):+,}"
    elif math.isnan(low):
        s = f"{diff:+g}"
    else:
        s = f"{diff:+.2f} [{low:+.2f}, {high:+.2f}]"
    if kind and not math.isnan(effect):
        s += f" {kind}={effect:+.3f}"
    return s


def _same_per_seat(t: pd.DataFrame, labels: list[str]) -> set[tuple[str, str, str, str]]:
    """The ``win_per_seat`` rows that repeat the ``win_share`` row above them in every column
    (each bot held one seat: wins per seat held are its wins)."""
    if "value" not in t or not len(t):
        return set()
    per = t[t["figure"] == "win_per_seat"]
    share = t[t["figure"] == "win_share"].set_index(["label", "section", "key", "stat"])["value"]
    out = set()
    for (sec, key, stat), g in per.groupby(["section", "key", "stat"], sort=False):
        if len(g) != len(labels):
            continue
        if all((r.label, sec, key, stat) in share.index
               and np.isclose(r.value, share.loc[(r.label, sec, key, stat)], rtol=0, atol=1e-12, equal_nan=True)
               for r in g.itertuples(index=False)):
            out.add((sec, "win_per_seat", key, stat))
    return out


def _display(report: Report) -> tuple[list[str], list[list[str]], list[bool]]:
    """Header, rows of cell strings, and which rows are section headers."""
    t = report.table
    if report.kind == "balance":
        metrics = list(BALANCE_METRICS) + [m for m in (SKILL_METRIC, CEILING_METRIC)
                                           if len(t) and m[0] in set(t["metric"])]
        header = ["change", "players", *[f"{FIGURE_NAMES.get(m, m)} (diff, effect)" for m, _, _ in metrics]]
        rows: list[list[str]] = []
        if len(t):
            for change, pl in balance_order(t, report.sort):
                sub = t[(t["change"] == change) & (t["players"] == pl)].set_index("metric")
                cells = [str(change), str(pl)]
                word = str(sub["status"].iloc[0]) if "status" in sub and len(sub) else ""
                for m, _, _ in metrics:
                    if m not in sub.index:
                        cells.append("-")
                        continue
                    if word and word != "nan":  # a zero that measures nothing: say why
                        cells.append(word)
                        continue
                    r = sub.loc[m]
                    stat = "share" if m in ("dealer1_win_share", "skill", "skill_ceiling") else "mean"
                    cells.append(
                        _fmt_diff(stat, r["diff"], r["low"], r["high"], r["effect"], r["effect_kind"])
                        + (" †" if bool(r.get("discovery", False)) else "")
                    )
                rows.append(cells)
        return header, rows, [False] * len(rows)
    keys = ["section", "figure", "key", "stat"]
    labels = list(dict.fromkeys(t["label"])) if len(t) else []
    order = t.drop_duplicates(keys)[keys]
    rank = {sec: i for i, sec in enumerate(_SECTION_TITLES)}
    order = order.iloc[np.argsort([rank.get(x, len(rank)) for x in order["section"]], kind="stable")]
    header = ["figure", *([f"{report.baseline} (baseline)"] if report.kind == "compare" else []), *labels]
    idx = {lab: t[t["label"] == lab].set_index(keys) for lab in labels}
    same = _same_per_seat(t, labels)
    order = order[[(s, f, k, st) not in same for s, f, k, st in order.itertuples(index=False)]]
    rows, is_head = [], []
    current = None
    for section, figure, key, stat in order.itertuples(index=False):
        if section != current:
            current = section
            rows.append([_SECTION_TITLES.get(section, section)] + [""] * (len(header) - 1))
            is_head.append(True)
        cells = ["  " + _row_name(section, figure, key, stat)]
        k = (section, figure, key, stat)
        if report.kind == "compare":
            base_cell = "-"
            for lab in labels:
                if k in idx[lab].index:
                    r = idx[lab].loc[k]
                    if stat == "share":
                        base_cell = f"{100 * r['base']:.{_pct_digits(r['base'])}f}%"
                    else:
                        base_cell = _fmt_cell(stat, r["base"], math.nan, math.nan)
                    break
            cells.append(base_cell)
        for lab in labels:
            if k not in idx[lab].index:
                cells.append("")
                continue
            r = idx[lab].loc[k]
            if report.kind == "compare":
                cells.append(_fmt_diff(stat, r["diff"], r["low"], r["high"], r["effect"], r["effect_kind"])
                             + (" †" if bool(r.get("discovery", False)) else ""))
            else:
                cells.append(_fmt_cell(stat, r["value"], r["low"], r["high"]))
        rows.append(cells)
        is_head.append(False)
    return header, rows, is_head


def bots_of(report: Report) -> str:
    """Which bots sat, in the one wording of :mod:`unosim.run.bots_text` ('' if unknown)."""
    return bots_line({lab: meta.get("seating", "") for lab, meta in report.sources.items()})


def _head(report: Report) -> list[str]:
    """The lines above a table: what the reader must know first (an unfinished result), then
    which bots sat."""
    bots = bots_of(report)
    return [f"note: {n}" for n in notes_of(report)] + ([f"bots: {said(bots)}"] if bots else [])


def notes_of(report: Report) -> list[str]:
    """What the reader must know first: the report's notes, then what a † means where the
    table marks discoveries."""
    t = report.table
    rate = report.discovery_rate
    by, over, many = ((list(COMPARE_FAMILY), "its section in its column", "figures") if report.kind == "compare"
                      else (["metric"], "its column", "rules"))
    marks = (rate is not None and "discovery" in t and set(by) <= set(t) and len(t)
             and t[t["p"].notna()].groupby(by).size().max() > 1)
    return list(dict.fromkeys(report.notes)) + (
        [f"{discovery_legend(rate, f'row of {over}')}: with many {many}, some intervals exclude 0 by chance"]
        if marks else [])


def _title(report: Report) -> str:
    if report.kind == "compare":
        return f"unosim comparison: other - baseline ({report.baseline}), 95% intervals, effect sizes h/d"
    if report.kind == "balance":
        return f"unosim balance: {report.title}"
    return f"unosim report ({report.title or 'summary'}), 95% intervals"


def _terminal_columns() -> int:
    """The width of the terminal the text goes to: ``COLUMNS`` if set, else ``sys.stdout``'s
    terminal, else 120."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (AttributeError, OSError, ValueError):  # no file descriptor, or not a terminal
        return 120


def to_text(report: Report, width: int | None = None) -> str:
    """A fixed-width table, split into column blocks so it fits ``width`` characters (default:
    the terminal's, at least 80)."""
    if width is None:
        width = max(_terminal_columns(), 80)
    from unosim.analysis.report.words import findings

    header, rows, is_head = _display(report)
    opening = [textwrap.fill(x, width, initial_indent="* ", subsequent_indent="  ") for x in findings(report)]
    lines = [_title(report)] + _head(report) + opening
    if not rows:
        return "\n".join(lines) + "\n(no rows)\n"
    ncol = len(header)
    fixed = 2 if report.kind == "balance" else 1  # leading columns repeated in every block
    body = [r for r, h in zip(rows, is_head) if not h]
    widths = [max([len(header[j])] + [len(r[j]) for r in body]) for j in range(ncol)]

    def line(cells: list[str], cols: list[int]) -> str:
        return "  ".join(
            cells[j].ljust(widths[j]) if j < fixed else cells[j].rjust(widths[j]) for j in cols
        ).rstrip()

    fixed_w = sum(widths[:fixed]) + 2 * fixed
    blocks: list[list[int]] = []
    cur: list[int] = []
    used = fixed_w
    for j in range(fixed, ncol):
        if cur and used + widths[j] + 2 > width:
            blocks.append(cur)
            cur, used = [], fixed_w
        cur.append(j)
        used += widths[j] + 2
    blocks.append(cur)
    for bi, block in enumerate(blocks):
        cols = list(range(fixed)) + block
        if bi:
            lines.append("")
        lines.append(line(header, cols))
        lines.append("  ".join("-" * widths[j] for j in cols))
        for r, h in zip(rows, is_head):
            if h:
                lines.append(r[0])
            else:
                lines.append(line(r, cols))
    return "\n".join(lines) + "\n"


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def to_markdown(report: Report) -> str:
    """A GitHub-flavoured markdown table (no ``tabulate`` dependency)."""
    header, rows, is_head = _display(report)
    out = [f"**{_md_escape(_title(report))}**", ""]
    head = _head(report)
    out += [f"> {_md_escape(line)}  " for line in head] + ([""] if head else [])
    out.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
    out.append("|" + "|".join(":---" if j == 0 else "---:" for j in range(len(header))) + "|")
    for r, h in zip(rows, is_head):
        if h:
            out.append("| **" + _md_escape(r[0]) + "** |" + " |" * (len(header) - 1))
        else:
            out.append("| " + " | ".join(_md_escape(c.strip()) for c in r) + " |")
    return "\n".join(out) + "\n"


def to_csv(report: Report) -> str:
    """The report's long table as CSV (full precision, one row per figure)."""
    return report.table.to_csv(index=False)


def _json_value(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) else float(v)
    return v


def to_json(report: Report) -> str:
    """JSON: kind, title, baseline, per-label metadata and the table as records (NaN as null)."""
    records = [{k: _json_value(v) for k, v in rec.items()} for rec in report.table.to_dict("records")]
    doc = {
        "kind": report.kind,
        "title": _title(report),
        "baseline": report.baseline,
        "bots": bots_of(report),
        "notes": report.notes,
        "sources": report.sources,
        "rows": records,
    }
    return json.dumps(doc, indent=1, allow_nan=False)


_RENDERERS = {"text": to_text, "markdown": to_markdown, "csv": to_csv, "json": to_json}


def render(report: Report, fmt: str = "text") -> str:
    """Render with one of ``text``, ``markdown``, ``csv``, ``json`` (for the CLI)."""
    try:
        return _RENDERERS[fmt](report)
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; choose from {sorted(_RENDERERS)}") from None
