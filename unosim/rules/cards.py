"""Card kinds as small integer codes (docs/rules.md R1).

A card *kind* is one of 54 codes: ``colour * 13 + rank`` for the 52 coloured kinds
(ranks 0-9, then Skip, Reverse, Draw Two) and two wild kinds after them.  Hands are
stored as per-kind counts, so "two red 5s" is the number 2 in slot ``R5``; the
compiled engine never sees a Python object, only these codes.
"""

from __future__ import annotations

import numpy as np

RULES = ("R1", "H17")

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
N_COLORS = 4
COLOR_LETTERS = "RYGB"
COLOR_NAMES = ("red", "yellow", "green", "blue")

SKIP, REVERSE, DRAW2 = 10, 11, 12    # ranks of the symbol cards; 0-9 are the numbers
NUMBER_MAX = 9                       # highest number rank (H2, H10, H11, H16 read "a number")
RANKS_PER_COLOR = 13
WILD = 52                            # the first wild kind: every k >= WILD is a wild
WILD_DRAW4 = 53
N_KINDS = 54
MAX_PLAYERS = 10
MAX_CARDS = 216                      # 108 x 2 decks
RED_ZERO = RED * RANKS_PER_COLOR + 0
RED_ZERO_DRAW = 10                   # cards the red 0 makes the next player draw under H5 draw10
STACK_KINDS = (DRAW2, RANKS_PER_COLOR + DRAW2, 2 * RANKS_PER_COLOR + DRAW2, 3 * RANKS_PER_COLOR + DRAW2,
               WILD_DRAW4)  # the only kinds that can ever stack (H1), in kind order

_SYMBOL_NAMES = {SKIP: "S", REVERSE: "R", DRAW2: "+2"}


def kind(color: int, rank: int) -> int:
    """The code of a coloured card."""
    return color * RANKS_PER_COLOR + rank


def color_of(k: int) -> int:
    """Colour of a kind, -1 for wilds."""
    return k // RANKS_PER_COLOR if k < WILD else -1


def rank_of(k: int) -> int:
    """Rank of a kind: 0-9, SKIP, REVERSE, DRAW2; 13 for Wild, 14 for Wild Draw Four."""
    return k % RANKS_PER_COLOR if k < WILD else k - WILD + RANKS_PER_COLOR


def name(k: int) -> str:
    """Short name used by traces: ``R7``, ``Y+2``, ``GS``, ``BR``, ``W``, ``W+4``."""
    if k == WILD:
        return "W"
    if k == WILD_DRAW4:
        return "W+4"
    r = rank_of(k)
    return COLOR_LETTERS[color_of(k)] + _SYMBOL_NAMES.get(r, str(r))


def parse(text: str) -> int:
    """Inverse of :func:`name` (used by tests and scenario builders)."""
    text = text.strip().upper()
    for k in range(N_KINDS):
        if name(k) == text:
            return k
    raise ValueError(f"unknown card name {text!r}")


def deck_counts(decks: int = 1) -> np.ndarray:
    """Physical copies of each kind in the deck: one 0, two of 1-9/S/R/+2 per colour, four
    Wild, four Wild Draw Four; times ``decks``."""
    counts = np.full(N_KINDS, 2, dtype=np.int64)
    for c in range(N_COLORS):
        counts[kind(c, 0)] = 1
    counts[WILD] = 4
    counts[WILD_DRAW4] = 4
    return counts * decks


def points(k: int, zero_points: int = 0, red_zero_giveaway: bool = False) -> int:
    """Scoring value of a card left in a hand (R1, H17, H5 giveaway)."""
    if k >= WILD:
        return 50
    r = rank_of(k)
    if r >= SKIP:
        return 20
    if r == 0:
        if red_zero_giveaway and k == RED_ZERO:
            return 100
        return zero_points
    return r


def point_table(zero_points: int = 0, red_zero_giveaway: bool = False) -> np.ndarray:
    """Points of every kind, as the array the kernel reads."""
    return np.array([points(k, zero_points, red_zero_giveaway) for k in range(N_KINDS)], dtype=np.int64)
