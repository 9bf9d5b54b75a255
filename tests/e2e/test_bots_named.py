"""Every report, summary and chart of a run or sweep names the bots that sat, in one
wording (unosim.run.bots_text): a figure measures the rules *and* the bots."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from result_files import sweep, ten_hands, write_result
from unosim.analysis import report as rp
from unosim.analysis.plots import plot_balance, plot_win_share
from unosim.cli import main
from unosim.run.bots_text import bot_text, bots_line, seating_text

SAVER = ("wild_saver", {"bluff_rate": 0.2, "challenge_rate": 0.5, "draw_before_wild": True})


def test_a_seating_in_seat_order_with_changed_parameters_only() -> None:
    assert seating_text([SAVER] * 4) == "wild_saver x4 (bluff_rate 0.2, challenge_rate 0.5, draw_before_wild true)"
    assert seating_text([("counter", {"bluff_rate": 0.0, "suspicion": 0.5})] + [("random", {})] * 3) == \
        "counter (suspicion 0.5), random x3"
    assert seating_text([("random", {}), ("greedy", {}), ("random", {})]) == "random, greedy, random"
    weights = {f"w{i}": float(i) for i in range(6)}
    assert bot_text("weights", weights, max_params=2) == "weights (w0 0, w1 1, +4 more)"


def test_several_results_one_line() -> None:
    four, two = seating_text([SAVER] * 4), seating_text([SAVER] * 2)
    assert bots_line({"a": four, "b": four}) == four
    assert bots_line({"a": four, "b": two}) == \
        "wild_saver at every seat (bluff_rate 0.2, challenge_rate 0.5, draw_before_wild true)"
    assert bots_line({"a": four, "b": "counter, random x3"}) == f"a: {four}; b: counter, random x3"
    assert bots_line({"a": ""}) == ""


def _mixed(tmp_path: Path) -> Path:
    path = write_result(tmp_path / "mixed.parquet", ten_hands(), bots=["counter", "random", "random", "random"])
    return path


def test_every_rendering_names_the_bots(tmp_path: Path) -> None:
    path = _mixed(tmp_path)
    rep = rp.hand_report(path)
    assert "bots: counter, random x3" in rp.to_text(rep).splitlines()[1]
    assert "bots: counter, random x3" in rp.to_markdown(rep)
    assert json.loads(rp.to_json(rep))["bots"] == "counter, random x3"
    res = CliRunner().invoke(main, ["report", str(path)])
    assert res.exit_code == 0 and "bots: counter, random x3" in res.output
    fig = plot_win_share(rep)
    assert "bots: counter, random x3" in fig.get_supxlabel().replace("\n", " ") and "default" not in fig.get_supxlabel()


def test_a_sweep_names_its_bots(tmp_path: Path) -> None:
    root = sweep(tmp_path)
    bal = rp.balance_report(root)
    said = "bots: random in every seat (the default; a [bots] table in the config chooses them)"
    assert said in rp.to_text(bal)
    res = CliRunner().invoke(main, ["report", str(root), "--view", "summary"])
    assert res.exit_code == 0 and said in res.output
    assert "bots: random at every seat (the default)" in plot_balance(bal).get_supxlabel().replace("\n", " ")


def test_default_bots_are_said_out_loud(tmp_path: Path) -> None:
    """A run, a sweep and a report whose bots are the defaults say so in one line; chosen
    bots, even random ones in every seat of a config that names them, are not 'the default'
    only when they differ from it."""
    said = "  bots: random in every seat (the default; a [bots] table in the config chooses them)"
    res = CliRunner().invoke(main, ["run", "standard", "--hands", "100", "--out", str(tmp_path / "r"), "--quiet"])
    assert res.exit_code == 0 and res.output.splitlines()[1] == said, res.output
    sw = tmp_path / "s.toml"
    sw.write_text('hands = 50\n[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2, 3]\n')
    res = CliRunner().invoke(main, ["sweep", str(sw), "--out", str(tmp_path / "s"), "--quiet"])
    assert res.exit_code == 0 and res.output.splitlines()[1] == said, res.output
    res = CliRunner().invoke(main, ["report", str(tmp_path / "r")])
    assert res.exit_code == 0 and said.strip() in res.output.splitlines(), res.output
    cfg = tmp_path / "c.toml"
    cfg.write_text('name = "c"\n[bots]\nseats = {strategy = "random", bluff_rate = 0.5}\n')
    res = CliRunner().invoke(main, ["run", str(cfg), "--hands", "100", "--out", str(tmp_path / "c"), "--quiet"])
    assert res.exit_code == 0 and "the default" not in res.output, res.output


def test_run_and_sweep_commands_print_the_bots(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('name = "c"\n[table]\nplayers = 3\n[bots]\nseats = ["counter", "random", "random"]\n')
    res = CliRunner().invoke(main, ["run", str(cfg), "--hands", "200", "--out", str(tmp_path / "r"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[1] == "  bots: counter, random x2"
    sw = tmp_path / "s.toml"
    sw.write_text('name = "s"\nbase = "standard"\nhands = 100\n[set]\nbots.seats = "greedy"\n'
                  '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2, 3]\n')
    res = CliRunner().invoke(main, ["sweep", str(sw), "--out", str(tmp_path / "sw"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "  bots: greedy at every seat" in res.output.splitlines()


def test_one_name_per_figure_and_no_repeated_rows(tmp_path: Path) -> None:
    bal = rp.balance_report(sweep(tmp_path))
    text = rp.to_text(bal)
    assert "dealer+1 win share (diff, effect)" in text and "seat_advantage" not in text
    assert "dealer1_win_share" in set(bal.table["metric"])
    assert "official rules" in text.splitlines()[0]
    # every bot holds one seat: wins per seat held would repeat the bot's win share
    path = write_result(tmp_path / "one_each.parquet", ten_hands(), bots=["a", "b", "c", "d"])
    assert "(per seat held)" not in rp.to_text(rp.hand_report(path))
    assert "(per seat held)" in rp.to_text(rp.hand_report(_mixed(tmp_path)))


def test_tune_lines_pad_after_the_name() -> None:
    from unosim.studies.tune import _aligned

    lines = _aligned([("best built-in (counter)", "1"), ("tuned vs the field", "2")])
    assert lines == ["  best built-in (counter)  1", "  tuned vs the field       2"]


def test_a_bad_workers_count_is_refused_before_any_progress(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["run", "standard", "--hands", "10", "--workers", "0", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and res.output.splitlines() == [
        res.output.splitlines()[0]] and res.output.startswith("Error: --workers: 0 is not between 1")
    assert not (tmp_path / "r").exists()


def test_a_changed_run_is_named_in_todays_words(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert CliRunner().invoke(main, ["run", "standard", "--hands", "100", "--out", str(out), "--quiet"]).exit_code == 0
    res = CliRunner().invoke(main, ["run", "standard", "--hands", "200", "--out", str(out), "--quiet"])
    assert res.exit_code == 2 and "differs in: hands 100 -> 200" in res.output, res.output


def test_a_rotated_run_says_its_seats_were_rotated(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('name = "c"\n[table]\nplayers = 3\n[bots]\nseats = ["counter", "random", "random"]\n')
    out = tmp_path / "r"
    assert CliRunner().invoke(main, ["run", str(cfg), "--hands", "60", "--rotate-seats", "--out", str(out),
                                     "--quiet"]).exit_code == 0
    assert "bots: counter, random x2; seats rotated" in rp.to_text(rp.hand_report(out))
