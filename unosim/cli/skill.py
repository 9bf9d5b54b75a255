"""`unosim tune` and `unosim skill`: parse, call unosim.studies, print."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from unosim.studies import skill_defaults as SKILL

from .common import (UserError, check_workers, dask_client, guarded, load_config_arg, main, not_empty, out_dir,
                     plural, progress_bar, refuse_nested, user_errors, warnings_as_lines)

__all__ = ["skill", "tune"]


def _bots(values: tuple[str, ...], option: str) -> list[Any]:
    """Bot specs (names, name:p=v, bot files; comma-separated or repeated) -> bots."""
    from unosim.rules.botfile import resolve_bot, split_bots
    from unosim.rules.config import ConfigError

    with user_errors(ConfigError):
        return [resolve_bot(s, option) for s in split_bots(values, option)]


def _players(cfg: Any, players: int | None) -> Any:
    from unosim.rules.config import ConfigError

    if players is None:
        return cfg
    try:
        return cfg.with_values({"players": players})
    except ConfigError as e:
        raise UserError(f"--players: {e}") from None


@main.command()
@click.argument("config")
@click.option("--out", type=click.Path(file_okay=False), default=None, callback=not_empty,
              help="Output directory [default: runs/tune-<config>-<n>p].")
@click.option("--field", multiple=True, default=("random",), show_default=True,
              help="The bots at the other seats: strategies or bot files, comma-separated (cycled over the seats).")
@click.option("--budget", type=int, default=600, show_default=True,
              help="Evaluations (a generation costs 12: 11 candidates and their mean).")
@click.option("--deals", type=int, default=1000, show_default=True,
              help="Deals per evaluation, each played once per seat rotation.")
@click.option("--check-deals", type=int, default=10_000, show_default=True,
              help="Fresh deals of the final check.")
@click.option("--check-matches", type=int, default=2000, show_default=True,
              help="Fresh matches of the final check (each once per seat rotation).")
@click.option("--objective", default="hands", show_default=True,
              help="What the search maximises: hands (win share), points (S1 points won minus S2 points lost "
                   "per hand) or matches (S1 match win share; matches:s2, matches:s4 for the others; "
                   "--deals then counts matches).")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same tuned bot.")
@click.option("--players", type=int, default=None, help="Players at the table [default: the config's].")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
@click.option("--force", is_flag=True, help="Replace the files of an earlier `unosim tune` of other settings at --out "
              "(its own files only; a file tune did not write is never replaced).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--replicates", type=int, default=1, show_default=True,
              help="Tune this many times (seeds SEED, SEED+1, ...) and report figures over them, search noise "
                   "included (DIR/replicate=<r>/ each).")
def tune(config: str, out: str | None, field: tuple[str, ...], budget: int, deals: int, check_deals: int, seed: int,
         players: int | None, workers: int | None, quiet: bool, replicates: int = 1, objective: str = "hands",
         check_matches: int = 2000, force: bool = False) -> None:
    """Tune the `weights` bot's parameters for CONFIG by CMA-ES; write DIR/bot.toml.

    Fitness is the candidate's --objective against the field with seats rotated, every
    candidate of a generation on the same deals, fresh deals every generation.  Ctrl-C
    stops the search and still writes the best bot so far (the search's mean)."""
    if replicates != 1:
        _tune_replicates(config, out, players, seed, replicates)
        return
    _tune_once(config, out, field, budget, deals, check_deals, seed, players, workers, quiet, objective,
               check_matches, force)


def _tune_once(config: str, out: str | None, field: tuple[str, ...], budget: int, deals: int, check_deals: int,
               seed: int, players: int | None, workers: int | None, quiet: bool, objective: str, check_matches: int,
               force: bool, replicate: bool = False) -> None:
    """One tuning into ``out`` (``replicate``: a replicate=<r> folder of `tune --replicates`,
    inside the output that command holds)."""
    from unosim.engine import matches  # noqa: F401  (the kernels load before the folder: a Ctrl-C then stops the search)
    from unosim.run.jobs import RunError
    from unosim.studies.arena import Objective
    from unosim.studies.tune import check_args

    cfg = _players(load_config_arg(config), players)
    field_bots = _bots(field, "--field")
    w = check_workers(workers)
    with user_errors(RunError):
        obj = Objective.parse(objective)
        check_args(budget, deals, seed)
        if not 1 <= check_deals <= 10_000_000:
            raise RunError(f"--check-deals: must be between 1 and 10,000,000 (got {check_deals})")
        if not 1 <= check_matches <= 1_000_000:
            raise RunError(f"--check-matches: must be between 1 and 1,000,000 (got {check_matches})")
        if obj.name == "matches:s2" and cfg.finish == "last_standing":
            raise RunError("--objective: matches:s2 is not kept under rules.finish = \"last_standing\" (H13)")
    dest = out_dir(out, f"tune-{cfg.name}-{cfg.players}p")
    if not replicate:
        refuse_nested(dest)
    identity = {"config": cfg.to_toml(), "field": [b.entry() for b in field_bots], "budget": budget, "deals": deals,
                "check_deals": check_deals, "seed": seed, "objective": obj.name, "check_matches": check_matches}
    stack, g = guarded(dest, "tune", identity, force, ("bot.toml", "history.parquet", "curve.png", "check.json"))
    with stack:
        _tune(g, cfg, field_bots, budget, deals, check_deals, seed, w, quiet, obj, check_matches)


def _tune(g: Any, cfg: Any, field_bots: list[Any], budget: int, deals: int, check_deals: int, seed: int, w: int,
          quiet: bool, obj: Any, check_matches: int) -> None:
    """`unosim tune` inside its guarded folder ``g``: the search, the files, the check."""
    from unosim.interrupts import exit_status
    from unosim.rules.botfile import dump_bot
    from unosim.run.jobs import RunError
    from unosim.run.warmup import compile_notice
    from unosim.analysis.skill_plots import plot_curve
    from unosim.studies.tune import check as final_check, default_popsize, tune as search

    dest = g.root
    generations = max(0, budget // (default_popsize() + 1))
    bar = progress_bar(quiet, total=generations, unit="gen")

    def step(g: int, share: float) -> None:
        bar.set_postfix_str(f"mean's {obj.name} {obj.format(share)}")
        bar.update(1)

    with user_errors(RunError), bar, compile_notice(("hands", "matches"), quiet=quiet):
        res = search(cfg, field_bots, budget=budget, deals=deals, seed=seed, workers=w, progress=step,
                     objective=obj)
    about = {"config": cfg.name, "players": cfg.players, "field": ",".join(b.name for b in field_bots),
             "budget": budget, "deals": deals, "seed": seed, "objective": obj.name, "generations": res.generations,
             "interrupted": res.interrupted}
    text = dump_bot(res.bot, about)
    try:
        g.write_text("bot.toml", text)
    except OSError as e:  # a full disk must not lose hours of tuning: the bot goes to stdout
        click.echo(text)
        raise UserError(f"{dest / 'bot.toml'}: {e.strerror or e}; the tuned bot was printed above (save it as "
                          "a .toml file)") from None
    try:
        g.write("history.parquet", lambda p: res.history.to_parquet(p, index=False))
    except OSError as e:
        raise UserError(f"{dest / 'history.parquet'}: {e.strerror or e}; {dest / 'bot.toml'} is written and "
                          "kept") from None
    click.echo(f"{cfg.name}, {cfg.players} players, field {', '.join(b.name for b in field_bots)}, "
               f"objective {obj.name}: "
               f"{res.generations} generations x {res.popsize} candidates (+ mean) = {res.evaluations} evaluations, "
               f"{res.hands:,} hands in {res.seconds:.1f} s ({res.hands / max(res.seconds, 1e-9):,.0f} hands/s, "
               f"{res.kernel_share:.0%} in the kernel)")
    chk = None
    if res.interrupted:
        click.echo(f"interrupted: wrote the search's mean so far to {dest / 'bot.toml'}; final check skipped")
    else:
        with user_errors(RunError), compile_notice(("hands", "matches"), quiet=quiet):
            chk = final_check(cfg, res.bot, field_bots, deals=check_deals, seed=seed, workers=w, objective=obj,
                              matches=check_matches)
        for line in chk.lines():
            click.echo(line)
    even = 1 / (cfg.teams if cfg.teams > 1 else cfg.players) if obj.is_share else 0.0
    share = (chk.tuned.share, *chk.tuned.interval()) if chk else None
    begin = (chk.start.share, *chk.start.interval()) if chk else None
    measure = {"hands": "win share against the field", "points": "points per hand against the field (S1 - S2)",
               "matches": f"{obj.system.upper()} match win share against the field"}[obj.kind]
    try:
        if chk is not None:
            g.write_text("check.json", json.dumps(chk.to_dict(), indent=1))
        if res.interrupted and res.generations == 0:  # stopped before a generation ended: no curve
            click.echo(f"wrote {dest / 'bot.toml'} (the starting bot: no generation finished), history.parquet")
            sys.exit(exit_status())
        g.write("curve.png", lambda p: plot_curve(
            res.history, even, f"Tuning `weights` for {cfg.name}, {cfg.players} players, against "
            f"{', '.join(b.name for b in field_bots)}, by {obj.name}", p, share, begin, measure=measure,
            percent=obj.is_share))
    except OSError as e:
        raise UserError(f"{dest}: {e.strerror or e}; bot.toml and history.parquet are written and kept") from None
    click.echo(f"wrote {dest / 'bot.toml'}, history.parquet, curve.png" + (", check.json" if chk else ""))
    if res.interrupted:
        sys.exit(exit_status())  # 130 for Ctrl-C, 143 for SIGTERM


def _tune_replicates(config: str, out: str | None, players: int | None, seed: int, replicates: int) -> None:
    """`unosim tune --replicates K`: the command once per replicate (seed + r, into
    DIR/replicate=<r>), then the check figures over the replicates; DIR/bot.toml is the
    median replicate's bot."""
    if not 2 <= replicates <= 100:
        raise UserError(f"--replicates: must be between 1 and 100 (got {replicates})")
    if not 0 <= seed or seed + replicates > 2**63:
        raise UserError(f"--seed: must be between 0 and 2**63-1-replicates (got {seed})")
    cfg = _players(load_config_arg(config), players)
    dest = out_dir(out, f"tune-{cfg.name}-{cfg.players}p")
    refuse_nested(dest)
    ctx = click.get_current_context()
    params = {k: v for k, v in ctx.params.items() if k not in ("config", "out", "replicates")}
    # the folder's own files go through the output guard too, taken before any tuning: never over a file tune
    # did not write, and held while the replicates are tuned inside it
    settings = json.loads(json.dumps({k: v for k, v in params.items() if k not in ("workers", "quiet", "force")}))
    stack, g = guarded(dest, "tune", {"config": cfg.to_toml(), "replicates": replicates, **settings},
                       bool(params.get("force")), ("bot.toml", "replicates.json"))
    with stack:
        _replicates(g, dest, cfg, config, seed, replicates, params)


def _replicates(g: Any, dest: Path, cfg: Any, config: str, seed: int, replicates: int, params: dict[str, Any]) -> None:
    """`unosim tune --replicates`'s work inside its guarded folder ``g``."""
    import shutil

    import numpy as np

    from unosim.studies.replicates import combine

    checks = []
    for r in range(replicates):
        click.echo(f"replicate {r + 1}/{replicates} (seed {seed + r}, into {dest / f'replicate={r}'}):")
        _tune_once(config, str(dest / f"replicate={r}"), **{**params, "seed": seed + r}, replicate=True)
        checks.append(json.loads((dest / f"replicate={r}" / "check.json").read_text()))

    points = checks[0].get("objective", "hands") == "points"  # figures in points per hand, not shares

    def over(figures: list[dict], key: str = "share") -> tuple[str, dict]:
        sign = "+" if key == "diff" or points else ""
        pct = ".2f" if points else ".2%"
        y = np.array([[f[key] for f in figures]])
        se = np.array([[(f["high"] - f["low"]) / (2 * 1.959964) for f in figures]])
        c = combine(y, se)
        lo, hi = c.interval()
        d = {"mean": float(c.mean[0]), "low": float(lo[0]), "high": float(hi[0]), "replicate_sd": float(c.sd[0]),
             "replicates": [float(v) for v in y[0]]}
        return (f"{d['mean']:{sign}7{pct}} [{d['low']:{sign}{pct}}, {d['high']:{sign}{pct}}]  replicates "
                f"{', '.join(f'{v:{sign}{pct}}' for v in y[0])} (sd {d['replicate_sd']:{pct}})"), d

    rows = {"tuned vs the field": over([c["tuned_vs_field"] for c in checks]),
            "tuned - start": over([c["tuned_minus_start"] for c in checks], "diff"),
            "tuned - its best built-in": over([c["tuned_minus_best_builtin"] for c in checks], "diff"),
            "tuned at a table of that built-in": over([c["tuned_vs_best_builtin_table"] for c in checks])}
    click.echo(f"over {replicates} replicates (seeds {seed}-{seed + replicates - 1}): mean, 95% interval with the "
               f"search's noise (Student t, {replicates - 1} df; unosim/studies/replicates.py):")
    for name, (line, _) in rows.items():
        click.echo(f"  {name:<34} {line}")
    share = [c["tuned_vs_field"]["share"] for c in checks]
    median = int(np.argsort(share)[(replicates - 1) // 2])
    summary = {"replicates": replicates, "seeds": [seed + r for r in range(replicates)], "bot": f"replicate={median}",
               "best_builtins": [c["best_builtin"] for c in checks], **{k: d for k, (_, d) in rows.items()}}
    g.write("bot.toml", lambda p: shutil.copyfile(dest / f"replicate={median}" / "bot.toml", p))
    g.write_text("replicates.json", json.dumps(summary, indent=1))
    click.echo(f"wrote {dest / 'bot.toml'} (the bot of replicate={median}, the median against the field), "
               "replicates.json")


@main.command()
@click.argument("sweep_file", metavar="SWEEP")
@click.option("--out", type=click.Path(file_okay=False), default=None, callback=not_empty,
              help="Output directory [default: runs/<sweep name>.skill, found by `unosim report runs/<sweep name>`].")
@click.option("--budget", type=int, default=SKILL.BUDGET, show_default=True, help="Tuning evaluations per point.")
@click.option("--deals", type=int, default=SKILL.DEALS, show_default=True, help="Deals per tuning evaluation.")
@click.option("--check-deals", type=int, default=SKILL.CHECK_DEALS, show_default=True,
              help="Fresh deals measuring each point's skill index.")
@click.option("--seed", type=int, default=None, help="[default: the sweep's seed]")
@click.option("--bot", default=None, help="Measure this bot (a strategy or bot file) at every point instead of tuning.")
@click.option("--workers", type=int, default=None, help="Cores to use [default: all].")
@click.option("--force", is_flag=True, help="Replace the files of an earlier `unosim skill` of other settings at "
              "--out (its own files only).")
@click.option("--quiet", is_flag=True, help="No progress lines.")
@click.option("--replicates", type=int, default=None,
              help="Tunings per point with independent seeds (SEED, SEED+1, ...); intervals then include the "
                   f"search's noise  [default: {SKILL.REPLICATES}; 1 with --bot].")
@click.option("--ceiling", is_flag=True,
              help="Also the skill bracket's ceiling: the search player (no tuning) at a table of B0 beside the tuned "
                   "bot, and both at a table of counter bots.  Given to a finished run it adds the ceiling and tunes "
                   "nothing again.")
@click.option("--ceiling-deals", type=int, default=None,
              help="Fresh deals per field measuring the search, each from every seat (the search is about a "
                   "thousand times slower than a plain bot: on 2 cores 1,000 deals take tens of seconds per field "
                   "and point, where --check-deals 10,000 take a second)  [default: 1000].")
@click.option("--ceiling-bot", default=None,
              help="The search player of the ceiling: search or search:worlds=..,rollouts=..,...  [default: search "
                   "at its defaults].")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=not_empty,
              help="Send every replicate (its tuning and check) and every ceiling measurement as a task to the Dask "
                   "scheduler at ADDRESS (tcp://host:8786); this command writes every file, so --out need not be "
                   "shared storage (see docs/cluster.md).")
@click.option("--cluster", type=click.Choice(["local"]), default=None,
              help="local: start a Dask LocalCluster on this machine and run the replicates and ceiling "
                   "measurements there.")
def skill(sweep_file: str, out: str | None, budget: int, deals: int, check_deals: int, seed: int | None,
          bot: str | None, workers: int | None, quiet: bool, replicates: int | None, force: bool = False,
          ceiling: bool = False, ceiling_deals: int | None = None, ceiling_bot: str | None = None,
          scheduler: str | None = None, cluster: str | None = None) -> None:
    """The skill index of every point of SWEEP: a bot tuned for each point's rules, then
    its win share at a table of B0 bots on fresh deals, minus 1/n (0 = a game of luck).
    Each point is tuned --replicates times and its figures are the mean, with intervals
    that include the search's own noise (docs/skill.md).  --ceiling adds the search
    player's index beside it: the tuned bot is a lower bound, the search a ceiling."""
    if not ceiling and (ceiling_deals is not None or ceiling_bot is not None):
        raise UserError(f"{'--ceiling-deals' if ceiling_deals is not None else '--ceiling-bot'}: only with "
                          "--ceiling (add --ceiling to measure the search player)")
    if replicates is None:
        replicates = 1 if bot is not None else SKILL.REPLICATES
    if not 1 <= replicates <= 100:
        raise UserError(f"--replicates: must be between 1 and 100 (got {replicates})")
    from unosim.rules.botfile import resolve_bot
    from unosim.rules.config import ConfigError
    from unosim.run.jobs import RunError
    from unosim.run.sweep import SweepError, load_sweep
    from unosim.studies.tune import check_args, default_popsize

    with user_errors(SweepError):
        sw = load_sweep(sweep_file)
    if scheduler and cluster:
        raise UserError("--scheduler and --cluster: give one of the two")
    w = check_workers(workers, scheduler)  # a scheduler's workers check their own core counts
    with user_errors(RunError):
        check_args(budget if bot is None else default_popsize() + 1, deals, sw.seed if seed is None else seed)
        if not 1 <= check_deals <= 10_000_000:
            raise RunError(f"--check-deals: must be between 1 and 10,000,000 (got {check_deals})")
    with user_errors(ConfigError):
        fixed = resolve_bot(bot, "--bot") if bot is not None else None
    roof = _ceiling(ceiling, ceiling_bot, ceiling_deals)
    dest = out_dir(out, sw.name, ".skill")
    refuse_nested(dest)

    def step(label: str, i: int, total: int) -> None:
        if not quiet:
            click.echo(f"  [{i + 1}/{total}] {label}", err=True)

    identity = {"sweep": [[p.label, p.cfg.to_toml()] for p in sw.points], "budget": budget, "deals": deals,
                "check_deals": check_deals, "seed": sw.seed if seed is None else seed,
                "bot": None if fixed is None else fixed.entry(), "replicates": replicates}
    if roof is not None:  # added to a kept run of the same settings, never a reason to redo it (guard's extends)
        identity["ceiling"] = roof.identity()
    from unosim.studies.skill_rows import CEILING_FILE, FIGURE_FILE, POINTS_DIR, REPLICATES_FILE

    names = ["skill.parquet", REPLICATES_FILE, FIGURE_FILE] + ([CEILING_FILE] if roof else [])
    if fixed is None:
        per = [""] if replicates == 1 else [f"replicate={r}/" for r in range(replicates)]
        names += [f"{POINTS_DIR}/{p.rel}/{r}{f}" for p in sw.points for r in per for f in ("bot.toml", "history.pq")]
    if roof is not None and not force:
        _same_ceiling(dest, identity)
    # connected before the folder is claimed: an unreachable scheduler leaves no folder behind
    with dask_client(scheduler, cluster, workers) as client:
        stack, g = guarded(dest, "skill", identity, force, names, extends=("ceiling",))
        with stack:
            _rename_old_files(g)
            if roof is None and g.identity.get("ceiling") is not None:  # a kept ceiling is kept, and shown
                roof = _kept_ceiling(g.identity["ceiling"])
                names.append(CEILING_FILE)
            for name in names:
                g.path(name)  # listed as this command's before it is written
            _skill(g, sw, budget, deals, check_deals, seed, fixed, w, quiet, step, replicates, roof, client)


def _rename_old_files(g: Any) -> None:
    """Rename a skill folder's files of the older layout (skill_replicates.parquet,
    points/, ...) to today's names, so the command resumes it."""
    from unosim.studies.skill_rows import OLD_NAMES, POINTS_DIR

    new_of = {v: k for k, v in OLD_NAMES.items()}
    for name in list(g.files):
        head, *rest = name.split("/")
        if head in new_of:
            g.rename(name, "/".join([new_of[head], *rest[:-1], *(new_of.get(f, f) for f in rest[-1:])]))
    old = g.root / OLD_NAMES[POINTS_DIR]
    if old.is_dir():  # the folders the moves emptied (a user's file keeps its own)
        for d in sorted((p for p in old.rglob("*") if p.is_dir()), reverse=True) + [old]:
            if not any(d.iterdir()):
                d.rmdir()


def _ceiling(given: bool, spec: str | None, deals: int | None) -> Any:
    """``--ceiling``'s search player and deal count (None without --ceiling)."""
    if not given:
        return None
    from unosim.rules.botfile import resolve_bot
    from unosim.rules.config import ConfigError
    from unosim.run.jobs import RunError
    from unosim.studies.skill_index import Ceiling

    with user_errors(ConfigError, RunError):
        return Ceiling(resolve_bot("search" if spec is None else spec, "--ceiling-bot"),
                       1000 if deals is None else deals)


def _same_ceiling(dest: Path, identity: dict[str, Any]) -> None:
    """Refuse, naming the ceiling options, a folder whose kept run differs from this one in
    its ceiling only (the guard would call it other settings, and --force redo the tuning)."""
    from unosim.run.guard import OUTPUT_MANIFEST
    from unosim.run.integrity import read_json

    kept = (read_json(dest / OUTPUT_MANIFEST) or {}).get("identity")
    if not isinstance(kept, dict) or kept.get("ceiling") in (None, identity["ceiling"]):
        return  # no kept run, or not one this check reads (the guard judges it), or the same ceiling
    if {k: v for k, v in kept.items() if k != "ceiling"} == {k: v for k, v in identity.items() if k != "ceiling"}:
        old = _kept_ceiling(kept["ceiling"])
        raise UserError(f"--ceiling-bot/--ceiling-deals: {dest} holds the ceiling of {old.bot.name} on "
                          f"{old.deals:,} deals; a folder keeps the ceiling it measured (give those, or none, to "
                          "resume it; --force redoes the whole folder, tuning included)")


def _kept_ceiling(identity: Any) -> Any:
    from unosim.run.jobs import RunError
    from unosim.studies.skill_index import Ceiling

    with user_errors(RunError):
        return Ceiling.of(identity)


def _skill(g: Any, sw: Any, budget: int, deals: int, check_deals: int, seed: int | None, fixed: Any, w: int,
           quiet: bool, step: Any, replicates: int, roof: Any = None, client: Any = None) -> None:
    """`unosim skill` inside its guarded folder ``g``; ``roof``: the ceiling (--ceiling);
    ``client``: a Dask client (--scheduler, --cluster), whose workers compile and play."""
    from unosim.run.cluster import ClusterError
    from unosim.run.jobs import RunError
    from unosim.run.warmup import compile_notice
    from unosim.studies.skill_index import base_differences, render_skill, skill_frame, skill_sweep
    from unosim.analysis.skill_plots import plot_skill
    from unosim.analysis.stats import DISCOVERY_RATE
    from unosim.studies.skill_rows import CEILING_FILE, FIGURE_FILE, REPLICATES_FILE, DamagedTable

    dest = g.root
    try:
        with user_errors(ClusterError, RunError), warnings_as_lines(DamagedTable):
            if client is not None:
                from unosim.studies.skill_tasks import skill_dask

                points = skill_dask(client, sw, dest, budget=budget, deals=deals, check_deals=check_deals,
                                    seed=seed, bot=fixed, workers=w, progress=step, replicates=replicates,
                                    ceiling=roof)
            else:
                with compile_notice(("hands", "search_hands") if roof is not None else ("hands",), quiet=quiet):
                    points = skill_sweep(sw, dest, budget=budget, deals=deals, check_deals=check_deals, seed=seed,
                                         bot=fixed, workers=w, progress=step, replicates=replicates, ceiling=roof)
    except OSError as e:
        raise UserError(f"{e.filename or dest}: {e.strerror or e}; {dest / 'skill.parquet'} keeps every point "
                          "finished so far, so the same command resumes once this is fixed") from None
    frame = skill_frame(points)
    for line in render_skill(frame):
        click.echo(line)
    diffs = base_differences(frame)
    if len(diffs):
        paired = roof is not None and bool(frame.loc[~frame["is_base"], "ceiling_diff_se"].notna().all())
        ceiling_how = ("" if roof is None else "; the ceiling's paired by deal" if paired else
                       "; the ceiling's the two measurements' variances added (kept without per-deal wins)")
        click.echo("difference from the base point of the same table size (normalised skill, 95% interval"
                   + (", search noise included" if replicates > 1 else "") + ceiling_how + "):")
        for r in diffs.sort_values("diff", ascending=False).itertuples():
            roof_text = (f"   ceiling {r.ceiling_diff:+7.1%} [{r.ceiling_low:+6.1%}, {r.ceiling_high:+6.1%}]"
                         + (" †" if r.ceiling_discovery else "") if roof is not None else "")
            click.echo(f"  {r.rules:<32} {r.players:>2}p  {r.diff:+7.1%} [{r.low:+6.1%}, {r.high:+6.1%}]"
                       + (" †" if r.discovery else "  ") + roof_text)
        if len(diffs) > 1:
            marked = bool(diffs["discovery"].any() or (roof is not None and diffs["ceiling_discovery"].any()))
            click.echo(f"  {'† remains' if marked else 'no difference remains'} with the false discovery rate at "
                       f"{DISCOVERY_RATE:.0%} over all {len(diffs)} differences of its bound (Benjamini-Hochberg)")
    noise = f"mean of {replicates} tunings, 95% intervals with the search's noise" if replicates > 1 else \
        "95% intervals"
    try:
        g.write(FIGURE_FILE, lambda p: plot_skill(
            frame, f"Skill index of {sw.name}: how much a tuned bot beats B0 ({noise})"
            + (f"\nand the ceiling: {roof.bot.name}, no tuning, {roof.deals:,} deals" if roof else ""), p))
    except OSError as e:
        raise UserError(f"{dest / FIGURE_FILE}: {e.strerror or e}; skill.parquet is written and kept") from None
    bots = "" if fixed else (", _points/*/replicate=*/bot.toml" if replicates > 1 else ", _points/*/bot.toml")
    bots = (f", {CEILING_FILE}" if roof else "") + bots
    roof_time = (f" (the ceiling's search: {sum(p.ceiling_seconds for p in points if p.ceiling_seconds > 0):.0f} s)"
                 if roof else "")
    click.echo(f"wrote {dest / 'skill.parquet'} (its table; the rest beside it: {REPLICATES_FILE}, {FIGURE_FILE}"
               f"{bots}); "
               f"{sum(p.seconds for p in points):.0f} s over {plural(len(points), 'point')}{roof_time}")
