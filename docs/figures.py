"""The generated blocks of README.md and docs/*.md that are tables, not console output.

Each function takes the page's scratch folder and returns the block's Markdown; ``python
docs/generate.py NAME`` writes it into the page (docs/generate.py says how blocks work).
Each runs what it reports, through the same Python API the commands use, at the size the
page states next to the table.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

STRATEGIES = ("greedy", "aggressor", "weights", "wild_saver", "color_keeper", "counter")
DEALS = 20_000


def _share(x) -> str:  # one duel line: "56.8% [56.3, 57.2]"
    return f"{x.share:.1%} [{100 * x.low:.1f}, {100 * x.high:.1f}]"


def strategies_vs_random(work: Path) -> str:
    """docs/bots.md: every strategy alone at a table of `random`, heads-up and at 4."""
    from unosim.studies.duel import duel

    rows = ["| Strategy | Heads-up | 4 players |", "|---|---|---|"]
    for name in STRATEGIES:
        two, four = (duel(name, "random", players=n, hands=DEALS, seed=7).lines[0] for n in (2, 4))
        label = f"`{name}` (defaults)" if name == "weights" else f"`{name}`"
        rows.append(f"| {label} | {_share(two)} | {_share(four)} |")
    return "\n".join(rows)


def counter_suspicion(work: Path) -> str:
    """docs/bots.md: `counter`'s heads-up share by its `suspicion`, against `random` and
    against a `greedy` that always bluffs."""
    from unosim.studies.duel import duel

    values = (0.0, 0.1, 0.3, 1.0)
    opponents = ("random", "greedy:bluff_rate=1")
    rows = ["| `suspicion` | " + " | ".join(f"vs `{o}`" for o in opponents) + " |",
            "|---|" + "---|" * len(opponents)]
    for s in values:
        cells = [_share(duel(f"counter:suspicion={s}", o, players=2, hands=DEALS, seed=0).lines[0])
                 for o in opponents]
        rows.append(f"| {s} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


FLAT = "search:deepen=1"
"""The search without its second look: a budget curve and a parameter's worth are measured on
it, where every decision gets the same playouts."""
SEARCH_BUDGETS = ((16, 2), (32, 2), (32, 4), (64, 4), (128, 4))
"""(worlds, rollouts): playouts per option 32, 64 (the default), 128, 256, 512."""
SEARCH_CURVE_DEALS = {2: (5000, 3000, 2000, 1000, 600), 4: (1000, 600, 400, 300, 200)}
"""Deals per budget: fewer where a hand costs more, so each row takes minutes, not hours."""
SEARCH_DUELS = ((f"{FLAT},voids=0", 2, 5000), (f"{FLAT},margin=0", 2, 1000), (f"{FLAT},margin=1", 2, 3000),
                (f"{FLAT},margin=3", 2, 3000), (f"{FLAT},margin=3", 4, 1000))
SEARCH_PAIRS = ((FLAT, f"{FLAT},voids=0", 2, 5000), (f"{FLAT},colours=1", FLAT, 2, 3000))
"""Search against search: what one parameter is worth, paired by deal (the rival is not counter)."""


def _budget_spec(worlds: int, rollouts: int) -> str:
    """The flat search (one look at every decision, ``deepen=1``) at this budget, as a user
    types it: the strategy's default budget is left unsaid."""
    from unosim.rules.strategies import STRATEGIES

    spec = STRATEGIES["search"][1]
    return (FLAT + (f",worlds={worlds}" if worlds != spec["worlds"][0] else "")
            + (f",rollouts={rollouts}" if rollouts != spec["rollouts"][0] else ""))


def _duel_row(a: str, b: str, n: int, hands: int, config: str | None = None) -> tuple[str, object]:
    """A duel's row (seed 0), under the bundled ``config``'s rules if one is named."""
    from unosim.rules.bundled import bundled_configs
    from unosim.rules.config import load_config
    from unosim.studies.duel import duel

    cfg = None if config is None else load_config(bundled_configs()[config])
    res = duel(a, b, players=n, hands=hands, seed=0, cfg=cfg)
    rules = "" if config is None else f" --config configs/{config}.toml"
    return (f"| `unosim duel {a} {b} --players {n} --hands {hands}{rules}` | {res.hands:,} | "
            f"{100 * res.diff:+.2f} [{100 * res.diff_low:+.2f}, {100 * res.diff_high:+.2f}] |"), res


def search_budget(work: Path) -> str:
    """docs/bots.md: the search player against `counter` by budget (playouts per option),
    heads-up and at 4 (seed 0); also draws the page's figure of it, search_budget.png."""
    rows = ["| Command | Hands | A - B |", "|---|---|---|"]
    curve: dict[int, list[tuple[int, float, float, float]]] = {}
    for n, deals in SEARCH_CURVE_DEALS.items():
        for (worlds, rollouts), hands in zip(SEARCH_BUDGETS, deals):
            row, res = _duel_row(_budget_spec(worlds, rollouts), "counter", n, hands)
            rows.append(row)
            curve.setdefault(n, []).append((worlds * rollouts, 100 * res.diff, 100 * res.diff_low, 100 * res.diff_high))
    _budget_figure(curve, Path(__file__).parent / "search_budget.png")
    return "\n".join(rows)


def _budget_figure(curve: dict[int, list[tuple[int, float, float, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=120)
    for shift, (n, points) in zip((0.97, 1.03), curve.items()):
        x = [p[0] * shift for p in points]  # side by side, so the two intervals never hide each other
        y = [p[1] for p in points]
        err = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"{n} players")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks([p[0] for p in next(iter(curve.values()))], [str(p[0]) for p in next(iter(curve.values()))])
    ax.set_xlabel("playouts per option (worlds x rollouts, every decision: deepen=1; the default: 64)")
    ax.set_ylabel("search - counter, points of win share")
    ax.set_title("The flat search against counter, by budget (95% intervals)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def search_strength(work: Path) -> str:
    """docs/bots.md: the flat search against `counter` with one parameter changed (margin,
    voids), then against itself with one parameter changed (seed 0)."""
    return _duel_table([(bot, "counter", n, hands) for bot, n, hands in SEARCH_DUELS] + list(SEARCH_PAIRS))


def _duel_table(duels) -> str:
    """A table of duels (A, B, players, hands), one row each."""
    rows = ["| Command | Hands | A - B |", "|---|---|---|"]
    for a, b, n, hands in duels:
        rows.append(_duel_row(a, b, n, hands)[0])
    return "\n".join(rows)


SEARCH_DEEPEN = (("search", "counter", 2, 3000), ("search", FLAT, 2, 3000), ("search", "counter", 4, 3000))
"""The search at its defaults (a second look, ``deepen=8``) against `counter` and against the
flat search."""


def search_deepen(work: Path) -> str:
    """docs/bots.md: the search at its defaults against `counter`, heads-up and at 4, and
    against the flat search heads-up (seed 0)."""
    return _duel_table(SEARCH_DEEPEN)


def search_jumps(work: Path) -> str:
    """docs/bots.md: the search at its defaults against `counter` at 4 players under
    jump-ins (H2, configs/jump_in.toml), where it decides its own (seed 0)."""
    return "\n".join(["| Command | Hands | A - B |", "|---|---|---|",
                      _duel_row("search", "counter", 4, 3000, "jump_in")[0]])


SEARCH_MATCHES = ((2, 200), (4, 300))
"""(players, matches per seating) of the match duels: 8 seatings at 4 players cost 4 times 2."""


def search_matches(work: Path) -> str:
    """docs/bots.md: the search player at its defaults against `counter` in matches to 500
    (S1), heads-up and at 4 (seed 0)."""
    from unosim.studies.duel import duel_matches

    rows = ["| Command | Matches | A - B |", "|---|---|---|"]
    for n, matches in SEARCH_MATCHES:
        res = duel_matches("search", "counter", players=n, matches=matches, seed=0)
        rows.append(f"| `unosim duel search counter --players {n} --matches {matches}` | {res.played:,} | "
                    f"{100 * res.diff:+.2f} [{100 * res.diff_low:+.2f}, {100 * res.diff_high:+.2f}] |")
    return "\n".join(rows)


SEARCH_CHANGES = ((2, 3000), (4, 3000))
"""(players, deals) of the table of how often the search's choices change a hand."""


def search_changes(work: Path) -> str:
    """docs/bots.md: how often the search plays otherwise than its rollout bot in a way
    that changes the hand: seat 0 a search or a `counter` at a table of `counter`s, the
    same deals (seed 0), and the hands whose row differs in any figure (the search left
    counter's card at least once, and it mattered to the hand); then seat 0's wins, paired
    by deal."""
    import numpy as np

    from unosim.analysis.stats import z_value
    from unosim.kernel.layout import O_STALLED, O_WINNER
    from unosim.rules.config import default_config, to_params
    from unosim.run.play import play_chunk
    from unosim.run.workers import check_workers, kernel_workers

    w = check_workers(None)
    rows = ["| Players | Deals | Hands the search changed | Seat 0 wins: search / counter | Search - counter |",
            "|---|---|---|---|---|"]
    for n, deals in SEARCH_CHANGES:
        out = []
        for first in ("search", "counter"):
            cfg = default_config().with_values({"players": n, "seats": [first] + ["counter"] * (n - 1)})
            with kernel_workers(w):
                out.append(np.array(play_chunk(to_params(cfg), 0, 0, deals, w, None)[:deals]))
        found, base = out
        changed = np.any(found != base, axis=1).mean()
        won = [((r[:, O_WINNER] == 0) & (r[:, O_STALLED] == 0)).astype(float) for r in out]
        d = won[0] - won[1]
        half = z_value(0.95) * d.std(ddof=1) / np.sqrt(deals)
        rows.append(f"| {n} | {deals:,} | {changed:.1%} | {won[0].mean():.2%} / {won[1].mean():.2%} | "
                    f"{100 * d.mean():+.2f} [{100 * (d.mean() - half):+.2f}, {100 * (d.mean() + half):+.2f}] |")
    return "\n".join(rows)


def _bot_toml(path: Path) -> dict:
    import tomllib

    return tomllib.loads(path.read_text())


def tuned_weights(work: Path) -> str:
    """docs/bots.md: the parameters of the two bots the page tunes (its tune_example and
    tune_points blocks), side by side; also refreshes the page's tuning curve figure."""
    import shutil

    hands = _bot_toml(work / "runs" / "tune-standard-2p" / "bot.toml")
    points = _bot_toml(work / "runs" / "tune-standard-2p-points" / "bot.toml")
    shutil.copyfile(work / "runs" / "tune-standard-2p" / "curve.png", Path(__file__).parent / "skill_curve_standard_2p.png")
    keys = [k for k in hands if k not in ("name", "strategy", "about")]
    rows = ["| parameter | tuned for hands | tuned for points |", "|---|---|---|"]
    rows += [f"| `{k}` | {hands[k]:+.3f} | {points[k]:+.3f} |" for k in keys]
    return "\n".join(rows)


def points_vs_counter_toml(work: Path) -> str:
    """docs/bots.md: the points-tuned bot (tune_points block) against `counter`, as a
    config; the file is written for the page's next command."""
    bot = _bot_toml(work / "runs" / "tune-standard-2p-points" / "bot.toml")
    keys = [k for k in bot if k not in ("name", "about")]
    seat = ", ".join(f'{k} = "{bot[k]}"' if isinstance(bot[k], str) else f"{k} = {bot[k]!r}" for k in keys)
    text = (f'# points_vs_counter.toml\nname = "points-vs-counter"\n[table]\nplayers = 2\n[bots]\n'
            f'seats = [{{{seat}}}, "counter"]\n')
    (work / "points_vs_counter.toml").write_text(text)
    return f"```toml\n{text}```"


def features_table(work: Path) -> str:
    """docs/bots.md: `unosim tune standard` (defaults: 600 evaluations of 1,000 deals, a
    check on 10,000 fresh deals) with the 3 later features held at 0 ("8 features") and
    with all 11, against B0 and minus `counter` on the check's deals."""
    from unosim.rules.bundled import find_config
    from unosim.rules.config import load_config
    from unosim.rules.botfile import resolve_bot
    from unosim.run.workers import check_workers
    from unosim.studies import tune as T

    later = ("w_next_color_odds", "w_wild_hand", "w_attack_leader")
    every = T.SPACE
    field = [resolve_bot("random", "--field")]
    w = check_workers(None)
    rows = ["| Players, seed | 8 features: vs B0 | tuned - counter | 11 features: vs B0 | tuned - counter |",
            "|---|---|---|---|---|"]
    counter_line = []
    weights = ["| Players, seed (11 features) | `w_next_color_odds` | `w_attack_leader` | `w_wild_hand` |",
               "|---|---|---|---|"]
    for players, seed in ((4, 0), (4, 1), (2, 1)):
        cfg = load_config(find_config("standard")).with_values({"players": players})
        cells = []
        for space in (tuple(d for d in every if d.name not in later), every):
            T.SPACE = space
            try:
                res = T.tune(cfg, field, seed=seed, workers=w)
            finally:
                T.SPACE = every
            chk = T.check(cfg, res.bot, field, seed=seed, workers=w)
            lo, hi = chk.tuned.interval()
            d, dlo, dhi = chk.tuned.minus(chk.builtins["counter"])
            cells += [f"{chk.tuned.share:.2%} [{100 * lo:.2f}, {100 * hi:.2f}]",
                      f"{100 * d:+.2f} [{100 * dlo:+.2f}, {100 * dhi:+.2f}]"]
        counter_line.append(f"{chk.builtins['counter'].share:.2%} ({players} players, seed {seed})")
        p = res.bot.params
        weights.append(f"| {players}, seed {seed} | {p['w_next_color_odds']:+.2f} | {p['w_attack_leader']:+.2f} | "
                       f"{p['w_wild_hand']:+.2f} |")
        rows.append(f"| {players}, seed {seed} | " + " | ".join(cells) + " |")
    return ("\n".join(rows) + "\n\n`counter` against B0 on the same check deals: " + "; ".join(counter_line)
            + ".  The weights of the later features the 11-feature searches found:\n\n" + "\n".join(weights))


def suite_time(work: Path) -> str:
    """README.md: how many tests `python -m pytest` runs and the time they take with the
    kernels compiled (warm), and what a first run adds: a cold `unosim warmup` into an
    empty cache, the compile a cold suite does before its tests (tests/conftest.py)."""
    import os
    import re
    import resource
    import subprocess
    import sys
    import time
    from datetime import datetime, timezone

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, NUMBA_CACHE_DIR=str(work / "numba-cache"))  # empty: the compile is cold
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    subprocess.run([sys.executable, "-m", "unosim.cli", "warmup", "--quiet"], cwd=root, env=env, check=True)
    compile_wall = time.monotonic() - t
    mid = resource.getrusage(resource.RUSAGE_CHILDREN)
    # pyproject's addopts already has -q: one more would drop the "N passed in S s" line
    res = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider"], cwd=root, env=env,
                         capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"^=*\s*(\d+ passed[^\n]*?) in ([\d.]+)s", res.stdout, re.M)
    if res.returncode != 0 or found is None:
        raise RuntimeError(f"the suite did not pass (exit {res.returncode}): {res.stdout[-2000:]}")

    def cpu(a: resource.struct_rusage, b: resource.struct_rusage) -> float:
        return (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)

    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    cores = len(os.sched_getaffinity(0))
    return (f"`python -m pytest` on {day}: {found.group(1)}; {float(found.group(2)) / 60:.1f} minutes of wall time "
            f"({cpu(mid, after) / 60:.1f} CPU minutes) on {cores} cores, the kernels already compiled. A cold first "
            f"run compiles them before the tests: {compile_wall / 60:.1f} minutes more "
            f"({cpu(before, mid) / 60:.1f} CPU minutes).")


def data_columns(work: Path) -> str:
    """docs/data.md: every column of every result kind, from the writers (unosim.run.columns)."""
    from unosim.run.columns import markdown

    return markdown()


def skill_columns(work: Path) -> str:
    """docs/data.md: the columns of a skill folder's table, from its writer (unosim.run.columns)."""
    from unosim.studies.skill_columns import skill_markdown

    return skill_markdown()


FIGURES: dict[str, Callable[[Path], str]] = {
    "data_columns": data_columns,
    "skill_columns": skill_columns,
    "strategies_vs_random": strategies_vs_random,
    "counter_suspicion": counter_suspicion,
    "suite_time": suite_time,
    "tuned_weights": tuned_weights,
    "points_vs_counter_toml": points_vs_counter_toml,
    "features_table": features_table,
    "search_budget": search_budget,
    "search_strength": search_strength,
    "search_deepen": search_deepen,
    "search_matches": search_matches,
    "search_jumps": search_jumps,
    "search_changes": search_changes,
}
# docs/skill.md's blocks: one `unosim skill` run read by several blocks (docs/skill_figures.py)
from skill_figures import FIGURES as _SKILL  # noqa: E402  (docs/ is on sys.path when this module is)

FIGURES.update(_SKILL)
