"""`unosim skill --ceiling`: the search player's skill index beside the tuned bot's.

Tiny sizes (the suite's budget): one generation of tuning, a handful of deals, a search of
2 worlds x 1 rollout.  What is checked is the plumbing a user relies on, not the figures:
the columns are there and are shares and indexes; adding the ceiling to a finished run
tunes nothing again (the bot files untouched, the tuned columns identical); an interrupted
ceiling resumes to the very table an uninterrupted run writes; bad options are one line;
the report and the figures read the result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cli_checks import invoke, one_error

SEARCH = "search:worlds=2,rollouts=1"
TUNE = ("--budget", "12", "--deals", "20", "--check-deals", "100", "--replicates", "2", "--quiet")
CEILING = ("--ceiling", "--ceiling-deals", "20", "--ceiling-bot", SEARCH)
CEILING_COLUMNS = [f"{p}_{q}" for p in ("ceiling", "counter", "ceiling_counter")
                   for q in ("share", "low", "high", "norm", "norm_low", "norm_high")]


def _sweep(where: Path) -> Path:
    sweep = where / "sw.toml"
    sweep.write_text('name = "sw"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 200\nseed = 0\n'
                     '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2]\n')
    return sweep


def _bots(out: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(out)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted((out / "_points").rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A sweep's dataset, its skill run without the ceiling, then the same run given
    --ceiling (what was there before, and the command's output)."""
    root = tmp_path_factory.mktemp("ceiling")
    sweep = _sweep(root)
    assert invoke("sweep", sweep, "--out", root / "sw", "--quiet").exit_code == 0
    out = root / "sw.skill"
    plain = invoke("skill", sweep, "--out", out, *TUNE)
    assert plain.exit_code == 0, plain.output
    before = pd.read_parquet(out / "skill.parquet")
    bots = _bots(out)
    added = invoke("skill", sweep, "--out", out, *TUNE, *CEILING)
    assert added.exit_code == 0, added.output
    return {"root": root, "sweep": sweep, "out": out, "before": before, "bots": bots, "added": added}


def test_without_ceiling_there_are_no_ceiling_columns(runs) -> None:
    from unosim.studies.skill_index import CEILING_COLUMNS as ALL

    assert set(CEILING_COLUMNS) | {"ceiling_bot", "ceiling_deals", "ceiling_seconds", "ceiling_diff_se"} == set(ALL)
    assert not set(ALL) & set(runs["before"].columns)  # the table a run without --ceiling always wrote


def test_ceiling_columns_are_shares_and_indexes(runs) -> None:
    table = pd.read_parquet(runs["out"] / "skill.parquet")
    assert len(table) == 2 and table[CEILING_COLUMNS].notna().all().all()
    for prefix in ("ceiling", "counter", "ceiling_counter"):
        for q in ("share", "low", "high"):
            col = table[f"{prefix}_{q}"] if q == "share" else table[f"{prefix}_{q}"].clip(0, 1)
            assert ((col >= 0) & (col <= 1)).all(), (prefix, q, table[f"{prefix}_{q}"])
        assert ((table[f"{prefix}_norm"] >= -1) & (table[f"{prefix}_norm"] <= 1)).all()
        assert (table[f"{prefix}_low"] <= table[f"{prefix}_share"]).all()
        assert (table[f"{prefix}_share"] <= table[f"{prefix}_high"]).all()
        e = table["even"]
        assert np.allclose(table[f"{prefix}_norm"], (table[f"{prefix}_share"] - e) / (1 - e))
    assert set(table["ceiling_bot"]) == {SEARCH} and set(table["ceiling_deals"]) == {20}
    rows = pd.read_parquet(runs["out"] / "_skill_ceiling.pq")
    # per point: the tuned bot of each of the 2 replicates at the counter table, the search at each table
    assert len(rows) == 2 * (2 + 2)
    assert set(zip(rows["who"], rows["field"])) == {("tuned", "counter"), ("ceiling", "random"),
                                                    ("ceiling", "counter")}
    search = rows[rows["who"] == "ceiling"]
    assert (search["deals"] == 20).all() and (search["seed"] == 0).all()
    assert "the bracket (--ceiling)" in runs["added"].output and "ceiling" in runs["added"].output
    assert "search noise included; the ceiling's paired by deal):" in runs["added"].output
    assert "with the false discovery rate at 5% over all" not in runs["added"].output  # one difference: no such line


def test_the_ceilings_difference_from_the_base_is_paired_by_deal(runs) -> None:
    """Every point's search is measured on the same deals, so its difference from the base
    point pairs them: ceiling_diff_se is the paired error of the normalised indexes, from
    the per-deal wins _skill_ceiling.pq keeps, and the printed and reported differences
    use it; a file without per-deal wins (an older run) falls back to adding the variances."""
    from unosim.studies.arena import share_of
    from unosim.studies.skill_index import base_differences, ceiling_columns

    table = pd.read_parquet(runs["out"] / "skill.parquet")
    rows = pd.read_parquet(runs["out"] / "_skill_ceiling.pq")
    at_b0 = rows[(rows["who"] == "ceiling") & (rows["field"] == "random")].set_index("label")
    assert all(len(w) == 20 and len(d) == 20 for w, d in zip(at_b0["deal_wins"], at_b0["deal_decided"]))
    base, point = table[table["is_base"]].iloc[0], table[~table["is_base"]].iloc[0]
    assert np.isnan(base["ceiling_diff_se"])
    a, b = (share_of(at_b0.loc[x.label, "deal_wins"], at_b0.loc[x.label, "deal_decided"]) for x in (point, base))
    assert a.share == pytest.approx(point["ceiling_share"]) and b.share == pytest.approx(base["ceiling_share"])
    k = 20
    ra = (a.wins - a.share * a.decided) / a.decided.sum() / (1 - point["even"])
    rb = (b.wins - b.share * b.decided) / b.decided.sum() / (1 - base["even"])
    assert point["ceiling_diff_se"] == pytest.approx(np.sqrt(k / (k - 1) * ((ra - rb) ** 2).sum()))
    d = base_differences(table).iloc[0]
    assert d["ceiling_high"] - d["ceiling_diff"] == pytest.approx(1.959964 * point["ceiling_diff_se"])
    old = ceiling_columns(rows.drop(columns=["deal_wins", "deal_decided"]), {2: base["label"]})
    assert "ceiling_diff_se" not in old[point["label"]]
    plain = base_differences(table.assign(ceiling_diff_se=float("nan"))).iloc[0]
    halves = [(x["ceiling_norm_high"] - x["ceiling_norm_low"]) / 2 for x in (point, base)]
    assert plain["ceiling_high"] - plain["ceiling_diff"] == pytest.approx(float(np.hypot(*halves)))


def test_a_paired_difference_of_identical_measurements_has_no_error() -> None:
    from unosim.studies.arena import share_of

    rng = np.random.default_rng(0)
    wins = rng.integers(0, 3, 50).astype(float)
    s = share_of(wins, np.full(50, 2.0))
    assert s.difference_se(s) == 0.0 and s.difference_se(s, 2.0, 2.0) == 0.0
    other = share_of(rng.integers(0, 3, 50).astype(float), np.full(50, 2.0))
    d, lo, hi = s.minus(other)
    assert (hi - lo) / 2 == pytest.approx(1.959964 * s.difference_se(other), rel=1e-5)
    assert np.isnan(s.difference_se(share_of(wins[:10], np.full(10, 2.0))))  # other deals: no pairing


def test_adding_the_ceiling_tunes_nothing_again(runs) -> None:
    out = runs["out"]
    assert _bots(out) == runs["bots"]  # every bot and history file: same bytes, same mtime
    table = pd.read_parquet(out / "skill.parquet")
    before = runs["before"]
    assert list(table.columns[:len(before.columns)]) == list(before.columns)  # columns only added, at the end
    pd.testing.assert_frame_equal(table[before.columns], before)
    manifest = json.loads((out / "_unosim_output.json").read_text())
    assert manifest["identity"]["ceiling"]["deals"] == 20 and "_skill_ceiling.pq" in manifest["files"]
    # given again without --ceiling: the same output, its ceiling kept and shown
    again = invoke("skill", runs["sweep"], "--out", out, *TUNE)
    assert again.exit_code == 0 and "the bracket (--ceiling)" in again.output, again.output
    pd.testing.assert_frame_equal(pd.read_parquet(out / "skill.parquet"), table)


def test_an_interrupted_ceiling_resumes(runs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped in the second point's ceiling, then resumed: only the missing measurements
    are made, and the table is the uninterrupted run's."""
    import shutil

    from unosim.studies import skill_index

    out = tmp_path / "sw.skill"
    shutil.copytree(runs["out"], out)
    os.remove(out / "_skill_ceiling.pq")
    manifest = json.loads((out / "_unosim_output.json").read_text())
    del manifest["identity"]["ceiling"]  # the finished run without the ceiling, as before `--ceiling`
    (out / "_unosim_output.json").write_text(json.dumps(manifest))
    real = skill_index.measure_at
    calls: list[tuple[str, str]] = []

    def stop_at_six(cfg, bot, field, **kw):
        calls.append((bot.strategy, field))
        if len(calls) == 6:  # point 1 takes 4 (2 replicates at counter, the search at 2 tables)
            raise KeyboardInterrupt
        return real(cfg, bot, field, **kw)

    monkeypatch.setattr(skill_index, "measure_at", stop_at_six)
    stopped = invoke("skill", runs["sweep"], "--out", out, *TUNE, *CEILING)
    assert stopped.exit_code != 0 and len(calls) == 6
    assert len(pd.read_parquet(out / "_skill_ceiling.pq")) == 4  # written per point: point 1's
    calls.clear()
    monkeypatch.setattr(skill_index, "measure_at", lambda *a, **kw: (calls.append(a[2]), real(*a, **kw))[1])
    resumed = invoke("skill", runs["sweep"], "--out", out, *TUNE, *CEILING)
    assert resumed.exit_code == 0, resumed.output
    assert len(calls) == 4  # the second point's measurements, nothing else
    pd.testing.assert_frame_equal(pd.read_parquet(out / "skill.parquet").drop(columns=["ceiling_seconds", "seconds"]),
                                  pd.read_parquet(runs["out"] / "skill.parquet").drop(
                                      columns=["ceiling_seconds", "seconds"]))


@pytest.mark.parametrize("digest", [True, False])
def test_a_damaged_kept_table_is_said_and_measured_again(runs, tmp_path: Path, digest: bool) -> None:
    """A kept _skill_ceiling.pq that is not what the command wrote is not trusted: the
    command says so in one warning line before it measures again, and writes the table the
    run wrote.  With its digest in the manifest the guard sets the file aside as changed (it
    may be a user's); without one (a command killed while writing it) as unrecorded."""
    import json
    import shutil

    out = tmp_path / "sw.skill"
    shutil.copytree(runs["out"], out)
    (out / "_skill_ceiling.pq").write_bytes(b"not a parquet file")
    if not digest:
        manifest = json.loads((out / "_unosim_output.json").read_text())
        del manifest["sha256"]["_skill_ceiling.pq"]
        (out / "_unosim_output.json").write_text(json.dumps(manifest))
    res = invoke("skill", runs["sweep"], "--out", out, *TUNE, *CEILING)
    assert res.exit_code == 0 and "Traceback" not in res.output, res.output
    said = [ln for ln in res.stderr.splitlines() if ln.startswith("Warning:")]
    assert len(said) == 1, res.stderr
    if digest:
        assert "_skill_ceiling.pq: changed since `unosim skill` wrote it" in said[0]
        assert (out / "_rejected" / "_skill_ceiling.pq").read_bytes() == b"not a parquet file"
    else:
        assert "_skill_ceiling.pq: not recorded by `unosim skill`" in said[0]
    assert (out / "_rejected" / "_skill_ceiling.pq").read_bytes() == b"not a parquet file"
    pd.testing.assert_frame_equal(pd.read_parquet(out / "skill.parquet").drop(columns=["ceiling_seconds", "seconds"]),
                                  pd.read_parquet(runs["out"] / "skill.parquet").drop(
                                      columns=["ceiling_seconds", "seconds"]))


def test_the_ceiling_is_the_same_on_any_number_of_cores() -> None:
    from unosim.rules.botfile import resolve_bot
    from unosim.rules.config import default_config
    from unosim.studies.skill_index import measure_at

    cfg = default_config().with_values({"players": 3})
    one, two = (measure_at(cfg, resolve_bot(SEARCH), "counter", deals=15, seed=4, workers=w) for w in (1, 2))
    assert one.keys() == two.keys()
    for k in one:  # the figures and the per-deal wins alike
        assert np.array_equal(one[k], two[k]), k


def test_bad_ceiling_options_are_one_line(runs) -> None:
    sweep, out = runs["sweep"], runs["out"]
    one_error(invoke("skill", sweep, "--ceiling", "--ceiling-bot", "counter"), "--ceiling-bot", "search")
    one_error(invoke("skill", sweep, "--ceiling", "--ceiling-bot", "search:worlds=0"), "--ceiling-bot", "worlds")
    one_error(invoke("skill", sweep, "--ceiling", "--ceiling-bot", "search:rollout_bot=search"), "rollout_bot")
    one_error(invoke("skill", sweep, "--ceiling", "--ceiling-bot", "nobot"), "--ceiling-bot", "nobot")
    one_error(invoke("skill", sweep, "--ceiling", "--ceiling-deals", "0"), "--ceiling-deals")
    one_error(invoke("skill", sweep, "--ceiling", "--ceiling-deals", "-5"), "--ceiling-deals")
    one_error(invoke("skill", sweep, "--ceiling-deals", "20"), "--ceiling-deals", "only with --ceiling")
    one_error(invoke("skill", sweep, "--ceiling-bot", SEARCH), "--ceiling-bot", "only with --ceiling")
    # another ceiling over a kept one is other settings: refused (--force would redo the whole folder)
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--ceiling", "--ceiling-deals", "30", "--ceiling-bot",
                     SEARCH), "--ceiling-deals", f"the ceiling of {SEARCH} on 20 deals", "--force")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--ceiling"), "--ceiling-bot", "the ceiling of")
    one_error(invoke("skill", sweep, "--out", out, *TUNE[:-3], "--replicates", "1", "--quiet", "--ceiling"),
              "--out", "other settings")  # another tuning: the guard's refusal


def test_report_and_figures_show_the_ceiling(runs, tmp_path: Path) -> None:
    data = runs["root"] / "sw"
    rep = invoke("report", data, "--format", "csv")
    assert rep.exit_code == 0, rep.output
    assert "skill_ceiling" in rep.output and ",skill," in rep.output
    import io

    csv = pd.read_csv(io.StringIO(rep.output))
    row = csv[csv["metric"] == "skill_ceiling"].iloc[0]  # the point against the skill run's base: paired
    se = pd.read_parquet(runs["out"] / "skill.parquet")["ceiling_diff_se"].dropna().iloc[0]
    assert row["high"] - row["diff"] == pytest.approx(1.959964 * se, rel=1e-4)
    from scipy import stats as st

    tuned = csv[csv["metric"] == "skill"].iloc[0]  # its p under the interval's own Student t
    df = pd.read_parquet(runs["out"] / "skill.parquet")["df"].iloc[0]
    half = (tuned["high"] - tuned["low"]) / 2
    assert tuned["p"] == pytest.approx(2 * st.t.sf(abs(tuned["diff"]) / (half / st.t.ppf(0.975, df)), df), rel=1e-3)
    text = invoke("report", data)
    assert text.exit_code == 0 and "skill ceiling (search) (diff, effect)" in text.output, text.output
    plots = invoke("plot", runs["out"], data, "--out", tmp_path / "plots")
    assert plots.exit_code == 0, plots.output
    assert (tmp_path / "plots" / "skill_sw.skill.png").exists() and (tmp_path / "plots" / "balance_sw.png").exists()
    from unosim.analysis.skill_plots import plot_skill

    fig = plot_skill(pd.read_parquet(runs["out"] / "skill.parquet"), "t")
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels == ["2 players: tuned bot (lower bound)", "2 players: search (ceiling)"]
    html = invoke("report", runs["out"], "--html", tmp_path / "page.html")
    page = (tmp_path / "page.html").read_text()
    assert html.exit_code == 0 and "ceiling_norm" in page
    # the page's differences: the printed ones, with their p-values and the false discovery marks' columns
    assert "<h2>Differences from the base point</h2>" in page and "false discovery rate at 5%" in page
    assert "<th>ceiling_p</th>" in page and "<th>†</th>" in page and "<th>ceiling †</th>" in page


def test_guard_extends_only_what_a_kept_output_lacks(tmp_path: Path) -> None:
    """The output guard's ``extends``: a key the kept output lacks may be added, one the
    call lacks is kept, and two values of it differ as any setting does."""
    from unosim.run.guard import GuardError, guard_output

    base = {"a": 1}
    with guard_output(tmp_path, "skill", base, extends=("c",)) as g:
        assert g.identity == base
        g.write_text("skill.parquet", "kept")  # an output with something in it to keep
    with guard_output(tmp_path, "skill", {**base, "c": {"x": 1}}, extends=("c",)) as g:
        assert g.identity == {"a": 1, "c": {"x": 1}}
    with guard_output(tmp_path, "skill", base, extends=("c",)) as g:
        assert g.identity == {"a": 1, "c": {"x": 1}}  # kept
    for other in ({**base, "c": {"x": 2}}, {"a": 2}, {"a": 2, "c": {"x": 1}}):
        with pytest.raises(GuardError, match="other settings"):
            with guard_output(tmp_path, "skill", other, extends=("c",)):
                pass
    with pytest.raises(GuardError, match="other settings"):  # without extends the key is a setting like any
        with guard_output(tmp_path, "skill", base):
            pass
