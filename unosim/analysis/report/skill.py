"""The balance report's skill column: the skill index `unosim skill` measured per point.

Read from ``skill.parquet`` (by default in ``runs/<sweep>.skill``) as a table: per rule
change, the normalised index's difference from its base point (``skill``), and the search
player's (``skill_ceiling``) where measured.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

from unosim.analysis import stats

__all__ = ["CEILING_METRIC", "SKILL_METRIC", "find_skill", "skill_rows"]

SKILL_METRIC = ("skill", "normalised skill index of a tuned bot against B0 (unosim skill)", "h")
CEILING_METRIC = ("skill_ceiling", "normalised skill index of the search player against B0 (unosim skill --ceiling)",
                  "h")
SKILL_FILE = "skill.parquet"


def find_skill(dataset_dir: Any, skill: Any = None) -> pd.DataFrame | None:
    """The skill table for a sweep dataset: ``skill`` (a directory or the file), else the
    sibling ``<dataset_dir>.skill/skill.parquet`` when it exists; None without one."""
    if skill is not None:
        p = Path(skill)
        p = p / SKILL_FILE if p.is_dir() else p
        if not p.is_file():
            raise ValueError(f"--skill: no {SKILL_FILE} at {skill} (write it with `unosim skill SWEEP --out DIR`)")
    else:
        d = Path(dataset_dir)
        p = d.with_name(d.name + ".skill") / SKILL_FILE
        if not p.is_file():
            return None
    return _read_skill(p, skill is not None)


_SKILL_COLUMNS = ("label", "partition", "skill_norm", "norm_low", "norm_high", "share")


def _read_skill(p: Path, named: bool) -> pd.DataFrame:
    """The skill table at ``p``, or one line saying what the file is instead."""
    import pyarrow.parquet as pq

    where = "--skill" if named else "skill table"
    try:
        names = pq.read_schema(p).names
    except (OSError, ValueError) as e:
        raise ValueError(f"{where}: {p} is not a readable Parquet file ({str(e).splitlines()[0][:80]})") from None
    missing = [c for c in _SKILL_COLUMNS if c not in names]
    if missing:
        raise ValueError(f"{where}: {p} is not a `unosim skill` table (no {', '.join(missing[:3])} column); give "
                         "the folder `unosim skill SWEEP --out DIR` wrote")
    return pd.read_parquet(p)


def _key(part: Mapping[str, Any], norm: Any) -> tuple:
    return tuple(sorted((k.rsplit(".", 1)[-1], norm(v)) for k, v in part.items()))


def _se(row: Mapping[str, Any]) -> float:
    """A point's standard error: ``norm_se`` (the search's noise over replicates included)
    when the table has it, else read off its normal interval."""
    se = row.get("norm_se")
    if se is not None and math.isfinite(se):
        return float(se)
    return (row["norm_high"] - row["norm_low"]) / (2 * 1.959964)


def _quantile(row: Mapping[str, Any], confidence: float) -> float:
    """Student t with the table's pooled degrees of freedom (replicates), else normal."""
    df = row.get("df")
    if df is not None and math.isfinite(df) and df > 0:
        return float(st.t.ppf(0.5 + confidence / 2, df))
    return stats.z_value(confidence)


def skill_rows(pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any], dict[str, Any]]], table: pd.DataFrame,
               norm: Any, confidence: float = 0.95) -> list[dict[str, Any]]:
    """One ``skill`` row per (point, base point) pair that both have a skill index, their
    variances added (Student t with replicates); with the ceiling also a ``skill_ceiling`` row,
    paired by deal where the run kept ``ceiling_diff_se``."""
    by_part = {_key(json.loads(r["partition"]), norm): r for r in table.to_dict("records")}
    out = []
    for point, base, fields in pairs:
        a, b = by_part.get(_key(point, norm)), by_part.get(_key(base, norm))
        if a is None or b is None:
            continue
        diff = a["skill_norm"] - b["skill_norm"]
        se = math.hypot(_se(a), _se(b))
        half = _quantile(a, confidence) * se
        out.append({**fields, "metric": "skill", "base": b["skill_norm"], "value": a["skill_norm"], "diff": diff,
                    "low": diff - half, "high": diff + half, "p": stats.p_value(diff, se, a.get("df")),
                    "effect": float(stats.cohen_h(np.clip(a["share"], 0, 1), np.clip(b["share"], 0, 1))),
                    "effect_kind": "h"})
        ca, cb = a.get("ceiling_norm"), b.get("ceiling_norm")
        if ca is not None and cb is not None and math.isfinite(ca) and math.isfinite(cb):
            diff = ca - cb
            paired = a.get("ceiling_diff_se", float("nan"))
            if b.get("is_base") and b["players"] == a["players"] and paired is not None and math.isfinite(paired):
                se = paired  # against the skill run's own base: paired by deal
            else:
                se = math.hypot(*((r["ceiling_norm_high"] - r["ceiling_norm_low"]) / (2 * 1.959964) for r in (a, b)))
            half = stats.z_value(confidence) * se
            out.append({**fields, "metric": "skill_ceiling", "base": cb, "value": ca, "diff": diff,
                        "low": diff - half, "high": diff + half,
                        "effect": float(stats.cohen_h(np.clip(a["ceiling_share"], 0, 1),
                                                      np.clip(b["ceiling_share"], 0, 1))),
                        "effect_kind": "h"})
    return out
