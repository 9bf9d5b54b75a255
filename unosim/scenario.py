"""Build a hand in any position and drive the compiled engine from it (scenario tests,
notebooks)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from unosim.rules import cards
from unosim.rules.config import RulesConfig, default_config, to_params
from .engine import hand as H
from .engine import search, search_batch
from unosim.kernel import layout as L
from unosim.kernel.table import add_card


def _kinds(text: str | Iterable[str]) -> list[int]:
    items = text.split() if isinstance(text, str) else list(text)
    return [cards.parse(t) for t in items]


@dataclass
class Scenario:
    """A hand in progress: the kernel's arrays plus readable accessors."""

    cfg: RulesConfig
    st: np.ndarray
    P: np.ndarray
    rng: np.ndarray
    log: np.ndarray = field(default_factory=lambda: np.zeros((10_000, L.LOG_WIDTH), np.int64))
    ctx: np.ndarray | None = None  # the search seats' context (unosim.engine.search), if any

    @classmethod
    def build(cls, hands: Mapping[int, str], top: str, *, cfg: RulesConfig | None = None,
              color: str | None = None, cur: int = 0, direction: int = 1, dealer: int | None = None,
              draw: str = "", discard: str = "", seed: int = 12345, **rules) -> "Scenario":
        """``hands``: seat -> card names; ``top``: the top discard; ``draw``: the draw pile in
        the order it will be drawn; ``discard``: cards under the top; ``rules``: config
        keys to change (``stacking="draw2"``)."""
        if cfg is None:
            cfg = default_config(**rules)
        elif rules:
            cfg = cfg.replace(**rules)
        P = to_params(cfg)
        ctx = None
        if search_batch.has_search(P):
            P, ctx = search_batch.split_params(P)
        st = np.zeros(L.N_STATE, np.int64)
        n = cfg.players
        H.reset(st, P, (cur - 1) % n if dealer is None else dealer)
        for seat, text in hands.items():
            for k in _kinds(text):
                add_card(st, seat, k, 1)
        pile = _kinds(draw)[::-1]  # the top of the pile is the end of the array
        st[L.S_DRAW0:L.S_DRAW0 + len(pile)] = pile
        st[L.S_NDRAW] = len(pile)
        st[L.S_PILE_KNOWN] = len(pile)  # drawn in the order given
        below = _kinds(discard) + [cards.parse(top)]
        st[L.S_DISC0:L.S_DISC0 + len(below)] = below
        st[L.S_NDISC] = len(below)
        t = below[-1]
        st[L.S_TOP] = t
        st[L.S_COLOR] = cards.COLOR_LETTERS.index(color[0].upper()) if color else cards.color_of(t)
        st[L.S_CUR] = cur
        st[L.S_FIRST] = cur
        st[L.S_DIR] = direction
        st[L.S_TOTAL] = int(st[L.S_HS0:L.S_HS0 + n].sum()) + len(pile) + len(below)
        if ctx is not None:  # a window opened by a play() waits for the search seats too (engine.jump)
            st[L.S_JUMPERS] = search.jumpers(ctx, n)
        rng = np.array([seed], np.uint64)
        return cls(cfg, st, P, rng, ctx=ctx)

    # ------------------------------------------------------------------ acting
    def step(self) -> "Scenario":
        """One move of the hand loop (a turn, or a pending penalty resolved)."""
        if self.ctx is None:
            H.step(self.st, self.P, self.rng, self.log)
        else:
            search.step_at(self.st, self.P, self.rng, self.log, self.ctx)
        return self

    def run(self, max_steps: int = 100_000) -> "Scenario":
        for _ in range(max_steps):
            if self.done:
                break
            self.step()
        return self

    def play(self, seat: int, card: str) -> "Scenario":
        """Seat puts ``card`` down and everything that follows happens (as in a turn)."""
        k = cards.parse(card)
        if self.st[L.S_HAND0 + seat * L.N_KINDS + k] <= 0:
            raise ValueError(f"seat {seat} does not hold {card}")
        H.begin_turn(self.st, self.P, self.rng, self.log, seat)
        H.play_card(self.st, self.P, self.rng, self.log, seat, k)
        return self

    def turn(self, seat: int | None = None) -> "Scenario":
        """Seat (default: the one to act) takes a turn, its bot choosing (one step)."""
        if seat is not None:
            self.st[L.S_CUR] = seat
        return self.step()

    # ------------------------------------------------------------------ reading
    def hand(self, seat: int) -> list[str]:
        base = L.S_HAND0 + seat * L.N_KINDS
        return [cards.name(k) for k in range(L.N_KINDS) for _ in range(int(self.st[base + k]))]

    def count(self, seat: int) -> int:
        return int(self.st[L.S_HS0 + seat])

    def draw_pile(self) -> list[str]:
        """The draw pile in drawing order."""
        n = int(self.st[L.S_NDRAW])
        return [cards.name(int(k)) for k in self.st[L.S_DRAW0:L.S_DRAW0 + n][::-1]]

    def discard_pile(self) -> list[str]:
        n = int(self.st[L.S_NDISC])
        return [cards.name(int(k)) for k in self.st[L.S_DISC0:L.S_DISC0 + n]]

    def __getitem__(self, slot: int) -> int:
        """A scalar of the state vector by its layout name: ``sc[L.S_TURNS]``."""
        return int(self.st[slot])

    @property
    def cur(self) -> int:
        return int(self.st[L.S_CUR])

    @property
    def top(self) -> str:
        return cards.name(int(self.st[L.S_TOP]))

    @property
    def color(self) -> str:
        return cards.COLOR_LETTERS[int(self.st[L.S_COLOR])]

    @property
    def done(self) -> bool:
        return bool(self.st[L.S_DONE])

    @property
    def winner(self) -> int:
        return int(self.st[L.S_WINNER])

    def events(self) -> list[tuple[int, int, int, int]]:
        return [tuple(int(x) for x in row) for row in self.log[: self.st[L.S_NLOG]]]

    def cards_in_play(self) -> int:
        """Every card in hands and piles: constant through a hand (the invariant tests use it)."""
        n = self.cfg.players
        return int(self.st[L.S_HS0:L.S_HS0 + n].sum() + self.st[L.S_NDRAW] + self.st[L.S_NDISC])


def first_turn(cfg: RulesConfig, seed: int, dealer: int = 0) -> np.ndarray:
    """The state of a hand shuffled from ``seed``, dealt by ``dealer`` and with its first
    card turned (R2, R3), as :func:`unosim.engine.hand.play_hand` starts every hand: for
    tests of the deal and the first card (R3, H15, H16, H21)."""
    from unosim.kernel.piles import build_deck
    P = to_params(cfg)
    st = np.zeros(L.N_STATE, np.int64)
    rng = np.array([seed], np.uint64)
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    H.reset(st, P, dealer)
    build_deck(st, P)
    H.deal(st, P, rng, log)
    H.turn_first_card(st, P, rng, log)
    return st
