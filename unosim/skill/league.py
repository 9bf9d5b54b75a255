"""`unosim league`: every bot against every other, and a strength for each.

A league of m bots at tables of n seats plays every combination of n distinct bots (C(m, n)
tables), each table as an ordinary ``rotated`` job of the run pipeline: every deal once per
rotation of the table's bots over the seats, written as resumable Parquet parts whose
``bot_<s>`` columns name the bot at every seat (seating.py).  Every table plays the same
seed, so the same deals: a bot's strength is not the luck of the tables it sat at.

Bots are sorted by name before the tables are formed, so the order in which they were
listed changes nothing: the same tables, seatings, rows and fit.

The fit: every decided hand is one Luce choice (Plackett-Luce top-1: the winner is chosen
among the bots at the table with probability proportional to exp(strength)), fitted by
``choix.ilsr_top1``; strengths are log-odds centred on the average bot.  Intervals come from
the observed Fisher information of that likelihood (its inverse is the strengths'
covariance); they treat hands as independent, which the common deals make conservative
for differences between bots (the deal's luck is shared) but which is not a bootstrap.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from unosim.run.botfile import Bot
from unosim.kernel.layout import ENGINE_VERSION
from unosim.rules.config import RulesConfig
from unosim.run.integrity import hold_lock, write_json_atomic
from unosim.run.jobs import Job, RunError, make_job
from unosim.run.runner import execute
from unosim.run.play import set_workers
from unosim.run.seating import bot_label
from unosim.run.guard import inside
from unosim.run.integrity import REJECTED
from unosim.run.store import MANIFEST, StoreError, read_manifest, remove_result
from unosim.run.summary import Summary
from unosim.analysis.stats import z_value

__all__ = ["LEAGUE_MANIFEST", "MAX_TABLES", "League", "fit_league", "make_league", "read_winners", "run_league"]

LEAGUE_MANIFEST = "_unosim_league.json"
MAX_TABLES = 500
"""Tables one league may have: C(12, 6) = 924 tables is hours; pick fewer bots or seats."""


@dataclass(frozen=True)
class League:
    """A validated league: the rules, the bots (sorted by name), the table size, the deals
    per table and the seed; ``tables`` are the bots' indices at each table."""

    cfg: RulesConfig
    bots: tuple[Bot, ...]
    players: int
    deals: int
    seed: int

    @property
    def tables(self) -> list[tuple[int, ...]]:
        return list(itertools.combinations(range(len(self.bots)), self.players))

    def labels(self) -> list[str]:
        """Each bot's label in the rows' ``bot_<s>`` columns (seating.bot_label)."""
        return [bot_label(b.strategy, b.params) for b in self.bots]

    def manifest(self) -> dict:
        return {"engine_version": ENGINE_VERSION,
                "config": self.cfg.with_values({"players": self.players, "seats": "random"}).to_toml(),
                "players": self.players, "deals": self.deals, "seed": self.seed,
                "bots": [{"name": b.name, "entry": b.entry()} for b in self.bots]}

    def jobs(self, out: str | Path) -> list[Job]:
        """One ``rotated`` job per table, under ``out/table=<k>``."""
        root = Path(out)
        jobs = []
        for k, members in enumerate(self.tables):
            cfg = self.cfg.with_values({"players": self.players, "seats": [self.bots[i].entry() for i in members]})
            name = " v ".join(self.bots[i].name for i in members)
            jobs.append(make_job(cfg, "rotated", self.deals, self.seed, out=root / f"table={k}", label=name,
                                 count_option="--deals",
                                 extra_metadata={"unosim.league_table": k,
                                                 "unosim.league_bots": json.dumps([self.bots[i].name
                                                                                   for i in members])}))
        return jobs


def make_league(cfg: RulesConfig, bots: list[Bot], *, players: int | None = None, deals: int = 2000,
                seed: int = 0) -> League:
    """Check the league's arguments (one :class:`RunError` line naming the option)."""
    n = cfg.players if players is None else players
    if not 2 <= n <= 10:
        raise RunError(f"--players: must be between 2 and 10 (got {n})")
    if len(bots) < 2:
        raise RunError(f"--bots: a league needs at least 2 bots (got {len(bots)})")
    names = [b.name for b in bots]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        raise RunError(f"--bots: {', '.join(dup)} listed twice; every bot once")
    keys = [b.key() for b in bots]
    same = [(bots[i].name, bots[j].name) for i, j in itertools.combinations(range(len(bots)), 2) if keys[i] == keys[j]]
    if same:
        raise RunError(f"--bots: {same[0][0]} and {same[0][1]} are the same bot (strategy and parameters)")
    if len(bots) < n:
        raise RunError(f"--bots: tables of {n} players need at least {n} different bots (got {len(bots)}); "
                       f"add bots or pass --players {len(bots)}")
    if comb(len(bots), n) > MAX_TABLES:
        raise RunError(f"--bots: {len(bots)} bots at {n} players make {comb(len(bots), n):,} tables; at most "
                       f"{MAX_TABLES}")
    try:
        cfg.with_values({"players": n, "seats": "random"})
    except Exception as e:  # ConfigError: the rules do not fit n players (deal size, teams)
        raise RunError(f"--players: {e}") from None
    if not 1 <= deals <= 10_000_000:
        raise RunError(f"--deals: must be between 1 and 10,000,000 (got {deals})")
    ordered = tuple(sorted(bots, key=lambda b: (b.name, b.key())))
    return League(cfg, ordered, n, deals, seed)


def run_league(league: League, out: str | Path, *, workers: int | None = None, force: bool = False,
               progress: Callable[[int], None] | None = None,
               finish: Callable[[], None] | None = None) -> list[Summary]:
    """Play every table still missing under ``out`` (resumable: the same command keeps
    every finished part), then call ``finish`` (the command's own files), all under the
    folder's lock.  A directory holding another league is refused, naming it, unless
    ``force``, which first removes the old league's tables (their verified parts only), so
    nothing of a larger old league is left for a report to mix in.  A ``table=k`` folder
    that is a symlink is refused: a league writes inside ``out`` only."""
    from unosim.run.guard import folder_kind, resolve_out

    root = resolve_out(out)
    set_workers(workers)
    manifest = league.manifest()
    with hold_lock(root):
        if root.exists() and not root.is_dir():
            raise StoreError(f"--out: {root} exists and is not a directory")
        found = folder_kind(root)
        if found is not None and found[0] != "league":
            raise StoreError(f"--out: {root} holds the output of `unosim {found[0]}` ({found[1]}); choose another "
                             "path (--force only replaces a unosim league)")
        for t in root.glob("table=*") if root.is_dir() else ():
            if t.is_symlink() or not inside(root, t):
                raise StoreError(f"--out: {t} is a symlink; a league writes only inside its folder: remove the "
                                 "link or choose another path")
        if root.is_dir() and any(f.name != REJECTED for f in root.iterdir()):
            old = read_manifest(root / LEAGUE_MANIFEST)
            if old is None:
                raise StoreError(f"--out: {root} is a non-empty directory that is not a unosim league; "
                                 "choose another path")
            if old != manifest:
                if not force:
                    what = [k for k in manifest if old.get(k) != manifest[k]]
                    raise StoreError(f"--out: {root} holds a different league (differs in: {', '.join(what)}); "
                                     "use --force to replace it or choose another path")
                _remove_tables(root)
        root.mkdir(parents=True, exist_ok=True)
        write_json_atomic(root / LEAGUE_MANIFEST, manifest)
        jobs = league.jobs(root)
        done = [j.prepare(force=False, resume=True) for j in jobs]
        summaries = execute(jobs, done, workers=workers, progress=progress)
        for job, summary in zip(jobs, summaries):
            summary.notes = [f"{job.name}: {n}" for n in job.notes]
        if finish is not None:
            finish()
        return summaries


def _remove_tables(root: Path) -> None:
    """``--force``: the old league's tables (their verified parts, see
    :func:`unosim.run.store.remove_result`), its leaderboard and its manifest; a table folder
    left empty goes too, one holding a user's file stays (its Parquet files set aside)."""
    for t in sorted(root.glob("table=*")):
        if t.is_dir() and read_manifest(t / MANIFEST) is not None:
            remove_result(t)
            if not any(t.iterdir()):
                t.rmdir()
    for name in ("leaderboard.csv", "leaderboard.png", LEAGUE_MANIFEST):
        (root / name).unlink(missing_ok=True)


def read_winners(league: League, out: str | Path) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Per table: its bots (indices) and the winning bot of every decided hand, read back
    from the Parquet rows (the winner's seat and the ``bot_<seat>`` column)."""
    labels = league.labels()
    index = {lab: i for i, lab in enumerate(labels)}
    n = league.players
    found = []
    for k, members in enumerate(league.tables):
        cols = ["winner", "stalled"] + [f"bot_{s}" for s in range(n)]
        t = pq.read_table(Path(out) / f"table={k}", columns=cols).to_pandas()
        ok = (t["stalled"] == 0).to_numpy() & (t["winner"] >= 0).to_numpy()
        seat_bots = np.stack([t[f"bot_{s}"].astype(str).map(index).to_numpy() for s in range(n)], axis=1)
        w = t["winner"].to_numpy()[ok].astype(np.int64)
        found.append((members, seat_bots[ok][np.arange(ok.sum()), w].astype(np.int64)))
    return found


def fit_league(league: League, out: str | Path, confidence: float = 0.95) -> pd.DataFrame:
    """The leaderboard: per bot its strength (``choix.ilsr_top1``) with its interval, wins,
    hands played and win share, strongest first."""
    import choix

    m = len(league.bots)
    winners = read_winners(league, out)
    counts = np.zeros((len(winners), m))
    data: list[tuple[int, list[int]]] = []
    for t, (members, w) in enumerate(winners):
        c = np.bincount(w, minlength=m)
        counts[t] = c
        for b in members:
            others = [x for x in members if x != b]
            data.extend([(b, others)] * int(c[b]))
    if not data:
        raise RunError("league: no decided hand to fit (every hand stalled)")
    theta = np.asarray(choix.ilsr_top1(m, data, alpha=1e-6), float)
    theta -= theta.mean()
    info = np.zeros((m, m))
    for t, (members, _) in enumerate(winners):
        idx = np.array(members)
        e = np.exp(theta[idx] - theta[idx].max())
        p = e / e.sum()
        info[np.ix_(idx, idx)] += counts[t].sum() * (np.diag(p) - np.outer(p, p))
    cov = np.linalg.pinv(info)  # the strengths' gauge (mean 0) is the information's null space
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    z = z_value(confidence)
    hands = np.zeros(m)
    for t, (members, _) in enumerate(winners):
        hands[list(members)] += counts[t].sum()
    wins = counts.sum(axis=0)
    table = pd.DataFrame({"bot": [b.name for b in league.bots], "strength": theta, "low": theta - z * se,
                          "high": theta + z * se, "wins": wins.astype(np.int64), "hands": hands.astype(np.int64),
                          "win_share": np.divide(wins, hands, out=np.full(m, np.nan), where=hands > 0),
                          "source": [b.source or b.name for b in league.bots]})
    table = table.sort_values(["strength", "bot"], ascending=[False, True]).reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, m + 1))
    return table


def render_league(table: pd.DataFrame, league: League) -> list[str]:
    """The lines `unosim league` prints."""
    n, k = league.players, len(league.tables)
    out = [f"{len(league.bots)} bots, {k} tables of {n} ({league.deals:,} deals x {n} rotations each, the same "
           f"deals at every table); strength = Plackett-Luce log-odds, 95% intervals"]
    width = max(len(b) for b in table["bot"])
    out.append(f"  {'#':>2}  {'bot':<{width}}  strength  95% interval       win share    hands")
    for r in table.itertuples():
        out.append(f"  {r.rank:>2}  {r.bot:<{width}}  {r.strength:+8.3f}  [{r.low:+.3f}, {r.high:+.3f}]  "
                   f"{r.win_share:9.2%}  {r.hands:>7,}")
    out.append(f"  Even share at a table of {n}: {1 / n:.2%}.")
    return out
