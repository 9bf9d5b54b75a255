"""Reports on small synthetic result files whose answers are computed by hand.

The files are written here with exactly the engine's schema (docs/rules.md O1 and the
store's column list), so these tests do not depend on the engine.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from unosim.analysis import report as rp

INT_COLUMNS = (
    "dealer", "first_player", "winner", "winning_team", "turns", "cards_played",
    "cards_drawn", "reshuffles", "challenges", "uno_penalties", "longest_stack",
    "stack_drawn", "jump_ins", "swaps", "passes", "slaps", "noises", "giveaways", "max_draw",
)  # fmt: skip


def result_table(n: int, players: int, cols: dict[str, Any], matches: bool = False) -> pa.Table:
    """A table with the full engine schema; ``cols`` overrides the zero defaults."""
    cols = dict(cols)
    arrays: dict[str, pa.Array] = {"hand": pa.array(np.arange(n, dtype=np.int64))}
    for c in INT_COLUMNS:
        arrays[c] = pa.array(np.asarray(cols.pop(c, np.zeros(n)), dtype=np.int32))
    arrays["stalled"] = pa.array(np.asarray(cols.pop("stalled", np.zeros(n)), dtype=bool))
    for s in range(players):
        for pre in ("points", "cards", "rank"):
            arrays[f"{pre}_{s}"] = pa.array(np.asarray(cols.pop(f"{pre}_{s}", np.zeros(n)), dtype=np.int32))
    if matches:
        arrays["match"] = pa.array(np.asarray(cols.pop("match"), dtype=np.int64))
        arrays["hand_in_match"] = pa.array(np.asarray(cols.pop("hand_in_match"), dtype=np.int32))
        for s in range(players):
            for pre in ("pos_total", "neg_total"):
                arrays[f"{pre}_{s}"] = pa.array(np.asarray(cols.pop(f"{pre}_{s}"), dtype=np.int32))
        for c in ("pos_end", "neg_end"):
            arrays[c] = pa.array(np.asarray(cols.pop(c), dtype=bool))
    for s in range(players):
        if f"bot_{s}" in cols:
            arrays[f"bot_{s}"] = pa.array([str(x) for x in cols.pop(f"bot_{s}")], pa.string())
    assert not cols, f"unknown columns {sorted(cols)}"
    return pa.table(arrays)


def write_result(
    path: Path,
    cols: dict[str, Any],
    players: int = 4,
    name: str = "standard",
    bots: list[str] | None = None,
    teams: int = 1,
    finish: str = "first_out",
    config: str | None = None,
    row_group_size: int | None = None,
) -> Path:
    """Write a result file with the engine's columns and ``unosim.*`` metadata."""
    n = len(next(iter(cols.values())))
    matches = "match" in cols
    table = result_table(n, players, cols, matches)
    meta = {
        "unosim.version": "0.1.0",
        "unosim.engine_version": "1",
        "unosim.config": config or f'name = "{name}"\n[table]\nplayers = {players}\n',
        "unosim.config_name": name,
        "unosim.seed": "1",
        "unosim.players": str(players),
        "unosim.teams": str(teams),
        "unosim.match_target": "500",
        "unosim.bots": json.dumps(bots or ["random"] * players),
        "unosim.mode": "matches" if matches else "hands",
        "unosim.finish": finish,
    }
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=row_group_size)
    return path


# 10 hands, 4 players; row 5 is stalled.
DEALER = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
WINNER = [1, 2, 3, 0, 2, -1, 3, 1, 1, 2]
TURNS = [10, 20, 30, 40, 50, 5000, 70, 80, 90, 100]
PLAYED = [9, 19, 29, 39, 49, 400, 69, 79, 89, 99]
DRAWN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def ten_hands(**extra: Any) -> dict[str, Any]:
    stalled = [w == -1 for w in WINNER]
    return {
        "dealer": DEALER, "first_player": [(d + 1) % 4 for d in DEALER], "winner": WINNER,
        "winning_team": WINNER, "stalled": stalled, "turns": TURNS, "cards_played": PLAYED,
        "cards_drawn": DRAWN, "reshuffles": [0] * 9 + [2], **extra,
    }  # fmt: skip


def get(
    rep: rp.Report, section: str, figure: str, key: str = "", stat: str | None = None, label: str | None = None
) -> pd.Series:
    t = rep.table
    m = (t["section"] == section) & (t["figure"] == figure) & (t["key"] == key)
    if stat:
        m &= t["stat"] == stat
    if label:
        m &= t["label"] == label
    rows = t[m]
    assert len(rows) == 1, rows
    return rows.iloc[0]


@pytest.fixture
def ten(tmp_path: Path) -> Path:
    return write_result(tmp_path / "ten.parquet", ten_hands(), row_group_size=3)


def test_hand_report_exact(ten: Path) -> None:
    rep = rp.hand_report(ten)
    assert rep.labels == ["standard"]
    assert get(rep, "hands", "hands")["value"] == 10
    st = get(rep, "hands", "stalled")
    assert st["value"] == pytest.approx(0.1) and st["n"] == 10
    # seat wins over the 9 decided hands: seat 0 once, 1 three times, 2 three, 3 twice
    for seat, wins in enumerate([1, 3, 3, 2]):
        r = get(rep, "seat", "win_share", str(seat))
        assert r["successes"] == wins and r["n"] == 9
        assert r["value"] == pytest.approx(wins / 9)
        assert r["low"] < r["value"] < r["high"]
    # (winner - dealer) mod 4: seven hands won by dealer+1, two by dealer+2
    for rel, wins in enumerate([0, 7, 2, 0]):
        assert get(rep, "after_dealer", "win_share", str(rel))["successes"] == wins
    m = get(rep, "length", "turns", stat="mean")
    assert m["value"] == pytest.approx(549.0)
    assert m["sd"] == pytest.approx(np.std(TURNS, ddof=1))
    assert get(rep, "length", "turns", stat="median")["value"] == 60
    assert get(rep, "length", "turns", stat="p90")["value"] == pytest.approx(590.0)
    assert get(rep, "length", "turns", stat="p99")["value"] == pytest.approx(4559.0)
    for q, name in ((0.5, "median"), (0.9, "p90"), (0.99, "p99")):
        assert get(rep, "length", "cards_played", stat=name)["value"] == pytest.approx(np.quantile(PLAYED, q))
    assert get(rep, "counters", "cards_drawn", stat="mean")["value"] == pytest.approx(5.5)
    assert get(rep, "counters", "reshuffles", stat="mean")["value"] == pytest.approx(0.2)
    assert get(rep, "counters", "challenges", stat="mean")["value"] == 0
    # all-zero house-rule counters are left out, and there is no bot or team section
    assert not set(rep.table["figure"]) & set(rp.HOUSE_COUNTERS)
    assert not set(rep.table["section"]) & {"bot", "team"}
    assert rep.dists["standard"]["turns"].sum() == 10


def test_mean_interval_is_t(ten: Path) -> None:
    from scipy import stats as st

    r = get(rp.hand_report(ten), "counters", "cards_drawn", stat="mean")
    half = st.t.ppf(0.975, 9) * np.std(DRAWN, ddof=1) / math.sqrt(10)
    assert r["low"] == pytest.approx(5.5 - half) and r["high"] == pytest.approx(5.5 + half)


def test_house_counters_when_nonzero(tmp_path: Path) -> None:
    a = write_result(tmp_path / "a.parquet", ten_hands(jump_ins=[0] * 8 + [3, 1], max_draw=[0] * 9 + [12]))
    b = write_result(tmp_path / "b.parquet", ten_hands(), name="plain")
    rep = rp.hand_report([a, b])
    assert get(rep, "counters", "jump_ins", stat="mean", label="standard")["value"] == pytest.approx(0.4)
    assert get(rep, "counters", "max_draw", stat="max", label="standard")["value"] == 12
    # shown for every config once non-zero in one, so comparisons line up
    assert get(rep, "counters", "jump_ins", stat="mean", label="plain")["value"] == 0
    assert "swaps" not in set(rep.table["figure"])


def test_bots_from_metadata_and_columns(tmp_path: Path) -> None:
    meta = write_result(tmp_path / "m.parquet", ten_hands(), bots=["greedy", "random", "random", "random"])
    rep = rp.hand_report(meta)
    g = get(rep, "bot", "win_share", "greedy")
    assert g["successes"] == 1 and g["n"] == 9
    r = get(rep, "bot", "win_per_seat", "random")
    assert r["successes"] == 8 and r["n"] == 27
    # rotated seats: bot_<s> columns; greedy sits at seat (hand mod 4)
    rot = {f"bot_{s}": ["greedy" if h % 4 == s else "random" for h in range(10)] for s in range(4)}
    col = write_result(tmp_path / "c.parquet", ten_hands(**rot), row_group_size=4)
    rep = rp.hand_report(col)
    wins = sum(1 for h, w in enumerate(WINNER) if w == h % 4)
    assert get(rep, "bot", "win_share", "greedy")["successes"] == wins
    assert get(rep, "bot", "win_per_seat", "greedy")["n"] == 9
    assert get(rep, "bot", "win_per_seat", "random")["n"] == 27


def test_teams(tmp_path: Path) -> None:
    team = [w % 2 if w >= 0 else -1 for w in WINNER]
    path = write_result(tmp_path / "t.parquet", ten_hands(winning_team=team), teams=2)
    rep = rp.hand_report(path)
    assert get(rep, "team", "win_share", "0")["successes"] == 1 + 3  # seats 0 and 2
    assert get(rep, "team", "win_share", "1")["successes"] == 3 + 2


def test_load_reads_only_requested_columns(ten: Path) -> None:
    [res] = rp.load(ten, columns=["winner", "turns"])
    assert list(res.frame.columns) == ["winner", "turns"]
    assert res.frame["turns"].dtype == np.int32
    assert res.info.players == 4 and res.info.config_name == "standard"
    assert res.meta["mode"] == "hands"
    with pytest.raises(KeyError, match="match"):
        rp.load(ten, columns=["match"])
    [full] = rp.load(ten)
    assert "points_3" in full.frame.columns and full.frame["stalled"].dtype == bool


def test_labels_disambiguated_by_stem(tmp_path: Path) -> None:
    a = write_result(tmp_path / "run1.parquet", ten_hands())
    b = write_result(tmp_path / "run2.parquet", ten_hands())
    c = write_result(tmp_path / "x.parquet", ten_hands(), name="other")
    labels = [r.label for r in rp.load([a, b, c], columns=["winner"])]
    assert labels == ["standard:run1", "standard:run2", "other"]


def test_results_accepted_in_place_of_paths(ten: Path) -> None:
    [res] = rp.load(ten)
    res.frame = res.frame[res.frame["dealer"] == 0]  # hands 0, 4, 8
    rep = rp.hand_report(res)
    assert get(rep, "hands", "hands")["value"] == 3
    assert get(rep, "seat", "win_share", "1")["successes"] == 2


# ------------------------------------------------------------------------ matches

def match_file(tmp_path: Path, name: str = "m.parquet", **kw: Any) -> Path:
    """Two 3-player matches.

    Match 0 (3 hands): S1 ends on hand 2 with seat 1 at 510; S2 ends on hand 1 with
    totals (520, 30, 30): seats 1 and 2 tie for the lowest and share the win.
    Match 1 (2 hands): both end on hand 1; S1 seat 0 (600), S2 seat 2 (10, 5 < ...).
    """
    pos = [[0, 200, 0], [0, 300, 0], [0, 510, 0], [300, 0, 0], [600, 0, 0]]
    neg = [[300, 10, 0], [520, 30, 30], [520, 30, 30], [10, 100, 5], [10, 550, 5]]
    cols = {
        "dealer": [0, 1, 2, 0, 1], "winner": [1, 1, 1, 0, 0], "winning_team": [1, 1, 1, 0, 0],
        "turns": [30, 40, 50, 60, 70], "cards_played": [1] * 5,
        "match": [0, 0, 0, 1, 1], "hand_in_match": [0, 1, 2, 0, 1],
        "pos_end": [False, False, True, False, True], "neg_end": [False, True, False, False, True],
    }  # fmt: skip
    for s in range(3):
        cols[f"pos_total_{s}"] = [r[s] for r in pos]
        cols[f"neg_total_{s}"] = [r[s] for r in neg]
    cols.update(kw)
    return write_result(tmp_path / name, cols, players=3, **({"bots": ["a", "b", "b"]}))


def test_match_report_ties_shared(tmp_path: Path) -> None:
    rep = rp.match_report(match_file(tmp_path))
    assert get(rep, "match_positive", "matches")["value"] == 2
    assert get(rep, "match_negative", "matches")["value"] == 2
    pos = [get(rep, "match_positive_seat", "win_share", str(s))["successes"] for s in range(3)]
    assert pos == [1, 1, 0]
    neg = [get(rep, "match_negative_seat", "win_share", str(s))["successes"] for s in range(3)]
    assert neg == pytest.approx([0, 0.5, 1.5])
    assert get(rep, "match_negative_seat", "win_share", "2")["value"] == pytest.approx(0.75)
    # per bot: seat 0 is "a", seats 1-2 are "b"
    assert get(rep, "match_negative_bot", "win_share", "b")["successes"] == pytest.approx(2.0)
    assert get(rep, "match_positive_bot", "win_share", "a")["successes"] == pytest.approx(1.0)
    # hands per match: S1 took 3 and 2, S2 took 2 and 2
    assert get(rep, "match_positive", "hands_per_match", stat="mean")["value"] == pytest.approx(2.5)
    assert get(rep, "match_negative", "hands_per_match", stat="median")["value"] == 2
    assert get(rep, "match_positive", "final_winner", stat="mean")["value"] == pytest.approx(555)
    assert get(rep, "match_negative", "final_winner", stat="mean")["value"] == pytest.approx(17.5)
    assert get(rep, "match_negative", "final_runner_up", stat="mean")["value"] == pytest.approx(20.0)
    assert list(rep.dists["standard"]["hands_per_match_positive"]) == [0, 0, 1, 1]
    assert "hands" not in set(rep.table["section"])


def test_summarize_has_both_and_skips_s2_under_last_standing(tmp_path: Path) -> None:
    rep = rp.summarize(match_file(tmp_path))
    assert {"hands", "match_positive", "match_negative"} <= set(rep.table["section"])
    p = match_file(tmp_path, "ls.parquet")
    pf = pq.read_table(p)
    meta = dict(pf.schema.metadata)
    meta[b"unosim.finish"] = b"last_standing"
    pq.write_table(pf.replace_schema_metadata(meta), p)
    rep = rp.summarize(p)
    assert "match_negative" not in set(rep.table["section"])


def test_match_teams_share(tmp_path: Path) -> None:
    # 4 players, 2 teams: members show the team total; team 0 (seats 0, 2) wins S1.
    cols = {
        "dealer": [0], "winner": [0], "winning_team": [0], "match": [0], "hand_in_match": [0],
        "pos_end": [True], "neg_end": [True],
        "pos_total_0": [500], "pos_total_2": [500], "pos_total_1": [0], "pos_total_3": [0],
        "neg_total_0": [0], "neg_total_2": [0], "neg_total_1": [500], "neg_total_3": [500],
    }  # fmt: skip
    rep = rp.match_report(write_result(tmp_path / "t.parquet", cols, teams=2))
    assert get(rep, "match_positive_seat", "win_share", "0")["value"] == pytest.approx(0.5)
    assert get(rep, "match_positive_team", "win_share", "0")["value"] == pytest.approx(1.0)
    assert get(rep, "match_negative_team", "win_share", "1")["value"] == pytest.approx(0.0)
    assert get(rep, "match_positive", "final_margin", stat="mean")["value"] == 500


# ------------------------------------------------------------------------ compare

def test_compare_sign_and_magnitude(tmp_path: Path) -> None:
    from unosim.analysis import stats

    base = write_result(tmp_path / "base.parquet", ten_hands())
    longer = ten_hands(turns=[t + 100 for t in TURNS], winner=[1] * 5 + [-1] + [1] * 4)
    other = write_result(tmp_path / "other.parquet", longer, name="long")
    cmp = rp.compare(base, [other])
    assert cmp.kind == "compare" and cmp.baseline == "standard"
    t = get(cmp, "length", "turns", stat="mean")
    assert t["diff"] == pytest.approx(100.0) and t["low"] < 100 < t["high"]
    assert t["effect"] == pytest.approx(100 / np.std(TURNS, ddof=1))  # same sd both sides
    assert t["effect_kind"] == "d"
    s1 = get(cmp, "seat", "win_share", "1")
    assert s1["diff"] == pytest.approx(1 - 3 / 9)
    assert s1["effect"] == pytest.approx(stats.cohen_h(1.0, 3 / 9)) and s1["effect"] > 0
    assert s1["low"] > 0  # 9/9 against 3/9 is clear even with 9 hands
    s0 = get(cmp, "seat", "win_share", "0")
    assert s0["diff"] < 0 and s0["effect"] < 0
    med = get(cmp, "length", "turns", stat="median")
    assert med["diff"] == 100 and math.isnan(med["low"])
    # reports in, same answer
    again = rp.compare(rp.summarize(base), [rp.summarize(other)])
    assert get(again, "length", "turns", stat="mean")["diff"] == pytest.approx(100.0)


def test_compare_refuses_several_baselines(tmp_path: Path) -> None:
    a = write_result(tmp_path / "a.parquet", ten_hands())
    b = write_result(tmp_path / "b.parquet", ten_hands(), name="b")
    with pytest.raises(ValueError, match="one config"):
        rp.compare(rp.summarize([a, b]), [a])


# ------------------------------------------------------------------------ balance

def sweep(tmp_path: Path, meta_stacking: str | None = None) -> Path:
    """stacking x players; stacking makes games longer and favours dealer+1.

    Each file's ``unosim.rules.config`` holds its own point's config, or, with
    ``meta_stacking``, the same base config with that stacking value.
    """
    root = tmp_path / "sweep"
    for players in (2, 4):
        for stacking, extra in (("none", 0), ("draw2", 20), ("all", 60)):
            n = 40
            dealer = [h % players for h in range(n)]
            won_first = 20 + extra // 4  # of 40 hands, dealer+1 wins this many
            winner = [(d + 1) % players if h < won_first else d for h, d in enumerate(dealer)]
            cols = {
                "dealer": dealer, "winner": winner, "winning_team": winner,
                "turns": [50 + extra + (h % 7) for h in range(n)],
                "cards_drawn": [10 + extra // 10 + (h % 3) for h in range(n)],
            }  # fmt: skip
            shown = meta_stacking or stacking
            cfg = f'name = "sweep"\n[table]\nplayers = {players}\n[rules]\nstacking = "{shown}"\n'
            write_result(root / f"stacking={stacking}" / f"players={players}" / "part-00000.parquet",
                         cols, players=players, name="sweep", config=cfg)  # fmt: skip
    return root


def test_balance_report(tmp_path: Path) -> None:
    bal = rp.balance_report(sweep(tmp_path))
    t = bal.table
    assert set(t["change"]) == {"stacking=draw2", "stacking=all"}
    assert set(t["players"]) == {2, 4}
    r = t[(t["change"] == "stacking=all") & (t["players"] == 4) & (t["metric"] == "turns")].iloc[0]
    assert r["diff"] == pytest.approx(60.0) and r["low"] > 0
    r = t[(t["change"] == "stacking=draw2") & (t["players"] == 2) & (t["metric"] == "seat_advantage")].iloc[0]
    assert r["diff"] == pytest.approx(5 / 40) and r["effect_kind"] == "h"
    r = t[(t["change"] == "stacking=all") & (t["players"] == 2) & (t["metric"] == "cards_drawn")].iloc[0]
    assert r["diff"] == pytest.approx(6.0)
    assert list(t["effect"].abs()) == sorted(t["effect"].abs(), reverse=True)
    # an explicit base moves the base point
    bal2 = rp.balance_report(sweep(tmp_path / "b"), base={"stacking": "all"})
    assert set(bal2.table["change"]) == {"stacking=draw2", "stacking=none"}
    assert (bal2.table[bal2.table["metric"] == "turns"]["diff"] < 0).all()
    # files that all carry the same base config name the base point
    bal3 = rp.balance_report(sweep(tmp_path / "c", meta_stacking="draw2"))
    assert set(bal3.table["change"]) == {"stacking=none", "stacking=all"}
    text = rp.to_text(bal)
    assert "stacking=all" in text and "players" in text


def test_hand_report_on_a_sweep_labels_partitions(tmp_path: Path) -> None:
    rep = rp.hand_report(sweep(tmp_path))
    assert len(rep.labels) == 6
    assert "sweep:stacking=none,players=4" in rep.labels
    loaded = rp.load(tmp_path / "sweep", columns=["turns"])
    assert len(loaded) == 6 and all(list(r.frame.columns) == ["turns"] for r in loaded)
    assert {r.partition["stacking"] for r in loaded} == {"none", "draw2", "all"}


# ---------------------------------------------------------------------- renderers

def test_small_shares_keep_their_digits(tmp_path: Path) -> None:
    n = 100_000
    stalled = np.arange(n) == 7
    cols = {"winner": np.where(stalled, -1, 0), "turns": np.ones(n), "stalled": stalled}
    text = rp.to_text(rp.hand_report(write_result(tmp_path / "s.parquet", cols)))
    assert "0.0010% [" in text


def test_renderers(tmp_path: Path) -> None:
    base = write_result(tmp_path / "base.parquet", ten_hands())
    other = write_result(tmp_path / "o.parquet", ten_hands(turns=[t + 1 for t in TURNS]), name="o")
    rep = rp.summarize([base, other])
    text = rp.to_text(rep, width=100)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 100
    assert "Win share by seat" in text and "seat 3" in text and "turns p99" in text
    assert len(lines) < 60  # one screen
    md = rp.to_markdown(rep)
    assert md.count("\n|") > 10 and "| **Game length** |" in md
    csv = rp.to_csv(rep)
    assert csv.splitlines()[0].split(",") == list(rp.TABLE_COLUMNS)
    doc = json.loads(rp.to_json(rep))
    assert doc["kind"] == "summary" and doc["sources"]["standard"]["players"] == "4"
    assert len(doc["rows"]) == len(rep.table)
    # sections stay contiguous with several configs and match results
    mixed = rp.to_text(rp.summarize([base, match_file(tmp_path)]), width=200)
    for title in ("Game length", "Matches, S1 positive scoring", "Matches, S2 negative scoring"):
        assert mixed.count(title) == 1
    cmp = rp.compare(base, other)
    ctext = rp.render(cmp, "text")
    assert "baseline" in ctext and "d=" in ctext and "h=" in ctext
    json.loads(rp.render(cmp, "json"))
    with pytest.raises(ValueError):
        rp.render(rep, "html")
