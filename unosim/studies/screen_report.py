"""A screen's report and figures: Sobol indices, effects, the strongest interactions in words,
the interaction matrix and the Sobol bars (`unosim report`, `unosim plot`, the HTML page)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from unosim.studies.screen import FIGURES, LOG

__all__ = ["interaction_matrix", "plot_interactions", "plot_sobol", "screen_text", "strongest"]

UNITS = {"turns": "turns", "first_seat_edge": "points", "cards_drawn": "cards", "s1_points": "points"}
_MORE = {"turns": ("longer", "shorter"), "first_seat_edge": ("larger", "smaller"),
         "cards_drawn": ("more", "fewer"), "s1_points": ("more", "fewer")}
REACH = ("Interactions of three or more rules are out of this design's reach: the model has none, "
         "so they stay in its error, which the held-out check measures.")


def _term(row: Any) -> str:
    return f"{row.a}={row.a_value}" + (f" with {row.b}={row.b_value}" if row.b else "")


def strongest(result: dict[str, Any], n: int = 5) -> pd.DataFrame:
    """The ``n`` interactions largest against their figure's spread over the points, of those
    that remain at the false discovery rate."""
    t = result["terms"]
    t = t[(t["kind"] == "interaction") & t["discovery"].astype(bool)].copy()
    spread = result["check"].set_index("figure")["spread"]
    t["size"] = t["estimate"].abs() / t["figure"].map(spread).replace(0, np.nan)
    return t.sort_values("size", ascending=False).head(n)


def sentence(row: Any) -> str:
    """One interaction in words: how far the pair's effect is from the sum of the two rules'
    separate effects, with its 95% interval."""
    fit = getattr(row, "low_fit", None)
    if row.figure in LOG:
        misfit = "" if fit is None else f"; with the model's misfit {np.exp(row.low_fit):.2f} to {np.exp(row.high_fit):.2f}"
        return (f"{_term(row)}: {FIGURES[row.figure]} {np.exp(row.estimate):.2f} times what the two rules' "
                f"separate effects multiply to (95% interval {np.exp(row.low):.2f} to {np.exp(row.high):.2f}{misfit})")
    more, less = _MORE[row.figure]
    word = more if row.estimate > 0 else less
    misfit = "" if fit is None else f"; with the model's misfit {row.low_fit:+.2f} to {row.high_fit:+.2f}"
    return (f"{_term(row)}: {FIGURES[row.figure]} {abs(row.estimate):.2f} {UNITS[row.figure]} {word} than the "
            f"two rules' separate effects add up to (95% interval {row.low:+.2f} to {row.high:+.2f}{misfit})")


def _size(figure: str, x: float) -> str:
    return f"{100 * x:.1f}%" if figure in LOG else f"{x:.3f} {UNITS[figure]}"


def _effect(figure: str, r: Any) -> str:
    if figure in LOG:
        return f"x{np.exp(r['estimate']):.3f} [{np.exp(r['low']):.3f}, {np.exp(r['high']):.3f}]"
    return f"{r['estimate']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}]"


def screen_text(result: dict[str, Any], top: int = 5) -> str:
    """The printed report."""
    m, terms = result["meta"], result["terms"]
    lines = [f"Screen of {m['space']}: {m['points']} points x {m['hands']:,} hands (seed {m['seed']}), "
             f"design {m['design']}; {len(m['factors'])} keys"]
    check = result["check"].set_index("figure")
    for fig, label in FIGURES.items():
        t = terms[terms["figure"] == fig]
        main, inter = t[t["kind"] == "main"], t[t["kind"] == "interaction"]
        c = check.loc[fig]
        ref = t.loc[t["kind"] == "intercept", "estimate"].iloc[0]
        scale = " (modelled as its log: effects are ratios)" if fig in LOG else ""
        lines.append(f"\n{label}{scale}: {np.exp(ref) if fig in LOG else ref:.2f} at "
                     f"the reference values; {int(main['discovery'].sum())} of {len(main)} main effects and "
                     f"{int(inter['discovery'].sum())} of {len(inter)} two-way interactions remain at a 5% false "
                     f"discovery rate")
        if "low_fit" in inter:
            sure = ((inter["low_fit"] > 0) | (inter["high_fit"] < 0)).sum()
            lines.append(f"  {sure} of the {len(inter)} interactions exclude 0 also with the model's misfit counted "
                         "(the points' scatter about it, HC3)")
        lines.append(f"  held out: the model misses points it was not fitted to by {_size(fig, c['held_out_rmse'])} "
                     f"(root mean square), against {_size(fig, c['point_se'])} of noise in one point's figure "
                     f"and {_size(fig, c['spread'])} of spread between points")
        s = result["sobol"][result["sobol"]["figure"] == fig].sort_values("total", ascending=False)
        lines.append(f"  {'key':<24} {'Sobol first':>12} {'total':>7} {'[95% interval]':>16}   "
                     "strongest main effect [95% interval]")
        for r in s.head(8).itertuples():
            eff = main[main["a"] == r.factor]
            best = eff.loc[eff["estimate"].abs().idxmax()] if len(eff) else None
            what = (f"{r.factor}={best['a_value']}: {_effect(fig, best)}" + (" †" if best["discovery"] else "")
                    if best is not None else "")
            iv = f"[{r.total_low:.3f}, {r.total_high:.3f}]" if hasattr(r, "total_low") else ""
            lines.append(f"  {r.factor:<24} {r.first:>12.3f} {r.total:>7.3f} {iv:>16}   {what}")
        if len(s) > 8:
            lines.append(f"  ... {len(s) - 8} more keys, each with a total index of {s['total'].iloc[8]:.3f} or less")
    best = strongest(result, top)
    lines.append(f"\nThe {len(best)} strongest two-way interactions (against each figure's spread):" if len(best)
                 else "\nNo two-way interaction remains at the false discovery rate.")
    lines += [f"  {sentence(r)}" for r in best.itertuples()]
    lines.append(f"† remains at a 5% false discovery rate over the figure's terms.  {REACH}")
    return "\n".join(lines)


def interaction_matrix(result: dict[str, Any], figure: str) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Keys, and per pair of keys the largest interaction over their values and whether its
    interval (and that with the model's misfit) excludes 0, as symmetric matrices."""
    names = [f["key"].rpartition(".")[2] for f in result["meta"]["factors"]]
    idx = {n: i for i, n in enumerate(names)}
    size = np.zeros((len(names), len(names)))
    sure = np.zeros(size.shape, dtype=bool)
    firm = np.zeros(size.shape, dtype=bool)
    t = result["terms"]
    t = t[(t["figure"] == figure) & (t["kind"] == "interaction")]
    for r in t.itertuples():
        i, j = idx[r.a], idx[r.b]
        if abs(r.estimate) > abs(size[i, j]):
            size[i, j] = size[j, i] = r.estimate
            sure[i, j] = sure[j, i] = r.low > 0 or r.high < 0
            firm[i, j] = firm[j, i] = hasattr(r, "low_fit") and (r.low_fit > 0 or r.high_fit < 0)
    return names, size, sure, firm


def plot_interactions(result: dict[str, Any], path: str | os.PathLike[str] | None = None) -> Any:
    """The interaction matrix, one panel per figure: each pair's largest interaction,
    marked where its 95% interval excludes 0."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(16, 15), layout="constrained")
    axes = fig.subplots(2, 2).ravel()
    for ax, (key, label) in zip(axes, FIGURES.items()):
        names, size, sure, firm = interaction_matrix(result, key)
        lim = float(np.abs(size).max()) or 1.0
        im = ax.imshow(size, cmap="RdBu_r", vmin=-lim, vmax=lim)
        ii, jj = np.nonzero(sure)
        ax.scatter(jj, ii, marker="o", s=9, facecolors="none", edgecolors="black", linewidths=0.7)
        ii, jj = np.nonzero(firm)
        ax.scatter(jj, ii, marker="o", s=9, color="black")
        ax.set_xticks(range(len(names)), names, rotation=90, fontsize=7)
        ax.set_yticks(range(len(names)), names, fontsize=7)
        ax.set_title(f"{label}: interaction ({'log of the ratio' if key in LOG else UNITS[key]})", fontsize=10)
        fig.colorbar(im, ax=ax, shrink=0.7)
    fig.suptitle(f"Two-way interactions of {result['meta']['space']} (circled: the 95% interval excludes 0; "
                 "filled: also with the model's misfit counted)")
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig


def plot_sobol(result: dict[str, Any], path: str | os.PathLike[str] | None = None) -> Any:
    """The Sobol first and total indices of every key, one panel per figure."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(14, 11), layout="constrained")
    axes = fig.subplots(2, 2).ravel()
    for ax, (key, label) in zip(axes, FIGURES.items()):
        s = result["sobol"][result["sobol"]["figure"] == key].sort_values("total")
        y = np.arange(len(s))
        for shift, col, what, colour in ((0.2, "total", "total", "#4c72b0"),
                                         (-0.2, "first", "first (alone)", "#dd8452")):
            err = (np.clip([s[col] - s[f"{col}_low"], s[f"{col}_high"] - s[col]], 0, None)
                   if f"{col}_low" in s else s[f"{col}_conf"])
            ax.barh(y + shift, s[col], 0.4, xerr=err, label=what, color=colour)
        ax.set_yticks(y, s["factor"], fontsize=7)
        ax.set_xlabel("share of the figure's variance over the space")
        ax.set_title(label, fontsize=10)
        ax.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"Sobol indices of {result['meta']['space']} (on the fitted model; bars: 95% intervals over "
                 "models drawn from the fit)")
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig
