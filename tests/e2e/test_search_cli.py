"""The ``search`` strategy from the command line: its bad parameters are one line and exit
2, a formats it does not play yet says so, and a small duel runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_checks import invoke, one_error


@pytest.mark.parametrize("spec, needles", [
    ("search:worlds=0", ("worlds", "out of range")),
    ("search:rollouts=0", ("rollouts", "out of range")),
    ("search:worlds=nan", ("worlds", "integer")),
    ("search:worlds=2.5", ("worlds", "integer")),
    ("search:rollout_bot=search", ("rollout_bot", "search")),
    ("search:rollout_bot=nosuch", ("rollout_bot", "nosuch")),
    ("search:objective=score", ("objective", "hands, points")),
    ("search:depth=3", ("depth", "unknown parameter")),
    ("search:voids=2", ("voids", "out of range")),
    ("search:voids=-1", ("voids", "out of range")),
    ("search:voids=true", ("voids", "integer")),
    ("search:voids=0.5", ("voids", "integer")),
    ("search:voids=nan", ("voids", "integer")),
    ("search:colours=2", ("colours", "out of range")),
    ("search:colours=yes", ("colours", "integer")),
])
def test_bad_search_parameters_are_one_line(spec, needles):
    one_error(invoke("duel", spec, "counter", "--hands", 2), *needles)


def test_bad_search_parameters_in_a_config(tmp_path: Path):
    path = tmp_path / "s.toml"
    path.write_text('[table]\nplayers = 2\n[bots]\nseats = [{strategy = "search", rollout_bot = "search"}, "counter"]\n')
    one_error(invoke("run", path, "--hands", 2), "bots.seats[0].rollout_bot", "search")


def test_search_is_refused_in_tournaments_for_now(tmp_path: Path):
    path = tmp_path / "s.toml"
    path.write_text('[table]\nplayers = 4\n[bots]\nseats = [{strategy = "search", worlds = 1}, "counter", "counter", "counter"]\n')
    one_error(invoke("run", path, "--tournaments", 1, "--out", tmp_path / "t"), "search", "tournaments")


def test_a_tiny_duel_runs():
    res = invoke("duel", "search:worlds=2,rollouts=1", "counter", "--hands", 4, "--workers", 1)
    assert res.exit_code == 0, res.output
    assert "search" in res.output


def test_trace_replays_a_search_hand(tmp_path: Path):
    """`unosim trace` replays a hand of a search table as the run played it (its own search
    streams); a match hand is refused in one line."""
    path = tmp_path / "s.toml"
    path.write_text('[table]\nplayers = 2\n[bots]\nseats = [{strategy = "search", worlds = 2, rollouts = 1}, "counter"]\n')
    res = invoke("trace", path, "--hand", 1, "--seed", 3)
    assert res.exit_code == 0, res.output
    assert "wins the hand" in res.output or "stalled" in res.output, res.output[-500:]
    one_error(invoke("trace", path, "--match", 0), "search", "matches")
