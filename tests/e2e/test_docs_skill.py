"""docs/skill.md's blocks (docs/skill_figures.py) from a small real `unosim skill` run.

The page's own run is an hour of tuning, so docs/generate.py regenerates it by hand; here
the same code renders the whole page from a run of seconds (5 points at 2 and 4 players,
2 replicates, tiny budgets): every figure the blocks write is checked against the run's
files, every verdict against its intervals, and a second run of the finished command
must do no work and print the same (what `python docs/generate.py --work DIR` relies on).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from docs_scripts import generate

DOCS = Path(__file__).resolve().parents[2] / "docs"
SWEEP = ('name = "sw"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 1000\nseed = 0\nskip_invalid = true\n'
         '[axes]\n"rules.two_player_reverse" = ["none"]\n"rules.teams" = [2]\n[strata]\n"table.players" = [2, 4]\n')
ARGS = ("--budget", "12", "--deals", "20", "--check-deals", "100", "--replicates", "2", "--ceiling",
        "--ceiling-deals", "20", "--ceiling-bot", "search:worlds=2,rollouts=1")


def _docs_module(name: str):
    if name not in sys.modules:
        sys.path.insert(0, str(DOCS))
        try:
            __import__(name)
        finally:
            sys.path.remove(str(DOCS))
    return sys.modules[name]




@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """(work folder, the run as the page's blocks read it, what the command printed)."""
    sf = _docs_module("skill_figures")
    work = tmp_path_factory.mktemp("skillpage")
    (work / "sw.toml").write_text(SWEEP)
    command = ("skill", "sw.toml", "--out", "runs/sw.skill", *ARGS)
    printed = sf.execute(work, command)
    return work, command, sf.load(work / "runs" / "sw.skill", printed)


def test_a_finished_run_resumes_without_work_and_prints_the_same(small) -> None:
    sf = _docs_module("skill_figures")
    work, command, run = small
    bots = sorted((run.root / "_points").rglob("bot.toml"))
    assert len(bots) == 5 * 2  # 5 points (teams of 2 only at 4 players), 2 replicates each
    stamps = [b.stat().st_mtime_ns for b in bots]
    raw = pd.read_parquet(run.root / "_skill_replicates.pq")
    again = sf.execute(work, command)
    assert again == run.printed
    assert [b.stat().st_mtime_ns for b in bots] == stamps  # nothing tuned again
    pd.testing.assert_frame_equal(pd.read_parquet(run.root / "_skill_replicates.pq"), raw)


def test_run_size_and_base_table_state_the_run(small) -> None:
    sf = _docs_module("skill_figures")
    gen = generate()
    _, _, run = small
    size = sf.run_size(run, "sw.toml")
    assert "2 rule values at 2 and 4 players, 5 points" in size
    assert "per point 2 tunings (seeds 0-1) of 12 evaluations of 20 deals" in size and "on 100 fresh deals" in size
    masked = gen.masked(size)
    assert "<time> in all" in masked and masked.count("<time> a point at") == 2
    rows = sf.base_table(run).splitlines()[2:]
    assert [r.split(" |")[0] for r in rows] == ["| 2 players", "| 4 players"]
    for n, row in zip((2, 4), rows):
        b = run.points[(run.points["players"] == n) & run.points["is_base"]].iloc[0]
        assert f"{100 * b.share:.1f}% [{100 * b.low:.1f}, {100 * b.high:.1f}]" in row
        assert f"**{100 * b.skill_norm:.1f}%**" in row
        assert f"{100 * b.edge_b0:+.1f} pp [{100 * b.edge_b0_low:+.1f}, {100 * b.edge_b0_high:+.1f}]" in row


def test_difference_table_bold_exactly_where_the_interval_excludes_0(small) -> None:
    sf = _docs_module("skill_figures")
    _, _, run = small
    text = sf.difference_table(run)
    assert "Sorted by the 4-player column; the mean of 2 tunings" in text
    rows = {r.split(" |")[0][3:-1]: r for r in text.splitlines() if r.startswith("| `")}
    assert set(rows) == {"two_player_reverse=none", "teams=2"}
    assert "| - (no such table) |" in rows["teams=2"]  # no team of 2 at a table of 2
    for d in run.diffs.itertuples():
        cell = f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        assert (f"**{cell}**" in rows[d.rules]) == (d.low > 0 or d.high < 0), (cell, rows[d.rules])
        assert cell in rows[d.rules]


def test_noise_table_is_the_replicates_spread(small) -> None:
    sf = _docs_module("skill_figures")
    _, _, run = small
    figs = sf.noise_figures(run)
    for n in (2, 4):
        raw = run.raw[run.raw["players"] == n]
        sd = np.sqrt(np.mean([g["skill_norm"].var(ddof=1) for _, g in raw.groupby("label")]))
        assert figs[n]["sd"] == pytest.approx(sd) and figs[n]["replicates"] == 2
        assert figs[n]["search"] <= figs[n]["sd"] + 1e-12
    text = sf.noise_table(run)
    assert f"| 2 players | 2 x 2 | {100 * figs[2]['sd']:.1f} |" in text
    assert f"| 4 players | 3 x 2 | {100 * figs[4]['sd']:.1f} |" in text


def test_reading_says_only_what_the_run_shows(small) -> None:
    sf = _docs_module("skill_figures")
    _, _, run = small
    text = sf.reading(run)
    for d in run.diffs.itertuples():
        named = f"`{d.rules}` ({100 * d.diff:+.1f}{' †' if d.discovery else ''})"
        line = next(ln for ln in text.splitlines() if ln.startswith("* **Heads-up" if d.players == 2 else
                                                                       f"* **At {d.players} players"))
        assert (named in line) == (d.low > 0 or d.high < 0), (named, line)
    marked = sf.reading(sf.SkillRun(run.root, run.points, run.raw,
                                    run.diffs.assign(low=0.01, high=0.02, p=1e-9, discovery=True), run.settings, ""))
    at2 = next(ln for ln in marked.splitlines() if ln.startswith("* **Heads-up"))
    assert "1 of them marked †" in at2 and " †)" in at2
    # H14 acts only heads-up: at 4 players its point tunes the base's bots on the base's hands
    assert "`two_player_reverse=none` (4 players)" in text.split("**Exactly 0**")[1]
    assert "first seat's edge" in text


def test_the_page_renders_from_the_run_with_no_figure_outside_its_blocks(small, tmp_path, monkeypatch) -> None:
    """The whole of docs/skill.md through docs/generate.py, the page's command swapped for
    the small one: every block filled, and no figure left in the prose around them."""
    sf = _docs_module("skill_figures")
    gen = generate()
    work, command, run = small
    page = DOCS / "skill.md"
    blocks = list(gen.blocks(page))
    names = {b.name for b in blocks} & set(sf.FIGURES)  # the page's other blocks (a console one) keep their text
    assert names == set(sf.FIGURES) and all(b.long for b in blocks)
    monkeypatch.setattr(sf, "COMMAND", command)
    monkeypatch.setattr(sf, "OUT", Path("runs") / "sw.skill")
    monkeypatch.setattr(sf, "CHART", tmp_path / "chart.png")
    monkeypatch.setattr(sf, "_RUNS", {})
    text = gen.render(page, work, names)
    assert (tmp_path / "chart.png").read_bytes() == (run.root / "_skill.png").read_bytes()
    for name in names:
        body = text.split(f"<!-- generated: {name} long -->\n")[1].split("<!-- /generated -->")[0]
        assert body.strip(), name
    out = tmp_path / "skill.md"
    out.write_text(text)
    assert gen.unquoted_figures(out, ("100%", "95%")) == []


@pytest.mark.parametrize("lo, hi, c, c_lo, c_hi, want", [
    (1, 3, 2, 0.5, 3.5, "confirmed"), (-3, -1, -2, -3, -0.5, "confirmed"),
    (1, 3, -2, -3, -1, "reversed"), (1, 3, 1, -1, 3, "not confirmed"), (-3, -1, 0, -1, 1, "not confirmed"),
    (-1, 1, 2, 1, 3, "ceiling only"), (-1, 1, 0, -1, 1, None)])
def test_the_ceilings_verdict_on_a_rule(lo, hi, c, c_lo, c_hi, want) -> None:
    assert _docs_module("skill_figures").ceiling_verdict(lo, hi, c, c_lo, c_hi) == want


def test_the_bracket_blocks_state_the_run(small) -> None:
    """The bracket's blocks: the base at every table size with both bounds, every rule
    with a verdict (and none without) under the verdict its intervals give, and the
    reading naming each where its table size's line says so."""
    sf = _docs_module("skill_figures")
    _, _, run = small
    base = sf.bracket_base(run)
    for n in (2, 4):
        b = run.base(n)
        row = next(r for r in base.splitlines() if r.startswith(f"| {n} players"))
        assert f"{100 * b.ceiling_norm:+.1f}% [{100 * b.ceiling_norm_low:+.1f}, {100 * b.ceiling_norm_high:+.1f}]" in row
        assert f"{100 * b.ceiling_counter_norm:+.1f}%" in row and f"{100 * b.skill_norm:+.1f}%" in row
    table, reading = sf.bracket_table(run), sf.bracket_reading(run)
    moved = sf.SkillRun(run.root, run.points, run.raw, run.diffs.assign(low=0.01, high=0.02), run.settings, "")
    assert "the ceiling's intervals paired by deal" in sf.bracket_table(moved)  # every search's wins kept per deal
    unpaired = sf.SkillRun(run.root, run.points.assign(ceiling_diff_se=float("nan")), run.raw, moved.diffs,
                           run.settings, "")
    assert "the ceiling's intervals add the two measurements' variances" in sf.bracket_table(unpaired)
    verdicts = [(r, sf.ceiling_verdict(r.low, r.high, r.ceiling_diff, r.ceiling_low, r.ceiling_high))
                for r in run.diffs.itertuples()]
    for r, v in verdicts:
        row = [ln for ln in table.splitlines() if ln.startswith(f"| `{r.rules}` | {r.players} players |")]
        assert len(row) == (v is not None), (r, v, table)
        if v is not None:
            assert row[0].endswith(f"| {v} |") and f"{100 * r.ceiling_diff:+.1f}" in row[0]
        line = next(ln for ln in reading.splitlines() if ln.startswith("* **Heads-up" if r.players == 2 else
                                                                       f"* **At {r.players} players"))
        assert (f"`{r.rules}` ({100 * r.diff:+.1f} / {100 * r.ceiling_diff:+.1f})" in line) == (v is not None), line
        b = run.base(r.players)
        assert f"(the search minus the tuned bot: {100 * (b.ceiling_norm - b.skill_norm):+.1f} [" in line
    changed = sum(v in ("not confirmed", "reversed", "ceiling only") for _, v in verdicts)
    assert f"**Verdicts the ceiling changes**: {changed} of {len(verdicts)} rules at a table size" in reading
    lower = sum(r.low > 0 or r.high < 0 for r, _ in verdicts)
    ceiling = sum(r.ceiling_low > 0 or r.ceiling_high < 0 for r, _ in verdicts)
    assert f"of {len(verdicts)} differences would exclude 0 by chance alone if no rule changed anything; " \
           f"{lower} do under the lower bound, {ceiling} under the ceiling" in reading
    plain = sf.SkillRun(run.root, run.points, run.raw, run.diffs.drop(columns=["ceiling_diff", "ceiling_low",
                                                                               "ceiling_high"]), run.settings, "")
    assert sf.bracket_table(plain) == sf.bracket_reading(plain) == "This run has no ceiling (`--ceiling`)."


def test_p_values_agree_with_the_intervals_and_the_false_discovery_marks_with_scipy(small) -> None:
    """Each difference's p-value is below 0.05 exactly where its interval excludes 0 (the
    same error and distribution), and the tables mark † the differences Benjamini-Hochberg
    keeps at 5% over all of a bound's differences."""
    from scipy.stats import false_discovery_control

    from unosim.analysis.stats import p_value

    sf = _docs_module("skill_figures")
    _, _, run = small
    d = run.diffs
    for lo, hi, p in zip(list(d["low"]) + list(d["ceiling_low"]), list(d["high"]) + list(d["ceiling_high"]),
                         list(d["p"]) + list(d["ceiling_p"])):
        if hi > lo:
            assert (p < 0.05) == (lo > 0 or hi < 0), (lo, hi, p)
    assert p_value(0.0, 0.0) == 1.0 and p_value(0.1, 0.0) == 0.0 and np.isnan(p_value(0.1, float("nan")))
    assert p_value(1.959964, 1.0) == pytest.approx(0.05, abs=1e-6)
    assert p_value(2.0, 1.0, 10) == pytest.approx(0.0734, abs=1e-4)  # Student t, 10 df
    for p, kept in (("p", "discovery"), ("ceiling_p", "ceiling_discovery")):  # scipy's BH over every difference
        assert list(d[kept]) == list(false_discovery_control(d[p], method="bh") < 0.05), (p, d)
    # the command's own printout marks the same differences and says what the mark means
    assert f"with the false discovery rate at 5% over all {len(d)} differences of its bound" in run.printed
    for r, k, c in zip(d.itertuples(), d["discovery"], d["ceiling_discovery"]):
        line = next(ln for ln in run.printed.splitlines() if ln.startswith(f"  {r.rules} ") and f" {r.players}p " in ln)
        tuned, _, roof = line.partition("ceiling")
        assert ("†" in tuned) == k and ("†" in roof) == c, line
    # a run where every difference is a discovery: every cell of both tables is marked
    strong = sf.SkillRun(run.root, run.points, run.raw,
                         d.assign(low=0.01, high=0.02, p=1e-9, ceiling_p=1e-9, discovery=True, ceiling_discovery=True),
                         run.settings, "")
    def marks(text: str) -> int:
        return sum(line.count(" †") for line in text.splitlines() if line.startswith("| `"))

    assert marks(sf.difference_table(strong)) == len(d) and marks(sf.bracket_table(strong)) == 2 * len(d)
    assert marks(sf.difference_table(run)) == int(d["discovery"].sum())
    reading = sf.bracket_reading(strong)
    assert f"{len(d)} of the lower bound's remain and {len(d)} of the ceiling's" in reading


def test_a_shift_common_to_a_table_size_is_flagged_only_when_it_is_one() -> None:
    """Every difference of a table size shares its base point: most of them one way by more
    than the base's own half-width is flagged (the reading then says so), not otherwise."""
    sf = _docs_module("skill_figures")
    shifted = pd.Series([0.010, 0.008, 0.012, 0.0, 0.0, 0.009, -0.004, 0.011])
    assert sf.common_shift(shifted, 0.005) == (5, 6, pytest.approx(0.0095))  # 5 of the 6 non-zero above
    assert sf.common_shift(shifted, 0.010) is None             # within the base's half-width
    assert sf.common_shift(pd.Series([0.01, -0.01, 0.02, -0.02]), 0.001) is None  # no common sign
    assert sf.common_shift(pd.Series([0.01, 0.01, 0.0]), 0.001) is None          # too few differ


def _page_bracket() -> dict[tuple[str, int], tuple[float, float, str]]:
    """docs/skill.md's bracket table as committed: (rule, players) -> (lower bound's
    difference, ceiling's difference, the ceiling's verdict)."""
    page = (DOCS / "skill.md").read_text()
    block = page.split("<!-- generated: skill_bracket long -->", 1)[1].split("<!-- /generated -->", 1)[0]
    rows = {}
    for line in block.splitlines():
        if line.startswith("| `"):
            rule, table, lower, ceiling, verdict = (c.strip() for c in line.strip("|").split("|"))
            num = lambda cell: float(cell.strip("*").split()[0])  # noqa: E731
            rows[(rule.strip("`"), int(table.split()[0]))] = (num(lower), num(ceiling), verdict,
                                                              lower.endswith("†"), ceiling.endswith("†"))
    return rows


def test_the_pages_words_on_the_bracket_match_its_table() -> None:
    """The hand-written paragraph after the bracket (7-0 turned over, stacking everything
    lower under the ceiling, multi-play by rank up under both) says what the committed
    table shows: a regeneration that changes these verdicts fails here until the words do."""
    rows = _page_bracket()
    seven = [rows[("seven_o=true", n)] for n in (2, 4, 7)]
    assert seven[0][2] == "reversed" and seven[0][0] < 0 < seven[0][1] and seven[0][3] and seven[0][4]
    assert seven[1][2] == "ceiling only" and seven[1][1] > 0 and seven[1][4]
    assert seven[2][2] == "confirmed" and seven[2][0] > 0 and seven[2][3] and seven[2][4]
    stack = [rows[("stacking=all", n)] for n in (2, 4, 7)]
    assert stack[0][2] == "confirmed" and stack[0][1] < 0 and stack[0][4]
    assert stack[1][2] == "ceiling only" and stack[1][1] < 0 and stack[1][4]
    assert stack[2][2] == "ceiling only" and stack[2][1] < 0 and not stack[2][4]
    for n in (2, 4, 7):
        multi = rows[("multi_play=same_rank", n)]
        assert multi[2] == "confirmed" and multi[0] > 0 and multi[3] and multi[4]
