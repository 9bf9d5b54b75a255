"""Reports on small synthetic result files whose answers are computed by hand.

The files are written by ``tests/result_files.py`` with exactly the engine's schema
(docs/rules.md O1), so these tests do not depend on the engine.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from result_files import DRAWN, PLAYED, TURNS, WINNER, match_file, sweep, ten_hands, write_result
from unosim.analysis import report as rp


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


def test_quantiles_of_counts_are_whole_numbers_but_the_median():
    """The tails of counts read as whole numbers (inverted CDF); the median is the usual one."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        x = rng.integers(0, 50, size=rng.integers(1, 300))
        h = np.bincount(x)
        assert rp.hist_quantile(h, 0.5) == np.quantile(x, 0.5)
        for q in (0.01, 0.1, 0.9, 0.99, 0.995, 1.0):
            assert rp.hist_quantile(h, q) == np.quantile(x, q, method="inverted_cdf")


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
    # tails by the inverted CDF: the 9th and the 10th of the 10 sorted values
    assert get(rep, "length", "turns", stat="p90")["value"] == 100
    assert get(rep, "length", "turns", stat="p99")["value"] == 5000
    for q, name in ((0.5, "median"), (0.9, "p90"), (0.99, "p99")):
        assert get(rep, "length", "cards_played", stat=name)["value"] == pytest.approx(np.quantile(PLAYED, q, method="linear" if q == 0.5 else "inverted_cdf"))
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


def test_compare_marks_the_differences_that_survive_the_false_discovery_rate(tmp_path: Path) -> None:
    """Each difference with an interval gets its p-value and ``discovery``: Benjamini-Hochberg
    at 5% over the rows of its section for its compared result (not the whole column, where
    the length figures a rule moves would lower the bar for the seats); a row without an
    interval (a median) has none; the text marks discoveries with † and says what † means."""
    from unosim.analysis import stats

    base = write_result(tmp_path / "base.parquet", ten_hands())
    longer = ten_hands(turns=[t + 100 for t in TURNS], winner=[1] * 5 + [-1] + [1] * 4)
    other = write_result(tmp_path / "other.parquet", longer, name="long")
    cmp = rp.compare(base, [other])
    t = cmp.table
    assert cmp.discovery_rate == pytest.approx(0.05)
    ok = t["low"].notna()
    assert t.loc[~ok, "p"].isna().all() and not t.loc[~ok, "discovery"].any()
    for (_, section), rows in t[ok].groupby(["label", "section"]):
        expected = stats.discoveries(stats.p_from_interval(rows["diff"], rows["low"], rows["high"]))
        assert rows["discovery"].tolist() == list(expected), section
    assert bool(get(cmp, "seat", "win_share", "1")["discovery"])  # 9/9 against 3/9
    assert not get(cmp, "length", "turns", stat="mean")["discovery"]  # +100 turns over a spread of hundreds
    lines = rp.render(cmp).splitlines()
    assert next(line for line in lines if line.strip().startswith("seat 1")).endswith("†")
    assert not next(line for line in lines if line.strip().startswith("turns mean")).endswith("†")
    text = "\n".join(lines)
    assert "† the difference remains with the false discovery rate at 5% over every row of its section" in text


def test_compare_refuses_several_baselines(tmp_path: Path) -> None:
    a = write_result(tmp_path / "a.parquet", ten_hands())
    b = write_result(tmp_path / "b.parquet", ten_hands(), name="b")
    with pytest.raises(ValueError, match="one config"):
        rp.compare(rp.summarize([a, b]), [a])


# ------------------------------------------------------------------------ balance

def test_balance_report(tmp_path: Path) -> None:
    bal = rp.balance_report(sweep(tmp_path))
    t = bal.table
    assert set(t["change"]) == {"stacking=draw2", "stacking=all"}
    assert set(t["players"]) == {2, 4}
    r = t[(t["change"] == "stacking=all") & (t["players"] == 4) & (t["metric"] == "turns")].iloc[0]
    assert r["diff"] == pytest.approx(60.0) and r["low"] > 0
    r = t[(t["change"] == "stacking=draw2") & (t["players"] == 2) & (t["metric"] == "dealer1_win_share")].iloc[0]
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


def _rows(markdown: str) -> list[tuple[str, int]]:
    """The (change, players) rows of a balance report rendered as markdown, in order."""
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in markdown.splitlines()]
    return [(c[0], int(c[1])) for c in cells if c[0].startswith("stacking=")]


def test_balance_rows_sort_by_any_column(tmp_path: Path) -> None:
    from cli_checks import invoke, one_error
    from unosim.cli.report import BALANCE_SORTS

    assert BALANCE_SORTS == rp.BALANCE_SORTS  # the CLI's choices, written out
    root = sweep(tmp_path)
    bal = rp.balance_report(root)
    default = _rows(rp.to_markdown(bal))
    assert len(default) == 4
    assert _rows(rp.to_markdown(rp.sort_balance(bal))) == default  # the default is today's order
    by_players = _rows(rp.to_markdown(rp.sort_balance(bal, "players")))
    assert by_players == sorted(default, key=lambda r: (r[1], r[0])) != default
    assert _rows(rp.to_markdown(rp.sort_balance(bal, "change"))) == sorted(default)
    t = bal.table[bal.table["metric"] == "dealer1_win_share"]
    want = sorted(zip(t["change"], t["players"], t["effect"].abs()), key=lambda r: (-r[2], r[0], r[1]))
    by_share = rp.sort_balance(bal, "dealer1_win_share")
    assert _rows(rp.to_markdown(by_share)) == [(c, p) for c, p, _ in want]
    assert list(dict.fromkeys(zip(by_share.table["change"], by_share.table["players"]))) == \
        [(c, p) for c, p, _ in want]  # CSV and JSON rows follow the same order
    with pytest.raises(ValueError, match="no skill column"):
        rp.sort_balance(bal, "skill")
    res = invoke("report", root, "--sort", "players", "--format", "markdown")
    assert res.exit_code == 0, res.output
    assert _rows(res.output) == sorted(default, key=lambda r: (r[1], r[0]))
    one_error(invoke("report", root, "--sort", "skill"), "--sort", "no skill column")
    one_error(invoke("report", root / "stacking=all" / "players=2", "--sort", "turns"), "--sort", "sweep directory")
    bad = invoke("report", root, "--sort", "length")
    assert bad.exit_code == 2 and "dealer1_win_share" in bad.output


def test_balance_marks_what_remains_under_the_false_discovery_rate(tmp_path: Path) -> None:
    """Every balance row has its p-value (from its interval, as a normal one) and whether it
    remains with the false discovery rate at 5% over every row of its metric (scipy's
    Benjamini-Hochberg); the text and markdown tables mark exactly those † and say so."""
    from scipy.stats import false_discovery_control

    from unosim.analysis import stats

    assert stats.p_from_interval(1.959964, 0.0, 2 * 1.959964) == pytest.approx(0.05, abs=1e-6)
    assert stats.p_from_interval(0.0, 0.0, 0.0) == 1.0 and stats.p_from_interval(0.5, 0.5, 0.5) == 0.0
    assert math.isnan(stats.p_from_interval(1.0, math.nan, math.nan))
    assert list(stats.discoveries([0.001, 0.02, 0.03, 0.5, math.nan])) == \
        [*(false_discovery_control([0.001, 0.02, 0.03, 0.5], method="bh") < 0.05), False]
    bal = rp.balance_report(sweep(tmp_path))
    t = bal.table
    assert bal.discovery_rate == pytest.approx(0.05)
    z = stats.z_value(0.95)
    for r in t.itertuples():
        if r.high > r.low:  # the same error as the interval: p < 0.05 exactly where it excludes 0
            assert (r.p < 0.05) == (r.low > 0 or r.high < 0), r
            assert r.p == pytest.approx(2 * stats._st.norm.sf(abs(r.diff) / ((r.high - r.low) / (2 * z))))
    for metric, g in t.groupby("metric"):
        assert list(g["discovery"]) == list(false_discovery_control(g["p"], method="bh") < 0.05), metric
    assert t["discovery"].any()
    import dataclasses

    bal = dataclasses.replace(bal, table=t.assign(discovery=[i % 3 == 0 for i in range(len(t))]))  # some marked
    t = bal.table
    text, md = rp.to_text(bal, width=400), rp.to_markdown(bal)
    assert "note: † the difference remains with the false discovery rate at 5% over every row" in text
    assert "false discovery rate at 5%" in md
    from unosim.page import _report_table

    assert "false discovery rate at 5%" in _report_table(bal)  # the HTML page says it above its table
    from unosim.analysis.charts import plot_balance

    fig = plot_balance(bal)
    marks = [a for ax in fig.axes for a in ax.texts if "†" in a.get_text()]
    assert len(marks) == int(t["discovery"].sum())  # one per marked row, drawn or in a clipped value's label
    assert "†: remains with the false discovery rate at 5%" in " ".join(x.get_text() for x in fig.texts)
    names = dict(zip(("turns", "dealer1_win_share", "cards_drawn"), range(3)))
    for line in text.splitlines():
        change = next((c for c in set(t["change"]) if line.startswith(c + " ")), None)
        if change is None:
            continue
        players = int(line.split()[1])
        cells = [c for c in line.split("  ") if "[" in c]
        rows = t[(t["change"] == change) & (t["players"] == players)].set_index("metric")
        for metric, k in names.items():
            assert ("†" in cells[k]) == bool(rows.loc[metric, "discovery"]), (line, metric)


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


def test_a_text_table_fits_the_terminal_its_text_goes_to(monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS when set; else the terminal sys.stdout is; else a pipe's 120 - never the
    terminal that started the process when the text goes to a buffer (click's runner, a
    notebook, the docs generators)."""
    import io
    import os
    import sys

    from unosim.analysis.report.render import _terminal_columns

    monkeypatch.setattr(os, "get_terminal_size", lambda fd=1: os.terminal_size((80, 24)))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.delenv("COLUMNS", raising=False)
    assert _terminal_columns() == 120
    monkeypatch.setenv("COLUMNS", "90")
    assert _terminal_columns() == 90


def test_the_findings_say_what_the_table_holds(tmp_path: Path) -> None:
    """The sentences that open a report (and its page) state its own figures: a comparison's
    change in length and in the first seat's edge, a balance report's count of moved rows."""
    from unosim.analysis.report.words import findings

    base = write_result(tmp_path / "base.parquet", ten_hands())
    other = write_result(tmp_path / "o.parquet", ten_hands(turns=[t + 30 for t in TURNS]), name="o")
    cmp = rp.compare(base, [other])
    t = cmp.table
    turns = t[(t["section"] == "length") & (t["figure"] == "turns") & (t["stat"] == "mean")].iloc[0]
    said = findings(cmp)
    moved = turns["low"] > 0 or turns["high"] < 0
    if moved:
        assert said[0] == (f"o lengthens hands by {turns['diff']:.1f} turns [{turns['low']:+.1f}, "
                           f"{turns['high']:+.1f}] against {cmp.baseline} ({turns['base']:.1f} turns).")
    else:
        assert said[0].startswith("o does not change the hand's length measurably (+30.0 turns")
    assert any(s.startswith("The first seat's edge (dealer+1 against an even share) goes from") for s in said)
    assert "\n".join(f"* {s}" for s in said) in rp.to_text(cmp, width=400)
    bal = rp.balance_report(sweep(tmp_path))
    b = bal.table
    for metric, name in (("turns", "mean turns"), ("cards_drawn", "mean cards drawn")):
        rows = b[(b["metric"] == metric) & b["low"].notna()]
        n = int(((rows["low"] > 0) | (rows["high"] < 0)).sum())
        assert any(s.startswith(f"{n} of {len(rows)} rule changes move the {name} beyond their intervals")
                   for s in findings(bal)), findings(bal)


def test_a_figure_that_rounds_to_zero_reads_plus_zero() -> None:
    """The findings never say "-0.0 turns": a difference that rounds to zero reads +0.0."""
    from unosim.analysis.report.words import _iv, _num

    assert (_num(-0.04), _num(-0.06), _num(0.04), _num(-0.0004, digits=3)) == ("+0.0", "-0.1", "+0.0", "+0.000")
    assert _iv(-0.0004, 0.02, 100) == "[+0.0, +2.0]" and _num(-0.04, sign=False) == "0.0"


def test_the_first_seat_edge_of_a_comparison_counts_each_table_size(tmp_path: Path) -> None:
    """Comparing a 4-player run with a 2-player one, each first seat's edge is against its own
    even share (1/4 and 1/2), and the edge's change is the share's change less the change of
    the even share: not the baseline's share against the other table's 1/2."""
    from unosim.analysis.report.words import findings

    base = write_result(tmp_path / "base.parquet", ten_hands())  # dealer+1 wins 7 of 9 decided
    dealer = [h % 2 for h in range(10)]
    winner = [(d + 1) % 2 if h < 5 else d for h, d in enumerate(dealer)]  # dealer+1 wins 5 of 10
    cols = {"dealer": dealer, "first_player": [(d + 1) % 2 for d in dealer], "winner": winner,
            "winning_team": winner, "stalled": [False] * 10, "turns": TURNS, "cards_played": PLAYED,
            "cards_drawn": DRAWN, "reshuffles": [0] * 10}  # fmt: skip
    other = write_result(tmp_path / "two.parquet", cols, players=2, name="two")
    cmp = rp.compare(base, [other])
    first = get(cmp, "after_dealer", "win_share", "1", "share", label="two")
    shift = 1 / 2 - 1 / 4
    said = [s for s in findings(cmp) if s.startswith("The first seat's edge")]
    assert said == [f"The first seat's edge (dealer+1 against an even share) goes from "
                    f"{100 * (7 / 9 - 1 / 4):+.1f} to {100 * (5 / 10 - 1 / 2):+.1f} points: "
                    f"{100 * (first['diff'] - shift):+.1f} [{100 * (first['low'] - shift):+.1f}, "
                    f"{100 * (first['high'] - shift):+.1f}], it "
                    + ("moves beyond its interval." if first["low"] - shift > 0 or first["high"] - shift < 0
                       else "does not move measurably.")]


def test_a_folder_of_results_reports_each_and_loads_none(tmp_path: Path) -> None:
    """A plain folder holding two runs (``runs/a.parquet``, ``runs/b.parquet``, as ``unosim
    run`` names them by default): the report gives each its column, where a result folder
    named ``*.parquet`` was taken for an unreadable Parquet file; ``unosim.load`` refuses it,
    naming both, rather than mixing two runs' rows that no column tells apart."""
    import warnings

    import unosim

    root = tmp_path / "runs"
    write_result(root / "a.parquet" / "part-000000.parquet", ten_hands(), name="a")
    write_result(root / "b.parquet" / "part-000000.parquet", ten_hands(turns=[t + 30 for t in TURNS]), name="b")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no part journal: each result is "unverified"
        assert rp.hand_report(root).labels == ["a", "b"]
        with pytest.raises(ValueError, match=r"runs: holds 2 separate results \(a\.parquet, b\.parquet\), not one"):
            unosim.load(root)
        assert len(unosim.load(root / "a.parquet")) == 10
