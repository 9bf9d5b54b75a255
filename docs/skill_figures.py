"""The generated blocks of docs/skill.md: every figure and verdict of the page, from one run.

The page's command, ``unosim skill house_rules`` at its defaults, runs once in the page's
scratch folder (``runs/house_rules.skill``): a long tuning, so a finished or interrupted
run there is resumed, not redone (``python docs/generate.py --work DIR``
keeps the folder between regenerations; a finished run resumes without tuning anything
and prints the same results).  Each block then reads that run's files (skill.parquet per
point, _skill_replicates.pq per replicate) and writes its Markdown; the sentences
that state a figure or a verdict are computed here, so they say what the run shows.

The renderers take a :class:`SkillRun`, so tests/e2e/test_docs_skill.py checks them on a small
real run in seconds.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

COMMAND = ("skill", "house_rules", "--ceiling")
"""The page's command (``unosim`` + these), at its defaults."""
OUT = Path("runs") / "house_rules.skill"
"""Where it writes, relative to the scratch folder."""
CHART = Path(__file__).resolve().parent / "skill_house_rules.png"
NO_CHANGE = "no clear change"  # unosim.studies.skill_index.VERDICTS[2]: the interval holds 0
Z = 1.959964  # the normal quantile of a 95% interval: one replicate's measurement


@dataclass(frozen=True)
class SkillRun:
    """One finished `unosim skill` run: its tables and what the command printed."""

    root: Path
    points: pd.DataFrame   # skill.parquet: one row per point
    raw: pd.DataFrame      # _skill_replicates.pq: one row per point and replicate
    diffs: pd.DataFrame    # each point minus its table size's base, with its verdict (skill_index.verdicts)
    settings: dict
    printed: str

    @property
    def sizes(self) -> list[int]:
        return sorted(int(p) for p in self.points["players"].unique())

    def base(self, players: int) -> pd.Series:
        return self.points[(self.points["players"] == players) & self.points["is_base"]].iloc[0]


def execute(work: Path, command: tuple[str, ...] = COMMAND) -> str:
    """``unosim *command`` in ``work`` (the same process, through click's runner); what it
    printed on stdout.  A finished run in its --out is resumed: nothing is tuned again."""
    from click.testing import CliRunner

    from unosim.cli import main

    old = os.getcwd()
    os.chdir(work)
    try:
        res = CliRunner(env={"COLUMNS": None}).invoke(main, list(command))  # a pipe's width, not the shell's
    finally:
        os.chdir(old)
    if res.exit_code != 0:
        raise RuntimeError(f"`unosim {' '.join(command)}` in {work} failed (exit {res.exit_code}):\n{res.output}")
    return res.stdout


def load(root: Path, printed: str = "") -> SkillRun:
    """The run in ``root`` (a `unosim skill` --out folder), read from its files."""
    from unosim.studies.skill_index import REPLICATES_FILE, SKILL_FILE, verdicts
    from unosim.studies.skill_rows import table_path

    points = pd.read_parquet(root / SKILL_FILE)
    raw = pd.read_parquet(table_path(root, REPLICATES_FILE))
    return SkillRun(root, points, raw, verdicts(points), json.loads(points["settings"].iloc[0]), printed)


_RUNS: dict[Path, SkillRun] = {}


def page_run(work: Path) -> SkillRun:
    """The page's run in ``work``: run (or resumed) once per scratch folder and process;
    its chart becomes the page's."""
    key = work.resolve()
    if key not in _RUNS:
        _RUNS[key] = load(work / OUT, execute(work, COMMAND))
        chart(_RUNS[key], CHART)
    return _RUNS[key]


# -- formatting --------------------------------------------------------------------------

def _pp(x: float, sign: bool = True) -> str:
    """A share or an index difference in percentage points, one decimal: "+3.1"."""
    return f"{100 * x:{'+' if sign else ''}.1f}"


def _interval(lo: float, hi: float, sign: bool = True) -> str:
    return f"[{_pp(lo, sign)}, {_pp(hi, sign)}]"


def _table(n: int) -> str:
    return "heads-up" if n == 2 else f"at {n} players"


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _excludes_zero(lo: float, hi: float) -> bool:
    return lo > 0 or hi < 0


def _rate() -> str:
    """The false discovery rate every † of the page holds, as a percentage."""
    from unosim.analysis.stats import DISCOVERY_RATE

    return f"{DISCOVERY_RATE:.0%}"


# -- the blocks --------------------------------------------------------------------------

def run_size(run: SkillRun, sweep_file: str = "configs/sweeps/house_rules.toml") -> str:
    """What was run, at which settings, how long it took (timings masked by the tests)."""
    s = run.settings
    k, seed = int(s["replicates"]), int(s["seed"])
    rules = sorted(set(run.points["rules"]) - {"base"})
    seeds = f"seeds {seed}-{seed + k - 1}" if k > 1 else f"seed {seed}"
    per = [f"{run.points[run.points['players'] == n]['seconds'].mean():.0f} s a point at {n} players"
           for n in run.sizes]
    valued = any(not a.startswith("--") for a in COMMAND[2:])  # an option with a value: not the defaults
    how = "" if valued else " at its defaults"
    tunings = f"{k} tuning{'s' if k > 1 else ''}"
    minutes = run.points["seconds"].sum() / 60
    text = (f"Every house rule alone (`{sweep_file}`: {len(rules)} rule values at "
            f"{_names([str(n) for n in run.sizes])} players, {len(run.points)} points), `unosim "
            f"{' '.join(COMMAND)}`{how}: per point {tunings} ({seeds}) of "
            f"{s['budget']} evaluations of {s['deals']} deals, each tuned bot measured on {s['check_deals']:,} fresh "
            f"deals of its seed.  The points' tuning and measuring took {minutes:.0f} minutes in all "
            f"({', '.join(per)}).")
    if _with_ceiling(run):
        hours = run.points["ceiling_seconds"].sum() / 3600
        bot, deals = run.points["ceiling_bot"].dropna().iloc[0], int(run.points["ceiling_deals"].max())
        text += (f"  The ceiling (`{bot}`, {deals:,} deals per table, at a table of B0 and at a table of "
                 f"`counter`) took {hours:.1f} hours more.")
    return text


def base_table(run: SkillRun) -> str:
    """The base rules at every table size: share, index, first-seat edges, with intervals."""
    rows = ["| table | tuned bot's share at a table of B0 | skill index | first-seat edge, all tuned | "
            "first-seat edge, all B0 |", "|---|---|---|---|---|"]
    for n in run.sizes:
        b = run.base(n)
        rows.append(f"| {n} players | {_pp(b.share, False)}% {_interval(b.low, b.high, False)} | "
                    f"**{_pp(b.skill_norm, False)}%** {_interval(b.norm_low, b.norm_high, False)} | "
                    f"{_pp(b.edge_tuned)} pp {_interval(b.edge_tuned_low, b.edge_tuned_high)} | "
                    f"{_pp(b.edge_b0)} pp {_interval(b.edge_b0_low, b.edge_b0_high)} |")
    return "\n".join(rows)


def verdict(low: float, high: float) -> str:
    """The verdict the notebook reads too (unosim.studies.skill_index.verdict)."""
    from unosim.studies.skill_index import verdict as of

    return of(low, high)


def difference_table(run: SkillRun) -> str:
    """Every rule minus the base of its table size, one column per table size, sorted by
    the middle table size's column (the largest first); bold where the interval excludes 0."""
    d = run.diffs
    sizes = run.sizes
    key = sizes[len(sizes) // 2]
    cell = {(r.rules, int(r.players)): r for r in d.itertuples()}
    rules = sorted(set(d["rules"]), key=lambda x: (-cell[(x, key)].diff if (x, key) in cell else np.inf, x))
    rows = ["| rule | " + " | ".join(f"{n} players" for n in sizes) + " |", "|---|" + "---|" * len(sizes)]
    for x in rules:
        cells = []
        for n in sizes:
            r = cell.get((x, n))
            if r is None:
                cells.append("- (no such table)")
                continue
            text = f"{_pp(r.diff)} {_interval(r.low, r.high)}"
            cells.append((f"**{text}**" if verdict(r.low, r.high) != NO_CHANGE else text) + (" †" if r.discovery else ""))
        rows.append(f"| `{x}` | " + " | ".join(cells) + " |")
    k = int(run.points["replicates"].min())
    how = (f"the mean of {k} tunings, intervals with the search's noise (Student t, "
           + ", ".join(f"{run.base(n).df:.0f} df at {n} players" for n in sizes) + ")") if k > 1 else \
        "one tuning per point, intervals of the measurement only"
    return (f"Sorted by the {key}-player column; {how}; † where the difference remains with the false discovery "
            f"rate at {_rate()} over all {len(d)} (Benjamini-Hochberg).\n\n" + "\n".join(rows))


def noise_figures(run: SkillRun) -> dict[int, dict[str, float]]:
    """Per table size, in units of the normalised index: the replicates' standard deviation
    (pooled over the points), one measurement's, the search's own (the first less the
    second, as unosim/studies/replicates.py estimates it), and the median half-width of a
    point's interval and of a difference's."""
    out = {}
    for n in run.sizes:
        raw = run.raw[run.raw["players"] == n]
        s2, v = [], []
        for _, g in raw.groupby("label"):
            if len(g) > 1:
                s2.append(g["skill_norm"].var(ddof=1))
                v.append((((g["norm_high"] - g["norm_low"]) / (2 * Z)) ** 2).mean())
        pts = run.points[run.points["players"] == n]
        dif = run.diffs[run.diffs["players"] == n]
        out[n] = {"points": len(pts), "replicates": int(pts["replicates"].min()),
                  "sd": float(np.sqrt(np.mean(s2))) if s2 else float("nan"),
                  "measurement": float(np.sqrt(np.mean(v))) if v else float("nan"),
                  "search": float(np.sqrt(max(0.0, float(np.mean(np.subtract(s2, v)))))) if s2 else float("nan"),
                  "point": float(((pts["norm_high"] - pts["norm_low"]) / 2).median()),
                  "diff": float(((dif["high"] - dif["low"]) / 2).median()) if len(dif) else float("nan")}
    return out


def noise_table(run: SkillRun) -> str:
    """The search's noise against the measurement's, per table size (the replicates')."""
    f = noise_figures(run)
    if all(not np.isfinite(x["sd"]) for x in f.values()):
        return ("One tuning per point (`--replicates 1`): this run cannot tell the search's noise from the "
                "measurement's.")
    rows = ["| table | points x replicates | sd of the index over the replicates | one measurement's sd | "
            "the search's own sd | ± of a point (median) | ± of a difference from the base (median) |",
            "|---|---|---|---|---|---|---|"]
    for n, x in f.items():
        rows.append(f"| {n} players | {x['points']} x {x['replicates']} | {_pp(x['sd'], False)} | "
                    f"{_pp(x['measurement'], False)} | {_pp(x['search'], False)} | {_pp(x['point'], False)} | "
                    f"{_pp(x['diff'], False)} |")
    larger = [n for n, x in f.items() if x["search"] > x["measurement"]]
    smaller = [n for n, x in f.items() if x["search"] <= x["measurement"]]
    says = []
    if larger:
        says.append(f"the search's own noise is the larger {_names([_table(n) for n in larger])}")
    if smaller:
        says.append(f"the measurement's is the larger {_names([_table(n) for n in smaller])}")
    return ("\n".join(rows) + "\n\nIn points of the normalised index; " + "; ".join(says)
            + ".  Without replicates a difference's interval would leave the search's share out.")


def reading(run: SkillRun) -> str:
    """The verdicts, each computed from the run: the base index by table size, the rules
    whose difference from the base excludes 0 (largest first), the rules whose every
    replicate measured exactly the base's share, and the first-seat edge all tuned against
    all B0."""
    from unosim.studies.replicates import quantile

    sizes = run.sizes
    out = []
    bases = [run.base(n) for n in sizes]
    shares = "; ".join(f"{_table(n)} {_pp(b.skill_norm, False)}% {_interval(b.norm_low, b.norm_high, False)}"
                       for n, b in zip(sizes, bases))
    falls = [a.skill_norm > b.skill_norm for a, b in zip(bases, bases[1:])]
    apart = [a.skill_norm - b.skill_norm > _half(a, b) for a, b in zip(bases, bases[1:])]
    if len(sizes) > 1 and all(apart):
        out.append(f"* **The bigger the table, the less skill matters.**  Of what could be gained over the luck of "
                   f"the deal, good play takes {shares} under the official rules, each table size's index below the "
                   "last beyond their intervals: every opponent adds cards and choices the bot does not control "
                   "between two of its turns.")
    elif len(sizes) > 1 and all(falls):
        out.append(f"* **The index falls with the table size**, though not beyond the intervals of every step: "
                   f"{shares} under the official rules.")
    else:
        out.append(f"* **The official rules' index by table size**: {shares}.")
    rules_at = {n: len(run.diffs[run.diffs["players"] == n]) for n in sizes}
    for n in sizes:
        d = run.diffs[run.diffs["players"] == n]
        moved = d.assign(verdict=[verdict(lo, hi) for lo, hi in zip(d["low"], d["high"])])
        moved = moved[moved["verdict"] != NO_CHANGE]
        moved = moved.reindex(moved["diff"].abs().sort_values(ascending=False).index)
        head = f"* **{_table(n).capitalize()}**"
        if not len(moved):
            none = "its one rule does not" if rules_at[n] == 1 else f"none of the {rules_at[n]} rules"
            out.append(f"{head}, {none} move{'s' if rules_at[n] != 1 else ''} the index beyond its interval.")
            continue
        parts = []
        for word, sub in (("more skill", moved[moved["verdict"] == "more skill"]),
                          ("less", moved[moved["verdict"] == "more luck"])):
            if len(sub):
                parts.append(f"{word} under " + ", ".join(f"`{r.rules}` ({_pp(r.diff)}{' †' if r.discovery else ''})"
                                                         for r in sub.itertuples()))
        marked = int(moved["discovery"].sum())
        out.append(f"{head}, {len(moved)} of {rules_at[n]} rules move{'s' if len(moved) == 1 else ''} the index "
                   "beyond its interval "
                   f"(points of the index, largest first; {marked} of them marked †, as remaining with the false "
                   f"discovery rate held over every rule): {'; '.join(parts)}." + _common_shift(run, n))
    same = _same_as_base(run)
    if same:
        where = [f"`{r}` ({_names([str(n) for n in ns])} players)" for r, ns in same.items()]
        out.append("* **Exactly 0**: " + ", ".join(where) + ".  Each replicate of these points won exactly as many "
                   "hands at its table of B0 as the base's replicate of the same seed: there the rule never acts, "
                   "or never changes who goes out first.")
    diff_edges = []
    for n in sizes:
        b = run.base(n)
        q = quantile(b.df)
        se_t = (b.edge_tuned_high - b.edge_tuned_low) / (2 * q)
        se_b = (b.edge_b0_high - b.edge_b0_low) / (2 * q)
        dd = b.edge_tuned - b.edge_b0
        half = q * float(np.hypot(se_t, se_b))
        diff_edges.append((n, dd, dd - half, dd + half))
    text = "; ".join(f"{_table(n)} {_pp(dd)} {_interval(lo, hi)}" for n, dd, lo, hi in diff_edges)
    differs = [n for n, _, lo, hi in diff_edges if _excludes_zero(lo, hi)]
    if not differs:
        out.append(f"* **The first seat's edge** does not differ measurably between every seat tuned and every seat "
                   f"B0 (all tuned minus all B0, points: {text}; intervals added in quadrature): as far as these "
                   "intervals tell, skill neither erases the seat nor amplifies it.")
    else:
        out.append(f"* **The first seat's edge** differs between every seat tuned and every seat B0 "
                   f"{_names([_table(n) for n in differs])} (all tuned minus all B0, points: {text}; intervals "
                   "added in quadrature).")
    return "\n".join(out)


def common_shift(diffs: pd.Series, base_half: float) -> tuple[int, int, float] | None:
    """Whether one table size's differences from its base move together: (how many of
    the rules that differ at all share the median's sign, how many differ, the median)
    when at least three differ, three quarters of them one way and their median beyond
    the base's own half-width; else None.  Every difference of a table size is taken
    from the same base point, so such a shift may be the base's search luck."""
    nz = diffs[diffs != 0]
    if len(nz) < 3:
        return None
    med = float(nz.median())
    same = int((np.sign(nz) == np.sign(med)).sum())
    return (same, len(nz), med) if abs(med) > base_half and same >= 0.75 * len(nz) else None


def _common_shift(run: SkillRun, n: int) -> str:
    b = run.base(n)
    found = common_shift(run.diffs[run.diffs["players"] == n]["diff"], (b.norm_high - b.norm_low) / 2)
    if found is None:
        return ""
    same, of, med = found
    reps = run.raw[(run.raw["players"] == n) & run.raw["is_base"]].sort_values("replicate")["skill_norm"]
    where = "above" if med > 0 else "below"
    return (f"  But {same} of the {of} rules that differ at all sit {where} the base (median {_pp(med)}, beyond the "
            f"base's own ±{_pp((b.norm_high - b.norm_low) / 2, False)}), and every difference here is taken from "
            f"that one base point (its replicates: {_names([_pp(v, False) + '%' for v in reps])}): a shift common "
            "to them may be the base's search luck rather than each rule's effect, and a rule's difference says "
            "more the further it exceeds that shift.")


def _half(a: pd.Series, b: pd.Series) -> float:
    """The 95% half-width of the difference of two points' normalised indexes (tuned
    apart: their variances add), as base_differences computes it."""
    from unosim.studies.replicates import quantile

    def se(r: pd.Series) -> float:
        return float(r.norm_se) if np.isfinite(r.norm_se) else float((r.norm_high - r.norm_low) / (2 * Z))

    return quantile(min(a.df, b.df)) * float(np.hypot(se(a), se(b)))


def _same_as_base(run: SkillRun) -> dict[str, list[int]]:
    """Rule -> the table sizes where every replicate's share equals the base's exactly."""
    raw = run.raw
    found: dict[str, list[int]] = {}
    for n in run.sizes:
        at = raw[raw["players"] == n]
        base = at[at["is_base"]].set_index("replicate")["share"]
        for label, g in at[~at["is_base"]].groupby("label", sort=False):
            mine = g.set_index("replicate")["share"]
            if len(mine) == len(base) and (mine == base.reindex(mine.index)).all():
                found.setdefault(g["rules"].iloc[0], []).append(n)
    return dict(sorted(found.items()))


VERDICTS = {
    "confirmed": "the ceiling moves the same way, beyond its interval",
    "not confirmed": "the ceiling's interval contains 0",
    "reversed": "the ceiling moves the other way, beyond its interval",
    "ceiling only": "the lower bound's interval contains 0, the ceiling's does not",
}
"""What the ceiling says of a rule's difference from the base, by name (:func:`ceiling_verdict`)."""


def ceiling_verdict(low: float, high: float, c_diff: float, c_low: float, c_high: float) -> str | None:
    """The ceiling's verdict on one rule at one table size (a key of :data:`VERDICTS`), from
    the lower bound's interval and the ceiling's difference and interval; None when
    neither excludes 0 (no verdict to confirm or change)."""
    moved, c_moved = _excludes_zero(low, high), _excludes_zero(c_low, c_high)
    if moved and c_moved:
        return "confirmed" if (low > 0) == (c_diff > 0) else "reversed"
    if moved:
        return "not confirmed"
    return "ceiling only" if c_moved else None


def _with_ceiling(run: SkillRun) -> bool:
    return "ceiling_diff" in run.diffs


def bracket_base(run: SkillRun) -> str:
    """The official rules at every table size: the tuned bot's index and the search's, at
    a table of B0 and at a table of counter."""
    if not _with_ceiling(run):
        return "This run has no ceiling (`--ceiling`)."
    rows = ["| table | at a table of B0: tuned | search | at a table of counter: tuned | search |",
            "|---|---|---|---|---|"]
    for n in run.sizes:
        b = run.base(n)
        rows.append(f"| {n} players | {_pp(b.skill_norm)}% {_interval(b.norm_low, b.norm_high)} | "
                    f"{_pp(b.ceiling_norm)}% {_interval(b.ceiling_norm_low, b.ceiling_norm_high)} | "
                    f"{_pp(b.counter_norm)}% {_interval(b.counter_norm_low, b.counter_norm_high)} | "
                    f"{_pp(b.ceiling_counter_norm)}% {_interval(b.ceiling_counter_norm_low, b.ceiling_counter_norm_high)} |")
    bot = run.points["ceiling_bot"].dropna().iloc[0]
    deals = int(run.points["ceiling_deals"].max())
    return (f"The normalised index (the share above the even one, over what is left above it), the search being "
            f"`{bot}` on {deals:,} fresh deals per table, every deal once from every seat:\n\n" + "\n".join(rows))


def bracket_table(run: SkillRun) -> str:
    """Every rule whose difference from the base excludes 0 under either bound: the lower
    bound's difference, the ceiling's, and the ceiling's verdict; by table size, the
    largest lower-bound difference first."""
    if not _with_ceiling(run):
        return "This run has no ceiling (`--ceiling`)."
    rows = ["| rule | table | lower bound (tuned) | ceiling (search) | the ceiling |", "|---|---|---|---|---|"]
    for n in run.sizes:
        d = run.diffs[run.diffs["players"] == n]
        d = d.reindex(d["diff"].abs().sort_values(ascending=False).index)
        for r in d.itertuples():
            v = ceiling_verdict(r.low, r.high, r.ceiling_diff, r.ceiling_low, r.ceiling_high)
            if v is None:
                continue
            tuned = f"{_pp(r.diff)} {_interval(r.low, r.high)}"
            ceil = f"{_pp(r.ceiling_diff)} {_interval(r.ceiling_low, r.ceiling_high)}"
            tuned = (f"**{tuned}**" if _excludes_zero(r.low, r.high) else tuned) + (" †" if r.discovery else "")
            ceil = ((f"**{ceil}**" if _excludes_zero(r.ceiling_low, r.ceiling_high) else ceil)
                    + (" †" if r.ceiling_discovery else ""))
            rows.append(f"| `{r.rules}` | {n} players | {tuned} | {ceil} | {v} |")
    if len(rows) == 2:
        return "No rule moves either bound beyond its interval at any table size."
    paired = "ceiling_diff_se" in run.points and bool(run.points.loc[~run.points["is_base"], "ceiling_diff_se"]
                                                       .notna().all())
    how = ("; the ceiling's intervals paired by deal, every point's search playing the same deals" if paired else
           "; the ceiling's intervals add the two measurements' variances")
    return ("Points of the normalised index, each point minus the official rules at its table size (bold: the "
            f"interval excludes 0{how}; † where the difference remains with the false discovery rate at {_rate()} "
            f"over all {len(run.diffs)} of its bound, Benjamini-Hochberg); "
            + "; ".join(f"*{k}*: {t}" for k, t in VERDICTS.items()) + ".\n\n"
            + "\n".join(rows))


def bracket_reading(run: SkillRun) -> str:
    """The verdicts the ceiling keeps and changes, per table size, each computed from the run."""
    if not _with_ceiling(run):
        return "This run has no ceiling (`--ceiling`)."
    out = []
    for n in run.sizes:
        b = run.base(n)
        gap = b.ceiling_norm - b.skill_norm
        half = Z * float(np.hypot((b.ceiling_norm_high - b.ceiling_norm_low) / (2 * Z),
                                  (b.norm_high - b.norm_low) / (2 * Z)))
        where = "above" if gap - half > 0 else "below" if gap + half < 0 else "level with"
        head = (f"* **{_table(n).capitalize()}** the search's index under the official rules is "
                f"{_pp(b.ceiling_norm, False)}% {_interval(b.ceiling_norm_low, b.ceiling_norm_high, False)}, {where} "
                f"the tuned bot's {_pp(b.skill_norm, False)}% (the search minus the tuned bot: {_pp(gap)} "
                f"{_interval(gap - half, gap + half)} points, the two measurements' variances added).")
        d = run.diffs[run.diffs["players"] == n]
        by: dict[str, list[str]] = {k: [] for k in VERDICTS}
        for r in d.reindex(d["diff"].abs().sort_values(ascending=False).index).itertuples():
            v = ceiling_verdict(r.low, r.high, r.ceiling_diff, r.ceiling_low, r.ceiling_high)
            if v is not None:
                by[v].append(f"`{r.rules}` ({_pp(r.diff)} / {_pp(r.ceiling_diff)})")
        moved = sum(len(by[k]) for k in ("confirmed", "not confirmed", "reversed"))
        if not moved and not by["ceiling only"]:
            some = "its one rule moves neither bound" if len(d) == 1 else f"none of its {len(d)} rules moves either bound"
            out.append(head + f"  Here {some} beyond its interval.")
            continue
        text = head
        if moved:
            parts = [f"confirms {len(by['confirmed'])}" + (f": {', '.join(by['confirmed'])}" if by["confirmed"] else "")]
            parts += [f"{word} {', '.join(by[k])}" for k, word in (("not confirmed", "does not confirm"),
                                                                   ("reversed", "reverses")) if by[k]]
            text += (f"  Of the {moved} rule{'s' if moved > 1 else ''} whose lower bound moves beyond its interval "
                     f"(lower bound / ceiling, points), the ceiling " + "; ".join(parts) + ".")
        if by["ceiling only"]:
            text += f"  The ceiling alone moves beyond its interval under {', '.join(by['ceiling only'])}."
        out.append(text)
    diffs = run.diffs.sort_values("players", kind="stable")
    changed = [r for r in diffs.itertuples()
               if ceiling_verdict(r.low, r.high, r.ceiling_diff, r.ceiling_low, r.ceiling_high)
               in ("not confirmed", "reversed", "ceiling only")]
    out.append(f"* **Verdicts the ceiling changes**: {len(changed)} of {len(diffs)} rules at a table size"
               + (": " + ", ".join(f"`{r.rules}` at {r.players} players" for r in changed) if changed else "") + ".")
    out.append(_what_not_confirmed_means(run))
    return "\n".join(out)


def _what_not_confirmed_means(run: SkillRun) -> str:
    """Why *not confirmed* is not *refuted* (the ceiling's intervals are the wider), and how
    many verdicts chance alone would give each bound across this many differences."""
    d = run.diffs
    halves = []
    for n in run.sizes:
        at = d[d["players"] == n]
        halves.append(f"{_table(n)} ±{_pp(float((at['ceiling_high'] - at['ceiling_low']).median()) / 2, False)} "
                      f"against ±{_pp(float((at['high'] - at['low']).median()) / 2, False)}")
    lower = int(sum(_excludes_zero(r.low, r.high) for r in d.itertuples()))
    ceiling = int(sum(_excludes_zero(r.ceiling_low, r.ceiling_high) for r in d.itertuples()))
    lower_kept, ceiling_kept = int(d["discovery"].sum()), int(d["ceiling_discovery"].sum())
    return (f"* **Not confirmed is not refuted**: the ceiling's differences are the less precise (median "
            f"half-width, points: {'; '.join(halves)} for the lower bound), so a difference the lower bound resolves "
            f"the ceiling often cannot.  And at 95% about {0.05 * len(d):.0f} of {len(d)} differences would exclude 0 "
            f"by chance alone if no rule changed anything; {lower} do under the lower bound, {ceiling} under the "
            f"ceiling.  With the false discovery rate held at {_rate()} over all {len(d)} (Benjamini-Hochberg: the "
            f"differences marked † in the tables), {lower_kept} of the lower bound's remain and {ceiling_kept} of "
            "the ceiling's: a verdict without the mark may be real, but the chance ones most likely sit among those.")


def chart(run: SkillRun, dest: Path) -> None:
    """The run's own chart (_skill.png) as the page's figure."""
    from unosim.studies.skill_rows import FIGURE_FILE, table_path

    shutil.copyfile(table_path(run.root, FIGURE_FILE), dest)


# -- docs/figures.py's entries -----------------------------------------------------------

FIGURES: dict[str, Callable[[Path], str]] = {
    "skill_run": lambda work: run_size(page_run(work)),
    "skill_base": lambda work: base_table(page_run(work)),
    "skill_differences": lambda work: difference_table(page_run(work)),
    "skill_noise": lambda work: noise_table(page_run(work)),
    "skill_reading": lambda work: reading(page_run(work)),
    "skill_bracket_base": lambda work: bracket_base(page_run(work)),
    "skill_bracket": lambda work: bracket_table(page_run(work)),
    "skill_bracket_reading": lambda work: bracket_reading(page_run(work)),
}
