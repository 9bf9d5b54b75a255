"""Matches scored twice: by the pure-Python reference scorer ``score_match`` and by the
compiled per-hand scorer the kernel uses (``score_rows``); and a match chunk's rows as a
result file would give them.  Shared by tests/e2e/test_matches.py and
tests/scenario/test_chips.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from unosim.engine.matches import N_MOUT, score_rows
from unosim.kernel import layout as L
from unosim.rules.config import RulesConfig, to_params
from unosim.run.matches import Slabs, match_columns, play_match_chunk, score_match
from unosim.run.store import to_table


def hand(winner: int, points: list[int], stalled: bool = False, ranks: list[int] | None = None) -> dict[str, Any]:
    """One hand as a result row: the winner, the points left in each hand, ranks (H13)."""
    r: dict[str, Any] = {"winner": -1 if stalled else winner, "stalled": stalled}
    for s, p in enumerate(points):
        r[f"points_{s}"] = p
        r[f"rank_{s}"] = ranks[s] if ranks else 0
    return r


def kernel_score(hands: list[dict[str, Any]], cfg: RulesConfig) -> tuple[int, pd.DataFrame]:
    """The compiled scorer on the same hands: (hands the match took, its match columns)."""
    rows = np.zeros((len(hands), N_MOUT), np.int64)
    for i, h in enumerate(hands):
        rows[i, L.O_WINNER] = h["winner"]
        rows[i, L.O_STALLED] = int(h["stalled"])
        for s in range(cfg.players):
            rows[i, L.O_POINTS0 + s] = h[f"points_{s}"]
            rows[i, L.O_RANK0 + s] = h[f"rank_{s}"]
    used = score_rows(to_params(cfg), rows)
    cols = {c: j for c, j in match_columns(cfg.players)}
    names = ["hand_in_match", "pos_end", "neg_end"] + [f"{p}_total_{s}" for p in ("pos", "neg")
                                                      for s in range(cfg.players)]
    names += ["chips_end"] + [f"chips_total_{s}" for s in range(cfg.players)]
    df = pd.DataFrame({c: rows[:used, cols[c]] for c in names})
    for c in ("pos_end", "neg_end", "chips_end"):
        df[c] = df[c].astype(bool)
    return used, df


def both(hands: list[dict[str, Any]], cfg: RulesConfig):
    """Score with the reference and with the kernel; they must agree on every column."""
    ref = score_match(hands, cfg)
    used, k = kernel_score(hands, cfg)
    assert used == ref.hands
    pd.testing.assert_frame_equal(k, ref.frame(), check_dtype=False)
    return ref


def play(cfg: RulesConfig, matches: int, seed: int = 1, max_hands: int = 10_000, workers: int = 2,
         start: int = 0, slabs: Slabs | None = None) -> pd.DataFrame:
    """Rows of a match chunk as the DataFrame a result file would give."""
    rows = play_match_chunk(to_params(cfg), seed, start, matches, workers, max_hands, slabs)
    return to_table(rows, match_columns(cfg.players), {}).to_pandas()
