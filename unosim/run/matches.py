"""Match play and the two scoring systems (docs/rules.md S1-S3, R4, H12, H13, R13).

A match is a sequence of hands of one table, dealt by R4's rule, played until both
scoring systems have ended, so S1 (positive: the winner scores the cards left in the
other hands) and S2 (negative: every loser adds their own cards; lowest total wins) are
compared on the very same cards (S3).  :func:`run_matches` plays matches on all cores
and stores one row per hand: the hand's O1 record plus

* ``match``, ``hand_in_match`` (0-based),
* ``pos_total_<s>`` / ``neg_total_<s>``: running totals after the hand (with teams every
  member shows the team total); a system's totals stay frozen once its match has ended,
* ``pos_end`` / ``neg_end``: true on the hand where that system's match ended,
* ``capped``: true on the last hand of a match stopped by ``max_hands`` (see below).

Choices the contract left open, written down here and in the README:

* ``hand`` is ``match * HAND_STRIDE + hand_in_match`` (``HAND_STRIDE`` = 1,000,000): a
  global running index cannot be known while matches run in parallel.
* A match stops after ``max_hands`` hands (default 10,000) even if a system has not
  ended, flagged ``capped``.  Such a match has no ``pos_end``/``neg_end`` row for the
  system that did not end, so reports leave it out of that system.  With the official
  rules a match takes about 15-30 hands; the cap exists for configs that can never
  finish (every hand stalls, R13) and for H13 last_standing, whose rank points sum to
  zero: with 2 players a total moves by +-1 per hand and reaching 500 takes about
  250,000 hands, so such tables want a lower ``match_target``.
* Under H13 last_standing, a side's total is the sum of its members' rank points
  n + 1 - 2r; S2 is not defined there, so ``neg_total_*`` are 0 and ``neg_end`` false.
* Under R4 ``dealer = "fixed"`` (E4) the last seat deals every hand, the first included.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from unosim.rules.config import RulesConfig, to_params
from unosim.kernel import layout as L
from unosim.engine.matches import (HAND_STRIDE, M_CAPPED, M_HAND_IN_MATCH, M_MATCH, M_NEG0, M_NEG_END,
    M_POS0, M_POS_END, N_MOUT, play_matches)
from unosim.run.runner import Progress, RunError, chunks, set_workers
from unosim.run.store import ResultDir, column_names, run_metadata, to_table

__all__ = [
    "DEFAULT_MATCH_CHUNK", "DEFAULT_MAX_HANDS", "HAND_STRIDE", "MatchScore", "MatchSummary", "Slabs",
    "match_columns", "match_outcomes", "play_match_chunk", "run_matches", "score_match",
]

DEFAULT_MATCH_CHUNK = 10_000
"""Matches per Parquet part file (about 150,000-300,000 rows with the official rules)."""
DEFAULT_MAX_HANDS = 10_000
"""Hands after which a match is stopped and flagged ``capped``."""
_START_ROWS = 2048
_BLOCKS_PER_WORKER = 8


def match_columns(players: int) -> list[tuple[str, int]]:
    """(name, column of the match kernel's rows) in file order: the hand columns of a
    normal run with ``match`` .. ``capped`` after the scalars, then per seat ``points``,
    ``cards``, ``rank``, ``pos_total``, ``neg_total``."""
    extra = [("match", M_MATCH), ("hand_in_match", M_HAND_IN_MATCH), ("pos_end", M_POS_END),
             ("neg_end", M_NEG_END), ("capped", M_CAPPED)]
    cols = column_names(players, extra)
    cols += [(f"pos_total_{s}", M_POS0 + s) for s in range(players)]
    cols += [(f"neg_total_{s}", M_NEG0 + s) for s in range(players)]
    return cols


# --------------------------------------------------------------------------- the kernel driver


def _pieces(pending: list[tuple[int, int]], blocks: int) -> list[tuple[int, int]]:
    """Cut the pending match ranges into pieces of about equal size, one per block."""
    total = sum(hi - lo for lo, hi in pending)
    size = max(1, math.ceil(total / blocks))
    out = []
    for lo, hi in pending:
        for a in range(lo, hi, size):
            out.append((a, min(hi, a + size)))
    return out


class Slabs:
    """The kernel's per-block row buffers, ``(blocks, rows, N_MOUT)``, reused across chunks.

    They start small (``rows`` = 2048, about 150 matches of the official rules per block
    and call) and double, up to ``max_hands`` rows, only when a block could not fit even
    one match into its empty slab, so memory follows the longest match seen, never the
    cap: ``blocks x rows x N_MOUT x 8`` bytes (16 blocks x 2048 rows = 20 MB)."""

    def __init__(self, workers: int, max_hands: int = DEFAULT_MAX_HANDS, rows: int = _START_ROWS,
                 blocks: int | None = None) -> None:
        self.max_hands = max_hands
        self.blocks = blocks or max(1, workers * _BLOCKS_PER_WORKER)
        self.array = np.zeros((self.blocks, min(rows, max_hands), N_MOUT), np.int64)

    @property
    def rows(self) -> int:
        return self.array.shape[1]

    def grow(self) -> None:
        """Double the rows (a match did not fit in an empty slab)."""
        if self.rows >= self.max_hands:  # a match never has more than max_hands rows
            raise AssertionError("a match did not fit in a slab of max_hands rows")
        self.array = np.zeros((self.blocks, min(2 * self.rows, self.max_hands), N_MOUT), np.int64)


def warm_up(P: np.ndarray, slabs: Slabs) -> float:
    """Load (or compile) the match kernel before the clock starts; returns the seconds it
    took, so matches/s is the steady rate (as :func:`unosim.run.runner.warm_up` for hands)."""
    t = time.perf_counter()
    empty = np.zeros(0, np.int64)
    play_matches(P, 0, empty, empty, slabs.max_hands, slabs.array, empty, empty)
    return time.perf_counter() - t


def play_match_chunk(P: np.ndarray, seed: int, start: int, count: int, workers: int,
                     max_hands: int = DEFAULT_MAX_HANDS, slabs: Slabs | None = None) -> np.ndarray:
    """Rows of matches ``start .. start+count-1``, in match order (kernel columns ``M_*``).

    Each block plays its matches into its slab and stops when the next match does not fit;
    the matches it did not finish go to the next kernel call (see
    :mod:`unosim.engine.matches`).  Which block plays a match never changes its rows."""
    if not 1 <= max_hands <= HAND_STRIDE:
        raise RunError(f"max_hands: must be between 1 and {HAND_STRIDE:,} (got {max_hands})")
    if slabs is None or slabs.max_hands != max_hands:
        slabs = Slabs(workers, max_hands)
    pending = [(start, start + count)]
    segments: list[tuple[int, np.ndarray]] = []
    nrows = np.zeros(slabs.blocks, np.int64)
    done = np.zeros(slabs.blocks, np.int64)
    while pending:
        pieces = _pieces(pending, slabs.blocks)
        now, pending = pieces[: slabs.blocks], pieces[slabs.blocks:]
        lo = np.array([a for a, _ in now], np.int64)
        hi = np.array([b for _, b in now], np.int64)
        play_matches(P, int(seed), lo, hi, max_hands, slabs.array, nrows, done)
        too_small = False
        for b, (a, z) in enumerate(now):
            if done[b]:
                segments.append((a, slabs.array[b, : nrows[b]].copy()))
            else:
                too_small = True
            if a + done[b] < z:
                pending.append((a + int(done[b]), z))
        if too_small:
            slabs.grow()
    segments.sort(key=lambda x: x[0])
    return np.concatenate([s for _, s in segments]) if segments else np.zeros((0, N_MOUT), np.int64)


# --------------------------------------------------------------------------- summary


@dataclass
class MatchSummary:
    """What `unosim run --matches` prints: speed, hands per match per system, and the
    match win share by seat position relative to the first dealer (ties shared)."""

    players: int
    finish: str = "first_out"
    matches: int = 0
    hands: int = 0
    seconds: float = 0.0
    startup: float = 0.0
    stalled: int = 0
    capped: int = 0
    chunks_skipped: int = 0
    pos_matches: int = 0
    neg_matches: int = 0
    pos_hands: int = 0
    neg_hands: int = 0
    pos_credit: np.ndarray = field(default_factory=lambda: np.zeros(0))
    neg_credit: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        self.pos_credit = np.zeros(self.players)
        self.neg_credit = np.zeros(self.players)

    def add(self, rows: np.ndarray) -> None:
        n = self.players
        self.hands += len(rows)
        self.stalled += int((rows[:, L.O_STALLED] != 0).sum())
        self.capped += int((rows[:, M_CAPPED] != 0).sum())
        first = rows[:, M_HAND_IN_MATCH] == 0
        self.matches += int(first.sum())
        m0 = int(rows[0, M_MATCH]) if len(rows) else 0
        dealer0 = np.zeros(int(rows[:, M_MATCH].max()) - m0 + 1 if len(rows) else 0, np.int64)
        dealer0[rows[first, M_MATCH] - m0] = rows[first, L.O_DEALER]
        for end, base, sign, system in ((M_POS_END, M_POS0, 1, "pos"), (M_NEG_END, M_NEG0, -1, "neg")):
            ended = rows[rows[:, end] != 0]
            if not len(ended):
                continue
            totals = sign * ended[:, base: base + n]
            win = totals == totals.max(axis=1, keepdims=True)
            credit = win / win.sum(axis=1, keepdims=True)
            rel = (np.arange(n)[None, :] - dealer0[ended[:, M_MATCH] - m0][:, None]) % n
            by_pos = np.bincount(rel.ravel(), weights=credit.ravel(), minlength=n)
            hands = int((ended[:, M_HAND_IN_MATCH] + 1).sum())
            if system == "pos":
                self.pos_matches += len(ended)
                self.pos_hands += hands
                self.pos_credit += by_pos
            else:
                self.neg_matches += len(ended)
                self.neg_hands += hands
                self.neg_credit += by_pos

    @property
    def matches_per_s(self) -> float:
        return self.matches / self.seconds if self.seconds > 0 else float("nan")

    def mean_hands(self, system: str) -> float:
        """Mean hands per ended match under ``"pos"`` (S1) or ``"neg"`` (S2)."""
        m, h = (self.pos_matches, self.pos_hands) if system == "pos" else (self.neg_matches, self.neg_hands)
        return h / m if m else float("nan")

    def shares(self, system: str) -> np.ndarray:
        """Match win share by seat position after the first dealer: index 0 is the seat
        that dealt the first hand (seat 0 unless ``dealer = "random"``)."""
        m, c = (self.pos_matches, self.pos_credit) if system == "pos" else (self.neg_matches, self.neg_credit)
        return c / m if m else np.full(self.players, np.nan)


# --------------------------------------------------------------------------- running


def run_matches(cfg: RulesConfig, matches: int, seed: int, out: str | Path, *, workers: int | None = None,
                chunk_size: int = DEFAULT_MATCH_CHUNK, force: bool = False, resume: bool = False,
                progress: Progress | None = None, max_hands: int = DEFAULT_MAX_HANDS) -> MatchSummary:
    """Play ``matches`` matches of ``cfg`` and store one row per hand under ``out``.

    Mirrors :func:`unosim.run.runner.run_hands`: chunks of ``chunk_size`` matches become one
    part file each, written atomically by a background thread while the next chunk plays;
    ``resume`` keeps finished chunks.  Results depend on (config, seed, max_hands) only."""
    if matches < 1:
        raise RunError(f"--matches: must be at least 1 (got {matches})")
    if chunk_size < 1:
        raise RunError(f"--chunk-size: must be at least 1 (got {chunk_size})")
    if seed < 0 or seed >= 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    if not 1 <= max_hands <= HAND_STRIDE:
        raise RunError(f"max_hands: must be between 1 and {HAND_STRIDE:,} (got {max_hands})")
    workers = set_workers(workers)
    P = to_params(cfg)
    result = ResultDir(Path(out))
    manifest = {"config": cfg.to_toml(), "seed": seed, "matches": matches, "chunk_size": chunk_size,
                "max_hands": max_hands, "mode": "matches"}
    done = result.prepare(manifest, force=force, resume=resume)
    meta = run_metadata(cfg, seed, "matches", {"unosim.max_hands": max_hands,
                                                "unosim.hand_stride": HAND_STRIDE})
    columns = match_columns(cfg.players)
    summary = MatchSummary(cfg.players, cfg.finish)
    slabs = Slabs(workers, max_hands)
    summary.startup = warm_up(P, slabs)
    t0 = time.perf_counter()
    pending: Future | None = None
    with ThreadPoolExecutor(max_workers=1) as writer:
        for index, start, count in chunks(matches, chunk_size):
            if index in done:
                summary.chunks_skipped += 1
                if progress:
                    progress(count)
                continue
            rows = play_match_chunk(P, seed, start, count, workers, max_hands, slabs)
            if pending is not None:
                pending.result()
            pending = writer.submit(result.write_chunk, index, to_table(rows, columns, meta))
            summary.add(rows)
            if progress:
                progress(count)
        if pending is not None:
            pending.result()
    summary.seconds = time.perf_counter() - t0
    return summary


# --------------------------------------------------------------------------- reference scorer


@dataclass
class MatchScore:
    """A match scored by :func:`score_match`.  Totals are per seat (team members show the
    team total), one row per hand scored; ``pos_end``/``neg_end`` the 0-based hand where
    that system ended (None: not ended); winners are seats (ties: all of them)."""

    pos_totals: np.ndarray
    neg_totals: np.ndarray
    pos_end: int | None
    neg_end: int | None
    pos_winners: tuple[int, ...]
    neg_winners: tuple[int, ...]

    @property
    def hands(self) -> int:
        """Hands the match took: up to the later of the two ends (S3)."""
        return len(self.pos_totals)

    def frame(self) -> pd.DataFrame:
        """The match columns as the kernel writes them, one row per hand."""
        n = self.pos_totals.shape[1]
        d: dict[str, Any] = {"hand_in_match": np.arange(self.hands)}
        d["pos_end"] = d["hand_in_match"] == (-1 if self.pos_end is None else self.pos_end)
        d["neg_end"] = d["hand_in_match"] == (-1 if self.neg_end is None else self.neg_end)
        for s in range(n):
            d[f"pos_total_{s}"] = self.pos_totals[:, s]
        for s in range(n):
            d[f"neg_total_{s}"] = self.neg_totals[:, s]
        return pd.DataFrame(d)


def score_match(hand_rows: pd.DataFrame | Sequence[Mapping[str, Any]], cfg: RulesConfig) -> MatchScore:
    """Score a sequence of hands under S1 and S2, the slow obvious way (tests check the
    kernel against it).

    ``hand_rows`` gives, per hand in order, ``stalled``, ``winner`` and per seat
    ``points_<s>`` (and ``rank_<s>`` under last_standing), as in a result file.  Hands
    after both systems have ended are ignored.  Rules: a stalled hand scores nothing; S1,
    the winner's side scores every other side's points; S2, every other side adds its own
    points; a system ends on the hand where a side's total reaches ``match_target``; S1's
    winners are the sides at the highest total, S2's at the lowest.  H12: a side is a team
    (seat s plays for team s mod teams).  H13 last_standing: each side adds its members'
    rank points n + 1 - 2r to its S1 total and S2 is not kept (totals 0, never ends)."""
    rows = hand_rows.to_dict("records") if isinstance(hand_rows, pd.DataFrame) else list(hand_rows)
    n, teams, target = cfg.players, cfg.teams, cfg.match_target
    ranked = cfg.finish == "last_standing"

    def side(s: int) -> int:
        return s % teams if teams > 1 else s

    sides = teams if teams > 1 else n
    pos = [0] * sides
    neg = [0] * sides
    pos_end: int | None = None
    neg_end: int | None = None
    pos_hist: list[list[int]] = []
    neg_hist: list[list[int]] = []
    for h, r in enumerate(rows):
        if pos_end is not None and (neg_end is not None or ranked):
            break
        gain_pos = [0] * sides
        gain_neg = [0] * sides
        if not bool(r["stalled"]):
            if ranked:
                for s in range(n):
                    gain_pos[side(s)] += n + 1 - 2 * int(r[f"rank_{s}"])
            else:
                ws = side(int(r["winner"]))
                for s in range(n):
                    if side(s) != ws:
                        gain_pos[ws] += int(r[f"points_{s}"])
                        gain_neg[side(s)] += int(r[f"points_{s}"])
        if pos_end is None:
            pos = [a + b for a, b in zip(pos, gain_pos)]
            if max(pos) >= target:
                pos_end = h
        if neg_end is None and not ranked:
            neg = [a + b for a, b in zip(neg, gain_neg)]
            if max(neg) >= target:
                neg_end = h
        pos_hist.append([pos[side(s)] for s in range(n)])
        neg_hist.append([neg[side(s)] for s in range(n)])
    pos_t = np.array(pos_hist, np.int64).reshape(-1, n)
    neg_t = np.array(neg_hist, np.int64).reshape(-1, n)
    pos_w = tuple(s for s in range(n) if pos_end is not None and pos[side(s)] == max(pos))
    neg_w = tuple(s for s in range(n) if neg_end is not None and neg[side(s)] == min(neg))
    return MatchScore(pos_t, neg_t, pos_end, neg_end, pos_w, neg_w)


# --------------------------------------------------------------------------- per-match table


def match_outcomes(results: str | Path | pd.DataFrame) -> pd.DataFrame:
    """One row per match of a match run: ``match``, ``first_dealer``, ``hands`` (all hands
    played), and per system (``pos``, ``neg``) ``<sys>_hands`` (hands until it ended, NaN
    if it did not), ``<sys>_winner`` (the winning seat, -1 for a tie, -2 if it did not end)
    and ``<sys>_win_<s>`` (credit of seat s: 1/k for a k-way tie).  With teams every member
    of the winning team gets the team's credit, so ``<sys>_winner`` is -1 (a tie of seats)."""
    df = results if isinstance(results, pd.DataFrame) else pd.read_parquet(results)
    df = df.sort_values(["match", "hand_in_match"])
    n = sum(1 for c in df.columns if c.startswith("pos_total_"))
    g = df.groupby("match", sort=True)
    out = pd.DataFrame({"first_dealer": g["dealer"].first(), "hands": g["hand_in_match"].max() + 1,
                        "capped": g["capped"].any() if "capped" in df else False})
    for pre, best in (("pos", "max"), ("neg", "min")):
        ended = df[df[f"{pre}_end"].astype(bool)].set_index("match")
        totals = ended[[f"{pre}_total_{s}" for s in range(n)]].to_numpy(np.float64)
        top = totals.max(axis=1) if best == "max" else totals.min(axis=1)
        win = totals == top[:, None]
        credit = win / np.maximum(win.sum(axis=1, keepdims=True), 1)
        winner = np.where(win.sum(axis=1) == 1, win.argmax(axis=1), -1)
        out[f"{pre}_hands"] = (ended["hand_in_match"] + 1).reindex(out.index)
        out[f"{pre}_winner"] = pd.Series(winner, index=ended.index).reindex(out.index).fillna(-2).astype(int)
        for s in range(n):
            out[f"{pre}_win_{s}"] = pd.Series(credit[:, s], index=ended.index).reindex(out.index).fillna(0.0)
    return out.reset_index()
