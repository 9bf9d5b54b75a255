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
    board = pd.read_csv(tmp_path / "lg" / "_leaderboard.csv")
    assert TINY in set(board["bot"]), board
    assert int(board.loc[board["bot"] == TINY, "hands"].iloc[0]) == 2 * 6 * 2  # two tables, both seats


def test_a_tuning_field_of_search_bots(tmp_path: Path):
    res = invoke("tune", "standard", "--players", 2, "--field", TINY, "--budget", 12, "--deals", 6,
                 "--check-deals", 8, "--check-matches", 1, "--out", tmp_path / "tn", "--quiet", "--workers", 1)
    assert res.exit_code == 0, res.output
    assert f"field {TINY}," in res.output, res.output
    check = json.loads((tmp_path / "tn" / "check.json").read_text())
    assert check["deals"] == 8 and 0.0 <= check["tuned_vs_field"]["share"] <= 1.0, check
