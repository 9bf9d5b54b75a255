"""Compiling the engine: saying so while it happens, and doing it ahead of time.

``unosim warmup`` compiles every kernel and the engine functions called from Python; each
kernel compiles under its own lock, a helper process taking some when several are cold.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import numpy as np

from unosim.kernel.cache import cache_folder

try:
    import fcntl
except ImportError:  # not POSIX: one process compiles, as numba alone would
    fcntl = None  # type: ignore[assignment]

__all__ = ["KERNELS", "cold_kernels", "compile_notice", "kernel_for", "warm", "warmup"]

EXPECTED = "one to a few minutes"


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


def _python_calls() -> dict[str, list[tuple[Any, tuple[Any, ...]]]]:
    """The engine functions called from Python, each with the argument types it is called
    with (``scenarios``: unosim.scenario and the tests; ``decisions``: the search's)."""
    from numba import types as T

    from unosim.engine import batch, choices, jump, matches, search, search_batch, turns, worlds
    from unosim.engine import hand as H
    from unosim.families import calls
    from unosim.kernel import table

    I, F1, U1, I1, I2 = T.int64, T.float64[::1], T.uint64[::1], T.int64[::1], T.int64[:, ::1]
    st, P, rng, log, ctx, opt = I1, F1, U1, I2, I1, I1  # noqa: N806 - the engine's own names
    choice = (st, P, ctx, I, I)  # state, P, the search context, seat, seed; then kind, card, decision
    defaults = (T.Omitted(search.TURN), T.Omitted(-1), T.Omitted(0))
    return {
        "scenarios": [
            (H.reset, (st, P, I)), (H.build_deck, (st, P)), (H.deal, (st, P, rng, log)),
            (H.turn_first_card, (st, P, rng, log)), (H.step, (st, P, rng, log, T.Omitted(None))),
            (H.begin_turn, (st, P, rng, log, I)), (calls.misplay, (st, P, rng, log, I)),
            (H.play_card, (st, P, rng, log, I, I)),
            (search.step_at, (st, P, rng, log, ctx)), (search.jumpers, (ctx, I)),
            (batch.hand_dealer, (P, rng, I)), (batch.write_row, (st, P, I2, I, I)),
            (batch.write_row, (st, P, T.int32[:, :], I, I)), (matches.start_match, (P, I1)),
            (matches.score_row, (P, I1, I1)), (matches.score_rows, (P, I2)),
            (table.add_card, (st, I, I, I)), (table.recount_colours, (st, I))],
        "decisions": [
            *[(search.choice_at, choice + (I,) * given + defaults[given:]) for given in range(4)],
            (search_batch.decide_all, (I2, P, I2, I, I1, I1)),
            (choices.options, (st, P, I, opt)), (choices.named_options, (st, P, opt, I)),
            (choices.target_options, (st, P, I, opt, I)), (choices.group_options, (st, P, I, opt, I)),
            (choices.answer_options, (st, P, I, opt)), (choices.play_targeted, (st, P, rng, log, I, I)),
            (choices.answer_jump, (st, I, I)), (jump.resume_window, (st, P, rng, log)),
            (turns.drawn_choice, (st, P, I, I)), (worlds.unknown_pool, (st, P, I, I1)),
            (worlds.sample_world, (st, I, I1, I, rng, I1)),
            (worlds.sample_world_within, (st, I, I1, I, rng, I1, I1, I1))],
    }


def _calls(group: str) -> tuple[list[tuple[Any, tuple[Any, ...]]], Callable[[], None]]:
    calls = _python_calls()[group]

    def go() -> None:
        for fn, sig in calls:
            if hasattr(fn, "compile"):  # not under NUMBA_DISABLE_JIT, where it is plain Python
                fn.compile(sig)

    return calls, go


KERNELS: dict[str, Callable[[], tuple[Any, Callable[[], None]]]] = {
    "hands": _hands, "matches": _matches, "search_hands": _search_hands, "search_matches": _search_matches,
    "trace": _trace, "search_trace": _search_trace, "tournaments": _tournaments, "trace_match": _trace_match,
    "trace_tournament": _trace_tournament,
    "scenarios": lambda: _calls("scenarios"), "decisions": lambda: _calls("decisions")}
"""Every entry point the commands and the tests call: name -> (its dispatcher, or its
functions with their argument types; a call that compiles it)."""


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


def _cached_for(dispatcher: Any, sig: tuple[Any, ...]) -> bool:
    """Whether numba holds machine code for ``dispatcher`` called with the types ``sig``."""
    try:
        magic = dispatcher.targetctx.codegen().magic_tuple()
        return any(key[0] == sig and key[1] == magic for key in dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - as in _cached
        return False


def _warm(name: str) -> bool:
    """Whether kernel ``name`` (every function of it, for the types it is called with) is cached."""
    target = KERNELS[name]()[0]
    if isinstance(target, list):
        return all(_cached_for(fn, sig) for fn, sig in target)
    return _cached(target)


def cold_kernels(names: tuple[str, ...] = tuple(KERNELS)) -> list[str]:
    """The kernels among ``names`` that the next call would compile (none when numba's
    JIT is off: the engine then runs as plain Python)."""
    import numba

    if numba.config.DISABLE_JIT:
        return []
    return [n for n in names if not _warm(n)]


def compile_now(cold: list[str], quiet: bool = False, stream: IO[str] | None = None,
                progress: Callable[[str, float], None] | None = None) -> dict[str, float]:
    """Compile the ``cold`` kernels now, with a line as the compile starts (even ``quiet``)
    and one when it ends; ``progress(name, seconds)`` is called as each kernel is ready.
    Returns the seconds per kernel."""
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
    helper = _start_helper(cold)
    try:
        _compile_in_turn(cold, seconds, progress)
    finally:
        if helper is not None:  # its kernels are all done by now (their locks were waited for)
            helper.terminate()
            helper.wait()
        stop.set()
        if ticker is not None:
            ticker.join()
            stream.write("\r")
    if len(seconds) == len(cold):  # not after an interrupt: nothing was compiled then
        print(f"unosim: engine compiled in {time.monotonic() - t0:.0f} s", file=stream, flush=True)
    return seconds


@contextmanager
def compile_notice(names: tuple[str, ...], quiet: bool = False, stream: IO[str] | None = None) -> Iterator[None]:
    """Before a command's work: compile the ``names`` kernels that are cold first
    (:func:`compile_now`), announced apart from the work that follows."""
    cold = cold_kernels(names)
    if cold:
        compile_now(cold, quiet, stream)
    yield


_PACKAGE = Path(__file__).resolve().parent.parent


@contextmanager
def _compile_lock(name: str, wait: bool) -> Iterator[bool]:
    """Hold kernel ``name``'s compile lock for the block; without ``wait`` the block gets
    False at once if another process holds it."""
    checkout = hashlib.sha1(str(_PACKAGE).encode()).hexdigest()[:8]
    try:
        folder = Path(cache_folder()) / "compiling"
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / f"{name}-{checkout}.lock", "a")  # noqa: SIM115 - closed below
    except OSError:  # a cache folder we cannot write: numba compiles without caching, unlocked
        handle = None
    if fcntl is None or handle is None:
        yield True
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _compile_in_turn(names: list[str], seconds: dict[str, float],
                     progress: Callable[[str, float], None] | None = None) -> None:
    """Compile (or load) every kernel of ``names`` in this process; one that another
    process is compiling is left for last and then loaded from the cache."""
    deferred = []
    for name in names:
        with _compile_lock(name, wait=False) as mine:
            if mine:
                seconds[name] = warm(name)
                if progress is not None:
                    progress(name, seconds[name])
            else:
                deferred.append(name)
    for name in deferred:
        with _compile_lock(name, wait=True):
            seconds[name] = warm(name)
            if progress is not None:
                progress(name, seconds[name])


def _helper_order(names: list[str]) -> list[str]:
    """The order a helper takes the kernels in: from the other end of the list, the search
    kernels first (they share the least with the plain ones this process starts with)."""
    search = [n for n in names if n.startswith("search")]
    return search + [n for n in reversed(names) if n not in search]


def _start_helper(cold: list[str]) -> subprocess.Popen[bytes] | None:
    """A process compiling the kernels of ``cold`` that nobody has taken yet, when there are
    several and numba may use a second core; None otherwise."""
    from unosim.run.workers import max_workers

    if fcntl is None or len(cold) < 2 or max_workers() < 2:
        return None
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(_PACKAGE.parent), os.environ.get("PYTHONPATH"))
                                                      if p))
    return subprocess.Popen([sys.executable, "-m", "unosim.run.warmup", *_helper_order(cold)], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _help(names: list[str]) -> None:
    """The helper's work: each kernel of ``names`` neither cached nor locked elsewhere, compiled."""
    for name in names:
        with _compile_lock(name, wait=False) as mine:
            if mine and not _warm(name):
                warm(name)


def warm(name: str) -> float:
    """Compile (or load) one kernel; the seconds it took."""
    from unosim.interrupts import raise_dropped

    _, go = KERNELS[name]()
    t = time.perf_counter()
    go()
    raise_dropped()  # a signal the compiler's callback from LLVM dropped ends the command here
    return time.perf_counter() - t


def warmup(names: tuple[str, ...] = tuple(KERNELS), quiet: bool = False,
           progress: Callable[[str, float], None] | None = None) -> dict[str, float]:
    """``unosim warmup``: every kernel compiled and cached; seconds per kernel (to compile,
    or to load from the cache), each also given to ``progress`` as it is ready."""
    cold = cold_kernels(names)
    seconds = compile_now(cold, quiet, progress=progress) if cold else {}
    for n in names:
        if n not in seconds:
            seconds[n] = warm(n)
            if progress is not None:
                progress(n, seconds[n])
    return {n: seconds[n] for n in names}


if __name__ == "__main__":
    _help(sys.argv[1:])
