"""`unosim tune`: the strongest `weights` bot for a rule set, found by CMA-ES.

CMA-ES searches the 14 ``weights`` parameters inside :data:`SPACE`; a candidate's fitness
is its figure in an :class:`~unosim.studies.arena.Arena`.  Why: docs/bots.md, "Tuning a bot".
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from unosim.rules.botfile import Bot
from unosim.rules.config import RulesConfig, default_params, strategies
from unosim.run.jobs import RunError
from unosim.studies.arena import Arena, Objective, Share

__all__ = ["BUILTINS", "CHECK_MATCHES", "CHECK_START", "Check", "SPACE", "TuneResult", "check", "check_args", "default_name", "default_popsize",
           "start_bot", "tune"]

CHECK_START = 1 << 40
"""First hand index of the check deals: far from every generation's (g x deals onwards)."""
CHECK_MATCHES = 2000
"""Matches (each once per rotation) the final check plays for the match figures."""
BUILTINS = ("greedy", "wild_saver", "color_keeper", "aggressor", "counter")
"""The built-in strategies (default parameters) the check compares with; B0, RLCard's
random and ``weights`` itself (the start) are measured apart."""


@dataclass(frozen=True)
class Dim:
    """One searched parameter: its box and the size of one search unit."""

    name: str
    lo: float
    hi: float
    scale: float


SPACE: tuple[Dim, ...] = (
    Dim("w_wild", -10, 10, 1.0), Dim("w_draw4", -10, 10, 1.0), Dim("w_action", -10, 10, 1.0),
    Dim("w_points", -0.5, 0.5, 0.05), Dim("w_color_share", -10, 10, 1.0), Dim("w_matches_number", -10, 10, 1.0),
    Dim("w_attack_next", -10, 10, 1.0), Dim("w_copies", -10, 10, 1.0), Dim("w_next_color_odds", -10, 10, 1.0),
    Dim("w_wild_hand", -10, 10, 1.0), Dim("w_attack_leader", -10, 10, 1.0), Dim("draw_score", -10, 10, 1.0),
    Dim("bluff_rate", 0, 1, 0.2), Dim("challenge_rate", 0, 1, 0.2),
)


def _start() -> np.ndarray:
    spec = strategies()["weights"][1]
    return np.array([min(d.hi, max(d.lo, float(spec[d.name][0]))) for d in SPACE])


def start_bot() -> Bot:
    """The search's starting point: ``weights`` with its defaults (``draw_score`` -1000
    clipped to the box's -10, below every score the default weights give: it never draws)."""
    return _bot(_start(), "weights")


def _bot(values: np.ndarray, name: str) -> Bot:
    out = default_params("weights")
    for d, v in zip(SPACE, values):
        out[d.name] = float(min(d.hi, max(d.lo, float(v))))
    return Bot(name, "weights", out)


def default_popsize() -> int:
    """CMA-ES's own default for 14 parameters: 4 + floor(3 ln 14) = 11."""
    return 4 + int(3 * math.log(len(SPACE)))


@dataclass
class TuneResult:
    """What a search found.  ``history``: one row per evaluation (candidate -1 the mean);
    ``interrupted``: stopped by Ctrl-C (``bot`` is then the mean so far)."""

    bot: Bot
    history: pd.DataFrame
    generations: int
    evaluations: int
    popsize: int
    seconds: float
    kernel_seconds: float
    hands: int
    interrupted: bool = False
    settings: dict = field(default_factory=dict)

    @property
    def kernel_share(self) -> float:
        return self.kernel_seconds / self.seconds if self.seconds > 0 else float("nan")


def _cma():
    try:
        import cma
    except ImportError:  # pragma: no cover - an install without the skill extra
        raise RunError("tune: needs the cma package (pip install cma==4.5.0)") from None
    return cma


def check_args(budget: int, deals: int, seed: int, popsize: int | None = None) -> int:
    """The search's arguments, each refused in one line naming its option; the popsize."""
    lam = popsize or default_popsize()
    if lam < 2:
        raise RunError(f"popsize: at least 2 candidates per generation (got {lam})")
    if budget < lam + 1:
        raise RunError(f"--budget: at least {lam + 1} evaluations (one generation: {lam} candidates and their "
                       f"mean); got {budget}")
    if not 1 <= deals <= 1_000_000:
        raise RunError(f"--deals: must be between 1 and 1,000,000 (got {deals})")
    if not 0 <= seed < 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    return lam


def default_name(cfg: RulesConfig, field: list[Bot], objective: str | Objective = "hands") -> str:
    """A tuned bot's name, ``tuned-<config>-<n>p``, then ``-vs-<field>`` unless the field is B0
    alone and ``-<objective>`` unless it is ``hands``."""
    obj = Objective.parse(objective)
    name = f"tuned-{cfg.name}-{cfg.players}p"
    labels = list(dict.fromkeys(b.name for b in field))
    if labels != ["random"]:
        name += "-vs-" + "+".join(labels)
    if obj.name != "hands":
        name += "-" + obj.name.replace(":", "-")
    return name


def tune(cfg: RulesConfig, field: list[Bot], *, budget: int = 600, deals: int = 1000, seed: int = 0,
         workers: int = 1, popsize: int | None = None, name: str | None = None,
         progress: Callable[[int, float], None] | None = None, objective: str | Objective = "hands") -> TuneResult:
    """Search the ``weights`` parameters for the strongest bot against ``field`` under ``cfg``.
    ``budget``: evaluations (popsize + 1 a generation); ``deals``: per evaluation;
    ``progress(generation, mean's fitness)`` after every generation.  Ctrl-C returns the mean
    so far (``interrupted``)."""
    obj = Objective.parse(objective)
    lam = check_args(budget, deals, seed, popsize)
    cma = _cma()
    label = name or default_name(cfg, field, obj)
    arena = Arena(cfg, field, workers)
    x0 = np.zeros(len(SPACE))
    start = _start()
    scale = np.array([d.scale for d in SPACE])
    lo = np.array([(d.lo - s) / d.scale for d, s in zip(SPACE, start)])
    hi = np.array([(d.hi - s) / d.scale for d, s in zip(SPACE, start)])
    generations = budget // (lam + 1)
    rows: list[dict] = []
    t0 = time.perf_counter()
    interrupted = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cma's notes on flat fitness: ties are common with few deals
        es = cma.CMAEvolutionStrategy(x0, 1.0, {"seed": 1 + seed % (2**31 - 2), "bounds": [list(lo), list(hi)],
                                                "popsize": lam, "verbose": -9, "tolfun": 0, "tolx": 0,
                                                "tolfunhist": 0, "tolstagnation": 10**9})
        mean = np.asarray(es.result.xfavorite, float)
        done = 0  # generations completed (told to CMA-ES and recorded)
        try:
            for g in range(generations):
                X = [np.asarray(x, float) for x in es.ask()]
                mean = np.asarray(es.result.xfavorite, float)
                points = [mean] + X
                bots = [_bot(start + scale * x, label) for x in points]
                shares = arena.play(bots, seed, g * deals, deals, obj)
                es.tell(X, [-s.share for s in shares[1:]])
                for c, (b, s) in enumerate(zip(bots, shares)):
                    lo_s, hi_s = s.interval()
                    rows.append({"generation": g, "candidate": c - 1, **{d.name: b.params[d.name] for d in SPACE},
                                 "fitness": s.share, "low": lo_s, "high": hi_s})
                mean = np.asarray(es.result.xfavorite, float)
                done = g + 1
                if progress:
                    progress(g, shares[0].share)
        except KeyboardInterrupt:
            interrupted = True
    seconds = time.perf_counter() - t0
    history = pd.DataFrame(rows, columns=["generation", "candidate", *(d.name for d in SPACE), "fitness", "low",
                                          "high"])
    settings = {"config": cfg.name, "players": cfg.players, "field": [b.name for b in field], "budget": budget,
                "deals": deals, "seed": seed, "popsize": lam, "objective": obj.name}
    return TuneResult(_bot(start + scale * mean, label), history, done, len(rows), lam, seconds,
                      arena.kernel_seconds, arena.hands, interrupted, settings)


FIGURES = ("hands", "points", "matches:s1", "matches:s2", "matches:s4")
"""What the final check reports the tuned bot by, whatever it was tuned for."""
_FIGURE_NAMES = {"hands": "hands won", "points": "points per hand", "matches:s1": "S1 matches won",
                 "matches:s2": "S2 matches won", "matches:s4": "S4 matches won"}


@dataclass(frozen=True)
class Check:
    """The tuned bot on fresh deals under the tuning ``objective``, against the field and at a
    table of the best built-in; ``figures``: under every objective (:data:`FIGURES`)."""

    deals: int
    even: float
    tuned: Share
    start: Share
    builtins: dict[str, Share]
    best: str
    vs_best: Share
    objective: str = "hands"
    matches: int = 0
    figures: dict[str, tuple[Share, Share]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """What `unosim tune` prints after the search (captions padded after their text, so a
        short bot name leaves no gap inside its parentheses)."""
        obj = Objective.parse(self.objective)

        def fmt(s: Share, o: Objective = obj) -> str:
            lo, hi = s.interval()
            if o.is_share:
                return f"{s.share:7.2%} [{lo:6.2%}, {hi:6.2%}]"
            return f"{s.share:+7.2f} [{lo:+6.2f}, {hi:+6.2f}]"

        def diff(a: Share, b: Share) -> str:
            d, dlo, dhi = a.minus(b)
            return f"{obj.format(d, True)} [{obj.format(dlo, True)}, {obj.format(dhi, True)}]"

        units = f"{self.matches:,} fresh matches" if obj.kind == "matches" else f"{self.deals:,} fresh deals"
        unit = "matches" if obj.kind == "matches" else "deals"
        even = obj.format(self.even) if obj.is_share else "0.00 points: what one side gains, the others lose"
        out = [f"check by {_FIGURE_NAMES[obj.name]} on {units} x rotations (even {even}; 95% intervals, "
               f"{unit} as the unit):",
               *_aligned([("tuned vs the field", fmt(self.tuned)),
                          ("start (weights defaults)", f"{fmt(self.start)}   tuned - start "
                                                       f"{diff(self.tuned, self.start)}"),
                          (f"best built-in ({self.best})", f"{fmt(self.builtins[self.best])}   tuned - it "
                                                           f"{diff(self.tuned, self.builtins[self.best])}"),
                          (f"tuned at a table of {self.best}", fmt(self.vs_best))])]
        if self.figures:
            out.append(f"the tuned bot under every objective ({self.deals:,} deals, {self.matches:,} matches, "
                       "each x rotations):")
            out.append(f"  {'':<18} {'vs the field':<26} at a table of counter")
            for name, (vs_field, vs_counter) in self.figures.items():
                o = Objective.parse(name)
                out.append(f"  {_FIGURE_NAMES[name]:<18} {fmt(vs_field, o):<26} {fmt(vs_counter, o)}")
        return out

    def to_dict(self) -> dict:
        def one(s: Share) -> dict:
            lo, hi = s.interval()
            return {"share": s.share, "low": lo, "high": hi}

        return {"objective": self.objective, "deals": self.deals, "matches": self.matches, "even": self.even,
                "tuned_vs_field": one(self.tuned), "start_vs_field": one(self.start),
                "tuned_minus_start": dict(zip(("diff", "low", "high"), self.tuned.minus(self.start))),
                "tuned_minus_best_builtin": dict(zip(("diff", "low", "high"), self.tuned.minus(self.builtins[self.best]))),
                "builtins_vs_field": {k: one(v) for k, v in self.builtins.items()}, "best_builtin": self.best,
                "tuned_vs_best_builtin_table": one(self.vs_best),
                "figures": {k: {"vs_field": one(a), "vs_counter": one(b)} for k, (a, b) in self.figures.items()}}


def check(cfg: RulesConfig, bot: Bot, field: list[Bot], *, deals: int = 10_000, seed: int = 0,
          workers: int = 1, objective: str | Objective = "hands", matches: int = CHECK_MATCHES) -> Check:
    """Measure ``bot`` on deals the search never saw (from :data:`CHECK_START`)."""
    if not 1 <= deals <= 10_000_000:
        raise RunError(f"--check-deals: must be between 1 and 10,000,000 (got {deals})")
    if not 1 <= matches <= 1_000_000:
        raise RunError(f"--check-matches: must be between 1 and 1,000,000 (got {matches})")
    obj = Objective.parse(objective)
    count = matches if obj.kind == "matches" else deals
    arena = Arena(cfg, field, workers)
    builtins = [Bot(n, n, default_params(n)) for n in BUILTINS]
    measured = [arena.measure(arena.params(b), seed, CHECK_START, count, obj) for b in [bot, start_bot(), *builtins]]
    shares = [m[obj.name] for m in measured]
    by_name = dict(zip(BUILTINS, shares[2:]))
    best = max(BUILTINS, key=lambda n: by_name[n].share)
    best_arena = Arena(cfg, [builtins[BUILTINS.index(best)]], workers)
    vs_best = best_arena.measure(best_arena.params(bot), seed, CHECK_START, count, obj)
    counter = builtins[BUILTINS.index("counter")]
    counter_arena = best_arena if best == "counter" else Arena(cfg, [counter], workers)

    def every(at: Arena, kind: str) -> dict[str, Share]:
        """The bot at ``at`` by hands and points, or by matches (one kernel pass each)."""
        n = matches if kind == "matches" else deals
        return at.measure(at.params(bot), seed, CHECK_START, n, Objective(kind))

    played = "matches" if obj.kind == "matches" else "hands"  # what the lines above played
    other = "hands" if played == "matches" else "matches"
    vs_field = {played: measured[0], other: every(arena, other)}
    vs_counter = {other: every(counter_arena, other),
                  played: vs_best if best == "counter" else every(counter_arena, played)}
    figures = {}
    for name in FIGURES:
        k = "matches" if name.startswith("matches") else "hands"
        if name == "matches:s2" and cfg.finish == "last_standing":
            continue  # S2 is not kept under H13
        figures[name] = (vs_field[k][name], vs_counter[k][name])
    even = arena.even if obj.is_share else 0.0
    return Check(deals, even, shares[0], shares[1], by_name, best, vs_best[obj.name], obj.name, matches, figures)


def _aligned(rows: list[tuple[str, str]]) -> list[str]:
    """``  caption   value`` lines, the values in one column."""
    width = max(len(c) for c, _ in rows)
    return [f"  {c:<{width}}  {v}" for c, v in rows]
