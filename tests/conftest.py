"""Shared set-up for the test suite: each test's kind, and the compiled kernels.

A test's kind is its folder (``tests/unit/``, ``tests/scenario/``, ...), one marker each
(``pytest -m scenario``; docs/getting_started.md).  The helper modules beside this file
(``harness``, ``result_files``, ``cli_checks`` ...) are imported by name from every folder:
pytest's default import mode puts this directory on ``sys.path``, and the line below does
it too, so the imports also work under ``--import-mode=importlib``.
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

from compiles import compiled  # noqa: E402 - a helper beside this file, importable once the line above ran


KINDS: dict[str, str] = {
    "unit": "pure Python: registry, config, layers, interval maths, reports on synthetic files; "
            "compiles nothing (tests/unit/conftest.py fails a test that does)",
    "scenario": "one rule's sentences: a hand built with unosim.scenario, one action, the exact outcome",
    "property": "invariants over many random hands and configs (cards conserved, hands end, ...)",
    "statistical": "whole batches against expected rates, tolerances from the sample size",
    "golden": "output rows against the files kept beside tests/golden/test_golden.py",
    "e2e": "commands and notebooks run as a user runs them",
    "faults": "damaged, mixed and killed results: the fault-injection suite",
}
"""Every kind of test, by its folder under tests/: the folder names the marker."""


SLOW_SECONDS = 3.0
"""A test that takes longer once compiled is marked ``slow``: ``pytest -m "not slow"`` is the
quick loop.  A run names every unmarked test over it (``pytest_terminal_summary``)."""
_UNMARKED_SLOW: list[tuple[float, str]] = []
_COMPILED: list[str] = []  # the kernels this run compiled (cold cache): their time lands in tests
_COMPILED_BY_TESTS: dict[str, str] = {}  # an engine function compiled in a test -> the first such test


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--compile-nothing", action="store_true",
                     help="fail a test that compiles an engine function (unosim warmup compiles them all)")


def pytest_configure(config: pytest.Config) -> None:
    for kind, what in KINDS.items():
        config.addinivalue_line("markers", f"{kind}: tests/{kind}/, {what}")
    config.addinivalue_line("markers", f"slow: a test that takes more than {SLOW_SECONDS:g} s once compiled")


def kind_of(path: Path) -> str | None:
    """The kind of the test file at ``path``: its folder's name, if that is a kind."""
    folder = path.resolve().parent
    return folder.name if folder.parent == Path(_HERE) and folder.name in KINDS else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its folder's kind.  A test file outside a kind's folder, or a
    test that names another kind itself, is an error: the taxonomy stays whole."""
    for item in items:
        kind = kind_of(item.path)
        if kind is None:
            raise pytest.UsageError(f"{item.nodeid.split('::')[0]}: not in a kind's folder; move it to one of "
                                    + ", ".join(f"tests/{k}/" for k in KINDS))
        other = [m.name for m in item.iter_markers() if m.name in KINDS and m.name != kind]
        if other:
            raise pytest.UsageError(f"{item.nodeid}: marked {other[0]} in tests/{kind}/; move it to tests/{other[0]}/")
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
    """Every test but a unit test gets the compiled kernels; ``pytest -m unit`` compiles
    nothing (tests/unit/conftest.py), and neither does a run under ``NUMBA_DISABLE_JIT=1``
    (the engine stays plain Python).  An engine function a test compiles after that was
    missed by ``unosim warmup``: the run names it, and ``--compile-nothing`` fails the test."""
    import numba

    if kind_of(request.node.path) == "unit" or numba.config.DISABLE_JIT:
        yield
        return
    request.getfixturevalue("compiled_kernels")
    with compiled() as names:
        yield
    ours = [n for n in names if n.startswith("unosim.")]
    if ours and request.config.getoption("compile_nothing"):
        pytest.fail(f"compiled after unosim warmup: {'; '.join(ours)} (add it to unosim/run/warmup.py)")
    for name in ours:
        _COMPILED_BY_TESTS.setdefault(name, request.node.nodeid)


@pytest.fixture(scope="session")
def standard() -> RulesConfig:
    """The official rules (every key at its default)."""
    return default_config()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    import numba

    if numba.config.DISABLE_JIT:  # the mark speaks of compiled runs
        return
    if report.when == "call" and report.duration > SLOW_SECONDS and "slow" not in report.keywords:
        _UNMARKED_SLOW.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Say how many faults the fault-injection suite injected, when it ran, which tests
    took longer than ``SLOW_SECONDS`` without the ``slow`` mark, and which engine functions
    the tests compiled that ``unosim warmup`` does not."""
    for name, nodeid in _COMPILED_BY_TESTS.items():
        terminalreporter.write_line(f"not compiled by unosim warmup: {name}, in {nodeid}")  # type: ignore[attr-defined]
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
