"""`unosim screen` and `unosim design`: rule spaces, their interactions, and rule sets for targets."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import click

from .common import (CLUSTER_HELP, SCHEDULER_HELP, UserError, check_workers, compiling, dask_client, default_out,
                     main, not_empty, one_line, refuse_nested)


def _space(name: str) -> Any:
    from unosim.studies.space import SpaceError, load_space

    try:
        return load_space(name)
    except SpaceError as e:
        raise UserError(str(e)) from None


def play_screen(space: Any, out: Path, workers: int | None, scheduler: str | None, cluster: str | None,
                force: bool, quiet: bool) -> dict[str, Any]:
    """Run a space's screen with the progress bar and compile notice every sweep has."""
    from tqdm import tqdm

    from unosim.run.modes import MODES
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError
    from unosim.studies.screen import run_screen
    from unosim.studies.space import SpaceError, design, space_sweep

    try:
        points = space_sweep(space, design(space)).points
    except SpaceError as e:
        raise UserError(str(e)) from None
    refuse_nested(out)
    check_workers(workers, scheduler)
    with dask_client(scheduler, cluster, workers) as client:
        bar = tqdm(total=space.hands * len(points), unit="hands", unit_scale=True, file=sys.stderr,
                   disable=True if quiet else None, delay=0.5, leave=False)
        try:
            notice = compiling(MODES["hands"], quiet, client, configs=[p.cfg for p in points])
            with warnings.catch_warnings(), one_line(out), notice:
                warnings.simplefilter("ignore")
                return run_screen(space, out, workers=workers, client=client, force=force, progress=bar.update)
        except (SpaceError, SweepError, StoreError, ValueError) as e:
            raise UserError(str(e)) from None
        finally:
            bar.close()


@main.command()
@click.argument("space_file", metavar="SPACE")
@click.option("--out", type=click.Path(), default=None, callback=not_empty,
              help="Output directory [default: runs/screen_<space name>].")
@click.option("--hands", type=int, default=None, help="Hands per point instead of the space file's.")
@click.option("--workers", type=int, default=None,
              help="Cores the kernel uses [default: all]; with Dask, per task on each worker.")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=not_empty, help=SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=CLUSTER_HELP)
@click.option("--force", is_flag=True, help="Replace an existing screen at --out (its files only).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def screen(space_file: str, out: str | None, hands: int | None, workers: int | None, scheduler: str | None,
           cluster: str | None, force: bool, quiet: bool) -> None:
    """Screen a rule space (SPACE: a TOML space file or a bundled space's name): its design's
    points run as one sweep on the same deals, then per figure the main effects, two-way
    interactions and Sobol indices.  The same command resumes; `unosim report DIR` prints it."""
    import dataclasses
    import time

    from unosim.studies.screen_report import screen_text

    space = _space(space_file)
    if hands is not None:
        if hands < 2:
            raise UserError(f"--hands: at least 2 hands per point (the intervals need two deals), got {hands}")
        space = dataclasses.replace(space, hands=hands)
    out_path = Path(out) if out else default_out("screen_", space.name)
    t0 = time.perf_counter()
    result = play_screen(space, out_path, workers, scheduler, cluster, force, quiet)
    click.echo(screen_text(result, top=5))
    click.echo(f"  {time.perf_counter() - t0:.0f} s in all; the full report: unosim report {out_path}; "
               f"figures: unosim plot {out_path}")
