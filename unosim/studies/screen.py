"""`unosim screen`: which rules matter, alone and in pairs, over a whole rule space.

Per figure an OLS model of every main effect and two-way interaction is fitted to the
design's point means (covariance clustered by deal, p-values held at a false discovery
rate), with Sobol indices and a held-out check.  Details: docs/design.md, "Screening".
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import t as student

from unosim.analysis import stats
from unosim.run import sweep as sw
from unosim.run.integrity import write_json_atomic
from unosim.studies.space import Space, design, space_sweep

__all__ = ["FIGURES", "LOG", "SCREEN_FILE", "Model", "fit_figure", "hand_figures", "model_matrix", "read_screen",
           "run_screen", "sobol_indices"]

SCREEN_FILE = "_screen.json"
TERMS_FILE = "_screen_terms.csv"
SOBOL_FILE = "_screen_sobol.csv"
CHECK_FILE = "_screen_check.csv"
"""A screen's own files, beside its sweep's: named with ``_`` and not ``.parquet``, so
every reader of the folder's rows skips them."""

FIGURES = {
    "turns": "mean turns",
    "first_seat_edge": "first-seat edge (points)",
    "cards_drawn": "mean cards drawn",
    "s1_points": "S1 points per hand",
}
"""The fast figures, per hand: turns; 100 if the seat that played first won, less 100 over
the players; cards drawn; the points left in the losers' hands (what S1 gives the winner)."""
LOG = ("turns", "cards_drawn", "s1_points")
"""Figures modelled on the log scale: rules multiply a hand's length (a long hand draws
more and leaves more points), so their effects and interactions are ratios.  The per-hand
values become the delta method's pseudo-values of the log of the point's mean."""


def model_scale(figure: str, y: np.ndarray) -> np.ndarray:
    """The per-hand values the model is fitted to: ``y`` itself, or for a :data:`LOG` figure
    log(mean) + (y - mean) / mean per point."""
    if figure not in LOG:
        return y
    m = y.mean(axis=1, keepdims=True)
    return np.log(m) + (y - m) / m


def hand_figures(root: str | Path, points: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Each figure as a points x hands array (hands in index order, the same deals in
    every row), and the hand indices."""
    import pyarrow.dataset as pads

    from unosim.analysis.frames import load

    names = pads.dataset(Path(root), format="parquet").schema.names
    seats = [c for c in names if c.startswith("points_")]
    cols = ["point", "hand", "winner", "first_player", "players", "turns", "cards_drawn", *seats]
    frame = load(root, columns=[c for c in cols if c in names]).sort_values(["point", "hand"], kind="stable")
    hands = frame["hand"].to_numpy()
    n = len(frame) // points
    if n * points != len(frame) or not (hands.reshape(points, n) == hands[:n]).all():
        raise ValueError(f"{root}: the points did not play the same hands; run the screen again to finish it")
    players = frame["players"].to_numpy(np.float64) if "players" in frame else _players(frame, seats)
    won_first = (frame["winner"].to_numpy() == frame["first_player"].to_numpy()).astype(np.float64)
    s1 = frame[seats].fillna(0).to_numpy(np.float64).sum(axis=1)
    out = {"turns": frame["turns"].to_numpy(np.float64),
           "first_seat_edge": 100 * won_first - 100 / players,
           "cards_drawn": frame["cards_drawn"].to_numpy(np.float64),
           "s1_points": s1}
    return {k: v.reshape(points, n) for k, v in out.items()}, hands[:n]


def _players(frame: pd.DataFrame, seats: Sequence[str]) -> np.ndarray:
    """Players per hand from a sweep's rows: the settings column if varied, else the seats
    with a value."""
    if "table_players" in frame:
        return frame["table_players"].to_numpy(np.float64)
    return frame[list(seats)].notna().sum(axis=1).to_numpy(np.float64)


def model_matrix(rows: np.ndarray, counts: Sequence[int]) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """Treatment-coded main effects and two-way interactions of level-index ``rows``: the
    columns and, per column, (factor, level, factor, level) with -1 for none."""
    rows = np.asarray(rows)
    mains = [(j, lv) for j, c in enumerate(counts) for lv in range(1, c)]
    ind = np.column_stack([rows[:, j] == lv for j, lv in mains]).astype(np.float64) if mains else \
        np.zeros((len(rows), 0))
    cols = [np.ones(len(rows))] + [ind[:, i] for i in range(len(mains))]
    names = [(-1, -1, -1, -1)] + [(j, lv, -1, -1) for j, lv in mains]
    for a in range(len(mains)):
        for b in range(a + 1, len(mains)):
            if mains[a][0] != mains[b][0]:
                cols.append(ind[:, a] * ind[:, b])
                names.append((*mains[a], *mains[b]))
    return np.column_stack(cols), names


@dataclass
class Model:
    """One figure's fitted model: coefficients, their deal-clustered covariance."""

    figure: str
    params: np.ndarray
    cov: np.ndarray
    names: list[tuple[int, int, int, int]]
    df: int
    cov_fit: np.ndarray | None = None  # point-level HC3: the deals' noise and the model's misfit
    df_fit: int = 0

    def predict(self, rows: np.ndarray, counts: Sequence[int], chunk: int = 4096) -> np.ndarray:
        out = [model_matrix(rows[i:i + chunk], counts)[0] @ self.params for i in range(0, len(rows), chunk)]
        return np.concatenate(out) if out else np.zeros(0)


def fit_figure(figure: str, y: np.ndarray, rows: np.ndarray, counts: Sequence[int]) -> Model:
    """OLS of the per-hand figure ``y`` (points x hands) on the model of ``rows``, fitted to the
    point means with the sandwich covariance clustered by deal."""
    import statsmodels.api as sm

    x, names = model_matrix(rows, counts)
    with np.errstate(all="ignore"):  # a point the model fits exactly has no HC3 residual
        fit = sm.OLS(y.mean(axis=1), x).fit(cov_type="HC3")
        cov_fit = np.asarray(fit.cov_params())
    params = np.asarray(fit.params)
    resid = y - (x @ params)[:, None]
    points, hands = y.shape
    scores = x.T @ resid                      # per deal: sum over points of x_p e_ph
    bread = np.linalg.pinv(hands * (x.T @ x))
    n, k = points * hands, x.shape[1]
    cov = bread @ (scores @ scores.T) @ bread * hands / (hands - 1) * (n - 1) / (n - k)
    return Model(figure, params, cov, names, hands - 1, cov_fit, max(int(fit.df_resid), 1))


def term_table(model: Model, space: Space) -> pd.DataFrame:
    """One row per coefficient: what it is, its estimate, standard error, 95% interval,
    p-value and discovery; ``low_fit``/``high_fit``: the interval with the model's misfit (HC3)."""
    f = space.factors
    se = np.sqrt(np.clip(np.diag(model.cov), 0, None))
    q = float(student.ppf(0.975, model.df))
    rows = []
    for (j, lv, k, m), est, s in zip(model.names, model.params, se):
        rows.append({"figure": model.figure,
                     "a": f[j].name if j >= 0 else "", "a_value": sw.partition_text(f[j].levels[lv]) if j >= 0 else "",
                     "b": f[k].name if k >= 0 else "", "b_value": sw.partition_text(f[k].levels[m]) if k >= 0 else "",
                     "estimate": est, "se": s, "low": est - q * s, "high": est + q * s})
    t = pd.DataFrame(rows)
    if model.cov_fit is not None:  # the interval with the model's misfit counted as error too
        se_fit = np.sqrt(np.clip(np.diag(model.cov_fit), 0, None))
        q_fit = float(student.ppf(0.975, model.df_fit))
        t["low_fit"] = t["estimate"] - q_fit * se_fit
        t["high_fit"] = t["estimate"] + q_fit * se_fit
    t["kind"] = np.where(t["a"] == "", "intercept", np.where(t["b"] == "", "main", "interaction"))
    t["p"] = stats.p_value(t["estimate"], t["se"], model.df)
    t["discovery"] = False
    terms = t["kind"] != "intercept"
    t.loc[terms, "discovery"] = stats.discoveries(t.loc[terms, "p"].to_numpy())
    return t


def sobol_indices(model: Model, counts: Sequence[int], names: Sequence[str], n: int = 1024,
                  seed: int = 0, draws: int = 40) -> pd.DataFrame:
    """Sobol first and total indices of the fitted model (SALib), each key's values equally
    likely; ``*_conf``: SALib's bootstrap half-width; ``*_low``/``*_high``: percentiles over
    ``draws`` models drawn from the fit's HC3 covariance."""
    from SALib.analyze import sobol as analyze
    from SALib.sample import sobol as sample

    # names as an array: SALib 1.5 passes them to pandas.unique, which pandas 3 refuses for a list
    problem = {"num_vars": len(counts), "names": np.array(names, dtype=object), "bounds": [[0.0, 1.0]] * len(counts)}
    u = sample.sample(problem, n, calc_second_order=False, seed=seed)
    rows = np.minimum((u * np.asarray(counts)).astype(np.int64), np.asarray(counts) - 1)
    cov = model.cov_fit if model.cov_fit is not None and np.isfinite(model.cov_fit).all() else model.cov
    rng = np.random.default_rng(seed)
    params = np.vstack([model.params, rng.multivariate_normal(model.params, cov, draws, method="eigh")])
    ys = np.concatenate([model_matrix(rows[i:i + 4096], counts)[0] @ params.T for i in range(0, len(rows), 4096)])
    out = {"figure": model.figure, "factor": list(names)}
    if np.ptp(ys[:, 0]) == 0:
        z = np.zeros(len(counts))
        return pd.DataFrame({**out, **{c: z for c in ("first", "first_conf", "total", "total_conf", "first_low",
                                                       "first_high", "total_low", "total_high")}})
    si = analyze.analyze(problem, ys[:, 0], calc_second_order=False, seed=seed)
    out.update({"first": si["S1"], "first_conf": si["S1_conf"], "total": si["ST"], "total_conf": si["ST_conf"]})
    drawn = [analyze.analyze(problem, ys[:, d], calc_second_order=False, num_resamples=2, seed=seed)
             for d in range(1, ys.shape[1]) if np.ptp(ys[:, d]) > 0]
    for key, col in (("S1", "first"), ("ST", "total")):
        v = np.array([d[key] for d in drawn]) if drawn else np.full((1, len(counts)), np.nan)
        out[f"{col}_low"], out[f"{col}_high"] = np.percentile(v, 2.5, axis=0), np.percentile(v, 97.5, axis=0)
    return pd.DataFrame(out)


def held_out(y: np.ndarray, rows: np.ndarray, counts: Sequence[int], figure: str, folds: int = 5,
             seed: int = 0) -> dict[str, Any]:
    """The model's root mean square error on each fifth of the points fitted without it,
    beside the standard error of one point's mean."""
    x, _ = model_matrix(rows, counts)
    means = y.mean(axis=1)
    fold = np.random.default_rng(seed).permutation(len(means)) % folds
    err = np.empty(len(means))
    for i in range(folds):
        beta = np.linalg.lstsq(x[fold != i], means[fold != i], rcond=None)[0]
        err[fold == i] = x[fold == i] @ beta - means[fold == i]
    noise = float(np.sqrt(np.mean(y.var(axis=1, ddof=1) / y.shape[1])))
    return {"figure": figure, "held_out_rmse": float(np.sqrt(np.mean(err ** 2))), "point_se": noise,
            "spread": float(means.std(ddof=1)), "points": len(means)}


def fit_screen(root: str | Path, space: Space, rows: np.ndarray) -> dict[str, pd.DataFrame]:
    """Every figure's terms, Sobol indices and held-out check, from the screen's rows
    (a :data:`LOG` figure's in log units)."""
    counts = [len(f.levels) for f in space.factors]
    names = [f.name for f in space.factors]
    ys, _ = hand_figures(root, len(rows))
    terms, sobol, check = [], [], []
    for fig in FIGURES:
        y = model_scale(fig, ys[fig])
        model = fit_figure(fig, y, rows, counts)
        terms.append(term_table(model, space))
        sobol.append(sobol_indices(model, counts, names, seed=space.seed))
        check.append(held_out(y, rows, counts, fig, seed=space.seed))
    return {"terms": pd.concat(terms, ignore_index=True), "sobol": pd.concat(sobol, ignore_index=True),
            "check": pd.DataFrame(check)}


def run_screen(space: Space, out: str | Path, *, workers: int | None = None, client: Any = None,
               force: bool = False, progress: Any = None) -> dict[str, Any]:
    """Run the space's design as a sweep into ``out`` (resumed if already there), fit the
    models and write the screen's files; returns what :func:`read_screen` reads."""
    root = Path(out)
    rows = design(space)
    sweep = space_sweep(space, rows)
    t0 = time.perf_counter()
    sw.run_sweep(sweep, root, workers=workers, client=client, force=force, progress=progress)
    t1 = time.perf_counter()
    fitted = fit_screen(root, space, rows)
    t2 = time.perf_counter()
    fitted["terms"].to_csv(root / TERMS_FILE, index=False)
    fitted["sobol"].to_csv(root / SOBOL_FILE, index=False)
    fitted["check"].to_csv(root / CHECK_FILE, index=False)
    write_json_atomic(root / SCREEN_FILE, {
        "space": space.name, "space_file": space.path, "hands": space.hands, "seed": space.seed,
        "points": len(rows), "design": "scipy.stats.qmc.LatinHypercube(strength=2)",
        "factors": [{"key": f.key, "levels": [sw.partition_text(v) for v in f.levels]} for f in space.factors],
        "rows": rows.tolist(), "seconds": {"play": round(t1 - t0, 1), "fit": round(t2 - t1, 1)}})
    return read_screen(root)


def is_screen(path: str | Path) -> bool:
    """A screen's folder, finished or not (its sweep's points come from a design)."""
    p = Path(path)
    if (p / SCREEN_FILE).is_file():
        return True
    try:
        return json.loads((p / sw.SWEEP_MANIFEST).read_text()).get("mode") == "design"
    except (OSError, ValueError, AttributeError):
        return False


def read_screen(root: str | Path) -> dict[str, Any]:
    """A screen's files: ``meta`` (the json), ``terms``, ``sobol`` and ``check`` tables."""
    root = Path(root)
    try:
        meta = json.loads((root / SCREEN_FILE).read_text())
        return {"meta": meta, "root": str(root),
                "terms": pd.read_csv(root / TERMS_FILE, keep_default_na=False,
                                     dtype={"a_value": str, "b_value": str}),
                "sobol": pd.read_csv(root / SOBOL_FILE), "check": pd.read_csv(root / CHECK_FILE)}
    except (OSError, ValueError, KeyError) as e:
        why = f"its {Path(e.filename).name} is missing" if isinstance(e, FileNotFoundError) and e.filename else str(e)
        raise ValueError(f"{root}: a screen that did not finish ({why}); run the same `unosim screen` command "
                         "again to finish it") from None
