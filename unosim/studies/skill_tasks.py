"""`unosim skill` on Dask: each replicate and ceiling measurement as a task.

Tasks send back numbers and bots only; the driver writes every file, so the output path
need not be shared.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unosim.kernel.layout import ENGINE_VERSION
from unosim.rules.botfile import Bot, resolve_bot
from unosim.rules.config import RulesConfig
from unosim.run.cluster import need_a_worker, on_worker
from unosim.run.sweep import Sweep
from unosim.studies.skill_index import CEILING_FIELDS, Ceiling, SkillPoint, measure, measure_at, write_tables
from unosim.studies.skill_rows import ceiling_row, kept_bot, plan, point_dir, replicate_row, save_tuned
from unosim.studies.tune import tune

__all__ = ["ceiling_task", "replicate_task", "skill_dask"]


def replicate_task(cfg: RulesConfig, label: str, *, budget: int, deals: int, check_deals: int, seed: int,
                   bot: Bot | None, counter: bool, workers: int) -> dict[str, Any]:
    """One replicate of a point: a bot tuned against B0 (unless ``bot`` is given), measured on
    the check deals of ``seed`` (with ``counter`` also at a counter table); returns the bot,
    its history, the figures."""
    t0 = time.perf_counter()
    history = None
    used = bot
    if bot is None:
        res = tune(cfg, [resolve_bot("random")], budget=budget, deals=deals, seed=seed, workers=workers,
                   name=f"tuned-{label}")
        used, history = res.bot, res.history
    fig = measure(cfg, used, deals=check_deals, seed=seed, workers=workers)
    out: dict[str, Any] = {"bot": used, "history": history, "fig": fig, "seconds": time.perf_counter() - t0}
    if counter:
        out["counter"] = ceiling_task(cfg, used, "counter", deals=check_deals, seed=seed, workers=workers)
    return out


def ceiling_task(cfg: RulesConfig, bot: Bot, field: str, *, deals: int, seed: int,
                 workers: int) -> tuple[dict, float]:
    """One ceiling measurement: ``bot`` at a table of ``field`` bots; its figures and seconds."""
    t0 = time.perf_counter()
    fig = measure_at(cfg, bot, field, deals=deals, seed=seed, workers=workers)
    return fig, time.perf_counter() - t0


def skill_dask(client: Any, sweep: Sweep, out: str | Path, *, budget: int, deals: int, check_deals: int,
               seed: int | None = None, bot: Bot | None = None, workers: int | None = None, replicates: int = 1,
               progress: Callable[[str, int, int], None] | None = None,
               ceiling: Ceiling | None = None) -> list[SkillPoint]:
    """:func:`unosim.studies.skill_index.skill_sweep` with its replicates and ceiling
    measurements as tasks on ``client``'s cluster; ``progress(what, i, total)`` after each
    task.  On an error or an interrupt the other tasks are cancelled."""
    from distributed import as_completed  # a client in hand: Dask is installed

    root = Path(out)
    pl = plan(sweep, root, budget=budget, deals=deals, check_deals=check_deals, seed=seed, bot=bot,
              replicates=replicates, ceiling=ceiling)
    base = sweep.base_values()
    points = sweep.points
    raw: dict[tuple[int, int], dict] = {}          # (point, replicate) -> row
    ceil: dict[tuple[int, int], dict] = {}         # (point, place in want) -> row
    want = [("tuned", "counter", r) for r in range(replicates)] + [("ceiling", f, 0) for f in CEILING_FIELDS]
    run = uuid.uuid4().hex[:8]
    futures: dict[Any, tuple] = {}

    def submit(what: tuple, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        key = f"unosim-skill-{run}-{len(futures):05d}"
        futures[client.submit(on_worker, ENGINE_VERSION, workers, fn, *args, key=key, pure=False, **kwargs)] = what

    for i, p in enumerate(points):
        have = {(r["who"], r["field"], int(r["replicate"])): r for r in pl.kept_ceiling.get(p.label, [])}
        if ceiling is not None:
            ceil.update({(i, k): have[w] for k, w in enumerate(want) if w in have})
        kept = pl.kept_replicates.get(p.label, {})
        for r in range(replicates):
            counter = ceiling is not None and ("tuned", "counter", r) not in have
            if r not in kept:
                submit(("replicate", i, r), replicate_task, p.cfg, p.label, budget=budget, deals=deals,
                       check_deals=check_deals, seed=pl.seed + r, bot=bot, counter=counter)
                continue
            raw[i, r] = kept[r]
            if counter:  # a kept replicate's bot, from its file, at the counter table
                used = kept_bot(root, p, r, replicates, bot)
                submit(("ceiling", i, want.index(("tuned", "counter", r)), used), ceiling_task, p.cfg, used,
                       "counter", deals=check_deals, seed=pl.seed + r)
        for k, (who, field, r) in enumerate(want if ceiling is not None else []):
            if who == "ceiling" and (who, field, r) not in have:
                submit(("ceiling", i, k, ceiling.bot), ceiling_task, p.cfg, ceiling.bot, field, deals=ceiling.deals,
                       seed=pl.seed)

    def write() -> list[SkillPoint]:
        """Every table from the rows so far, in the local loop's order; a point is in
        ``skill.parquet`` once all its replicates are in."""
        return write_tables(root, [raw[k] for k in sorted(raw)],
                            None if ceiling is None else [ceil[k] for k in sorted(ceil)], replicates)

    def record(what: tuple, result: Any) -> str:
        """The finished task's files and rows; what it was, for the progress line."""
        i, p = what[1], points[what[1]]
        if what[0] == "replicate":
            r = what[2]
            s_r, where = pl.seed + r, point_dir(root, p, r, replicates)
            if bot is None:
                save_tuned(where, result["bot"], result["history"], {"tuned_for": p.label, "budget": budget,
                                                                     "deals": deals, "seed": s_r})
            raw[i, r] = replicate_row(p, base, r, s_r, str(where / "bot.toml") if bot is None else
                                      (bot.source or bot.name), pl.settings, result["seconds"], result["fig"])
            if "counter" in result:
                fig, seconds = result["counter"]
                k = want.index(("tuned", "counter", r))
                ceil[i, k] = ceiling_row(p, "tuned", "counter", r, s_r, check_deals, result["bot"],
                                         pl.ceiling_settings, seconds, fig)
            return f"{p.label}: replicate {r} " + ("tuned and measured" if bot is None else "measured")
        k, used = what[2], what[3]
        who, field, r = want[k]
        s_r, n = (pl.seed + r, check_deals) if who == "tuned" else (pl.seed, ceiling.deals)
        fig, seconds = result
        ceil[i, k] = ceiling_row(p, who, field, r, s_r, n, used, pl.ceiling_settings, seconds, fig)
        return f"{p.label}: {'the tuned bot' if who == 'tuned' else used.name} at a table of {field}"

    if futures:
        need_a_worker(client)
    n = 0
    try:
        # the tasks finished while the tables were being written come as one batch, one
        # write: rewriting every table per task would make the driver the bottleneck of
        # many short tasks
        for batch in as_completed(list(futures)).batches():
            lines = [record(futures[fut], fut.result()) for fut in batch]
            write()
            for line in lines:
                if progress:
                    progress(line, n, len(futures))
                n += 1
    except BaseException:
        client.cancel(list(futures))
        raise
    return write()
