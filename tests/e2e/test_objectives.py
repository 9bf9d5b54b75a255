"""Tuning objectives (``unosim tune --objective hands|points|matches[:s1|s2|s4]``,
skill/arena.py): what each measures, checked against the rows and against the zero-sum
nature of UNO scoring, and the command's figures and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from unosim.cli import main
from unosim.kernel.layout import O_POINTS0, O_STALLED, O_WINNER
from unosim.rules.config import default_config
from unosim.rules.botfile import resolve_bot
from unosim.run.jobs import RunError
from unosim.run.play import play_chunk
from unosim.run.seating import rotated_params
from unosim.studies.arena import Arena, Objective

HEADS_UP = default_config().with_values({"players": 2, "match_target": 150})
GREEDY, COUNTER = resolve_bot("greedy"), resolve_bot("counter")


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), lines
    for n in needles:
        assert n in lines[0], (n, lines[0])


def test_objective_values():
    assert Objective.parse("matches") == Objective("matches", "s1")
    assert Objective.parse("matches:s4").name == "matches:s4"
    assert Objective.parse("points").is_share is False
    for bad in ("Points", "matches:s3", "", "wins"):
        with pytest.raises(RunError, match="--objective"):
            Objective.parse(bad)


def test_points_are_s1_won_minus_s2_lost_per_hand():
    """S1/S2 on independent hands: the winner scores the cards left in the other hand, the
    loser adds its own; a stalled hand scores nothing.  Recomputed from the rows."""
    arena = Arena(HEADS_UP, [COUNTER], 1)
    P = arena.params(GREEDY)
    got = arena.measure(P, 4, 100, 300, Objective("points"))["points"]
    want = np.zeros(300)
    for r in range(2):
        rows = play_chunk(rotated_params(P, 2, r), 4, 100, 300, 1)
        pts = rows[:, O_POINTS0:O_POINTS0 + 2]
        ok = rows[:, O_STALLED] == 0
        want += np.where(ok, np.where(rows[:, O_WINNER] == r, pts[:, 1 - r], -pts[:, r]), 0)
    assert np.array_equal(got.wins, want) and (got.decided == 2).all()


def test_points_and_matches_are_zero_sum_heads_up():
    """What one bot gains the other loses, deal by deal (the rotations pair up: the same
    deals with the seats swapped), and match credits of the two add up to the matches."""
    a = Arena(HEADS_UP, [COUNTER], 1)
    b = Arena(HEADS_UP, [GREEDY], 1)
    pa = a.measure(a.params(GREEDY), 2, 0, 200, Objective("points"))["points"]
    pb = b.measure(b.params(COUNTER), 2, 0, 200, Objective("points"))["points"]
    assert np.array_equal(pa.wins, -pb.wins)
    ma = a.measure(a.params(GREEDY), 2, 0, 60, Objective("matches"))
    mb = b.measure(b.params(COUNTER), 2, 0, 60, Objective("matches"))
    for k in ("matches:s1", "matches:s2", "matches:s4"):
        assert np.allclose(ma[k].wins + mb[k].wins, ma[k].decided), k
        assert ma[k].share + mb[k].share == pytest.approx(1.0)


def test_measurements_do_not_depend_on_the_slicing(monkeypatch: pytest.MonkeyPatch):
    """A measurement plays its deals in slices (so Ctrl-C is seen between kernel calls):
    every figure is the same, deal by deal, whatever the slice size."""
    import unosim.studies.arena as arena_module

    a = Arena(HEADS_UP, [COUNTER], 1)
    whole_h = a.measure(a.params(GREEDY), 3, 0, 150, Objective("hands"))
    whole_m = a.measure(a.params(GREEDY), 3, 0, 20, Objective("matches"))
    monkeypatch.setattr(arena_module, "SLICE_HANDS", 7)
    monkeypatch.setattr(arena_module, "SLICE_MATCHES", 3)
    sliced_h = a.measure(a.params(GREEDY), 3, 0, 150, Objective("hands"))
    sliced_m = a.measure(a.params(GREEDY), 3, 0, 20, Objective("matches"))
    for whole, sliced in ((whole_h, sliced_h), (whole_m, sliced_m)):
        for k in whole:
            assert np.array_equal(whole[k].wins, sliced[k].wins) and np.array_equal(whole[k].decided, sliced[k].decided)


def test_tune_by_points_reports_every_objective(tmp_path: Path):
    out = tmp_path / "t"
    r = invoke("tune", "standard", "--players", "2", "--objective", "points", "--budget", "24", "--deals", "100",
               "--check-deals", "300", "--check-matches", "40", "--out", out, "--quiet", "--workers", "1")
    assert r.exit_code == 0, r.output
    assert "objective points" in r.output and "check by points per hand" in r.output
    assert "under every objective" in r.output and "at a table of counter" in r.output
    for name in ("hands won", "points per hand", "S1 matches won", "S2 matches won", "S4 matches won"):
        assert name in r.output, name
    chk = json.loads((out / "check.json").read_text())
    assert chk["objective"] == "points" and set(chk["figures"]) == {"hands", "points", "matches:s1", "matches:s2",
                                                                    "matches:s4"}
    assert 'objective = "points"' in (out / "bot.toml").read_text()


def test_tune_by_matches_plays_matches():
    from unosim.studies.tune import tune

    res = tune(HEADS_UP, [resolve_bot("random")], budget=12, deals=20, seed=1, workers=1, objective="matches:s2")
    assert res.settings["objective"] == "matches:s2"
    assert res.hands > 12 * 20 * 2  # a match is more than one hand
    assert res.history["fitness"].between(0, 1).all()


def test_bad_objective_values_are_one_line(tmp_path: Path):
    one_error(invoke("tune", "standard", "--objective", "wins"), "--objective", "hands, points, matches")
    one_error(invoke("tune", "standard", "--objective", "matches:s3"), "--objective")
    one_error(invoke("tune", "standard", "--check-matches", "0"), "--check-matches")
    cfg = tmp_path / "ls.toml"
    cfg.write_text(default_config().with_values({"finish": "last_standing"}).to_toml())
    one_error(invoke("tune", cfg, "--objective", "matches:s2"), "--objective", "last_standing")


def test_check_by_matches_and_other_tables():
    """The final check of a match objective plays matches for its main lines and hands for
    the rest; teams (H12) and last_standing (H13, no S2) are measured too."""
    from unosim.studies.tune import check

    chk = check(HEADS_UP, GREEDY, [resolve_bot("random")], deals=100, matches=15, seed=2, workers=1,
                objective="matches")
    assert chk.objective == "matches:s1" and len(chk.tuned.wins) == 15
    assert set(chk.figures) == {"hands", "points", "matches:s1", "matches:s2", "matches:s4"}
    assert any("S1 matches won" in line for line in chk.lines())
    teams = default_config().with_values({"players": 4, "teams": 2, "match_target": 150})
    arena = Arena(teams, [COUNTER], 1)
    got = arena.measure(arena.params(GREEDY), 1, 0, 50, Objective("points"))
    assert np.isfinite(got["points"].share) and 0 <= got["hands"].share <= 1
    m = arena.measure(arena.params(GREEDY), 1, 0, 10, Objective("matches"))["matches:s1"]
    assert 0 <= m.share <= 1 and m.decided.max() <= 4
    ranked = default_config().with_values({"players": 3, "finish": "last_standing", "match_target": 20})
    arena = Arena(ranked, [COUNTER], 1)
    pts = arena.measure(arena.params(GREEDY), 1, 0, 50, Objective("points"))["points"]
    assert np.all(np.abs(pts.wins) <= 3 * 2)  # rank points n + 1 - 2r lie in [-2, 2] per hand, 3 rotations
    chk = check(ranked, GREEDY, [COUNTER], deals=50, matches=5, workers=1)
    assert "matches:s2" not in chk.figures
