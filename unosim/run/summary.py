"""The one summary of a job: counts over the chunks played by this command.

Built by :meth:`Summary.add` on kernel rows or :meth:`Summary.merge` of Dask tasks'
summaries; the counts are sums, so chunk order does not change them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.kernel.layout import O_DEALER, O_POINTS0, O_STALLED, O_TURNS, O_WINNER
from unosim.run import outcomes
from unosim.run.jobs import Job, Mode

__all__ = ["Summary", "wall_seconds"]


@dataclass
class Summary:
    """What one job played now.  ``units``: hands, matches or deals; ``rows``: hands;
    ``started``/``ended``: ``time.perf_counter`` around the job's chunks."""

    label: str
    mode: Mode
    players: int
    finish: str = "first_out"
    backend: str = "local"
    rotations: int = 1
    units: int = 0
    rows: int = 0
    turns_sum: int = 0
    stalled: int = 0
    chunks_skipped: int = 0
    startup: float = 0.0
    started: float = 0.0
    ended: float = 0.0
    wins_from_dealer: np.ndarray = field(init=False)
    capped: int = 0
    pos_matches: int = 0
    neg_matches: int = 0
    pos_hands: int = 0
    neg_hands: int = 0
    pos_credit: np.ndarray = field(init=False)
    neg_credit: np.ndarray = field(init=False)
    chips_matches: int = 0
    chips_hands: int = 0
    chips_credit: np.ndarray = field(init=False)
    champ_pos: np.ndarray = field(init=False)
    champ_neg: np.ndarray = field(init=False)
    bot_wins: np.ndarray = field(init=False)
    bot_points_won: np.ndarray = field(init=False)
    bot_points_left: np.ndarray = field(init=False)
    bot_pos_credit: np.ndarray = field(init=False)
    bot_neg_credit: np.ndarray = field(init=False)
    bot_chips_credit: np.ndarray = field(init=False)
    bot_champ_pos: np.ndarray = field(init=False)
    bot_champ_neg: np.ndarray = field(init=False)
    notes: list[str] = field(default_factory=list)  # what resuming found (damaged parts replayed)
    part: Any = None  # a Dask task's part record (integrity.PartRecord), for the driver's journal

    def __post_init__(self) -> None:
        n = self.players
        self.wins_from_dealer = np.zeros(n, np.int64)
        self.pos_credit, self.neg_credit, self.chips_credit = np.zeros(n), np.zeros(n), np.zeros(n)
        self.champ_pos, self.champ_neg = np.zeros(n), np.zeros(n)
        self.bot_wins = np.zeros(n, np.int64)
        self.bot_points_won, self.bot_points_left = np.zeros(n), np.zeros(n)
        self.bot_pos_credit, self.bot_neg_credit, self.bot_chips_credit = np.zeros(n), np.zeros(n), np.zeros(n)
        self.bot_champ_pos, self.bot_champ_neg = np.zeros(n), np.zeros(n)

    @classmethod
    def of(cls, job: Job, backend: str = "local") -> Summary:
        rotations = job.rotations if job.mode.rotate_flag else 1
        return cls(job.name, job.mode, job.cfg.players, job.cfg.finish, backend, rotations)

    # ----------------------------------------------------------------------- counting

    def add(self, rows: np.ndarray, rotation: np.ndarray | None = None) -> None:
        """Count kernel rows (``rotation``: each row's rotation, for rotated deals); the mode
        counts the rest (:meth:`Mode.count`)."""
        self.rows += len(rows)
        self.turns_sum += int(rows[:, O_TURNS].sum())
        stalled = rows[:, O_STALLED] != 0
        self.stalled += int(stalled.sum())
        seats = self.mode.table_seats(self.players)
        self.wins_from_dealer[:seats] += outcomes.wins_from_dealer(rows[~stalled, O_WINNER], rows[~stalled, O_DEALER],
                                                                   seats)
        self.mode.count(self, rows, rotation)

    def add_champions(self, rows: np.ndarray, rotation: np.ndarray | None = None) -> None:
        """Tournaments: each player's S1 and S2 champion credit (and, rotated, each bot's),
        from each tournament's last row."""
        from unosim.engine.tournaments import T_CHAMP_NEG0, T_CHAMP_POS0, T_END  # a hands run never loads it

        n = self.players
        ends = rows[:, T_END] != 0
        last = rows[ends]
        self.units += len(last) // self.rotations
        for base, credit, by_bot in ((T_CHAMP_POS0, self.champ_pos, self.bot_champ_pos),
                                     (T_CHAMP_NEG0, self.champ_neg, self.bot_champ_neg)):
            share = outcomes.credit(last[:, base:base + n])
            credit += share.sum(axis=0)
            if rotation is not None:  # player p plays config player (p - rotation) mod n
                by_bot += outcomes.by_instance(share, rotation[ends])

    def add_matches(self, rows: np.ndarray, rotation: np.ndarray | None = None) -> None:
        """Matches: capped matches, and per scoring system the ended matches, their hands
        and the win credit by seat position after the first dealer (and, rotated, by bot)."""
        from unosim.engine.matches import (M_CAPPED, M_CHIPS0, M_CHIPS_END, M_HAND_IN_MATCH, M_MATCH, M_NEG0,
                                           M_NEG_END, M_POS0, M_POS_END)  # a hands run never loads it

        n = self.players
        self.capped += int((rows[:, M_CAPPED] != 0).sum())
        first = rows[:, M_HAND_IN_MATCH] == 0
        self.units += int(first.sum()) // self.rotations
        m0 = int(rows[0, M_MATCH]) if len(rows) else 0
        dealer0 = np.zeros(int(rows[:, M_MATCH].max()) - m0 + 1 if len(rows) else 0, np.int64)
        dealer0[rows[first, M_MATCH] - m0] = rows[first, O_DEALER]
        for end, base, system in ((M_POS_END, M_POS0, "pos"), (M_NEG_END, M_NEG0, "neg"),
                                  (M_CHIPS_END, M_CHIPS0, "chips")):
            at_end = rows[:, end] != 0
            ended = rows[at_end]
            if not len(ended):
                continue
            credit = outcomes.credit(outcomes.winners(ended[:, base: base + n], outcomes.BEST[system]))
            if rotation is not None:
                getattr(self, f"bot_{system}_credit")[:] += outcomes.by_instance(credit, rotation[at_end])
            by_pos = outcomes.credit_from_dealer(credit, dealer0[ended[:, M_MATCH] - m0])
            hands = int((ended[:, M_HAND_IN_MATCH] + 1).sum())
            setattr(self, f"{system}_matches", getattr(self, f"{system}_matches") + len(ended))
            setattr(self, f"{system}_hands", getattr(self, f"{system}_hands") + hands)
            getattr(self, f"{system}_credit")[:] += by_pos

    def add_bots(self, rows: np.ndarray, rotation: np.ndarray) -> None:
        """Rotated seats: wins and points per config seat (bot instance i sits at seat
        (i + rotation) mod n, seating.py)."""
        n = self.players
        w = rows[:, O_WINNER]
        inst = np.where(w >= 0, (w - rotation) % n, -1)
        self.bot_wins += np.bincount(inst[inst >= 0], minlength=n)[:n]
        pts = rows[:, O_POINTS0:O_POINTS0 + n].astype(np.float64)  # by seat
        idx = np.arange(len(rows))
        for i in range(n):
            mine = pts[idx, (i + rotation) % n]  # where instance i sat in each row
            self.bot_points_left[i] += mine.sum()
            self.bot_points_won[i] += (pts.sum(axis=1) - mine)[inst == i].sum()

    def merge(self, other: Summary) -> None:
        """Add another summary of the same job (a Dask task's chunk)."""
        for name in ("units", "rows", "turns_sum", "stalled", "capped", "pos_matches", "neg_matches",
                     "pos_hands", "neg_hands", "wins_from_dealer", "pos_credit", "neg_credit", "bot_wins",
                     "bot_points_won", "bot_points_left", "chips_matches", "chips_hands", "chips_credit",
                     "champ_pos", "champ_neg", "bot_pos_credit", "bot_neg_credit", "bot_chips_credit",
                     "bot_champ_pos", "bot_champ_neg"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    # ----------------------------------------------------------------------- figures

    @property
    def seconds(self) -> float:
        return max(0.0, self.ended - self.started)

    @property
    def hands(self) -> int:
        return self.rows

    @property
    def matches(self) -> int:
        return self.units if self.mode.matches else 0

    @property
    def hands_per_s(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else float("nan")

    @property
    def matches_per_s(self) -> float:
        return self.matches / self.seconds if self.seconds > 0 else float("nan")

    @property
    def mean_turns(self) -> float:
        return self.turns_sum / self.rows if self.rows else float("nan")

    def shares(self, system: str | None = None) -> np.ndarray:
        """None: the winner's seat relative to the dealer, share of decided hands (index 0
        the dealer).  ``"pos"`` (S1) / ``"neg"`` (S2): match win share by seat position
        after the first dealer (index 0 the seat that dealt the first hand)."""
        if system is None:
            total = self.wins_from_dealer.sum()
            return self.wins_from_dealer / total if total else self.wins_from_dealer.astype(float)
        m, c = getattr(self, f"{system}_matches"), getattr(self, f"{system}_credit")
        return c / m if m else np.full(self.players, np.nan)

    def mean_hands(self, system: str) -> float:
        """Mean hands per ended match under ``"pos"`` (S1), ``"neg"`` (S2) or ``"chips"`` (S4)."""
        m, h = getattr(self, f"{system}_matches"), getattr(self, f"{system}_hands")
        return h / m if m else float("nan")

    def match_bot_credit(self, system: str) -> tuple[np.ndarray, int]:
        """Each config seat's credit of the ``system``'s match wins, and the matches it ended."""
        return getattr(self, f"bot_{system}_credit"), getattr(self, f"{system}_matches")

    def champion_bot_credit(self, system: str) -> tuple[np.ndarray, int]:
        """Each config player's credit of the S1 (``"pos"``) or S2 (``"neg"``) titles, and
        the tournaments played (every rotation)."""
        return self.bot_champ_pos if system == "pos" else self.bot_champ_neg, self.units * self.rotations

    def champion_shares(self, system: str) -> np.ndarray:
        """Tournaments: each player's share of the S1 (``"pos"``) or S2 (``"neg"``) titles."""
        c = self.champ_pos if system == "pos" else self.champ_neg
        plays = self.units * self.rotations
        return c / plays if plays else np.full(self.players, np.nan)

    def bot_shares(self, system: str) -> np.ndarray:
        """Rotated matches and tournaments: each config seat's (bot instance's) share of
        the ``system``'s match wins (``pos``, ``neg``, ``chips``) or, in a tournament, of
        its S1/S2 titles (``pos``, ``neg``), over every rotation."""
        c, plays = self.mode.bot_credit(self, system)
        return c / plays if plays else np.full(self.players, np.nan)


def wall_seconds(summaries: list[Summary]) -> float:
    """Wall time of jobs run together: first start to last end of those that played."""
    played = [s for s in summaries if s.ended > s.started]
    return max(s.ended for s in played) - min(s.started for s in played) if played else 0.0
