"""Which bots sat: one wording for every report, summary, chart caption and run line.

A bot is its strategy and its non-default parameters (``counter (suspicion 0.5)``); a
seating writes identical neighbours once with a count (``counter, random x3``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from unosim.rules.strategies import STRATEGIES

__all__ = ["bot_text", "seating_text", "seats_of", "bots_line", "short_label", "said"]

Seat = tuple[str, Mapping[str, Any]]


def _value(v: Any) -> str:
    if isinstance(v, Mapping):  # a search's whole rollout bot: ``tuned = weights (w_wild -3.39, ...)``
        return bot_text(str(v.get("strategy")), v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _changed(name: str, params: Mapping[str, Any]) -> list[str]:
    spec = STRATEGIES.get(name, (0, {}))[1]
    return [f"{p} {_value(v)}" for p, v in params.items()
            if p not in ("name", "strategy") and (p not in spec or spec[p][0] != v)]


def _named(name: str, params: Mapping[str, Any]) -> str:
    """A named bot (a config seat with ``name = ...``, as a bot file has) as ``label =
    strategy``: the name the report's rows and legends use, then what it is."""
    label = params.get("name")
    return f"{label} = {name}" if isinstance(label, str) else name


def _params(changed: list[str], max_params: int | None) -> str:
    if not changed:
        return ""
    if max_params is not None and len(changed) > max_params:
        changed = changed[:max_params] + [f"+{len(changed) - max_params} more"]
    return f" ({', '.join(changed)})"


def bot_text(name: str, params: Mapping[str, Any] | None = None, max_params: int | None = None) -> str:
    """``name``, or ``name (p v, ...)`` with the parameters that differ from the defaults,
    at most ``max_params`` of them, then ``+k more``."""
    return _named(name, params or {}) + _params(_changed(name, params or {}), max_params)


def seating_text(seats: Sequence[Seat], max_params: int | None = None) -> str:
    """Seats in order, identical neighbours once with their count: ``counter, random x3``."""
    runs: list[list[Any]] = []
    for name, params in seats:
        key = (_named(name, params or {}), tuple(_changed(name, params or {})))
        if runs and runs[-1][0] == key:
            runs[-1][1] += 1
        else:
            runs.append([key, 1])
    parts = [name + (f" x{count}" if count > 1 else "") + _params(list(changed), max_params)
             for (name, changed), count in runs]
    return ", ".join(parts) if parts else "unknown"


def seats_of(bots: Sequence[str], params: Sequence[Any]) -> list[Seat]:
    """The seating a result's metadata records (``unosim.bots``, ``unosim.bot_params``)."""
    return [(b, params[i] if i < len(params) and isinstance(params[i], Mapping) else {})
            for i, b in enumerate(bots)]


def _one_bot(text: str) -> str | None:
    """``name (params)`` when ``text`` seats one bot everywhere (``name xN (params)``), else None."""
    m = re.fullmatch(r"([^\s,()]+)(?: x\d+)?( \(.*\))?", text)
    return f"{m.group(1)}{m.group(2) or ''}" if m else None


def bots_line(seatings: Mapping[str, str]) -> str:
    """One text for the bots of several results (label -> :func:`seating_text`); '' when
    none is known."""
    known = {lab: t for lab, t in seatings.items() if t}
    distinct = list(dict.fromkeys(known.values()))
    if len(distinct) <= 1:
        return distinct[0] if distinct else ""
    ones = {_one_bot(t) for t in distinct}
    if len(ones) == 1 and None not in ones:  # one bot everywhere, tables of different sizes (strata)
        name, _, params = ones.pop().partition(" ")
        return f"{name} at every seat" + (f" {params}" if params else "")
    return "; ".join(f"{lab}: {t}" for lab, t in known.items())


DEFAULT_NOTE = "the default; a [bots] table in the config chooses them"


def said(text: str) -> str:
    """A seating text (:func:`seating_text`, :func:`bots_line`), said out loud when it is
    the default bot in every seat: ``random in every seat (the default; ...)``."""
    from unosim.rules.keys import KEYS

    name = KEYS["seats"].default
    if re.fullmatch(rf"{re.escape(name)}( x\d+| at every seat)?", text):
        return f"{name} in every seat ({DEFAULT_NOTE})"
    return text


def short_label(label: str, width: int = 40) -> str:
    """A row's bot label for a legend: an unnamed bot with many parameters cut to ``weights(...)``."""
    return label if len(label) <= width or "(" not in label else f"{label.split('(')[0]}(...)"
