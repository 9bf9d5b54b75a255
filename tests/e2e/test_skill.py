"""Skill or luck (unosim/studies/): bot files, the tuner, the league and the skill index.

Sizes are small (the suite's budget is tight) but every claim is checked with an
interval: the tuner beats B0 and its own start on fresh deals, the same seed tunes the
same bot, a league recovers an order measured beforehand (counter > greedy > random
heads-up: 63.0% / 56.8% against B0 in docs/bots.md) whatever order the bots are listed
in, and B0's skill index at a B0 table is 0 within its interval.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

import unosim
from unosim.cli import main
from unosim.rules.botfile import Bot, dump_bot, load_bot_file, resolve_bot, split_bots
from unosim.rules.config import ConfigError, default_config

HEADS_UP = default_config().with_values({"players": 2})
B0 = [resolve_bot("random")]


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result: Result, *needles: str) -> None:
    """Exit 2 and one ``Error:`` line naming the needles (the CLI's contract)."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), lines
    for n in needles:
        assert n in lines[0], (n, lines[0])


# --------------------------------------------------------------------------- bot files


def test_bot_file_round_trip_and_strictness(tmp_path: Path) -> None:
    bot = resolve_bot("weights:w_wild=-3.25,bluff_rate=0.1")
    path = tmp_path / "b.toml"
    path.write_text(dump_bot(Bot("mine", bot.strategy, bot.params), {"note": "test"}))
    back = load_bot_file(path)
    assert back.name == "mine" and back.params == bot.params and back.key() == bot.key()
    assert resolve_bot(str(path)).params == bot.params
    text = path.read_text()
    path.write_text("\n".join(ln for ln in text.splitlines() if not ln.startswith("w_copies")))
    with pytest.raises(ConfigError, match="leaves out w_copies"):
        load_bot_file(path)
    path.write_text(text.replace("w_copies", "w_copy"))
    with pytest.raises(ConfigError, match="w_copy: unknown parameter"):
        load_bot_file(path)
    assert split_bots(("counter:suspicion=0.5,bluff_rate=0.1,greedy", "random")) == [
        "counter:suspicion=0.5,bluff_rate=0.1", "greedy", "random"]


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    one_error(invoke("tune", "standard", "--field", "randum"), "--field", "randum", "did you mean")
    one_error(invoke("tune", "standard", "--budget", "0"), "--budget")
    one_error(invoke("league", "standard", "--bots", "counter,nobot,random,greedy"), "--bots", "nobot")
    one_error(invoke("league", "standard", "--bots", "counter,greedy"), "--bots", "at least 4")
    one_error(invoke("league", "standard", "--bots", "counter,counter", "--players", "2"), "--bots", "twice")
    bad = tmp_path / "bad.toml"
    bad.write_text('strategy = "weights"\nw_wild = 1.0\n')
    one_error(invoke("duel", bad, "random"), "A:", "leaves out")
    one_error(invoke("tune", "standard", "--field", bad), "--field", "leaves out")
    one_error(invoke("skill", "house_rules", "--bot", tmp_path / "missing.toml"), "--bot", "bot file not found")
    one_error(invoke("tune", "standard", "--deals", "0", "--budget", "12"), "--deals")
    one_error(invoke("tune", "standard", "--replicates", "0"), "--replicates")
    # an empty bot is refused, never dropped, and leaves no folder claimed
    one_error(invoke("tune", "standard", "--field", "", "--out", tmp_path / "t"), "--field", "an empty bot")
    one_error(invoke("league", "standard", "--bots", "random,,greedy,counter,aggressor"), "--bots", "an empty bot")
    one_error(invoke("skill", "house_rules", "--bot", "", "--out", tmp_path / "s"), "--bot")
    assert not (tmp_path / "t").exists() and not (tmp_path / "s").exists()
    one_error(invoke("tune", "standard", "--replicates", "101"), "--replicates")
    one_error(invoke("skill", "house_rules", "--replicates", "0"), "--replicates")
    one_error(invoke("skill", "house_rules", "--replicates", "-2", "--bot", "random"), "--replicates")


# --------------------------------------------------------------------------- the tuner


@pytest.fixture(scope="module")
def tuned():
    from unosim.studies.tune import tune

    return tune(HEADS_UP, B0, budget=96, deals=400, seed=3, workers=2)


def test_tuner_beats_its_start_and_the_field(tuned) -> None:
    from unosim.studies.tune import check

    chk = check(HEADS_UP, tuned.bot, B0, deals=6000, seed=3, workers=2)
    lo, _ = chk.tuned.interval()
    assert lo > 0.5, chk.lines()
    d, dlo, _ = chk.tuned.minus(chk.start)
    assert dlo > 0, chk.lines()
    assert tuned.generations == 8 and len(tuned.history) == 96
    assert set(tuned.history["candidate"]) == set(range(-1, 11))


def test_same_seed_same_bot(tuned) -> None:
    from unosim.studies.tune import tune

    a = tune(HEADS_UP, B0, budget=24, deals=100, seed=5, workers=2)
    b = tune(HEADS_UP, B0, budget=24, deals=100, seed=5, workers=1)
    assert a.bot.params == b.bot.params
    assert a.history.equals(b.history)
    c = tune(HEADS_UP, B0, budget=24, deals=100, seed=6, workers=2)
    assert c.bot.params != a.bot.params


def test_ctrl_c_keeps_the_mean_so_far() -> None:
    from unosim.studies.tune import tune

    def stop(g: int, share: float) -> None:
        if g == 1:
            raise KeyboardInterrupt

    res = tune(HEADS_UP, B0, budget=60, deals=50, seed=1, workers=2, progress=stop)
    assert res.interrupted and res.generations == 2 and res.bot.strategy == "weights"
    assert sorted(set(res.history["generation"])) == [0, 1]


def test_tune_command_writes_a_usable_bot(tmp_path: Path) -> None:
    out = tmp_path / "t"
    r = invoke("tune", "standard", "--players", "2", "--budget", "24", "--deals", "100", "--check-deals", "500",
               "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    assert {"bot.toml", "history.parquet", "curve.png", "check.json"} <= {p.name for p in out.iterdir()}
    assert "best built-in" in r.output and "kernel" in r.output
    hist = pd.read_parquet(out / "history.parquet")
    assert {"generation", "candidate", "w_wild", "fitness"} <= set(hist.columns) and len(hist) == 24
    assert json.loads((out / "check.json").read_text())["best_builtin"]
    d = invoke("duel", out / "bot.toml", "random", "--hands", "300")
    assert d.exit_code == 0 and "A: tuned-standard-2p" in d.output, d.output  # labelled by its name


# --------------------------------------------------------------------------- the league


def test_league_recovers_a_known_order_whatever_the_listing(tmp_path: Path) -> None:
    from unosim.studies.league import fit_league, make_league, run_league

    tables = []
    for k, order in enumerate((["random", "greedy", "counter"], ["counter", "random", "greedy"])):
        lg = make_league(HEADS_UP, [resolve_bot(b) for b in order], deals=3000, seed=11)
        run_league(lg, tmp_path / f"l{k}", workers=2)
        tables.append(fit_league(lg, tmp_path / f"l{k}"))
    a, b = tables
    assert list(a["bot"]) == ["counter", "greedy", "random"], a
    pd.testing.assert_frame_equal(a.drop(columns="source"), b.drop(columns="source"))
    assert a["low"].iloc[0] > a["high"].iloc[2]  # counter above random beyond the intervals
    rows = pd.read_parquet(tmp_path / "l0" / "table-0000-order-0000")
    assert {"bot_0", "bot_1", "rotation", "winner"} <= set(rows.columns)


def test_league_at_three_players_ignores_names_and_listing(tmp_path: Path) -> None:
    """Every table is played in every seating of its bots, so renaming the bots (bot files
    with other names) and listing them in another order changes no strength and no
    interval, to the last bit (at 3 players one cyclic order, set by sorting the names,
    would not)."""
    from unosim.studies.league import fit_league, make_league, run_league

    def files(names: dict[str, str], where: Path) -> list[Bot]:
        where.mkdir()
        out = []
        for strategy, name in names.items():
            bot = resolve_bot(strategy)
            (where / f"{name}.toml").write_text(dump_bot(Bot(name, bot.strategy, bot.params), {}))
            out.append(resolve_bot(str(where / f"{name}.toml")))
        return out

    first = files({"counter": "a_counter", "greedy": "b_greedy", "random": "c_random", "wild_saver": "d_saver"},
                  tmp_path / "one")
    second = files({"wild_saver": "a_saver", "random": "b_random", "counter": "z_counter", "greedy": "c_greedy"},
                   tmp_path / "two")
    three = default_config().with_values({"players": 3})
    found = []
    for k, bots in enumerate((first, list(reversed(second)))):
        lg = make_league(three, bots, deals=60, seed=5)
        assert lg.orders == 2 and len(lg.jobs(tmp_path / "x")) == 8
        run_league(lg, tmp_path / f"l{k}", workers=1)
        t = fit_league(lg, tmp_path / f"l{k}", replicates=50)
        t["strategy"] = [resolve_bot(s).strategy for s in t["source"]]
        found.append(t.set_index("strategy").sort_index())
    a, b = found
    cols = ["strength", "low", "high", "fisher_low", "fisher_high", "wins", "hands"]
    pd.testing.assert_frame_equal(a[cols], b[cols], check_exact=True)
    assert (a["hands"] == 60 * 3 * 2 * 3).all()  # 3 tables each, 3! seatings of 60 deals


def test_replicates_combine_search_and_measurement_noise() -> None:
    """The random-effects mean: the replicates' spread beyond their measurement error is the
    search's noise, pooled over the points of a group, with Student t's degrees of freedom."""
    import numpy as np

    from unosim.studies.replicates import combine, quantile

    c = combine(np.array([[1.0, 2.0, 3.0], [5.0, 5.0, 8.0]]), np.full((2, 3), 0.1))
    tau2 = ((1.0 - 0.01) + (3.0 - 0.01)) / 2
    assert c.df == 4 and c.tau2 == pytest.approx(tau2)
    assert c.mean.tolist() == [2.0, 6.0] and c.se == pytest.approx(np.sqrt((tau2 + 0.01) / 3))
    lo, hi = c.interval()
    assert hi[0] - lo[0] == pytest.approx(2 * quantile(4) * c.se[0])
    alike = combine(np.array([[0.5, 0.5, 0.5]]), np.full((1, 3), 0.2))  # no spread: measurement only
    assert alike.tau2 == 0 and alike.se[0] == pytest.approx(0.2 / np.sqrt(3))
    one = combine(np.array([[0.4], [0.6]]), np.array([[0.1], [0.1]]))  # one replicate: no search noise known
    assert one.df is None and quantile(one.df) == pytest.approx(1.959964, abs=1e-6)


@pytest.mark.slow
def test_tune_replicates(tmp_path: Path) -> None:
    out = tmp_path / "t"
    r = invoke("tune", "standard", "--players", "2", "--budget", "12", "--deals", "30", "--check-deals", "200",
               "--replicates", "2", "--seed", "4", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    about = json.loads((out / "replicates.json").read_text())
    assert about["seeds"] == [4, 5] and (out / "bot.toml").exists()
    one = json.loads((out / "replicate=1" / "check.json").read_text())
    assert about["tuned vs the field"]["replicates"][1] == one["tuned_vs_field"]["share"]
    assert "over 2 replicates" in r.output and "tuned - its best built-in" in r.output
    # replicate 0 is the very bot `unosim tune --seed 4` tunes
    single = invoke("tune", "standard", "--players", "2", "--budget", "12", "--deals", "30", "--check-deals", "200",
                    "--seed", "4", "--out", tmp_path / "s", "--quiet")
    assert single.exit_code == 0
    assert load_bot_file(tmp_path / "s" / "bot.toml").params == load_bot_file(out / "replicate=0" / "bot.toml").params


def test_league_fit_matches_choix() -> None:
    """The Newton fit from per-table counts is the maximum likelihood choix finds from the
    hands one by one (the same Plackett-Luce top-1 model)."""
    import choix
    import numpy as np

    from unosim.studies.league import fit_counts

    M = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    C = np.array([[30, 20, 10], [25, 18, 12], [33, 9, 14], [21, 12, 19]])
    data = [(int(M[t, i]), [int(x) for x in M[t] if x != M[t, i]]) for t in range(4) for i in range(3)
            for _ in range(C[t, i])]
    ref = np.asarray(choix.ilsr_top1(4, data, alpha=1e-6, tol=1e-12))
    ours = fit_counts(M, C, 4)
    assert np.abs((ref - ref.mean()) - ours).max() < 1e-5, (ref, ours)


def test_league_goodness_of_fit_flags_a_cycle() -> None:
    """Counts drawn from the model pass the residual test; a rock-paper-scissors cycle
    (each bot wins 70% against one rival and 30% against the other: every strength 0
    predicts 50%) fails it, and the leaderboard prints the warning."""
    import numpy as np

    from unosim.studies.league import League, fit_table, render_fit

    bots = tuple(resolve_bot(b) for b in ("counter", "greedy", "random"))
    lg = League(HEADS_UP, bots, 2, 2000, 3)
    rng = np.random.default_rng(0)
    M = np.array(lg.tables)

    def counts(first_wins: np.ndarray) -> np.ndarray:
        c = np.zeros((len(M), 2000, 2))
        c[:, :, 0] = rng.binomial(2, first_wins[:, None], (len(M), 2000))  # 2 seatings per deal
        c[:, :, 1] = 2 - c[:, :, 0]
        return c

    theta = np.array([0.3, 0.0, -0.3])
    fits = fit_table(lg, counts(1 / (1 + np.exp(theta[M[:, 1]] - theta[M[:, 0]]))), replicates=20)
    assert fits.df == 1 and fits.p > 1e-3, fits
    assert np.abs(fits.theta - theta).max() < 0.05
    cycle = fit_table(lg, counts(np.array([0.7, 0.3, 0.7])), replicates=20)  # 0>1, 2>0, 1>2
    assert cycle.p < 1e-6, cycle
    lines = render_fit(cycle)
    assert len(lines) == 2 and "does not fit" in lines[1]
    assert len(render_fit(fits)) == 1


def test_league_command_resumes(tmp_path: Path) -> None:
    args = ("league", "standard", "--bots", "counter,greedy,random,wild_saver", "--deals", "200", "--out",
            tmp_path / "lg", "--quiet")
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    assert (tmp_path / "lg" / "_leaderboard.png").exists()
    again = invoke(*args)
    assert again.exit_code == 0 and again.output == first.output


# --------------------------------------------------------------------------- the skill index


def test_b0_has_no_skill_at_a_b0_table() -> None:
    """Exactly 0, interval included: with every seat B0, rotating the seats changes no
    hand, so the bot under test wins each deal in exactly one of its n rotations."""
    from unosim.studies.skill_index import measure

    for players in (2, 4):
        cfg = default_config().with_values({"players": players})
        m = measure(cfg, B0[0], deals=3000, seed=2, workers=2)
        assert m["skill_low"] <= 0 <= m["skill_high"], m
        assert m["norm_low"] <= 0 <= m["norm_high"], m


def test_skill_sweep_and_balance_column(tmp_path: Path) -> None:
    sweep = tmp_path / "sw.toml"
    sweep.write_text('name = "sw"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 2000\nseed = 0\n'
                     '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2]\n')
    data = tmp_path / "sw"
    assert invoke("sweep", sweep, "--out", data, "--quiet").exit_code == 0
    r = invoke("skill", sweep, "--out", tmp_path / "sw.skill", "--budget", "12", "--deals", "50",
               "--check-deals", "400", "--quiet")
    assert r.exit_code == 0, r.output
    table = pd.read_parquet(tmp_path / "sw.skill" / "skill.parquet")
    assert len(table) == 2 and table["is_base"].sum() == 1
    pd.testing.assert_frame_equal(unosim.load(tmp_path / "sw.skill"), table)  # a skill folder loads as its table
    assert "3 independently tuned replicates" in r.output and "search noise included" in r.output
    for k in range(3):  # the default: 3 replicates, seeds 0, 1, 2
        assert (tmp_path / "sw.skill" / "_points" / "point-0001" / f"replicate={k}" /
                "bot.toml").exists()
    raw = pd.read_parquet(tmp_path / "sw.skill" / "_skill_replicates.pq")
    assert len(raw) == 6 and sorted(set(raw["seed"])) == [0, 1, 2]
    # the point's figure is the mean over its replicates; its interval the search noise's t (2 points x 2 df)
    import numpy as np
    from scipy import stats as st

    for row in table.itertuples():
        mine = raw[raw["label"] == row.label]
        assert row.share == pytest.approx(mine["share"].mean()) and row.replicates == 3 and row.df == 4
        assert row.norm_high - row.norm_low == pytest.approx(2 * st.t.ppf(0.975, 4) * row.norm_se)
        assert row.norm_se >= mine["skill_norm"].std(ddof=1) / np.sqrt(3) * 0.2  # never just the measurement
    from unosim.analysis.report.skill import skill_rows

    base, point = table[table["is_base"]].iloc[0], table[~table["is_base"]].iloc[0]
    (row,) = skill_rows([(json.loads(point["partition"]), json.loads(base["partition"]), {})], table, lambda v: v)
    half = st.t.ppf(0.975, 4) * np.hypot(point["norm_se"], base["norm_se"])
    assert row["high"] - row["diff"] == pytest.approx(half)
    rep = invoke("report", data)
    assert rep.exit_code == 0 and "skill index (diff, effect)" in rep.output, rep.output
    again = invoke("skill", sweep, "--out", tmp_path / "sw.skill", "--budget", "12", "--deals", "50",
                   "--check-deals", "400", "--quiet")
    assert again.exit_code == 0, again.output  # resumed: every point kept, the same table
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "sw.skill" / "skill.parquet"), table)
