"""`unosim screen` and `unosim design`: rule spaces, their interactions, and rule sets for targets."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import click

from .common import (CLUSTER_HELP, SCHEDULER_HELP, UserError, check_workers, compiling, dask_client, main,
                     not_empty, one_line, out_dir, progress_bar, refuse_nested, user_errors)


def _space(name: str) -> Any:
    from unosim.studies.space import SpaceError, load_space

    with user_errors(SpaceError):
        return load_space(name)


def play_screen(space: Any, out: Path, workers: int | None, scheduler: str | None, cluster: str | None,
                force: bool, quiet: bool) -> dict[str, Any]:
    """Run a space's screen with the progress bar and compile notice every sweep has."""
    from unosim.run.modes import MODES
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError
    from unosim.studies.screen import run_screen
    from unosim.studies.space import SpaceError, design, space_sweep

    with user_errors(SpaceError):
        points = space_sweep(space, design(space)).points
    refuse_nested(out)
    check_workers(workers, scheduler)
    with dask_client(scheduler, cluster, workers) as client:
        bar = progress_bar(quiet, total=space.hands * len(points), unit="hands", unit_scale=True)
        with (user_errors(SpaceError, SweepError, StoreError, ValueError), bar, warnings.catch_warnings(),
              one_line(out), compiling(MODES["hands"], quiet, client, configs=[p.cfg for p in points])):
            warnings.simplefilter("ignore")
            return run_screen(space, out, workers=workers, client=client, force=force, progress=bar.update)


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
    out_path = out_dir(out, "screen_", space.name)
    t0 = time.perf_counter()
    result = play_screen(space, out_path, workers, scheduler, cluster, force, quiet)
    click.echo(screen_text(result, top=5))
    click.echo(f"  {time.perf_counter() - t0:.0f} s in all; the full report: unosim report {out_path}; "
               f"figures: unosim plot {out_path}")


@main.command()
@click.option("--space", "space_file", required=True, metavar="SPACE", help="The rule space (a file or a bundled name).")
@click.option("--target", "targets", multiple=True, required=True, metavar='"FIGURE LOW..HIGH"',
              help='A range a figure must end in, measured with its interval: "turns 25..35".  Repeatable.')
@click.option("--maximize", multiple=True, metavar="FIGURE", help="A figure to raise as far as the targets allow.")
@click.option("--minimize", multiple=True, metavar="FIGURE", help="A figure to lower as far as the targets allow.")
@click.option("--out", type=click.Path(), default=None, callback=not_empty,
              help="Output directory [default: runs/design_<space name>].")
@click.option("--screen", "screen_dir", default=None, metavar="DIR",
              help="The space's screen to search on [default: OUT/screen, run (or resumed) first].")
@click.option("--trials", type=click.IntRange(10, 100_000), default=2000, show_default=True,
              help="Rule sets the search tries on the fitted models.")
@click.option("--candidates", type=click.IntRange(1, 50), default=5, show_default=True,
              help="Sets from the front verified by a direct run.")
@click.option("--verify-hands", type=click.IntRange(100, 10_000_000), default=20_000, show_default=True,
              help="Hands of each direct run (on deals the screen did not play).")
@click.option("--skill-budget", type=click.IntRange(12, 100_000), default=300, show_default=True,
              help="With --maximize skill: tuning evaluations per verified set that meets the targets.")
@click.option("--skill-deals", type=click.IntRange(10, 1_000_000), default=500, show_default=True,
              help="With --maximize skill: deals per tuning evaluation.")
@click.option("--workers", type=int, default=None, help="Cores the kernel uses [default: all].")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def design(space_file: str, targets: tuple[str, ...], maximize: tuple[str, ...], minimize: tuple[str, ...],
           out: str | None, screen_dir: str | None, trials: int, candidates: int, verify_hands: int,
           workers: int | None, quiet: bool, skill_budget: int = 300, skill_deals: int = 500) -> None:
    """Find rule sets of SPACE that meet every --target: an NSGA-II search on the screen's
    fitted models, then a direct run of each proposed set; only measured figures (their 95%
    intervals inside the ranges) count.  Writes each set that meets them as a config file.
    --maximize skill tunes a bot on each such set (`unosim skill`) and ranks them by it."""
    from unosim.studies import design as dz
    from unosim.studies.screen import is_screen, read_screen

    space = _space(space_file)
    with user_errors(dz.DesignError):
        goals = [dz.parse_target(t) for t in targets]
        for option, figs in (("--maximize", maximize), ("--minimize", minimize)):
            for f in figs:
                dz.check_figure(option, f)
    out_path = out_dir(out, "design_", space.name)
    if out_path.is_file() or (out_path.is_dir() and any(out_path.iterdir())
                              and not (out_path / dz.DESIGN_FILE).exists() and not (out_path / "screen").exists()):
        raise UserError(f"--out: {out_path} exists and is not a `unosim design` folder; choose another path")
    out_path.mkdir(parents=True, exist_ok=True)
    if screen_dir is not None:
        if not is_screen(Path(screen_dir)):
            raise UserError(f"--screen: {screen_dir} is not a finished `unosim screen` folder")
        result = read_screen(screen_dir)
        if [f["key"] for f in result["meta"]["factors"]] != [f.key for f in space.factors]:
            raise UserError(f"--screen: {screen_dir} screened other keys than {space.name}; give its space")
    else:
        result = play_screen(space, out_path / "screen", workers, None, None, False, quiet)
    by_skill = "skill" in maximize
    maximize = tuple(f for f in maximize if f != "skill")
    table, front = dz.search(result, goals, list(maximize), list(minimize), trials, space.seed)
    chosen = dz.pick(front, candidates, [f.name for f in space.factors])
    feasible = bool((front["miss"] == 0).all()) if len(front) else False
    with user_errors(ValueError), warnings.catch_warnings(), one_line(out_path / "verify"):
        warnings.simplefilter("ignore")
        measured = dz.verify(space, chosen, out_path / "verify", verify_hands, workers=workers)
    side = dz.side_by_side(space, chosen, measured, goals)
    if by_skill and side["meets"].any():
        keep = [int(i) for i in side.index[side["meets"]]]
        sweep = dz.verify_sweep(space, chosen, verify_hands)
        from unosim.run.jobs import RunError

        with user_errors(RunError, ValueError, OSError), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = dz.skill(sweep, keep, out_path / "skill", budget=skill_budget, deals=skill_deals,
                             check_deals=verify_hands, workers=workers or 1)
        side = side.join(found)
        measured = measured.join(found)
        order = side.sort_values("skill", ascending=False, na_position="last").index
        side, measured, chosen = (side.loc[order].reset_index(drop=True), measured.loc[order].reset_index(drop=True),
                                  chosen.iloc[list(order)].reset_index(drop=True))
    written = dz.write_configs(space, chosen, measured, goals, out_path)
    dz.save(out_path, {"space": space.name, "targets": [str(t) for t in goals], "maximize": maximize,
                       "minimize": minimize, "trials": trials, "written": [p.name for p in written]}, side)
    dz.plot_front(table, front, chosen, measured, goals, list(maximize) + list(minimize), out_path / dz.PARETO_PNG)
    click.echo(f"design over {space.name}: {len(table):,} rule sets tried on the models, {len(front)} on the "
               f"{'front of those predicted to meet every target' if feasible else 'closest miss'}; "
               f"{len(chosen)} verified by {verify_hands:,} hands each on new deals")
    click.echo(dz.render(side, goals))
    click.echo(dz.held_out_text(side))
    if written:
        click.echo("meets every target (measured, 95% intervals inside the ranges): "
                   + ", ".join(str(p) for p in written))
    else:
        t, met, share = dz.hardest(table, side, goals)
        click.echo(f"none found: no verified set meets every target; the hardest is {t} ({met} of {len(side)} "
                   f"verified sets meet it; the models put {share:.1%} of the searched sets inside it)")
    click.echo(f"table: {out_path / dz.TABLE_FILE}; the front: {out_path / dz.PARETO_PNG}")
