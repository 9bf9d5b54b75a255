"""`unosim skill --scheduler/--cluster`: a skill run on Dask writes the very files of the local
run (same seed, same rows, the same bot files), as each task finishes, so an interrupted Dask
run resumes on Dask or on this machine; the Dask options' bad values are one line.

Tiny sizes (the suite's budget): one generation of tuning, a handful of deals, a search of
2 worlds x 1 rollout; the cluster lives in this process (threads), as in test_cluster.py,
and is shared by the module's runs.
"""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pandas as pd
import pytest

from cli_checks import invoke, one_error

pytest.importorskip("distributed")

TUNE = ("--budget", "12", "--deals", "20", "--check-deals", "100", "--replicates", "2", "--quiet")
CEILING = ("--ceiling", "--ceiling-deals", "20", "--ceiling-bot", "search:worlds=2,rollouts=1")
TABLES = ("skill.parquet", "_skill_replicates.pq", "_skill_ceiling.pq")
TASKS = 2 * (2 + 2)  # per point: 2 replicates, the search at 2 tables (the tuned bot's counter row rides along)


def _sweep(where: Path) -> Path:
    sweep = where / "sw.toml"
    sweep.write_text('name = "sw"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 200\nseed = 0\n'
                     '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2]\n')
    return sweep


def _seeded(path: Path) -> pd.DataFrame:
    """A table without what is not seeded (the seconds) and with the folder's own path
    taken out of the bot column (the same file, under another --out; a row kept from a
    copied folder names the folder it was made in)."""
    frame = pd.read_parquet(path)
    frame = frame.drop(columns=[c for c in frame.columns if c.endswith("seconds")])
    return frame.assign(bot=frame["bot"].str.replace(r"^.*/_points/", "<out>/_points/", regex=True))


def _same_run(a: Path, b: Path) -> None:
    for name in TABLES:
        pd.testing.assert_frame_equal(_seeded(a / name), _seeded(b / name), obj=name)
    files = sorted(p.relative_to(a) for p in (a / "_points").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in (b / "_points").rglob("*") if p.is_file())
    assert len(files) == 2 * 2 * 2  # bot.toml and history.pq per point and replicate
    for f in files:
        if f.suffix == ".toml":
            assert (a / f).read_bytes() == (b / f).read_bytes(), f
        else:
            pd.testing.assert_frame_equal(pd.read_parquet(a / f), pd.read_parquet(b / f))


@pytest.fixture(scope="module")
def client():
    from unosim.run.cluster import connect

    with connect(local=True, processes=False, n_workers=1, threads_per_worker=2) as c:
        yield c


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, client) -> dict[str, object]:
    """The same small skill run with the ceiling: on this machine, and with --cluster local
    (the LocalCluster in this process: the same task code as on remote workers)."""
    import unosim.run.cluster as cl

    root = tmp_path_factory.mktemp("skilldask")
    sweep = _sweep(root)
    local = invoke("skill", sweep, "--out", root / "local", *TUNE, *CEILING, "--workers", "1")
    assert local.exit_code == 0, local.output
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cl, "connect", functools.partial(cl.connect, processes=False, threads_per_worker=2))
        dask = invoke("skill", sweep, "--out", root / "dask", *TUNE, *CEILING, "--cluster", "local")
    assert dask.exit_code == 0, dask.output
    return {"root": root, "sweep": sweep, "local": local, "dask": dask}


def test_a_local_cluster_run_writes_the_local_runs_files(runs) -> None:
    root = runs["root"]
    _same_run(root / "local", root / "dask")
    assert runs["dask"].output.splitlines()[-1].startswith(f"wrote {root / 'dask' / 'skill.parquet'}")
    # the same report, line for line, but for the measured seconds
    assert runs["dask"].output.splitlines()[:-1] == runs["local"].output.splitlines()[:-1]


def test_the_same_command_again_keeps_everything(runs) -> None:
    out = runs["root"] / "dask"
    before = {p: p.read_bytes() for p in (out / "_points").rglob("*") if p.is_file()}
    from unosim.run.sweep import load_sweep
    from unosim.studies.skill_index import Ceiling
    from unosim.rules.botfile import resolve_bot
    from unosim.studies.skill_tasks import skill_dask

    seen: list[str] = []
    skill_dask(None, load_sweep(runs["sweep"]), out, budget=12, deals=20, check_deals=100, replicates=2,
               ceiling=Ceiling(resolve_bot("search:worlds=2,rollouts=1"), 20),
               progress=lambda what, i, n: seen.append(what))
    assert seen == []  # no task at all: the client (None here) is never asked
    assert before == {p: p.read_bytes() for p in (out / "_points").rglob("*") if p.is_file()}
    _same_run(runs["root"] / "local", out)


def test_an_interrupted_dask_run_keeps_what_finished_and_resumes_anywhere(runs, client, tmp_path: Path) -> None:
    """Stopped after three tasks: what they did is on disk (a point is in skill.parquet once
    whole); the same run resumes on Dask (only the missing tasks) and on this machine, both
    to the uninterrupted run's files."""
    from unosim.rules.botfile import resolve_bot
    from unosim.run.sweep import load_sweep
    from unosim.studies.skill_index import Ceiling, skill_sweep
    from unosim.studies.skill_tasks import skill_dask

    sw = load_sweep(runs["sweep"])
    kw = dict(budget=12, deals=20, check_deals=100, replicates=2,
              ceiling=Ceiling(resolve_bot("search:worlds=2,rollouts=1"), 20))
    out = tmp_path / "stopped"
    seen: list[str] = []

    def stop_at_three(what: str, i: int, n: int) -> None:
        seen.append(what)
        assert n == TASKS
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        skill_dask(client, sw, out, progress=stop_at_three, **kw)
    ceiling = pd.read_parquet(out / "_skill_ceiling.pq")
    tuned = pd.read_parquet(out / "_skill_replicates.pq")
    # every task reported is on disk (those finished with it, written in the same batch, too):
    # a ceiling row per search task and per replicate (its counter row), a row and a bot
    # file per replicate, its point whole or not
    finished = len(ceiling)
    assert 3 <= finished < TASKS and len(tuned) >= sum(": replicate " in w for w in seen)
    assert len(list((out / "_points").rglob("bot.toml"))) == len(tuned) == (ceiling["who"] == "tuned").sum()
    done = pd.read_parquet(out / "skill.parquet")
    assert sorted(done["label"]) == sorted(x for x in set(tuned["label"]) if (tuned["label"] == x).sum() == 2)
    shutil.copytree(out, tmp_path / "here")
    seen.clear()
    skill_dask(client, sw, out, progress=lambda what, i, n: seen.append(what), **kw)
    assert len(seen) == TASKS - finished  # only the missing tasks
    _same_run(runs["root"] / "local", out)
    skill_sweep(sw, tmp_path / "here", workers=1, **kw)
    _same_run(runs["root"] / "local", tmp_path / "here")


def test_bad_dask_options_are_one_line_and_leave_no_folder(runs, tmp_path: Path) -> None:
    sweep, out = runs["sweep"], tmp_path / "o"
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--cluster", "local", "--scheduler", "tcp://x:1"),
              "--scheduler and --cluster", "one of the two")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--scheduler", "tcp://127.0.0.1:9"),
              "--scheduler", "cannot connect to tcp://127.0.0.1:9")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--scheduler", "tcp://127.0.0.1:9", "--workers", "0"),
              "--workers", "at least 1")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--cluster", "local", "--workers", "0"), "--workers")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--scheduler", ""), "--scheduler", "must not be empty")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--scheduler", "http://x:1"), "--scheduler", "scheme")
    one_error(invoke("skill", sweep, "--out", out, *TUNE, "--cluster", "far"), "--cluster")
    assert not out.exists()


def test_a_lone_finished_replicate_is_kept_on_either_path(runs, client, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A point with one of its two replicates finished (as a stopped Dask run leaves it):
    resumed locally or on Dask, only the other replicate is tuned."""
    from unosim.rules.botfile import resolve_bot
    from unosim.run.sweep import load_sweep
    from unosim.studies import skill_index, skill_tasks
    from unosim.studies.skill_index import Ceiling, skill_sweep
    from unosim.studies.skill_rows import point_dir
    from unosim.studies.skill_tasks import skill_dask

    sw = load_sweep(runs["sweep"])
    kw = dict(budget=12, deals=20, check_deals=100, replicates=2,
              ceiling=Ceiling(resolve_bot("search:worlds=2,rollouts=1"), 20))
    label = sw.points[1].label
    tuned: list[int] = []
    for where, module in (("here", skill_index), ("there", skill_tasks)):
        out = tmp_path / where
        shutil.copytree(runs["root"] / "dask", out)
        for name in ("_skill_replicates.pq", "_skill_ceiling.pq"):
            t = pd.read_parquet(out / name)
            t[~((t["label"] == label) & (t["replicate"] == 1))].to_parquet(out / name, index=False)
        shutil.rmtree(point_dir(out, sw.points[1], 1, 2))
        real = module.tune
        tuned.clear()
        monkeypatch.setattr(module, "tune", lambda *a, **k: (tuned.append(k["seed"]), real(*a, **k))[1])
        if module is skill_index:
            skill_sweep(sw, out, workers=1, **kw)
        else:
            skill_dask(client, sw, out, **kw)
        assert tuned == [1], where  # the missing replicate only (seed 0 + 1)
        _same_run(runs["root"] / "local", out)
