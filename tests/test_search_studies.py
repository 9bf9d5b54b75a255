"""The search player where the studies seat it: a league's bot and a tuning field play it
through the same kernels as a run (``runner.play_chunk`` picks the search tables' own), so
it needs no code of its own there, only these runs to show it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from cli_checks import invoke

TINY = "search:worlds=2,rollouts=1"


def test_a_league_seats_a_search_bot(tmp_path: Path):
    res = invoke("league", "standard", "--bots", f"{TINY},counter,random", "--players", 2, "--deals", 6,
                 "--out", tmp_path / "lg", "--quiet", "--workers", 1)
    assert res.exit_code == 0, res.output
    board = pd.read_csv(tmp_path / "lg" / "leaderboard.csv")
    assert TINY in set(board["bot"]), board
    assert int(board.loc[board["bot"] == TINY, "hands"].iloc[0]) == 2 * 6 * 2  # two tables, both seats


def test_a_tuning_field_of_search_bots(tmp_path: Path):
    res = invoke("tune", "standard", "--players", 2, "--field", TINY, "--budget", 12, "--deals", 6,
                 "--check-deals", 8, "--check-matches", 1, "--out", tmp_path / "tn", "--quiet", "--workers", 1)
    assert res.exit_code == 0, res.output
    assert f"field {TINY}," in res.output, res.output
    check = json.loads((tmp_path / "tn" / "check.json").read_text())
    assert check["deals"] == 8 and 0.0 <= check["tuned_vs_field"]["share"] <= 1.0, check


def test_a_search_duel_is_played_in_small_calls_and_the_same_duel(monkeypatch):
    """A duel with a search seat plays SEARCH_CHUNK deals (SEARCH_MATCH_CHUNK matches) per
    kernel call, so a stop is answered between calls, and any chunking plays the same duel."""
    from unosim.studies import duel as D

    calls: list[int] = []
    play = D.play_chunk

    def counting(Q, seed, start, count, *a, **k):
        calls.append(count)
        return play(Q, seed, start, count, *a, **k)

    monkeypatch.setattr(D, "play_chunk", counting)
    whole = D.duel(TINY, "counter", players=2, hands=5, seed=3, workers=1)
    assert calls == [5] * 2, calls  # heads-up: one seating, two rotations, a call each
    monkeypatch.setattr(D, "SEARCH_CHUNK", 2)
    calls.clear()
    small = D.duel(TINY, "counter", players=2, hands=5, seed=3, workers=1)
    assert calls == [2, 2, 1] * 2, calls
    assert (small.diff, small.diff_low, small.diff_high) == (whole.diff, whole.diff_low, whole.diff_high)
    assert D.render(small) == D.render(whole)

    calls.clear()
    D.duel("greedy", "counter", players=2, hands=5, seed=3, workers=1)
    assert calls == [5] * 2, calls  # a table without a search seat keeps the plain chunk

    one = D.duel_matches(TINY, "counter", players=2, matches=3, seed=1, workers=1)
    monkeypatch.setattr(D, "SEARCH_MATCH_CHUNK", 1)
    many = D.duel_matches(TINY, "counter", players=2, matches=3, seed=1, workers=1)
    assert D.render_matches(many) == D.render_matches(one)  # (a match's points_left is NaN: != itself)
