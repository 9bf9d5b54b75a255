"""Sweeps: the sweep file and its validation, the points, the partitioned dataset, and the
balance report on it (`unosim sweep`, `unosim report`, `unosim plot`)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from unosim.analysis import report as rp
from unosim.cli import main
from unosim.rules.config import KEYS, load_config
from unosim.run.jobs import DEFAULT_MATCH_CHUNK, DEFAULT_MAX_HANDS
from unosim.run.matches import run_matches
from unosim.run.sweep import SWEEP_MANIFEST, SweepError, load_sweep, parse_sweep, run_sweep

ROOT = Path(__file__).resolve().parents[2]
SWEEPS = ROOT / "configs" / "sweeps"


def sweep_file(tmp_path: Path, body: str, name: str = "s.toml") -> Path:
    (tmp_path / "base.toml").write_text('name = "mybase"\n[table]\nplayers = 3\n')
    p = tmp_path / name
    p.write_text(body)
    return p


SMALL = """
name = "small"
base = "base.toml"
mode = "one_at_a_time"
hands = 300
seed = 7
chunk_size = 100
[axes]
"rules.stacking" = ["draw2"]
"scoring.zero_points" = [10]
[strata]
"table.players" = [2, 4]
"""


# --------------------------------------------------------------------------- the file


def test_one_at_a_time_points_cross_the_strata(tmp_path: Path) -> None:
    s = load_sweep(sweep_file(tmp_path, SMALL))
    assert s.base.name == "mybase" and s.count == 300 and s.seed == 7 and s.chunk_size == 100
    assert [p.label for p in s.points] == [
        "base,players=2", "base,players=4", "stacking=draw2,players=2", "stacking=draw2,players=4",
        "zero_points=10,players=2", "zero_points=10,players=4"]
    p = s.points[2]
    assert p.rel == "point-0002"
    assert p.cfg.stacking == "draw2" and p.cfg.players == 2 and p.cfg.zero_points == 0
    assert p.cfg.name == "small:stacking=draw2,players=2"
    assert s.base_values() == {"stacking": "none", "zero_points": "0", "players": "3"}


def test_grid_is_the_full_product_and_the_base_value_is_listed_once(tmp_path: Path) -> None:
    body = """hands = 10
mode = "grid"
[axes]
stacking = ["none", "draw2", "all"]
"rules.draw" = ["one", "until_playable"]
"""
    s = load_sweep(sweep_file(tmp_path, body))
    assert len(s.points) == 6 and s.name == "s" and s.base.name == "standard" and s.warnings == ()
    assert s.points[0].label == "base" and s.points[-1].label == "stacking=all,draw=until_playable"
    # one_at_a_time: a value equal to the base's is the base point, not a second point
    s1 = load_sweep(sweep_file(tmp_path, body.replace('"grid"', '"one_at_a_time"')))
    assert [p.label for p in s1.points] == ["base", "stacking=draw2", "stacking=all", "draw=until_playable"]


def test_grid_without_the_base_point_warns(tmp_path: Path) -> None:
    s = load_sweep(sweep_file(tmp_path, 'hands = 10\nmode = "grid"\n[axes]\nstacking = ["draw2", "all"]\n'))
    assert len(s.points) == 2 and "no base point" in s.warnings[0]


def test_set_applies_to_every_point_and_sub_tables_work(tmp_path: Path) -> None:
    body = 'hands = 10\n[set]\nrules.noise_chance = 0.1\n[axes.rules]\nsilent_rank = [6]\n'
    s = load_sweep(sweep_file(tmp_path, body))
    assert [p.cfg.noise_chance for p in s.points] == [0.1, 0.1]
    assert [p.cfg.silent_rank for p in s.points] == ["none", 6]


@pytest.mark.parametrize("body, message", [
    ('hands = 10\n[axes]\n"rules.stackin" = ["draw2"]\n',
     "axes.rules.stackin: unknown config key (did you mean 'rules.stacking'?)"),
    ('hands = 10\n[axes]\n"table.stacking" = ["draw2"]\n', "axes.table.stacking: unknown config key"),
    ('hands = 10\n[axes]\nstacking = ["draw3"]\n',
     "axes.rules.stacking = \"draw3\": rules.stacking: 'draw3' is not one of none, draw2, draw2_draw4, all"),
    ('hands = 10\n[axes]\nplayers = [4, 11]\n', "axes.table.players = 11: table.players: 11 is out of range"),
    ('hands = 10\n[axes]\nseven_o = ["yes"]\n', 'axes.rules.seven_o = "yes": rules.seven_o: expected true or false'),
    ('hands = 10\n[axes]\nstacking = []\n', "axes.rules.stacking: the list of values is empty"),
    ('hands = 10\n[axes]\nstacking = "draw2"\n', "axes.rules.stacking: expected a list of values"),
    ('hands = 10\n[axes]\nstacking = ["draw2", "all", "draw2"]\n',
     'axes.rules.stacking: value "draw2" is listed twice'),
    ('hands = 10\n[axes]\nuno_forget = [0, 0.0]\n', "axes.rules.uno_forget: value 0.0 is listed twice"),
    ('hands = 10\n[axes]\nstacking = ["draw2"]\n"rules.stacking" = ["all"]\n', "axes.rules.stacking: given twice"),
    ('hands = 10\n', "axes: nothing to vary"),
    ('hands = 10\n[axes]\n', "axes: nothing to vary"),
    ('hands = 10\n[axes]\nname = ["a", "b"]\n', "axes.name: the config's name is a label"),
    ('hands = 10\n[axes]\nseats = [["random", "random"]]\n', "axes.bots.seats: the bots are not varied by a sweep"),
    ('hands = 10\n[axes]\n"bots.seats" = ["search"]\n', "set them for every point in [set]"),
    ('hands = 10\n[set]\n"bots.seats" = {strategy = "search", worlds = 0}\n[axes]\n"rules.stacking" = ["draw2"]\n',
     "set.bots.seats = {'strategy': 'search', 'worlds': 0}: bots.seats.worlds: 0 is out of range; allowed: 1-10000"),
    ('hands = 10\n[axes]\nplayers = [3]\n[strata]\nplayers = [4]\n', "strata.table.players: the key is also an axis"),
    ('hands = 10\n[set]\nstacking = "all"\n[axes]\nstacking = ["draw2"]\n', "set.rules.stacking: the key is also varied"),
    ('hands = 10\n[set]\nstacking = "x"\n[axes]\ndraw = ["one"]\n', "set.rules.stacking = \"x\": rules.stacking"),
    ('[axes]\nstacking = ["draw2"]\n', "hands or matches: give exactly one"),
    ('hands = 0\n[axes]\nstacking = ["draw2"]\n', "hands: 0 is out of range; allowed: 1 or more"),
    ('hands = 10\nseed = -1\n[axes]\nstacking = ["draw2"]\n', "seed: -1 is out of range"),
    ('hands = 10\nmode = "cross"\n[axes]\nstacking = ["draw2"]\n', "mode: 'cross' is not one of one_at_a_time, grid"),
    ('hands = 10\naxis = 1\n', "unknown sweep key 'axis' (did you mean 'axes'?)"),
    ('hands = 10\nbase = "nope.toml"\n[axes]\nstacking = ["draw2"]\n', "base: nope.toml: config file not found"),
    ('hands = 10\n[axes]\nteams = [2]\n[strata]\nplayers = [4, 5]\n',
     "point teams=2,players=5: rules.teams: 2 does not divide players = 5"),
])
def test_bad_sweeps_are_one_line_errors_naming_the_key(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "base.toml").write_text("")
    p = tmp_path / "s.toml"
    p.write_text(body)
    with pytest.raises(SweepError) as e:
        load_sweep(p)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_skip_invalid_drops_the_points_a_cross_key_rule_refuses(tmp_path: Path) -> None:
    body = 'hands = 10\nskip_invalid = true\n[axes]\nteams = [2]\n[strata]\nplayers = [4, 5]\n'
    (tmp_path / "s.toml").write_text(body)
    s = load_sweep(tmp_path / "s.toml")
    assert [p.label for p in s.points] == ["base,players=4", "base,players=5", "teams=2,players=4"]
    assert "teams=2,players=5" in s.warnings[0]


def test_house_rules_sweep_covers_every_house_rule() -> None:
    s = load_sweep(SWEEPS / "house_rules.toml")
    swept = {k for k, _ in s.axes}
    house = {k.full for k in KEYS.values() if any(r.startswith("H") for r in k.rules)}
    left_out = {"rules.jump_in_stack", "scoring.match_target", "rules.noise_chance"}  # see its comments
    assert house - swept == left_out
    assert [v for k, v in s.strata] == [(2, 4, 7)]
    seats = {"strategy": "wild_saver", "bluff_rate": 0.2, "challenge_rate": 0.5, "draw_before_wild": True}
    assert s.base == load_config(ROOT / "configs" / "standard.toml").with_values(
        {"rules.noise_chance": 0.05, "bots.seats": seats})  # bots that bluff, challenge, multi-play
    for f in SWEEPS.glob("*.toml"):
        assert load_sweep(f).points


def test_a_sweep_of_matches_takes_the_match_defaults() -> None:
    s = parse_sweep({"matches": 5, "axes": {"stacking": ["draw2"]}})
    assert s.unit == "matches" and s.count == 5
    assert s.max_hands == DEFAULT_MAX_HANDS and s.chunk_size == 5  # at most the count
    assert parse_sweep({"matches": 50_000, "axes": {"stacking": ["draw2"]}}).chunk_size == DEFAULT_MATCH_CHUNK
    with pytest.raises(SweepError, match="^max_hands: only for a sweep of matches$"):
        parse_sweep({"hands": 5, "max_hands": 10, "axes": {"stacking": ["draw2"]}})


# --------------------------------------------------------------------------- running


@pytest.fixture(scope="module")
def small_sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("sweep")
    out = tmp / "out"
    summaries = run_sweep(load_sweep(sweep_file(tmp, SMALL)), out, workers=1)
    assert [s.rows for s in summaries] == [300] * 6 and not any(s.chunks_skipped for s in summaries)
    return out


def test_sweep_writes_one_dataset_with_a_folder_per_point(small_sweep: Path) -> None:
    parts = sorted(p.relative_to(small_sweep).as_posix() for p in small_sweep.rglob("*.parquet"))
    assert len(parts) == 6 * 3
    assert "point-0003/part-000002.parquet" in parts  # stacking=draw2,players=4
    manifest = json.loads((small_sweep / SWEEP_MANIFEST).read_text())
    assert manifest["keys"] == ["rules.stacking", "scoring.zero_points", "table.players"]
    # every file carries its point's full config
    f = small_sweep / "point-0003/part-000000.parquet"
    meta = {k.decode(): v.decode() for k, v in pq.read_schema(f).metadata.items()}
    assert 'stacking = "draw2"' in meta["unosim.config"] and "players = 4" in meta["unosim.config"]
    assert meta["unosim.sweep_point"] == "stacking=draw2,players=4"
    assert json.loads(meta["unosim.sweep_base"])["stacking"] == "none"
    assert json.loads(meta["unosim.sweep_values"]) == {"stacking": "draw2", "zero_points": "0", "players": "4"}
    # pyarrow reads the directory as one dataset, the point's settings in its rows
    import pyarrow.dataset as ds

    table = ds.dataset(small_sweep, format="parquet").to_table(columns=["hand", "rules_stacking", "table_players"])
    assert table.num_rows == 6 * 300


def test_points_share_their_hands_common_random_numbers(small_sweep: Path) -> None:
    """zero_points changes scores only: with the same seed every hand is played alike."""
    base = pd.read_parquet(small_sweep / "point-0001")  # base,players=4
    zero = pd.read_parquet(small_sweep / "point-0005")  # zero_points=10,players=4
    cols = ["hand", "dealer", "winner", "turns", "cards_played", "cards_drawn"]
    pd.testing.assert_frame_equal(base[cols], zero[cols])
    assert (zero["points_0"] >= base["points_0"]).all() and (zero["points_0"] > base["points_0"]).any()


def test_report_and_plot_of_a_sweep_show_the_balance(small_sweep: Path, tmp_path: Path) -> None:
    loaded = rp.load(small_sweep, columns=["turns"])
    assert len(loaded) == 6 and {r.partition["players"] for r in loaded} == {"2", "4"}
    bal = rp.balance_report(small_sweep)
    assert set(bal.table["change"]) == {"stacking=draw2", "zero_points=10"}
    assert set(bal.table["players"]) == {2, 4}
    zp = bal.table[(bal.table["change"] == "zero_points=10") & (bal.table["metric"] == "turns")]
    assert (zp["diff"] == 0).all()  # same hands: exactly no effect on play
    res = CliRunner().invoke(main, ["report", str(small_sweep)])
    assert res.exit_code == 0, res.output
    assert "balance" in res.output and "stacking=draw2" in res.output
    res = CliRunner().invoke(main, ["report", str(small_sweep), "--format", "csv"])
    assert res.exit_code == 0 and "change" in res.output.splitlines()[0]
    res = CliRunner().invoke(main, ["plot", str(small_sweep), "--out", str(tmp_path / "figs")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "figs" / f"balance_{small_sweep.name}.png").exists()


def test_balance_base_comes_from_the_sweep_not_the_registry(tmp_path: Path) -> None:
    """A base config with a house rule on: its value is the base point, not the default."""
    (tmp_path / "base.toml").write_text('[rules]\nstacking = "draw2"\n')
    (tmp_path / "s.toml").write_text('base = "base.toml"\nhands = 60\n[axes]\nstacking = ["all"]\n')
    out = tmp_path / "out"
    run_sweep(load_sweep(tmp_path / "s.toml"), out, workers=1)
    bal = rp.balance_report(out)
    assert set(bal.table["change"]) == {"stacking=all"} and "stacking=draw2" in bal.title


def test_cli_sweep(tmp_path: Path) -> None:
    p = sweep_file(tmp_path, SMALL.replace("hands = 300", "hands = 120"))
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["sweep", str(p), "--out", str(out), "--workers", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "6 points" in res.output and "zero_points=10,players=4" in res.output
    res = CliRunner().invoke(main, ["sweep", str(p), "--out", str(out), "--quiet"])
    assert res.exit_code == 0 and "kept" in res.output and "already complete" in res.output
    bad = sweep_file(tmp_path, SMALL.replace('["draw2"]', '["draw9"]'), "bad.toml")
    res = CliRunner().invoke(main, ["sweep", str(bad), "--out", str(tmp_path / "o2")])
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1].startswith("Error: axes.rules.stacking = \"draw9\"")


def test_a_sweep_of_matches_writes_what_run_matches_writes(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text('matches = 24\nchunk_size = 10\nmax_hands = 400\n[set]\nmatch_target = 100\n'
                                     '[axes]\nstacking = ["draw2"]\n')
    sw = load_sweep(tmp_path / "s.toml")
    assert sw.unit == "matches" and sw.max_hands == 400
    s = run_sweep(sw, tmp_path / "out", workers=1)
    assert [p.units for p in s] == [24, 24] and [p.label for p in s] == ["base", "stacking=draw2"]
    p = sw.points[1]
    run_matches(p.cfg, 24, sw.seed, tmp_path / "ref", chunk_size=10, max_hands=400, workers=1)
    got = pd.read_parquet(tmp_path / "out" / p.rel).sort_values("hand").reset_index(drop=True)
    assert (got.pop("point") == 1).all() and (got.pop("rules_stacking") == "draw2").all()
    want = pd.read_parquet(tmp_path / "ref").sort_values("hand").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want)
    assert (tmp_path / "out" / p.rel / "_unosim.json").read_text() == (tmp_path / "ref" / "_unosim.json").read_text()


def test_sweep_hands_overrides_the_file_and_resume_checks_it(tmp_path: Path) -> None:
    """`unosim sweep --hands N` plays N hands per point instead of the file's; the manifest
    records it, so the same command resumes and another count is refused in one line."""
    p = sweep_file(tmp_path, SMALL)
    out = tmp_path / "out"
    args = ["sweep", str(p), "--out", str(out), "--workers", "1", "--quiet"]
    res = CliRunner().invoke(main, args + ["--hands", "40"])
    assert res.exit_code == 0, res.output
    assert "6 points x 40 hands" in res.output
    assert json.loads((out / SWEEP_MANIFEST).read_text())["count"] == 40
    assert sum(len(pd.read_parquet(f, columns=["hand"])) for f in out.rglob("*.parquet")) == 6 * 40
    res = CliRunner().invoke(main, args + ["--hands", "40"])
    assert res.exit_code == 0 and "already complete" in res.output
    res = CliRunner().invoke(main, args + ["--hands", "50"])
    assert res.exit_code == 2 and "count 40 -> 50" in res.output, res.output


@pytest.mark.parametrize("extra, message", [
    (["--hands", "0"], "--hands: must be between 1 and"),
    (["--matches", "10"], "--matches: this sweep plays hands"),
    (["--hands", "5", "--matches", "5"], "--hands: cannot be combined with --matches"),
])
def test_sweep_count_options_refuse_bad_values_in_one_line(tmp_path: Path, extra: list[str], message: str) -> None:
    p = sweep_file(tmp_path, SMALL)
    res = CliRunner().invoke(main, ["sweep", str(p), "--out", str(tmp_path / "o")] + extra)
    assert res.exit_code == 2, res.output
    assert res.output.strip().splitlines()[-1].startswith(f"Error: {message}"), res.output
    assert not (tmp_path / "o").exists()


def test_the_bots_of_every_point_set_inline_in_set(tmp_path: Path) -> None:
    """``[set] "bots.seats" = {strategy = ...}`` is one value (an inline table), not keys."""
    p = tmp_path / "s.toml"
    p.write_text('hands = 10\n[set]\n"bots.seats" = {strategy = "search", worlds = 5}\n[axes]\n'
                 '"rules.stacking" = ["draw2"]\n')
    sw = load_sweep(p)
    assert [pt.cfg.seats[0][0] for pt in sw.points] == ["search", "search"]
    assert all(pt.cfg.seats[s][1]["worlds"] == 5 for pt in sw.points for s in range(4))


def test_a_huge_sweep_is_refused_before_any_point_is_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """100,000 values on one axis: refused from the lists' lengths alone, no value checked."""
    import time

    from unosim.rules.config import RulesConfig

    p = tmp_path / "s.toml"
    p.write_text('hands = 10\n[axes]\n"rules.noise_chance" = [' + ", ".join(str(i / 1e7) for i in range(1, 10**5 + 1))
                 + "]\n")
    monkeypatch.setattr(RulesConfig, "with_values", lambda *a, **k: pytest.fail("a point was built"))
    t = time.monotonic()
    with pytest.raises(SweepError, match="this sweep has 100,001 points; at most 10,000"):
        load_sweep(p)
    assert time.monotonic() - t < 10
