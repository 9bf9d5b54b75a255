"""Compiling the engine: a cold kernel is detected and announced at once; a warm one is not."""

from __future__ import annotations

import importlib
import io
import sys
from pathlib import Path

import pytest

from unosim.run import warmup as W


def test_cache_detection_on_a_fresh_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A never-compiled function reads as cold, and as cached once called."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tiny_kernel.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("tiny_kernel")
    try:
        assert not W._cached(mod.plus_one)
        assert mod.plus_one(1) == 2
        assert W._cached(mod.plus_one)
    finally:
        sys.modules.pop("tiny_kernel", None)


def test_warm_kernels_say_nothing() -> None:
    W.warmup(("hands",))
    assert W.cold_kernels(("hands",)) == []
    out = io.StringIO()
    with W.compile_notice(("hands",), stream=out):
        W.warm("hands")
    assert out.getvalue() == ""


def test_a_cold_kernel_is_announced_at_once_even_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(W, "cold_kernels", lambda names: list(names))
    out = io.StringIO()
    with W.compile_notice(("hands", "matches"), quiet=True, stream=out):
        assert "compiling the engine (hands, matches; first run only" in out.getvalue()
    assert out.getvalue().splitlines()[-1].startswith("unosim: engine compiled in ")


def test_off_a_terminal_a_compile_is_two_lines_and_comes_first(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    """Piped or redirected: the line as the compile starts and the line as it ends, no clock
    and no progress bar glued to them; the compile is done before the work it precedes,
    so its time is the compile's alone (reported once)."""
    from click.testing import CliRunner

    from unosim.cli import main

    monkeypatch.setattr(W, "cold_kernels", lambda names: list(names))
    out = io.StringIO()
    with W.compile_notice(("hands",), stream=out):
        assert W.cold_kernels.__name__ == "<lambda>" and len(out.getvalue().splitlines()) == 2
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue() and len(lines) == 2
    assert lines[0].startswith("unosim: compiling the engine (hands;") and lines[1].startswith("unosim: engine compiled in ")

    r = CliRunner().invoke(main, ["run", "standard", "--hands", "500", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    assert len(err) == 2 and err[0].startswith("unosim: compiling the engine (hands;"), r.stderr
    assert err[1].startswith("unosim: engine compiled in ") and "%|" not in r.stderr
    assert "loading the engine" not in r.stdout  # the compile's time is said once, on stderr


def test_unosim_warmup_compiles_every_kernel() -> None:
    from click.testing import CliRunner

    from unosim.cli import main

    r = CliRunner().invoke(main, ["warmup"])
    assert r.exit_code == 0, r.output
    assert all(f"  {k}: ready in" in r.stdout for k in W.KERNELS)
    assert W.cold_kernels() == []


def test_the_numba_cache_folder_is_keyed_by_the_engine_sources(tmp_path) -> None:
    """Numba reuses a cached compile by its own file's stamp only: a stale inlined helper
    would give wrong rows silently, so unosim's compiled code caches in a folder named by
    the sources' digest, under NUMBA_CACHE_DIR too; a folder already so named (a
    parent's) is kept, and every unosim dispatcher caches there."""
    import subprocess
    import sys

    from unosim.engine.batch import play_hands
    from unosim.kernel.cache import cache_folder, sources_digest
    from unosim.kernel.jit import PLAIN

    folder = f"numba-{sources_digest()}"
    assert cache_folder(str(tmp_path)) == str(tmp_path / folder)
    assert cache_folder(str(tmp_path / folder)) == str(tmp_path / folder)
    assert cache_folder("").endswith(f"/unosim/{folder}")
    if not PLAIN:
        from unosim.kernel.numba_internals import _Cached

        assert isinstance(play_hands, _Cached)
    env = dict(__import__("os").environ, NUMBA_CACHE_DIR=str(tmp_path))
    code = ("from unosim.engine.batch import play_hands; "
            "print(play_hands._cache._cache_path)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out.startswith(str(tmp_path / folder / "plain") if PLAIN else str(tmp_path / folder))


def test_a_factory_made_step_keeps_one_cache_entry_per_sibling() -> None:
    """The engine's two steps come from one factory (engine.hand.stepper): their cache keys
    differ (one closes over the plain turn, one over the search's), and each is the same in
    every process (numba's own key pickles the closed-over dispatcher with a fresh id per
    process, so a cached step would never be found again).  Plain numba does not cache
    them (unosim.kernel.jit)."""
    import subprocess
    import sys

    from numba.core import types

    from unosim.engine.hand import step
    from unosim.kernel.jit import PLAIN

    if PLAIN:
        assert type(step._cache).__name__ == "NullCache"
        return
    from unosim.engine.search import searching_step

    sig = (types.int64[:],)
    codegen = step.targetctx.codegen()
    plain = step._cache._index_key(sig, codegen)
    searching = searching_step._cache._index_key(sig, codegen)
    assert plain != searching
    code = ("from numba.core import types; from unosim.engine.hand import step; "
            "print(repr(step._cache._index_key((types.int64[:],), step.targetctx.codegen())[2]))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert other.strip() == repr(plain[2])


@pytest.mark.slow  # every module imported in a fresh interpreter
def test_import_changes_nothing_in_the_process() -> None:
    """Importing unosim, any module of it, sets no environment variable and no numba setting
    (its config, its thread count: a notebook's own numba code keeps its cache and its
    threads); ``unosim.configure()`` is the explicit call that does."""
    import subprocess
    import sys

    code = """
import os, json, importlib, pkgutil
import numba

def state():
    config = {k: repr(getattr(numba.config, k)) for k in dir(numba.config) if k.isupper()}
    return dict(os.environ), config, numba.get_num_threads()

if numba.config.NUMBA_NUM_THREADS > 1:
    numba.set_num_threads(1)  # not the default: an import that set its own count would show
before = state()
import unosim
for m in pkgutil.walk_packages(unosim.__path__, "unosim."):
    if not m.name.endswith("__main__"):  # (running the CLI is not importing it)
        importlib.import_module(m.name)  # every module: the engine, the CLI, the studies ...
after = state()
print(json.dumps(before == after))
unosim.configure()
print(json.dumps(os.environ.get("OMP_WAIT_POLICY")))
"""
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("OMP_WAIT_POLICY",)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["true", '"PASSIVE"']


def test_kernel_workers_puts_numba_thread_count_back() -> None:
    """A run's worker count holds only inside ``kernel_workers``: numba's count is restored
    after the block, also when it raises; a bad count is one RunError naming --workers and
    changes nothing."""
    import numba

    from unosim.run.jobs import RunError
    from unosim.run.workers import check_workers, kernel_workers, max_workers

    top = max_workers()
    before = numba.get_num_threads()
    with kernel_workers(1) as w:
        assert w == 1 and numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with pytest.raises(KeyError):
        with kernel_workers(None) as w:
            assert w == top and numba.get_num_threads() == top
            raise KeyError("the block failed")
    assert numba.get_num_threads() == before
    for bad in (0, top + 1):
        with pytest.raises(RunError, match="--workers"):
            with kernel_workers(bad):
                pass
        assert numba.get_num_threads() == before
    assert check_workers(None) == top and check_workers(1) == 1


def test_a_duel_announces_the_kernels_its_tables_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """`unosim duel` says it compiles before the first deal, naming the kernels its tables
    play (a search seat has kernels of its own); its own checks come first, so a bad
    argument never waits for a compile."""
    from click.testing import CliRunner

    from unosim.cli import main
    from unosim.run.jobs import RunError
    from unosim.studies.duel import duel_kernels

    assert duel_kernels("counter", "random") == ("hands",)
    assert duel_kernels("search", "counter") == ("search_hands",)
    assert duel_kernels("counter", "random", players=3, others="search") == ("search_hands",)
    assert duel_kernels("search:worlds=2", "counter", matches=True) == ("search_matches",)
    with pytest.raises(RunError, match="--players"):
        duel_kernels("search", "counter", players=11)

    monkeypatch.setattr(W, "cold_kernels", lambda names: list(names))
    r = CliRunner().invoke(main, ["duel", "search:worlds=1,rollouts=1", "counter", "--hands", "2"])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0].startswith("unosim: compiling the engine (search_hands;"), r.stderr
    r = CliRunner().invoke(main, ["duel", "search", "counter", "--players", "11"])
    assert r.exit_code == 2 and "compiling" not in r.stderr, r.output


def test_a_search_table_trace_announces_the_search_trace(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from unosim.cli import main

    cfg = tmp_path / "s.toml"
    cfg.write_text('[table]\nplayers = 2\n[bots]\nseats = [{strategy = "search", worlds = 1, rollouts = 1}, "counter"]\n')
    monkeypatch.setattr(W, "cold_kernels", lambda names: list(names))
    r = CliRunner().invoke(main, ["trace", str(cfg), "--hand", "0"])
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0].startswith("unosim: compiling the engine (search_trace;"), r.stderr


def test_a_kernel_another_process_compiles_is_left_for_last_then_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes compiling at once (a cold start's helper, a second test worker) never
    compile one kernel twice: one whose lock another process holds is passed over, and
    taken (from the cache) once that process lets go of it."""
    import subprocess
    import time

    done: list[str] = []
    monkeypatch.setattr(W, "warm", lambda name: done.append(name) or 0.0)
    with W._compile_lock("hands", wait=False) as mine:
        assert mine  # nobody else holds it: this test takes it and lets go
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom unosim.run.warmup import _compile_lock\n"
                               "with _compile_lock('hands', wait=False) as mine:\n"
                               "    print(mine, flush=True); time.sleep(2)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "True"
        with W._compile_lock("hands", wait=False) as mine:
            assert not mine
        t = time.monotonic()
        seconds: dict[str, float] = {}
        W._compile_in_turn(["hands", "matches"], seconds)
        assert done == ["matches", "hands"] and set(seconds) == {"hands", "matches"}
        assert time.monotonic() - t > 0.5  # "hands" waited for the other process's lock
    finally:
        holder.wait()


def test_a_cold_start_shares_its_kernels_with_one_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    """A helper takes the kernels from the other end (the search kernels, which share least
    with the plain ones, first); none is started for a single kernel or a single core; a
    helper finds cached kernels and compiles nothing."""
    import subprocess

    assert W._helper_order(list(W.KERNELS)) == [
        "search_hands", "search_matches", "search_trace", "decisions", "scenarios", "trace_tournament",
        "trace_match", "tournaments", "trace", "matches", "hands"]
    assert W._start_helper(["hands"]) is None
    import unosim.run.workers

    monkeypatch.setattr(unosim.run.workers, "max_workers", lambda: 1)
    assert W._start_helper(["hands", "matches"]) is None
    W.warmup(("hands", "trace"), quiet=True)
    t = __import__("time").monotonic()
    subprocess.run([sys.executable, "-m", "unosim.run.warmup", "hands", "trace"], check=True, timeout=120)
    assert __import__("time").monotonic() - t < 30  # an import and two cache checks, no compile


def test_an_unwritable_cache_folder_compiles_unlocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the cache folder cannot be made, numba compiles without caching (and says
    so); the compile lock then steps aside instead of failing the command."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "cache"))
    with W._compile_lock("hands", wait=False) as mine:
        assert mine


def test_a_compile_reports_each_kernel_as_it_is_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """``progress`` hears of every kernel the moment it is ready, in the order they finish."""
    heard: list[tuple[str, float]] = []
    monkeypatch.setattr(W, "warm", lambda name: {"hands": 2.0, "matches": 1.0}[name])
    monkeypatch.setattr(W, "_start_helper", lambda cold: None)
    seconds = W.compile_now(["hands", "matches"], quiet=True, stream=io.StringIO(),
                            progress=lambda name, s: heard.append((name, s)))
    assert heard == [("hands", 2.0), ("matches", 1.0)] and seconds == dict(heard)


def test_a_function_called_from_python_is_cold_for_types_not_cached() -> None:
    """The scenario API's and the search tests' functions are warm only for the very types
    they are called with: a version compiled for others (a kernel's) does not count."""
    from numba import types as T

    from unosim.engine import hand as H

    W.warmup(("scenarios",), quiet=True)
    assert W.cold_kernels(("scenarios",)) == []
    assert W._cached_for(H.reset, (T.int64[::1], T.float64[::1], T.int64))
    assert not W._cached_for(H.reset, (T.int64[::1], T.float64[::1], T.int32))


@pytest.mark.slow  # a fresh process loads every kernel, then runs about 400 tests
def test_after_warmup_scenario_and_search_tests_compile_nothing() -> None:
    """After ``unosim warmup`` (the suite's own, before its first engine test), a scenario
    test, the invariant harness and the search tests' direct calls compile nothing: in a
    fresh process with ``--compile-nothing`` a test that compiled would fail."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    W.warmup(quiet=True)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--compile-nothing",
                           "tests/scenario/test_house_rules.py", "tests/scenario/test_bot_b0.py",
                           "tests/property/test_search.py", "tests/property/test_search_decisions.py",
                           "tests/property/test_house_invariants.py::test_house_rule_invariants_after_every_step"
                           "[H1_stacking_draw2]"], cwd=root, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "not compiled by unosim warmup" not in proc.stdout


def test_unosim_warmup_prints_a_line_per_kernel_with_its_count() -> None:
    from click.testing import CliRunner

    from unosim.cli import main

    r = CliRunner().invoke(main, ["warmup"])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stdout.splitlines() if ": ready in " in ln]
    assert [ln.rsplit(" ", 1)[1] for ln in lines] == [f"({i}/{len(W.KERNELS)})" for i in range(1, len(W.KERNELS) + 1)]


@pytest.mark.slow
def test_a_cold_test_run_talks_within_ten_seconds(tmp_path: Path) -> None:
    """``python -m pytest`` on an empty compile cache: its first line (the compile notice,
    before collecting the tests) comes within 10 s; the run is stopped there."""
    import os
    import select
    import signal
    import subprocess
    import time

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    t = time.monotonic()
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider"], cwd=root, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        talked, _, _ = select.select([run.stdout], [], [], 60)  # never hang on a silent run
        first = run.stdout.readline() if talked else ""
        took = time.monotonic() - t
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the run and its compile helper
        run.wait()
    assert first.startswith("unosim: compiling the engine ("), first
    assert took < 10, f"the first line came after {took:.1f} s"


def test_slow_test_lines_only_after_a_warm_run(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The suite names unmarked slow tests only when it compiled nothing: a compile's load
    makes every time of a cold run say little."""
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).resolve().parents[1] / "conftest.py"))

    class Reporter:
        def __init__(self) -> None:
            self.lines: list[str] = []

        def write_line(self, line: str) -> None:
            self.lines.append(line)

    monkeypatch.setattr(conftest, "_UNMARKED_SLOW", [(4.2, "tests/unit/test_x.py::test_y")])
    monkeypatch.delitem(sys.modules, "test_faults", raising=False)  # its fault counts are other lines
    for compiled, expected in (([], ["not marked slow, took 4.2 s: tests/unit/test_x.py::test_y"]),
                               (["hands"], ["this run compiled the engine: run again to list the unmarked slow tests"])):
        monkeypatch.setattr(conftest, "_COMPILED", compiled)
        reporter = Reporter()
        conftest.pytest_terminal_summary(reporter)
        assert reporter.lines == expected
