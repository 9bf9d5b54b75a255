"""The `unosim` command: parse, call the Python API, print.  Nothing else lives here.

Every user error (bad config, bad option, unusable path) ends as one ``Error: ...`` line
naming the key or option, with exit status 2; tracebacks are for bugs only.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from . import __version__


class UserError(click.ClickException):
    """One clear line and exit status 2."""

    exit_code = 2


_SCHEDULER_HELP = ("Send the chunks as tasks to the Dask scheduler at ADDRESS (tcp://host:8786); workers "
                   "write the part files, so --out must be shared storage (see docs/cluster.md).")
_CLUSTER_HELP = "local: start a Dask LocalCluster on this machine and run the chunks there."


def _load(config: str):
    """CONFIG as a path or a bundled name (``standard``), validated."""
    from unosim.rules.bundled import find_config
    from unosim.rules.config import ConfigError, load_config

    try:
        return load_config(find_config(config))
    except (ConfigError, FileNotFoundError) as e:
        raise UserError(str(e)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unosim")
def main() -> None:
    """Monte Carlo simulation of UNO and its house rules."""


@main.command()
@click.argument("config")
@click.option("--games", type=int, default=100_000, show_default=True, help="Independent hands to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same hands, on any core count.")
@click.option("--out", type=click.Path(), default=None, help="Result directory [default: runs/<name>.parquet].")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
@click.option("--chunk-size", type=int, default=200_000, show_default=True, help="Hands per Parquet part file.")
@click.option("--force", is_flag=True, help="Replace an existing unosim result at --out (its files only; anything else is refused).")
@click.option("--resume", is_flag=True,
              help="Also accept a finished result as it is. An interrupted run resumes without this flag: "
                   "the same command keeps its finished part files and plays the rest.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help=_SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=_CLUSTER_HELP)
@click.option("--matches", type=int, default=None,
              help="Play matches to match_target under S1 and S2 instead of independent hands "
                   "(not with --games; --chunk-size then counts matches, default 10000).")
@click.option("--max-hands", type=int, default=10_000, show_default=True,
              help="With --matches: stop a match after this many hands (flagged capped).")
@click.option("--rotate-seats", is_flag=True,
              help="Play every hand once per rotation of the bots over the seats (same cards; "
                   "GAMES x players rows with rotation and bot_<s> columns).")
def run(config: str, games: int, seed: int, out: str | None, workers: int | None, chunk_size: int,
        force: bool, resume: bool, quiet: bool, matches: int | None = None, max_hands: int = 10_000,
        scheduler: str | None = None, cluster: str | None = None, rotate_seats: bool = False) -> None:
    """Play GAMES hands of CONFIG (a TOML file or a bundled name) and write one Parquet row per hand."""
    if rotate_seats and (scheduler or cluster or matches is not None):
        raise UserError("--rotate-seats: only for independent hands on this machine "
                        "(not with --matches, --scheduler or --cluster)")
    if scheduler or cluster:
        _run_dask(config, games, seed, out, workers, chunk_size, force, resume, quiet, matches, max_hands,
                  scheduler, cluster)
        return
    if matches is not None:
        _run_matches(config, matches, seed, out, workers, chunk_size, force, resume, quiet, max_hands)
        return
    from tqdm import tqdm

    from unosim.run.runner import RunError, run_hands
    from unosim.run.store import StoreError

    if games < 1:
        raise UserError(f"--games: must be at least 1 (got {games})")
    cfg = _load(config)
    out_path = Path(out) if out else Path("runs") / f"{cfg.name}.parquet"
    bar = tqdm(total=games, unit="hand", unit_scale=True, file=sys.stderr, disable=quiet, leave=False)
    try:
        summary = run_hands(cfg, games, seed, out_path, workers=workers, chunk_size=chunk_size,
                            force=force, resume=resume, progress=bar.update, rotate_seats=rotate_seats)
    except (RunError, StoreError) as e:
        raise UserError(str(e)) from None
    finally:
        bar.close()
    click.echo(f"{cfg.name}: {summary.hands:,} hands of {cfg.players} players, seed {seed} -> {out_path}")
    if rotate_seats:
        click.echo(f"  {games:,} deals x {cfg.players} seat rotations; win share by bot: unosim report {out_path}")
    if summary.chunks_skipped:
        click.echo(f"  resumed: {summary.chunks_skipped} finished chunks were kept")
    if summary.hands == 0:
        click.echo("  nothing left to play: the result was already complete")
        return
    click.echo(f"  {summary.hands_per_s:,.0f} hands/s ({summary.seconds:.1f} s, after {summary.startup:.1f} s "
               f"loading the engine); mean {summary.mean_turns:.2f} turns per hand; {summary.stalled:,} stalled")
    shares = summary.shares()
    labels = ["dealer"] + [f"dealer+{i}" for i in range(1, cfg.players)]
    click.echo("  winner's seat relative to the dealer:")
    click.echo("    " + "  ".join(f"{lab} {s:6.2%}" for lab, s in zip(labels, shares)))


def _run_matches(config: str, matches: int, seed: int, out: str | None, workers: int | None, chunk_size: int,
                 force: bool, resume: bool, quiet: bool, max_hands: int) -> None:
    """`unosim run --matches N`: match play (S1-S3), one row per hand, then a summary."""
    from click.core import ParameterSource
    from tqdm import tqdm

    from unosim.run.matches import DEFAULT_MATCH_CHUNK, run_matches
    from unosim.run.runner import RunError
    from unosim.run.store import StoreError

    ctx = click.get_current_context()
    explicit = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    if ctx.get_parameter_source("games") in explicit:
        raise UserError("--matches: cannot be combined with --games (a run plays either independent "
                        "hands or matches)")
    if matches < 1:
        raise UserError(f"--matches: must be at least 1 (got {matches})")
    if ctx.get_parameter_source("chunk_size") not in explicit:
        chunk_size = DEFAULT_MATCH_CHUNK
    cfg = _load(config)
    out_path = Path(out) if out else Path("runs") / f"{cfg.name}.matches.parquet"
    bar = tqdm(total=matches, unit="match", unit_scale=True, file=sys.stderr, disable=quiet, leave=False)
    try:
        s = run_matches(cfg, matches, seed, out_path, workers=workers, chunk_size=chunk_size, force=force,
                        resume=resume, progress=bar.update, max_hands=max_hands)
    except (RunError, StoreError) as e:
        raise UserError(str(e)) from None
    finally:
        bar.close()
    click.echo(f"{cfg.name}: {s.matches:,} matches to {cfg.match_target} of {cfg.players} players "
               f"({s.hands:,} hands), seed {seed} -> {out_path}")
    if s.chunks_skipped:
        click.echo(f"  resumed: {s.chunks_skipped} finished chunks were kept")
    click.echo(f"  {s.matches_per_s:,.0f} matches/s ({s.seconds:.1f} s, after {s.startup:.1f} s loading the engine); "
               f"{s.stalled:,} stalled hands; {s.capped:,} matches capped at {max_hands:,} hands")
    labels = ["first dealer"] + [f"+{i}" for i in range(1, cfg.players)]
    systems = [("pos", "S1 positive")] + ([] if cfg.finish == "last_standing" else [("neg", "S2 negative")])
    for key, name in systems:
        click.echo(f"  {name}: mean {s.mean_hands(key):.2f} hands per match; match win share by seat "
                   "after the first dealer (ties shared):")
        click.echo("    " + "  ".join(f"{lab} {v:6.2%}" for lab, v in zip(labels, s.shares(key))))


@main.command()
@click.argument("config")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--hand", type=int, default=0, show_default=True, help="Index of the hand in the run.")
def trace(config: str, seed: int, hand: int) -> None:
    """Print hand HAND of a run of CONFIG, play by play."""
    from .trace import describe

    if not 0 <= hand < 2**63:
        raise UserError(f"--hand: must be between 0 and 2**63-1 (got {hand})")
    if not 0 <= seed < 2**63:
        raise UserError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    cfg = _load(config)
    for line in describe(cfg, seed, hand):
        click.echo(line)


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every config key with its default, allowed values and rule id."""
    from unosim.rules.config import describe_keys, rules_markdown

    if fmt == "markdown":
        click.echo(rules_markdown())
        return
    rows = describe_keys()
    width = max(len(r["key"]) for r in rows)
    for r in rows:
        flag = "" if r["built"] else "  (not supported yet)"
        ids = " ".join(r["rules"])
        click.echo(f"{r['key']:<{width}}  {ids:<9} default {r['default']!r}; {r['allowed']}{flag}")
        click.echo(f"{'':<{width}}  {r['description']}")


def _report_paths(paths: tuple[str, ...]) -> list[Path]:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UserError(f"RESULTS: no such file or directory: {', '.join(missing)}")
    return [Path(p) for p in paths]


def _is_sweep(path: Path) -> bool:
    """A sweep dataset: written by `unosim sweep`, or any key=value partitioned directory."""
    from unosim.run.sweep import SWEEP_MANIFEST

    if not path.is_dir():
        return False
    if (path / SWEEP_MANIFEST).exists():
        return True
    return any("=" in part for f in path.rglob("*.parquet") for part in f.relative_to(path).parts[:-1])


@main.command()
@click.argument("results", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]), default="text",
              show_default=True)
@click.option("--view", type=click.Choice(["auto", "summary", "balance"]), default="auto", show_default=True,
              help="auto: the balance report (each rule change against the base point) for one sweep "
                   "directory, else the summary.")
def report(results: tuple[str, ...], fmt: str, view: str = "auto") -> None:
    """Summarise one or more result files or directories (a sweep: its balance report)."""
    from unosim.analysis import report as rp

    paths = _report_paths(results)
    sweep_dir = len(paths) == 1 and _is_sweep(paths[0])
    if view == "balance" and not sweep_dir:
        raise UserError("--view balance: give one sweep directory (written by `unosim sweep`)")
    try:
        if view == "balance" or (view == "auto" and sweep_dir):
            click.echo(rp.render(rp.balance_report(paths[0]), fmt))
        else:
            click.echo(rp.render(rp.summarize(paths), fmt))
    except (ValueError, OSError) as e:
        raise UserError(str(e)) from None


@main.command()
@click.argument("baseline")
@click.argument("others", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]), default="text",
              show_default=True)
def compare(baseline: str, others: tuple[str, ...], fmt: str) -> None:
    """Compare results against BASELINE: differences with intervals and effect sizes."""
    from unosim.analysis import report as rp

    base = _report_paths((baseline,))[0]
    paths = _report_paths(others)
    try:
        click.echo(rp.render(rp.compare(base, paths), fmt))
    except (ValueError, OSError) as e:
        raise UserError(str(e)) from None


@main.command()
@click.argument("results", nargs=-1, required=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="plots", show_default=True)
def plot(results: tuple[str, ...], out_dir: str) -> None:
    """Write PNG figures for the results into --out."""
    from unosim.analysis.plots import plot_all

    paths = _report_paths(results)
    try:
        written = plot_all(paths, out_dir)
    except (ValueError, OSError) as e:
        raise UserError(str(e)) from None
    for p in written:
        click.echo(str(p))


@contextmanager
def _dask_client(scheduler: str | None, cluster: str | None) -> Iterator[Any]:
    """A Dask client for --scheduler / --cluster local, or None (local run, no server)."""
    if scheduler and cluster:
        raise UserError("--scheduler and --cluster: give one of the two")
    if not scheduler and not cluster:
        yield None
        return
    from unosim.run.cluster import ClusterError, connect

    try:
        with connect(scheduler, local=cluster == "local") as client:
            yield client
    except ClusterError as e:
        raise UserError(str(e)) from None


def _run_dask(config: str, games: int, seed: int, out: str | None, workers: int | None, chunk_size: int,
              force: bool, resume: bool, quiet: bool, matches: int | None, max_hands: int,
              scheduler: str | None, cluster: str | None) -> None:
    """`unosim run --scheduler ADDRESS | --cluster local`: the chunks as Dask tasks; the same
    part files as a local run (see unosim.run.cluster)."""
    from click.core import ParameterSource
    from tqdm import tqdm

    from unosim.run.runner import RunError
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError, execute, run_job

    cfg = _load(config)
    ctx = click.get_current_context()
    explicit = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    try:
        if matches is not None:
            from unosim.run.matches import DEFAULT_MATCH_CHUNK

            if ctx.get_parameter_source("games") in explicit:
                raise UserError("--matches: cannot be combined with --games")
            if ctx.get_parameter_source("chunk_size") not in explicit:
                chunk_size = DEFAULT_MATCH_CHUNK
            out_path = Path(out) if out else Path("runs") / f"{cfg.name}.matches.parquet"
            job = run_job(cfg, matches, seed, out_path, chunk_size, unit="matches", max_hands=max_hands)
        else:
            out_path = Path(out) if out else Path("runs") / f"{cfg.name}.parquet"
            job = run_job(cfg, games, seed, out_path, chunk_size)
        job.prepare(force=force, resume=resume)
    except (RunError, StoreError, SweepError) as e:
        raise UserError(str(e)) from None
    with _dask_client(scheduler, cluster) as client:
        bar = tqdm(total=job.count, unit="match" if matches else "hand", unit_scale=True, file=sys.stderr,
                   disable=quiet, leave=False)
        try:
            s = execute([job], workers=workers, client=client, progress=bar.update)
        except (RunError, StoreError, SweepError) as e:
            raise UserError(str(e)) from None
        finally:
            bar.close()
    p = s.points[0]
    what = f"{p.units:,} matches ({p.rows:,} hands)" if matches else f"{p.rows:,} hands"
    click.echo(f"{cfg.name}: {what} of {cfg.players} players, seed {seed}, "
               f"Dask at {scheduler or 'a LocalCluster'} -> {out_path}")
    if s.chunks_skipped:
        click.echo(f"  resumed: {s.chunks_skipped} finished chunks were kept")
    click.echo(f"  {s.rows_per_s:,.0f} hands/s; mean {p.mean_turns:.2f} turns per hand; {p.stalled:,} stalled")
    if not matches:
        labels = ["dealer"] + [f"dealer+{i}" for i in range(1, cfg.players)]
        click.echo("  winner's seat relative to the dealer:")
        click.echo("    " + "  ".join(f"{lab} {v:6.2%}" for lab, v in zip(labels, p.shares())))


@main.command()
@click.argument("sweep_file", metavar="SWEEP")
@click.option("--out", type=click.Path(), default=None, help="Dataset directory [default: runs/<sweep name>].")
@click.option("--workers", type=int, default=None,
              help="Cores the kernel uses [default: all]; with Dask, per task on each worker.")
@click.option("--chunk-size", type=int, default=None,
              help="Hands (or matches) per part file [default: the sweep's chunk_size, else 200000].")
@click.option("--scheduler", default=None, metavar="ADDRESS", help=_SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=_CLUSTER_HELP)
@click.option("--force", is_flag=True, help="Replace an existing unosim sweep at --out (its files only; anything else is refused).")
@click.option("--resume", is_flag=True,
              help="Also accept a finished dataset as it is (an unfinished one resumes without this flag).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def sweep(sweep_file: str, out: str | None, workers: int | None, chunk_size: int | None, scheduler: str | None,
          cluster: str | None, force: bool, resume: bool, quiet: bool) -> None:
    """Run every point of SWEEP (a TOML sweep file) into one hive-partitioned Parquet dataset.

    Every point plays the same seed, so points differ by their rules only.  The same
    command resumes an interrupted sweep, keeping its finished part files; a changed sweep
    in an existing directory is refused (--force overwrites).  `unosim report DIR` then
    prints the balance report and `unosim plot DIR` its chart."""
    from tqdm import tqdm

    from unosim.run.runner import RunError
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError, load_sweep, run_sweep

    try:
        sw = load_sweep(sweep_file).with_chunk_size(chunk_size)
    except SweepError as e:
        raise UserError(str(e)) from None
    for note in sw.warnings:
        click.echo(f"Warning: {note}", err=True)
    out_path = Path(out) if out else Path("runs") / sw.name
    total = sw.count * len(sw.points)
    with _dask_client(scheduler, cluster) as client:
        bar = tqdm(total=total, unit=sw.unit[:-2] if sw.unit == "matches" else "hand", unit_scale=True,
                   file=sys.stderr, disable=quiet, leave=False)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # sw.warnings were printed above
                s = run_sweep(sw, out_path, workers=workers, client=client, force=force, resume=resume,
                              progress=bar.update)
        except (RunError, StoreError, SweepError) as e:
            raise UserError(str(e)) from None
        finally:
            bar.close()
    where = f"Dask at {scheduler}" if scheduler else ("a Dask LocalCluster" if cluster else "local")
    click.echo(f"{sw.name}: {len(sw.points)} points x {sw.count:,} {sw.unit} ({sw.mode}), seed {sw.seed}, "
               f"{where} -> {out_path}")
    if s.chunks_skipped:
        click.echo(f"  resumed: kept {s.chunks_skipped} finished chunks")
    if s.rows:
        click.echo(f"  {s.rows_per_s:,.0f} hands/s over {s.rows:,} hands played now")
        width = max(len(p.label) for p in s.points)
        click.echo(f"  {'point':<{width}}  {'hands':>10}  {'mean turns':>10}  {'dealer+1 wins':>13}")
        for p in s.points:
            if p.rows:
                click.echo(f"  {p.label:<{width}}  {p.rows:>10,}  {p.mean_turns:>10.2f}  "
                           f"{p.shares()[1 % p.players]:>13.2%}")
    click.echo(f"  next: unosim report {out_path}")


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--players", type=int, default=2, show_default=True, help="Players at the table.")
@click.option("--hands", type=int, default=20_000, show_default=True,
              help="Deals; each is played once per seat rotation (HANDS x players hands).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--others", default="random", show_default=True, help="The bot at every other seat.")
@click.option("--config", "config", default=None, help="Rules from this config (its [bots] are replaced).")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
def duel(a: str, b: str, players: int, hands: int, seed: int, others: str, config: str | None,
         workers: int | None) -> None:
    """Bot A at seat 0 against bot B at seat 1, seats rotated: win shares with 95% intervals.

    A bot is a strategy name, or name:param=value,... (e.g. counter:suspicion=0.5)."""
    from unosim.rules.config import ConfigError
    from unosim.run.duel import duel as play_duel
    from unosim.run.duel import render
    from unosim.run.runner import RunError

    try:
        res = play_duel(a, b, players=players, hands=hands, seed=seed, others=others,
                        cfg=_load(config) if config else None, workers=workers)
    except (ConfigError, RunError) as e:
        raise UserError(str(e)) from None
    for line in render(res):
        click.echo(line)


if __name__ == "__main__":  # pragma: no cover
    main()
