"""Runs that survive interruption: a real `unosim run` / `unosim sweep` process killed with
SIGKILL mid-run leaves only whole part files, and the same command finishes it with exactly
the rows of an uninterrupted run.  A changed run in an existing directory is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from unosim.cli import main
from unosim.rules.config import default_config
from unosim.kernel.layout import ENGINE_VERSION
from unosim.run.integrity import JOURNAL, read_records
from unosim.run.runner import run_hands, run_matches
from unosim.run.store import MANIFEST, ResultDir, StoreError
from unosim.run.sweep import load_sweep, run_sweep

CLI = [sys.executable, "-m", "unosim.cli"]


def kill_after_first_part(cmd: list[str], out: Path, timeout: float = 600.0) -> None:
    """Start ``cmd``, SIGKILL it as soon as a part is recorded in a journal under ``out``."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.monotonic()
    try:
        while not any(j.stat().st_size > 0 for j in out.rglob(JOURNAL)):
            if proc.poll() is not None:
                pytest.fail(f"{cmd} ended before writing a part: {proc.stderr.read().decode()}")
            if time.monotonic() - t0 > timeout:
                pytest.fail(f"no part file after {timeout} s")
            time.sleep(0.002)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def rows(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path).sort_values("hand").reset_index(drop=True)


def parts(path: Path) -> list[Path]:
    return sorted(path.rglob("part-*.parquet"))


def recorded(path: Path) -> list[Path]:
    """The parts under ``path`` that their journal records: what a resume keeps (a part
    the kill left without its journal line is set aside and played again)."""
    return [p for p in parts(path) if int(p.stem.split("-")[1]) in (read_records(p.parent) or {})]


GAMES, CHUNK = 60_000, 500  # 120 small parts: the kill lands long before the end


@pytest.mark.slow
def test_killed_run_resumes_to_the_rows_of_an_uninterrupted_run(tmp_path: Path) -> None:
    cfg = default_config(players=3)
    (tmp_path / "three.toml").write_text(cfg.to_toml())
    out = tmp_path / "killed"
    cmd = CLI + ["run", str(tmp_path / "three.toml"), "--hands", str(GAMES), "--seed", "5", "--chunk-size",
                 str(CHUNK), "--workers", "1", "--out", str(out), "--quiet"]
    kill_after_first_part(cmd, out)
    left = recorded(out)
    assert 1 <= len(left) < GAMES // CHUNK, "the run was not interrupted"
    for p in left:  # only whole parts: every one reads, with a full chunk of rows
        assert pq.read_metadata(p).num_rows == CHUNK
    # the same command, no flag: resumes (in-process to save a second interpreter start)
    res = CliRunner().invoke(main, cmd[3:])
    assert res.exit_code == 0, res.output
    k = len(left)
    assert f"resumed: {k} finished chunk{'s were' if k > 1 else ' was'} kept" in res.output
    assert (f"the figures below: the {GAMES - k * CHUNK:,} hands played now; `unosim report {out}` gives all "
            f"{GAMES:,}") in res.output  # never the kept hands' figures passed off as the result's
    assert not list(out.glob("*.tmp"))
    reference = tmp_path / "reference"
    run_hands(cfg, GAMES, 5, reference, chunk_size=CHUNK, workers=1)
    got, want = rows(out), rows(reference)
    assert len(got) == GAMES and got["hand"].is_unique
    pd.testing.assert_frame_equal(got, want)
    # run again: complete, so the same command says so and succeeds (every part checked)
    res = CliRunner().invoke(main, cmd[3:])
    assert res.exit_code == 0 and "nothing left to play: the result was already complete" in res.output
    assert f"{GAMES // CHUNK} finished chunks were kept" in res.output and "checked:" not in res.output


SWEEP = """
name = "killed"
mode = "one_at_a_time"
hands = 8000
seed = 3
chunk_size = 250
[axes]
"rules.stacking" = ["draw2"]
[strata]
"table.players" = [2, 4]
"""


@pytest.mark.slow
def test_killed_sweep_resumes_to_the_rows_of_an_uninterrupted_sweep(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(SWEEP)
    out = tmp_path / "killed"
    cmd = CLI + ["sweep", str(f), "--out", str(out), "--workers", "1", "--quiet"]
    kill_after_first_part(cmd, out)
    left = recorded(out)
    assert 1 <= len(left) < 4 * 8000 // 250, "the sweep was not interrupted"
    res = CliRunner().invoke(main, cmd[3:])
    assert res.exit_code == 0, res.output
    assert f"resumed: kept {len(left)} finished chunk{'s' if len(left) > 1 else ''}" in res.output
    assert "the figures below: each point's hands played now" in res.output and "hands now" in res.output
    reference = tmp_path / "reference"
    run_sweep(load_sweep(f), reference, workers=1)
    point_dirs = sorted({p.parent.relative_to(reference) for p in parts(reference)})
    assert len(point_dirs) == 4
    for d in point_dirs:
        pd.testing.assert_frame_equal(rows(out / d), rows(reference / d))
        assert len(parts(out / d)) == 8000 // 250


def test_a_changed_config_in_an_existing_directory_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = ["run", "standard", "--hands", "300", "--chunk-size", "100", "--out", str(out), "--quiet"]
    assert CliRunner().invoke(main, args).exit_code == 0
    (tmp_path / "stack.toml").write_text('name = "standard"\n[rules]\nstacking = "draw2"\n')
    res = CliRunner().invoke(main, ["run", str(tmp_path / "stack.toml")] + args[2:])
    assert res.exit_code == 2
    assert 'holds a different run (differs in: config: rules.stacking "none" -> "draw2")' in res.output
    res = CliRunner().invoke(main, args[:2] + ["--hands", "400"] + args[4:])
    assert res.exit_code == 2 and "hands 300 -> 400" in res.output
    res = CliRunner().invoke(main, ["run", str(tmp_path / "stack.toml")] + args[2:] + ["--force"])
    assert res.exit_code == 0 and 'stacking = "draw2"' in pq.read_schema(out / "part-000000.parquet").metadata[
        b"unosim.config"].decode()


def test_a_changed_sweep_is_refused_naming_the_change(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('hands = 40\nchunk_size = 20\n[axes]\nstacking = ["draw2"]\n')
    out = tmp_path / "o"
    run_sweep(load_sweep(f), out, workers=1)
    f.write_text('hands = 40\nchunk_size = 20\n[axes]\nstacking = ["draw2", "all"]\n')
    with pytest.raises(StoreError, match="holds a different sweep .*new points stacking=all"):
        run_sweep(load_sweep(f), out, workers=1)
    f.write_text('hands = 40\nchunk_size = 20\n[set]\ndraw2_amount = 3\n[axes]\nstacking = ["draw2"]\n')
    with pytest.raises(StoreError, match=r'point base: config: rules.draw2_amount 2 -> 3'):
        run_sweep(load_sweep(f), out, workers=1)
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "x.txt").write_text("mine")
    with pytest.raises(StoreError, match="not a unosim sweep"):
        run_sweep(load_sweep(f), tmp_path / "plain", workers=1)


def test_stale_temporary_parts_are_removed_and_a_lost_chunk_is_replayed(tmp_path: Path) -> None:
    cfg = default_config()
    out = tmp_path / "r"
    run_hands(cfg, 300, 1, out, chunk_size=100, workers=1)
    want = rows(out)
    (out / "part-000001.parquet").rename(out / "part-000001.parquet.tmp")  # as if killed mid-write
    s = run_hands(cfg, 300, 1, out, chunk_size=100, workers=1)  # no flag: the same run, unfinished
    assert s.chunks_skipped == 2 and s.hands == 100
    assert not list(out.glob("*.tmp")) and (out / MANIFEST).exists()
    pd.testing.assert_frame_equal(rows(out), want)


def test_prepare_refuses_what_is_not_a_result(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not a unosim result"):
        ResultDir(tmp_path / "x").prepare({"games": 1, "chunk_size": 1}, force=False, resume=False)
    assert os.path.exists(tmp_path / "x" / "notes.txt")


def test_the_manifest_keeps_the_keys_and_values_results_were_written_with(tmp_path: Path) -> None:
    """Resuming compares manifests, so a result written by an earlier version resumes only if
    the manifest of the same command is still exactly the same (R4, S1-S3: every mode)."""
    cfg = default_config(players=3)
    toml = cfg.to_toml()
    run_hands(cfg, 30, 2, tmp_path / "h", chunk_size=20, workers=1)
    run_hands(cfg, 10, 2, tmp_path / "r", chunk_size=20, workers=1, rotate_seats=True)
    run_matches(cfg, 4, 2, tmp_path / "m", chunk_size=3, workers=1, max_hands=200)

    def read(d: str) -> dict:
        return json.loads((tmp_path / d / MANIFEST).read_text())

    assert read("h") == {"config": toml, "seed": 2, "games": 30, "chunk_size": 20, "mode": "hands",
                         "engine_version": ENGINE_VERSION}
    assert read("r") == {"config": toml, "seed": 2, "games": 10, "chunk_size": 20, "mode": "hands",
                         "rotate_seats": True, "engine_version": ENGINE_VERSION}
    assert read("m") == {"config": toml, "seed": 2, "matches": 4, "chunk_size": 3, "max_hands": 200,
                         "mode": "matches", "engine_version": ENGINE_VERSION}
