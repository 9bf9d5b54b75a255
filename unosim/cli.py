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

from . import __version__, configure


class UserError(click.ClickException):
    """One clear line and exit status 2."""

    exit_code = 2


_SCHEDULER_HELP = ("Send the chunks as tasks to the Dask scheduler at ADDRESS (tcp://host:8786); workers "
                   "write the part files, so --out must be shared storage (see docs/cluster.md).")
_CLUSTER_HELP = "local: start a Dask LocalCluster on this machine and run the chunks there."


def _compiling(mode: str, quiet: bool, client: Any = None) -> Any:
    """Say at once, on stderr, when this command's kernel must compile first (even --quiet:
    minutes of silence read as a hang); nothing on Dask, whose workers compile."""
    from contextlib import nullcontext

    if client is not None:
        return nullcontext()
    from unosim.run.warmup import compile_notice

    return compile_notice((mode,) if mode in ("matches", "tournaments") else ("hands",), quiet=quiet)


def _not_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse ``--out ''`` and ``--scheduler ''`` rather than silently taking a default
    (an empty --out was the working directory)."""
    if value is not None and not value.strip():
        raise UserError(f"{param.opts[0]}: must not be empty (leave the option out for its default)")
    return value


@contextmanager
def _one_line(out: Path | None = None) -> Iterator[None]:
    """Every failure of a run as one ``Error:`` line: bad options and outputs (RunError,
    StoreError, SweepError, a second writer), and the machine's own (a full disk, a path too
    long): those name the file, and say that every finished part is kept."""
    from unosim.run.integrity import LockedError
    from unosim.run.jobs import RunError
    from unosim.run.store import StoreError
    from unosim.run.sweep import SweepError

    try:
        yield
    except (RunError, StoreError, SweepError, LockedError) as e:
        raise UserError(str(e)) from None
    except OSError as e:
        where = e.filename or out or "the output"
        raise UserError(f"{where}: {e.strerror or e}; every finished part is kept, so the same command "
                        "resumes the run once this is fixed") from None


def _load(config: str):
    """CONFIG as a path or a bundled name (``standard``), validated."""
    from unosim.rules.bundled import find_config
    from unosim.rules.config import ConfigError, load_config

    try:
        return load_config(find_config(config))
    except (ConfigError, FileNotFoundError) as e:
        raise UserError(str(e)) from None


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread like Ctrl-C's KeyboardInterrupt, so every
    command stops the same way: the write in flight finishes, whole parts stay."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# what an interrupted command leaves: the same command then resumes from it
_KEPT = {
    "run": "every finished part is kept",
    "sweep": "every finished part of every point is kept",
    "league": "every finished part of every table is kept",
    "skill": "skill.parquet keeps every finished point",
    "tune": "the search's mean so far is written as bot.toml when the search was stopped; files written are kept",
    "plot": "the figures written so far are kept",
}


class _Unosim(click.Group):
    """The `unosim` group: SIGINT, SIGTERM and SIGHUP end any command within moments in
    one line (what was kept, the exact command that resumes), exit 128 + the signal
    (130 for Ctrl-C, 143 for SIGTERM), instead of click's bare "Aborted!"."""

    def main(self, args: Any = None, *a: Any, **kw: Any) -> Any:
        import signal

        self._argv = list(sys.argv[1:] if args is None else args)
        if threading_main():
            for sig in (signal.SIGTERM, signal.SIGHUP):
                try:
                    signal.signal(sig, _raise_interrupted)
                except (ValueError, OSError):  # pragma: no cover - not the main thread
                    pass
        return super().main(args, *a, **kw)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            import shlex
            import signal

            signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
            # --force again would replace what was just kept
            argv = [str(x) for x in getattr(self, "_argv", []) if x != "--force"]
            name = next((x for x in argv if x in self.commands), "")
            kept = _KEPT.get(name)
            what = signal.Signals(signum).name
            line = (f"unosim: interrupted ({what}); {kept}; resume with: unosim {shlex.join(argv)}" if kept
                    else f"unosim: interrupted ({what}); nothing was written")
            click.echo(line, err=True)
            ctx.exit(128 + int(signum))


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted(signum)


@click.group(cls=_Unosim, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="unosim")
def main() -> None:
    """Monte Carlo simulation of UNO and its house rules."""
    configure()


@main.command()
@click.argument("config")
@click.option("--hands", type=int, default=None, help="Independent hands to play [default: 100000].")
@click.option("--games", type=int, default=None, hidden=True)  # the old name of --hands, kept for scripts
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same hands, on any core count.")
@click.option("--out", type=click.Path(), default=None, callback=_not_empty,
              help="Result directory [default: runs/<name>.parquet].")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
@click.option("--chunk-size", type=int, default=200_000, show_default=True, help="Hands per Parquet part file.")
@click.option("--force", is_flag=True, help="Replace an existing unosim result at --out (its files only; anything else is refused).")
@click.option("--resume", is_flag=True,
              help="Also accept a finished result as it is. An interrupted run resumes without this flag: "
                   "the same command keeps its finished part files and plays the rest.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=_not_empty, help=_SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=_CLUSTER_HELP)
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
    from tqdm import tqdm

    from unosim.run.jobs import RunError, make_job
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
    hands = 100_000 if hands is None else hands
    mode = "matches" if matches is not None else "rotated" if rotate_seats else "hands"
    count = hands if matches is None else matches
    if tournaments is not None:
        mode, count = "tournaments", tournaments
    cfg = _load(config)
    suffix = {"matches": ".matches", "tournaments": ".tournaments"}.get(mode, "")
    out_path = Path(out) if out else Path("runs") / f"{cfg.name}{suffix}.parquet"
    try:
        job = make_job(cfg, mode, count, seed, out=out_path,
                       chunk_size=chunk_size if ctx.get_parameter_source("chunk_size") in explicit else None,
                       max_hands=max_hands if matches is not None else None,
                       rotate=rotate_seats and mode in ("matches", "tournaments"))
    except RunError as e:
        raise UserError(str(e)) from None
    _check_workers(workers, scheduler)
    with _dask_client(scheduler, cluster, workers) as client:
        # shown only on a terminal, and only from the first progress on (after any compile)
        bar = tqdm(total=job.count, unit=job.kind.unit, unit_scale=True, file=sys.stderr,
                   disable=True if quiet else None, delay=0.5, leave=False)
        try:
            with _one_line(job.out), _compiling(job.mode, quiet, client):
                summary = run_job(job, workers=workers, client=client, force=force, resume=resume,
                                  progress=bar.update)
        finally:
            bar.close()
    where = f", Dask at {scheduler or 'a LocalCluster'}" if client is not None else ""
    for line in _run_lines(job, summary, where):
        click.echo(line)


def _check_workers(workers: int | None, scheduler: str | None) -> None:
    """A bad --workers is refused before any progress bar is drawn (on a Dask scheduler
    only its sign, by :func:`_dask_client`: the workers' core counts are theirs to check)."""
    if workers is None or scheduler:  # on a scheduler, _dask_client checks it (its sign only)
        return
    from unosim.run.jobs import RunError
    from unosim.run.play import max_workers, set_workers

    try:
        set_workers(workers)
    except RunError as e:
        raise UserError(str(e)) from None
    set_workers(max_workers())  # the run sets its own count; leave numba as it was


def _count(n: int, noun: str) -> str:
    """``1 finished chunk``, ``3 finished chunks``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _by_bot(job: Any, shares: Any) -> str:
    """``0 greedy 48.10%  1 counter 51.90%``: each config seat's bot and its share (a
    label that lists many parameters, a tuned bot's, is cut to ``weights(...)``: the
    config seat number says which bot it is)."""
    from unosim.run.seating import bot_label

    labels = [bot_label(name, params) for name, params in job.cfg.seats]
    labels = [lab if len(lab) <= 40 else f"{lab.split('(')[0]}(...)" for lab in labels]
    return "  ".join(f"{i} {lab} {v:6.2%}" for i, (lab, v) in enumerate(zip(labels, shares)))


def _run_lines(job: Any, s: Any, where: str) -> list[str]:
    """What `unosim run` prints after a run (``job``: a Job, ``s``: its Summary)."""
    cfg = job.cfg
    n = cfg.players
    if job.mode == "matches":
        what = f"{s.matches:,} matches to {cfg.match_target} of {n} players ({s.hands:,} hands)"
    elif job.mode == "tournaments":
        what = f"{s.units:,} partner-rotation tournaments of {n} players ({s.hands:,} hands)"
    else:
        what = f"{s.hands:,} hands of {n} players"
    unit = {"hands": "hands", "matches": "matches", "rotated": "deals", "tournaments": "tournaments"}[job.mode]
    if s.chunks_skipped:  # a resumed run: what this command played, and what was there
        what = f"{s.units:,} of {job.count:,} {unit} played now, {job.count - s.units:,} resumed ({n} players)"
    from unosim.run.bots_text import seating_text

    lines = [f"{cfg.name}: {what}, seed {job.seed}{where} -> {job.out}", f"  bots: {seating_text(cfg.seats)}"]
    if job.mode == "rotated":
        lines.append(f"  {job.count:,} deals x {n} seat rotations; win share by bot: unosim report {job.out}")
    if job.rotate:
        over = "player numbers" if job.mode == "tournaments" else "seats"
        lines.append(f"  each of the {job.count:,} {unit} played {n} times, the bots rotated over the {over} on the "
                     f"same deals; shares with intervals: unosim report {job.out}")
    lines += [f"  checked: {note}" for note in s.notes]
    if s.chunks_skipped:
        lines.append(f"  resumed: {_count(s.chunks_skipped, 'finished chunk')} "
                     f"{'was' if s.chunks_skipped == 1 else 'were'} kept")
    if s.rows == 0:
        return lines + ["  nothing left to play: the result was already complete"]
    # the compile, if any, was reported on its own line; this is loading the compiled engine
    start = f", after {s.startup:.1f} s loading the engine" if s.backend == "local" and s.startup >= 0.05 else ""
    if job.mode == "matches":
        lines.append(f"  {s.matches_per_s:,.0f} matches/s ({s.seconds:.1f} s{start}); {s.stalled:,} stalled hands; "
                     f"{s.capped:,} matches capped at {job.max_hands:,} hands")
        labels = ["first dealer"] + [f"+{i}" for i in range(1, n)]
        systems = [("pos", "S1 positive")] + ([] if cfg.finish == "last_standing" else [("neg", "S2 negative")])
        systems.append(("chips", f"S4 chips after {cfg.chips_hands} hands"))
        for key, name in systems:
            lines.append(f"  {name}: mean {s.mean_hands(key):.2f} hands per match; match win share by seat "
                         "after the first dealer (ties shared):")
            lines.append("    " + "  ".join(f"{lab} {v:6.2%}" for lab, v in zip(labels, s.shares(key))))
            if job.rotate:
                lines.append("    by bot:  " + _by_bot(job, s.bot_shares(key)))
        return lines
    if job.mode == "tournaments":
        lines.append(f"  {s.units / s.seconds if s.seconds > 0 else float('nan'):,.0f} tournaments/s "
                     f"({s.seconds:.1f} s{start}); {s.stalled:,} stalled hands")
        for key, name in (("pos", "S1 (highest total)"), ("neg", "S2 (lowest total)")):
            lines.append(f"  {name} champion share by player (ties shared):")
            lines.append("    " + "  ".join(f"{p} {v:6.2%}" for p, v in enumerate(s.champion_shares(key))))
            if job.rotate:
                lines.append("    by bot (the config's player number):  " + _by_bot(job, s.bot_shares(key)))
        return lines
    lines.append(f"  {s.hands_per_s:,.0f} hands/s ({s.seconds:.1f} s{start}); mean {s.mean_turns:.2f} turns per "
                 f"hand; {s.stalled:,} stalled")
    labels = ["dealer"] + [f"dealer+{i}" for i in range(1, n)]
    lines.append("  winner's seat relative to the dealer:")
    lines.append("    " + "  ".join(f"{lab} {v:6.2%}" for lab, v in zip(labels, s.shares())))
    return lines


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
    from .trace import describe

    if not 0 <= hand < 2**63:
        raise UserError(f"--hand: must be between 0 and 2**63-1 (got {hand})")
    if not 0 <= seed < 2**63:
        raise UserError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    if match is not None and tournament is not None:
        raise UserError("--match and --tournament: give one of the two")
    if tournament is None and (rnd is not None or table is not None):
        raise UserError("--round/--table: only with --tournament")
    cfg = _load(config)
    if rotation is not None and not 0 <= rotation < cfg.players:
        raise UserError(f"--rotation: a run of {cfg.players} players has rotations 0-{cfg.players - 1} "
                        f"(got {rotation})")
    from unosim.run.warmup import compile_notice

    if match is not None:
        kernels: tuple[str, ...] = ("matches", "trace_match")
        go = lambda: _trace_match(cfg, seed, match, hand, rotation)  # noqa: E731
    elif tournament is not None:
        kernels = ("trace_tournament",)
        go = lambda: _trace_tournament(cfg, seed, tournament, rnd, table, hand, rotation)  # noqa: E731
    else:
        kernels = ("trace",)
        go = lambda: describe(cfg, seed, hand, rotation)  # noqa: E731
    with compile_notice(kernels):
        lines = go()
    for line in lines:
        click.echo(line)


def _trace_match(cfg: Any, seed: int, match: int, hand: int, rotation: int | None = None) -> list[str]:
    """The checks of ``trace --match`` (the hand must exist in that match), then its text."""
    from .trace import describe_match
    from unosim.run.jobs import DEFAULT_MAX_HANDS
    from unosim.run.play import play_match_chunk

    if not 0 <= match < 2**63 // 1_000_000:
        raise UserError(f"--match: must be between 0 and {2**63 // 1_000_000 - 1} (got {match})")
    if hand >= DEFAULT_MAX_HANDS:
        raise UserError(f"--hand: a match has at most {DEFAULT_MAX_HANDS:,} hands (got {hand})")
    from unosim.rules.config import to_params

    from unosim.run.seating import rotated_params

    P = to_params(cfg) if rotation is None else rotated_params(to_params(cfg), cfg.players, rotation)
    played = len(play_match_chunk(P, seed, match, 1, 1, split=rotation is not None))
    if hand >= played:
        raise UserError(f"--hand: match {match} of this run has {played} hands (0-{played - 1}); got {hand}")
    return describe_match(cfg, seed, match, hand, rotation)


def _trace_tournament(cfg: Any, seed: int, tournament: int, rnd: int | None, table: int | None,
                      hand: int, rotation: int | None = None) -> list[str]:
    """The checks of ``trace --tournament`` (T1 players, round, table, hand), then its text."""
    from .trace import describe_tournament
    from unosim.run.tournaments import PLAYERS, rounds_tables

    if cfg.players not in PLAYERS:
        raise UserError(f"--tournament: a partner-rotation tournament (T1) is for 4 or 8 players; "
                        f"this config has table.players = {cfg.players}")
    rounds, tables = rounds_tables(cfg.players)
    if not 0 <= tournament < 2**63 // 1_000_000:
        raise UserError(f"--tournament: must be between 0 and {2**63 // 1_000_000 - 1} (got {tournament})")
    if rnd is None or not 0 <= rnd < rounds:
        raise UserError(f"--round: give a round between 0 and {rounds - 1} (got {rnd})")
    if table is None or not 0 <= table < tables:
        raise UserError(f"--table: give a table between 0 and {tables - 1} (got {table})")
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


_INSTEAD = {
    "league": "report one seating of one of its tables (`unosim report DIR/table=0/order=0`), draw it with "
              "`unosim plot DIR` or `unosim report DIR --html FILE`; its leaderboard is DIR/leaderboard.csv",
    "tune": "its tuned bot is DIR/bot.toml (try it with `unosim duel DIR/bot.toml random`)",
    "skill": "give its sweep's dataset to `unosim report` (the skill column is read from here)",
    "plot": "it holds figures only",
}


def _report_paths(paths: tuple[str, ...], kinds: tuple[str, ...] = ("run", "sweep")) -> list[Path]:
    """The RESULTS of report, compare and plot: each must exist and be a result file or a
    folder of one of ``kinds`` (by its manifest: a run result, a sweep; a league or a skill
    run where the command draws those); another command's folder is one line saying what
    it is."""
    from unosim.run.guard import folder_kind

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UserError(f"RESULTS: no such file or directory: {', '.join(missing)}")
    for p in paths:
        found = folder_kind(Path(p))
        if found is not None and found[0] not in kinds:
            hint = _INSTEAD.get(found[0], "not a result")
            raise UserError(f"RESULTS: {p} is the output of `unosim {found[0]}` ({found[1]}), not a run or sweep "
                            f"result; {hint.replace('DIR', str(p))}")
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
@click.option("--skill", "skill_dir", default=None, metavar="DIR",
              help="The balance report's skill column from this `unosim skill` output [default: DIR.skill "
                   "next to the sweep directory, when it exists].")
@click.option("--html", "html_file", default=None, metavar="FILE", callback=_not_empty,
              help="Also write one self-contained page (tables, every figure, config, bots, notes) to FILE.")
def report(results: tuple[str, ...], fmt: str, view: str = "auto", skill_dir: str | None = None,
           html_file: str | None = None) -> None:
    """Summarise one or more result files or directories (a sweep: its balance report; with
    --html also a league or skill directory)."""
    from unosim.analysis import report as rp

    from unosim.page import write_html

    paths = _report_paths(results, ("run", "sweep") if html_file is None else ("run", "sweep", "league", "skill"))
    if html_file is not None and Path(html_file).is_dir():
        raise UserError(f"--html: {html_file} is a directory; give a file name (report.html)")
    sweep_dir = len(paths) == 1 and _is_sweep(paths[0])
    if view == "balance" and not sweep_dir:
        raise UserError("--view balance: give one sweep directory (written by `unosim sweep`)")
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
    """Compare results against BASELINE: differences with intervals and effect sizes."""
    from unosim.analysis import report as rp

    base = _report_paths((baseline,))[0]
    paths = _report_paths(others)
    try:
        click.echo(rp.render(rp.compare(base, paths), fmt))
    except (ValueError, OSError) as e:
        raise UserError(str(e)) from None


_PLOTS = ("win_share.png", "bot_win_share.png", "turns.png", "cards_played.png", "match_winners.png",
          "match_bots.png", "hands_per_match.png", "champions.png")  # every name analysis.plots.run_figures writes


@main.command()
@click.argument("results", nargs=-1, required=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="plots", show_default=True)
@click.option("--force", is_flag=True, help="Replace the figures of an earlier `unosim plot` of other results at "
              "--out (its own files only; a file plot did not write is never replaced).")
def plot(results: tuple[str, ...], out_dir: str, force: bool = False) -> None:
    """Write PNG figures for the results into --out."""
    from contextlib import ExitStack

    from unosim.page import plot_results
    from unosim.run.guard import GuardError, guard_output
    from unosim.run.integrity import LockedError

    paths = _report_paths(results, ("run", "sweep", "league", "skill"))
    names = list(_PLOTS) + [f"{kind}_{name}.png" for kind in ("balance", "league", "skill")
                            for name in {q.name for q in paths} | {q.resolve().name for q in paths}]
    stack = ExitStack()
    try:
        g = stack.enter_context(guard_output(out_dir, "plot", {"results": sorted(str(p.resolve()) for p in paths)},
                                             force=force, names=names))
    except (GuardError, LockedError) as e:
        raise UserError(str(e)) from None
    with stack:
        for name in names:
            g.path(name)  # listed as plot's before any is written
        try:
            written = plot_results(paths, g.root)
        except (ValueError, OSError) as e:
            raise UserError(str(e)) from None
        g.settle([p.name for p in written])
    for p in written:
        click.echo(str(p))


@contextmanager
def _dask_client(scheduler: str | None, cluster: str | None, workers: int | None = None) -> Iterator[Any]:
    """A Dask client for --scheduler / --cluster local, or None (local run, no server)."""
    if scheduler and cluster:
        raise UserError("--scheduler and --cluster: give one of the two")
    if (scheduler or cluster) and workers is not None and workers < 1:
        raise UserError(f"--workers: must be at least 1 (cores per task on each Dask worker); got {workers}")
    if not scheduler and not cluster:
        yield None
        return
    from unosim.run.cluster import ClusterError, connect

    try:
        with connect(scheduler, local=cluster == "local") as client:
            yield client
    except ClusterError as e:
        raise UserError(str(e)) from None


@main.command()
@click.argument("sweep_file", metavar="SWEEP")
@click.option("--out", type=click.Path(), default=None, callback=_not_empty,
              help="Dataset directory [default: runs/<sweep name>].")
@click.option("--workers", type=int, default=None,
              help="Cores the kernel uses [default: all]; with Dask, per task on each worker.")
@click.option("--chunk-size", type=int, default=None,
              help="Hands (or matches) per part file [default: the sweep's chunk_size, else 200000].")
@click.option("--hands", type=int, default=None,
              help="Hands per point instead of the sweep file's (a quick look at a big sweep).")
@click.option("--matches", type=int, default=None, help="Matches per point instead of the file's (a sweep of matches).")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=_not_empty, help=_SCHEDULER_HELP)
@click.option("--cluster", type=click.Choice(["local"]), default=None, help=_CLUSTER_HELP)
@click.option("--force", is_flag=True, help="Replace an existing unosim sweep at --out (its files only; anything else is refused).")
@click.option("--resume", is_flag=True,
              help="Also accept a finished dataset as it is (an unfinished one resumes without this flag).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def sweep(sweep_file: str, out: str | None, workers: int | None, chunk_size: int | None, scheduler: str | None,
          cluster: str | None, force: bool, resume: bool, quiet: bool, hands: int | None = None,
          matches: int | None = None) -> None:
    """Run every point of SWEEP (a TOML sweep file) into one hive-partitioned Parquet dataset.

    Every point plays the same seed, so points differ by their rules only.  The same
    command resumes an interrupted sweep, keeping its finished part files; a changed sweep
    in an existing directory is refused (--force overwrites).  `unosim report DIR` then
    prints the balance report and `unosim plot DIR` its chart."""
    from tqdm import tqdm

    from unosim.run.bots_text import bots_line, seating_text
    from unosim.run.summary import wall_seconds
    from unosim.run.sweep import SweepError, load_sweep, run_sweep

    try:
        if hands is not None and matches is not None:
            raise SweepError("--hands: cannot be combined with --matches (a sweep plays one or the other)")
        sw = load_sweep(sweep_file)
        sw = sw.with_count("hands", hands) if hands is not None else sw.with_count("matches", matches)
        sw = sw.with_chunk_size(chunk_size)
    except SweepError as e:
        raise UserError(str(e)) from None
    for note in sw.warnings:
        click.echo(f"Warning: {note}", err=True)
    out_path = Path(out) if out else Path("runs") / sw.name
    total = sw.count * len(sw.points)
    _check_workers(workers, scheduler)
    with _dask_client(scheduler, cluster, workers) as client:
        bar = tqdm(total=total, unit=sw.unit[:-2] if sw.unit == "matches" else "hand", unit_scale=True,
                   file=sys.stderr, disable=True if quiet else None, delay=0.5, leave=False)
        try:
            with warnings.catch_warnings(), _one_line(out_path), _compiling(sw.unit, quiet, client):
                warnings.simplefilter("ignore")  # sw.warnings were printed above
                s = run_sweep(sw, out_path, workers=workers, client=client, force=force, resume=resume,
                              progress=bar.update)
        finally:
            bar.close()
    where = f"Dask at {scheduler}" if scheduler else ("a Dask LocalCluster" if cluster else "local")
    click.echo(f"{sw.name}: {len(sw.points)} points x {sw.count:,} {sw.unit} ({sw.mode}), seed {sw.seed}, "
               f"{where} -> {out_path}")
    click.echo(f"  bots: {bots_line({p.label: seating_text(p.cfg.seats) for p in sw.points})}")
    skipped = sum(p.chunks_skipped for p in s)
    rows = sum(p.rows for p in s)
    for p in s:
        for note in p.notes:
            click.echo(f"  checked: {note}")
    if skipped:
        click.echo(f"  resumed: kept {_count(skipped, 'finished chunk')}")
    if not rows:
        click.echo("  nothing left to play: the sweep was already complete")
    if rows:
        seconds = wall_seconds(s)
        rate = rows / seconds if seconds > 0 else float("nan")
        click.echo(f"  {rate:,.0f} hands/s over {rows:,} hands played now")
        width = max(len(p.label) for p in s)
        click.echo(f"  {'point':<{width}}  {'hands':>10}  {'mean turns':>10}  {'dealer+1 win share':>18}")
        for p in s:
            if p.rows:
                click.echo(f"  {p.label:<{width}}  {p.rows:>10,}  {p.mean_turns:>10.2f}  "
                           f"{p.shares()[1 % p.players]:>18.2%}")
    click.echo(f"  next: unosim report {out_path}")


@main.command()
def configs() -> None:
    """List the bundled configs and sweeps (usable by name: `unosim run stacking`)."""
    from unosim.rules.bundled import bundled_configs, bundled_sweeps, describe

    for title, found in (("configs", bundled_configs()), ("sweeps (unosim sweep NAME)", bundled_sweeps())):
        click.echo(f"{title}:")
        width = max(len(n) for n in found)
        for name, path in found.items():
            click.echo(f"  {name:<{width}}  {describe(path)}")


@main.command()
@click.option("--quiet", is_flag=True, help="Print nothing but the compile notice.")
def warmup(quiet: bool) -> None:
    """Compile every kernel now (first run only, about a minute and a half) so later commands start at once."""
    from unosim.run.warmup import warmup as compile_all

    seconds = compile_all()
    if not quiet:
        for name, t in seconds.items():
            click.echo(f"  {name}: ready in {t:.1f} s")
        click.echo(f"unosim: every kernel is compiled and cached ({sum(seconds.values()):.1f} s)")


@main.command()
@click.argument("directory", metavar="DIR")
def repair(directory: str) -> None:
    """Rebuild the manifest of the result DIR from its parts and check every part.

    For a result whose _unosim.json was lost or damaged (a full disk): every verified part
    is kept, a damaged one removed; the run's own command then finishes it."""
    from unosim.run.repair import repair as rebuild

    with _one_line(Path(directory)):
        for line in rebuild(directory):
            click.echo(line)


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--players", type=int, default=2, show_default=True, help="Players at the table.")
@click.option("--hands", type=int, default=20_000, show_default=True,
              help="Deals; each is played in every seating of A and B (see below).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--others", default=None,
              help="A bot for the seats A and B leave [default: none; A and B fill the table].")
@click.option("--config", "config", default=None, help="Rules from this config (its [bots] are replaced).")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
def duel(a: str, b: str, players: int, hands: int, seed: int, others: str | None, config: str | None,
         workers: int | None) -> None:
    """Bot A against bot B in every seat pattern: win shares and A - B with 95% intervals.

    Without --others: A alone at a table of B's and B alone at a table of A's, every
    rotation (heads-up: the two face each other from both seats).  With --others: A and B
    at a table of that bot in every placement and rotation.  `duel B A` reports minus the
    difference of `duel A B`.  A bot is a strategy name, name:param=value,... (e.g.
    counter:suspicion=0.5) or a bot file (.toml), labelled by its name."""
    from unosim.rules.config import ConfigError
    from unosim.analysis.duel import duel as play_duel
    from unosim.analysis.duel import render
    from unosim.run.jobs import RunError

    try:
        res = play_duel(a, b, players=players, hands=hands, seed=seed, others=others,
                        cfg=_load(config) if config else None, workers=workers)
    except (ConfigError, RunError) as e:
        raise UserError(str(e)) from None
    for line in render(res):
        click.echo(line)


def _register_skill() -> None:
    """`unosim tune`, `league` and `skill` (unosim/skill/commands.py)."""
    from unosim.skill.commands import register

    register(main)


_register_skill()

if __name__ == "__main__":  # pragma: no cover
    main()
