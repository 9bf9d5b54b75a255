"""Every reader checks what it reads, and every command ends in one line on a signal.

report, compare and plot accept a run result, a sweep or a result file (report also a
league, plot and report --html also a skill folder) and say in one line what any other folder is; a Parquet file with result-like columns
but no unosim metadata, and a ``--skill`` file that is not a skill table, are one line.
SIGINT, SIGTERM and SIGHUP end a run within moments: one line (what was kept, the exact
command that resumes), exit 128 + the signal (resuming is tested in test_faults.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pandas as pd
import pytest

import unosim

from cli_checks import invoke
from cli_checks import one_error as _one_error


Start = Callable[[list[str]], "subprocess.Popen[str]"]


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Start]:
    """Start ``python -m unosim.cli ARGS`` in tmp_path, in a session of its own (so SIGINT
    is not ignored); a child still running when the test ends, passed or failed, is
    killed with its helpers, never left to run on."""
    children: list[subprocess.Popen[str]] = []
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}

    def spawn(args: list[str]) -> subprocess.Popen[str]:
        children.append(subprocess.Popen([sys.executable, "-m", "unosim.cli", *args], stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                                         cwd=tmp_path))
        return children[-1]

    yield spawn
    for p in children:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()


def test_other_commands_folders_are_named_not_read(tmp_path: Path) -> None:
    lg = tmp_path / "lg"
    assert invoke("league", "standard", "--bots", "counter,random", "--players", 2, "--deals", 20, "--quiet",
                  "--out", lg).exit_code == 0
    one_error(invoke("compare", lg, lg), "is the output of `unosim league`", "_leaderboard.csv", "unosim plot")
    assert invoke("plot", lg, "--out", tmp_path / "p").exit_code == 0
    assert invoke("report", lg / "table-0000-order-0000").exit_code == 0  # a table's seating is a run result
    tune = tmp_path / "t"
    tune.mkdir()
    (tune / "_unosim_output.json").write_text('{"kind": "tune", "files": []}')
    for cmd in (("report", tune), ("plot", tune, "--out", tmp_path / "p"), ("report", tune, "--html", tmp_path / "x.html")):
        one_error(invoke(*cmd), "is the output of `unosim tune`", "bot.toml")
    pd.DataFrame({"generation": [0]}).to_parquet(tune / "history.parquet")
    with pytest.raises(ValueError, match="is the output of `unosim tune`.*bot.toml"):
        unosim.load(tune)  # the library says what the folder is, as the commands do


def test_a_league_s_report_is_its_leaderboard(tmp_path: Path) -> None:
    lg = tmp_path / "lg"
    assert invoke("league", "standard", "--bots", "counter,random,greedy", "--players", 2, "--deals", 20,
                  "--quiet", "--out", lg).exit_code == 0
    board = pd.read_csv(lg / "_leaderboard.csv")
    res = invoke("report", lg)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith(f"League {lg}: 3 bots at tables of 2, 20 deals per table, seed 0")
    assert lines[1].startswith("* ")  # the findings in words, then the table
    top = next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "bot"])
    rows = [line.split() for line in lines[top + 1:top + 4]]
    assert [r[1] for r in rows] == list(board["bot"])  # strongest first, as the leaderboard
    assert [float(r[2]) for r in rows] == [round(x, 3) for x in board["strength"]]
    assert "Even share at a table of 2: 50.00%." in res.output and "--html page.html" in res.output
    csv = invoke("report", lg, "--format", "csv")
    assert csv.exit_code == 0 and csv.output == (lg / "_leaderboard.csv").read_text()
    assert pd.read_json(StringIO(invoke("report", lg, "--format", "json").output))["bot"].tolist() \
        == list(board["bot"])
    one_error(invoke("report", lg, lg / "table-0000-order-0000"), "is a league", "give it alone")
    one_error(invoke("report", lg, "--view", "balance"), "--view balance", "is a league")
    (lg / "_leaderboard.csv").unlink()
    one_error(invoke("report", lg), "without its leaderboard", "unosim league")


def test_result_like_files_without_metadata_and_a_false_skill_table(tmp_path: Path) -> None:
    fake = tmp_path / "fake.parquet"
    pd.DataFrame({"winner": [0, 1], "stalled": [False, False], "turns": [3, 4]}).to_parquet(fake)
    one_error(invoke("report", fake), "fake.parquet", "no unosim metadata")
    sweep = tmp_path / "sw.toml"
    sweep.write_text('name = "sw"\nbase = "standard"\nhands = 60\n[axes]\n"rules.stacking" = ["draw2"]\n')
    assert invoke("sweep", sweep, "--out", tmp_path / "sw", "--quiet").exit_code == 0
    other = tmp_path / "other.parquet"
    pd.DataFrame({"a": [1]}).to_parquet(other)
    one_error(invoke("report", tmp_path / "sw", "--skill", other), "--skill", "not a `unosim skill` table")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_ends_a_run_in_one_line_and_it_resumes(tmp_path: Path, start: Start, sig: int, code: int) -> None:
    out = tmp_path / "r"
    args = ["run", "standard", "--hands", "4000000", "--chunk-size", "50000", "--seed", "1", "--out", str(out), "--quiet"]
    p = start(args)
    journal = out / "_unosim_parts.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size):
        time.sleep(0.2)  # wait for the first finished part
    t = time.monotonic()
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    assert time.monotonic() - t < 10
    assert p.returncode == code, err
    lines = [ln for ln in err.splitlines() if ln.startswith("unosim: interrupted")]
    assert len(lines) == 1 and "every finished part is kept" in lines[0], err
    assert "resume with: unosim run standard --hands 4000000" in lines[0] and "Traceback" not in err
    kept = len(journal.read_text().splitlines())
    assert kept >= 1


def _sweep_file(tmp_path: Path) -> Path:
    sw = tmp_path / "big.toml"
    sw.write_text('name = "big"\nbase = "standard"\nhands = 3000000\nchunk_size = 50000\n[axes]\n'
                  '"rules.stacking" = ["draw2"]\n')
    return sw


@pytest.mark.slow
@pytest.mark.parametrize("command, kept", [
    ("sweep", "every finished part of every point is kept"),
    ("league", "every finished part of every table is kept"),
    ("skill", "every finished point is kept"),
    ("tune", None),
    ("duel", "nothing was written"),
])
def test_ctrl_c_ends_every_long_command_in_one_line(tmp_path: Path, start: Start, command: str,
                                                    kept: str | None) -> None:
    """SIGINT mid-work ends each long command within seconds, exit 130, with one line saying
    what was kept and (for what writes parts) the command that resumes; never a traceback."""
    out = tmp_path / "o"
    args = {
        "sweep": ["sweep", str(_sweep_file(tmp_path)), "--out", str(out), "--quiet"],
        "league": ["league", "standard", "--bots", "counter,greedy,random,wild_saver", "--deals", "200000",
                   "--out", str(out), "--quiet"],
        "skill": ["skill", str(_sweep_file(tmp_path)), "--budget", "100000", "--replicates", "1", "--out", str(out),
                  "--quiet"],
        "tune": ["tune", "standard", "--budget", "100000", "--out", str(out), "--quiet"],
        "duel": ["duel", "counter", "greedy", "--players", "4", "--hands", "5000000"],
    }[command]
    p = start(args)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and command != "duel" and not out.exists():
        time.sleep(0.1)  # the command has parsed its options and holds its folder
    time.sleep(3.0)  # mid-work
    assert p.poll() is None, p.communicate()
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert time.monotonic() - t < 15, err
    assert p.returncode == 130 and "Traceback" not in err, err
    if command == "tune":  # the search stops and writes the best bot so far
        assert (out / "bot.toml").exists(), err
        return
    lines = [ln for ln in err.splitlines() if ln.startswith("unosim: interrupted (SIGINT)")]
    assert len(lines) == 1 and kept in lines[0], err
    if command != "duel":
        assert f"resume with: unosim {command} " in lines[0], err


@pytest.mark.slow
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("command", ["skill", "duel"])
def test_a_signal_is_named_and_a_search_decision_does_not_hold_it(tmp_path: Path, start: Start, command: str,
                                                                  sig: int, code: int) -> None:
    """SIGTERM during `unosim skill` (stopped inside a tuning) says SIGTERM and exits 143;
    a duel whose search plays 10,000 worlds x 10,000 rollouts per decision (minutes each)
    ends on either signal within moments."""
    out = tmp_path / "o"
    args = {"skill": ["skill", str(_sweep_file(tmp_path)), "--budget", "100000", "--out", str(out), "--quiet"],
            "duel": ["duel", "search:worlds=10000,rollouts=10000", "counter", "--players", "2", "--hands", "2"]}[command]
    p = start(args)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and command == "skill" and not out.exists():
        time.sleep(0.1)
    time.sleep(4.0)  # tuning its first point; or inside the first search decision
    assert p.poll() is None, p.communicate()
    t = time.monotonic()
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    assert time.monotonic() - t < 15, err
    name = signal.Signals(sig).name
    assert p.returncode == code and "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.startswith("unosim: interrupted")]
    assert len(lines) == 1 and lines[0].startswith(f"unosim: interrupted ({name})"), err


@pytest.mark.slow
def test_ctrl_c_before_tunes_first_generation(tmp_path: Path, start: Start) -> None:
    """Stopped before any generation ends, tune writes the starting bot and an empty
    history, draws no curve, and exits 130 in one line (no traceback)."""
    out = tmp_path / "t"
    args = ["tune", "standard", "--budget", "100000", "--deals", "1000000", "--out", str(out), "--quiet"]
    p = start(args)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not out.exists():
        time.sleep(0.02)
    time.sleep(5.0)  # the kernels are loaded; a generation (11 candidates x 1,000,000 deals) takes far longer
    p.send_signal(signal.SIGINT)
    std, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err, err
    assert "0 generations" in std and "no generation finished" in std, std
    assert (out / "bot.toml").exists() and not (out / "curve.png").exists()


@pytest.mark.slow
def test_ctrl_c_during_tunes_final_check_ends_promptly(tmp_path: Path, start: Start) -> None:
    """The final check of a big --check-deals plays its deals in slices, so SIGINT in the
    middle of it ends the command within a second or two (the kernel cannot be stopped,
    only not called again); bot.toml and history.parquet, written before the check, stay."""
    out = tmp_path / "t"
    args = ["tune", "standard", "--players", "2", "--budget", "12", "--deals", "20", "--check-deals", "5000000",
            "--out", str(out), "--quiet"]
    p = start(args)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (out / "history.parquet").exists():
        time.sleep(0.1)  # the search is over and the check has begun
    time.sleep(2.0)
    assert p.poll() is None, p.communicate()
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    std, err = p.communicate(timeout=60)
    waited = time.monotonic() - t
    assert p.returncode == 130 and "Traceback" not in err, err
    assert "check by" not in std, std  # it was stopped inside the check
    assert waited < 4, f"{waited:.1f} s after SIGINT"
    assert (out / "bot.toml").exists() and (out / "history.parquet").exists()


def one_error(res, *needles: str) -> str:
    """The output is that one line and nothing else."""
    return _one_error(res, *needles, alone=True)
