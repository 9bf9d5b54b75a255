"""What every `unosim` command shares: the group (interrupts as one line, unosim.interrupts),
one-line user errors, config loading, the compile notice, the Dask client, result paths."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import click

from unosim import __version__, configure
from unosim.interrupts import Unosim


class UserError(click.ClickException):
    """One clear line and exit status 2."""

    exit_code = 2


SCHEDULER_HELP = ("Send the chunks as tasks to the Dask scheduler at ADDRESS (tcp://host:8786); workers "
                   "write the part files, so --out must be shared storage (see docs/cluster.md).")


CLUSTER_HELP = "local: start a Dask LocalCluster on this machine and run the chunks there."


@contextmanager
def user_errors(*kinds: type[Exception]) -> Iterator[None]:
    """Any of ``kinds`` raised inside as a one-line :class:`UserError` of its message."""
    try:
        yield
    except kinds as e:
        raise UserError(str(e)) from None


def compiling(mode: Any, quiet: bool, client: Any = None, cfg: Any = None, configs: Sequence[Any] = ()) -> Any:
    """Say at once on stderr (even --quiet) when a kernel of this command's run mode must
    compile first; nothing on Dask, whose workers compile.  ``cfg`` or ``configs``: the run's
    configs, whose search seats choose the search tables' kernel."""
    if client is not None:
        return nullcontext()
    from unosim.run.warmup import compile_notice, kernel_for

    kind = mode.file_mode  # a mode's parts name the kernel that wrote them
    tables = [cfg] if cfg is not None else list(configs)
    return compile_notice(tuple(sorted({kernel_for(kind, c) for c in tables})) or (kind,), quiet=quiet)


def out_dir(out: str | None, *parts: str) -> Path:
    """A command's output folder: ``--out``, or when it is not given ``runs/<parts joined>``,
    a name's spaces as ``_``."""
    return Path(out) if out else Path("runs") / "".join(parts).replace(" ", "_")


def not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse ``--out ''`` and ``--scheduler ''`` rather than silently taking a default
    (an empty --out was the working directory)."""
    if value is not None and not value.strip():
        raise UserError(f"{param.opts[0]}: must not be empty (leave the option out for its default)")
    return value


def refuse_nested(out: Path, option: str = "--out") -> None:
    """Refuse an output folder that lies inside another unosim output whose files it would
    become part of or replace."""
    from unosim.run.guard import enclosing_output

    found = enclosing_output(out)
    if found is not None:
        root, kind, why = found
        raise UserError(f"{option}: {out} lies inside {root}, the output of `unosim {kind}` ({why}); choose a "
                        f"path outside it (a folder inside a unosim output is that command's to write)")


@contextmanager
def one_line(out: Path | None = None) -> Iterator[None]:
    """Every failure of a run as one ``Error:`` line; the machine's own (a full disk, a path
    too long) name the file and say that every finished part is kept."""
    from unosim.run.integrity import LockedError
    from unosim.run.jobs import RunError
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError

    try:
        with user_errors(RunError, StoreError, SweepError, LockedError):
            yield
    except OSError as e:
        where = e.filename or out or "the output"
        raise UserError(f"{where}: {e.strerror or e}; every finished part is kept, so the same command "
                        "resumes the run once this is fixed") from None
    except MemoryError as e:  # a chunk larger than this process may allocate (ulimit -v, a small machine)
        need = str(e).partition("allocate ")[2].partition(" for")[0]
        raise UserError(f"out of memory{f' (a chunk needed {need} more)' if need else ''}: give a smaller "
                        "--chunk-size (or fewer hands, so the default chunks are smaller); every finished part "
                        "is kept, so the same command resumes the run") from None


def load_config_arg(config: str, option: str = "CONFIG"):
    """CONFIG (or the option ``option``) as a path or a bundled name (``standard``), validated."""
    from unosim.rules.bundled import find_config
    from unosim.rules.config import ConfigError, load_config

    if not config.strip():  # an empty path is the working directory, never what was meant
        raise UserError(f"{option}: empty; give a config file or a bundled config's name (`unosim configs` lists them)")
    with user_errors(ConfigError, FileNotFoundError):
        return load_config(find_config(config))


@click.group(cls=Unosim, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unosim")
def main() -> None:
    """Monte Carlo simulation of UNO and its house rules."""
    configure()


def check_workers(workers: int | None, scheduler: str | None = None) -> int | None:
    """The cores --workers stands for (all when None), a bad one refused before any progress
    bar is drawn; on a Dask scheduler ``workers`` as given (only its sign is checked, by
    :func:`dask_client`: the workers' core counts are theirs to check)."""
    if scheduler:
        return workers
    from unosim.run.jobs import RunError
    from unosim.run.workers import check_workers

    with user_errors(RunError):
        return check_workers(workers)


def plural(n: int, noun: str) -> str:
    """``1 finished chunk``, ``3 finished chunks``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def report_paths(paths: tuple[str, ...], also: tuple[str, ...] = ()) -> list[Path]:
    """The RESULTS of report, compare and plot: each must exist and be a run result, a sweep,
    a result file or the output of a command in ``also``."""
    from unosim.run.guard import not_a_result

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UserError(f"RESULTS: no such file or directory: {', '.join(missing)}")
    for p in paths:
        if (why := not_a_result(Path(p), also)) is not None:
            raise UserError(f"RESULTS: {why}")
    return [Path(p) for p in paths]


def guarded(dest: Path, kind: str, identity: dict[str, Any], force: bool, names: Any,
            extends: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """The output guard (unosim.run.guard) of a command, its refusals as one line: the
    stack holding it (``with stack:`` around the command's work) and the guarded folder."""
    from contextlib import ExitStack

    from unosim.run.guard import GuardError, guard_output
    from unosim.run.integrity import LockedError

    stack = ExitStack()
    with user_errors(GuardError, LockedError):
        g = stack.enter_context(guard_output(dest, kind, identity, force=force, names=tuple(names), extends=extends))
    for note in g.notes:
        click.echo(f"Warning: {note}", err=True)
    return stack, g


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

    with user_errors(ClusterError), connect(scheduler, local=cluster == "local") as client:
        yield client


@contextmanager
def warnings_as_lines(category: type[Warning]) -> Iterator[None]:
    """Warnings of ``category`` as one ``Warning:`` line on stderr, every time; other warnings
    as Python shows them."""
    import warnings

    shown = warnings.showwarning

    def show(message: Any, cat: type[Warning], *args: Any, **kw: Any) -> None:
        if issubclass(cat, category):
            click.echo(f"Warning: {message}", err=True)
        else:
            shown(message, cat, *args, **kw)

    with warnings.catch_warnings():
        warnings.simplefilter("always", category)
        warnings.showwarning = show
        yield


class _NoBar(nullcontext):
    """The progress bar where none is drawn (a context manager, as a tqdm bar is)."""

    def update(self, n: float = 1) -> None:
        pass

    def set_postfix_str(self, s: str) -> None:
        pass


def progress_bar(quiet: bool, **options: Any) -> Any:
    """A tqdm bar on stderr, drawn from half a second on and cleared at the end; with
    ``--quiet`` or off a terminal none is drawn and tqdm is not even imported."""
    if quiet or not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm

    return tqdm(file=sys.stderr, delay=0.5, leave=False, **options)
