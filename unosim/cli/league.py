"""`unosim league`: parse, call unosim.studies.league, print (errors as in :mod:`.skill`)."""

from __future__ import annotations

from typing import Any

import click

from .common import load_config_arg, main, not_empty, one_line, out_dir, progress_bar, refuse_nested, user_errors
from .skill import _bots

__all__ = ["league"]


@main.command()
@click.argument("config")
@click.option("--bots", "bots", multiple=True, required=True,
              help="The bots: strategies, name:param=value,... or bot files, comma-separated (or repeated).")
@click.option("--out", type=click.Path(file_okay=False), default=None, callback=not_empty,
              help="Result directory [default: runs/league-<config>-<n>p].")
@click.option("--deals", type=int, default=2000, show_default=True,
              help="Deals per table, each played in every seating of its bots (n! hands: 2 heads-up, 24 at 4).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=int, default=None, help="Seats per table [default: the config's].")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
@click.option("--force", is_flag=True, help="Replace a different league at --out.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def league(config: str, bots: tuple[str, ...], out: str | None, deals: int, seed: int, players: int | None,
           workers: int | None, force: bool, quiet: bool) -> None:
    """Every combination of the bots at tables of CONFIG's size, each table in every
    seating of its bots, the same deals at every table; a Plackett-Luce strength per bot
    with 95% intervals from a bootstrap of the deals, and the fit's goodness."""
    from unosim.run.jobs import RunError
    from unosim.run.warmup import compile_notice
    from unosim.studies.league import (LEADERBOARD, LEADERBOARD_PNG, POOR_FIT, fit_league, make_league, render_league,
                                       run_league, write_owned)
    from unosim.analysis.skill_plots import plot_league

    cfg = load_config_arg(config)
    found = _bots(bots, "--bots")
    with user_errors(RunError):
        lg = make_league(cfg, found, players=players, deals=deals, seed=seed)
    dest = out_dir(out, f"league-{cfg.name}-{lg.players}p")
    refuse_nested(dest)
    bar = progress_bar(quiet, total=deals * len(lg.tables) * lg.orders, unit="deal", unit_scale=True)
    fitted: list[Any] = []

    def finish() -> None:  # under the league's lock: its own files, atomically
        fit: list = []
        table = fit_league(lg, dest, fit=fit)
        fitted.append((table, fit[0]))
        f = fit[0]
        poor = f.p is not None and f.p < POOR_FIT
        notes = [write_owned(dest, LEADERBOARD, lambda p: table.to_csv(p, index=False))]
        notes.append(write_owned(dest, LEADERBOARD_PNG, lambda p: plot_league(
            table, f"League under {cfg.name}, tables of {lg.players} in every seating: strength with 95% "
            f"intervals" + (f"\nthe model does not fit these tables (p = {f.p:.2g}): a summary, not a prediction"
                           if poor else ""), p)))
        for note in filter(None, notes):
            click.echo(f"Warning: {note}", err=True)

    kernels = ("hands", "search_hands") if any(bot.strategy == "search" for bot in lg.bots) else ("hands",)
    with bar, one_line(dest), compile_notice(kernels, quiet=quiet):
        summaries = run_league(lg, dest, workers=workers, force=force, progress=bar.update, finish=finish)
    for s in summaries:
        for note in s.notes:
            click.echo(f"  checked: {note}")
    table, f = fitted[0]
    for line in render_league(table, lg, f):
        click.echo(line)
    click.echo(f"wrote {dest} (rows: one per hand under table-<k>-order-<j>, bot_<seat> columns); the leaderboard: "
               f"{dest / LEADERBOARD}, {dest / LEADERBOARD_PNG}")
