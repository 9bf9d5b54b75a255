"""The `unosim` command: parse, call the Python API, print.  Nothing else lives here.

Every user error (bad config, bad option, unusable path) ends as one ``Error: ...`` line
naming the key or option, with exit status 2; tracebacks are for bugs only.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__


class UserError(click.ClickException):
    """One clear line and exit status 2."""

    exit_code = 2


def _load(config: str):
    from .config import ConfigError, load_config

    path = Path(config)
    if not path.exists() and not config.endswith(".toml"):
        bundled = Path(__file__).resolve().parent.parent / "configs" / f"{config}.toml"
        if bundled.exists():
            path = bundled
    try:
        return load_config(path)
    except ConfigError as e:
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
@click.option("--force", is_flag=True, help="Overwrite an existing result.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run of the same command.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def run(config: str, games: int, seed: int, out: str | None, workers: int | None, chunk_size: int,
        force: bool, resume: bool, quiet: bool) -> None:
    """Play GAMES hands of CONFIG (a TOML file or a bundled name) and write one Parquet row per hand."""
    from tqdm import tqdm

    from .runner import RunError, run_hands
    from .store import StoreError

    if games < 1:
        raise UserError(f"--games: must be at least 1 (got {games})")
    cfg = _load(config)
    out_path = Path(out) if out else Path("runs") / f"{cfg.name}.parquet"
    bar = tqdm(total=games, unit="hand", unit_scale=True, file=sys.stderr, disable=quiet, leave=False)
    try:
        summary = run_hands(cfg, games, seed, out_path, workers=workers, chunk_size=chunk_size,
                            force=force, resume=resume, progress=bar.update)
    except (RunError, StoreError) as e:
        raise UserError(str(e)) from None
    finally:
        bar.close()
    click.echo(f"{cfg.name}: {summary.hands:,} hands of {cfg.players} players, seed {seed} -> {out_path}")
    if summary.chunks_skipped:
        click.echo(f"  resumed: {summary.chunks_skipped} finished chunks were kept")
    click.echo(f"  {summary.hands_per_s:,.0f} hands/s; mean {summary.mean_turns:.2f} turns per hand; "
               f"{summary.stalled:,} stalled")
    shares = summary.shares()
    labels = ["dealer"] + [f"dealer+{i}" for i in range(1, cfg.players)]
    click.echo("  winner's seat relative to the dealer:")
    click.echo("    " + "  ".join(f"{lab} {s:6.2%}" for lab, s in zip(labels, shares)))


@main.command()
@click.argument("config")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--hand", type=int, default=0, show_default=True, help="Index of the hand in the run.")
def trace(config: str, seed: int, hand: int) -> None:
    """Print hand HAND of a run of CONFIG, play by play."""
    from .trace import describe

    if hand < 0:
        raise UserError(f"--hand: must be 0 or more (got {hand})")
    if seed < 0:
        raise UserError(f"--seed: must be 0 or more (got {seed})")
    cfg = _load(config)
    for line in describe(cfg, seed, hand):
        click.echo(line)


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every config key with its default, allowed values and rule id."""
    from .config import describe_keys, rules_markdown

    if fmt == "markdown":
        click.echo(rules_markdown())
        return
    rows = describe_keys()
    width = max(len(f"{r['section']}.{r['key']}") for r in rows)
    for r in rows:
        flag = "" if r["built"] else "  (not supported yet)"
        click.echo(f"{r['section'] + '.' + r['key']:<{width}}  {r['rules']:<8} default {r['default']!r}; "
                   f"{r['allowed']}{flag}")
        click.echo(f"{'':<{width}}  {r['description']}")


def _report_paths(paths: tuple[str, ...]) -> list[Path]:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UserError(f"RESULTS: no such file or directory: {', '.join(missing)}")
    return [Path(p) for p in paths]


@main.command()
@click.argument("results", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]), default="text",
              show_default=True)
def report(results: tuple[str, ...], fmt: str) -> None:
    """Summarise one or more result files or directories."""
    from . import report as rp

    paths = _report_paths(results)
    try:
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
    from . import report as rp

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
    from .plots import plot_all

    paths = _report_paths(results)
    try:
        written = plot_all(paths, out_dir)
    except (ValueError, OSError) as e:
        raise UserError(str(e)) from None
    for p in written:
        click.echo(str(p))


if __name__ == "__main__":  # pragma: no cover
    main()
