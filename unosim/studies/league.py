"""`unosim league`: every bot against every other, and a strength for each.

Every table of n distinct bots plays every deal in all n! seatings; strengths are a
Plackett-Luce top-1 fit with deal-level bootstrap intervals and a goodness-of-fit test.
Details: docs/which_bot.md and docs/design.md, "Leagues".
"""

from __future__ import annotations

import itertools
import os
import uuid
import json
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass
from math import comb, factorial
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from scipy import stats as st
from scipy.special import softmax

from unosim.rules.botfile import Bot
from unosim.kernel.layout import ENGINE_VERSION
from unosim.rules.config import RulesConfig
from unosim.run.dataset import Shape
from unosim.run.integrity import REJECTED, hold_lock, reject, temporary, write_json_atomic
from unosim.run.jobs import Job, RunError, make_job
from unosim.run.runner import execute
from unosim.run.seating import bot_label
from unosim.run.guard import _digest, inside, refuse_other_output, resolve_out
from unosim.run.store import MANIFEST, StoreError, read_manifest, remove_result
from unosim.run.summary import Summary
from unosim.run.workers import check_workers
from unosim.analysis.stats import z_value

__all__ = ["BOOTSTRAP", "LEADERBOARD", "LEADERBOARD_PNG", "LEAGUE_MANIFEST", "MAX_ORDERS", "Fit", "League",
           "cyclic_orders", "fit_counts", "fit_league", "leaderboard", "make_league", "read_counts", "run_league"]

LEAGUE_MANIFEST = "_unosim_league.json"
LEADERBOARD = "_leaderboard.csv"
LEADERBOARD_PNG = "_leaderboard.png"
"""A league's reports: named with ``_`` and not ``.parquet``, so every Parquet reader of the
folder (pandas, pyarrow.dataset, a ``**/*.parquet`` glob) reads its rows only."""
_OLD_REPORTS = ("leaderboard.csv", "leaderboard.png")  # a league written before


def leaderboard(root: str | Path) -> Path:
    """The leaderboard table of the league at ``root`` (an older league's
    ``leaderboard.csv`` when it has only that)."""
    new, old = Path(root) / LEADERBOARD, Path(root) / _OLD_REPORTS[0]
    return old if old.is_file() and not new.is_file() else new


OWNED = "sha256"  # the manifest's record of the league's own files (name -> SHA-256 as written)
MAX_ORDERS = 2000
"""Table orders (tables x (n-1)! cyclic orders) one league may play, each a job: 7 bots at
7 players are 720, 8 at 8 are 5,040 (hours of bookkeeping for a handful of deals each)."""
BOOTSTRAP = 400
"""Bootstrap resamples of the deals: the Monte Carlo error of a 95% half-width is then
about 4% of it."""
BLOCKS = 2000
"""Deals are pooled into at most this many consecutive blocks before resampling (blocks of
independent deals are independent), which bounds the memory at any deal count."""
POOR_FIT = 0.01
"""A goodness-of-fit p-value below this prints the warning that the model does not fit."""
DESIGN = "every cyclic order x every rotation, the same deals"
"""The league's seating design, in its manifest: a league written under another design is
another league (refused, or replaced with --force)."""


def cyclic_orders(members: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every seating of ``members`` round a table up to rotation: the first one fixed, the
    others in every order ((n-1)! orders); rotating each over the seats gives all n!."""
    first, rest = members[0], members[1:]
    return [(first, *p) for p in itertools.permutations(rest)]


def _identity(b: Bot) -> str:
    """What orders the bots internally: the bot itself, never its name or its place in the list."""
    return json.dumps([b.strategy, sorted(b.params.items())], default=str)


@dataclass(frozen=True)
class League:
    """A validated league: the rules, the bots (in :func:`_identity` order), the table size,
    the deals per table and the seed; ``tables`` are the bots' indices at each table."""

    cfg: RulesConfig
    bots: tuple[Bot, ...]
    players: int
    deals: int
    seed: int

    @property
    def tables(self) -> list[tuple[int, ...]]:
        return list(itertools.combinations(range(len(self.bots)), self.players))

    @property
    def orders(self) -> int:
        """Cyclic orders per table."""
        return factorial(self.players - 1)

    def labels(self) -> list[str]:
        """Each bot's label in the rows' ``bot_<s>`` columns: seating.bot_label, or the bot's name
        in the league where that label would not tell two bots apart."""
        plain = [bot_label(b.strategy, b.params) for b in self.bots]
        return [b.name if plain.count(lab) > 1 else lab for b, lab in zip(self.bots, plain)]

    def _entry(self, i: int, labels: list[str]) -> str | dict:
        """Bot ``i``'s seat entry, named when its label is its league name (:meth:`labels`)."""
        entry = self.bots[i].entry()
        b = self.bots[i]
        if labels[i] == bot_label(b.strategy, b.params):
            return entry
        return {**({"strategy": entry} if isinstance(entry, str) else entry), "name": labels[i]}

    def manifest(self) -> dict:
        return {"layout": 2, "engine_version": ENGINE_VERSION,
                "config": self.cfg.with_values({"players": self.players, "seats": "random"}).to_toml(),
                "players": self.players, "deals": self.deals, "seed": self.seed, "design": DESIGN,
                "bots": [{"name": b.name, "entry": b.entry()} for b in self.bots]}

    def table_dir(self, out: str | Path, k: int, j: int) -> Path:
        """Table ``k``'s cyclic order ``j``: one folder level (a league written before
        schema 2 has ``table=k/order=j``, still read)."""
        old = Path(out) / f"table={k}" / f"order={j}"
        return old if old.is_dir() else Path(out) / f"table-{k:04d}-order-{j:04d}"

    def jobs(self, out: str | Path) -> list[Job]:
        """One ``rotated`` job per table and cyclic order, under ``out/table-<k>-order-<j>``,
        its rows carrying ``league_table`` and ``league_order``."""
        jobs = []
        labels = self.labels()
        for k, members in enumerate(self.tables):
            for j, seating in enumerate(cyclic_orders(members)):
                cfg = self.cfg.with_values({"players": self.players,
                                            "seats": [self._entry(i, labels) for i in seating]})
                names = [self.bots[i].name for i in seating]
                jobs.append(make_job(cfg, "rotated", self.deals, self.seed, out=self.table_dir(out, k, j),
                                     label=" v ".join(names), count_option="--deals",
                                     extra_metadata={"unosim.league_table": k, "unosim.league_order": j,
                                                     "unosim.league_bots": json.dumps(names)},
                                     shape=Shape(constants=(("league_table", k, pa.int32()),
                                                            ("league_order", j, pa.int32())))))
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
    keys = [b.key() for b in bots]
    for x in sorted({x for x in names if names.count(x) > 1}):
        if len({keys[i] for i, y in enumerate(names) if y == x}) > 1:
            raise RunError(f"--bots: two different bots are both called {x}; a league counts wins by name, so "
                           f"give one another name (the name in its bot file)")
        raise RunError(f"--bots: {x} listed twice; every bot once")
    same = [(bots[i].name, bots[j].name) for i, j in itertools.combinations(range(len(bots)), 2) if keys[i] == keys[j]]
    if same:
        raise RunError(f"--bots: {same[0][0]} and {same[0][1]} are the same bot (strategy and parameters)")
    if len(bots) < n:
        raise RunError(f"--bots: tables of {n} players need at least {n} different bots (got {len(bots)}); "
                       f"add bots or pass --players {len(bots)}")
    orders = comb(len(bots), n) * factorial(n - 1)
    if orders > MAX_ORDERS:
        tables = comb(len(bots), n)
        raise RunError(f"--bots: {len(bots)} bots at {n} players make {tables:,} table{'s' if tables > 1 else ''} x "
                       f"{factorial(n - 1):,} seating orders = {orders:,}; at most {MAX_ORDERS:,} (fewer bots or seats)")
    try:
        cfg.with_values({"players": n, "seats": "random"})
    except Exception as e:  # ConfigError: the rules do not fit n players (deal size, teams)
        raise RunError(f"--players: {e}") from None
    if not 1 <= deals <= 10_000_000:
        raise RunError(f"--deals: must be between 1 and 10,000,000 (got {deals})")
    ordered = tuple(sorted(bots, key=_identity))
    return League(cfg, ordered, n, deals, seed)


def run_league(league: League, out: str | Path, *, workers: int | None = None, force: bool = False,
               progress: Callable[[int], None] | None = None,
               finish: Callable[[], None] | None = None) -> list[Summary]:
    """Play every table and order still missing under ``out`` (resumable), then call
    ``finish``, all under the folder's lock.  Another league there is refused unless
    ``force``, which first removes its tables."""
    root = resolve_out(out)
    check_workers(workers)  # a bad --workers is refused before the output is touched
    manifest = league.manifest()
    with hold_lock(root):
        refuse_other_output(root, "league", "a unosim league", StoreError)
        for t in [*root.glob("table[=-]*"), *root.glob("table=*/order=*")] if root.is_dir() else ():
            if t.is_symlink() or not inside(root, t):
                raise StoreError(f"--out: {t} is a symlink; a league writes only inside its folder: remove the "
                                 "link or choose another path")
        owned: dict[str, str] = {}
        if root.is_dir() and any(f.name != REJECTED for f in root.iterdir()):
            old = read_manifest(root / LEAGUE_MANIFEST)
            if old is None:
                raise StoreError(f"--out: {root} is a non-empty directory that is not a unosim league; "
                                 "choose another path")
            owned = old.pop(OWNED, None) or {}
            if old != manifest:
                if not force:
                    what = [k for k in manifest if old.get(k) != manifest[k]]
                    raise StoreError(f"--out: {root} holds a different league (differs in: {', '.join(what)}); "
                                     "use --force to replace it or choose another path")
                _remove_tables(root, owned)
                owned = {}
        root.mkdir(parents=True, exist_ok=True)
        write_json_atomic(root / LEAGUE_MANIFEST, {**manifest, OWNED: owned})
        jobs = league.jobs(root)
        done = [j.prepare(force=False, resume=True) for j in jobs]
        summaries = execute(jobs, done, workers=workers, progress=progress)
        for job, summary in zip(jobs, summaries):
            summary.notes = [f"{job.name}: {n}" for n in job.notes]
        if finish is not None:
            finish()
        return summaries


def write_owned(root: Path, name: str, write: Callable[[Path], Any]) -> str | None:
    """Write the league's own file ``name`` in ``root`` through ``write(temporary path)``, its
    SHA-256 recorded in the manifest; a file there the league did not write is moved to
    ``_rejected/`` first (the line saying so is returned)."""
    manifest = read_manifest(root / LEAGUE_MANIFEST) or {}
    owned = manifest.get(OWNED) if isinstance(manifest.get(OWNED), dict) else {}
    f = root / name
    note = None
    if (f.exists() or f.is_symlink()) and (name not in owned or owned[name] != _digest(f)):
        note = reject(root, f, "not the file this league wrote (a user's, or edited since)")
    with temporary(f.with_name(f".unosim-{uuid.uuid4().hex[:12]}.{name}")) as tmp:
        write(tmp)
        with open(tmp, "rb") as t:
            os.fsync(t.fileno())
        write_json_atomic(root / LEAGUE_MANIFEST, {**manifest, OWNED: {**owned, name: _digest(tmp)}})
        os.replace(tmp, f)
    return note


def _remove_tables(root: Path, owned: dict[str, str]) -> None:
    """``--force``: remove the old league's tables (verified parts only), its own leaderboard
    (``owned`` holds its digest), its manifest and the table folders left empty."""
    for t in sorted(root.glob("table[=-]*")):
        if not t.is_dir() or t.is_symlink():
            continue
        for d in sorted(t.glob("order=*")) + [t]:  # a table's orders (an older league: the table itself)
            if d.is_dir() and not d.is_symlink() and read_manifest(d / MANIFEST) is not None:
                remove_result(d)
                if d != t and not any(d.iterdir()):
                    d.rmdir()
        if not any(t.iterdir()):
            t.rmdir()
    for name in (LEADERBOARD, LEADERBOARD_PNG, *_OLD_REPORTS):
        f = root / name
        if f.is_file() and not f.is_symlink() and owned.get(name) == _digest(f):
            f.unlink()
        elif f.exists() or f.is_symlink():
            reject(root, f, "not the file the replaced league wrote (a user's, or edited since)")
    (root / LEAGUE_MANIFEST).unlink(missing_ok=True)


def read_counts(league: League, out: str | Path, blocks: int = BLOCKS) -> np.ndarray:
    """Wins of each table's bots per block of deals: an array (tables, blocks, players),
    [t, k, i] the hands bot ``tables[t][i]`` won on the deals of block k, over all seatings."""
    labels = league.labels()
    index = {lab: i for i, lab in enumerate(labels)}
    n, D = league.players, league.deals
    nb = min(blocks, D)
    counts = np.zeros((len(league.tables), nb, n))
    cols = ["hand", "winner", "stalled"] + [f"bot_{s}" for s in range(n)]
    for k, members in enumerate(league.tables):
        pos = np.full(len(labels), -1)
        pos[list(members)] = np.arange(n)
        for j in range(league.orders):
            t = pq.read_table(league.table_dir(out, k, j), columns=cols).to_pandas()
            ok = (t["stalled"] == 0).to_numpy() & (t["winner"] >= 0).to_numpy()
            seat_bots = np.stack([t[f"bot_{s}"].astype(str).map(index).to_numpy() for s in range(n)], axis=1)
            w = t["winner"].to_numpy()[ok].astype(np.int64)
            bot = pos[seat_bots[ok][np.arange(ok.sum()), w].astype(np.int64)]
            block = t["hand"].to_numpy()[ok].astype(np.int64) * nb // D
            np.add.at(counts[k], (block, bot), 1)
    return counts


def _information(M: np.ndarray, N: np.ndarray, p: np.ndarray, m: int) -> np.ndarray:
    """The observed (= expected) Fisher information of the strengths: sum over tables of
    N_t (diag p_t - p_t p_t'), scattered onto the tables' bots."""
    block = N[:, None, None] * (p[:, :, None] * np.eye(p.shape[1]) - p[:, :, None] * p[:, None, :])
    idx = M[:, :, None] * m + M[:, None, :]
    return np.bincount(idx.ravel(), block.ravel(), m * m).reshape(m, m)


def fit_counts(M: np.ndarray, C: np.ndarray, m: int, start: np.ndarray | None = None,
               ridge: float = 1e-6) -> np.ndarray:
    """Plackett-Luce top-1 strengths (mean 0) from per-table win counts (``M`` the bots at
    each table, ``C`` their wins), by Newton's method with a tiny ridge, as choix's ``alpha``."""
    theta = np.zeros(m) if start is None else start.astype(float).copy()
    N = C.sum(axis=1)
    gauge = np.full((m, m), 1.0 / m)
    for _ in range(200):
        p = softmax(theta[M], axis=1)
        g = np.bincount(M.ravel(), (C - N[:, None] * p).ravel(), m) - ridge * theta
        H = _information(M, N, p, m) + ridge * np.eye(m) + gauge
        step = np.linalg.solve(H, g)
        big = np.abs(step).max()
        if big > 1.0:
            step /= big
        theta += step
        theta -= theta.mean()
        if big < 1e-10:
            break
    return theta


@dataclass(frozen=True)
class Fit:
    """A league's fit: strengths, their bootstrap and Fisher standard errors, and the
    goodness-of-fit test (Hotelling's T^2 ``stat``, ``df``, ``p``; None when not estimable)."""

    theta: np.ndarray
    se_boot: np.ndarray
    se_fisher: np.ndarray
    replicates: int
    stat: float | None
    df: int
    p: float | None
    blocks: int


def _goodness(M: np.ndarray, c: np.ndarray, theta: np.ndarray, m: int) -> tuple[float | None, int, float | None]:
    """Observed minus predicted wins per (table, bot), tested against 0: Hotelling's T^2 of
    the per-block residuals projected by Q = I - G I^+ A' (A sums a bot's entries,
    G = d(expected wins)/d(strength), I = A'G), read as an F statistic."""
    T, nb, n = c.shape
    df = T * (n - 1) - (m - 1)
    if df <= 0 or nb <= df + 1:
        return None, df, None
    p = softmax(theta[M], axis=1)
    Nk = c.sum(axis=2)                                             # (T, blocks)
    u = (c - Nk[:, :, None] * p[:, None, :]).transpose(1, 0, 2).reshape(nb, T * n)
    K = T * n
    A = np.zeros((K, m))
    A[np.arange(K), M.ravel()] = 1.0
    N = Nk.sum(axis=1)
    G = np.zeros((K, m))
    for t in range(T):
        J = N[t] * (np.diag(p[t]) - np.outer(p[t], p[t]))           # d(expected wins)/d(theta of the table's bots)
        G[t * n:(t + 1) * n] = J @ A[t * n:(t + 1) * n]
    Q = np.eye(K) - G @ np.linalg.pinv(A.T @ G) @ A.T
    v = u @ Q.T
    mean = v.mean(axis=0)
    S = np.cov(v, rowvar=False)
    w, V = np.linalg.eigh(S)
    keep = np.argsort(w)[::-1][:df]                                 # the df free directions
    w, V = w[keep], V[:, keep]
    if w.min() <= 1e-12 * max(w.max(), 1e-300):
        return None, df, None
    z = V.T @ mean
    t2 = float(nb * (z * z / w).sum())
    f = t2 * (nb - df) / (df * (nb - 1))
    return t2, df, float(st.f.sf(f, df, nb - df))


def fit_table(league: League, counts: np.ndarray, replicates: int = BOOTSTRAP) -> Fit:
    """Strengths, their deal-level bootstrap (drawn from the league's seed) and Fisher errors
    and the goodness of fit, from :func:`read_counts`' array."""
    m = len(league.bots)
    M = np.array(league.tables, dtype=np.int64)
    C = counts.sum(axis=1)
    if not C.sum():
        raise RunError("league: no decided hand to fit (every hand stalled)")
    theta = fit_counts(M, C, m)
    p = softmax(theta[M], axis=1)
    cov = np.linalg.pinv(_information(M, C.sum(axis=1), p, m))  # the gauge (mean 0) is its null space
    se_fisher = np.sqrt(np.clip(np.diag(cov), 0, None))
    nb = counts.shape[1]
    rng = np.random.default_rng([league.seed, 0x1EA6])
    flat = counts.transpose(1, 0, 2).reshape(nb, -1)
    draws = np.empty((replicates, m))
    for b in range(replicates):
        w = rng.multinomial(nb, np.full(nb, 1.0 / nb)).astype(float)
        draws[b] = fit_counts(M, (w @ flat).reshape(C.shape), m, start=theta)
    se_boot = draws.std(axis=0, ddof=1) if replicates > 1 else np.full(m, np.nan)
    stat, df, pval = _goodness(M, counts, theta, m)
    return Fit(theta, se_boot, se_fisher, replicates, stat, df, pval, nb)


def fit_league(league: League, out: str | Path, confidence: float = 0.95, replicates: int = BOOTSTRAP,
               fit: list | None = None) -> pd.DataFrame:
    """The leaderboard, strongest first; ``fit``: a list the :class:`Fit` is appended to."""
    m = len(league.bots)
    counts = read_counts(league, out)
    f = fit_table(league, counts, replicates)
    if fit is not None:
        fit.append(f)
    z = z_value(confidence)
    theta = f.theta
    C = counts.sum(axis=1)
    M = np.ravel(league.tables)
    wins = np.bincount(M, C.ravel(), m)
    hands = np.bincount(M, np.repeat(C.sum(axis=1), league.players), m)
    table = pd.DataFrame({"bot": [b.name for b in league.bots], "strength": theta, "low": theta - z * f.se_boot,
                          "high": theta + z * f.se_boot, "wins": wins.astype(np.int64), "hands": hands.astype(np.int64),
                          "win_share": np.divide(wins, hands, out=np.full(m, np.nan), where=hands > 0),
                          "fisher_low": theta - z * f.se_fisher, "fisher_high": theta + z * f.se_fisher,
                          "source": [b.source or b.name for b in league.bots]})
    table = table.sort_values(["strength", "bot"], ascending=[False, True]).reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, m + 1))
    return table


def render_fit(f: Fit) -> list[str]:
    """The goodness-of-fit line, and the warning when the model does not fit."""
    if f.stat is None:
        why = ("every table is fitted exactly (as many strengths as free win counts)" if f.df <= 0 else
               f"too few deals to estimate the residuals' covariance ({f.blocks} for {f.df} degrees of freedom)")
        return [f"  Fit: no goodness-of-fit test: {why}."]
    out = [f"  Fit: observed - predicted wins per table and bot, T^2 = {f.stat:.1f} on {f.df} df, p = {f.p:.3g} "
           "(deals as the unit)."]
    if f.p is not None and f.p < POOR_FIT:
        out.append(f"  Warning: the Plackett-Luce model does not fit these tables (p < {POOR_FIT}): how well a bot "
                   "does depends on which bots share its table in a way one strength per bot does not capture; "
                   "read the strengths as a summary of these tables, not a prediction for others.")
    return out


def render_league(table: pd.DataFrame, league: League, fit: Fit | None = None) -> list[str]:
    """The lines `unosim league` prints."""
    n, k = league.players, len(league.tables)
    seatings = f"{league.orders} orders x {n} rotations" if league.orders > 1 else f"{n} rotations"
    out = [f"{len(league.bots)} bots, {k} tables of {n} ({league.deals:,} deals x {seatings} each, the same "
           f"deals at every table); strength = Plackett-Luce log-odds, 95% intervals from "
           f"{fit.replicates if fit else BOOTSTRAP} bootstrap resamples of the deals"]
    width = max(len(b) for b in table["bot"])
    out.append(f"  {'#':>2}  {'bot':<{width}}  strength  95% interval       win share    hands")
    for r in table.itertuples():
        out.append(f"  {r.rank:>2}  {r.bot:<{width}}  {r.strength:+8.3f}  [{r.low:+.3f}, {r.high:+.3f}]  "
                   f"{r.win_share:9.2%}  {r.hands:>7,}")
    out.append(f"  Even share at a table of {n}: {1 / n:.2%}.")
    if fit is not None:
        out += render_fit(fit)
    return out
