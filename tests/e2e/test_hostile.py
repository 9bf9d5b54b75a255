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

from cli_checks import invoke, one_error as refused
from unosim.run.store import MANIFEST

SMALL = 'name = "small"\n[table]\nplayers = 3\n'
SWEEP = ('name = "tiny"\nbase = "small.toml"\nmode = "one_at_a_time"\nhands = 40\nseed = 1\nchunk_size = 20\n'
         '[axes]\n"rules.stacking" = ["draw2"]\n')


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
    refused(invoke("run", cfg_file, "--hands", 10, "--out", ".", "--force", "--quiet"),
            "--out", "not a unosim result")
    assert user_files(home) == before


def test_force_on_an_ordinary_directory_deletes_nothing(cfg_file: Path, tmp_path: Path) -> None:
    d = tmp_path / "photos"
    d.mkdir()
    (d / "cat.jpg").write_bytes(b"\xff\xd8")
    refused(invoke("run", cfg_file, "--hands", 10, "--out", d, "--force", "--quiet"), str(d), "--force")
    assert (d / "cat.jpg").read_bytes() == b"\xff\xd8"


def test_force_on_a_file_or_special_file_deletes_nothing(cfg_file: Path, tmp_path: Path) -> None:
    """A plain file and a FIFO stand in for /dev/null: never unlinked."""
    f = tmp_path / "notes.txt"
    f.write_text("keep")
    refused(invoke("run", cfg_file, "--hands", 10, "--out", f, "--force", "--quiet"), str(f))
    assert f.read_text() == "keep"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused(invoke("run", cfg_file, "--hands", 10, "--out", fifo, "--force", "--quiet"), str(fifo))
    assert fifo.exists()
    refused(invoke("run", cfg_file, "--matches", 2, "--out", f, "--force", "--quiet"), str(f))
    assert f.read_text() == "keep"


def test_a_manifest_without_engine_version_proves_nothing(cfg_file: Path, tmp_path: Path) -> None:
    """Any file called _unosim.json is not proof: it must be a unosim manifest."""
    d = tmp_path / "lookalike"
    d.mkdir()
    (d / MANIFEST).write_text(json.dumps({"hello": 1}))
    (d / "part-000000.parquet").write_bytes(b"not ours")
    refused(invoke("run", cfg_file, "--hands", 10, "--out", d, "--force", "--quiet"), "not a unosim result")
    assert (d / "part-000000.parquet").read_bytes() == b"not ours"
    (d / MANIFEST).write_text("")  # empty, as a full disk leaves it
    refused(invoke("run", cfg_file, "--hands", 10, "--out", d, "--force", "--quiet"), "not a unosim result")
    assert (d / "part-000000.parquet").exists()


def test_force_replaces_a_result_and_keeps_a_users_file_inside(cfg_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "res"
    assert invoke("run", cfg_file, "--hands", 30, "--chunk-size", 10, "--out", out, "--quiet").exit_code == 0
    (out / "README.txt").write_text("my notes on this run")
    (out / "part-000009.parquet.keep").write_text("not a part name")
    r = invoke("run", cfg_file, "--hands", 20, "--seed", 5, "--chunk-size", 10, "--out", out, "--quiet", "--force")
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
    assert invoke("run", cfg_file, "--hands", 20, "--chunk-size", 10, "--out", real, "--quiet").exit_code == 0
    link.symlink_to(real, target_is_directory=True)
    r = invoke("run", cfg_file, "--hands", 20, "--seed", 3, "--chunk-size", 10, "--out", link, "--quiet", "--force")
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and json.loads((real / MANIFEST).read_text())["seed"] == 3
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    refused(invoke("run", cfg_file, "--hands", 10, "--out", dangling, "--force", "--quiet"), "--out")
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
    assert invoke("run", cfg_file, "--hands", 10, "--out", victim, "--quiet").exit_code == 0
    before = user_files(victim)
    out = tmp_path / "sw"
    assert invoke("sweep", tmp_path / "tiny.toml", "--out", out, "--quiet").exit_code == 0
    mf = out / "_unosim_sweep.json"
    m = json.loads(mf.read_text())
    m["points"]["../victim"] = {"label": "evil"}
    mf.write_text(json.dumps(m))
    assert invoke("sweep", tmp_path / "tiny.toml", "--out", out, "--quiet", "--force").exit_code == 0
    assert user_files(victim) == before


# --------------------------------------------------------------------------- one writer at a time
@pytest.mark.slow
def test_a_second_writer_is_refused_while_a_run_writes(tmp_path: Path) -> None:
    """Item 2: a run into a folder another run is writing (even with --force) is one line."""
    import subprocess
    import sys
    import time

    out = tmp_path / "busy"
    cmd = [sys.executable, "-m", "unosim.cli", "run", "standard", "--hands", "2000000", "--chunk-size", "1000",
           "--out", str(out), "--quiet", "--workers", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0 = time.monotonic()
        while not (out / MANIFEST).exists():
            assert proc.poll() is None and time.monotonic() - t0 < 600
            time.sleep(0.01)
        refused(invoke("run", "standard", "--hands", 100, "--out", out, "--quiet", "--force"),
                "being written by another unosim command")
    finally:
        proc.kill()
        proc.wait()
    # the holder is gone (killed): its lock went with it, and the same command resumes
    r = invoke("run", "standard", "--hands", 2000, "--chunk-size", 1000, "--out", out, "--quiet", "--force")
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------- damaged parts
def _rows(path: Path) -> "object":
    import pandas as pd

    return pd.read_parquet(path).sort_values("hand").reset_index(drop=True)


@pytest.mark.parametrize("damage", ["truncated", "zero_bytes", "other_seed", "stray_chunk"])
def test_a_damaged_part_is_replayed_on_resume(tmp_path: Path, damage: str) -> None:
    """Item 3: on resume every part is checked (footer only); what fails is removed, said,
    and played again, so the rows end exactly as an uninterrupted run's."""
    import pandas as pd

    args = ["run", "standard", "--hands", 500, "--chunk-size", 100, "--seed", 4, "--quiet"]
    ref, out = tmp_path / "ref", tmp_path / "out"
    assert invoke(*args, "--out", ref).exit_code == 0
    assert invoke(*args, "--out", out).exit_code == 0
    part = out / "part-000002.parquet"
    if damage == "truncated":
        part.write_bytes(part.read_bytes()[:300])
    elif damage == "zero_bytes":
        part.write_bytes(b"")
    elif damage == "other_seed":
        other = tmp_path / "other"
        assert invoke("run", "standard", "--hands", 500, "--chunk-size", 100, "--seed", 5, "--quiet",
                      "--out", other).exit_code == 0
        part.write_bytes((other / "part-000002.parquet").read_bytes())
    else:  # chunk 4 lost, a copy of chunk 1 under the name of a chunk this run never has
        (out / "part-000004.parquet").unlink()
        (out / "part-000099.parquet").write_bytes((out / "part-000001.parquet").read_bytes())
    r = invoke(*args, "--out", out)
    assert r.exit_code == 0, r.output
    assert "checked: part-0000" in r.output and "moved to _rejected/part-0000" in r.output
    if damage != "stray_chunk":
        assert "its chunk is played again" in r.output
    assert (out / "_rejected" / (("part-000099" if damage == "stray_chunk" else "part-000002") + ".parquet.rejected")).exists()
    pd.testing.assert_frame_equal(_rows(out), _rows(ref))


def test_a_complete_run_is_complete(tmp_path: Path) -> None:
    """Item 9: a run killed after its last part answers the same command with exit 0."""
    out = tmp_path / "done"
    args = ["run", "standard", "--hands", 300, "--chunk-size", 100, "--out", out, "--quiet"]
    assert invoke(*args).exit_code == 0
    r = invoke(*args)
    assert r.exit_code == 0 and "already complete" in r.output


# --------------------------------------------------------------------------- the manifest
@pytest.mark.parametrize("manifest", ["", "{not json", None])
def test_a_damaged_manifest_is_named_and_rebuilt(tmp_path: Path, manifest: str | None) -> None:
    """Item 4: an empty (full disk), garbage or missing manifest is one line offering the
    rebuild; --resume (or unosim repair) rebuilds it and keeps every verified part."""
    import pandas as pd

    args = ["run", "standard", "--hands", 400, "--chunk-size", 100, "--seed", 2, "--quiet"]
    ref, out = tmp_path / "ref", tmp_path / "out"
    assert invoke(*args, "--out", ref).exit_code == 0
    assert invoke(*args, "--out", out).exit_code == 0
    (out / "part-000003.parquet").unlink()
    if manifest is None:
        (out / MANIFEST).unlink()
    else:
        (out / MANIFEST).write_text(manifest)
    refused(invoke(*args, "--out", out), "_unosim.json", "--resume", "unosim repair")
    r = invoke(*args, "--out", out, "--resume")
    assert r.exit_code == 0 and "rebuilt" in r.output, r.output
    assert json.loads((out / MANIFEST).read_text())["games"] == 400
    pd.testing.assert_frame_equal(_rows(out), _rows(ref))


def test_unosim_repair_rebuilds_from_the_parts_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["run", "standard", "--matches", 40, "--chunk-size", 10, "--seed", 3, "--quiet", "--out", out]
    assert invoke(*args).exit_code == 0
    want = (out / MANIFEST).read_text()
    (out / MANIFEST).write_text("")
    (out / "part-000001.parquet").write_bytes(b"PAR1")
    r = invoke("repair", out)
    assert r.exit_code == 0 and "manifest rebuilt; 3 of 4 chunks verified" in r.output, r.output
    assert "part-000001.parquet: 4 bytes where its record says" in r.output and "--matches 40" in r.output
    assert "moved to _rejected/part-000001.parquet" in r.output  # set aside, never deleted
    assert (out / "_rejected" / "part-000001.parquet.rejected").read_bytes() == b"PAR1"
    assert (out / MANIFEST).read_text() == want
    assert invoke(*args).exit_code == 0 and len(list(out.glob("part-*.parquet"))) == 4
    refused(invoke("repair", tmp_path / "nothing"), "not a folder")


# --------------------------------------------------------------------------- values and names
@pytest.mark.parametrize("args, needle", [
    (("--hands", 10**19), "--hands: must be between 1 and 1,000,000,000,000"),
    (("--hands", 10, "--chunk-size", 10**9), "--chunk-size: must be between 1 and 5,000,000 hands"),
    (("--matches", 10, "--chunk-size", 10**7), "--chunk-size: must be between 1 and 200,000 matches"),
    (("--hands", 10, "--out", ""), "--out: must not be empty"),
    (("--hands", 10, "--scheduler", ""), "--scheduler: must not be empty"),
    (("--hands", 10, "--out", "x" * 300), "File name too long"),
    (("--hands", 10**12, "--chunk-size", 1), "--chunk-size: 1,000,000,000,000 hands in chunks of 1 make "
                                             "1,000,000,000,000 part files; at most 1,000,000"),
    # no --chunk-size given: the count is what is too large, never the default chunk
    (("--matches", 300_000_000_000), "--matches: at most 200,000,000,000 matches fit one result"),
    (("--tournaments", 10**12), "--tournaments: at most "),
])
def test_absurd_values_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple, needle: str) -> None:
    """Item 5 and 7: bounds that fit memory, no silent default, no traceback."""
    monkeypatch.chdir(tmp_path)
    refused(invoke("run", "standard", *args, "--quiet"), needle)
    assert not (tmp_path / "runs").exists()  # nothing half-made


def test_an_option_that_would_be_ignored_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No silent default: an option that would change nothing, or a value given twice, is
    one line naming it; a duel with a config plays the config's table size."""
    monkeypatch.chdir(tmp_path)
    refused(invoke("run", "standard", "--hands", 10, "--max-hands", 5), "--max-hands", "with --matches")
    refused(invoke("run", "standard", "--hands", 10, "--resume", "--force"), "--resume and --force")
    (tmp_path / "sw.toml").write_text(SWEEP.replace('"small.toml"', '"standard"'))
    refused(invoke("sweep", tmp_path / "sw.toml", "--resume", "--force"), "--resume and --force")
    refused(invoke("duel", "counter:suspicion=0.5,suspicion=0.7", "random", "--hands", 5), "suspicion given twice")
    refused(invoke("plot", "nowhere", "--out", ""), "--out: must not be empty")
    assert not (tmp_path / "runs").exists()
    assert invoke("run", "standard", "--hands", 20, "--out", "r", "--quiet").exit_code == 0
    refused(invoke("report", "r", "--skill", "nosuch"), "--skill", "sweep")
    refused(invoke("report", "r", "--format", "json", "--html", "p.html"), "--format", "--html")
    assert not (tmp_path / "p.html").exists()
    (tmp_path / "p3.toml").write_text("[table]\nplayers = 3\n")
    res = invoke("duel", "greedy", "random", "--config", "p3.toml", "--hands", 5)
    assert res.exit_code == 0 and res.output.startswith("3 players, 5 deals"), res.output


def test_a_config_name_never_escapes_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: a name is a label; the default output is built from it under runs/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evil.toml").write_text('name = "../../escape"\n')
    refused(invoke("run", tmp_path / "evil.toml", "--hands", 10, "--quiet"), "name: expected 1-64 letters")
    (tmp_path / "odd (v2).toml").write_text("[table]\nplayers = 3\n")  # unnamed: the stem, made safe
    assert invoke("run", tmp_path / "odd (v2).toml", "--hands", 10, "--quiet").exit_code == 0
    assert (tmp_path / "runs" / "odd_(v2).parquet" / MANIFEST).exists()  # a space becomes _


def test_a_full_disk_is_one_line_and_resume_is_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 7: writing a part fails (ENOSPC): one line naming the file; the parts written
    stay whole and the same command finishes the run exactly."""
    import errno

    import pandas as pd

    from unosim.run.store import ResultDir

    real = ResultDir.write_chunk

    def fill_up(self: ResultDir, index: int, table: object, *chunk: int) -> object:
        if index == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(self.path / "part-000002.parquet"))
        return real(self, index, table, *chunk)

    args = ["run", "standard", "--hands", 400, "--chunk-size", 100, "--seed", 8, "--quiet"]
    assert invoke(*args, "--out", tmp_path / "ref").exit_code == 0
    monkeypatch.setattr(ResultDir, "write_chunk", fill_up)
    refused(invoke(*args, "--out", tmp_path / "out"), "part-000002.parquet: No space left on device",
            "the same command resumes")
    monkeypatch.setattr(ResultDir, "write_chunk", real)
    assert invoke(*args, "--out", tmp_path / "out").exit_code == 0
    pd.testing.assert_frame_equal(_rows(tmp_path / "out"), _rows(tmp_path / "ref"))


def test_a_device_as_config_is_refused_without_reading_it() -> None:
    """Item 7: `unosim run /dev/zero` hung reading forever."""
    refused(invoke("run", "/dev/zero", "--hands", 10, "--quiet"), "/dev/zero", "not a regular file")


@pytest.mark.parametrize("command, what", [("sweep", "sweep"), ("screen", "space"), ("duel", "bot")])
def test_a_fifo_or_device_as_sweep_space_or_bot_is_refused_without_reading_it(tmp_path: Path, command: str,
                                                                              what: str) -> None:
    """A sweep, a space or a bot file that is a FIFO or a device hung, as a config once did."""
    import threading

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    tails = {"sweep": ["--out", tmp_path / "o"], "screen": ["--out", tmp_path / "o"], "duel": ["random"]}
    for path in (fifo, Path("/dev/zero")) if command != "duel" else (fifo,):  # a bot is a .toml or a file
        box: list = []
        t = threading.Thread(target=lambda: box.append(invoke(command, path, *tails[command])), daemon=True)
        t.start()
        t.join(60)
        assert box, f"unosim {command} blocked reading {path}"
        refused(box[0], str(path), f"not a {what} file (not a regular file)")


def test_a_run_longer_than_a_million_default_chunks_grows_its_chunks() -> None:
    """Part names hold six digits: a run that would need more than a million parts of the
    default size gets larger ones (and still fits a part in memory)."""
    from unosim.rules.config import default_config
    from unosim.run.bounds import MAX_PARTS
    from unosim.run.jobs import make_job

    job = make_job(default_config(), "hands", 10**12, 0)
    assert len(job.chunks()) <= MAX_PARTS and job.chunk_size == 10**6
    assert make_job(default_config(), "hands", 10**6, 0).chunk_size == 200_000


def test_files_and_names_users_really_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A config saved with a byte-order mark (Windows editors) reads as the same config; an
    empty CONFIG and an empty seat list say what they are."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf" + SMALL.encode())
    res = invoke("run", "bom.toml", "--hands", 10, "--out", "b", "--quiet")
    assert res.exit_code == 0 and res.output.startswith("small: 10 hands of 3 players"), res.output
    (tmp_path / "small.toml").write_text(SMALL)
    (tmp_path / "sw.toml").write_bytes(b"\xef\xbb\xbf" + SWEEP.encode())
    assert invoke("sweep", "sw.toml", "--out", "s", "--quiet").exit_code == 0
    refused(invoke("run", ""), "CONFIG: empty", "unosim configs")
    (tmp_path / "none.toml").write_text("[bots]\nseats = []\n")
    refused(invoke("run", "none.toml", "--hands", 10), "bots.seats", "got an empty array")


def test_a_link_to_nothing_as_out_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdir calls a link to nothing 'File exists'; the run and the sweep say what it is."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.toml").write_text(SMALL)
    (tmp_path / "sw.toml").write_text(SWEEP)
    (tmp_path / "dang").symlink_to(tmp_path / "nothere" / "deep")
    refused(invoke("run", "small.toml", "--hands", 10, "--out", "dang"), "dang is a link to", "which does not exist")
    refused(invoke("sweep", "sw.toml", "--out", "dang"), "dang is a link to", "which does not exist")
    assert not (tmp_path / "nothere").exists()


def test_names_that_would_be_paths_or_labels_with_a_stray_colon(tmp_path: Path) -> None:
    """A sweep's name is its default folder (runs/<name>): one with '/' is refused as a
    config's name is; a bot spec ending in ':' is a typo, not a label."""
    (tmp_path / "sw.toml").write_text('name = "x/y"\nbase = "standard"\nhands = 10\n'
                                      '[axes]\n"rules.stacking" = ["draw2"]\n')
    line = refused(invoke("sweep", tmp_path / "sw.toml", "--out", tmp_path / "o"), "name: expected", "'x/y'")
    assert "skip_invalid" not in line and not (tmp_path / "o").exists()
    refused(invoke("duel", "counter:", "random", "--hands", 5), "A:", "nothing after ':'")


def test_the_default_chunk_is_never_blamed_and_a_config_is_never_empty(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (("--matches", 300_000_000_000), ("--tournaments", 10**12)):
        assert "--chunk-size" not in invoke("run", "standard", *args, "--quiet").output
    refused(invoke("duel", "counter", "random", "--hands", 5, "--config", ""), "--config: empty", alone=True)
    refused(invoke("duel", "counter", "random", "--hands", 5, "--config", " "), "--config: empty")


@pytest.mark.slow
def test_out_of_memory_is_one_line(tmp_path: Path) -> None:
    """Under a 4 GB address-space limit, a run whose chunk does not fit ends in one line."""
    import subprocess
    import sys

    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)); "
            "from unosim.cli import main; sys.argv = ['unosim'] + sys.argv[1:]; main()")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    p = subprocess.run([sys.executable, "-c", code, "run", "standard", "--rotate-seats", "--hands", str(10**12),
                        "--out", str(tmp_path / "r"), "--quiet"], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    errors = [ln for ln in p.stderr.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and errors[0].startswith("Error: out of memory"), p.stderr


def test_metadata_and_columns_that_disagree_are_refused(tmp_path: Path) -> None:
    """A result whose metadata says 7 players but whose columns hold 4 seats: one line,
    never seats 4-6 reported at 0.00%."""
    import pyarrow.parquet as pq

    assert invoke("run", "standard", "--hands", 50, "--out", tmp_path / "r", "--quiet").exit_code == 0
    t = pq.read_table(tmp_path / "r" / "part-000000.parquet")
    meta = {**t.schema.metadata, b"unosim.players": b"7"}
    pq.write_table(t.replace_schema_metadata(meta), tmp_path / "seven.parquet")
    refused(invoke("report", tmp_path / "seven.parquet"), "metadata says 7 players but its columns are for 4")


@pytest.mark.slow
def test_html_never_replaces_an_edited_page_nor_blocks_on_a_fifo(tmp_path: Path) -> None:
    """An earlier page is replaced only as this command wrote it: edited, it is the user's;
    a FIFO (or any file that is not a regular file) is refused at once, never opened."""
    import threading

    assert invoke("run", "standard", "--hands", 50, "--out", tmp_path / "r", "--quiet").exit_code == 0
    page = tmp_path / "page.html"
    assert invoke("report", tmp_path / "r", "--html", page).exit_code == 0
    assert invoke("report", tmp_path / "r", "--html", page).exit_code == 0  # its own page, unchanged: replaced
    page.write_text(page.read_text().replace("</body>", "<p>my notes</p></body>"))
    refused(invoke("report", tmp_path / "r", "--html", page), "not a page `unosim report --html` wrote, or was changed")
    assert "my notes" in page.read_text()
    fifo = tmp_path / "fifo.html"
    os.mkfifo(fifo)
    box: list = []
    t = threading.Thread(target=lambda: box.append(invoke("report", tmp_path / "r", "--html", fifo)), daemon=True)
    t.start()
    t.join(60)
    assert box, "report --html blocked on a FIFO"
    refused(box[0], "is not a regular file")
