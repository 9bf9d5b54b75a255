"""`unosim run`, `sweep`, `duel`, `configs`, `warmup`, `repair`: the commands that play."""

from __future__ import annotations

import shutil
import textwrap
import warnings
from pathlib import Path
from typing import Any

import click

from .common import (CLUSTER_HELP, SCHEDULER_HELP, UserError, check_workers, compiling, dask_client, load_config_arg,
                     main, not_empty, one_line, out_dir, plural, progress_bar, refuse_nested, user_errors)


@main.command()
@click.argument("config")
@click.option("--hands", type=int, default=None, help="Independent hands to play [default: 100000].")
@click.option("--games", type=int, default=None, hidden=True)  # the old name of --hands, kept for scripts
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same hands, on any core count.")
@click.option("--out", type=click.Path(), default=None, callback=not_empty,
              help="Result directory [default: runs/<name>.parquet; with --matches runs/<name>.matches.parquet, "
                   "with --tournaments runs/<name>.tournaments.parquet; spaces in <name> become _].")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
@click.option("--chunk-size", type=int, default=200_000, show_default=True, help="Hands per Parquet part file.")
@click.option("--force", is_flag=True, help="Replace an existing unosim result at --out (its files only; anything else is refused).")
@click.option("--resume", is_flag=True,
              help="Rebuild a result whose manifest is missing or damaged from this command and its verified "
                   "parts. An interrupted run resumes without this flag: the same command keeps its finished "
                   "part files and plays the rest (on a finished result it has nothing left to play).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=not_empty, help=SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=CLUSTER_HELP)
@click.option("--matches", type=int, default=None,
              help="Play matches to match_target, scored under S1, S2 and S4, instead of independent hands "
                   "(not with --hands; --chunk-size then counts matches, default 10000).")
@click.option("--max-hands", type=int, default=10_000, show_default=True,
              help="With --matches: stop a match after this many hands (flagged capped).")
@click.option("--rotate-seats", is_flag=True,
              help="Play every hand once per rotation of the bots over the seats (same cards; "
                   "HANDS x players rows with rotation and bot_<s> columns); with --matches every "
                   "match, with --tournaments every tournament (bots rotated over the player numbers).")
@click.option("--tournaments", type=int, default=None,
              help="Play partner-rotation tournaments (T1, 4 or 8 players) instead of independent hands "
                   "(--chunk-size then counts tournaments, default 10000).")
def run(config: str, hands: int | None, games: int | None, seed: int, out: str | None, workers: int | None, chunk_size: int,
        force: bool, resume: bool, quiet: bool, matches: int | None = None, max_hands: int = 10_000,
        scheduler: str | None = None, cluster: str | None = None, rotate_seats: bool = False,
        tournaments: int | None = None) -> None:
    """Play HANDS hands of CONFIG (a TOML file or a bundled name) and write one Parquet row per hand."""
    from click.core import ParameterSource

    from unosim.run.jobs import MODES, RunError, make_job
    from unosim.run.runner import run_job

    ctx = click.get_current_context()
    explicit = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    if hands is not None and games is not None:
        raise UserError("--hands: given twice (--games is its old name)")
    hands = hands if hands is not None else games
    if matches is not None and hands is not None:
        raise UserError("--matches: cannot be combined with --hands (a run plays either independent "
                        "hands or matches)")
    if tournaments is not None and (matches is not None or hands is not None):
        raise UserError("--tournaments: cannot be combined with --hands or --matches")
    if matches is None and ctx.get_parameter_source("max_hands") in explicit:
        raise UserError("--max-hands: caps the hands of a match; give it with --matches")
    if resume and force:
        raise UserError("--resume and --force: give one of the two (--resume rebuilds the result at --out, "
                        "--force replaces it)")
    hands = 100_000 if hands is None else hands
    mode, count = MODES["hands"], hands
    if matches is not None:
        mode, count = MODES["matches"], matches
    if tournaments is not None:
        mode, count = MODES["tournaments"], tournaments
    if rotate_seats:
        mode = mode.with_rotation()
    cfg = load_config_arg(config)
    out_path = out_dir(out, cfg.name, mode.out_suffix, ".parquet")
    refuse_nested(out_path)
    with user_errors(RunError):
        job = make_job(cfg, mode, count, seed, out=out_path,
                       chunk_size=chunk_size if ctx.get_parameter_source("chunk_size") in explicit else None,
                       max_hands=max_hands if matches is not None else None)
    check_workers(workers, scheduler)
    with dask_client(scheduler, cluster, workers) as client:
        # shown only on a terminal, and only from the first progress on (after any compile)
        bar = progress_bar(quiet, total=job.count, unit=job.mode.unit, unit_scale=True)
        with bar, one_line(job.out), compiling(job.mode, quiet, client, cfg):
            summary = run_job(job, workers=workers, client=client, force=force, resume=resume,
                              progress=bar.update)
    where = f", Dask at {scheduler or 'a LocalCluster'}" if client is not None else ""
    for line in _run_lines(job, summary, where):
        click.echo(line)


def _run_lines(job: Any, s: Any, where: str) -> list[str]:
    """What `unosim run` prints after a run (``job``: a Job, ``s``: its Summary); the
    mode says what was played and its figures."""
    cfg = job.cfg
    n = cfg.players
    what = job.mode.what(job, s)
    if s.chunks_skipped:  # a resumed run: what this command played, and what was there
        what = f"{s.units:,} of {job.count:,} {job.mode.units} played now, {job.count - s.units:,} resumed ({n} players)"
    from unosim.run.bots_text import said, seating_text

    lines = [f"{cfg.name}: {what}, seed {job.seed}{where} -> {job.out}", f"  bots: {said(seating_text(cfg.seats))}"]
    lines += job.mode.notes(job)
    lines += [f"  checked: {note}" for note in s.notes]
    if s.chunks_skipped:
        lines.append(f"  resumed: {plural(s.chunks_skipped, 'finished chunk')} "
                     f"{'was' if s.chunks_skipped == 1 else 'were'} kept")
        if s.rows:  # the figures below are this command's alone: say so, and where the whole result's are
            lines.append(f"  the figures below: the {s.units:,} {job.mode.units} played now; "
                         f"`unosim report {job.out}` gives all {job.count:,}")
    if s.rows == 0:
        return lines + ["  nothing left to play: the result was already complete"]
    # the compile, if any, was reported on its own line; this is loading the compiled engine
    start = f", after {s.startup:.1f} s loading the engine" if s.backend == "local" and s.startup >= 0.05 else ""
    return lines + job.mode.figures(job, s, start)


@main.command()
@click.argument("sweep_file", metavar="SWEEP")
@click.option("--out", type=click.Path(), default=None, callback=not_empty,
              help="Dataset directory [default: runs/<sweep name>].")
@click.option("--workers", type=int, default=None,
              help="Cores the kernel uses [default: all]; with Dask, per task on each worker.")
@click.option("--chunk-size", type=int, default=None,
              help="Hands (or matches) per part file [default: the sweep's chunk_size, else 200000].")
@click.option("--hands", type=int, default=None,
              help="Hands per point instead of the sweep file's (a quick look at a big sweep).")
@click.option("--matches", type=int, default=None, help="Matches per point instead of the file's (a sweep of matches).")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=not_empty, help=SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=CLUSTER_HELP)
@click.option("--force", is_flag=True, help="Replace an existing unosim sweep at --out (its files only; anything else is refused).")
@click.option("--resume", is_flag=True, hidden=True,
              help="Accepted for older scripts: the same command always resumes a sweep, and its points rebuild a "
                   "missing manifest from their parts.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def sweep(sweep_file: str, out: str | None, workers: int | None, chunk_size: int | None, scheduler: str | None,
          cluster: str | None, force: bool, resume: bool, quiet: bool, hands: int | None = None,
          matches: int | None = None) -> None:
    """Run every point of SWEEP (a TOML sweep file) into one Parquet dataset, a folder per point.

    Every point plays the same seed, so points differ by their rules only.  The same
    command resumes an interrupted sweep, keeping its finished part files; a changed sweep
    in an existing directory is refused (--force overwrites).  `unosim report DIR` then
    prints the balance report and `unosim plot DIR` its chart."""
    from unosim.run.bots_text import bots_line, said, seating_text
    from unosim.run.summary import wall_seconds
    from unosim.run.sweep import SweepError, load_sweep, run_sweep

    if resume and force:
        raise UserError("--resume and --force: give one of the two (--force replaces the dataset at --out; "
                        "without it the same command resumes)")
    with user_errors(SweepError):
        if hands is not None and matches is not None:
            raise SweepError("--hands: cannot be combined with --matches (a sweep plays one or the other)")
        sw = load_sweep(sweep_file)
        sw = sw.with_count("hands", hands) if hands is not None else sw.with_count("matches", matches)
        sw = sw.with_chunk_size(chunk_size)
    for note in sw.warnings:
        click.echo(f"Warning: {note}", err=True)
    out_path = out_dir(out, sw.name)
    refuse_nested(out_path)
    total = sw.count * len(sw.points)
    check_workers(workers, scheduler)
    with dask_client(scheduler, cluster, workers) as client:
        bar = progress_bar(quiet, total=total, unit=sw.run_mode.unit, unit_scale=True)
        with (bar, warnings.catch_warnings(), one_line(out_path),
              compiling(sw.run_mode, quiet, client, configs=[p.cfg for p in sw.points])):
            warnings.simplefilter("ignore")  # sw.warnings were printed above
            s = run_sweep(sw, out_path, workers=workers, client=client, force=force, resume=resume,
                          progress=bar.update)
    where = f"Dask at {scheduler}" if scheduler else ("a Dask LocalCluster" if cluster else "local")
    click.echo(f"{sw.name}: {len(sw.points)} points x {sw.count:,} {sw.unit} ({sw.mode}), seed {sw.seed}, "
               f"{where} -> {out_path}")
    click.echo(f"  bots: {said(bots_line({p.label: seating_text(p.cfg.seats) for p in sw.points}))}")
    skipped = sum(p.chunks_skipped for p in s)
    rows = sum(p.rows for p in s)
    for p in s:
        for note in p.notes:
            click.echo(f"  checked: {note}")
    if skipped:
        click.echo(f"  resumed: kept {plural(skipped, 'finished chunk')}")
    if not rows:
        click.echo("  nothing left to play: the sweep was already complete")
    if rows:
        seconds = wall_seconds(s)
        rate = rows / seconds if seconds > 0 else float("nan")
        click.echo(f"  {rate:,.0f} hands/s over {rows:,} hands played now")
        width = max(len(p.label) for p in s)
        if skipped:  # a point's figures are of its hands played now, not of the point
            click.echo(f"  the figures below: each point's hands played now; `unosim report {out_path}` gives "
                       f"all {sw.count:,} of each")
        click.echo(f"  {'point':<{width}}  {'hands now' if skipped else 'hands':>10}  {'mean turns':>10}  "
                   f"{'dealer+1 win share':>18}")
        for p in s:
            if p.rows:
                click.echo(f"  {p.label:<{width}}  {p.rows:>10,}  {p.mean_turns:>10.2f}  "
                           f"{p.shares()[1 % p.players]:>18.2%}")
    click.echo(f"  next: unosim report {out_path}")


@main.command()
def configs() -> None:
    """List the bundled configs, sweeps and spaces (usable by name: `unosim run stacking`)."""
    from unosim.rules.bundled import bundled_configs, bundled_sweeps, describe
    from unosim.studies.space import bundled_spaces

    for title, found in (("configs", bundled_configs()), ("sweeps (unosim sweep NAME)", bundled_sweeps()),
                         ("spaces (unosim screen NAME)", bundled_spaces())):
        click.echo(f"{title}:")
        width = max(len(n) for n in found)
        columns = max(60, shutil.get_terminal_size().columns - 1)
        for name, path in found.items():  # whole sentences, wrapped under their column
            click.echo(textwrap.fill(describe(path), columns, initial_indent=f"  {name:<{width}}  ",
                                     subsequent_indent=" " * (width + 4)))


@main.command()
@click.option("--quiet", is_flag=True, help="Print nothing but the compile notice.")
def warmup(quiet: bool) -> None:
    """Compile every kernel now (first run only, a few minutes; two cores share it) so later commands start at once."""
    from unosim.run.warmup import KERNELS
    from unosim.run.warmup import warmup as compile_all

    done: list[str] = []

    def ready(name: str, t: float) -> None:  # a line per kernel as it is ready: a long compile shows progress
        done.append(name)
        if not quiet:
            click.echo(f"  {name}: ready in {t:.1f} s ({len(done)}/{len(KERNELS)})")

    seconds = compile_all(progress=ready)
    if not quiet:
        click.echo(f"unosim: every kernel is compiled and cached ({sum(seconds.values()):.1f} s)")


@main.command()
@click.argument("directory", metavar="DIR")
def repair(directory: str) -> None:
    """Rebuild the manifest of the result DIR from its parts and check every part.

    For a result whose _unosim.json was lost or damaged (a full disk): every verified part
    is kept, a damaged one set aside in DIR/_rejected/; the run's own command then finishes it."""
    from unosim.run.repair import repair as rebuild

    with one_line(Path(directory)):
        for line in rebuild(directory):
            click.echo(line)


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--players", type=int, default=None,
              help="Players at the table [default: the --config's, else 2].")
@click.option("--hands", type=int, default=None,
              help="Deals; each is played in every seating of A and B (see below).  [default: 20000]")
@click.option("--matches", type=int, default=None,
              help="Play this many matches to the config's match_target (S1) per seating instead of hands.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--others", default=None,
              help="A bot for the seats A and B leave [default: none; A and B fill the table].")
@click.option("--config", "config", default=None, help="Rules from this config (its [bots] are replaced).")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
def duel(a: str, b: str, players: int | None, hands: int | None, matches: int | None, seed: int, others: str | None,
         config: str | None, workers: int | None) -> None:
    """Bot A against bot B in every seat pattern: win shares and A - B with 95% intervals.

    Without --others: A alone at a table of B's and B alone at a table of A's, every
    rotation (heads-up: the two face each other from both seats).  With --others: A and B
    at a table of that bot in every placement and rotation.  `duel B A` reports minus the
    difference of `duel A B`.  A bot is a strategy name, name:param=value,... (e.g.
    counter:suspicion=0.5) or a bot file (.toml), labelled by its name.  With --matches:
    shares of matches won to the config's match_target (500 by default, S1), paired by
    match."""
    from unosim.rules.config import ConfigError
    from unosim.run.warmup import compile_notice
    from unosim.studies.duel import duel as play_duel
    from unosim.studies.duel import duel_kernels, duel_matches, render, render_matches
    from unosim.run.jobs import RunError

    if hands is not None and matches is not None:
        raise UserError("--hands and --matches: give one of the two (a duel plays hands or matches)")
    with user_errors(ConfigError, RunError):
        cfg = load_config_arg(config, "--config") if config is not None else None
        if players is None:  # a config's table size, as league and tune take it; a config never changed silently
            players = cfg.players if cfg is not None else 2
        kernels = duel_kernels(a, b, players=players, seed=seed, others=others, cfg=cfg, matches=matches is not None)
        with compile_notice(kernels):  # said before the first deal: a cold compile takes minutes
            if matches is not None:
                lines = render_matches(duel_matches(a, b, players=players, matches=matches, seed=seed, others=others,
                                                    cfg=cfg, workers=workers))
            else:
                lines = render(play_duel(a, b, players=players, hands=20_000 if hands is None else hands, seed=seed,
                                         others=others, cfg=cfg, workers=workers))
    for line in lines:
        click.echo(line)
