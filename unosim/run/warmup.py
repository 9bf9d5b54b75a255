"""Compiling the engine: saying so while it happens, and doing it ahead of time.

The first run on a machine compiles the kernels (a cold `unosim run` compiles the hands
kernel: 61 s on 2 shared cores; ``unosim warmup``, all three: 93 s); numba caches the
machine code, so later starts take about a second.  A user who sees nothing for a minute
thinks the program hung, so a run that is about to compile says so on stderr at once,
even with ``--quiet``, with a ticking clock on a terminal; ``unosim warmup`` compiles every
kernel ahead of time (for a set-up script or an image).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

import numpy as np

__all__ = ["KERNELS", "cold_kernels", "compile_notice", "warm", "warmup"]

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
                     empty, empty)

    return play_matches, go


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
        trace_match_hand(to_params(default_config()), 0, 0, 0, np.zeros((1, LOG_WIDTH), np.int64))

    return trace_match_hand, go


def _trace_tournament() -> tuple[Any, Callable[[], None]]:
    from unosim.engine.tournaments import trace_tournament_hand
    from unosim.kernel.layout import LOG_WIDTH
    from unosim.rules.config import default_config, to_params

    def go() -> None:
        trace_tournament_hand(to_params(default_config()), 0, 0, 0, 0, 3, 1, 0, np.zeros((1, LOG_WIDTH), np.int64))

    return trace_tournament_hand, go


KERNELS: dict[str, Callable[[], tuple[Any, Callable[[], None]]]] = {
    "hands": _hands, "matches": _matches, "trace": _trace, "tournaments": _tournaments,
    "trace_match": _trace_match, "trace_tournament": _trace_tournament}
"""Every entry point the commands call: name -> (dispatcher, a call that compiles it)."""


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


_COMPILED: list[float] = []  # when the kernel a notice waits for was ready (time.monotonic)


def mark_compiled() -> None:
    """Called once a command's kernel is loaded (compiled or from the cache): the notice then
    reports the compile time up to here, not the whole command's."""
    if not _COMPILED:
        _COMPILED.append(time.monotonic())


@contextmanager
def compile_notice(names: tuple[str, ...], quiet: bool = False, stream: IO[str] | None = None) -> Iterator[None]:
    """Around the first call of the ``names`` kernels: if any must compile, say so at once
    (even ``quiet``: silence for minutes reads as a hang), tick an elapsed clock on a
    terminal unless ``quiet``, and say how long it took."""
    stream = stream or sys.stderr
    cold = cold_kernels(names)
    if not cold:
        yield
        return
    where = os.environ.get("NUMBA_CACHE_DIR", "the numba cache")
    print(f"unosim: compiling the engine ({', '.join(cold)}; first run only, {EXPECTED}); "
          f"cached in {where}", file=stream, flush=True)
    stop = threading.Event()
    t0 = time.monotonic()
    _COMPILED.clear()

    def tick() -> None:
        while not stop.wait(1.0) and not _COMPILED:
            s = int(time.monotonic() - t0)
            stream.write(f"\r  compiling... {s // 60}:{s % 60:02d} elapsed")
            stream.flush()

    ticker = None
    if not quiet and stream.isatty():
        ticker = threading.Thread(target=tick, name="unosim-compile-clock", daemon=True)
        ticker.start()
    ok = False
    try:
        yield
        ok = True
    finally:
        stop.set()
        if ticker is not None:
            ticker.join()
            stream.write("\r")
        done = _COMPILED[0] if _COMPILED else (time.monotonic() if ok else None)
        if done is not None:  # an interrupt or an error mid-compile proves no compiled engine
            print(f"unosim: engine compiled in {done - t0:.0f} s", file=stream, flush=True)


def warm(name: str) -> float:
    """Compile (or load) one kernel; the seconds it took."""
    _, go = KERNELS[name]()
    t = time.perf_counter()
    go()
    return time.perf_counter() - t


def warmup(names: tuple[str, ...] = tuple(KERNELS), quiet: bool = False) -> dict[str, float]:
    """``unosim warmup``: every kernel compiled and cached; seconds per kernel."""
    with compile_notice(names, quiet=quiet):
        return {n: warm(n) for n in names}
