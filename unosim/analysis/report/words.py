"""The findings of a report in words: the sentences that open its page and its text,
computed from the report's own table."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from unosim.analysis.report.model import FIGURE_NAMES, Report

__all__ = ["findings", "league_findings", "skill_findings"]


def _num(x: float, sign: bool = True, digits: int = 1) -> str:
    x = x if round(x, digits) != 0 else 0.0  # a figure that rounds to zero reads 0.0, never -0.0
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _iv(lo: float, hi: float, scale: float = 1.0, digits: int = 1) -> str:
    return f"[{_num(scale * lo, True, digits)}, {_num(scale * hi, True, digits)}]"


def _clear(lo: float, hi: float) -> bool:
    return lo > 0 or hi < 0


def _row(t: pd.DataFrame, label: str, section: str, figure: str, key: str = "", stat: str | None = None) -> Any:
    m = (t["label"] == label) & (t["section"] == section) & (t["figure"] == figure) & (t["key"].astype(str) == key)
    if stat is not None:
        m &= t["stat"] == stat
    rows = t[m]
    return rows.iloc[0] if len(rows) else None


_SYSTEMS = (("match_positive", "S1"), ("match_negative", "S2"), ("match_chips", "S4"))


def _run(rep: Report, label: str) -> list[str]:
    t, n = rep.table, rep.players(label)
    out = []
    hands = _row(t, label, "hands", "hands", stat="count")
    turns = _row(t, label, "length", "turns", stat="mean")
    if turns is not None and hands is not None:
        out.append(f"{label}: a hand lasts {turns.value:.1f} turns [{turns.low:.1f}, {turns.high:.1f}] on average "
                   f"over {int(hands.value):,} hands.")
    first = _row(t, label, "after_dealer", "win_share", str(1 % n) if n else "1", "share")
    if first is not None and n and math.isfinite(first.value):
        edge, lo, hi = (100 * (first.value - 1 / n), 100 * (first.low - 1 / n), 100 * (first.high - 1 / n))
        how = "an edge beyond its interval" if _clear(lo, hi) else "no edge this run can tell from chance"
        out.append(f"The first player after the dealer wins {100 * first.value:.1f}% of decided hands against an even "
                   f"{100 / n:.1f}%: {_num(edge)} points {_iv(lo, hi)}, {how}.")
    for section, name in _SYSTEMS:
        hpm = _row(t, label, section, "hands_per_match", stat="mean")
        if hpm is None or not math.isfinite(hpm.value):
            continue
        seats = t[(t["label"] == label) & (t["section"] == f"{section}_seat") & (t["figure"] == "win_share")]
        part = f"Under {name} a match lasts {hpm.value:.1f} hands"
        if len(seats) and n:
            best = seats.loc[(seats["value"] - 1 / n).abs().idxmax()]
            d, lo, hi = (100 * (best.value - 1 / n), 100 * (best.low - 1 / n), 100 * (best.high - 1 / n))
            part += (f"; seat {best.key} departs most from an even match share ({_num(d)} points {_iv(lo, hi)}, "
                     + ("beyond its interval)" if _clear(lo, hi) else "within chance)"))
        out.append(part + ".")
    same = _row(t, label, "match_agreement", "same_winner", "S1/S2", "share")
    if same is not None and math.isfinite(same.value):
        out.append(f"S1 and S2 crown the same winner in {100 * same.value:.0f}% of matches.")
    return out


def _compare(rep: Report, label: str) -> list[str]:
    t, n = rep.table, rep.players(label)
    out = []
    turns = _row(t, label, "length", "turns", stat="mean")
    if turns is not None and math.isfinite(turns['diff']):
        if _clear(turns.low, turns.high):
            verb = "lengthens" if turns['diff'] > 0 else "shortens"
            out.append(f"{label} {verb} hands by {abs(turns['diff']):.1f} turns {_iv(turns.low, turns.high)} against "
                       f"{rep.baseline} ({turns.base:.1f} turns).")
        else:
            out.append(f"{label} does not change the hand's length measurably ({_num(turns['diff'])} turns "
                       f"{_iv(turns.low, turns.high)} against {rep.baseline}'s {turns.base:.1f}).")
    first = _row(t, label, "after_dealer", "win_share", str(1 % n) if n else "1", "share")
    # each edge against its own table's even share: a baseline of another table size has another
    n_base = rep.players(rep.baseline) if rep.baseline is not None else n
    if first is not None and n and n_base and math.isfinite(first['diff']):
        a, b = 100 * (first.base - 1 / n_base), 100 * (first.value - 1 / n)
        shift = 1 / n - 1 / n_base  # the even share's change: the edge changes by the share's change less it
        d, lo, hi = first['diff'] - shift, first.low - shift, first.high - shift
        moves = "moves beyond its interval" if _clear(lo, hi) else "does not move measurably"
        out.append(f"The first seat's edge (dealer+1 against an even share) goes from {_num(a)} to {_num(b)} points: "
                   f"{_num(100 * d)} {_iv(lo, hi, 100)}, it {moves}.")
    moved = t[(t["label"] == label) & t["low"].notna() & ((t["low"] > 0) | (t["high"] < 0))]
    marked = int(moved["discovery"].sum()) if "discovery" in moved else 0
    rows = int(((t["label"] == label) & t["low"].notna()).sum())
    if rows:
        out.append(f"{len(moved)} of {rows} figures move beyond their intervals ({marked} marked †).")
    return out


def _balance(rep: Report) -> list[str]:
    t = rep.table
    out = []
    order = {m: i for i, m in enumerate(FIGURE_NAMES)}
    metrics = sorted(dict.fromkeys(t["metric"]), key=lambda m: order.get(m, len(order))) if len(t) else []
    for m in metrics:
        rows = t[(t["metric"] == m) & t["low"].notna()]
        if "status" in rows:
            rows = rows[rows["status"].fillna("").astype(str).isin(["", "nan"])]
        if not len(rows):
            continue
        moved = rows[(rows["low"] > 0) | (rows["high"] < 0)]
        name = FIGURE_NAMES.get(m, m)
        scale, unit = (100, " points") if m in ("dealer1_win_share", "skill", "skill_ceiling") else \
            (1, {"turns": " turns", "cards_drawn": " cards"}.get(m, ""))
        out.append(_moved(moved, len(rows), f"rule changes move the {name}", "change", scale, unit))
    return out


def _moved(moved: pd.DataFrame, total: int, what: str, label: str, scale: float, unit: str,
           verdict: bool = False) -> str:
    """"k of n <what> beyond their intervals (j marked †); the largest: ..." for the rows
    whose interval excludes 0 (``label``: the column naming a row's rule change)."""
    text = f"{len(moved)} of {total} {what} beyond their intervals ({int(moved['discovery'].sum())} marked †)"
    if len(moved):
        top = moved.loc[moved["diff"].abs().idxmax()]
        text += (f"; the largest: {getattr(top, label)} at {int(top.players)} players, "
                 f"{_num(scale * top['diff'])}{unit} {_iv(top.low, top.high, scale)}")
        if verdict:
            text += f" ({top.verdict})"
    return text + "."


def findings(rep: Report) -> list[str]:
    """The main findings of a summary, a comparison or a balance report, one sentence each."""
    if not len(rep.table):
        return []
    if rep.kind == "balance":
        return _balance(rep)
    labels = rep.labels[:4]
    lines = [s for lab in labels for s in (_compare(rep, lab) if rep.kind == "compare" else _run(rep, lab))]
    if len(rep.labels) > len(labels):
        lines.append(f"(and {len(rep.labels) - len(labels)} more results in the table below)")
    return lines


def league_findings(table: pd.DataFrame, players: int | None = None) -> list[str]:
    """A league's leaderboard in words: the strongest bot, whether its interval clears the
    runner-up's, and the bots whose strength differs from the average bot's."""
    if not len(table):
        return []
    t = table.sort_values("rank")
    top = t.iloc[0]
    even = f" (an even share is {100 / players:.1f}%)" if players else ""
    out = [f"{top.bot} is the strongest of {len(t)} bots: strength {_num(top.strength, digits=2)} "
           f"{_iv(top.low, top.high, digits=2)}, winning {100 * top.win_share:.1f}% of its hands{even}."]
    if len(t) > 1:
        second = t.iloc[1]
        apart = top.low > second.high
        out.append(f"Its interval {'clears' if apart else 'overlaps'} that of {second.bot}, the runner-up "
                   f"({_num(second.strength, digits=2)} {_iv(second.low, second.high, digits=2)})"
                   + ("." if apart else ": this league cannot rank the two."))
    differ = int(((t["low"] > 0) | (t["high"] < 0)).sum())
    out.append(f"{differ} of {len(t)} bots differ from the average bot (strength 0) beyond their intervals.")
    return out


def skill_findings(frame: pd.DataFrame, d: pd.DataFrame) -> list[str]:
    """A `unosim skill` folder in words: the base point's index per table size, and how many
    rules move it beyond their intervals."""
    out = []
    base = frame[frame["is_base"]].sort_values("players")
    if len(base):
        out.append("Under the base rules the skill index is " + "; ".join(
            f"{100 * b.skill_norm:.1f}% [{100 * b.norm_low:.1f}, {100 * b.norm_high:.1f}] at {int(b.players)} players"
            for b in base.itertuples()) + ".")
    if len(d):
        moved = d[d["verdict"] != "no clear change"]
        out.append(_moved(moved, len(d), "rules move the skill index", "rules", 100, " points", verdict=True))
    return out
