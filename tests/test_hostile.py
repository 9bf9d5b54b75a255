"""Hostile input, one situation per test, each built on a temporary directory.

The first rule of every command: nothing outside a unosim result is ever deleted, whatever
the flags.  ``--force`` replaces a result whose manifest proves it one, and removes only the
files a result is made of; anything else is refused with one ``Error:`` line, exit 2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from unosim.cli import main
from unosim.run.store import MANIFEST

SMALL = 'name = "small"\n[table]\nplayers = 3\n'
SWEEP = ('name = "tiny"\nbase = "small.toml"\nmode = "one_at_a_time"\nhands = 40\nseed = 1\nchunk_size = 20\n'
         '[axes]\n"rules.stacking" = ["draw2"]\n')


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def refused(result: Result, *needles: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    errors = [ln for ln in result.output.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1, result.output
    for n in needles:
        assert n in errors[0], (n, errors[0])


@pytest.fixture()
def cfg_file(tmp_path: Path) -> Path:
    p = tmp_path / "small.toml"
    p.write_text(SMALL)
    return p


def user_files(root: Path) -> dict[str, bytes]:
    """Every regular file under root (a snapshot to compare against)."""
    return {str(f.relative_to(root)): f.read_bytes() for f in sorted(root.rglob("*")) if f.is_file()}


def test_force_on_the_working_directory_deletes_nothing(cfg_file: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """`--force --out .` in a folder of the user's own files: refused, every file kept."""
    home = tmp_path / "home"
    (home / "sub").mkdir(parents=True)
    (home / "thesis.tex").write_text("years of work")
    (home / "sub" / "data.csv").write_text("1,2,3")
    before = user_files(home)
    monkeypatch.chdir(home)
    refused(invoke("run", cfg_file, "--games", 10, "--out", ".", "--force", "--quiet"),
            "--out", "not a unosim result")
    assert user_files(home) == before


def test_force_on_an_ordinary_directory_deletes_nothing(cfg_file: Path, tmp_path: Path) -> None:
    d = tmp_path / "photos"
    d.mkdir()
    (d / "cat.jpg").write_bytes(b"\xff\xd8")
    refused(invoke("run", cfg_file, "--games", 10, "--out", d, "--force", "--quiet"), str(d), "--force")
    assert (d / "cat.jpg").read_bytes() == b"\xff\xd8"


def test_force_on_a_file_or_special_file_deletes_nothing(cfg_file: Path, tmp_path: Path) -> None:
    """A plain file and a FIFO stand in for /dev/null: never unlinked."""
    f = tmp_path / "notes.txt"
    f.write_text("keep")
    refused(invoke("run", cfg_file, "--games", 10, "--out", f, "--force", "--quiet"), str(f))
    assert f.read_text() == "keep"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused(invoke("run", cfg_file, "--games", 10, "--out", fifo, "--force", "--quiet"), str(fifo))
    assert fifo.exists()
    refused(invoke("run", cfg_file, "--matches", 2, "--out", f, "--force", "--quiet"), str(f))
    assert f.read_text() == "keep"


def test_a_manifest_without_engine_version_proves_nothing(cfg_file: Path, tmp_path: Path) -> None:
    """Any file called _unosim.json is not proof: it must be a unosim manifest."""
    d = tmp_path / "lookalike"
    d.mkdir()
    (d / MANIFEST).write_text(json.dumps({"hello": 1}))
    (d / "part-000000.parquet").write_bytes(b"not ours")
    refused(invoke("run", cfg_file, "--games", 10, "--out", d, "--force", "--quiet"), "not a unosim result")
    assert (d / "part-000000.parquet").read_bytes() == b"not ours"
    (d / MANIFEST).write_text("")  # empty, as a full disk leaves it
    refused(invoke("run", cfg_file, "--games", 10, "--out", d, "--force", "--quiet"), "not a unosim result")
    assert (d / "part-000000.parquet").exists()


def test_force_replaces_a_result_and_keeps_a_users_file_inside(cfg_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "res"
    assert invoke("run", cfg_file, "--games", 30, "--chunk-size", 10, "--out", out, "--quiet").exit_code == 0
    (out / "README.txt").write_text("my notes on this run")
    (out / "part-000009.parquet.keep").write_text("not a part name")
    r = invoke("run", cfg_file, "--games", 20, "--seed", 5, "--chunk-size", 10, "--out", out, "--quiet", "--force")
    assert r.exit_code == 0, r.output
    assert sorted(f.name for f in out.glob("part-*.parquet")) == ["part-000000.parquet", "part-000001.parquet"]
    assert json.loads((out / MANIFEST).read_text())["seed"] == 5
    assert (out / "README.txt").read_text() == "my notes on this run"
    assert (out / "part-000009.parquet.keep").exists()


def test_force_through_a_symlinked_out(cfg_file: Path, tmp_path: Path) -> None:
    """A symlink to a result is followed: the result inside is replaced, the link stays; a
    dangling link is one line, not a traceback."""
    real = tmp_path / "real"
    link = tmp_path / "link"
    assert invoke("run", cfg_file, "--games", 20, "--chunk-size", 10, "--out", real, "--quiet").exit_code == 0
    link.symlink_to(real, target_is_directory=True)
    r = invoke("run", cfg_file, "--games", 20, "--seed", 3, "--chunk-size", 10, "--out", link, "--quiet", "--force")
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and json.loads((real / MANIFEST).read_text())["seed"] == 3
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    refused(invoke("run", cfg_file, "--games", 10, "--out", dangling, "--force", "--quiet"), "--out")
    assert dangling.is_symlink()


def test_sweep_force_deletes_only_its_own_results(cfg_file: Path, tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(SWEEP)
    out = tmp_path / "sw"
    r = invoke("sweep", tmp_path / "tiny.toml", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    point = next(p.parent for p in out.rglob(MANIFEST))
    (point / "mine.txt").write_text("keep")
    (out / "summary.xlsx").write_text("keep too")
    r = invoke("sweep", tmp_path / "tiny.toml", "--out", out, "--quiet", "--force")
    assert r.exit_code == 0, r.output
    assert (point / "mine.txt").read_text() == "keep" and (out / "summary.xlsx").read_text() == "keep too"
    assert len(list(out.rglob("part-*.parquet"))) == 2 * 2  # two points, two chunks each


def test_sweep_force_on_a_plain_directory_or_file_deletes_nothing(cfg_file: Path, tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(SWEEP)
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text("a")
    refused(invoke("sweep", tmp_path / "tiny.toml", "--out", d, "--quiet", "--force"), "not a unosim sweep")
    assert (d / "a.txt").read_text() == "a"
    refused(invoke("sweep", tmp_path / "tiny.toml", "--out", d / "a.txt", "--quiet", "--force"), "a.txt")
    assert (d / "a.txt").read_text() == "a"


def test_sweep_manifest_cannot_point_force_outside(cfg_file: Path, tmp_path: Path) -> None:
    """A hand-edited sweep manifest naming ../victim as a point: the victim (even a real
    unosim result) is not touched."""
    (tmp_path / "tiny.toml").write_text(SWEEP)
    victim = tmp_path / "victim"
    assert invoke("run", cfg_file, "--games", 10, "--out", victim, "--quiet").exit_code == 0
    before = user_files(victim)
    out = tmp_path / "sw"
    assert invoke("sweep", tmp_path / "tiny.toml", "--out", out, "--quiet").exit_code == 0
    mf = out / "_unosim_sweep.json"
    m = json.loads(mf.read_text())
    m["points"]["../victim"] = {"label": "evil"}
    mf.write_text(json.dumps(m))
    assert invoke("sweep", tmp_path / "tiny.toml", "--out", out, "--quiet", "--force").exit_code == 0
    assert user_files(victim) == before
