"""`unosim report`, `compare`, `plot`: the commands that read results."""

from __future__ import annotations

from pathlib import Path

import click

from .common import UserError, guarded, not_empty, refuse_nested, report_paths, main, user_errors

# unosim.analysis.report.BALANCE_SORTS, written out so that the CLI starts without pandas
# (tests/unit/test_report.py checks the two agree)
BALANCE_SORTS = ("effect", "change", "players", "turns", "dealer1_win_share", "cards_drawn", "skill", "skill_ceiling")


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
@click.option("--sort", "sort", type=click.Choice(BALANCE_SORTS), default="effect", show_default=True,
              help="The balance report's row order: effect (the largest effect in any column first), change, "
                   "players, or a column's metric (the largest effect on it first).")
@click.option("--html", "html_file", default=None, metavar="FILE", callback=not_empty,
              help="Write one self-contained page (tables, every figure, config, bots, notes) to FILE instead of "
                   "printing the report.")
def report(results: tuple[str, ...], fmt: str, view: str = "auto", skill_dir: str | None = None,
           html_file: str | None = None, sort: str = "effect") -> None:
    """Summarise one or more result files or directories (a sweep: its balance report; a
    league: its leaderboard; a screen: its effects, interactions and Sobol indices; with
    --html also a skill directory)."""
    from unosim.analysis import report as rp

    from unosim.page import write_html

    from click.core import ParameterSource

    ctx = click.get_current_context()
    given = {p for p in ("fmt", "view", "sort") if ctx.get_parameter_source(p) == ParameterSource.COMMANDLINE}
    if html_file is not None and given:
        option = "--format" if "fmt" in given else "--view" if "view" in given else "--sort"
        raise UserError(f"{option}: shapes the printed report; --html writes the page instead (give one of the two)")
    paths = report_paths(results, ("league", "skill") if html_file is not None else ("league",))
    if html_file is not None and Path(html_file).is_dir():
        raise UserError(f"--html: {html_file} is a directory; give a file name (report.html)")
    league = [p for p in paths if _is_league(p)]
    if league and html_file is None:
        if len(paths) > 1:
            raise UserError(f"RESULTS: {league[0]} is a league; its leaderboard is a report of its own: give it alone")
        if skill_dir is not None or view == "balance" or "sort" in given:
            option = "--skill" if skill_dir is not None else "--view balance" if view == "balance" else "--sort"
            raise UserError(f"{option}: orders or adds to a sweep's balance report; "
                            f"{league[0]} is a league")
        click.echo(_leaderboard(league[0], fmt))
        return
    if html_file is None and len(paths) == 1 and _is_screen(paths[0]):
        if skill_dir is not None or given - {"fmt"}:
            raise UserError("--view, --sort and --skill: shape a sweep's balance report; "
                            f"{paths[0]} is a screen (its report has one view)")
        click.echo(_screen_report(paths[0], fmt))
        return
    from unosim.run.guard import is_sweep

    sweep_dir = len(paths) == 1 and is_sweep(paths[0])
    if view == "balance" and not sweep_dir:
        raise UserError("--view balance: give one sweep directory (written by `unosim sweep`)")
    if "sort" in given and (not sweep_dir or view == "summary"):
        raise UserError("--sort: orders a sweep's balance report; give one sweep directory (written by `unosim sweep`)")
    if skill_dir is not None and (not sweep_dir or view == "summary"):
        raise UserError("--skill: the skill column is part of a sweep's balance report; give one sweep directory "
                        "(written by `unosim sweep`)")
    with user_errors(ValueError, OSError):
        if html_file is not None:
            click.echo(f"wrote {write_html(paths, html_file, skill=skill_dir)}")
        elif view == "balance" or (view == "auto" and sweep_dir):
            bal = rp.balance_report(paths[0], skill=skill_dir)
            try:
                bal = rp.sort_balance(bal, sort)
            except ValueError as e:
                raise UserError(f"--{e}") from None
            click.echo(rp.render(bal, fmt))
        else:
            click.echo(rp.render(rp.summarize(paths), fmt))


def _is_screen(path: Path) -> bool:
    from unosim.studies.screen import is_screen

    return is_screen(path)


def _screen_report(root: Path, fmt: str) -> str:
    """A screen's report: text (markdown alike), or its table of terms as CSV or JSON."""
    from unosim.studies.screen import read_screen
    from unosim.studies.screen_report import screen_text

    with user_errors(ValueError):
        result = read_screen(root)
    if fmt == "csv":
        return result["terms"].to_csv(index=False).rstrip("\n")
    if fmt == "json":
        return result["terms"].to_json(orient="records", indent=2)
    return screen_text(result)


def _is_league(path: Path) -> bool:
    from unosim.run.guard import folder_kind

    return (folder_kind(path) or ("",))[0] == "league"


def _leaderboard(root: Path, fmt: str) -> str:
    """A league's leaderboard, as `unosim league` printed it, from its ``_leaderboard.csv``."""
    import json

    import pandas as pd

    from unosim.studies.league import LEADERBOARD_PNG, LEAGUE_MANIFEST, leaderboard

    csv = leaderboard(root)
    if not csv.is_file():
        raise UserError(f"RESULTS: {root} is a league without its leaderboard ({csv.name}): the league did not "
                        "finish; run the same `unosim league` command again to finish it")
    table = pd.read_csv(csv)
    if fmt == "csv":
        return csv.read_text().rstrip("\n")
    if fmt == "json":
        return table.to_json(orient="records", indent=2)
    if fmt == "markdown":
        cols = list(table.columns)
        return "\n".join(["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols),
                          *("| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False))])
    try:
        m = json.loads((root / LEAGUE_MANIFEST).read_text())
        n, deals, seed = int(m["players"]), int(m["deals"]), m["seed"]
    except (OSError, ValueError, KeyError, TypeError):
        n = deals = seed = None
    head = f"League {root}: {len(table)} bots"
    if n is not None:
        head += f" at tables of {n}, {deals:,} deals per table, seed {seed}"
    from unosim.analysis.report.words import league_findings

    out = [head + "; strength = Plackett-Luce log-odds (0 = the average bot) with 95% intervals"]
    out += [f"* {x}" for x in league_findings(table, n)]
    width = max(3, *(len(str(b)) for b in table["bot"]))
    out.append(f"  {'#':>2}  {'bot':<{width}}  strength  95% interval       win share    hands")
    for r in table.itertuples():
        out.append(f"  {r.rank:>2}  {str(r.bot):<{width}}  {r.strength:+8.3f}  [{r.low:+.3f}, {r.high:+.3f}]  "
                   f"{r.win_share:9.2%}  {r.hands:>7,}")
    if n is not None:
        out.append(f"  Even share at a table of {n}: {1 / n:.2%}.")
    png = root / LEADERBOARD_PNG
    out.append(f"  From {csv}" + (f"; the chart: {png}" if png.is_file() else "")
               + f"; one page: unosim report {root} --html page.html")
    return "\n".join(out)


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
    with user_errors(ValueError, OSError):
        click.echo(rp.render(rp.compare(base, paths), fmt))


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

    from unosim.page import plot_results

    paths = report_paths(results, ("league", "skill"))
    refuse_nested(Path(out_dir))
    names = list(_PLOTS) + [f"{kind}_{name}.png" for kind in ("balance", "league", "skill", "interactions", "sobol")
                            for name in {q.name for q in paths} | {q.resolve().name for q in paths}]
    stack, g = guarded(Path(out_dir), "plot", {"results": sorted(str(p.resolve()) for p in paths)}, force, names)
    with stack:
        # drawn into a folder of unosim's own, then each figure claimed with its digest as it
        # takes its name: a figure saved by a killed plot is never one this command trusts
        staging = g.root / f".unosim-plot-{uuid.uuid4().hex[:12]}"
        try:
            with user_errors(ValueError, OSError):
                staging.mkdir()
                written = [g.write(f.name, lambda p, f=f: os.replace(f, p)) for f in plot_results(paths, staging)]
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    for p in written:
        click.echo(str(Path(out_dir) / p.name))  # as the user named the folder
