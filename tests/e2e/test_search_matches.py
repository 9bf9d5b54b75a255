"""Matches with search seats and `unosim duel --matches`.

A table with a search seat plays matches to ``match_target`` (S1-S4, S3) through the
search tables' match kernel, plain and seat-rotated, with rows that do not depend on the
worker count or the chunking; `unosim duel --matches N` plays N matches per seating and
agrees with the same matches played by `unosim run --matches --rotate-seats`.  The search
runs at a tiny budget (2 worlds, 1 rollout) so the tests stay fast; what is checked is the
plumbing, not the search's strength."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cli_checks import invoke, one_error
from unosim.rules.config import default_config
from unosim.run import outcomes
from unosim.run.jobs import make_job
from unosim.run.matches import match_outcomes
from unosim.run.runner import run_job
from unosim.studies.duel import duel_matches

TINY = {"strategy": "search", "worlds": 2, "rollouts": 1}
SEARCH_TABLE = default_config(players=2).replace(seats=[TINY, "counter"])


def play(cfg, count: int, out: Path, *, workers: int, chunk: int | None = None, rotate: bool = False,
         seed: int = 7) -> pd.DataFrame:
    run_job(make_job(cfg, "matches", count, seed, chunk_size=chunk, out=out, rotate=rotate), workers=workers)
    keys = ["rotation", "hand"] if rotate else ["hand"]
    return pd.read_parquet(out).sort_values(keys).reset_index(drop=True)


def whole_matches(df: pd.DataFrame, count: int, rotations: int = 1) -> None:
    """S1-S4: every match index is there (per rotation), its hands numbered 0.., and S1
    ended (a ``pos_end`` row whose winner reached the target) on its last hand or before."""
    groups = df.groupby(["rotation", "match"] if "rotation" in df else ["match"])
    assert len(groups) == count * rotations
    for _, g in groups:
        assert list(g["hand_in_match"]) == list(range(len(g)))
        assert g["pos_end"].sum() == 1 and not g["capped"].any()
        end = g[g["pos_end"].astype(bool)].iloc[0]
        assert max(end[f"pos_total_{s}"] for s in range(2)) >= 500


def test_a_match_run_with_a_search_seat_plays_whole_matches_whatever_the_workers(tmp_path):
    """S3: matches with a search seat are played to the end; their rows (the searches'
    own streams per hand included) are the same with 1 and 2 workers and any chunking."""
    one = play(SEARCH_TABLE, 4, tmp_path / "a", workers=1)
    whole_matches(one, 4)
    two = play(SEARCH_TABLE, 4, tmp_path / "b", workers=2, chunk=1)
    pd.testing.assert_frame_equal(one, two)
    # the seat searched: the same matches with its rollout bot playing every card differ
    plain = play(SEARCH_TABLE.replace(seats=["counter", "counter"]), 4, tmp_path / "c", workers=1)
    assert not one[["winner", "points_0", "points_1"]].equals(plain[["winner", "points_0", "points_1"]])


def test_a_rotated_match_run_with_a_search_seat(tmp_path):
    """S3 with the bots rotated: each rotation plays every match on the same deals, rows
    independent of workers and chunking."""
    one = play(SEARCH_TABLE, 3, tmp_path / "a", workers=1, rotate=True)
    whole_matches(one, 3, rotations=2)
    assert one["bot_0"].nunique() == 2 and (one["bot_0"] != one["bot_1"]).all()
    two = play(SEARCH_TABLE, 3, tmp_path / "b", workers=2, chunk=2, rotate=True)
    pd.testing.assert_frame_equal(one, two)


def test_match_runs_with_search_from_the_cli(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[table]\nplayers = 2\n[bots]\nseats = [{strategy = "search", worlds = 2, rollouts = 1}, '
                    '"counter"]\n')
    res = invoke("run", path, "--matches", 2, "--rotate-seats", "--out", tmp_path / "m", "--workers", 1)
    assert res.exit_code == 0, res.output
    assert "match" in res.output


def _instance_credit(df: pd.DataFrame, n: int) -> np.ndarray:
    """S1 match credit of each config seat (the bot the config puts there) over every
    rotation, from a rotated run's rows (outcomes.py: ties share the credit)."""
    per = df.groupby(["rotation", "match"], sort=True).size().reset_index()[["rotation", "match"]]
    total = np.zeros(n)
    for r in sorted(df["rotation"].unique()):
        o = match_outcomes(df[df["rotation"] == r].drop(columns="rotation"))
        credit = o[[f"pos_win_{s}" for s in range(n)]].to_numpy()
        total += outcomes.by_instance(credit, np.full(len(o), r))
    assert len(per) == df["rotation"].nunique() * df["match"].nunique()
    return total


@pytest.mark.parametrize("players, seats", [(2, ["greedy", "counter"]), (3, ["greedy", "counter", "counter"])])
def test_duel_matches_agree_with_a_rotated_match_run(tmp_path, players, seats):
    """`duel A B --matches N` plays the matches `run --matches N --rotate-seats` plays for
    the seating where A sits alone (same seed, one stream per hand): A's match credit is
    the credit of the run's config seat 0, over every rotation."""
    cfg = default_config(players=players).replace(match_target=200)
    res = duel_matches("greedy", "counter", players=players, matches=12, seed=5, cfg=cfg, workers=1)
    df = play(cfg.replace(seats=seats), 12, tmp_path / "r", workers=1, rotate=True, seed=5)
    credit = _instance_credit(df, players)
    a = res.lines[0]
    assert a.decided == 12 * players
    assert a.wins == pytest.approx(credit[0])
    if players == 2:  # heads-up: one table, B's credit is the other seat's
        assert res.lines[1].wins == pytest.approx(credit[1])
        assert res.lines[0].wins + res.lines[1].wins == pytest.approx(12 * 2)


def test_duel_matches_swapped_reports_minus_the_difference():
    cfg = default_config(players=3).replace(match_target=150)
    ab = duel_matches("greedy", "counter", players=3, matches=6, seed=2, cfg=cfg, workers=1)
    ba = duel_matches("counter", "greedy", players=3, matches=6, seed=2, cfg=cfg, workers=1)
    assert ab.diff == pytest.approx(-ba.diff)
    assert ab.diff_high - ab.diff == pytest.approx(ba.diff_high - ba.diff)


def test_duel_matches_with_a_search_bot_from_the_cli():
    res = invoke("duel", "search:worlds=2,rollouts=1", "counter", "--matches", 2, "--workers", 1)
    assert res.exit_code == 0, res.output
    assert "matches to 500 points" in res.output and "paired by match" in res.output
    assert "A: search:worlds=2,rollouts=1" in res.output


@pytest.mark.parametrize("args, needles", [
    (["--matches", 0], ("--matches", "between 1")),
    (["--matches", -3], ("--matches", "between 1")),
    (["--matches", 10**9], ("--matches", "between 1")),
    (["--matches", 2, "--hands", 10], ("--hands", "--matches", "one of the two")),
    (["--matches", "two"], ("--matches",)),
    (["--matches", 2, "--players", 1], ("--players",)),
])
def test_bad_duel_matches_values_are_one_line(args, needles):
    one_error(invoke("duel", "greedy", "counter", *args), *needles)


def test_a_search_match_run_announces_its_own_kernel(monkeypatch):
    """The compile notice names the kernel the run will compile: a run with a search seat
    plays the search tables' kernel (of matches or of hands), a plain one the plain kernel."""
    from unosim.cli.common import compiling
    from unosim.run import warmup
    from unosim.run.modes import MODES

    named = []
    monkeypatch.setattr(warmup, "compile_notice", lambda names, quiet=False: named.append(names))
    mode = MODES["matches"]
    compiling(mode, True, None, SEARCH_TABLE)
    compiling(mode.with_rotation(), True, None, SEARCH_TABLE)
    compiling(mode, True, None, SEARCH_TABLE.replace(seats=["counter", "counter"]))
    compiling(MODES["hands"], True, None, SEARCH_TABLE)
    compiling(MODES["hands"], True, None, SEARCH_TABLE.replace(seats=["counter", "counter"]))
    compiling(MODES["hands"], True, None, configs=[SEARCH_TABLE, SEARCH_TABLE.replace(seats=["counter", "counter"])])
    assert named == [("search_matches",), ("search_matches",), ("matches",), ("search_hands",), ("hands",),
                     ("hands", "search_hands")]
    assert "search_matches" in warmup.KERNELS


def test_a_search_table_is_played_in_short_kernel_calls_with_the_same_rows(monkeypatch):
    """play_chunk and play_match_chunk split a search table's chunk into calls of
    SEARCH_HANDS_PER_WORKER hands (SEARCH_MATCHES_PER_WORKER matches) per worker, so Ctrl-C
    and SIGTERM are answered between calls; the rows are those of one call."""
    from unosim.engine import search_batch
    from unosim.rules.config import to_params
    from unosim.run import play as R

    P = to_params(SEARCH_TABLE)
    calls: list[int] = []
    kernel = search_batch.play_hands

    def counting(Pr, seats, seed, start, count, *a):
        calls.append(count)
        return kernel(Pr, seats, seed, start, count, *a)

    monkeypatch.setattr(search_batch, "play_hands", counting)
    whole = R.play_chunk(P, 3, 10, 7, 2).copy()
    assert calls == [7], calls
    monkeypatch.setattr(R, "SEARCH_HANDS_PER_WORKER", 1)
    calls.clear()
    short = R.play_chunk(P, 3, 10, 7, 2)
    assert calls == [2, 2, 2, 1], calls  # one hand per worker per call, 2 workers
    np.testing.assert_array_equal(short, whole)
    calls.clear()
    plain = R.play_chunk(to_params(SEARCH_TABLE.replace(seats=["greedy", "counter"])), 3, 10, 7, 2)
    assert calls == [] and len(plain) == 7  # a table without a search seat: the plain kernel, one call

    one = R.play_match_chunk(P, 5, 0, 5, 2, split=True)
    monkeypatch.setattr(R, "SEARCH_MATCHES_PER_WORKER", 1)
    np.testing.assert_array_equal(R.play_match_chunk(P, 5, 0, 5, 2, split=True), one)
