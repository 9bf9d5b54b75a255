"""The balance report of a sweep: each rule change against the base point of its stratum."""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from unosim.analysis import stats
from unosim.analysis.report.model import BALANCE_METRICS, PathLike, Report, with_discoveries
from unosim.analysis.report.paired import PAIRED, paired_intervals
from unosim.analysis.report.skill import CEILING_METRIC, SKILL_METRIC, find_skill, skill_rows
from unosim.analysis.report.sources import Source, discover, source_meta
from unosim.analysis.report.stream import Aggregate, HistStats, aggregate
from unosim.analysis.report.triggers import status as trigger_status
from unosim.compat import tomllib


def _norm(v: Any) -> str:
    """Normalise a config value so partition text and TOML values compare equal."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    s = str(v).strip().strip('"').lower()
    try:
        f = float(s)
        return str(int(f)) if f.is_integer() else repr(f)
    except ValueError:
        return s


def _find_key(tree: Mapping[str, Any], key: str) -> Any:
    """A key's value anywhere in a parsed TOML config (sections are one level deep)."""
    if key in tree and not isinstance(tree[key], Mapping):
        return tree[key]
    for v in tree.values():
        if isinstance(v, Mapping):
            found = _find_key(v, key)
            if found is not None:
                return found
    return None


def _registry_defaults() -> dict[str, Any]:
    """Defaults from the config key registry, by short and by full (``rules.x``) name."""
    from unosim.rules.config import describe_keys

    out: dict[str, Any] = {}
    for d in describe_keys():
        out[d["key"]] = d["default"]
        out.setdefault(d["key"].rsplit(".", 1)[-1], d["default"])
    return out


def _base_values(
    sources: Sequence[Source], keys: Sequence[str], base: Mapping[str, Any] | None
) -> dict[str, str]:
    """The base value of every varied key (order of precedence in :func:`balance_report`)."""
    out: dict[str, str] = {}
    parsed = []
    for s in sources:
        try:
            parsed.append(tomllib.loads(s.info.config_text) if s.info.config_text else None)
        except tomllib.TOMLDecodeError:
            parsed.append(None)
    registry = _registry_defaults()
    for k in keys:
        short = k.rsplit(".", 1)[-1]
        if base is not None and (k in base or short in base):
            out[k] = _norm(base[k] if k in base else base[short])
            continue
        seen = {_norm(v) for t in parsed if t is not None and (v := _find_key(t, short)) is not None}
        values = {_norm(s.partition[k]) for s in sources if k in s.partition}
        if len(seen) == 1 and all(t is not None for t in parsed) and seen <= values:
            out[k] = seen.pop()  # every file carries the same (base) config
        elif k in registry or short in registry:
            out[k] = _norm(registry[k] if k in registry else registry[short])
        else:
            out[k] = sorted(values)[0]
            warnings.warn(f"no default known for swept key {k!r}; using {out[k]!r} as the base", stacklevel=3)
    return out


def _sweep_base(sources: Sequence[Source]) -> dict[str, Any] | None:
    """The base values ``unosim sweep`` stores in every file (``unosim.sweep_base``), when
    all sources carry the same; None otherwise."""
    found = [s.info.sweep_base for s in sources]
    if not found or found[0] is None or any(f != found[0] for f in found[1:]):
        return None
    return dict(found[0])


#: Each balance metric's figure in :func:`.paired.paired_intervals`, at a table of ``n``.
_PAIRED_KEYS = {
    "turns": lambda n: ("length", "turns", "", "mean"),
    "dealer1_win_share": lambda n: ("after_dealer", "win_share", str(1 % n), "share"),
    "cards_drawn": lambda n: ("counters", "cards_drawn", "", "mean"),
}


def balance_report(
    dataset_dir: PathLike,
    base: Mapping[str, Any] | None = None,
    confidence: float = 0.95,
    skill: PathLike | None = None,
) -> Report:
    """Effect of every swept rule value on game length, the dealer+1 win share and cards drawn.

    ``dataset_dir`` is a sweep; each point is compared with the base point of the same player
    count, where every other varied key has its base value (``base[key]``, else the sweep's
    stored base, the files' config, the key registry's default, or the first value sorted).
    Metrics: ``turns`` and ``cards_drawn`` (mean, Cohen's d) and ``dealer1_win_share``
    (Cohen's h), sorted by |effect|; intervals are paired by hand where the hands pair
    (:mod:`.paired`), else Welch's and Newcombe's.  ``status`` says when a zero effect means
    nothing (:mod:`.triggers`).  ``skill``: a `unosim skill` folder of the sweep (default: the
    sibling ``<dataset_dir>.skill``) adds the ``skill`` metric.
    """
    sources = discover([dataset_dir])
    keys = list(dict.fromkeys(k for s in sources for k in s.partition))
    if not keys:
        raise ValueError(f"{dataset_dir} is not a partitioned sweep (no key=value directories)")
    effect_keys = [k for k in keys if k.rsplit(".", 1)[-1] != "players"]
    players_key = next((k for k in keys if k.rsplit(".", 1)[-1] == "players"), None)
    if base is None:
        base = _sweep_base(sources)
    base_vals = _base_values(sources, effect_keys, base)
    aggs = {s.label: a for s, a in zip(sources, aggregate(sources, True, False))}

    def metrics(a: Aggregate) -> dict[str, tuple[float, ...]]:
        decided = a.n - a.stalled
        t = HistStats.of(a.hists.get("turns", np.zeros(1, np.int64)))
        c = HistStats.of(a.hists.get("cards_drawn", np.zeros(1, np.int64)))
        first = a.rel_wins[1 % a.players]
        return {
            "turns": (t.mean, t.sd, t.n),
            "dealer1_win_share": (float(first), float(decided)),
            "cards_drawn": (c.mean, c.sd, c.n),
        }

    def players_of(s: Source) -> int:
        if players_key and players_key in s.partition:
            return int(_norm(s.partition[players_key]))
        return s.info.players

    base_points: dict[int, Source] = {}
    for s in sources:
        if all(_norm(s.partition.get(k, base_vals[k])) == base_vals[k] for k in effect_keys):
            base_points.setdefault(players_of(s), s)
    rows: list[dict[str, Any]] = []
    pairs: list[tuple[dict, dict, dict]] = []  # (point, base point, row fields): the skill column's input
    unpaired: list[str] = []  # points whose hands do not pair with their base's (.paired)
    prints: dict[str, str] = {}
    for s in sources:
        pl = players_of(s)
        b = base_points.get(pl)
        if b is None or b is s:
            continue
        changed = [f"{k}={s.partition[k]}" for k in effect_keys
                   if k in s.partition and _norm(s.partition[k]) != base_vals[k]]  # fmt: skip
        if not changed:
            continue
        acted = trigger_status(s, b, changed, prints)
        pairs.append((dict(s.partition), dict(b.partition), {"change": ",".join(changed), "players": pl,
                      "label": s.label, "base_label": b.label, "status": acted}))
        mo, mb = metrics(aggs[s.label]), metrics(aggs[b.label])
        pr = paired_intervals(s, b, confidence)
        if pr is None:
            unpaired.append(s.label)
        for name, _, kind in BALANCE_METRICS:
            if kind == "h":
                (xo, no), (xb, nb) = mo[name], mb[name]
                po, pb = (xo / no if no else math.nan), (xb / nb if nb else math.nan)
                iv = stats.diff_proportions(xo, no, xb, nb, confidence)
                eff = stats.cohen_h(po, pb)
                val, bval = po, pb
            else:
                iv = stats.diff_means(*mo[name], *mb[name], confidence=confidence)
                eff = stats.cohen_d(*mo[name], *mb[name])
                val, bval = mo[name][0], mb[name][0]
            key = _PAIRED_KEYS[name](pl)
            if pr is not None and key in pr:
                iv = stats.Interval(iv.estimate, pr[key].low, pr[key].high)
            rows.append(
                {
                    "change": ",".join(changed), "players": pl, "label": s.label,
                    "base_label": b.label, "metric": name, "base": bval, "value": val,
                    "diff": float(iv.estimate), "low": float(iv.low), "high": float(iv.high),
                    "effect": float(eff), "effect_kind": kind, "status": acted,
                }
            )  # fmt: skip
    skill_table = find_skill(dataset_dir, skill)
    if skill_table is not None:
        rows += skill_rows(pairs, skill_table, _norm, confidence)
    table = pd.DataFrame(
        rows,
        columns=["change", "players", "label", "base_label", "metric", "base", "value",
                 "diff", "low", "high", "effect", "effect_kind", "status", "p"],
    )  # fmt: skip
    if len(table):
        table = (
            table.assign(_abs=table["effect"].abs())
            .sort_values(["_abs", "change", "players"], ascending=[False, True, True], na_position="last")
            .drop(columns="_abs")
            .reset_index(drop=True)
        )
    table = with_discoveries(table, confidence)
    srcs = source_meta(sources)
    base_desc = _base_text(next(iter(base_points.values()), None), players_key)
    notes = [n for s in sources for n in s.notes]
    if pairs:
        notes.append(f"intervals {PAIRED} with the base point (a sweep plays the same deals at every "
                     "point)" + (f", except {', '.join(unpaired)}: other hands, intervals of independent samples"
                                 if unpaired else ""))
    return Report("balance", table, srcs, f"balance against the base point ({base_desc})", notes=notes,
                  discovery_rate=1 - confidence)


def balance_of(dataset_dir: PathLike, skill: PathLike | None = None) -> Report | None:
    """The sweep's balance report, or None when it has none (no base point: its points are
    then shown as runs, as ``unosim plot`` and the page do)."""
    try:
        bal = balance_report(dataset_dir, skill=skill)
    except ValueError:
        return None
    return bal if len(bal.table) else None


BALANCE_SORTS = ("effect", "change", "players", *(m for m, _, _ in BALANCE_METRICS), SKILL_METRIC[0],
                 CEILING_METRIC[0])
"""The orders of a balance report's rows: ``effect`` (the largest effect in any column first,
the default), ``change`` or ``players`` (ascending), or a metric (the largest effect on it
first).  Rows where the rule never acted come last."""


def sort_balance(report: Report, by: str = "effect") -> Report:
    """The balance report with its rows (and its table, for CSV and JSON) in the order ``by``
    names, one of :data:`BALANCE_SORTS`."""
    if by not in BALANCE_SORTS:
        raise ValueError(f"sort: unknown column {by!r}; choose from {', '.join(BALANCE_SORTS)}")
    t = report.table
    if by in (SKILL_METRIC[0], CEILING_METRIC[0]) and (not len(t) or by not in set(t["metric"])):
        raise ValueError(f"sort: this balance report has no {by} column (it comes from `unosim skill"
                         f"{' --ceiling' if by == CEILING_METRIC[0] else ''}` on the same sweep)")
    if by == "effect" or not len(t):
        return dataclasses.replace(report, sort=by)
    keys = balance_order(t, by)
    rank = {k: i for i, k in enumerate(keys)}
    pos = np.array([rank[(c, p)] for c, p in zip(t["change"], t["players"])])
    table = t.iloc[np.argsort(pos, kind="stable")].reset_index(drop=True)
    return dataclasses.replace(report, table=table, sort=by)


def balance_order(t: pd.DataFrame, by: str = "effect") -> list[tuple[Any, Any]]:
    """The (change, players) rows of a balance table, in the order ``by`` names."""
    inert = t["status"].fillna("") != "" if "status" in t else pd.Series(False, index=t.index)
    if by in ("effect", "change", "players"):
        size = t["effect"].abs()
    else:
        size = t["effect"].abs().where(t["metric"] == by)
    rows = (t.assign(_a=size.where(~inert, -1.0).fillna(-2.0))  # never acted, then no such figure: last
            .groupby(["change", "players"], sort=False)["_a"].max())
    if by == "change":
        return sorted(rows.index, key=lambda k: (str(k[0]), _num(k[1])))
    if by == "players":
        return sorted(rows.index, key=lambda k: (_num(k[1]), str(k[0])))
    if by == "effect":
        return list(rows.sort_values(ascending=False, kind="stable").index)
    return sorted(rows.index, key=lambda k: (-rows[k], str(k[0]), _num(k[1])))


def _num(v: Any) -> tuple[int, float, str]:
    """A sort key that puts numbers in numeric order before other values."""
    try:
        return (0, float(v), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(v))


def _base_text(base: Source | None, players_key: str | None) -> str:
    """The base point in a few words (``official rules but noise_chance=0.05``), its table
    size left out."""
    from unosim.rules.config import ConfigError, default_config, parse_config

    if base is None:
        return "no base point"
    try:
        cfg = parse_config(tomllib.loads(base.info.config_text))
    except (tomllib.TOMLDecodeError, ConfigError, TypeError, ValueError):
        return ", ".join(f"{k}={v}" for k, v in base.partition.items() if k != players_key)
    ref = default_config().flat()
    changed = [f"{k.rsplit('.', 1)[-1]}={_norm(v)}" for k, v in cfg.flat().items()
               if k not in ("name", "table.players") and ref.get(k) != v]
    return "official rules" + (f" but {', '.join(changed)}" if changed else "")
