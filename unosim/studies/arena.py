"""The arena: one bot at a table of a field, every deal played once per seat rotation.

The candidate sits at config seat 0 and every candidate of a question plays the same deals;
it is measured by an :class:`Objective` (docs/bots.md, "Tuning a bot").
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from unosim.engine.matches import M_CHIPS0, M_CHIPS_END, M_MATCH, M_NEG0, M_NEG_END, M_POS0, M_POS_END
from unosim.kernel.layout import O_POINTS0, O_RANK0, O_STALLED, O_WIN_TEAM, O_WINNER
from unosim.rules.botfile import Bot
from unosim.rules.config import RulesConfig, encode_rollout, encode_seat, to_params
from unosim.rules.params import P_WATCHERS, rollout_slots, seat_slots
from unosim.rules.strategies import watches
from unosim.run.jobs import DEFAULT_MAX_HANDS, RunError
from unosim.run.play import Slabs, play_chunk, play_match_chunk
from unosim.run.seating import rotated_params
from unosim.run.workers import kernel_workers
from unosim.analysis.stats import clustered_share, normal_interval, ratio_estimate, z_value

__all__ = ["Arena", "OBJECTIVES", "Objective", "Share", "share_of"]

OBJECTIVES = ("hands", "points", "matches", "matches:s1", "matches:s2", "matches:s4")
"""What ``--objective`` accepts (``matches`` is ``matches:s1``)."""
SLICE_HANDS = 50_000
"""Hands per kernel call of a measurement (matches: :data:`SLICE_MATCHES`).  The kernel runs
without the GIL and cannot be stopped, so Ctrl-C is seen between calls: a slice keeps that
wait short however many deals a check plays.  Rows never depend on the slicing (each hand
has its own stream)."""
SLICE_MATCHES = 5_000
_SYSTEM = {"s1": (M_POS_END, M_POS0, 1), "s2": (M_NEG_END, M_NEG0, -1), "s4": (M_CHIPS_END, M_CHIPS0, 1)}


@dataclass(frozen=True)
class Objective:
    """What a bot is measured by (module docstring): ``kind`` hands, points or matches,
    and for matches the scoring ``system`` (s1, s2, s4)."""

    kind: str = "hands"
    system: str = "s1"

    @classmethod
    def parse(cls, text: str | Objective, option: str = "--objective") -> Objective:
        """``hands``, ``points``, ``matches`` or ``matches:s1|s2|s4``; anything else is a
        one-line :class:`RunError` naming ``option`` and the allowed values."""
        if isinstance(text, Objective):
            return text
        if text not in OBJECTIVES:
            raise RunError(f"{option}: {text!r} is not one of {', '.join(OBJECTIVES)}")
        kind, _, system = text.partition(":")
        return cls(kind, system or "s1")

    @property
    def name(self) -> str:
        return f"matches:{self.system}" if self.kind == "matches" else self.kind

    @property
    def is_share(self) -> bool:
        """A share (hands, matches: printed as %), else a mean of points."""
        return self.kind != "points"

    def format(self, value: float, signed: bool = False) -> str:
        if self.is_share:
            return f"{value:+.2%}" if signed else f"{value:.2%}"
        return f"{value:+.2f}" if signed else f"{value:.2f}"


@dataclass(frozen=True)
class Share:
    """A win share from per-deal counts: ``wins``/``decided`` per deal (over rotations).
    ``low``/``high``: the 95% interval of the ratio, deals as the independent unit."""

    wins: np.ndarray
    decided: np.ndarray
    bounded: bool = True
    """A share of wins, within [0, 1] (False: points per hand, which no bound holds)."""

    @property
    def share(self) -> float:
        return ratio_estimate(self.wins, self.decided)[0]

    @property
    def se(self) -> float:
        """Standard error of the ratio estimator over deals (the delta method)."""
        return ratio_estimate(self.wins, self.decided)[1]

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The cluster-robust interval, deals as clusters; a share's within [0, 1]."""
        iv = (clustered_share(self.wins, self.decided, confidence) if self.bounded
              else normal_interval(self.share, self.se, z_value(confidence)))
        return iv.low, iv.high

    def minus(self, other: Share, confidence: float = 0.95) -> tuple[float, float, float]:
        """This share minus ``other`` measured on the same deals: (difference, low, high),
        paired by deal (so the deals' common luck cancels)."""
        bound = 1.0 if self.bounded and other.bounded else math.inf
        iv = normal_interval(self.share - other.share, self.difference_se(other), z_value(confidence), -bound, bound)
        return iv.estimate, iv.low, iv.high

    def difference_se(self, other: Share, scale: float = 1.0, other_scale: float = 1.0) -> float:
        """Standard error of ``scale * self.share - other_scale * other.share``, the two measured
        on the same deals (the delta method over the pairs)."""
        k = len(self.wins)
        d1, d2 = self.decided.sum(), other.decided.sum()
        if k < 2 or len(other.wins) != k or not d1 or not d2:
            return float("nan")
        a = self.wins - self.share * self.decided
        b = other.wins - other.share * other.decided
        return float(np.sqrt(k / (k - 1) * ((scale * a / d1 - other_scale * b / d2) ** 2).sum()))


def share_of(wins: np.ndarray, decided: np.ndarray, bounded: bool = True) -> Share:
    return Share(np.asarray(wins, np.float64), np.asarray(decided, np.float64), bounded)


class Arena:
    """Config seat 0 holds the bot under test, seats 1..n-1 the ``field`` (cycled), under
    ``cfg``'s rules; ``even`` is a seat's fair share (1/n, or 1/teams under H12)."""

    def __init__(self, cfg: RulesConfig, field: list[Bot], workers: int) -> None:
        if not field:
            raise ValueError("the field needs at least one bot")
        n = cfg.players
        seats = [field[0].entry()] + [field[(i - 1) % len(field)].entry() for i in range(1, n)]
        self.cfg = cfg.with_values({"seats": seats})
        self.n = n
        self.teams = int(cfg.teams)
        self.even = 1.0 / self.teams if self.teams > 1 else 1.0 / n
        self.workers = workers
        self.P = to_params(self.cfg)
        self._watch = any(watches(b.strategy, b.params) for b in field[: n - 1])
        self._buffer: np.ndarray | None = None
        self._slabs: Slabs | None = None
        self.kernel_seconds = 0.0
        self.hands = 0

    def params(self, bot: Bot) -> np.ndarray:
        """``P`` with ``bot`` at config seat 0."""
        P = self.P.copy()
        P[seat_slots(0)] = encode_seat(bot.strategy, bot.params)
        P[rollout_slots(0)] = encode_rollout(bot.strategy, bot.params)
        P[P_WATCHERS] = float(self._watch or watches(bot.strategy, bot.params))
        return P

    def play(self, bots: list[Bot], seed: int, start: int, deals: int,
             objective: str | Objective = "hands") -> list[Share]:
        """Deals ``start .. start+deals-1`` of ``seed`` for every bot in turn at seat 0: one
        :class:`Share` of the ``objective`` per bot, all on the same deals."""
        obj = Objective.parse(objective)
        return [self.measure(self.params(b), seed, start, deals, obj)[obj.name] for b in bots]

    def measure(self, P: np.ndarray, seed: int, start: int, count: int,
                objective: Objective) -> dict[str, Share]:
        """Every figure one kernel pass gives: ``hands`` and ``points`` from ``count``
        deals, or ``matches:s1``, ``:s2`` and ``:s4`` from ``count`` matches."""
        if objective.kind == "matches":
            return self.play_matches(P, seed, start, count)
        return self.play_hands(P, seed, start, count)

    def play_hands(self, P: np.ndarray, seed: int, start: int, deals: int) -> dict[str, Share]:
        n = self.n
        wins = np.zeros(deals)
        decided = np.zeros(deals)
        points = np.zeros(deals)
        for r in range(n):
            Q = rotated_params(P, n, r)
            for a in range(0, deals, SLICE_HANDS):
                m = min(SLICE_HANDS, deals - a)
                rows = self._hands(Q, seed, start + a, m)
                ok = rows[:, O_STALLED] == 0
                if self.teams > 1:  # the team of config seat 0, which sits at seat r
                    won = rows[:, O_WIN_TEAM] == r % self.teams
                else:
                    won = rows[:, O_WINNER] == r
                wins[a:a + m] += won & ok
                decided[a:a + m] += ok
                points[a:a + m] += self._points(rows, r, ok)
        return {"hands": share_of(wins, decided), "points": share_of(points, np.full(deals, float(n)), bounded=False)}

    def _hands(self, Q: np.ndarray, seed: int, start: int, count: int) -> np.ndarray:
        """Kernel rows of hands ``start .. start+count-1``, played into the reused buffer."""
        t = time.perf_counter()
        with kernel_workers(self.workers):
            rows = play_chunk(Q, seed, start, count, self.workers, self._buffer)
        if self._buffer is None or len(rows) > len(self._buffer):
            self._buffer = rows  # kept for the next call: no fresh pages per candidate
        self.kernel_seconds += time.perf_counter() - t
        self.hands += count
        return rows[:count]

    def _points(self, rows: np.ndarray, seat: int, ok: np.ndarray) -> np.ndarray:
        """Per hand, the S1 points the side of ``seat`` scores minus the S2 points it adds
        (module docstring); 0 for a stalled hand."""
        n, teams = self.n, self.teams
        side = np.arange(n) % teams if teams > 1 else np.arange(n)
        mine = side == side[seat]
        if self.cfg.finish == "last_standing":
            gain = (n + 1 - 2 * rows[:, O_RANK0:O_RANK0 + n][:, mine]).sum(axis=1).astype(np.float64)
        else:
            pts = rows[:, O_POINTS0:O_POINTS0 + n].astype(np.float64)
            won = side[np.clip(rows[:, O_WINNER], 0, n - 1)] == side[seat]
            gain = np.where(won, pts[:, ~mine].sum(axis=1), -pts[:, mine].sum(axis=1))
        return np.where(ok, gain, 0.0)

    def play_matches(self, P: np.ndarray, seed: int, start: int, matches: int) -> dict[str, Share]:
        """Matches ``start .. start+matches-1``, each once per rotation with a stream per
        hand: the bot's side's match win credit under S1, S2 and S4, per match."""
        n = self.n
        if self._slabs is None:
            self._slabs = Slabs(self.workers, DEFAULT_MAX_HANDS)
        credit = {k: np.zeros(matches) for k in _SYSTEM}
        ended = {k: np.zeros(matches) for k in _SYSTEM}
        for r, a in itertools.product(range(n), range(0, matches, SLICE_MATCHES)):
            Q = rotated_params(P, n, r)
            t = time.perf_counter()
            with kernel_workers(self.workers):
                rows = play_match_chunk(Q, seed, start + a, min(SLICE_MATCHES, matches - a), self.workers,
                                        DEFAULT_MAX_HANDS, self._slabs, split=True)
            self.kernel_seconds += time.perf_counter() - t
            self.hands += len(rows)
            for k, (end, base, sign) in _SYSTEM.items():
                last = rows[rows[:, end] != 0]
                if not len(last):
                    continue
                totals = sign * last[:, base:base + n]
                win = totals == totals.max(axis=1, keepdims=True)
                share = win[:, r] / win.sum(axis=1)
                if self.teams > 1:  # every member of the winning team shows its total: the team's credit
                    share = win[:, r] / (win.sum(axis=1) / (n // self.teams))
                m = last[:, M_MATCH] - start
                credit[k] += np.bincount(m, weights=share, minlength=matches)
                ended[k] += np.bincount(m, minlength=matches)
        return {f"matches:{k}": share_of(credit[k], ended[k]) for k in _SYSTEM}
