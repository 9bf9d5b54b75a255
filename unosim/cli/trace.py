"""`unosim trace` (a hand play by play) and `unosim rules` (every config key)."""

from __future__ import annotations

from typing import Any

import click

from .common import UserError, load_config_arg, main


@main.command()
@click.argument("config")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--hand", type=int, default=0, show_default=True,
              help="Index of the hand in the run (with --match: in the match; with --tournament: in the round).")
@click.option("--match", type=int, default=None, help="A hand of match M of a match run (--matches).")
@click.option("--tournament", type=int, default=None, help="A hand of tournament T of a tournament run (with "
              "--round and --table).")
@click.option("--round", "rnd", type=int, default=None, help="With --tournament: the round (0-based).")
@click.option("--table", type=int, default=None, help="With --tournament: the table (0, or 1 with 8 players).")
@click.option("--rotation", type=int, default=None,
              help="A hand of a --rotate-seats run: its seat rotation (0 to players-1).")
def trace(config: str, seed: int, hand: int, match: int | None = None, tournament: int | None = None,
          rnd: int | None = None, table: int | None = None, rotation: int | None = None) -> None:
    """Print hand HAND of a run of CONFIG, play by play (of a match or a tournament: the very
    hand that run played)."""
    from unosim.trace import describe

    for option, value in (("--hand", hand), ("--seed", seed)):
        if not 0 <= value < 2**63:
            raise UserError(f"{option}: must be between 0 and 2**63-1 (got {value})")
    if match is not None and tournament is not None:
        raise UserError("--match and --tournament: give one of the two")
    if tournament is None and (rnd is not None or table is not None):
        raise UserError("--round/--table: only with --tournament")
    cfg = load_config_arg(config)
    if rotation is not None and not 0 <= rotation < cfg.players:
        raise UserError(f"--rotation: a run of {cfg.players} players has rotations 0-{cfg.players - 1} "
                        f"(got {rotation})")
    from unosim.run.warmup import compile_notice, kernel_for

    if (match is not None or tournament is not None) and any(name == "search" for name, _ in cfg.seats):
        raise UserError("bots.seats: a table with a search seat traces hands of hands runs, not yet "
                        f"{'hands of matches' if match is not None else 'tournaments'}")
    if match is not None:
        kernels: tuple[str, ...] = ("matches", "trace_match")
        go = lambda: _trace_match(cfg, seed, match, hand, rotation)  # noqa: E731
    elif tournament is not None:
        kernels = ("trace_tournament",)
        go = lambda: _trace_tournament(cfg, seed, tournament, rnd, table, hand, rotation)  # noqa: E731
    else:
        kernels = (kernel_for("trace", cfg),)
        go = lambda: describe(cfg, seed, hand, rotation)  # noqa: E731
    with compile_notice(kernels):
        lines = go()
    for line in lines:
        click.echo(line)


def _trace_match(cfg: Any, seed: int, match: int, hand: int, rotation: int | None = None) -> list[str]:
    """The checks of ``trace --match`` (the hand must exist in that match), then its text."""
    from unosim.trace import _params, describe_match
    from unosim.run.jobs import DEFAULT_MAX_HANDS
    from unosim.run.play import play_match_chunk

    from unosim.kernel.layout import MAX_SEQUENCES

    if not 0 <= match < MAX_SEQUENCES:
        raise UserError(f"--match: must be between 0 and {MAX_SEQUENCES - 1} (got {match})")
    if hand >= DEFAULT_MAX_HANDS:
        raise UserError(f"--hand: a match has at most {DEFAULT_MAX_HANDS:,} hands (got {hand})")
    played = len(play_match_chunk(_params(cfg, rotation), seed, match, 1, 1, split=rotation is not None))
    if hand >= played:
        raise UserError(f"--hand: match {match} of this run has {played} hands (0-{played - 1}); got {hand}")
    return describe_match(cfg, seed, match, hand, rotation)


def _trace_tournament(cfg: Any, seed: int, tournament: int, rnd: int | None, table: int | None,
                      hand: int, rotation: int | None = None) -> list[str]:
    """The checks of ``trace --tournament`` (T1 players, round, table, hand), then its text."""
    from unosim.trace import describe_tournament
    from unosim.run.tournaments import PLAYERS, rounds_tables

    if cfg.players not in PLAYERS:
        raise UserError(f"--tournament: a partner-rotation tournament (T1) is for 4 or 8 players; "
                        f"this config has table.players = {cfg.players}")
    rounds, tables = rounds_tables(cfg.players)
    from unosim.kernel.layout import MAX_SEQUENCES

    if not 0 <= tournament < MAX_SEQUENCES:
        raise UserError(f"--tournament: must be between 0 and {MAX_SEQUENCES - 1} (got {tournament})")
    for option, value, count in (("round", rnd, rounds), ("table", table, tables)):
        if value is None or not 0 <= value < count:
            allowed = f"one {option}: give 0" if count == 1 else f"{count} {option}s: give 0 to {count - 1}"
            raise UserError(f"--{option}: a {cfg.players}-player tournament has {allowed} (got {value})")
    if hand >= cfg.hands_per_round:
        raise UserError(f"--hand: a table plays {cfg.hands_per_round} hands per round "
                        f"(tournament.hands_per_round); got {hand}")
    return describe_tournament(cfg, seed, tournament, rnd, table, hand, rotation)


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every config key with its default, allowed values and rule id."""
    from unosim.rules.keys import describe_keys, rules_markdown, toml_value

    if fmt == "markdown":
        click.echo(rules_markdown())
        return
    rows = describe_keys()
    width = max(len(r["key"]) for r in rows)
    for r in rows:
        ids = " ".join(r["rules"])
        # defaults as TOML (true, "standard"): users copy them into their configs
        click.echo(f"{r['key']:<{width}}  {ids:<9} default {toml_value(r['default'])}; {r['allowed']}")
        click.echo(f"{'':<{width}}  {r['description']}")
