"""Shared set-up for the test suite.

The invariant harness lives in ``tests/harness.py``, a plain module, so that any test
(house rules included) can run it on its own config with ``from harness import
check_config``.  pytest's default import mode puts this directory on ``sys.path``; the
line below does it too, so the import also works under ``--import-mode=importlib``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from unosim.rules.config import RulesConfig, default_config

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


# Every test file's kind, one marker each (``pytest -m scenario``; README "Tests"):
#   unit         pure Python: registry, config, layers, interval maths, reports on synthetic
#                files; compiles nothing
#   scenario     one rule's sentences: a hand built with unosim.scenario, one action, the exact outcome
#   property     invariants over many random hands and configs (cards conserved, hands end, ...)
#   statistical  whole batches against expected rates, tolerances from the sample size
#   golden       output rows against tests/golden/
#   e2e          commands and notebooks run as a user runs them
#   faults       damaged, mixed and killed results: the fault-injection suite
KINDS: dict[str, tuple[str, ...]] = {
    "unit": ("codes", "config", "layers", "schema", "stats", "rules_doc", "docs", "plots", "report", "rule_map",
             "benchmarks", "outcomes", "modes", "rotated_hands", "bot_names", "paired", "jit", "data_doc", "prose",
             "commit_msg"),
    "scenario": ("bot_b0", "bots", "house_rules", "house_sentences", "table_variants", "rules_official",
                 "rlcard_preset", "chips", "pair_stacking"),
    "property": ("invariants", "house_invariants", "reproducibility", "search", "search_decisions"),
    "statistical": ("statistics", "house_statistics", "balance_triggers"),
    "golden": ("golden",),
    "e2e": ("cli", "search_studies", "cluster", "hostile", "notebooks", "worked_example", "resume", "bundled", "sweep",
            "honest_reports", "integrity", "matches", "tournaments", "formats", "warmup", "skill", "seating",
            "bots_named", "rotated_matches", "objectives", "guard", "readers", "verified", "bounds",
            "balance_chart", "result_figures", "html", "docs_generated", "search_cli", "skill_ceiling",
            "docs_skill", "program", "search_matches", "skill_dask", "rollout_bot",
            "datasets", "screen", "design", "rows_once"),
    "faults": ("faults",),
}
_KIND_OF = {f"test_{stem}": kind for kind, stems in KINDS.items() for stem in stems}


SLOW_SECONDS = 3.0
"""A test that takes longer once compiled is marked ``slow``: ``pytest -m "not slow"`` is the
quick loop.  A run names every unmarked test over it (``pytest_terminal_summary``)."""
_UNMARKED_SLOW: list[tuple[float, str]] = []
_COMPILED: list[str] = []  # the kernels this run compiled (cold cache): their time lands in tests


def pytest_configure(config: pytest.Config) -> None:
    for kind in KINDS:
        config.addinivalue_line("markers", f"{kind}: a test of kind {kind} (tests/conftest.py KINDS)")
    config.addinivalue_line("markers", f"slow: a test that takes more than {SLOW_SECONDS:g} s once compiled")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its file's kind; a test file without a kind is an error, so the
    taxonomy stays whole."""
    for item in items:
        stem = item.path.stem
        kind = _KIND_OF.get(stem)
        if kind is None:
            raise pytest.UsageError(f"{item.path.name}: no kind; add it to KINDS in tests/conftest.py")
        if not any(item.get_closest_marker(k) for k in KINDS):  # a test may name its own kind
            item.add_marker(getattr(pytest.mark, kind))


def _compile_saying_so(config: pytest.Config) -> None:
    """Compile (or load) every kernel: the compile notice first, then a line on the terminal
    for each cold kernel as it is ready (a first run compiles for minutes, never silently)."""
    from unosim.run.warmup import cold_kernels, warmup

    cold = cold_kernels()
    _COMPILED.extend(cold)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")

    done: list[str] = []

    def ready(name: str, seconds: float) -> None:
        if name in cold and reporter is not None:
            done.append(name)
            reporter.write_line(f"unosim: {name} compiled in {seconds:.0f} s ({len(done)}/{len(cold)})")
            reporter.flush()

    with capture.global_and_fixture_disabled() if capture is not None else _nothing():
        warmup(quiet=True, progress=ready)


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def pytest_collection(session: pytest.Session) -> None:
    """A run of the whole suite (``python -m pytest``, no paths, not ``-m unit``) compiles
    the kernels before collecting the tests, so a cold first run talks at once."""
    import numba

    config = session.config
    whole = config.args_source == pytest.Config.ArgsSource.TESTPATHS
    if (whole and config.getoption("markexpr") != "unit" and not config.getoption("collectonly")
            and not numba.config.DISABLE_JIT):
        _compile_saying_so(config)


@pytest.fixture(scope="session")
def compiled_kernels(request: pytest.FixtureRequest) -> None:
    """Compile (or load) every kernel once, before the first test that runs the engine: a
    command's output then never depends on which test happened to compile a kernel (a cold
    compile adds a notice on stderr)."""
    _compile_saying_so(request.config)


@pytest.fixture(autouse=True)
def _kernels_unless_unit(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test but a unit test gets the compiled kernels; ``pytest -m unit`` compiles nothing,
    and neither does a run under ``NUMBA_DISABLE_JIT=1`` (the engine stays plain Python)."""
    import numba
    from numba.core import event

    if request.node.get_closest_marker("unit") is None:
        if not numba.config.DISABLE_JIT:
            request.getfixturevalue("compiled_kernels")
        yield
        return
    with event.install_recorder("numba:compile") as compiles:
        yield
    names = sorted({e.data["dispatcher"].py_func.__qualname__ for _, e in compiles.buffer if e.is_start})
    if names:
        pytest.fail(f"a unit test compiled {', '.join(names)}: mark it with the kind that runs the engine")


@pytest.fixture(scope="session")
def standard() -> RulesConfig:
    """The official rules (every key at its default)."""
    return default_config()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > SLOW_SECONDS and "slow" not in report.keywords:
        _UNMARKED_SLOW.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Say how many faults the fault-injection suite injected, when it ran, and which tests
    took longer than ``SLOW_SECONDS`` without the ``slow`` mark."""
    if _UNMARKED_SLOW and _COMPILED:  # a compile's load skews the times: judge them on a warm run only
        terminalreporter.write_line("this run compiled the engine: run again to list the unmarked slow tests")  # type: ignore[attr-defined]
    for seconds, nodeid in sorted(_UNMARKED_SLOW, reverse=True) if not _COMPILED else ():
        terminalreporter.write_line(f"not marked slow, took {seconds:.1f} s: {nodeid}")  # type: ignore[attr-defined]
    faults = sys.modules.get("test_faults")
    counts = getattr(faults, "INJECTIONS", None)
    if counts:
        terminalreporter.write_line(f"fault injection: {sum(counts.values())} injections ("  # type: ignore[attr-defined]
                                    + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")")
    moments = getattr(faults, "KILL_MOMENTS", None)
    if moments:
        terminalreporter.write_line("kill -9 landed: "  # type: ignore[attr-defined]
                                    + ", ".join(f"{k} {v}" for k, v in sorted(moments.items())))
