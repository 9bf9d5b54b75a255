"""How every `unosim` command ends on a signal: one line, the right exit status.

SIGINT, SIGTERM and SIGHUP are raised in the main thread as a KeyboardInterrupt, so only
whole parts are left; the command says what was kept and how to resume, and exits 128 +
the signal.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any

import click

__all__ = ["Interrupted", "Unosim", "interruptible"]


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread like Ctrl-C's KeyboardInterrupt, so every
    command stops the same way: the write in flight finishes, whole parts stay."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# what an interrupted command leaves: the same command then resumes from it
_KEPT = {
    "run": "every finished part is kept",
    "sweep": "every finished part of every point is kept",
    "league": "every finished part of every table is kept",
    "skill": "every finished point is kept (on Dask every finished replicate and ceiling measurement too)",
    "tune": "the search's mean so far is written as bot.toml when the search was stopped; files written are kept",
    "plot": "the figures written so far are kept",
}


class Unosim(click.Group):
    """The `unosim` group: SIGINT, SIGTERM and SIGHUP end any command in one line, exit 128 +
    the signal, instead of click's bare "Aborted!"."""

    def main(self, args: Any = None, *a: Any, **kw: Any) -> Any:
        self._argv = list(sys.argv[1:] if args is None else args)
        LAST_SIGNAL.clear()  # this command's signal only (tests invoke many in one process)
        DROPPED.clear()
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                try:
                    signal.signal(sig, _raise_interrupted)
                except (ValueError, OSError):  # pragma: no cover - not the main thread
                    pass
        hook = sys.unraisablehook
        sys.unraisablehook = _recording(hook)
        try:
            return super().main(args, *a, **kw)
        finally:
            sys.unraisablehook = hook
            DROPPED.clear()  # the interrupt was this command's: later calls in the process must not see it

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            self._interrupted(ctx, e.signum if isinstance(e, Interrupted) else signal.SIGINT)
        except Exception:
            if not DROPPED:
                raise
            self._interrupted(ctx, DROPPED[-1])  # the error came of the interrupt a callback dropped

    def _interrupted(self, ctx: click.Context, signum: int) -> None:
        import shlex

        # --force again would replace what was just kept
        argv = [str(x) for x in getattr(self, "_argv", []) if x != "--force"]
        name = next((x for x in argv if x in self.commands), "")
        kept = _KEPT.get(name)
        what = signal.Signals(signum).name
        line = (f"unosim: interrupted ({what}); {kept}; resume with: unosim {shlex.join(argv)}" if kept
                else f"unosim: interrupted ({what}); nothing was written")
        click.echo(line, err=True)
        ctx.exit(128 + int(signum))


LAST_SIGNAL: list[int] = []  # the signal that interrupted this process, for commands that catch it themselves


def exit_status() -> int:
    """128 + the signal that interrupted this process (130 for Ctrl-C)."""
    return 128 + (LAST_SIGNAL[-1] if LAST_SIGNAL else 2)


def interruptible(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, a kernel call that releases the GIL, on a helper thread while this
    thread waits in a way a signal ends (the call is then abandoned)."""
    import numba

    threads, chunk = numba.get_num_threads(), numba.get_parallel_chunksize()  # both are per thread in numba
    box: dict[str, Any] = {}

    def call() -> None:
        numba.set_num_threads(threads)
        numba.set_parallel_chunksize(chunk)
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = e

    t = threading.Thread(target=call, name="unosim-kernel", daemon=True)
    t.start()
    while t.is_alive():
        t.join(0.25)
    if "error" in box:
        raise box["error"]
    return box.get("value")


DROPPED: list[int] = []  # signals whose interrupt a callback from C dropped (see _recording)


def _recording(hook: Any) -> Any:
    """An unraisable hook that records, silently, a KeyboardInterrupt Python could not raise:
    one raised in a callback from C (numba's compiler gets one from LLVM as it emits each
    function), which Python would print ("Exception ignored ...", a traceback) and drop; the
    compile then goes on, or fails with an error of its own.  :func:`raise_dropped` and
    :meth:`Unosim.invoke` end the command on it instead."""

    def record(unraisable: Any) -> None:
        if isinstance(unraisable.exc_type, type) and issubclass(unraisable.exc_type, KeyboardInterrupt):
            DROPPED.append(int(getattr(unraisable.exc_value, "signum", signal.SIGINT)))
        else:
            hook(unraisable)

    return record


def raise_dropped() -> None:
    """Raise the interrupt a callback from C dropped, if any (after a compile)."""
    if DROPPED:
        signum = DROPPED[-1]
        raise KeyboardInterrupt() if signum == signal.SIGINT else Interrupted(signum)


def _raise_interrupted(signum: int, frame: Any) -> None:
    LAST_SIGNAL.append(signum)
    raise Interrupted(signum)
