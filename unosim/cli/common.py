"""What every `unosim` command shares: the group (interrupts as one line), one-line user
errors, config loading, the compile notice, the Dask client, result paths."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from unosim import __version__, configure


class UserError(click.ClickException):
    """One clear line and exit status 2."""

    exit_code = 2


SCHEDULER_HELP = ("Send the chunks as tasks to the Dask scheduler at ADDRESS (tcp://host:8786); workers "
                   "write the part files, so --out must be shared storage (see docs/cluster.md).")


CLUSTER_HELP = "local: start a Dask LocalCluster on this machine and run the chunks there."


def compiling(mode: str, quiet: bool, client: Any = None) -> Any:
    """Say at once, on stderr, when this command's kernel must compile first (even --quiet:
    minutes of silence read as a hang); nothing on Dask, whose workers compile."""
    from contextlib import nullcontext

    if client is not None:
        return nullcontext()
    from unosim.run.warmup import compile_notice

    return compile_notice((mode,) if mode in ("matches", "tournaments") else ("hands",), quiet=quiet)


def not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse ``--out ''`` and ``--scheduler ''`` rather than silently taking a default
    (an empty --out was the working directory)."""
    if value is not None and not value.strip():
        raise UserError(f"{param.opts[0]}: must not be empty (leave the option out for its default)")
    return value


@contextmanager
def one_line(out: Path | None = None) -> Iterator[None]:
    """Every failure of a run as one ``Error:`` line: bad options and outputs (RunError,
    StoreError, SweepError, a second writer), and the machine's own (a full disk, a path too
    long): those name the file, and say that every finished part is kept."""
    from unosim.run.integrity import LockedError
    from unosim.run.jobs import RunError
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError

    try:
        yield
    except (RunError, StoreError, SweepError, LockedError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        where = e.filename or out or "the output"
        raise UserError(f"{where}: {e.strerror or e}; every finished part is kept, so the same command "
                        "resumes the run once this is fixed") from None


def load_config_arg(config: str):
    """CONFIG as a path or a bundled name (``standard``), validated."""
    from unosim.rules.bundled import find_config
    from unosim.rules.config import ConfigError, load_config

    try:
        return load_config(find_config(config))
    except (ConfigError, FileNotFoundError) as e:
        raise UserError(str(e)) from None


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
    "skill": "skill.parquet keeps every finished point",
    "tune": "the search's mean so far is written as bot.toml when the search was stopped; files written are kept",
    "plot": "the figures written so far are kept",
}


class _Unosim(click.Group):
    """The `unosim` group: SIGINT, SIGTERM and SIGHUP end any command within moments in
    one line (what was kept, the exact command that resumes), exit 128 + the signal
    (130 for Ctrl-C, 143 for SIGTERM), instead of click's bare "Aborted!"."""

    def main(self, args: Any = None, *a: Any, **kw: Any) -> Any:
        import signal

        self._argv = list(sys.argv[1:] if args is None else args)
        if threading_main():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                try:
                    signal.signal(sig, _raise_interrupted)
                except (ValueError, OSError):  # pragma: no cover - not the main thread
                    pass
        return super().main(args, *a, **kw)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            import shlex
            import signal

            signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
            # --force again would replace what was just kept
            argv = [str(x) for x in getattr(self, "_argv", []) if x != "--force"]
            name = next((x for x in argv if x in self.commands), "")
            kept = _KEPT.get(name)
            what = signal.Signals(signum).name
            line = (f"unosim: interrupted ({what}); {kept}; resume with: unosim {shlex.join(argv)}" if kept
                    else f"unosim: interrupted ({what}); nothing was written")
            click.echo(line, err=True)
            ctx.exit(128 + int(signum))


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted(signum)


@click.group(cls=_Unosim, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unosim")
def main() -> None:
    """Monte Carlo simulation of UNO and its house rules."""
    configure()


def check_workers(workers: int | None, scheduler: str | None) -> None:
    """A bad --workers is refused before any progress bar is drawn (on a Dask scheduler
    only its sign, by :func:`dask_client`: the workers' core counts are theirs to check)."""
    if workers is None or scheduler:  # on a scheduler, dask_client checks it (its sign only)
        return
    from unosim.run.jobs import RunError
    from unosim.run.play import max_workers, set_workers

    try:
        set_workers(workers)
    except RunError as e:
        raise UserError(str(e)) from None
    set_workers(max_workers())  # the run sets its own count; leave numba as it was


def plural(n: int, noun: str) -> str:
    """``1 finished chunk``, ``3 finished chunks``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


INSTEAD = {
    "league": "report one seating of one of its tables (`unosim report DIR/table=0/order=0`), draw it with "
              "`unosim plot DIR` or `unosim report DIR --html FILE`; its leaderboard is DIR/leaderboard.csv",
    "tune": "its tuned bot is DIR/bot.toml (try it with `unosim duel DIR/bot.toml random`)",
    "skill": "give its sweep's dataset to `unosim report` (the skill column is read from here)",
    "plot": "it holds figures only",
}


def report_paths(paths: tuple[str, ...], kinds: tuple[str, ...] = ("run", "sweep")) -> list[Path]:
    """The RESULTS of report, compare and plot: each must exist and be a result file or a
    folder of one of ``kinds`` (by its manifest: a run result, a sweep; a league or a skill
    run where the command draws those); another command's folder is one line saying what
    it is."""
    from unosim.run.guard import folder_kind

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UserError(f"RESULTS: no such file or directory: {', '.join(missing)}")
    for p in paths:
        found = folder_kind(Path(p))
        if found is not None and found[0] not in kinds:
            hint = INSTEAD.get(found[0], "not a result")
            raise UserError(f"RESULTS: {p} is the output of `unosim {found[0]}` ({found[1]}), not a run or sweep "
                            f"result; {hint.replace('DIR', str(p))}")
    return [Path(p) for p in paths]


def is_sweep(path: Path) -> bool:
    """A sweep dataset: written by `unosim sweep`, or any key=value partitioned directory."""
    from unosim.run.sweep import SWEEP_MANIFEST

    if not path.is_dir():
        return False
    if (path / SWEEP_MANIFEST).exists():
        return True
    return any("=" in part for f in path.rglob("*.parquet") for part in f.relative_to(path).parts[:-1])


@contextmanager
def dask_client(scheduler: str | None, cluster: str | None, workers: int | None = None) -> Iterator[Any]:
    """A Dask client for --scheduler / --cluster local, or None (local run, no server)."""
    if scheduler and cluster:
        raise UserError("--scheduler and --cluster: give one of the two")
    if (scheduler or cluster) and workers is not None and workers < 1:
        raise UserError(f"--workers: must be at least 1 (cores per task on each Dask worker); got {workers}")
    if not scheduler and not cluster:
        yield None
        return
    from unosim.run.cluster import ClusterError, connect

    try:
        with connect(scheduler, local=cluster == "local") as client:
            yield client
    except ClusterError as e:
        raise UserError(str(e)) from None
