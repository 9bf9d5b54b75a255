"""`unosim report`, `compare`, `plot`: the commands that read results."""

from __future__ import annotations

from pathlib import Path

import click

from .common import UserError, is_sweep, not_empty, refuse_nested, report_paths, main


@main.command()
@click.argument("results", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]), default="text",
              show_default=True)
@click.option("--view", type=click.Choice(["auto", "summary", "balance"]), default="auto", show_default=True,
              help="auto: the balance report (each rule change against the base point) for one sweep "
                   "directory, else the summary.")
@click.option("--skill", "skill_dir", default=None, metavar="DIR",
              help="The balance report's skill column from this `unosim skill` output [default: DIR.skill "
                   "next to the sweep directory, when it exists].")
@click.option("--html", "html_file", default=None, metavar="FILE", callback=not_empty,
              help="Write one self-contained page (tables, every figure, config, bots, notes) to FILE instead of "
                   "printing the report.")
def report(results: tuple[str, ...], fmt: str, view: str = "auto", skill_dir: str | None = None,
           html_file: str | None = None) -> None:
    """Summarise one or more result files or directories (a sweep: its balance report; with
    --html also a league or skill directory)."""
    from unosim.analysis import report as rp

    from unosim.page import write_html

    from click.core import ParameterSource

    ctx = click.get_current_context()
    given = {p for p in ("fmt", "view") if ctx.get_parameter_source(p) == ParameterSource.COMMANDLINE}
    if html_file is not None and given:
        option = "--format" if "fmt" in given else "--view"
        raise UserError(f"{option}: shapes the printed report; --html writes the page instead (give one of the two)")
    paths = report_paths(results, ("league", "skill") if html_file is not None else ())
    if html_file is not None and Path(html_file).is_dir():
        raise UserError(f"--html: {html_file} is a directory; give a file name (report.html)")
    sweep_dir = len(paths) == 1 and is_sweep(paths[0])
    if view == "balance" and not sweep_dir:
        raise UserError("--view balance: give one sweep directory (written by `unosim sweep`)")
    if skill_dir is not None and (not sweep_dir or view == "summary"):
        raise UserError("--skill: the skill column is part of a sweep's balance report; give one sweep directory "
                        "(written by `unosim sweep`)")
    try:
        if html_file is not None:
            click.echo(f"wrote {write_html(paths, html_file, skill=skill_dir)}")
        elif view == "balance" or (view == "auto" and sweep_dir):
            click.echo(rp.render(rp.balance_report(paths[0], skill=skill_dir), fmt))
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
    """Compare results against BASELINE: differences with intervals and effect sizes.

    Hand runs of one seed deal every hand index the same cards, so their hand figures are
    compared hand by hand (paired intervals, a note says so); seat-rotated runs count a
    deal as one cluster (docs/reports.md)."""
    from unosim.analysis import report as rp

    base = report_paths((baseline,))[0]
    paths = report_paths(others)
    try:
        click.echo(rp.render(rp.compare(base, paths), fmt))
    except (ValueError, OSError) as e:
        raise UserError(str(e)) from None


_PLOTS = ("win_share.png", "bot_win_share.png", "turns.png", "cards_played.png", "match_winners.png",
          "match_bots.png", "hands_per_match.png", "champions.png")  # every name analysis.plots.run_figures writes


@main.command()
@click.argument("results", nargs=-1, required=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="plots", show_default=True,
              callback=not_empty)
@click.option("--force", is_flag=True, help="Replace the figures of an earlier `unosim plot` of other results at "
              "--out (its own files only; a file plot did not write is never replaced).")
def plot(results: tuple[str, ...], out_dir: str, force: bool = False) -> None:
    """Write PNG figures for the results into --out."""
    import os
    import shutil
    import uuid
    from contextlib import ExitStack

    from unosim.page import plot_results
    from unosim.run.guard import GuardError, guard_output
    from unosim.run.integrity import LockedError

    paths = report_paths(results, ("league", "skill"))
    refuse_nested(Path(out_dir))
    names = list(_PLOTS) + [f"{kind}_{name}.png" for kind in ("balance", "league", "skill")
                            for name in {q.name for q in paths} | {q.resolve().name for q in paths}]
    stack = ExitStack()
    try:
        g = stack.enter_context(guard_output(out_dir, "plot", {"results": sorted(str(p.resolve()) for p in paths)},
                                             force=force, names=names))
    except (GuardError, LockedError) as e:
        raise UserError(str(e)) from None
    for note in g.notes:
        click.echo(f"Warning: {note}", err=True)
    with stack:
        # drawn into a folder of unosim's own, then each figure claimed with its digest as it
        # takes its name: a figure saved by a killed plot is never one this command trusts
        staging = g.root / f".unosim-plot-{uuid.uuid4().hex[:12]}"
        try:
            staging.mkdir()
            written = [g.write(f.name, lambda p, f=f: os.replace(f, p)) for f in plot_results(paths, staging)]
        except (ValueError, OSError) as e:
            raise UserError(str(e)) from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    for p in written:
        click.echo(str(Path(out_dir) / p.name))  # as the user named the folder
