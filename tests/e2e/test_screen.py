"""`unosim screen`: the space file's checks, the design, the deal-clustered fit and a planted
interaction recovered within its interval."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cli_checks import invoke, one_error
from unosim.run.sweep import parse_sweep, run_sweep
from unosim.studies.screen import FIGURES, fit_figure, hand_figures, model_matrix, read_screen
from unosim.studies.screen_report import plot_sobol
from unosim.studies.space import design, load_space, parse_space

BOTS = 'bots.seats = {strategy = "wild_saver", bluff_rate = 0.2, challenge_rate = 0.5, draw_before_wild = true}'
# players x draw: drawing until playable lengthens a 4-player hand far more than a 2-player
# one; zero_points changes scores only, so the model's terms for it are known to be 0
PLANTED = f"""
name = "planted"
base = "standard"
hands = 1000
seed = 3
[set]
{BOTS}
[factors]
"table.players" = [2, 4]
"rules.draw" = ["one", "until_playable"]
"scoring.zero_points" = [0, 10]
"""


def write(tmp_path: Path, text: str, name: str = "space.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize("factors, needles", [
    ('"rules.stackin" = ["none", "all"]', ("factors.rules.stackin", "unknown config key", "rules.stacking")),
    ('"rules.stacking" = ["none", "sometimes"]', ("factors.rules.stacking", "sometimes", "draw2_draw4")),
    ('"rules.stacking" = ["none"]', ("factors.rules.stacking", "at least two values")),
    ("", ("factors", "empty")),
])
def test_bad_space_is_one_line_naming_the_key(tmp_path: Path, factors: str, needles: tuple) -> None:
    space = write(tmp_path, f'name = "bad"\nhands = 10\n[factors]\n{factors}\n')
    one_error(invoke("screen", space, "--out", tmp_path / "out"), *needles)
    assert not (tmp_path / "out").exists()


def test_unknown_space_name_lists_the_bundled_ones(tmp_path: Path) -> None:
    one_error(invoke("screen", "house_rule", "--out", tmp_path / "o"), "house_rule", "house_rules")


def test_bundled_space_covers_the_house_rules_in_a_strength_two_design() -> None:
    space = load_space("house_rules")
    names = {f.name for f in space.factors}
    assert {"players", "stacking", "jump_in", "seven_o", "multi_play", "misplay"} <= names
    rows = design(space)
    x, _ = model_matrix(rows, [len(f.levels) for f in space.factors])
    assert np.linalg.matrix_rank(x) == x.shape[1]  # every two-way interaction is estimable
    for j, f in enumerate(space.factors):  # each value about equally often: one point per stratum of
        counts = np.bincount(rows[:, j], minlength=len(f.levels))  # width 1/n, and each bin's two
        assert counts.max() - counts.min() <= 2                     # edges may cut a stratum


def test_clustered_covariance_matches_statsmodels_on_every_hand() -> None:
    """The fit on point means with the deal-clustered sandwich equals statsmodels'
    cluster-robust OLS over every (point, hand) row, clustered by hand."""
    import statsmodels.api as sm

    rng = np.random.default_rng(1)
    rows = np.array([[a, b] for a in range(2) for b in range(3)] * 2)
    deal = rng.normal(size=40)
    y = 1 + rows[:, :1] * 0.5 + (rows[:, 1:] == 2) * (1 + deal) + deal + rng.normal(size=(12, 40))
    model = fit_figure("turns", y, rows, [2, 3])
    x, _ = model_matrix(rows, [2, 3])
    full = sm.OLS(y.ravel(), np.repeat(x, 40, axis=0)).fit(
        cov_type="cluster", cov_kwds={"groups": np.tile(np.arange(40), 12)})
    assert np.allclose(model.params, full.params)
    assert np.allclose(model.cov, full.cov_params(), rtol=1e-9)


@pytest.mark.slow
def test_planted_interaction_is_recovered_within_its_interval(tmp_path: Path) -> None:
    out = tmp_path / "screen"
    res = invoke("screen", write(tmp_path, PLANTED), "--out", out, "--quiet", "--workers", "1")
    assert res.exit_code == 0, res.output
    terms = read_screen(out)["terms"]
    turns = terms[terms["figure"] == "turns"].set_index(["a", "a_value", "b", "b_value"])
    got = turns.loc[("players", "4", "draw", "until_playable")]
    # the same interaction from direct runs of its four configs, on other deals
    direct = parse_sweep({"name": "direct", "mode": "grid", "hands": 20_000, "seed": 11,
                          "set": {"bots.seats": {"strategy": "wild_saver", "bluff_rate": 0.2,
                                                 "challenge_rate": 0.5, "draw_before_wild": True}},
                          "axes": {"table.players": [2, 4], "rules.draw": ["one", "until_playable"]}})
    run_sweep(direct, tmp_path / "direct", workers=1)
    ys, _ = hand_figures(tmp_path / "direct", 4)
    cell = {tuple(dict(p.values).values()): float(np.log(y.mean()))  # turns are modelled as logs
            for p, y in zip(direct.points, ys["turns"])}
    known = (cell[4, "until_playable"] - cell[4, "one"]) - (cell[2, "until_playable"] - cell[2, "one"])
    assert known > 0.1  # a real interaction, not one that any interval around 0 would hold
    assert got["low"] <= known <= got["high"], (known, got["low"], got["high"])
    assert got["low"] > 0 and bool(got["discovery"])
    # zero_points changes no hand: its terms on turns are 0
    zp = turns[(turns.index.get_level_values("a") == "zero_points") | (turns.index.get_level_values("b") == "zero_points")]
    assert np.allclose(zp["estimate"], 0, atol=1e-9)
    # the report says it in words, and the screen resumes without playing again
    report = invoke("report", out)
    assert report.exit_code == 0, report.output
    assert "players=4 with draw=until_playable: mean turns 1." in report.output
    csv = invoke("report", out, "--format", "csv")
    assert csv.exit_code == 0 and pd.read_csv(io.StringIO(csv.output))["figure"].nunique() == 4
    plots = invoke("plot", out, "--out", tmp_path / "plots")
    assert plots.exit_code == 0, plots.output
    for name in ("interactions_screen.png", "sobol_screen.png"):
        assert (tmp_path / "plots" / name).stat().st_size > 20_000
    panels = plot_sobol(read_screen(out)).axes
    assert [ax.get_title() for ax in panels] == list(FIGURES.values())  # each panel names its figure
    page = invoke("report", out, "--html", tmp_path / "page.html")
    assert page.exit_code == 0, page.output
    text = (tmp_path / "page.html").read_text()
    assert text.count("data:image/png;base64,") == 4 and "Strongest interactions" in text  # each figure twice: laptop, phone
    assert "players=4 with draw=until_playable" in text
    before = pd.read_csv(out / "_screen_terms.csv")
    again = invoke("screen", write(tmp_path, PLANTED), "--out", out, "--quiet")
    assert again.exit_code == 0, again.output
    pd.testing.assert_frame_equal(pd.read_csv(out / "_screen_terms.csv"), before)


def test_parse_space_refuses_a_key_set_and_varied() -> None:
    with pytest.raises(ValueError, match="set.rules.draw"):
        parse_space({"hands": 10, "set": {"rules.draw": "one"}, "factors": {"rules.draw": ["one", "until_playable"]}})


def test_unosim_configs_lists_the_bundled_spaces() -> None:
    out = invoke("configs").output
    assert "spaces (unosim screen NAME):" in out
    assert "house_rules  Every house rule of docs/rules.md at once" in out.split("spaces (unosim screen NAME):")[1]


def test_an_unfinished_screen_is_one_line_in_report_plot_and_page(tmp_path: Path) -> None:
    """A screen stopped after its points (before its models) is no balance sweep."""
    from unosim.studies.space import space_sweep

    space = load_space(write(tmp_path, PLANTED.replace("hands = 1000", "hands = 50")))
    run_sweep(space_sweep(space, design(space)), tmp_path / "s", workers=1)
    for args in (("report", tmp_path / "s"), ("plot", tmp_path / "s", "--out", tmp_path / "p"),
                 ("report", tmp_path / "s", "--html", tmp_path / "p.html")):
        one_error(invoke(*args), "a screen that did not finish", "_screen.json is missing", "unosim screen")


@pytest.mark.slow
def test_a_screen_on_dask_gives_the_same_models(tmp_path: Path) -> None:
    space = write(tmp_path, PLANTED.replace("hands = 1000", "hands = 200"))
    for name, extra in (("local", ()), ("dask", ("--cluster", "local"))):
        res = invoke("screen", space, "--out", tmp_path / name, "--quiet", "--workers", "1", *extra)
        assert res.exit_code == 0, res.output
    local, dask = (pd.read_csv(tmp_path / n / "_screen_terms.csv") for n in ("local", "dask"))
    pd.testing.assert_frame_equal(local, dask)
