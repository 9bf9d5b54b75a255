"""`unosim design`: rule sets of a space that meet a table's targets, each checked by a direct run.

An optuna NSGA-II search runs on the screen's fitted models; the proposed sets are then
played on new deals, and only their measured figures decide whether a target is met.
Details: docs/design.md, "Designing a variant".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from unosim.analysis.stats import mean_interval_from_moments
from unosim.run import sweep as sw
from unosim.run.integrity import write_json_atomic
from unosim.studies.screen import FIGURES, LOG, Model, hand_figures, model_matrix
from unosim.studies.space import Space, point_values, space_sweep

__all__ = ["DesignError", "Target", "measure", "models", "parse_target", "search", "verify"]

DESIGN_FILE = "_design.json"
TABLE_FILE = "design.csv"
PARETO_PNG = "pareto.png"


class DesignError(ValueError):
    """A design that cannot be searched; one line naming the option."""


@dataclass(frozen=True)
class Target:
    figure: str
    low: float
    high: float

    def miss(self, value: float) -> float:
        """How far ``value`` lies outside the range, in range widths (0 inside)."""
        width = max(self.high - self.low, 1e-9)
        return max(self.low - value, value - self.high, 0.0) / width

    def __str__(self) -> str:
        return f"{self.figure} {self.low:g}..{self.high:g}"


def parse_target(text: str) -> Target:
    """``"turns 25..35"`` -> Target; a one-line DesignError naming what is allowed."""
    m = re.fullmatch(r"\s*(\w+)\s+(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*", text)
    if not m:
        raise DesignError(f"--target {text!r}: expected FIGURE LOW..HIGH, e.g. \"turns 25..35\"")
    fig = m.group(1)
    check_figure("--target", fig)
    try:
        low, high = float(m.group(2)), float(m.group(3))
    except ValueError:
        raise DesignError(f"--target {text!r}: LOW and HIGH must be numbers") from None
    if not low < high:
        raise DesignError(f"--target {text!r}: LOW must be below HIGH")
    return Target(fig, low, high)


def check_figure(option: str, fig: str) -> None:
    if fig == "skill" and option == "--maximize":
        return  # measured on the verified sets only (:func:`skill`)
    if fig not in FIGURES:
        extra = ("; the skill index costs a tuning per point: it is not screened, and only --maximize skill "
                 "ranks the verified sets by it" if fig.startswith("skill") else "")
        raise DesignError(f"{option} {fig}: not a screened figure; allowed: {', '.join(FIGURES)}{extra}")


def models(result: dict[str, Any]) -> tuple[list[int], dict[str, Model]]:
    """The factors' value counts and each figure's fitted model, from a screen's files."""
    counts = [len(f["levels"]) for f in result["meta"]["factors"]]
    _, names = model_matrix(np.zeros((1, len(counts)), dtype=np.int64), counts)
    out = {}
    for fig in FIGURES:
        t = result["terms"][result["terms"]["figure"] == fig]
        out[fig] = Model(fig, t["estimate"].to_numpy(), np.diag(t["se"].to_numpy() ** 2), names, 0)
    return counts, out


def predict(counts: list[int], fitted: dict[str, Model], rows: np.ndarray) -> pd.DataFrame:
    """Each figure's prediction for level-index ``rows`` (on its own scale)."""
    out = {}
    for fig, model in fitted.items():
        y = model.predict(rows, counts)
        out[fig] = np.exp(y) if fig in LOG else y
    return pd.DataFrame(out)


def search(result: dict[str, Any], targets: list[Target], maximize: list[str], minimize: list[str],
           trials: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """NSGA-II (optuna) over the space on the fitted models: every trial's rows and
    predictions, and the trials on the front (feasible ones first)."""
    import optuna

    counts, fitted = models(result)
    names = [f["key"].rpartition(".")[2] for f in result["meta"]["factors"]]
    goals = [(f, 1.0) for f in maximize] + [(f, -1.0) for f in minimize]
    optuna.logging.set_verbosity(optuna.logging.WARNING)

    def objective(trial: Any) -> Any:
        row = np.array([[trial.suggest_categorical(n, list(range(c))) for n, c in zip(names, counts)]])
        pred = predict(counts, fitted, row).iloc[0]
        trial.set_user_attr("miss", [t.miss(pred[t.figure]) for t in targets])
        for i, t in enumerate(targets):
            trial.set_constraint(f"target_{i}", t.miss(pred[t.figure]))
        if not goals:  # no figure to raise or lower: stay near the middle of every range
            return sum(abs(pred[t.figure] - (t.low + t.high) / 2) / (t.high - t.low) for t in targets)
        return tuple(sign * pred[f] for f, sign in goals)

    sampler = optuna.samplers.NSGAIISampler(seed=seed, population_size=60)
    study = optuna.create_study(directions=["maximize"] * len(goals) or ["minimize"], sampler=sampler)
    study.optimize(objective, n_trials=trials)
    rows = np.array([[t.params[n] for n in names] for t in study.trials])
    table = pd.concat([pd.DataFrame(rows, columns=names), predict(counts, fitted, rows)], axis=1)
    table["miss"] = [sum(t.user_attrs["miss"]) for t in study.trials]
    for i, t in enumerate(targets):
        table[f"meets_{i}"] = [tr.user_attrs["miss"][i] == 0 for tr in study.trials]
    table = table.drop_duplicates(subset=names)
    front = table[table["miss"] == 0]
    if len(front) and goals:  # the front first, then the other feasible sets by the first goal
        pareto = _pareto(front, goals)
        rest = front.drop(pareto.index).sort_values(goals[0][0], ascending=goals[0][1] < 0)
        front = pd.concat([pareto.assign(pareto=True), rest.assign(pareto=False)])
    elif len(front):
        front = front.assign(_c=[sum(abs(r[t.figure] - (t.low + t.high) / 2) / (t.high - t.low) for t in targets)
                                 for _, r in front.iterrows()]).sort_values("_c").drop(columns="_c")
    else:
        front = table.sort_values("miss")
    return table, front


def _pareto(t: pd.DataFrame, goals: list[tuple[str, float]]) -> pd.DataFrame:
    v = np.column_stack([sign * t[f].to_numpy() for f, sign in goals])
    keep = [not any((v[j] >= v[i]).all() and (v[j] > v[i]).any() for j in range(len(v))) for i in range(len(v))]
    return t[keep].sort_values(goals[0][0], ascending=goals[0][1] < 0)


def pick(front: pd.DataFrame, k: int, names: list[str]) -> pd.DataFrame:
    """Up to ``k`` sets: spread along the Pareto front; else, from the best of the rest, sets
    that differ in as many keys as they can."""
    if "pareto" in front and front["pareto"].sum() > k:
        p = front[front["pareto"]]
        return p.iloc[np.unique(np.linspace(0, len(p) - 1, k).round().astype(int))]
    pool = front.head(max(10 * k, 50))
    levels = pool[names].to_numpy()
    chosen = [0] if len(pool) else []
    while 0 < len(chosen) < min(k, len(pool)):
        apart = (levels[:, None, :] != levels[None, chosen, :]).sum(axis=2).min(axis=1)
        apart[chosen] = -1
        chosen.append(int(np.argmax(apart)))  # the first, so the better, of the farthest
    return pool.iloc[chosen]


def measure(root: Path, points: int, confidence: float = 0.95) -> pd.DataFrame:
    """Each verified set's measured figures with their intervals (mean over hands, t)."""
    ys, _ = hand_figures(root, points)
    out: dict[str, Any] = {}
    for fig, y in ys.items():
        iv = mean_interval_from_moments(y.mean(axis=1), y.std(axis=1, ddof=1), y.shape[1], confidence)
        out[fig], out[f"{fig}_low"], out[f"{fig}_high"] = iv
    return pd.DataFrame(out)


def verify_sweep(space: Space, chosen: pd.DataFrame, hands: int) -> sw.Sweep:
    """The chosen sets as one sweep on new deals (the space's seed + 1)."""
    rows = chosen[[f.name for f in space.factors]].to_numpy(np.int64)
    check = replace(space, hands=hands, seed=space.seed + 1)
    return space_sweep(check, rows, name=f"{space.name}-verify")


def skill(sweep: sw.Sweep, keep: list[int], root: Path, **tuning: Any) -> pd.DataFrame:
    """The skill index (``unosim skill``: a bot tuned per set, then measured against B0) of
    the verified sets ``keep`` only: a tuning per set is too dear for a search."""
    from unosim.studies.skill_index import skill_sweep

    part = replace(sweep, points=tuple(sweep.points[i] for i in keep))
    found = {p.label: p for p in skill_sweep(part, root, **tuning)}
    rows = [found[sweep.points[i].label] for i in keep]
    return pd.DataFrame({"skill": [p.skill for p in rows], "skill_low": [p.skill_low for p in rows],
                         "skill_high": [p.skill_high for p in rows]}, index=keep)


def verify(space: Space, chosen: pd.DataFrame, root: Path, hands: int, **run: Any) -> pd.DataFrame:
    """Play every chosen set on new deals (the space's seed + 1) as one sweep; measured figures."""
    sweep = verify_sweep(space, chosen, hands)
    sw.run_sweep(sweep, root, **run)
    return measure(root, len(sweep.points))


def write_configs(space: Space, chosen: pd.DataFrame, measured: pd.DataFrame, targets: list[Target],
                  out: Path) -> list[Path]:
    """Each set that meets every target (its interval inside the range) as a config file,
    its measured and predicted figures in its header."""
    names = [f.name for f in space.factors]
    written = []
    for i, (row, meas) in enumerate(zip(chosen.itertuples(index=False), measured.itertuples(index=False))):
        r, m = row._asdict(), meas._asdict()
        if not all(t.low <= m[f"{t.figure}_low"] and m[f"{t.figure}_high"] <= t.high for t in targets):
            continue
        values = point_values(space, [r[n] for n in names])
        name = f"{space.name}-design-{len(written) + 1}"
        cfg = space.base.with_values({**values, "name": name})
        head = [f"# {name}: a rule set from `unosim design` that meets {', '.join(map(str, targets))}",
                "# measured on new deals (95% intervals), beside the screen model's prediction:"]
        head += [f"#   {FIGURES[f]}: {m[f]:.2f} [{m[f'{f}_low']:.2f}, {m[f'{f}_high']:.2f}], predicted {r[f]:.2f}"
                 for f in FIGURES]
        if "skill" in m and not pd.isna(m["skill"]):
            head.append(f"#   skill index: {m['skill']:.4f} [{m['skill_low']:.4f}, {m['skill_high']:.4f}] (unosim skill)")
        path = out / f"{name}.toml"
        path.write_text("\n".join(head) + "\n" + cfg.to_toml())
        written.append(path)
    return written


def hardest(table: pd.DataFrame, side: pd.DataFrame, targets: list[Target]) -> tuple[Target, int, float]:
    """The target the fewest verified sets meet as measured (ties: the fewest searched sets
    by the models), that count and the models' share."""
    met = [int(((side[f"{t.figure}_low"] >= t.low) & (side[f"{t.figure}_high"] <= t.high)).sum()) for t in targets]
    shares = [float(table[f"meets_{i}"].mean()) for i in range(len(targets))]
    i = min(range(len(targets)), key=lambda j: (met[j], shares[j]))
    return targets[i], met[i], shares[i]


def save(out: Path, info: dict[str, Any], table: pd.DataFrame) -> None:
    table.to_csv(out / TABLE_FILE, index=False)
    write_json_atomic(out / DESIGN_FILE, json.loads(json.dumps(info, default=str)))


def side_by_side(space: Space, chosen: pd.DataFrame, measured: pd.DataFrame, targets: list[Target]) -> pd.DataFrame:
    """Per verified set: its settings (``set``: what differs from the reference values), per
    figure the prediction, the measurement and its interval, and ``meets``."""
    names = [f.name for f in space.factors]
    labels = [space.label(point_values(space, r)) for r in chosen[names].to_numpy(np.int64)]
    t = chosen.reset_index(drop=True).assign(set=labels).drop(columns=[c for c in chosen if c.startswith("meets_") or c in ("miss", "pareto")])
    t = t.rename(columns={f: f"{f}_predicted" for f in FIGURES})
    m = measured.reset_index(drop=True)
    side = pd.concat([t, m], axis=1)
    side["meets"] = [all(t.low <= r[f"{t.figure}_low"] and r[f"{t.figure}_high"] <= t.high for t in targets)
                     for _, r in side.iterrows()]
    return side


def render(side: pd.DataFrame, targets: list[Target]) -> str:
    lines = ["  set  " + "  ".join(f"{FIGURES[f] + ' predicted / measured [95%]':<44}" for f in FIGURES) + "  meets"]
    for i, r in side.iterrows():
        cells = [f"{r[f + '_predicted']:8.2f} / {r[f]:8.2f} [{r[f + '_low']:.2f}, {r[f + '_high']:.2f}]"
                 for f in FIGURES]
        lines.append(f"  {i + 1:>3}  " + "  ".join(f"{c:<44}" for c in cells) + f"  {'yes' if r['meets'] else 'no'}")
    lines += [f"  set {i + 1}: {r['set']}" + (f"; skill index {r['skill']:.4f} [{r['skill_low']:.4f}, "
                                              f"{r['skill_high']:.4f}]" if "skill" in r and not pd.isna(r["skill"]) else "")
              for i, r in side.iterrows()]
    return "\n".join(lines)


def held_out_text(side: pd.DataFrame) -> str:
    """The models' error on the verified sets, none of which they were fitted to."""
    parts = []
    for f in FIGURES:
        err = side[f"{f}_predicted"] - side[f]
        parts.append(f"{FIGURES[f]} {np.sqrt(np.mean(err ** 2)):.2f}")
    return ("held out: the models miss the verified sets (points they were not fitted to) by, root mean "
            "square: " + ", ".join(parts))


def plot_front(table: pd.DataFrame, front: pd.DataFrame, chosen: pd.DataFrame, measured: pd.DataFrame,
               targets: list[Target], goals: list[str], path: Path) -> None:
    """The searched sets (model predictions), the front, and the verified sets as measured."""
    from matplotlib.figure import Figure

    x = targets[0].figure
    y = goals[0] if goals else (targets[1].figure if len(targets) > 1 else "first_seat_edge")
    fig = Figure(figsize=(8, 6), layout="constrained")
    ax = fig.subplots()
    ax.scatter(table[x], table[y], s=4, color="#bbbbbb", label="searched (predicted)")
    ax.scatter(front[x], front[y], s=12, color="#4c72b0", label="front (predicted)")
    ax.errorbar(measured[x], measured[y], xerr=[measured[x] - measured[f"{x}_low"], measured[f"{x}_high"] - measured[x]],
                yerr=[measured[y] - measured[f"{y}_low"], measured[f"{y}_high"] - measured[y]], fmt="o",
                color="#c44e52", label="verified (measured, 95%)")
    for t in targets:
        if t.figure == x:
            ax.axvspan(t.low, t.high, color="#55a868", alpha=0.12)
        if t.figure == y:
            ax.axhspan(t.low, t.high, color="#55a868", alpha=0.12)
    ax.set_xlabel(FIGURES[x])
    ax.set_ylabel(FIGURES[y])
    ax.set_title("unosim design: the searched sets, the front and the verified sets (green: the targets)")
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=100)
