"""The `unosim` command end to end through click's CliRunner (in process, so the kernel
compiles once): good runs write readable rows, `trace`/`rules`/`report`/`compare`/`plot`
work, and every user error is one ``Error:`` line naming the key or option, exit 2,
no traceback (C1, the CLI's contract).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from unosim import __version__
from unosim.cli import main
from unosim.rules.config import describe_keys, load_config
from unosim.kernel.layout import HAND_COLUMNS

SMALL = 'name = "small"\n[table]\nplayers = 3\n'


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def user_error(result: Result, *needles: str) -> str:
    """Exit 2, exactly one non-empty output line, starting with "Error:", naming the needles."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output and not isinstance(result.exception, (TypeError, KeyError))
    lines = [ln for ln in result.output.replace("\r", "\n").splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("Error:")]
    assert len(errors) == 1, result.output
    assert all(ln.startswith("Error:") or "hand" in ln for ln in lines), lines  # at most a progress bar besides
    for n in needles:
        assert n in errors[0], (n, errors[0])
    return errors[0]


@pytest.fixture
def cfg_file(tmp_path: Path) -> Path:
    p = tmp_path / "small.toml"
    p.write_text(SMALL)
    return p


def write(tmp_path: Path, text: str, name: str = "bad.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


# --------------------------------------------------------------------------- run
def test_run_writes_rows_with_schema_and_metadata(cfg_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "res.parquet"
    r = invoke("run", cfg_file, "--hands", 300, "--seed", 4, "--out", out, "--workers", 1,
               "--chunk-size", 128, "--quiet")
    assert r.exit_code == 0, r.output
    assert "small: 300 hands of 3 players, seed 4" in r.output
    assert "turns per hand" in r.output and "winner's seat relative to the dealer" in r.output
    assert "dealer+2" in r.output and "dealer+3" not in r.output
    assert sorted(p.name for p in out.glob("part-*.parquet")) == [f"part-{i:06d}.parquet" for i in range(3)]
    df = pd.read_parquet(out)
    assert len(df) == 300 and sorted(df["hand"]) == list(range(300))
    expected = [name for name, _ in HAND_COLUMNS] + [f"{p}_{s}" for p in ("points", "cards", "rank")
                                                      for s in range(3)]
    assert list(df.columns) == expected
    assert df["stalled"].dtype == bool and (df.loc[~df["stalled"], "winner"] >= 0).all()
    from unosim.run.schema import read_metadata

    meta = read_metadata(out)
    assert meta["unosim.seed"] == "4" and meta["unosim.version"] == __version__
    assert json.loads(meta["unosim.bots"]) == ["random"] * 3
    assert tomllib.loads(meta["unosim.config"])["table"]["players"] == 3
    assert load_config(cfg_file).to_toml() == meta["unosim.config"]


def test_run_existing_output_needs_force(cfg_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "res.parquet"
    assert invoke("run", cfg_file, "--hands", 50, "--out", out, "--quiet").exit_code == 0
    same = invoke("run", cfg_file, "--hands", 50, "--out", out, "--quiet")  # complete: said, exit 0
    assert same.exit_code == 0 and "already complete" in same.output
    user_error(invoke("run", cfg_file, "--hands", 50, "--seed", 3, "--out", out, "--quiet"), "--out", "--force")
    r = invoke("run", cfg_file, "--hands", 60, "--seed", 2, "--out", out, "--quiet", "--force")
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(out)) == 60


def test_run_bundled_config_by_name(tmp_path: Path) -> None:
    r = invoke("run", "standard", "--hands", 20, "--out", tmp_path / "s", "--quiet")
    assert r.exit_code == 0 and "standard: 20 hands of 4 players" in r.output


# --------------------------------------------------------------------------- trace, rules
def test_trace_prints_deal_turns_and_end(cfg_file: Path) -> None:
    r = invoke("trace", cfg_file, "--seed", 4, "--hand", 2)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("Hand 2 of a run of 'small' with seed 4: 3 players, dealer seat 2")
    assert sum("is dealt" in ln for ln in lines) == 3
    assert any(ln.startswith("Turned ") and "to start the discard pile" in ln for ln in lines)
    assert any(" plays " in ln for ln in lines)
    assert any("wins the hand" in ln or "stalled" in ln for ln in lines)
    assert "turns," in lines[-4] and "cards played" in lines[-4]
    assert all(ln.startswith(f"  seat {s} ends with") for s, ln in enumerate(lines[-3:]))


def test_rules_lists_every_key_with_rule_ids() -> None:
    r = invoke("rules")
    assert r.exit_code == 0, r.output
    for d in describe_keys():
        line = next(ln for ln in r.output.splitlines() if ln.split() and ln.split()[0] == d["key"])
        assert all(rid in line for rid in d["rules"]), line
    # defaults read as TOML, ready to copy into a config (C1)
    lines = {ln.split()[0]: ln for ln in r.output.splitlines() if ln and not ln.startswith(" ")}
    assert "default true;" in lines["rules.challenge"] and 'default "standard";' in lines["name"]
    assert "True" not in r.output and "'standard'" not in r.output


def test_rules_markdown_lists_every_key_with_rule_ids() -> None:
    r = invoke("rules", "--format", "markdown")
    assert r.exit_code == 0, r.output
    for d in describe_keys():
        line = next(ln for ln in r.output.splitlines() if ln.startswith(f"| `{d['key']}` |"))
        assert all(rid in line for rid in d["rules"]), line


# --------------------------------------------------------------------------- user errors
def test_error_unknown_key_lists_valid_keys(tmp_path: Path) -> None:
    bad = write(tmp_path, "[rules]\nstackin = \"none\"\n")
    msg = user_error(invoke("run", bad, "--hands", 10, "--out", tmp_path / "o", "--quiet"), "stackin")
    assert "stacking" in msg and "play_drawn" in msg  # the valid keys are listed
    assert not (tmp_path / "o").exists()


def test_error_wrong_type(tmp_path: Path) -> None:
    bad = write(tmp_path, "[table]\nplayers = \"four\"\n")
    user_error(invoke("run", bad, "--hands", 10, "--out", tmp_path / "o", "--quiet"), "table.players", "integer")


@pytest.mark.parametrize("text, key", [
    ("[table]\nplayers = 11\n", "table.players"),
    ("[rules]\nplay_drawn = \"sometimes\"\n", "rules.play_drawn"),
    ("[rules]\nuno_forget = 1.5\n", "rules.uno_forget"),
    ("[table]\nhand_size = 27\n", "table.hand_size"),  # R2: nothing left to turn
])
def test_error_bad_value(tmp_path: Path, text: str, key: str) -> None:
    user_error(invoke("run", write(tmp_path, text), "--hands", 10, "--out", tmp_path / "o", "--quiet"), key)


def test_error_invalid_toml(tmp_path: Path) -> None:
    user_error(invoke("run", write(tmp_path, "[table\nplayers = 3\n"), "--hands", 5, "--quiet",
                      "--out", tmp_path / "o"), "invalid TOML")


def test_error_missing_config_file(tmp_path: Path) -> None:
    user_error(invoke("run", tmp_path / "nope.toml", "--hands", 10, "--quiet"), "not found", "nope.toml")
    user_error(invoke("trace", "no_such_config"), "not found")


def test_error_unwritable_out(cfg_file: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    user_error(invoke("run", cfg_file, "--hands", 10, "--out", blocker / "res", "--quiet"), "--out")
    user_error(invoke("run", cfg_file, "--hands", 10, "--out", blocker, "--quiet"), "--out", "--force")
    assert blocker.read_text() == "x"


@pytest.mark.parametrize("args, option", [
    (("--hands", 0), "--hands"), (("--hands", -3), "--hands"), (("--workers", 0), "--workers"),
    (("--workers", 999), "--workers"), (("--chunk-size", 0), "--chunk-size"), (("--seed", -1), "--seed"),
])
def test_error_bad_run_options(cfg_file: Path, tmp_path: Path, args: tuple, option: str) -> None:
    user_error(invoke("run", cfg_file, *args, "--out", tmp_path / "o", "--quiet"), option)


def test_error_run_modes_that_do_not_mix(cfg_file: Path, tmp_path: Path) -> None:
    """One run plays one mode: hands, matches (S1-S4) or tournaments (any of them with rotated seats)."""
    out = tmp_path / "o"
    user_error(invoke("run", cfg_file, "--matches", 3, "--tournaments", 2, "--out", out, "--quiet"),
               "--tournaments", "--matches")
    user_error(invoke("run", cfg_file, "--matches", 3, "--rotate-seats", "--chunk-size", 0, "--out", out, "--quiet"),
               "--chunk-size")
    user_error(invoke("run", cfg_file, "--matches", 3, "--hands", 5, "--out", out, "--quiet"), "--matches", "--hands")
    user_error(invoke("run", cfg_file, "--matches", 3, "--max-hands", 0, "--out", out, "--quiet"), "--max-hands")
    user_error(invoke("run", cfg_file, "--hands", 5, "--rotate-seats", "--chunk-size", 0, "--out", out, "--quiet"),
               "--chunk-size")
    assert not out.exists()


def test_error_with_progress_bar_still_one_error_line(cfg_file: Path, tmp_path: Path) -> None:
    user_error(invoke("run", cfg_file, "--hands", 10, "--workers", 0, "--out", tmp_path / "o"), "--workers")


def test_error_bad_trace_and_report_arguments(cfg_file: Path, tmp_path: Path) -> None:
    user_error(invoke("trace", cfg_file, "--hand", -1), "--hand")
    user_error(invoke("report", tmp_path / "missing.parquet"), "missing.parquet")


@pytest.mark.parametrize("option", ["--seed", "--hand"])
def test_error_trace_seed_or_hand_too_large(cfg_file: Path, option: str) -> None:
    user_error(invoke("trace", cfg_file, option, 2**64), option)


# --------------------------------------------------------------------------- report, compare, plot
@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("cli_runs")
    a, b = base / "standard.parquet", base / "never.parquet"
    never = base / "never.toml"
    never.write_text('name = "never"\n[rules]\nplay_drawn = "never"\n')
    assert invoke("run", "standard", "--hands", 400, "--seed", 1, "--out", a, "--quiet").exit_code == 0
    assert invoke("run", never, "--hands", 400, "--seed", 1, "--out", b, "--quiet").exit_code == 0
    return a, b


def test_report_end_to_end(two_runs: tuple[Path, Path]) -> None:
    a, _ = two_runs
    r = invoke("report", a)
    assert r.exit_code == 0, r.output
    assert "standard" in r.output and "400" in r.output
    r = invoke("report", a, "--format", "json")
    data = json.loads(r.output)
    hands = [x for x in data["rows"] if x["figure"] == "hands" and x["stat"] == "count"]
    assert hands and hands[0]["value"] == 400
    assert data["sources"]["standard"]["seed"] == "1"


def test_compare_end_to_end(two_runs: tuple[Path, Path]) -> None:
    a, b = two_runs
    r = invoke("compare", a, b)
    assert r.exit_code == 0, r.output
    assert "standard" in r.output and "never" in r.output


def test_plot_end_to_end(two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = two_runs
    r = invoke("plot", a, b, "--out", tmp_path / "figs")
    assert r.exit_code == 0, r.output
    written = [Path(ln) for ln in r.output.splitlines() if ln.endswith(".png")]
    assert written and all(p.exists() and p.stat().st_size > 1000 for p in written)


def test_games_is_a_hidden_alias_of_hands(tmp_path: Path) -> None:
    """One word for a hand: --hands everywhere; --games still works for old scripts, unlisted."""
    r = invoke("run", "standard", "--games", 20, "--out", tmp_path / "g", "--quiet")
    assert r.exit_code == 0 and "20 hands of 4 players" in r.output
    assert "--games" not in invoke("run", "--help").output
    user_error(invoke("run", "standard", "--games", 20, "--hands", 20, "--quiet"), "--hands: given twice")


# ------------------------------------------------------------- small things a user meets
def test_matches_default_out_is_the_name_help_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`unosim run --help` names the folder a run without --out writes, for hands and matches."""
    import re

    monkeypatch.chdir(tmp_path)
    help_text = " ".join(invoke("run", "--help").output.split())
    stated = re.search(r"--out PATH Result directory \[default: (\S+); with --matches (\S+),", help_text)
    assert stated, help_text
    hands, matches = (s.replace("<name>", "small") for s in stated.groups())
    write(tmp_path, SMALL, "small.toml")
    assert invoke("run", "small.toml", "--hands", 50, "--quiet").exit_code == 0
    assert invoke("run", "small.toml", "--matches", 3, "--quiet").exit_code == 0
    assert sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "runs").iterdir()) == sorted([hands, matches])


def test_a_name_with_a_space_writes_a_folder_without_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, 'name = "my table"\n', "mine.toml")
    r = invoke("run", "mine.toml", "--hands", 50, "--quiet")
    assert r.exit_code == 0, r.output
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["my_table.parquet"]
    assert "my table" in invoke("report", "runs/my_table.parquet").output  # the label keeps its space


def test_a_config_with_two_typos_names_both_at_once(tmp_path: Path) -> None:
    bad = write(tmp_path, '[table]\nplayrs = 3\n[rules]\nstakcing = "draw2"\n')
    err = user_error(invoke("run", bad, "--hands", 10, "--quiet"), "2 problems", "table.playrs", "rules.stakcing")
    assert "did you mean 'players'" in err and "did you mean 'stacking'" in err


def test_configs_lists_whole_sentences() -> None:
    """`unosim configs` never cuts a description mid-sentence: each ends a sentence."""
    from unosim.rules.bundled import bundled_configs, describe

    out = invoke("configs").output
    for name, path in bundled_configs().items():
        text = describe(path)
        assert text.endswith((".", "!", "?", ")")), (name, text)
        assert " ".join(text.split()) in " ".join(out.split()), name
    assert describe(bundled_configs()["amounts"]).endswith("costs the challenger 5 + 3.")


def test_ci_and_docs_use_hands_not_the_hidden_games() -> None:
    root = Path(__file__).resolve().parents[2]
    for path in [root / ".ci" / "run", root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        assert "--games" not in path.read_text(), path
