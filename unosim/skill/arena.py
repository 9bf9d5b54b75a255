"""The arena: one bot at a table of a field, every deal played once per seat rotation.

The tuner asks for the win share of thousands of candidate bots; each answer must be
cheap, fair and comparable with the others:

* fair: the bot under test sits at config seat 0, the field at the others, and every deal
  is played once per rotation (seating.py), so it plays every seat's cards from every
  seat;
* comparable: every bot of one question plays the same deals (the same seed and hand
  indices), so differences between candidates are not differences of luck (common random
  numbers);
* cheap: one kernel call per (bot, rotation) straight into a reused buffer, and only the
  winner column is read.  Building a config per candidate would validate it every time;
  instead the seat's block of ``P`` is written directly, in the registry's order, exactly
  as :func:`unosim.rules.config.to_params` would write it.

Figures come with per-deal counts, so intervals treat a deal (all its rotations) as the
independent unit: the rotations of one deal are not independent hands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from unosim.kernel.layout import O_STALLED, O_WIN_TEAM, O_WINNER
from unosim.run.botfile import Bot
from unosim.rules.config import RulesConfig, strategies, to_params
from unosim.rules.params import BOT_STRIDE, P_BOT0, P_WATCHERS
from unosim.rules.strategies import watches
from unosim.run.play import play_chunk
from unosim.run.seating import rotated_params
from unosim.analysis.stats import z_value

__all__ = ["Arena", "Share", "bot_block", "share_of"]


def bot_block(bot: Bot) -> np.ndarray:
    """The ``BOT_STRIDE`` floats of one seat in ``P``: the strategy code, then its
    parameters in the registry's order (bools 0/1, choices their index)."""
    code, spec = strategies()[bot.strategy]
    block = np.zeros(BOT_STRIDE)
    block[0] = float(code)
    for i, (p, (_, allowed)) in enumerate(spec.items()):
        v = bot.params[p]
        block[1 + i] = float(allowed.index(v)) if isinstance(v, str) else float(v)
    return block


@dataclass(frozen=True)
class Share:
    """A win share from per-deal counts: ``wins``/``decided`` per deal (over rotations).
    ``low``/``high``: the 95% interval of the ratio, deals as the independent unit."""

    wins: np.ndarray
    decided: np.ndarray

    @property
    def share(self) -> float:
        d = self.decided.sum()
        return float(self.wins.sum() / d) if d else float("nan")

    @property
    def se(self) -> float:
        """Standard error of the ratio estimator over deals (the delta method)."""
        k, d = len(self.wins), self.decided.sum()
        if k < 2 or not d:
            return float("nan")
        r = self.wins - self.share * self.decided
        return float(np.sqrt(k / (k - 1) * (r * r).sum()) / d)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        z = z_value(confidence)
        return self.share - z * self.se, self.share + z * self.se

    def minus(self, other: Share, confidence: float = 0.95) -> tuple[float, float, float]:
        """This share minus ``other`` measured on the same deals: (difference, low, high),
        paired by deal (so the deals' common luck cancels)."""
        k = len(self.wins)
        a = self.wins - self.share * self.decided
        b = other.wins - other.share * other.decided
        d1, d2 = self.decided.sum(), other.decided.sum()
        diff = self.share - other.share
        if k < 2 or not d1 or not d2:
            return diff, float("nan"), float("nan")
        se = float(np.sqrt(k / (k - 1) * ((a / d1 - b / d2) ** 2).sum()))
        z = z_value(confidence)
        return diff, diff - z * se, diff + z * se


def share_of(wins: np.ndarray, decided: np.ndarray) -> Share:
    return Share(np.asarray(wins, np.float64), np.asarray(decided, np.float64))


class Arena:
    """Config seat 0 holds the bot under test, seats 1..n-1 the ``field`` (one bot for all,
    or one per seat, cycled), under ``cfg``'s rules.  ``even`` is a seat's fair share: 1/n,
    or 1/teams under H12 (a win is then the bot's team winning)."""

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
        self.kernel_seconds = 0.0
        self.hands = 0

    def params(self, bot: Bot) -> np.ndarray:
        """``P`` with ``bot`` at config seat 0."""
        P = self.P.copy()
        P[P_BOT0:P_BOT0 + BOT_STRIDE] = bot_block(bot)
        P[P_WATCHERS] = float(self._watch or watches(bot.strategy, bot.params))
        return P

    def play(self, bots: list[Bot], seed: int, start: int, deals: int) -> list[Share]:
        """Deals ``start .. start+deals-1`` of ``seed``, each once per rotation, for every bot
        in turn at seat 0: one :class:`Share` per bot, all on the same deals."""
        return [self.play_params(self.params(b), seed, start, deals) for b in bots]

    def play_params(self, P: np.ndarray, seed: int, start: int, deals: int) -> Share:
        n = self.n
        wins = np.zeros(deals)
        decided = np.zeros(deals)
        for r in range(n):
            Q = rotated_params(P, n, r)
            t = time.perf_counter()
            rows = play_chunk(Q, seed, start, deals, self.workers, self._buffer)
            if self._buffer is None or len(rows) > len(self._buffer):
                self._buffer = rows  # kept for the next call: no fresh pages per candidate
            self.kernel_seconds += time.perf_counter() - t
            self.hands += deals
            ok = rows[:deals, O_STALLED] == 0
            if self.teams > 1:  # the team of config seat 0, which sits at seat r
                won = rows[:deals, O_WIN_TEAM] == r % self.teams
            else:
                won = rows[:deals, O_WINNER] == r
            wins += won & ok
            decided += ok
        return share_of(wins, decided)
