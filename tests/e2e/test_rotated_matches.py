"""Seat rotation for matches and tournaments (``unosim run --matches/--tournaments
--rotate-seats``, seating.py): every unit once per rotation of the bots on the same deals,
rows independent of workers and chunking, resumable, and a report with per-bot match and
champion shares whose intervals treat a match (tournament) as one cluster."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from unosim.analysis import report as rp
from unosim.analysis.stats import clustered_mean, clustered_share
from unosim.cli import main
from unosim.rules.config import default_config
from unosim.run.jobs import RunError, make_job
from unosim.run.runner import run_job, run_matches
from unosim.run.store import StoreError

HEADS_UP = default_config(players=2).replace(seats=["greedy", "counter"], match_target=200)
FOUR = default_config(players=4).replace(seats=["greedy", "counter", "random", "wild_saver"], hands_per_round=2)


def play(cfg, mode: str, count: int, out, *, chunk: int | None = None, workers: int = 1, rotate: bool = True):
    job = make_job(cfg, mode, count, 7, chunk_size=chunk, out=out, rotate=rotate)
    return run_job(job, workers=workers)


def rows(out) -> pd.DataFrame:
    return pd.read_parquet(out).sort_values(["rotation", "hand"]).reset_index(drop=True)


def test_rotated_matches_share_deals_and_rotate_bots(tmp_path):
    """S3/R4: each match index is played once per rotation; hand h of a match deals the
    same cards in every rotation, so the first hand's dealer and the hand counts of the
    matches' first hands agree, and bot_<s> names who sat at seat s."""
    out = tmp_path / "m"
    s = play(HEADS_UP, "matches", 40, out, chunk=15)
    df = rows(out)
    assert set(df["rotation"]) == {0, 1}
    assert s.units == 40 and s.matches == 40
    first = df[df["hand_in_match"] == 0]
    assert len(first) == 80 and (first.groupby("match")["dealer"].nunique() == 1).all()
    for r, bots in ((0, ["greedy", "counter"]), (1, ["counter", "greedy"])):
        sub = df[df["rotation"] == r]
        assert (sub["bot_0"].astype(str) == bots[0]).all() and (sub["bot_1"].astype(str) == bots[1]).all()
    # the per-bot credit of the summary is the report's
    shares = s.bot_shares("pos")
    assert shares.sum() == pytest.approx(1.0)


def test_the_first_hand_of_a_match_deals_the_same_cards_in_every_rotation(tmp_path):
    """Points left in hand after hand 0 differ by play, but the cards dealt are the
    stream's: replaying a match's hand-0 stream with the seats swapped swaps nothing in
    the deal.  Checked through a rules change that ends every match after one hand."""
    cfg = HEADS_UP.replace(match_target=1, chips_hands=1)
    out = tmp_path / "one"
    play(cfg, "matches", 30, out)
    df = rows(out)
    assert (df["hand_in_match"] == 0).all()  # one hand per match
    a, b = df[df["rotation"] == 0].set_index("match"), df[df["rotation"] == 1].set_index("match")
    assert (a["dealer"] == b["dealer"]).all() and (a["first_player"] == b["first_player"]).all()


def test_rows_do_not_depend_on_workers_or_chunks(tmp_path):
    a = play(HEADS_UP, "matches", 30, tmp_path / "a", chunk=7, workers=1)
    b = play(HEADS_UP, "matches", 30, tmp_path / "b", chunk=30, workers=2)
    pd.testing.assert_frame_equal(rows(tmp_path / "a"), rows(tmp_path / "b"))
    assert a.bot_shares("neg").tolist() == b.bot_shares("neg").tolist()
    t1 = play(FOUR, "tournaments", 6, tmp_path / "t1", chunk=2, workers=1)
    play(FOUR, "tournaments", 6, tmp_path / "t2", chunk=6, workers=2)
    pd.testing.assert_frame_equal(rows(tmp_path / "t1"), rows(tmp_path / "t2"))
    assert t1.units == 6 and t1.bot_shares("pos").sum() == pytest.approx(1.0)


def test_unrotated_rows_are_unchanged_by_the_rotated_kernel(tmp_path):
    """Rotation 0 of a rotated tournament seats the config's bots; only the streams
    differ, so an unrotated run keeps its old rows (the golden rows test the bits)."""
    play(FOUR, "tournaments", 3, tmp_path / "plain", rotate=False)
    df = pd.read_parquet(tmp_path / "plain")
    assert "rotation" not in df and "bot_0" not in df


def test_rotated_tournaments_move_bots_over_player_numbers(tmp_path):
    out = tmp_path / "t"
    play(FOUR, "tournaments", 4, out)
    df = rows(out)
    labels = ["greedy", "counter", "random", "wild_saver"]
    for s in range(4):  # the bot at table seat s is the one of player (player_s - rotation) mod 4
        want = [labels[(p - r) % 4] for p, r in zip(df[f"player_{s}"], df["rotation"])]
        assert df[f"bot_{s}"].astype(str).tolist() == want
    # the same hand of a tournament deals the same cards in every rotation: same dealer, same first card
    first = df[df["hand_in_round"] == 0]
    assert (first.groupby(["tournament", "round"])["first_player"].nunique() == 1).all()


def test_the_python_api_rotates_too(tmp_path):
    s = run_matches(HEADS_UP, 12, 7, tmp_path / "api", workers=1, rotate_seats=True)
    assert s.units == 12 and set(pd.read_parquet(tmp_path / "api")["rotation"]) == {0, 1}


def test_resume_and_refusals(tmp_path):
    out = tmp_path / "r"
    job = make_job(HEADS_UP, "matches", 20, 7, chunk_size=5, out=out, rotate=True)
    run_job(job, workers=1)
    whole = rows(out)
    parts = sorted(out.glob("part-*.parquet"))
    parts[1].unlink()
    parts[3].write_bytes(b"garbage")
    s = run_job(job, workers=1)
    assert s.chunks_skipped == 2
    pd.testing.assert_frame_equal(rows(out), whole)
    with pytest.raises(StoreError):  # the same run unrotated is another run
        run_job(make_job(HEADS_UP, "matches", 20, 7, chunk_size=5, out=out), workers=1)
    with pytest.raises(RunError, match="--chunk-size"):
        make_job(HEADS_UP, "matches", 20, 7, chunk_size=150_000, rotate=True)
    # a part keeps about the rows of an unrotated one: 1/players as many units by default
    assert make_job(HEADS_UP, "matches", 20, 7, rotate=True).chunk_size == 5000
    assert make_job(FOUR, "tournaments", 20, 7, rotate=True).chunk_size == 2500
    with pytest.raises(RunError, match="--rotate-seats"):
        make_job(HEADS_UP, "hands", 20, 7, rotate=True)


@pytest.mark.parametrize("mode, cfg, count", [("matches", HEADS_UP, 6), ("tournaments", FOUR, 3)])
def test_repair_rebuilds_a_rotated_result_as_the_run_it_is(tmp_path, mode, cfg, count):
    """A lost manifest of a seat-rotated match (tournament) result: `unosim repair` keeps
    every part (it once took the run for rotated hands and set them all aside) and names
    the command that finishes it."""
    from unosim.run.repair import repair
    from unosim.run.store import MANIFEST

    out = tmp_path / mode
    play(cfg, mode, count, out, chunk=2)
    want = (out / MANIFEST).read_text()
    (out / MANIFEST).unlink()
    (out / "part-000001.parquet").unlink()
    lines = repair(out)
    assert lines[0].endswith("manifest rebuilt; 1 of 2 chunks verified" if count == 3 else
                             "manifest rebuilt; 2 of 3 chunks verified"), lines
    assert f"unosim run CONFIG --{mode} {count} --rotate-seats --seed 7 --chunk-size 2" in lines[-1], lines
    assert (out / MANIFEST).read_text() == want
    assert not (out / "_rejected").exists()


def test_report_gives_per_bot_match_shares_with_clustered_intervals(tmp_path):
    out = tmp_path / "m"
    play(HEADS_UP, "matches", 60, out)
    t = rp.summarize([out]).table
    got = t[(t["section"] == "match_positive_bot") & (t["figure"] == "win_share")].set_index("key")
    assert set(got.index) == {"greedy", "counter"}
    assert got["value"].sum() == pytest.approx(1.0)
    df = rows(out)
    end = df[df["pos_end"]]
    x = np.zeros(60)
    for r in end.itertuples():
        top = max(r.pos_total_0, r.pos_total_1)
        seat = [s for s in (0, 1) if getattr(r, f"pos_total_{s}") == top]
        x[r.match] += sum(1 / len(seat) for s in seat if getattr(r, f"bot_{s}") == "counter")
    n = end.groupby("match").size().reindex(range(60), fill_value=0).to_numpy(float)
    p, lo, hi = clustered_share(x, n)
    row = got.loc["counter"]
    assert row["value"] == pytest.approx(p) and row["low"] == pytest.approx(lo) and row["high"] == pytest.approx(hi)
    for sec in ("match_negative_bot", "match_chips_bot"):
        assert (t["section"] == sec).any()


def test_every_figure_of_a_rotated_match_run_is_clustered_by_match(tmp_path):
    """Not only the per-bot shares: a seat's match share, hands per match and the final
    totals of a rotated run count a match (both rotations) as one cluster, and the S1/S2
    agreement is over every play (match and rotation), clustered by match."""
    out = tmp_path / "m"
    play(HEADS_UP, "matches", 60, out)
    t = rp.summarize([out]).table
    df = rows(out)
    end = df[df["pos_end"]].sort_values("match")
    top = end[["pos_total_0", "pos_total_1"]].max(axis=1)
    won = (end["pos_total_0"] == top).astype(float) / ((end[["pos_total_0", "pos_total_1"]].eq(top, axis=0)).sum(axis=1))
    by = end.groupby("match")
    x, n = won.groupby(end["match"]).sum().to_numpy(float), by.size().to_numpy(float)

    def row(sec: str, fig: str, key: str, stat: str) -> pd.Series:
        return t[(t["section"] == sec) & (t["figure"] == fig) & (t["key"] == key) & (t["stat"] == stat)].iloc[0]

    seat = row("match_positive_seat", "win_share", "0", "share")
    assert (seat["value"], seat["low"], seat["high"]) == pytest.approx(tuple(clustered_share(x, n)))
    assert seat["clusters"] == 60 and seat["n"] == 120
    hands = (end["hand_in_match"] + 1).astype(float)
    mean = row("match_positive", "hands_per_match", "", "mean")
    want = clustered_mean(hands.groupby(end["match"]).sum().to_numpy(float), n)
    assert (mean["value"], mean["low"], mean["high"]) == pytest.approx(tuple(want))
    assert row("match_positive", "final_winner", "", "mean")["clusters"] == 60
    agree = row("match_agreement", "same_winner", "S1/S2", "share")
    assert agree["n"] == 120 and agree["clusters"] == 60


def test_report_gives_per_bot_champion_shares(tmp_path):
    out = tmp_path / "t"
    play(FOUR, "tournaments", 8, out)
    t = rp.summarize([out]).table
    bots = t[(t["section"] == "tournament_pos_bot") & (t["figure"] == "win_share")]
    assert set(bots["key"]) == {"greedy", "counter", "random", "wild_saver"}
    assert bots["value"].sum() == pytest.approx(1.0)
    assert (bots["low"] <= bots["value"]).all() and (bots["value"] <= bots["high"]).all()
    assert t[(t["section"] == "tournament") & (t["figure"] == "plays")]["value"].iloc[0] == 32


def test_clustered_share_is_the_ratio_estimator():
    p, lo, hi = clustered_share([1, 0, 2, 1], [2, 2, 2, 2])
    assert p == pytest.approx(0.5)
    se = np.sqrt(4 / 3 * ((np.array([1, 0, 2, 1]) - 1.0) ** 2).sum()) / 8
    assert hi - p == pytest.approx(1.959964 * se, rel=1e-5)
    assert np.isnan(clustered_share([1], [2]).low)


def test_cli_run_report_and_bad_values(tmp_path):
    cfg = tmp_path / "h.toml"
    cfg.write_text(HEADS_UP.to_toml())
    out = tmp_path / "cli"
    r = CliRunner().invoke(main, ["run", str(cfg), "--matches", "20", "--rotate-seats", "--out", str(out),
                                  "--quiet", "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "played 2 times" in r.output and "by bot:" in r.output and "1 counter" in r.output
    rep = CliRunner().invoke(main, ["report", str(out)])
    assert rep.exit_code == 0 and "S1 match winner share by bot" in rep.output, rep.output
    bad = CliRunner().invoke(main, ["run", str(cfg), "--matches", "20", "--rotate-seats", "--chunk-size",
                                    "150000", "--out", str(tmp_path / "x"), "--quiet"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "--chunk-size" in bad.output, bad.output
    bad = CliRunner().invoke(main, ["run", str(cfg), "--tournaments", "2", "--rotate-seats", "--out",
                                    str(tmp_path / "y"), "--quiet"])
    assert bad.exit_code == 2 and "--tournaments" in bad.output and "4 or 8" in bad.output, bad.output


@pytest.mark.slow
def test_a_killed_rotated_match_run_resumes_to_the_same_rows(tmp_path):
    """SIGKILL after the first part; the same command then finishes with exactly the rows
    of an uninterrupted run (test_resume.py's helper, a real process)."""
    import sys

    from test_resume import kill_after_first_part, recorded

    cfg = tmp_path / "h.toml"
    cfg.write_text(HEADS_UP.to_toml())
    out = tmp_path / "killed"
    args = ["run", str(cfg), "--matches", "1500", "--rotate-seats", "--chunk-size", "20", "--seed", "7",
            "--workers", "1", "--out", str(out), "--quiet"]
    kill_after_first_part([sys.executable, "-m", "unosim.cli", *args], out)
    left = recorded(out)
    assert 1 <= len(left) < 75, "the run was not interrupted"
    r = CliRunner().invoke(main, args)
    kept = "1 finished chunk was" if len(left) == 1 else f"{len(left)} finished chunks were"
    assert r.exit_code == 0 and f"resumed: {kept} kept" in r.output, r.output
    play(HEADS_UP, "matches", 1500, tmp_path / "whole", chunk=500, workers=2)
    pd.testing.assert_frame_equal(rows(out), rows(tmp_path / "whole"))


def test_trace_replays_a_hand_of_a_rotated_run(tmp_path):
    """`unosim trace --match M --hand K --rotation R` (and --tournament) replays the very
    hand the rotated run played: the same winner, turns and points."""
    from unosim.kernel import layout as L
    from unosim.trace import replay_match, replay_tournament

    play(HEADS_UP, "matches", 3, tmp_path / "m")
    df = rows(tmp_path / "m")
    for r in df[df["hand_in_match"] > 0].head(4).itertuples():
        st, _ = replay_match(HEADS_UP, 7, r.match, r.hand_in_match, rotation=r.rotation)
        assert (st[L.S_WINNER], st[L.S_TURNS], st[L.S_DEALER]) == (r.winner, r.turns, r.dealer)
    play(FOUR, "tournaments", 2, tmp_path / "t")
    df = rows(tmp_path / "t")
    for r in df[(df["hand_in_round"] == 1) & (df["rotation"] == 3)].head(3).itertuples():
        st, _, _, who = replay_tournament(FOUR, 7, r.tournament, r.round, r.table, r.hand_in_round, rotation=3)
        assert (st[L.S_WINNER], st[L.S_TURNS]) == (r.winner, r.turns) and who == [r.player_0, r.player_1,
                                                                                  r.player_2, r.player_3]
    cfg = tmp_path / "h.toml"
    cfg.write_text(HEADS_UP.to_toml())
    ok = CliRunner().invoke(main, ["trace", str(cfg), "--seed", "7", "--match", "1", "--hand", "1", "--rotation", "1"])
    assert ok.exit_code == 0 and "seat rotation 1 (seat 0: counter, seat 1: greedy)" in ok.output, ok.output
    bad = CliRunner().invoke(main, ["trace", str(cfg), "--match", "1", "--rotation", "2"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "--rotation" in bad.output, bad.output
