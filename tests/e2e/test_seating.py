"""Fair seatings (seating.py, ``unosim run --rotate-seats``) and ``unosim duel``."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from unosim.cli import main
from unosim.rules.config import default_config, to_params
from unosim.studies.duel import duel, parse_bot, render
from unosim.kernel import layout as L
from unosim.rules import params as slots
from unosim.engine.batch import trace_hand
from unosim.run.runner import play_chunk, run_hands
from unosim.run.seating import SeatRotation, bot_label, instance_at, rotated_params, seat_of
from unosim.analysis.stats import wilson_interval
from unosim.run.store import StoreError

MIXED = ["greedy", {"strategy": "counter", "suspicion": 0.5}, "random"]


def test_rotated_params_move_each_seat_block():
    cfg = default_config(players=3).replace(seats=MIXED)
    P = to_params(cfg)
    for r in range(3):
        Q = rotated_params(P, 3, r)
        for i in range(3):
            s = seat_of(i, r, 3)
            assert instance_at(s, r, 3) == i
            blk = slice(slots.P_BOT0 + s * slots.BOT_STRIDE, slots.P_BOT0 + (s + 1) * slots.BOT_STRIDE)
            src = slice(slots.P_BOT0 + i * slots.BOT_STRIDE, slots.P_BOT0 + (i + 1) * slots.BOT_STRIDE)
            assert (Q[blk] == P[src]).all()
        assert (Q[:slots.P_BOT0] == P[:slots.P_BOT0]).all()   # the rules never move
        assert (Q[slots.P_BOT0 + 3 * slots.BOT_STRIDE:] == P[slots.P_BOT0 + 3 * slots.BOT_STRIDE:]).all()


def test_labels_name_non_default_parameters():
    assert bot_label("greedy", {"bluff_rate": 0.0, "challenge_rate": 0.0}) == "greedy"
    assert bot_label("counter", {"bluff_rate": 0.0, "suspicion": 0.5}) == "counter(suspicion=0.5)"
    assert SeatRotation(default_config(players=3).replace(seats=MIXED)).labels == [
        "greedy", "counter(suspicion=0.5)", "random"]


def test_same_hand_index_same_deal_in_every_rotation():
    """Every rotation of a hand index deals the same cards from the same shuffle (seed stream)."""
    rot = SeatRotation(default_config(players=3).replace(seats=MIXED))
    deals = []
    for P in rot.params:
        log = np.zeros((5000, L.LOG_WIDTH), np.int64)
        st = trace_hand(P, 11, 42, log)
        ev = log[: st[L.S_NLOG]]
        deals.append(ev[(ev[:, 0] == L.EV_DEAL) | (ev[:, 0] == L.EV_TURN_UP)].tolist())
    assert deals[0] and deals[0] == deals[1] == deals[2]


def test_run_with_rotated_seats_writes_rotation_and_bot_columns(tmp_path):
    cfg = default_config(players=3).replace(seats=MIXED)
    out = tmp_path / "rot.parquet"
    s = run_hands(cfg, 50, 3, out, workers=1, chunk_size=20, rotate_seats=True)
    assert s.hands == 150
    df = pd.read_parquet(out)
    assert len(df) == 150
    assert sorted(df.groupby("hand").size().unique()) == [3]               # each index once per rotation
    assert (df.groupby("hand")["dealer"].nunique() == 1).all()             # same deal, same dealer
    assert (df.groupby("hand")["rotation"].apply(lambda r: sorted(r) == [0, 1, 2])).all()
    labels = ["greedy", "counter(suspicion=0.5)", "random"]
    for s_ in range(3):
        want = [labels[(s_ - r) % 3] for r in df["rotation"]]
        assert df[f"bot_{s_}"].astype(str).tolist() == want
    meta = pq.read_schema(next(out.glob("part-*.parquet"))).metadata
    assert meta[b"unosim.rotate_seats"] == b"true"
    assert json.loads(meta[b"unosim.bot_labels"]) == labels
    # the same run without rotation is a different run: refused, not silently mixed
    with pytest.raises(StoreError):
        run_hands(cfg, 50, 3, out, workers=1, chunk_size=20)


def test_rotation_removes_seat_bias():
    """With the dealer fixed (E4: the last seat always deals) seat 0 plays first and wins
    more than 1/4 with four copies of greedy; rotated, each copy gets 1/4 within its interval."""
    cfg = default_config(players=4, dealer="fixed").replace(seats=["greedy"] * 4)
    rows = play_chunk(to_params(cfg), 5, 0, 20_000, 2)
    w = rows[:, L.O_WINNER]
    decided = int((w >= 0).sum())
    low, _ = wilson_interval(int((w == 0).sum()), decided)
    assert low > 0.25                                   # the seat bias is real ...
    rot = SeatRotation(cfg)
    rows, rotation = rot.play(play_chunk, 5, 0, 2_000, 2)
    inst = rot.instance_winner(rows, rotation)
    decided = int((inst >= 0).sum())
    for i in range(4):
        lo, hi = wilson_interval(int((inst == i).sum()), decided)
        assert lo <= 0.25 <= hi                          # ... and rotation removes it


def test_parse_bot():
    assert parse_bot("greedy") == "greedy"
    assert parse_bot("counter:suspicion=0.5,bluff_rate=0.1") == {"strategy": "counter", "suspicion": 0.5,
                                                                 "bluff_rate": 0.1}
    assert parse_bot("wild_saver:draw_before_wild=true") == {"strategy": "wild_saver", "draw_before_wild": True}


def test_duel_figures_add_up():
    res = duel("greedy", "random", players=3, hands=300, seed=4, others="random", workers=1)
    assert res.hands == 300 * 6 and res.seatings == 6  # B one or two seats after A, x 3 rotations
    a, b, others = res.lines
    assert a.label == "A: greedy" and b.label == "B: random" and others.seats == 1
    decided = res.hands - res.stalled
    assert a.decided == b.decided == others.decided == decided
    assert a.wins + b.wins + others.wins == decided
    assert a.low <= a.share <= a.high
    # S1: what the winners score is what the others are left holding (the winner holds none)
    assert res.stalled == 0
    total_won = a.points_won + b.points_won + others.points_won
    total_left = a.points_left + b.points_left + others.points_left
    assert total_won == pytest.approx(total_left) and total_won > 0
    # B and the other seat are the same bot, and every placement is played: identical figures
    assert (b.wins, b.points_won) == (others.wins, others.points_won)
    assert any("95% interval" in line for line in render(res))


def test_duel_matches_bounds_stay_within_shares():
    """Ten matches of greedy against B0: the normal bounds would pass 100% (and A - B
    +100 points); they stop at what a share and a difference can be."""
    from unosim.studies.duel import duel_matches

    res = duel_matches("greedy", "random", players=2, matches=10, seed=0, workers=1)
    for line in res.lines:
        assert 0.0 <= line.low <= line.share <= line.high <= 1.0
    assert -1.0 <= res.diff_low <= res.diff <= res.diff_high <= 1.0
    assert res.lines[0].high == 1.0 and res.diff_high == 1.0


def test_duel_is_symmetric_at_four_players():
    """`duel X Y` and `duel Y X` play the same seatings (X alone among Y's and Y alone among
    X's, every rotation) on the same deals: the same difference with the other sign."""
    r1 = CliRunner().invoke(main, ["duel", "counter", "greedy", "--players", "4", "--hands", "150", "--seed", "3",
                                   "--workers", "1"])
    r2 = CliRunner().invoke(main, ["duel", "greedy", "counter", "--players", "4", "--hands", "150", "--seed", "3",
                                   "--workers", "1"])
    assert r1.exit_code == 0 and r2.exit_code == 0, (r1.output, r2.output)
    d1 = next(ln for ln in r1.output.splitlines() if "A - B" in ln)
    d2 = next(ln for ln in r2.output.splitlines() if "A - B" in ln)
    v1 = re.findall(r"[+-]\d+\.\d+", d1)
    v2 = re.findall(r"[+-]\d+\.\d+", d2)
    assert float(v1[0]) == -float(v2[0]) != 0 and float(v1[1]) == -float(v2[2]) and float(v1[2]) == -float(v2[1])
    x = duel("counter", "greedy", players=4, hands=150, seed=3, workers=1)
    y = duel("greedy", "counter", players=4, hands=150, seed=3, workers=1)
    assert x.diff == -y.diff and x.diff_low == -y.diff_high and x.seatings == 8
    assert x.lines[0].share == y.lines[1].share and x.lines[0].label == "A: counter"
    with_others = [duel(p, q, players=3, hands=100, seed=1, others="random", workers=1)
                   for p, q in (("counter", "greedy"), ("greedy", "counter"))]
    assert with_others[0].diff == -with_others[1].diff


def test_duel_labels_a_bot_file_by_its_name(tmp_path):
    from unosim.rules.botfile import Bot, dump_bot, resolve_bot

    bot = resolve_bot("counter:suspicion=0.5")
    (tmp_path / "keeper.toml").write_text(dump_bot(Bot("my-keeper", bot.strategy, bot.params), {}))
    (tmp_path / "stem.toml").write_text(dump_bot(Bot("x", bot.strategy, bot.params), {}).replace('name = "x"\n', ""))
    res = duel(str(tmp_path / "keeper.toml"), str(tmp_path / "stem.toml"), hands=20, workers=1)
    assert [x.label for x in res.lines] == ["A: my-keeper", "B: stem"]
    assert res.diff == 0  # the same bot on both sides: every deal is won once from each side


def test_duel_bad_values_are_one_line():
    for args, needle in ((["--players", "1"], "--players"), (["--players", "11"], "--players"),
                         (["--hands", "0"], "--hands"), (["--seed", "-1"], "--seed"),
                         (["--others", "random"], "--others"), (["--players", "3", "--others", "nope"], "--others")):
        r = CliRunner().invoke(main, ["duel", "greedy", "random", *args])
        lines = [ln for ln in r.output.splitlines() if ln.strip()]
        assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith(f"Error: {needle}"), r.output


def test_duel_cli():
    r = CliRunner().invoke(main, ["duel", "greedy", "random", "--hands", "200", "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "A: greedy" in r.output and "B: random" in r.output and "%" in r.output
    r = CliRunner().invoke(main, ["duel", "greedy", "nobody"])
    assert r.exit_code == 2 and "unknown strategy 'nobody'" in r.output


def test_a_bad_duel_bot_is_blamed_on_its_argument() -> None:
    """`unosim duel greedy smart` names argument B, not a config seat list nobody wrote."""
    from click.testing import CliRunner

    from unosim.cli import main

    for args, arg in ((["greedy", "smart"], "B"), (["smrt", "greedy"], "A"),
                      (["greedy", "random", "--players", "3", "--others", "nope"], "--others")):
        r = CliRunner().invoke(main, ["duel", *args, "--hands", "10"])
        assert r.exit_code == 2 and r.output.startswith(f"Error: {arg}: unknown strategy"), r.output
