"""A search's rollout bot given whole (docs/bots.md "search", ``rollout_bot``): an inline
table in a config, a bot file on the command line.

A name keeps its meaning (that strategy at its defaults) and its rows; a table at a
strategy's defaults plays exactly the rows of its name; tuned parameters change the
playouts; a bad table or file is one line naming the key; and a run keeps the whole bot, so
it never depends on the file it was read from.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from cli_checks import invoke, one_error
from unosim.engine import search_batch
from unosim.engine.batch import new_out
from unosim.rules import params as slots
from unosim.rules.botfile import Bot, dump_bot, resolve_bot
from unosim.rules.config import parse_config, to_params
from unosim.rules.strategies import STRATEGIES, Strategy
from unosim.run.seating import bot_label, rotated_params

TUNED = {"w_wild": 3.0, "w_action": -2.0, "w_color_share": -1.0, "w_next_color_odds": 2.0}
"""Weights far from the defaults, w_next_color_odds among them (a watching bot)."""


def config(rollout_bot, players: int = 2, others: str = "counter"):
    seat = {"strategy": "search", "worlds": 2, "rollouts": 1, "rollout_bot": rollout_bot}
    return parse_config({"table": {"players": players}, "bots": {"seats": [seat] + [others] * (players - 1)}})


def rows(rollout_bot, hands: int = 40, players: int = 2) -> np.ndarray:
    P, ctx = search_batch.split_params(to_params(config(rollout_bot, players)))
    out = new_out(hands)
    search_batch.play_hands(P, ctx, 3, 0, hands, out, 1)
    return out


def bot_file(path: Path, strategy: str = "weights", name: str = "tuned-x", **changes) -> Path:
    params = {p: d for p, (d, _) in STRATEGIES[strategy][1].items()}
    path.write_text(dump_bot(Bot(name, strategy, {**params, **changes})))
    return path


def test_a_table_at_the_defaults_is_the_name():
    """The rules vector of ``rollout_bot = {strategy = "weights"}`` is that of ``"weights"``;
    the seat plays the rollout bot's parameters, not its defaults."""
    assert (to_params(config("weights")) == to_params(config({"strategy": "weights"}))).all()
    P, _ = search_batch.split_params(to_params(config({"strategy": "weights", **TUNED})))
    block = P[slots.seat_slots(0)]
    names = list(STRATEGIES["weights"][1])
    assert block[0] == Strategy.weights
    assert all(block[1 + names.index(p)] == v for p, v in TUNED.items())


def test_the_rows_follow_the_rollout_bot():
    """Same seed: a table equal to weights' defaults plays exactly the rows of the name; a
    tuned table plays other hands (its playouts and every move but the searched card)."""
    named = rows("weights")
    assert (rows({"strategy": "weights"}) == named).all()
    tuned = rows({"strategy": "weights", **TUNED})
    assert (tuned != named).any(axis=1).sum() > 0


def test_the_watcher_flag_follows_the_rollout_bot():
    """A weights rollout with w_next_color_odds != 0 reads counter's memory: the table
    watches; at its defaults it does not; the rollout bot moves with its seat."""
    assert to_params(config("weights", others="random"))[slots.P_WATCHERS] == 0.0
    assert search_batch.split_params(to_params(config("weights", others="random")))[0][slots.P_WATCHERS] == 0.0
    P = to_params(config({"strategy": "weights", "w_next_color_odds": 0.5}, players=3, others="random"))
    assert P[slots.P_WATCHERS] == 1.0
    assert search_batch.split_params(P)[0][slots.P_WATCHERS] == 1.0
    Q = rotated_params(P, 3, 2)
    assert (Q[slots.rollout_slots(2)] == P[slots.rollout_slots(0)]).all()
    assert Q[slots.seat_slots(2)][0] == Strategy.search
    assert search_batch.split_params(Q)[0][slots.seat_slots(2)][0] == Strategy.weights


def test_a_bot_file_is_read_into_the_seat(tmp_path: Path):
    """``search:rollout_bot=FILE`` holds the file's whole bot, labelled by the file's name;
    two searches with different rollout bots are different bots with different labels."""
    path = bot_file(tmp_path / "tuned.toml", **TUNED)
    bot = resolve_bot(f"search:worlds=4,rollout_bot={path}", "--a")
    inner = bot.params["rollout_bot"]
    assert inner["strategy"] == "weights" and inner["name"] == "tuned-x"
    assert all(inner[p] == v for p, v in TUNED.items())
    assert bot_label(bot.strategy, bot.params) == "search(worlds=4, rollout_bot=tuned-x)"
    plain = resolve_bot("search:worlds=4,rollout_bot=weights", "--b")
    assert plain.key() != bot.key() and bot_label(plain.strategy, plain.params) != bot_label(bot.strategy, bot.params)


@pytest.mark.parametrize("table, needles", [
    ('{strategy = "search"}', ("bots.seats[0].rollout_bot.strategy", "search")),
    ('{strategy = "weights", w_nosuch = 1}', ("bots.seats[0].rollout_bot.w_nosuch", "unknown parameter")),
    ('{strategy = "weights", w_wild = 1000.0}', ("bots.seats[0].rollout_bot.w_wild", "out of range")),
    ('{strategy = "weights", w_wild = nan}', ("bots.seats[0].rollout_bot.w_wild", "out of range")),
    ('{strategy = "counter", suspicion = "high"}', ("bots.seats[0].rollout_bot.suspicion", "number")),
    ('{w_wild = 1.0}', ("bots.seats[0].rollout_bot", "strategy")),
    ('"tuned.toml"', ("bots.seats[0].rollout_bot", "inline table")),
])
def test_a_bad_rollout_table_in_a_config_is_one_line(tmp_path: Path, table, needles):
    path = tmp_path / "s.toml"
    path.write_text(f'[table]\nplayers = 2\n[bots]\nseats = [{{strategy = "search", rollout_bot = {table}}}, "counter"]\n')
    one_error(invoke("run", path, "--hands", 2, "--out", tmp_path / "out"), *needles)


@pytest.mark.parametrize("make, needles", [
    (lambda d: d / "missing.toml", ("rollout_bot", "bot file not found", "missing.toml")),
    (lambda d: bot_file(d / "s.toml", "search"), ("rollout_bot", "strategy", "search")),
    (lambda d: bot_file(d / "o.toml", w_wild=500.0), ("rollout_bot", "w_wild", "out of range")),
    (lambda d: bot_file(d / "u.toml", w_nosuch=1.0), ("rollout_bot", "w_nosuch", "unknown parameter")),
])
@pytest.mark.parametrize("command", ["duel", "league", "tune", "ceiling"])
def test_a_bad_rollout_bot_file_is_one_line(tmp_path: Path, make, needles, command):
    spec = f"search:rollout_bot={make(tmp_path)}"
    args = {"duel": ("duel", spec, "counter", "--hands", 2),
            "league": ("league", "standard", "--bots", f"{spec},counter", "--deals", 2, "--out", tmp_path / "lg"),
            "tune": ("tune", "standard", "--field", spec, "--budget", 2, "--out", tmp_path / "tn"),
            "ceiling": ("skill", "house_rules", "--ceiling", "--ceiling-bot", spec, "--out", tmp_path / "sk")}[command]
    one_error(invoke(*args), *needles)


def test_a_run_keeps_the_whole_rollout_bot(tmp_path: Path):
    """A league with ``search:rollout_bot=FILE`` stores the resolved bot in its configs and
    manifests: with the file deleted, its tables still report, and a run of a stored config
    runs and resumes."""
    path = bot_file(tmp_path / "tuned.toml", **TUNED)
    out = tmp_path / "lg"
    res = invoke("league", "standard", "--players", 2, "--bots", f"search:worlds=2,rollouts=1,rollout_bot={path},counter",
                 "--deals", 2, "--workers", 1, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    assert str(path) in res.output  # the leaderboard: the spec as given
    labels = {v for part in out.glob("table-*/part-*.parquet") for c, col in
              zip(pq.read_table(part).column_names, pq.read_table(part).columns) if c.startswith("bot_")
              for v in col.to_pylist()}
    assert "search(worlds=2, rollouts=1, rollout_bot=tuned-x)" in labels  # the rows' bot_<s> columns
    path.unlink()
    table = out / "table-0000-order-0000"
    text = json.loads((table / "_unosim.json").read_text())["config"]
    assert 'name = "tuned-x"' in text and "w_wild = 3.0" in text and "w_next_color_odds = 2.0" in text
    res = invoke("report", table)
    assert res.exit_code == 0, res.output
    assert "rollout_bot tuned-x = weights (w_wild 3, w_action -2, w_color_share -1, w_next_color_odds 2)" in res.output
    cfg = tmp_path / "kept.toml"
    cfg.write_text(text)
    run = tmp_path / "run"
    for extra in ((), ("--resume",)):
        res = invoke("run", cfg, "--hands", 3, "--workers", 1, "--out", run, "--quiet", *extra)
        assert res.exit_code == 0, res.output


def test_two_searches_over_rollout_bots_of_one_name_stay_two_bots(tmp_path: Path):
    """Both rollout files are called tuned-x, so both searches would be labelled
    search(..., rollout_bot=tuned-x): a league seats them under their league names (one
    bot, one label in its rows), and a duel tells them apart by role."""
    one = bot_file(tmp_path / "one.toml", **TUNED)
    two = bot_file(tmp_path / "two.toml", **{**TUNED, "w_wild": -3.0})
    specs = [f"search:worlds=2,rollouts=1,rollout_bot={f}" for f in (one, two)]
    out = tmp_path / "lg"
    res = invoke("league", "standard", "--players", 2, "--bots", ",".join([*specs, "counter"]), "--deals", 2,
                 "--workers", 1, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    labels = set()
    for part in out.glob("table-*/part-*.parquet"):
        t = pq.read_table(part)
        labels |= {v for c in t.column_names if c.startswith("bot_") for v in t.column(c).to_pylist()}
    assert labels == {*specs, "counter"}
    res = invoke("duel", *specs, "--players", 2, "--hands", 2, "--workers", 1)
    assert res.exit_code == 0, res.output
    assert f"A - B ({specs[0]} - {specs[1]})" in res.output


def test_a_search_bot_file_lists_its_rollout_bot_whole(tmp_path: Path):
    """A bot file of strategy ``search`` may hold its rollout bot as a table: written by
    dump_bot it reads back the same bot; a table that leaves a parameter out is refused, as
    a bot file's own parameters are (a changed default never changes the bot)."""
    bot = resolve_bot(f"search:worlds=4,rollout_bot={bot_file(tmp_path / 'tuned.toml', **TUNED)}", "--a")
    path = tmp_path / "search.toml"
    path.write_text(dump_bot(Bot("s", bot.strategy, bot.params)))
    assert resolve_bot(str(path), "--a").key() == bot.key()
    short = tmp_path / "short.toml"
    short.write_text(path.read_text().replace("w_draw4 = 0.0, ", ""))
    one_error(invoke("duel", short, "counter", "--hands", 2), "leaves out rollout_bot.w_draw4")


def test_match_runs_take_the_rollout_bot_too(tmp_path: Path):
    """Matches (engine.matches.play_search_matches, through the same split_params): a bot
    file at weights' defaults plays the matches of the name, a tuned one other matches."""
    def figures(rollout_bot):
        res = invoke("duel", f"search:worlds=2,rollouts=1,rollout_bot={rollout_bot}", "counter", "--matches", 2,
                     "--workers", 1)
        assert res.exit_code == 0, res.output
        lines = [ln.split() for ln in res.output.splitlines() if ln.strip().startswith(("A:", "B:"))]
        assert len(lines) == 2, res.output
        return [" ".join(words[2:]) for words in lines]  # the figures, not the label

    named = figures("weights")
    assert figures(bot_file(tmp_path / "plain.toml")) == named
    assert figures(bot_file(tmp_path / "tuned.toml", **TUNED)) != named


def test_a_ceiling_keeps_its_rollout_bot(tmp_path: Path):
    """``skill --ceiling-bot search:rollout_bot=FILE``: the settings a skill folder keeps (JSON)
    hold the whole rollout bot and give back the same ceiling without the file."""
    from unosim.studies.skill_index import Ceiling

    path = bot_file(tmp_path / "tuned.toml", **TUNED)
    ceiling = Ceiling(resolve_bot(f"search:worlds=4,rollout_bot={path}", "--ceiling-bot"), 10)
    kept = json.loads(json.dumps(ceiling.identity()))
    path.unlink()
    again = Ceiling.of(kept)
    assert again.bot.key() == ceiling.bot.key() and again.identity() == ceiling.identity()
    assert again.bot.name == "search:worlds=4,rollout_bot=tuned-x"
