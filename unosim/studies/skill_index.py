"""The skill index of a rule set, and of every point of a sweep (`unosim skill`).

A ``weights`` bot tuned for the rules sits at a table of B0 bots on fresh deals:
``skill = share - 1/n``, ``skill_norm`` the same as a fraction of ``1 - 1/n``; ``--ceiling``
also measures the ``search`` player (:class:`Ceiling`).  Meaning and output: docs/skill.md.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from unosim.interrupts import LAST_SIGNAL, Interrupted
from unosim.kernel.layout import O_FIRST, O_STALLED, O_WIN_TEAM, O_WINNER
from unosim.rules.botfile import Bot, param_text, resolve_bot
from unosim.rules.config import ConfigError, RulesConfig, strategies, to_params
from unosim.rules.validate import check_seats
from unosim.run.integrity import write_atomic
from unosim.run.jobs import RunError
from unosim.run.play import play_chunk
from unosim.run.sweep import Sweep
from unosim.run.workers import kernel_workers
from unosim.analysis import stats
from unosim.analysis.stats import wilson_interval
from unosim.studies.arena import SLICE_HANDS, Arena, Share, share_of
from unosim.studies.replicates import combine, quantile
from unosim.studies.skill_rows import (CEILING_FILE, FIGURE_FILE, REPLICATES_FILE, ceiling_row, kept_bot, plan,
                                       point_dir, replicate_row, save_tuned, write_frame)
from unosim.studies.tune import CHECK_START, tune

__all__ = ["CEILING_FILE", "FIGURE_FILE", "REPLICATES_FILE", "SKILL_FILE", "Ceiling", "SkillPoint", "combine_points", "measure",
           "skill_sweep", "verdict", "verdicts"]

SKILL_FILE = "skill.parquet"
"""The table `unosim skill` writes: one row per point (:class:`SkillPoint`)."""
CEILING_FIELDS = ("random", "counter")
"""The tables both bots are measured at with ``--ceiling``: B0 and the ``counter`` field."""


@dataclass(frozen=True)
class SkillPoint:
    """One rule set's skill index (module docstring) and how it was measured."""

    label: str
    rules: str
    players: int
    is_base: bool
    partition: str        # JSON: the point's key -> partition text, as the sweep's directories
    even: float
    share: float
    low: float
    high: float
    skill: float
    skill_low: float
    skill_high: float
    skill_norm: float
    norm_low: float
    norm_high: float
    edge_tuned: float
    edge_tuned_low: float
    edge_tuned_high: float
    edge_b0: float
    edge_b0_low: float
    edge_b0_high: float
    bot: str
    settings: str         # JSON: budget, deals, check_deals, seed (what resuming compares)
    seconds: float
    replicates: int = 1
    replicate_sd: float = float("nan")  # the normalised index's standard deviation over the replicates
    norm_se: float = float("nan")       # its standard error, the search's noise included
    df: float = float("nan")            # the intervals' Student t degrees of freedom (nan: normal)
    # --ceiling (module docstring); a run without it writes none of these columns (CEILING_COLUMNS).
    # The search at a table of B0: the ceiling beside share .. norm_high, the lower bound
    ceiling_share: float = float("nan")
    ceiling_low: float = float("nan")
    ceiling_high: float = float("nan")
    ceiling_norm: float = float("nan")
    ceiling_norm_low: float = float("nan")
    ceiling_norm_high: float = float("nan")
    # The tuned bot at a table of counter bots (its replicates combined as share's)
    counter_share: float = float("nan")
    counter_low: float = float("nan")
    counter_high: float = float("nan")
    counter_norm: float = float("nan")
    counter_norm_low: float = float("nan")
    counter_norm_high: float = float("nan")
    # The search at a table of counter bots
    ceiling_counter_share: float = float("nan")
    ceiling_counter_low: float = float("nan")
    ceiling_counter_high: float = float("nan")
    ceiling_counter_norm: float = float("nan")
    ceiling_counter_norm_low: float = float("nan")
    ceiling_counter_norm_high: float = float("nan")
    ceiling_bot: str | None = None
    ceiling_deals: int = 0
    ceiling_seconds: float = float("nan")
    # The search's index minus the base point's at this table size: its standard error,
    # paired by deal (nan for the base, or for a run that kept no per-deal wins)
    ceiling_diff_se: float = float("nan")


CEILING_COLUMNS = tuple(f.name for f in fields(SkillPoint) if f.name.startswith(("ceiling_", "counter_")))
"""The columns ``--ceiling`` adds to ``skill.parquet`` (absent from a run without it)."""


@dataclass(frozen=True)
class Ceiling:
    """What ``--ceiling`` measures beside the tuned bot: ``bot``, a ``search`` player, on
    ``deals`` fresh deals at each field's table (module docstring)."""

    bot: Bot
    deals: int

    def __post_init__(self) -> None:
        if self.bot.strategy != "search":
            raise RunError(f"--ceiling-bot: {self.bot.name!r} is a {self.bot.strategy!r} bot; the ceiling is the "
                           "search player: search or search:worlds=..,rollouts=..,rollout_bot=..,margin=..")
        if not 1 <= self.deals <= 10_000_000:
            raise RunError(f"--ceiling-deals: must be between 1 and 10,000,000 (got {self.deals})")

    def identity(self) -> dict[str, Any]:
        """What the output guard and resuming compare (the bot's parameters, not its label)."""
        return {"bot": self.bot.entry(), "deals": self.deals}

    @classmethod
    def of(cls, identity: dict[str, Any]) -> Ceiling:
        """The ceiling a kept output's :meth:`identity` describes."""
        try:
            entry = identity["bot"]
            strategy, params = check_seats(entry, 1, strategies())[0]
            deals = int(identity["deals"])
        except (KeyError, TypeError, ValueError, ConfigError) as e:
            raise RunError(f"--ceiling: the kept output's ceiling settings are unreadable ({e}); use --force to "
                           "redo the folder, or choose another --out") from None
        defaults = {k: d for k, (d, _) in strategies()[strategy][1].items()}
        spec = ",".join(f"{k}={param_text(v)}" for k, v in params.items() if v != defaults[k])
        return cls(Bot(strategy + (f":{spec}" if spec else ""), strategy, params), deals)


def _first_seat(cfg: RulesConfig, bot: Bot, seed: int, hands: int, workers: int) -> tuple[float, float, float]:
    """Every seat ``bot``: the first player's win share minus the even share, with its
    Wilson interval (each hand its own deal, so hands are independent)."""
    table = cfg.with_values({"seats": bot.entry()})
    P = to_params(table)
    even = 1.0 / cfg.teams if cfg.teams > 1 else 1.0 / cfg.players
    w = d = 0
    for a in range(CHECK_START, CHECK_START + hands, SLICE_HANDS):  # slices: Ctrl-C is seen between them
        with kernel_workers(workers):
            rows = play_chunk(P, seed, a, min(SLICE_HANDS, CHECK_START + hands - a), workers)
        ok = rows[:, O_STALLED] == 0
        if cfg.teams > 1:
            won = rows[:, O_WIN_TEAM] == rows[:, O_FIRST] % cfg.teams
        else:
            won = rows[:, O_WINNER] == rows[:, O_FIRST]
        w, d = w + int((won & ok).sum()), d + int(ok.sum())
    lo, hi = wilson_interval(w, d)
    return (w / d - even if d else float("nan")), float(lo) - even, float(hi) - even


def measure(cfg: RulesConfig, bot: Bot, *, deals: int, seed: int, workers: int) -> dict:
    """The skill figures of ``bot`` under ``cfg`` on the check deals (see the module)."""
    b0 = resolve_bot("random")
    arena = Arena(cfg, [b0], workers)
    s = arena.play([bot], seed, CHECK_START, deals)[0]
    lo, hi = s.interval()
    e = arena.even
    et = _first_seat(cfg, bot, seed, deals * cfg.players, workers)
    eb = _first_seat(cfg, b0, seed, deals * cfg.players, workers)
    return {"even": e, "share": s.share, "low": lo, "high": hi, "skill": s.share - e, "skill_low": lo - e,
            "skill_high": hi - e, "skill_norm": (s.share - e) / (1 - e), "norm_low": (lo - e) / (1 - e),
            "norm_high": (hi - e) / (1 - e), "edge_tuned": et[0], "edge_tuned_low": et[1], "edge_tuned_high": et[2],
            "edge_b0": eb[0], "edge_b0_low": eb[1], "edge_b0_high": eb[2]}


def _normalised(prefix: str, share: float, low: float, high: float, e: float) -> dict[str, float]:
    """A share and its interval as ``<prefix>_share`` .. and the normalised index
    ``<prefix>_norm`` .. (module docstring)."""
    return {f"{prefix}_share": share, f"{prefix}_low": low, f"{prefix}_high": high,
            f"{prefix}_norm": (share - e) / (1 - e), f"{prefix}_norm_low": (low - e) / (1 - e),
            f"{prefix}_norm_high": (high - e) / (1 - e)}


def measure_at(cfg: RulesConfig, bot: Bot, field: str, *, deals: int, seed: int, workers: int) -> dict:
    """``bot``'s win share at a table of ``field`` bots on the check deals of ``seed``, every
    deal once from every seat (as :func:`measure`, without the first-seat edges), and its wins
    per deal (over the rotations), kept in :data:`CEILING_FILE` so that two points measured on
    the same deals differ paired by deal (:func:`ceiling_columns`)."""
    arena = Arena(cfg, [resolve_bot(field)], workers)
    s = arena.play([bot], seed, CHECK_START, deals)[0]
    lo, hi = s.interval()
    return {"even": arena.even, "share": s.share, "low": lo, "high": hi, "deal_wins": s.wins.astype(np.int16),
            "deal_decided": s.decided.astype(np.int16)}


def _deal_share(row: dict[str, Any]) -> Share | None:
    """The per-deal :class:`Share` of a :data:`CEILING_FILE` row; None for a row written
    without it (then a difference falls back to adding the two variances)."""
    wins, decided = row.get("deal_wins"), row.get("deal_decided")
    if wins is None or decided is None or not isinstance(wins, (list, np.ndarray)):
        return None
    return share_of(np.asarray(wins, np.float64), np.asarray(decided, np.float64))


def ceiling_columns(rows: pd.DataFrame, bases: Mapping[int, str] | None = None) -> dict[str, dict[str, Any]]:
    """Per point label, the ceiling columns of :class:`SkillPoint` from the rows of
    :data:`CEILING_FILE`, the tuned bot's combined over its replicates; ``bases`` (table size
    -> the base point's label) adds ``ceiling_diff_se``, paired by deal."""
    out: dict[str, dict[str, Any]] = {}
    if not len(rows):
        return out
    z = 1.959964
    searched = rows[rows["who"] == "ceiling"].to_dict("records")
    for r in searched:
        d = out.setdefault(r["label"], {})
        prefix = "ceiling" if r["field"] == "random" else "ceiling_counter"
        d.update(_normalised(prefix, r["share"], r["low"], r["high"], r["even"]))
        d.update(ceiling_bot=r["bot"], ceiling_deals=int(r["deals"]),
                 ceiling_seconds=d.get("ceiling_seconds", 0.0) + float(r["seconds"]))
    at_b0 = {r["label"]: r for r in searched if r["field"] == "random"}
    for r in at_b0.values():
        b = at_b0.get((bases or {}).get(int(r["players"]), ""))
        if b is None or b is r:
            continue
        mine, base = _deal_share(r), _deal_share(b)
        if mine is not None and base is not None:
            out[r["label"]]["ceiling_diff_se"] = mine.difference_se(base, 1 / (1 - r["even"]), 1 / (1 - b["even"]))
    tuned = rows[(rows["who"] == "tuned") & (rows["field"] == "counter")]
    for _, group in tuned.groupby("players", sort=False):
        labels = list(dict.fromkeys(group["label"]))
        K = int(group.groupby("label").size().min())
        parts = [group[group["label"] == lab].sort_values("replicate").head(K) for lab in labels]
        y = np.array([p["share"].to_numpy() for p in parts])
        se = np.array([((p["high"] - p["low"]) / (2 * z)).to_numpy() for p in parts])
        c = combine(y, se)
        lo, hi = c.interval()
        for i, (lab, p) in enumerate(zip(labels, parts)):
            d = out.setdefault(lab, {})
            d.update(_normalised("counter", float(c.mean[i]), float(lo[i]), float(hi[i]), float(p["even"].iloc[0])))
    return out


def _write_table(path: Path, points: list[SkillPoint]) -> None:
    """The table, atomically: a reader sees the old file or the new one."""
    write_atomic(path, lambda tmp: skill_frame(points).to_parquet(tmp, index=False))


def read_skill(path: str | Path) -> pd.DataFrame:
    """``skill.parquet`` (or the directory holding it) as a frame."""
    p = Path(path)
    return pd.read_parquet(p / SKILL_FILE if p.is_dir() else p)


def combine_points(raw: pd.DataFrame) -> list[SkillPoint]:
    """The per-point table from every replicate's figures (``raw``): shares averaged over the
    replicates, intervals with the search's noise pooled per table size, the indexes derived."""
    if not len(raw):
        return []
    points = list(dict.fromkeys(raw["label"]))
    out: dict[str, dict] = {}
    z = 1.959964
    for players, group in raw.groupby("players", sort=False):
        labels = [lab for lab in points if lab in set(group["label"])]
        K = int(group.groupby("label").size().min())
        rows = [group[group["label"] == lab].sort_values("replicate").head(K) for lab in labels]
        figs = {}
        for names in (("share", "low", "high"), ("edge_tuned", "edge_tuned_low", "edge_tuned_high"),
                      ("edge_b0", "edge_b0_low", "edge_b0_high")):
            q, lo, hi = names
            y = np.array([r[q].to_numpy() for r in rows])
            se = np.array([((r[hi] - r[lo]) / (2 * z)).to_numpy() for r in rows])
            figs[names] = combine(y, se)
        for i, (lab, r) in enumerate(zip(labels, rows)):
            first = r.iloc[0]
            e = float(first["even"])
            d = {}
            for names, c in figs.items():
                lo, hi = c.interval()
                d.update({names[0]: float(c.mean[i]), names[1]: float(lo[i]), names[2]: float(hi[i])})
            c = figs["share", "low", "high"]
            d.update({"even": e, "skill": d["share"] - e, "skill_low": d["low"] - e, "skill_high": d["high"] - e,
                      "skill_norm": (d["share"] - e) / (1 - e), "norm_low": (d["low"] - e) / (1 - e),
                      "norm_high": (d["high"] - e) / (1 - e), "replicates": K,
                      "replicate_sd": float(c.sd[i]) / (1 - e), "norm_se": float(c.se[i]) / (1 - e),
                      "df": float("nan") if c.df is None else float(c.df)})
            bots = list(r["bot"])
            out[lab] = dict(label=lab, rules=first["rules"], players=int(players), is_base=bool(first["is_base"]),
                            partition=first["partition"], bot=bots[0] if len(set(bots)) == 1 else
                            str(Path(bots[0]).parent.parent / "replicate=<r>" / "bot.toml"),
                            settings=first["settings"], seconds=float(r["seconds"].sum()), **d)
    return [SkillPoint(**out[lab]) for lab in points if lab in out]


def write_tables(root: Path, raw_rows: list[dict], ceiling_rows: list[dict] | None,
                 replicates: int | None = None) -> list[SkillPoint]:
    """Every table of a skill run in ``root`` from its rows (``ceiling_rows`` None: no
    ceiling); returns the points whose replicates are all among ``raw_rows``."""
    raw = pd.DataFrame(raw_rows)
    whole = raw if replicates is None or not len(raw) else \
        raw[raw.groupby("label")["label"].transform("size") == replicates].reset_index(drop=True)
    pts = combine_points(whole)
    write_frame(root / REPLICATES_FILE, raw)
    if ceiling_rows is not None:
        rows = pd.DataFrame(ceiling_rows)
        write_frame(root / CEILING_FILE, rows)
        cols = ceiling_columns(rows, {p.players: p.label for p in pts if p.is_base})
        pts = [replace(p, **cols.get(p.label, {})) for p in pts]
    _write_table(root / SKILL_FILE, pts)
    return pts


def skill_sweep(sweep: Sweep, out: str | Path, *, budget: int, deals: int, check_deals: int, seed: int | None = None,
                bot: Bot | None = None, workers: int = 1, replicates: int = 1,
                progress: Callable[[str, int, int], None] | None = None,
                tune_progress: Callable[[int, float], None] | None = None,
                ceiling: Ceiling | None = None) -> list[SkillPoint]:
    """The skill index of every point of ``sweep`` into ``out``: per point and replicate a
    tuned bot (unless ``bot`` is given) measured on fresh deals, a row per replicate in
    ``_skill_replicates.pq`` and per point in ``skill.parquet``.  Resumable: kept replicates of
    the same settings are not redone.  ``ceiling``: also the search player and the tuned bot at
    the counter table, in ``_skill_ceiling.pq``.  ``progress(label, i, total)`` before each point."""
    root = Path(out)
    pl = plan(sweep, root, budget=budget, deals=deals, check_deals=check_deals, seed=seed, bot=bot,
              replicates=replicates, ceiling=ceiling)
    base = sweep.base_values()
    done: list[dict] = []
    ceiling_done: list[dict] = []

    def write(extra: list[dict], ceiling_extra: list[dict]) -> list[SkillPoint]:
        return write_tables(root, done + extra, None if ceiling is None else ceiling_done + ceiling_extra,
                            replicates)

    def measure_ceiling(i: int, p: Any, bots: dict[int, Bot]) -> None:
        """The point's ceiling rows: those kept, the missing ones measured."""
        have = {(r["who"], r["field"], int(r["replicate"])): r for r in pl.kept_ceiling.get(p.label, [])}
        want = [("tuned", "counter", r) for r in range(replicates)] + [("ceiling", f, 0) for f in CEILING_FIELDS]
        if any(w not in have for w in want) and progress:
            progress(f"{p.label}: the ceiling ({ceiling.bot.name}, {ceiling.deals:,} deals per field)", i,
                     len(sweep.points))
        for who, field, r in want:
            if (who, field, r) in have:
                ceiling_done.append(have[who, field, r])
                continue
            t0 = time.perf_counter()
            if who == "tuned":
                used, s_r, n = bots.get(r) or kept_bot(root, p, r, replicates, bot), pl.seed + r, check_deals
            else:
                used, s_r, n = ceiling.bot, pl.seed, ceiling.deals
            fig = measure_at(p.cfg, used, field, deals=n, seed=s_r, workers=workers)
            ceiling_done.append(ceiling_row(p, who, field, r, s_r, n, used, pl.ceiling_settings,
                                            time.perf_counter() - t0, fig))

    def tune_point(p: Any, tuned_bots: dict[int, Bot]) -> None:
        """The point's replicates: each tuned (unless ``bot``) and measured."""
        for r in range(replicates):
            if r in pl.kept_replicates.get(p.label, {}):  # finished on Dask before the point was whole
                done.append(pl.kept_replicates[p.label][r])
                continue
            t0, s_r, where = time.perf_counter(), pl.seed + r, point_dir(root, p, r, replicates)
            if bot is None:
                res = tune(p.cfg, [resolve_bot("random")], budget=budget, deals=deals, seed=s_r, workers=workers,
                           progress=tune_progress, name=f"tuned-{p.label}")
                if res.interrupted:  # the signal that stopped the tuning, so the command exits 143 on SIGTERM
                    raise Interrupted(LAST_SIGNAL[-1]) if LAST_SIGNAL else KeyboardInterrupt
                used = res.bot
                save_tuned(where, used, res.history, {"tuned_for": p.label, "budget": budget, "deals": deals,
                                                      "seed": s_r})
            else:
                used = bot
            tuned_bots[r] = used
            fig = measure(p.cfg, used, deals=check_deals, seed=s_r, workers=workers)
            done.append(replicate_row(p, base, r, s_r, str(where / "bot.toml") if bot is None else
                                      (bot.source or bot.name), pl.settings, time.perf_counter() - t0, fig))

    for i, p in enumerate(sweep.points):
        if progress:
            progress(p.label, i, len(sweep.points))
        tuned_bots: dict[int, Bot] = {}  # replicate -> the bot tuned now (a kept one is read from its file)
        if p.label in pl.kept:
            done.extend(pl.kept[p.label])
            if ceiling is None:
                continue
        else:
            tune_point(p, tuned_bots)
        if ceiling is not None:
            measure_ceiling(i, p, tuned_bots)
        rest = sweep.points[i + 1:]
        write([row for q in rest for row in pl.kept_replicates.get(q.label, {}).values()],
              [row for q in rest for row in pl.kept_ceiling.get(q.label, [])])
    return write([], [])


def skill_frame(points: list[SkillPoint]) -> pd.DataFrame:
    """The points as the table ``skill.parquet`` holds: the ceiling's columns only when a
    point has its figures (a run without ``--ceiling`` writes the table it always wrote)."""
    frame = pd.DataFrame([asdict(p) for p in points])
    if not any(p.ceiling_bot is not None for p in points):
        frame = frame.drop(columns=[c for c in CEILING_COLUMNS if c in frame])
    return frame


def render_skill(frame: pd.DataFrame) -> list[str]:
    """The lines `unosim skill` prints: per point its skill index, most skill first."""
    out = ["skill index: the tuned bot's win share at a table of B0 minus 1/n, normalised by 1 - 1/n "
           "(0 = pure luck); 95% intervals; first-seat edge: first player's share - 1/n, every seat tuned"]
    if not len(frame):
        return out + ["  (no points)"]
    k = int(frame["replicates"].min()) if "replicates" in frame else 1
    fixed = json.loads(frame["settings"].iloc[0]).get("bot") is not None if "settings" in frame else False
    if fixed:
        out.append("  a given bot (--bot), nothing tuned: intervals are the measurement's")
    elif k > 1:
        out.append(f"  mean over {k} independently tuned replicates; intervals include the search's noise "
                   "(between-replicate variance pooled per table size, Student t)")
    else:
        out.append("  one tuning per point: intervals are the measurement's only, not the search's noise "
                   "(--replicates 3 or more adds it)")
    width = max(len(r) for r in frame["rules"])
    out.append(f"  {'rules':<{width}}  {'n':>2}  {'share':>7}  {'skill (normalised)':<26}  first-seat edge: tuned / B0")
    for r in frame.sort_values(["players", "skill_norm"], ascending=[True, False]).itertuples():
        mark = " *" if r.is_base else ""
        out.append(f"  {r.rules:<{width}}  {r.players:>2}  {r.share:7.2%}  {r.skill_norm:+7.1%} "
                   f"[{r.norm_low:+6.1%}, {r.norm_high:+6.1%}]  {r.edge_tuned:+6.2%} / {r.edge_b0:+6.2%}{mark}")
    out.append("  * the base point (the sweep's base rules) of its table size")
    if has_ceiling(frame):
        out += _render_bracket(frame, width)
    return out


def has_ceiling(frame: pd.DataFrame) -> bool:
    """Whether a skill table holds the ceiling's figures (``--ceiling``; an older table or a
    run without it has none)."""
    return "ceiling_norm" in frame and bool(frame["ceiling_norm"].notna().any())


def _render_bracket(frame: pd.DataFrame, width: int) -> list[str]:
    """The bracket's lines: per point the normalised index of the tuned bot and of the
    search, at a table of B0 and at a table of counter bots."""
    def cell(v: float, lo: float, hi: float) -> str:
        return f"{'-':>24}" if not np.isfinite(v) else f"{v:+7.1%} [{lo:+6.1%}, {hi:+6.1%}]"

    bot = frame["ceiling_bot"].dropna().iloc[0]
    deals = int(frame["ceiling_deals"].max())
    out = [f"the bracket (--ceiling): normalised skill index of the tuned bot (the lower bound) and of {bot} (the "
           f"ceiling: no tuning, every decision searched; {deals:,} deals per field, intervals the measurement's)",
           f"  {'rules':<{width}}  {'n':>2}  {'at a table of B0: tuned / search':<51}  "
           "at a table of counter: tuned / search"]
    for r in frame.sort_values(["players", "skill_norm"], ascending=[True, False]).itertuples():
        out.append(f"  {r.rules:<{width}}  {r.players:>2}  {cell(r.skill_norm, r.norm_low, r.norm_high)} / "
                   f"{cell(r.ceiling_norm, r.ceiling_norm_low, r.ceiling_norm_high)}  "
                   f"{cell(r.counter_norm, r.counter_norm_low, r.counter_norm_high)} / "
                   f"{cell(r.ceiling_counter_norm, r.ceiling_counter_norm_low, r.ceiling_counter_norm_high)}"
                   + (" *" if r.is_base else ""))
    return out


def base_differences(frame: pd.DataFrame) -> pd.DataFrame:
    """Each point's normalised skill minus its table size's base point, with an interval (the
    variances added; Student t with replicates), and the ceiling's (``ceiling_diff`` ..) where
    measured.  ``p``/``ceiling_p``: the two-sided p-values of those intervals;
    ``discovery``/``ceiling_discovery``: Benjamini-Hochberg at ``stats.DISCOVERY_RATE``."""
    def se_of(r: Any) -> float:
        se = r.get("norm_se", float("nan"))
        return float(se) if np.isfinite(se) else float((r["norm_high"] - r["norm_low"]) / (2 * 1.959964))

    ceiling = has_ceiling(frame)
    rows = []
    for _, r in frame.iterrows():
        b = frame[(frame["players"] == r["players"]) & frame["is_base"]]
        if not len(b) or r["is_base"]:
            continue
        b = b.iloc[0]
        se = np.hypot(se_of(r), se_of(b))
        q = quantile(r.get("df", float("nan")))
        d = r["skill_norm"] - b["skill_norm"]
        row = {"rules": r["rules"], "players": r["players"], "diff": d, "low": d - q * se, "high": d + q * se,
               "p": stats.p_value(d, se, r.get("df", float("nan")))}
        if ceiling:
            c = r["ceiling_norm"] - b["ceiling_norm"]
            paired = r.get("ceiling_diff_se", float("nan"))
            c_se = paired if np.isfinite(paired) else \
                np.hypot(*((x["ceiling_norm_high"] - x["ceiling_norm_low"]) / (2 * 1.959964) for x in (r, b)))
            half = 1.959964 * c_se
            row.update(ceiling_diff=c, ceiling_low=c - half, ceiling_high=c + half,
                       ceiling_p=stats.p_value(c, c_se))
        rows.append(row)
    extra = ["ceiling_diff", "ceiling_low", "ceiling_high", "ceiling_p"] if ceiling else []
    out = pd.DataFrame(rows, columns=["rules", "players", "diff", "low", "high", "p", *extra])
    out.insert(out.columns.get_loc("p") + 1, "discovery", stats.discoveries(out["p"]))
    if ceiling:
        out["ceiling_discovery"] = stats.discoveries(out["ceiling_p"])
    return out


VERDICTS = ("more skill", "more luck", "no clear change")
"""The verdict on a rule's difference from the base: its interval above 0, below 0, or across it."""


def verdict(low: float, high: float) -> str:
    """The one reading of a difference's interval (docs/skill.md, notebooks/skill.ipynb)."""
    return VERDICTS[0] if low > 0 else VERDICTS[1] if high < 0 else VERDICTS[2]


def verdicts(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`base_differences` of a skill table with each difference's ``verdict``
    (:func:`verdict`); ``discovery`` says which remain with the false discovery rate held."""
    d = base_differences(frame)
    d.insert(d.columns.get_loc("discovery") + 1, "verdict", [verdict(lo, hi) for lo, hi in zip(d["low"], d["high"])])
    return d
