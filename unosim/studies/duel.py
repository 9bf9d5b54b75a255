"""`unosim duel A B`: two bots compared fairly at any table size, as A - B with an interval.

Both bots play every seat pattern on every deal, so the deal's luck cancels from A - B;
without ``others`` each sits alone at a table of the other.  Details: docs/which_bot.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from unosim.engine.matches import M_MATCH, M_POS0, M_POS_END
from unosim.kernel.layout import O_POINTS0, O_STALLED, O_WINNER
from unosim.rules.config import ConfigError, RulesConfig, default_config, to_params
from unosim.rules.botfile import is_bot_file, load_bot_file, parse_spec
from unosim.run.jobs import RunError
from unosim.run import outcomes
from unosim.run.bounds import DEFAULT_MAX_HANDS
from unosim.run.play import Slabs, play_chunk, play_match_chunk
from unosim.run.seating import rotated_params
from unosim.run.workers import check_workers, kernel_workers
from unosim.analysis.stats import normal_interval, z_value
from unosim.studies.arena import Share, share_of

__all__ = ["DuelLine", "DuelResult", "MatchDuelResult", "duel", "duel_kernels", "duel_matches", "parse_bot", "render",
           "render_matches"]

CHUNK = 100_000
"""Deals per kernel call (rows of one call: this many)."""
MAX_DEALS = 10_000_000
"""Deals one duel may play: the per-deal counts are held in memory."""
MATCH_CHUNK = 2_000
"""Matches per kernel call (a match of the official rules is some 10-30 rows)."""
MAX_MATCHES = 1_000_000
"""Matches one duel may play per seating."""


def parse_bot(spec: str, where: str = "bot") -> str | dict[str, Any]:
    """``name`` or ``name:param=value,...`` -> a ``[bots] seats`` entry (validated later
    against STRATEGIES by the config); a bot file (``.toml``) -> its entry."""
    if is_bot_file(spec):
        return load_bot_file(spec, where).entry()
    return parse_spec(spec, where)


def bot_name(spec: str, where: str = "bot") -> str:
    """A bot's label: a bot file's ``name`` (else its stem), otherwise the spec as given."""
    if is_bot_file(spec):
        return load_bot_file(spec, where).name
    return spec.strip()


@dataclass(frozen=True)
class DuelLine:
    """One bot's figures where it sits alone (``seats`` > 1: the pooled ``others``,
    figures per seat)."""

    label: str
    seats: int
    wins: float
    decided: int
    share: float
    low: float
    high: float
    points_won: float
    points_left: float


@dataclass(frozen=True)
class DuelResult:
    cfg: RulesConfig
    deals: int
    seatings: int          # per deal
    hands: int
    stalled: int
    lines: tuple[DuelLine, ...]
    diff: float            # A's share - B's share
    diff_low: float
    diff_high: float
    others: str | None     # the label of the other seats' bot, None when A and B fill the table

    @property
    def rotations(self) -> int:
        return self.cfg.players


def _table(base: RulesConfig, seats: list[Any], roles: list[str], players: int) -> RulesConfig:
    """One seating's config; a bad bot is blamed on the argument that named it (A, B or
    --others), not on the config's seat list the user never wrote."""
    try:
        return base.with_values({"players": players, "seats": seats})
    except ConfigError as e:
        msg = str(e)
        for s, role in enumerate(roles):
            prefix = f"bots.seats[{s}]"
            if msg.startswith(prefix):
                arg = {"A": "A", "B": "B", "O": "--others"}[role]
                raise ConfigError(arg + msg[len(prefix):], arg) from None
        raise


def _named(entry: Any, name: str) -> dict[str, Any]:
    """A seat entry with its label ``name`` (labels never reach the kernel)."""
    return {**({"strategy": entry} if isinstance(entry, str) else entry), "name": name}


def seatings(players: int, with_others: bool) -> list[list[str]]:
    """The config seatings (a role per seat: A, B or O) a duel plays, each in every
    rotation (module docstring)."""
    n = players
    if with_others:
        return [["A"] + ["B" if s == k else "O" for s in range(1, n)] for k in range(1, n)]
    if n == 2:
        return [["A", "B"]]
    return [["A"] + ["B"] * (n - 1), ["B"] + ["A"] * (n - 1)]


class _Tally:
    """Per-deal wins and decided hands of one role where it sits alone, and its points."""

    def __init__(self, deals: int) -> None:
        self.wins = np.zeros(deals)
        self.decided = np.zeros(deals)
        self.won = 0.0
        self.left = 0.0
        self.hands = 0

    def share(self) -> Share:
        """The win share with its standard error, deals as the independent unit."""
        return share_of(self.wins, self.decided)


def _tables(a: str, b: str, players: int, seed: int, others: str | None,
            cfg: RulesConfig | None) -> list[tuple[list[str], RulesConfig]]:
    """The arguments every duel shares, checked, and its seatings' configs (roles, config)."""
    if not 2 <= players <= 10:
        raise RunError(f"--players: a duel needs between 2 and 10 players (got {players})")
    if not 0 <= seed < 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    if others is not None and players == 2:
        raise RunError("--others: a table of 2 has no other seats; drop --others or pass --players 3 or more")
    base = cfg if cfg is not None else default_config()
    specs = {"A": (a, "A"), "B": (b, "B")}
    if others is not None:
        specs["O"] = (others, "--others")
    # each seat named by its role, so two bots of one name (two tuned files both called
    # "tuned", or searches over them) stay two bots at the table: a duel tells them by role
    entries = {r: _named(parse_bot(spec, where), f"{r}: {bot_name(spec, where)}") for r, (spec, where) in specs.items()}
    return [(roles, _table(base, [entries[r] for r in roles], roles, players))
            for roles in seatings(players, others is not None)]


def duel_kernels(a: str, b: str, *, players: int = 2, seed: int = 0, others: str | None = None,
                 cfg: RulesConfig | None = None, matches: bool = False) -> tuple[str, ...]:
    """The kernels (:data:`unosim.run.warmup.KERNELS`) the duel's tables play, after the
    checks every duel makes: a command announces their compile before the first deal."""
    from unosim.run.warmup import kernel_for

    kind = "matches" if matches else "hands"
    return tuple(sorted({kernel_for(kind, table) for _, table in _tables(a, b, players, seed, others, cfg)}))


def duel(a: str, b: str, *, players: int = 2, hands: int = 20_000, seed: int = 0, others: str | None = None,
         cfg: RulesConfig | None = None, workers: int | None = None, confidence: float = 0.95) -> DuelResult:
    """Play ``hands`` deals in every seating of A and B (module docstring) under ``cfg``'s
    rules (the official rules by default)."""
    if not 1 <= hands <= MAX_DEALS:
        raise RunError(f"--hands: must be between 1 and {MAX_DEALS:,} deals (got {hands:,})")
    tables = _tables(a, b, players, seed, others, cfg)
    w = check_workers(workers)
    n = players
    tally = {r: _Tally(hands) for r in ("A", "B", "O")}
    rows_total = stalled = 0
    buffer = None
    for roles, table in tables:
        P = to_params(table)
        alone = [r for r in ("A", "B") if roles.count(r) == 1] + (["O"] if "O" in roles else [])
        for rot in range(n):
            Q = rotated_params(P, n, rot)
            for start in range(0, hands, CHUNK):
                count = min(CHUNK, hands - start)
                with kernel_workers(w):
                    rows = play_chunk(Q, seed, start, count, w, buffer)
                if buffer is None or len(rows) > len(buffer):
                    buffer = rows
                rows = rows[:count]
                ok = (rows[:, O_STALLED] == 0) & (rows[:, O_WINNER] >= 0)
                rows_total += count
                stalled += int(count - ok.sum())
                winner_inst = np.where(ok, (rows[:, O_WINNER] - rot) % n, -1)  # config seat of the winner
                pts = rows[:, O_POINTS0:O_POINTS0 + n].astype(np.float64)   # by seat
                own = pts[np.arange(count), np.maximum(rows[:, O_WINNER], 0)]
                scored = pts.sum(axis=1) - own      # S1: what the winner scores, the cards the others hold
                sl = slice(start, start + count)
                for r in alone:
                    t = tally[r]
                    inst = [s for s in range(n) if roles[s] == r]
                    won = np.isin(winner_inst, inst)
                    t.decided[sl] += ok
                    t.wins[sl] += won
                    t.hands += count
                    t.left += pts[:, [(s + rot) % n for s in inst]].sum()
                    t.won += scored[won].sum()
    lines, diff, low, high = _summary(tally, a, b, others, n, confidence, left=True)
    return DuelResult(tables[0][1], hands, len(tables) * n, rows_total, stalled, lines, diff, low, high,
                      None if others is None else bot_name(others, "--others"))


def _summary(tally: dict[str, _Tally], a: str, b: str, others: str | None, n: int, confidence: float, *,
             left: bool) -> tuple[tuple[DuelLine, ...], float, float, float]:
    """A duel's lines (A, B, the others per seat) and A - B with its interval, paired by
    unit; ``left``: report the points left in hand (hand duels)."""
    z = z_value(confidence)
    labels = {"A": "A: " + bot_name(a, "A"), "B": "B: " + bot_name(b, "B")}
    if others is not None:
        labels["O"] = f"others: {bot_name(others, '--others')} x{n - 2}"
    lines = []
    for r in labels:
        t = tally[r]
        k = 1 if r != "O" else n - 2
        sh = t.share()
        s, se = sh.share, sh.se
        units = max(t.hands, 1)
        iv = normal_interval(s / k, se / k, z, 0.0, 1.0)
        lines.append(DuelLine(labels[r], k, float(t.wins.sum()), int(t.decided.sum()), s / k, iv.low, iv.high,
                              t.won / units / k, t.left / units / k if left else float("nan")))
    return (tuple(lines), *tally["A"].share().minus(tally["B"].share(), confidence))


def _seating(others: str | None, n: int) -> str:
    """How a duel seats A and B, in words."""
    if others is not None:
        return f"A and B at a table of {others}, every placement x {n} rotations"
    return "both seats" if n == 2 else f"each alone at a table of the other, x {n} rotations"


def render(res: DuelResult) -> list[str]:
    """The lines `unosim duel` prints."""
    n = res.cfg.players
    out = [f"{n} players, {res.deals:,} deals x {res.seatings} seatings ({_seating(res.others, n)}) = {res.hands:,} "
           f"hands ({res.stalled:,} stalled)"]
    return out + _table_lines(res, "win share", "points won/hand  points left/hand",
                              lambda x: f"{x.points_won:15.2f}  {x.points_left:16.2f}", "win", "deal")


def _table_lines(res: DuelResult | MatchDuelResult, col: str, head: str, figures: Callable[[DuelLine], str],
                 what: str, unit: str) -> list[str]:
    """What every duel prints below its first line: each bot's share (``col``) with its
    interval and ``figures`` (headed ``head``), then A - B (``what`` share, paired by ``unit``)."""
    n = res.cfg.players
    a, b = res.lines[0].label[3:], res.lines[1].label[3:]
    col = "alone vs other" if res.others is None and n > 2 else col
    width = max(len(x.label) for x in res.lines)
    out = [f"  {'bot':<{width}}  {col:<14}  95% interval      {head}"]
    for x in res.lines:
        share = f"{x.share:8.2%}" if x.seats == 1 else f"{x.share:8.2%}*"
        out.append(f"  {x.label:<{width}}  {share:<14}  [{x.low:6.2%}, {x.high:6.2%}]  {figures(x)}")
    out.append(f"  A - B ({a} - {b}): {100 * res.diff:+.2f} points of {what} share "
               f"[{100 * res.diff_low:+.2f}, {100 * res.diff_high:+.2f}] (95%, paired by {unit})")
    if any(x.seats > 1 for x in res.lines):
        out.append(f"  * per seat of the others (their seats together: wins x{n - 2}). Even share: {1 / n:.2%} per seat.")
    else:
        out.append(f"  Even share: {1 / n:.2%} per seat.")
    return out


# --------------------------------------------------------------------------- matches


@dataclass(frozen=True)
class MatchDuelResult:
    cfg: RulesConfig
    matches: int           # per seating
    seatings: int
    played: int            # matches played in all
    undecided: int         # stopped by max_hands before S1 ended
    hands: int             # hands played in all
    lines: tuple[DuelLine, ...]  # wins: S1 match credit; points_won: S1 total at the end, per match
    diff: float
    diff_low: float
    diff_high: float
    others: str | None

    @property
    def target(self) -> int:
        return int(self.cfg.match_target)


def duel_matches(a: str, b: str, *, players: int = 2, matches: int = 1_000, seed: int = 0, others: str | None = None,
                 cfg: RulesConfig | None = None, workers: int | None = None, confidence: float = 0.95,
                 max_hands: int = DEFAULT_MAX_HANDS) -> MatchDuelResult:
    """Play ``matches`` matches to ``match_target`` in every seating of A and B: each bot's
    share of the S1 matches won where it sits alone, and A - B paired by match."""
    if not 1 <= matches <= MAX_MATCHES:
        raise RunError(f"--matches: must be between 1 and {MAX_MATCHES:,} matches (got {matches:,})")
    tables = _tables(a, b, players, seed, others, cfg)
    w = check_workers(workers)
    n = players
    tally = {r: _Tally(matches) for r in ("A", "B", "O")}
    played = undecided = hands = 0
    slabs = Slabs(w, max_hands)
    for roles, table in tables:
        P = to_params(table)
        alone = [r for r in ("A", "B") if roles.count(r) == 1] + (["O"] if "O" in roles else [])
        for rot in range(n):
            Q = rotated_params(P, n, rot)
            for start in range(0, matches, MATCH_CHUNK):
                count = min(MATCH_CHUNK, matches - start)
                with kernel_workers(w):
                    rows = play_match_chunk(Q, seed, start, count, w, max_hands, slabs, split=True)
                hands += len(rows)
                played += count
                end = rows[rows[:, M_POS_END] == 1]
                undecided += count - len(end)
                m = end[:, M_MATCH]
                totals = end[:, M_POS0:M_POS0 + n]
                credit = outcomes.credit(outcomes.winners(totals, "max"))   # by seat
                for r in alone:
                    t = tally[r]
                    seats = [(s + rot) % n for s in range(n) if roles[s] == r]  # where the config's seats sit
                    t.decided[m] += 1
                    t.wins[m] += credit[:, seats].sum(axis=1)
                    t.hands += len(end)
                    t.won += totals[:, seats].sum()
    lines, diff, low, high = _summary(tally, a, b, others, n, confidence, left=False)
    return MatchDuelResult(tables[0][1], matches, len(tables) * n, played, undecided, hands, lines, diff, low, high,
                           None if others is None else bot_name(others, "--others"))


def render_matches(res: MatchDuelResult) -> list[str]:
    """The lines `unosim duel --matches` prints."""
    n = res.cfg.players
    out = [f"{n} players, matches to {res.target:,} points (S1): {res.matches:,} matches x {res.seatings} seatings "
           f"({_seating(res.others, n)}) = {res.played:,} matches, {res.hands:,} hands ({res.undecided:,} stopped "
           "by max_hands)"]
    return out + _table_lines(res, "match wins", "S1 total at the end", lambda x: f"{x.points_won:19.1f}",
                              "match-win", "match")
