"""The output guard: no command deletes or overwrites a file it did not write.

One situation per test, each the exact case a hostile user tried: a user's file inside a
result folder, a stray manifest before ``--force``, ``tune``/``skill``/``plot``/``league``
into a folder that is not theirs (also through a symlink and with ``--out .``), two
writers at once, ``league --force`` to a smaller league, a symlinked table folder, a full
disk under ``tune``.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from cli_checks import invoke, one_error as refused
from unosim.run.integrity import hold_lock
from unosim.run.store import MANIFEST

SWEEP = ('name = "sw"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 60\nseed = 0\nchunk_size = 30\n'
         '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2]\n')




def run_args(out: Path) -> list[object]:
    return ["run", "standard", "--hands", 300, "--chunk-size", 100, "--seed", 2, "--quiet", "--out", out]


def test_a_users_files_in_a_result_are_set_aside_never_deleted(tmp_path: Path) -> None:
    """A user's part-000007.parquet (a chunk the run does not have) and .write-test survive a
    resume: the part is moved to _rejected/ with a line, the probe name is never theirs."""
    out = tmp_path / "r"
    assert invoke(*run_args(out)).exit_code == 0
    (out / "part-000007.parquet").write_bytes((out / "part-000000.parquet").read_bytes())
    (out / ".write-test").write_text("mine")
    (out / "extra.parquet").write_bytes(b"mine too")
    r = invoke(*run_args(out))
    assert r.exit_code == 0, r.output
    assert "part-000007.parquet: not a chunk of this run; moved to _rejected/part-000007.parquet.rejected" in r.output
    assert "extra.parquet: not a part name of this run; moved to _rejected/extra.parquet.rejected" in r.output
    assert (out / ".write-test").read_text() == "mine"
    assert (out / "_rejected" / "extra.parquet.rejected").read_bytes() == b"mine too"
    assert "part-000007.parquet" in (out / "_rejected" / "why.txt").read_text()
    assert not [f for f in out.iterdir() if f.name.startswith(".unosim-probe")]


def test_force_deletes_only_parts_its_journal_lists(tmp_path: Path) -> None:
    """--force on a folder with a stray _unosim.json (no journal) beside a user's
    part-000000.parquet: the user's file is set aside, not deleted."""
    real = tmp_path / "real"
    assert invoke(*run_args(real)).exit_code == 0
    out = tmp_path / "user"
    out.mkdir()
    (out / MANIFEST).write_text((real / MANIFEST).read_text())  # a copied manifest
    mine = (real / "part-000000.parquet").read_bytes()
    (out / "part-000000.parquet").write_bytes(mine)
    r = invoke(*run_args(out)[:-2], "--seed", 3, "--out", out, "--force")
    assert r.exit_code == 0, r.output
    assert (out / "_rejected" / "part-000000.parquet.rejected").read_bytes() == mine
    # a real result's own parts are deleted by --force (its journal lists them)
    r = invoke(*run_args(real)[:-2], "--seed", 3, "--out", real, "--force")
    assert r.exit_code == 0 and not (real / "_rejected").exists(), r.output


def test_tune_never_overwrites_what_it_did_not_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An existing bot.toml (directly, through a symlink, with --out .), a run result, a
    locked folder: each refused before any tuning, in one line."""
    tune = ("tune", "standard", "--players", 2, "--budget", 12, "--deals", 20, "--check-deals", 20, "--quiet")
    d = tmp_path / "d"
    d.mkdir()
    (d / "bot.toml").write_text("hours of work")
    refused(invoke(*tune, "--out", d), "bot.toml exists and was not written by `unosim tune`")
    refused(invoke(*tune, "--out", d, "--force"), "bot.toml exists and was not written by `unosim tune`")
    (tmp_path / "link").symlink_to(d)
    refused(invoke(*tune, "--out", tmp_path / "link"), str(d / "bot.toml"))
    monkeypatch.chdir(d)
    refused(invoke(*tune, "--out", "."), "bot.toml exists")
    assert (d / "bot.toml").read_text() == "hours of work"
    run = tmp_path / "run"
    assert invoke(*run_args(run)).exit_code == 0
    refused(invoke(*tune, "--out", run), "holds the output of `unosim run`")
    with hold_lock(tmp_path / "busy"):
        refused(invoke(*tune, "--out", tmp_path / "busy"), "being written by another unosim command")


@pytest.mark.slow
def test_tune_on_a_full_disk_keeps_the_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk while bot.toml is written: one line, and the bot on stdout (not lost);
    the same command then resumes into its own folder, a changed one needs --force."""
    from unosim.run import guard

    tune = ["tune", "standard", "--players", 2, "--budget", 12, "--deals", 20, "--check-deals", 20, "--quiet",
            "--out", tmp_path / "t"]
    real = guard.Output.write

    def full(self: guard.Output, name: str, fn: object) -> Path:
        if name == "bot.toml":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, name, fn)

    monkeypatch.setattr(guard.Output, "write", full)
    r = invoke(*tune)
    refused(r, "bot.toml: No space left on device", "printed above")
    assert 'strategy = "weights"' in r.output
    monkeypatch.setattr(guard.Output, "write", real)
    assert invoke(*tune).exit_code == 0
    refused(invoke(*tune[:-2], "--seed", 5, "--out", tmp_path / "t"), "other settings", "--force")
    ok = invoke(*tune[:-2], "--seed", 5, "--out", tmp_path / "t", "--force")
    assert ok.exit_code == 0, ok.output
    listed = json.loads((tmp_path / "t" / "_unosim_output.json").read_text())
    assert listed["kind"] == "tune" and "bot.toml" in listed["files"] and listed["identity"]["seed"] == 5


@pytest.mark.slow
def test_plot_never_overwrites_a_users_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    assert invoke(*run_args(run)).exit_code == 0
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "win_share.png").write_bytes(b"my figure")
    monkeypatch.chdir(mine)
    refused(invoke("plot", run, "--out", "."), "win_share.png exists and was not written by `unosim plot`")
    refused(invoke("plot", run, "--out", ".", "--force"), "win_share.png exists")
    assert (mine / "win_share.png").read_bytes() == b"my figure"
    refused(invoke("plot", run, "--out", run), "holds the output of `unosim run`")
    ok = invoke("plot", run, "--out", tmp_path / "p")
    assert ok.exit_code == 0 and (tmp_path / "p" / "win_share.png").exists(), ok.output
    assert invoke("plot", run, "--out", tmp_path / "p").exit_code == 0  # its own figures: replaced


def test_plot_judges_its_files_by_content(tmp_path: Path) -> None:
    """A plot that fails claims nothing (a user's figure saved there later is theirs, also
    under --force), and a figure plot wrote that a user then changed is theirs too: set
    aside in _rejected/ with a line, never deleted nor overwritten."""
    run = tmp_path / "run"
    assert invoke(*run_args(run)).exit_code == 0
    figs = tmp_path / "figs"
    refused(invoke("plot", tmp_path / "typo", "--out", figs))
    (tmp_path / "typo").mkdir()
    refused(invoke("plot", tmp_path / "typo", "--out", figs), "no .parquet files")
    manifest = json.loads((figs / "_unosim_output.json").read_text())
    assert manifest["files"] == [] and manifest["sha256"] == {}
    (figs / "turns.png").write_bytes(b"my figure")
    refused(invoke("plot", run, "--out", figs, "--force"), "turns.png exists and was not written by `unosim plot`")
    assert (figs / "turns.png").read_bytes() == b"my figure"
    (figs / "turns.png").unlink()
    assert invoke("plot", run, "--out", figs).exit_code == 0  # the failed plot left nothing to replace
    manifest = json.loads((figs / "_unosim_output.json").read_text())
    assert "win_share.png" in manifest["files"] and set(manifest["sha256"]) == set(manifest["files"])
    (figs / "win_share.png").write_bytes(b"my edited figure")
    other = tmp_path / "run2"
    assert invoke(*run_args(other)).exit_code == 0
    res = invoke("plot", other, "--out", figs, "--force")  # its own, unchanged, replaced; the changed one kept
    assert res.exit_code == 0, res.output
    assert "Warning: win_share.png: changed since `unosim plot` wrote it" in res.stderr
    assert (figs / "_rejected" / "win_share.png").read_bytes() == b"my edited figure"
    assert "win_share.png" in (figs / "_rejected" / "why.txt").read_text()
    assert (figs / "win_share.png").read_bytes()[:4] == b"\x89PNG"


def test_skill_refuses_a_run_result_and_a_second_writer(tmp_path: Path) -> None:
    sweep = tmp_path / "sw.toml"
    sweep.write_text(SWEEP)
    run = tmp_path / "run"
    assert invoke(*run_args(run)).exit_code == 0
    skill = ("skill", sweep, "--budget", 12, "--deals", 20, "--check-deals", 20, "--quiet")
    refused(invoke(*skill, "--out", run), "holds the output of `unosim run`")
    with hold_lock(tmp_path / "busy"):
        refused(invoke(*skill, "--out", tmp_path / "busy"), "being written by another unosim command")


def test_no_output_inside_another_commands_output(tmp_path: Path) -> None:
    """A run into a point of a sweep (also with --force, also while the sweep is not
    writing), a run or a plot inside a run result, a sweep inside a sweep: refused, the
    sweep's point untouched (a reader of the outer folder would read the inner one)."""
    sweep = tmp_path / "sw.toml"
    sweep.write_text(SWEEP)
    data = tmp_path / "data"
    assert invoke("sweep", sweep, "--out", data, "--quiet").exit_code == 0
    point = next(p.parent for p in data.rglob(MANIFEST))
    before = {f: f.read_bytes() for f in point.iterdir()}
    refused(invoke(*run_args(point), "--force"), f"lies inside {data.resolve()}", "`unosim sweep`")
    assert {f: f.read_bytes() for f in point.iterdir()} == before
    refused(invoke("sweep", sweep, "--out", data / "inner", "--quiet"), "lies inside", "`unosim sweep`")
    run = tmp_path / "r"
    assert invoke(*run_args(run)).exit_code == 0
    refused(invoke(*run_args(run / "sub")), f"lies inside {run.resolve()}", "`unosim run`")
    refused(invoke("plot", run, "--out", run / "figs"), "lies inside", "`unosim run`")
    assert not (run / "sub").exists() and not (run / "figs").exists()
    figs = tmp_path / "figs"
    assert invoke("plot", run, "--out", figs).exit_code == 0
    assert invoke(*run_args(figs / "r2")).exit_code == 0  # a folder of figures has no folders to disturb


def test_league_guards(tmp_path: Path) -> None:
    """Two leagues at once; --force to a smaller league leaves no old table; a table folder that
    is a symlink to another result is refused, and that result is untouched."""
    lg = tmp_path / "lg"
    big = ("league", "standard", "--bots", "counter,greedy,random", "--players", 2, "--deals", 30, "--quiet",
           "--out", lg)
    assert invoke(*big).exit_code == 0
    assert len(list(lg.glob("table-*"))) == 3
    with hold_lock(lg):
        refused(invoke(*big), "being written by another unosim command")
    small = ("league", "standard", "--bots", "counter,greedy", "--players", 2, "--deals", 30, "--quiet", "--out", lg)
    refused(invoke(*small), "holds a different league", "--force")
    r = invoke(*small, "--force")
    assert r.exit_code == 0, r.output
    assert [p.name for p in lg.glob("table-*")] == ["table-0000-order-0000"]
    rows = pd.read_parquet(lg / "table-0000-order-0000")
    assert len(rows) == 60  # 30 deals x 2 rotations: nothing of the old league mixed in
    # a symlinked table folder leading to another result
    other = tmp_path / "other"
    assert invoke(*run_args(other)).exit_code == 0
    before = {f.name: f.read_bytes() for f in other.iterdir() if f.is_file()}
    lg2 = tmp_path / "lg2"
    lg2.mkdir()
    (lg2 / "table-0000-order-0000").symlink_to(other)
    refused(invoke(*small[:-2], "--out", lg2, "--force"), "is a symlink")
    assert {f.name: f.read_bytes() for f in other.iterdir() if f.is_file()} == before
    refused(invoke(*small[:-2], "--out", other), "holds the output of `unosim run`")


def test_a_symlinked_out_is_judged_as_its_target(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert invoke(*run_args(run)).exit_code == 0
    (tmp_path / "alias").symlink_to(run)
    with hold_lock(run):
        refused(invoke(*run_args(tmp_path / "alias")), "being written by another unosim command")
    sweep = tmp_path / "sw.toml"
    sweep.write_text(SWEEP)
    refused(invoke("sweep", sweep, "--out", tmp_path / "alias", "--quiet"), "holds the output of `unosim run`")
    assert os.path.islink(tmp_path / "alias")


def test_skill_on_a_full_disk_is_one_line_and_keeps_its_points(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The table is rewritten after every point: a full disk on the second point's write
    is one line, the first point is kept, and the same command finishes the rest."""
    from unosim.studies import skill_index as index

    sweep = tmp_path / "sw.toml"
    sweep.write_text(SWEEP)
    args = ("skill", sweep, "--bot", "greedy", "--check-deals", 20, "--quiet", "--out", tmp_path / "k")
    real = index._write_table
    calls = []

    def full(path: Path, points: list) -> None:
        calls.append(len(points))
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, points)

    monkeypatch.setattr(index, "_write_table", full)
    refused(invoke(*args), "No space left on device", "keeps every point finished so far")
    assert len(pd.read_parquet(tmp_path / "k" / "skill.parquet")) == 1
    monkeypatch.setattr(index, "_write_table", real)
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    assert len(pd.read_parquet(tmp_path / "k" / "skill.parquet")) == 2


def _drop_digest(folder: Path, name: str) -> None:
    """The manifest as a command killed (-9) while writing ``name`` leaves it: listed, no digest."""
    m = json.loads((folder / "_unosim_output.json").read_text())
    m["sha256"].pop(name)
    (folder / "_unosim_output.json").write_text(json.dumps(m))


@pytest.mark.slow
def test_an_unrecorded_file_is_never_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name a killed command left without its digest, where a user then saved a file: the
    same command (and --force) sets the user's file aside in _rejected/, never over it; and a
    file is recorded before it takes its name, so a kill between the two leaves nothing
    trusted that the command did not write."""
    from unosim.run import guard

    run = tmp_path / "run"
    assert invoke(*run_args(run)).exit_code == 0
    figs = tmp_path / "figs"
    assert invoke("plot", run, "--out", figs).exit_code == 0
    for force in ((), ("--force",)):
        _drop_digest(figs, "win_share.png")
        (figs / "win_share.png").write_bytes(b"my figure")
        r = invoke("plot", run, "--out", figs, *force)
        assert r.exit_code == 0, r.output
        assert "win_share.png: not recorded by `unosim plot`" in r.stderr
        assert (figs / "_rejected" / ("win_share.png" if not force else "win_share.png.1")).read_bytes() == b"my figure"
        assert (figs / "win_share.png").read_bytes()[:4] == b"\x89PNG"
    tune = ("tune", "standard", "--players", 2, "--budget", 12, "--deals", 20, "--check-deals", 20, "--quiet")
    t = tmp_path / "t"
    assert invoke(*tune, "--out", t).exit_code == 0
    _drop_digest(t, "bot.toml")
    (t / "bot.toml").write_text("my bot")
    r = invoke(*tune, "--out", t, "--force")
    assert r.exit_code == 0, r.output
    assert (t / "_rejected" / "bot.toml").read_text() == "my bot"
    # killed between the record and the rename: the name holds the digest of a file it never got
    with guard.guard_output(tmp_path / "g", "plot", {}) as g:
        real = os.replace

        def killed(src: object, dst: object) -> None:
            if Path(str(dst)).name == "a.png":
                raise OSError("killed before the rename")
            real(src, dst)

        monkeypatch.setattr(guard.os, "replace", killed)
        with pytest.raises(OSError):
            g.write("a.png", lambda p: p.write_bytes(b"ours"))
        monkeypatch.undo()
        (tmp_path / "g" / "a.png").write_bytes(b"a user's")
    with guard.guard_output(tmp_path / "g", "plot", {}, names=("a.png",)) as g:
        assert g.notes and "changed since" in g.notes[0]
    assert (tmp_path / "g" / "_rejected" / "a.png").read_bytes() == b"a user's"


@pytest.mark.slow
def test_tune_replicates_runs_again_and_refuses_before_tuning(tmp_path: Path) -> None:
    """`tune --replicates 2` into its own folder again (and with --force, other settings);
    into a folder holding a user's bot.toml it refuses before any replicate is tuned."""
    tune = ("tune", "standard", "--players", 2, "--budget", 12, "--deals", 20, "--check-deals", 20, "--quiet",
            "--replicates", 2)
    t = tmp_path / "t"
    for extra in ((), (), ("--seed", 7, "--force")):
        r = invoke(*tune, *extra, "--out", t)
        assert r.exit_code == 0, r.output
        assert (t / "bot.toml").exists() and (t / "replicate=1" / "bot.toml").exists()
    assert json.loads((t / "replicates.json").read_text())["seeds"] == [7, 8]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "bot.toml").write_text("my bot")
    for force in ((), ("--force",)):
        refused(invoke(*tune, "--out", mine, *force), "bot.toml exists and was not written by `unosim tune`")
    assert [f.name for f in mine.iterdir()] == ["bot.toml"]  # refused before anything was tuned or written
    assert (mine / "bot.toml").read_text() == "my bot"


@pytest.mark.slow
def test_league_never_overwrites_a_users_leaderboard(tmp_path: Path) -> None:
    """A _leaderboard.csv a user saved (or edited) in the league's folder is set aside in
    _rejected/ by a rerun or --force, never overwritten; the league's own is replaced."""
    lg = tmp_path / "lg"
    args = ("league", "standard", "--bots", "counter,random", "--players", 2, "--deals", 20, "--quiet", "--out", lg)
    assert invoke(*args).exit_code == 0
    ours = (lg / "_leaderboard.csv").read_text()
    assert invoke(*args).exit_code == 0  # its own leaderboard: replaced, nothing set aside
    assert not (lg / "_rejected").exists() and (lg / "_leaderboard.csv").read_text() == ours
    (lg / "_leaderboard.csv").write_text("my leaderboard")
    r = invoke(*args)
    assert r.exit_code == 0 and "_leaderboard.csv: not the file this league wrote" in r.stderr, r.output
    assert (lg / "_rejected" / "_leaderboard.csv").read_text() == "my leaderboard"
    assert (lg / "_leaderboard.csv").read_text() == ours
    (lg / "_leaderboard.csv").write_text("edited")
    r = invoke(*args[:-2], "--seed", 4, "--out", lg, "--force")
    assert r.exit_code == 0, r.output
    assert (lg / "_rejected" / "_leaderboard.csv.1").read_text() == "edited"


@pytest.mark.slow
def test_skill_never_replaces_an_unrecorded_figure(tmp_path: Path) -> None:
    """A _skill.png a killed skill left unrecorded, replaced by a user's: the same command
    sets the user's aside and draws its own."""
    sweep = tmp_path / "sw.toml"
    sweep.write_text(SWEEP)
    k = tmp_path / "k"
    skill = ("skill", sweep, "--budget", 12, "--deals", 20, "--check-deals", 20, "--quiet", "--out", k)
    assert invoke(*skill).exit_code == 0
    _drop_digest(k, "_skill.png")
    (k / "_skill.png").write_bytes(b"my figure")
    r = invoke(*skill)
    assert r.exit_code == 0, r.output
    assert (k / "_rejected" / "_skill.png").read_bytes() == b"my figure"
    assert (k / "_skill.png").read_bytes()[:4] == b"\x89PNG"


def test_a_folder_that_cannot_be_made_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside a folder nobody may write (an immutable one, even for root), plot, tune and
    skill give the reason, as run and sweep do, not "No such file or directory"."""
    run = tmp_path / "r"
    assert invoke("run", "standard", "--hands", 50, "--out", run, "--quiet").exit_code == 0
    real = Path.mkdir

    def mkdir(self: Path, *a: object, **kw: object) -> None:
        if self.name == "sub":
            raise OSError(errno.EPERM, "Operation not permitted", str(self))
        real(self, *a, **kw)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    refused(invoke("plot", run, "--out", tmp_path / "imm" / "sub"), "--out: cannot create", "Operation not permitted")
