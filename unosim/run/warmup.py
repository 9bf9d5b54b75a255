"""Compiling the engine: saying so while it happens, and doing it ahead of time.

The first run on a machine compiles the kernels (a cold `unosim run` compiles the hands
kernel, about a minute on 2 cores; ``unosim warmup`` every kernel); numba caches the
machine code, so later starts take about a second.  A user who sees nothing for a minute
thinks the program hung, so a command that must compile does that first and says so on
stderr (even with ``--quiet``), with a ticking clock on a terminal and two plain lines
elsewhere; ``unosim warmup`` compiles every kernel ahead of time (for a set-up script or
an image).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

import numpy as np

from unosim.kernel.cache import cache_folder

__all__ = ["KERNELS", "cold_kernels", "compile_notice", "kernel_for", "warm", "warmup"]

EXPECTED = "about a minute on 2 cores"


def _hands() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.batch import new_out, play_hands
    from unosim.rules.config import default_config, to_params

    def go() -> None:
        play_hands(to_params(default_config()), 0, 0, 0, new_out(0), 1)

    return play_hands, go


def _matches() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.matches import N_MOUT, play_matches
    from unosim.rules.config import default_config, to_params

    def go() -> None:
        empty = np.zeros(0, np.int64)
        play_matches(to_params(default_config()), 0, empty, empty, 1, np.zeros((1, 1, N_MOUT), np.int64),
                     empty, empty, False)

    return play_matches, go


def _search_table() -> Any:
    """The smallest table with a search seat: what the search kernels compile for."""
    from unosim.rules.config import default_config

    return default_config().with_values({"players": 2, "seats": ["search", "counter"]})


def _search_matches() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.matches import N_MOUT, play_search_matches
    from unosim.engine.search_batch import split_params
    from unosim.rules.config import to_params

    def go() -> None:
        empty = np.zeros(0, np.int64)
        play_search_matches(*split_params(to_params(_search_table()), matches=True), 0, empty, empty, 1,
                            np.zeros((1, 1, N_MOUT), np.int64), empty, empty, False)

    return play_search_matches, go


def _search_hands() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.batch import new_out
    from unosim.engine.search_batch import play_hands, split_params
    from unosim.rules.config import to_params

    def go() -> None:
        play_hands(*split_params(to_params(_search_table())), 0, 0, 0, new_out(0), 1)

    return play_hands, go


def _search_trace() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.search_batch import split_params, trace_hand
    from unosim.kernel.layout import LOG_WIDTH
    from unosim.rules.config import to_params

    def go() -> None:
        trace_hand(*split_params(to_params(_search_table())), 0, 0, np.zeros((1, LOG_WIDTH), np.int64))

    return trace_hand, go


def _trace() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.batch import trace_hand
    from unosim.kernel.layout import LOG_WIDTH
    from unosim.rules.config import default_config, to_params

    def go() -> None:
        trace_hand(to_params(default_config()), 0, 0, np.zeros((1, LOG_WIDTH), np.int64))

    return trace_hand, go


def _tournaments() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.tournaments import play_tournaments
    from unosim.rules.config import default_config
    from unosim.run.tournaments import Tournament

    return play_tournaments, Tournament(default_config()).warm_up


def _trace_match() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.matches import trace_match_hand
    from unosim.kernel.layout import LOG_WIDTH
    from unosim.rules.config import default_config, to_params

    def go() -> None:
        trace_match_hand(to_params(default_config()), 0, 0, 0, np.zeros((1, LOG_WIDTH), np.int64), False)

    return trace_match_hand, go


def _trace_tournament() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.tournaments import trace_tournament_hand
    from unosim.kernel.layout import LOG_WIDTH
    from unosim.rules.config import default_config, to_params

    def go() -> None:
        trace_tournament_hand(to_params(default_config()), 0, 0, 0, 0, 3, 1, 0, np.zeros((1, LOG_WIDTH), np.int64),
                              False)

    return trace_tournament_hand, go


KERNELS: dict[str, Callable[[], tuple[Any, Callable[[], None]]]] = {
    "hands": _hands, "matches": _matches, "search_hands": _search_hands, "search_matches": _search_matches,
    "trace": _trace, "search_trace": _search_trace, "tournaments": _tournaments, "trace_match": _trace_match,
    "trace_tournament": _trace_tournament}
"""Every entry point the commands call: name -> (dispatcher, a call that compiles it)."""


def kernel_for(kind: str, cfg: Any) -> str:
    """The kernel a table of ``cfg`` plays for ``kind`` (``hands``, ``matches``, ``trace``, or
    any other entry of :data:`KERNELS`): a table with search seats has its own."""
    if kind in ("hands", "matches", "trace") and any(name == "search" for name, _ in cfg.seats):
        return f"search_{kind}"
    return kind


def _cached(dispatcher: Any) -> bool:
    """Whether numba holds machine code for ``dispatcher``'s current source (its cache
    index exists and is stamped with this source file; numba discards it otherwise)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba internals moved: assume cold, say so needlessly at worst
        return False


def cold_kernels(names: tuple[str, ...] = tuple(KERNELS)) -> list[str]:
    """The kernels among ``names`` that the next call would compile."""
    return [n for n in names if not _cached(KERNELS[n]()[0])]


def compile_now(cold: list[str], quiet: bool = False, stream: IO[str] | None = None) -> dict[str, float]:
    """Compile the ``cold`` kernels now, saying so: one line as the compile starts (even
    ``quiet``: silence for minutes reads as a hang) and one when it ends, with its time;
    between them an elapsed clock only on a terminal unless ``quiet`` (a file or a pipe
    gets the two lines and nothing else).  Seconds per kernel."""
    stream = stream or sys.stderr
    print(f"unosim: compiling the engine ({', '.join(cold)}; first run only, {EXPECTED}); "
          f"cached in {cache_folder()}", file=stream, flush=True)
    stop = threading.Event()
    t0 = time.monotonic()

    def tick() -> None:
        while not stop.wait(1.0):
            s = int(time.monotonic() - t0)
            stream.write(f"\r  compiling... {s // 60}:{s % 60:02d} elapsed")
            stream.flush()

    ticker = None
    if not quiet and stream.isatty():
        ticker = threading.Thread(target=tick, name="unosim-compile-clock", daemon=True)
        ticker.start()
    seconds: dict[str, float] = {}
    try:
        for name in cold:
            seconds[name] = warm(name)
    finally:
        stop.set()
        if ticker is not None:
            ticker.join()
            stream.write("\r")
    if len(seconds) == len(cold):  # not after an interrupt: nothing was compiled then
        print(f"unosim: engine compiled in {time.monotonic() - t0:.0f} s", file=stream, flush=True)
    return seconds


@contextmanager
def compile_notice(names: tuple[str, ...], quiet: bool = False, stream: IO[str] | None = None) -> Iterator[None]:
    """Before a command's work: the ``names`` kernels that must compile are compiled first
    (:func:`compile_now`), so the compile is announced, timed and reported once, apart
    from the work that follows."""
    cold = cold_kernels(names)
    if cold:
        compile_now(cold, quiet, stream)
    yield


def warm(name: str) -> float:
    """Compile (or load) one kernel; the seconds it took."""
    _, go = KERNELS[name]()
    t = time.perf_counter()
    go()
    return time.perf_counter() - t


def warmup(names: tuple[str, ...] = tuple(KERNELS), quiet: bool = False) -> dict[str, float]:
    """``unosim warmup``: every kernel compiled and cached; seconds per kernel (to compile,
    or to load from the cache)."""
    cold = cold_kernels(names)
    seconds = compile_now(cold, quiet) if cold else {}
    return {n: seconds[n] if n in seconds else warm(n) for n in names}
