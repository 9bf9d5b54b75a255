"""`unosim design`: rule sets verified by direct runs, written as configs, or none found
with the hardest target named; bad targets are one line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from cli_checks import invoke, one_error
from unosim.rules.config import load_config

pytestmark = pytest.mark.slow  # each plays a screen or direct runs

SPACE = """
name = "tiny"
base = "standard"
hands = 600
seed = 5
[set]
bots.seats = {strategy = "wild_saver", bluff_rate = 0.2, challenge_rate = 0.5, draw_before_wild = true}
[factors]
"table.players" = [2, 4]
"rules.draw" = ["one", "until_playable"]
"rules.stacking" = ["none", "all"]
"rules.seven_o" = [false, true]
"""


@pytest.fixture(scope="module")
def screened(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("design")
    space = root / "tiny.toml"
    space.write_text(SPACE)
    res = invoke("screen", space, "--out", root / "screen", "--quiet", "--workers", "1")
    assert res.exit_code == 0, res.output
    return space, root / "screen"


def test_design_writes_sets_whose_measured_figures_meet_the_targets(screened: tuple[Path, Path],
                                                                   tmp_path: Path) -> None:
    space, screen = screened
    out = tmp_path / "d"
    res = invoke("design", "--space", space, "--screen", screen, "--target", "turns 30..60",
                 "--target", "first_seat_edge -6..6", "--maximize", "s1_points", "--out", out,
                 "--trials", "200", "--candidates", "4", "--verify-hands", "3000", "--quiet", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "held out: the models miss the verified sets" in res.output
    side = pd.read_csv(out / "design.csv")
    assert len(side) == 4 and {"turns_predicted", "turns", "turns_low", "turns_high"} <= set(side.columns)
    met = side[side["meets"]]
    assert len(met) >= 1, res.output
    assert (met["turns_low"] >= 30).all() and (met["turns_high"] <= 60).all()
    assert (met["first_seat_edge_low"] >= -6).all() and (met["first_seat_edge_high"] <= 6).all()
    configs = sorted(out.glob("tiny-design-*.toml"))
    assert len(configs) == len(met)
    cfg = load_config(configs[0])  # ready to use
    assert cfg.name == "tiny-design-1" and "measured on new deals" in configs[0].read_text()
    assert (out / "pareto.png").stat().st_size > 10_000


def test_design_says_none_found_and_the_hardest_target(screened: tuple[Path, Path], tmp_path: Path) -> None:
    space, screen = screened
    res = invoke("design", "--space", space, "--screen", screen, "--target", "turns 2..3",
                 "--target", "first_seat_edge -50..50", "--out", tmp_path / "d", "--trials", "50",
                 "--candidates", "2", "--verify-hands", "500", "--quiet", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "none found" in res.output and "the hardest is turns 2..3" in res.output
    assert not list((tmp_path / "d").glob("*.toml"))


@pytest.mark.parametrize("args, needles", [
    (("--target", "turns 25-35"), ("--target", "FIGURE LOW..HIGH")),
    (("--target", "turnz 25..35"), ("turnz", "allowed: turns, first_seat_edge")),
    (("--target", "turns 35..25"), ("LOW must be below HIGH",)),
    (("--target", "turns 25..35", "--minimize", "skill"), ("--minimize skill", "not screened")),
    (("--target", "skill 0..1",), ("--target skill", "not screened")),
])
def test_bad_design_options_are_one_line(screened: tuple[Path, Path], tmp_path: Path, args: tuple,
                                         needles: tuple) -> None:
    space, screen = screened
    one_error(invoke("design", "--space", space, "--screen", screen, "--out", tmp_path / "d", *args), *needles)


def test_design_runs_the_screen_first_when_none_is_given(screened: tuple[Path, Path], tmp_path: Path) -> None:
    space, screen = screened
    out = tmp_path / "d"
    args = ("design", "--space", space, "--target", "turns 30..60", "--out", out, "--trials", "30",
            "--candidates", "1", "--verify-hands", "500", "--quiet", "--workers", "1")
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    # the same screen as the one played on its own: same space, same deals
    ours, theirs = (pd.read_csv(d / "_screen_terms.csv") for d in (out / "screen", screen))
    pd.testing.assert_frame_equal(ours, theirs)
    again = invoke(*args)  # resumed, not refused
    assert again.exit_code == 0, again.output


def test_design_refuses_a_folder_of_something_else(screened: tuple[Path, Path], tmp_path: Path) -> None:
    space, screen = screened
    (tmp_path / "mine.txt").write_text("keep me")
    one_error(invoke("design", "--space", space, "--screen", screen, "--target", "turns 30..60",
                     "--out", tmp_path), "--out", "not a `unosim design` folder")
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_maximize_skill_ranks_the_verified_sets_by_a_tuned_bot(screened: tuple[Path, Path], tmp_path: Path) -> None:
    space, screen = screened
    out = tmp_path / "d"
    res = invoke("design", "--space", space, "--screen", screen, "--target", "turns 30..60", "--maximize", "skill",
                 "--out", out, "--trials", "40", "--candidates", "2", "--verify-hands", "1000",
                 "--skill-budget", "12", "--skill-deals", "50", "--quiet", "--workers", "1")
    assert res.exit_code == 0, res.output
    side = pd.read_csv(out / "design.csv")
    met = side[side["meets"]]
    assert len(met) and met["skill"].notna().all() and side["skill"].isna().sum() == (~side["meets"]).sum()
    assert list(met["skill"]) == sorted(met["skill"], reverse=True)  # the most skilful first
    assert (met["skill_low"] <= met["skill"]).all() and (met["skill"] <= met["skill_high"]).all()
    assert "skill index:" in (out / "tiny-design-1.toml").read_text()


def test_pick_takes_sets_that_differ_rather_than_near_twins() -> None:
    from unosim.studies.design import pick

    # ranked best first: rows 1-3 are twins of row 0, row 4 differs in every key
    front = pd.DataFrame({"a": [0, 0, 0, 1, 1], "b": [0, 0, 1, 0, 1], "c": [0, 1, 0, 0, 1]})
    assert list(pick(front, 2, ["a", "b", "c"]).index) == [0, 4]
    assert len(pick(front, 9, ["a", "b", "c"])) == 5
    assert pick(front.iloc[:0], 2, ["a", "b", "c"]).empty
