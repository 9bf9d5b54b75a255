"""The rows and files of a skill run, shared by its local (skill_index.py) and Dask
(skill_tasks.py) runs, so either resumes the other's."""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from unosim.rules.botfile import Bot, dump_bot, load_bot_file
from unosim.rules.config import ConfigError
from unosim.run.jobs import RunError
from unosim.run.integrity import write_atomic
from unosim.run.dataset import CEILING_FILE, FIGURE_FILE, OLD_NAMES, POINTS_DIR, REPLICATES_FILE, table_path
from unosim.run.sweep import Sweep, partition_text

__all__ = ["CEILING_FILE", "FIGURE_FILE", "OLD_NAMES", "POINTS_DIR", "REPLICATES_FILE", "Plan", "ceiling_row",
           "kept_bot", "kept_rows", "plan", "point_dir", "replicate_row", "rules_label", "save_tuned", "table_path",
           "write_frame"]

@dataclass(frozen=True)
class Plan:
    """What a skill run compares to resume: the seed, its settings (as the rows hold them),
    and the rows of an earlier run of the same settings in its folder, by point label."""

    seed: int
    settings: str
    ceiling_settings: str | None
    kept: dict[str, list[dict]]          # every replicate of a point, or the point is redone
    kept_ceiling: dict[str, list[dict]]  # row by row
    # every kept replicate, a whole point's or not, by label and replicate: the Dask path keeps
    # the replicates of a point that finished before an interruption (the local loop, which
    # finishes a point before it writes, redoes such a point)
    kept_replicates: dict[str, dict[int, dict]]


def plan(sweep: Sweep, root: Path, *, budget: int, deals: int, check_deals: int, seed: int | None, bot: Bot | None,
         replicates: int, ceiling: Any) -> Plan:
    """The :class:`Plan` of a skill run into ``root`` (created); ``ceiling``: its
    unosim.studies.skill_index.Ceiling, or None."""
    seed = sweep.seed if seed is None else seed
    if not 1 <= replicates <= 100:
        raise RunError(f"--replicates: must be between 1 and 100 (got {replicates})")
    settings = json.dumps({"budget": budget, "deals": deals, "check_deals": check_deals, "seed": seed,
                           "replicates": replicates,
                           "bot": None if bot is None else [bot.strategy, sorted(bot.params.items())]},
                          sort_keys=True)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RunError(f"--out: cannot create {root}: {e.strerror or e}") from None
    rows = kept_rows(table_path(root, REPLICATES_FILE), settings)
    kept = {k: v for k, v in rows.items() if len(v) == replicates}
    ceiling_settings = None if ceiling is None else json.dumps({"tuned": settings, **ceiling.identity()},
                                                                sort_keys=True)
    kept_ceiling = kept_rows(table_path(root, CEILING_FILE), ceiling_settings) if ceiling is not None else {}
    return Plan(seed, settings, ceiling_settings, kept, kept_ceiling,
                {k: {int(r["replicate"]): r for r in v} for k, v in rows.items()})


def rules_label(point_label: str) -> str:
    """What a point changes, without its table size: ``stacking=draw2,players=4`` ->
    ``stacking=draw2``; a base point -> ``base``."""
    parts = [x for x in point_label.split(",") if not x.startswith("players=")]
    return ",".join(parts) or "base"


def replicate_row(p: Any, base: dict, r: int, seed: int, bot: str, settings: str, seconds: float,
                  fig: dict) -> dict:
    """The row of :data:`REPLICATES_FILE` of point ``p`` (of a sweep whose base values are
    ``base``) and replicate ``r``: ``fig`` (unosim.studies.skill_index.measure) and how it was made."""
    part = {k.rsplit(".", 1)[-1]: partition_text(v) for k, v in p.values}
    is_base = all(part[k] == base[k] for k in part if k != "players" and k in base)
    return dict(label=p.label, rules=rules_label(p.label), players=p.cfg.players, is_base=is_base,
                partition=json.dumps(part), replicate=r, seed=seed, bot=bot, settings=settings, seconds=seconds, **fig)


def ceiling_row(p: Any, who: str, field: str, r: int, seed: int, deals: int, used: Bot, settings: str | None,
                seconds: float, fig: dict) -> dict:
    """The row of :data:`CEILING_FILE`: ``who`` (tuned, ceiling) at a table of ``field``."""
    return dict(label=p.label, players=p.cfg.players, who=who, field=field, replicate=r, seed=seed, deals=deals,
                settings=settings, bot=(used.source or used.name) if who == "tuned" else used.name, seconds=seconds,
                **fig)


def point_dir(root: Path, p: Any, r: int, replicates: int) -> Path:
    """The folder of point ``p``'s replicate ``r`` (the point's own with one replicate)."""
    return root / POINTS_DIR / p.rel / (f"replicate={r}" if replicates > 1 else "")


def save_tuned(where: Path, bot: Bot, history: pd.DataFrame, about: dict) -> None:
    """A tuned replicate's ``bot.toml`` and ``history.pq`` (its search, one row per
    candidate) in ``where``."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "bot.toml").write_text(dump_bot(bot, about))
    history.to_parquet(where / "history.pq", index=False)


def kept_bot(root: Path, p: Any, r: int, replicates: int, bot: Bot | None) -> Bot:
    """The bot a kept replicate was measured with: ``bot`` (--bot), or its tuned file."""
    if bot is not None:
        return bot
    try:
        where = point_dir(root, p, r, replicates) / "bot.toml"
        old = root / OLD_NAMES[POINTS_DIR] / where.relative_to(root / POINTS_DIR)
        return load_bot_file(old if old.is_file() and not where.is_file() else where, "--ceiling")
    except ConfigError as e:
        raise RunError(f"{e}; the tuned bot of a kept point is needed for its ceiling (--force redoes the "
                       "whole folder)") from None


class DamagedTable(UserWarning):
    """A kept table of a skill folder that cannot be read: its rows are made again (hours,
    for a tuning), so the command says so before it starts."""


def kept_rows(path: Path, settings: str | None) -> dict[str, list[dict]]:
    """The rows of an earlier run's table at ``path`` made with these ``settings``, by point
    label, for a resumed run to keep; a damaged table is redone, not trusted."""
    if not path.exists():
        return {}
    try:
        old = pd.read_parquet(path)
    except Exception as e:  # noqa: BLE001 - a damaged table is redone, not trusted
        warnings.warn(DamagedTable(f"{path} cannot be read ({type(e).__name__}); what it held is measured again"),
                      stacklevel=2)
        return {}
    kept: dict[str, list[dict]] = {}
    for r in old.to_dict("records"):
        if r.get("settings") == settings:
            kept.setdefault(r["label"], []).append(r)
    return kept


def write_frame(path: Path, frame: pd.DataFrame) -> None:
    """``frame`` to ``path`` atomically: a reader sees the old table or the new one."""
    write_atomic(path, lambda tmp: frame.to_parquet(tmp, index=False))
