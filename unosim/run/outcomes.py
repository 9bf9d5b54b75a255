"""Who won: match and tournament winners, shared credit, seat positions (numpy, no kernel).

Winners are the seats at the best total (highest under S1 and S4, lowest under S2), k tied
winners 1/k each; positions count clockwise from a dealer (0).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BEST", "by_instance", "credit", "credit_from_dealer", "from_dealer", "sole_winner", "standings",
           "winner_masks", "winners", "wins_from_dealer"]

BEST = {"pos": "max", "neg": "min", "chips": "max"}
"""How each scoring system crowns (S1 ``pos``, S2 ``neg``, S4 ``chips``)."""


def winners(totals: np.ndarray, best: str = "max") -> np.ndarray:
    """(rows, seats) bool: the seats at the row's best total (``"max"`` or ``"min"``);
    ties: every tied seat."""
    totals = np.asarray(totals)
    if best not in ("max", "min"):
        raise ValueError(f"best: {best!r} is not one of max, min")
    top = totals.max(axis=1, keepdims=True) if best == "max" else totals.min(axis=1, keepdims=True)
    return totals == top


def credit(win: np.ndarray) -> np.ndarray:
    """(rows, seats) float: 1/k to each of a row's k winners, 0 elsewhere (a row without a
    winner gives no credit)."""
    win = np.asarray(win)
    return win / np.maximum(win.sum(axis=1, keepdims=True), 1)


def sole_winner(win: np.ndarray) -> np.ndarray:
    """Per row the winning seat, or -1 when several seats share the win (or none has it)."""
    win = np.asarray(win, dtype=bool)
    return np.where(win.sum(axis=1) == 1, win.argmax(axis=1), -1)


def winner_masks(win: np.ndarray) -> np.ndarray:
    """Per row its winners as a bit mask of seats (bit s: seat s won), so two systems that
    crown the same tie give the same mask."""
    win = np.asarray(win, dtype=bool)
    return (win.astype(np.int64) << np.arange(win.shape[1], dtype=np.int64)).sum(axis=1)


def from_dealer(seat: np.ndarray, dealer: np.ndarray, seats: int) -> np.ndarray:
    """Position of ``seat`` counted clockwise from ``dealer`` (0: the dealer)."""
    return (np.asarray(seat) - np.asarray(dealer)) % seats


def wins_from_dealer(winner: np.ndarray, dealer: np.ndarray, seats: int) -> np.ndarray:
    """Decided hands won at each position from the hand's dealer (``winner``, ``dealer``:
    one entry per decided hand)."""
    rel = from_dealer(np.asarray(winner, dtype=np.int64), dealer, seats)
    return np.bincount(rel, minlength=seats)[:seats]


def credit_from_dealer(credits: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """Column sums of ``credits`` (rows x seats) by each seat's position from the row's
    ``dealer`` (a match's: the dealer of its first hand)."""
    n = credits.shape[1]
    rel = from_dealer(np.arange(n)[None, :], np.asarray(dealer)[:, None], n)
    return np.bincount(rel.ravel(), weights=credits.ravel(), minlength=n)


def by_instance(credits: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """Column sums of ``credits`` (rows x seats, or players) re-indexed by config seat: in
    rotation r, config seat i sits at (i + r) mod n (seating.py)."""
    n = credits.shape[1]
    idx = (np.arange(n)[None, :] + np.asarray(rotation)[:, None]) % n
    return np.take_along_axis(credits, idx, axis=1).sum(axis=0)


def standings(totals: np.ndarray, best: str = "max") -> np.ndarray:
    """Each row's totals sorted best first (column 0 the winner's, column 1 the runner-up's)."""
    if best not in ("max", "min"):
        raise ValueError(f"best: {best!r} is not one of max, min")
    ordered = np.sort(np.asarray(totals), axis=1)
    return ordered[:, ::-1] if best == "max" else ordered
