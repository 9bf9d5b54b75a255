"""Summaries of simulation results: loading, reports, comparisons and renderers.

Data flows one way: Parquet result files -> per-source aggregates -> a long table of
figures (:class:`Report`) -> renderers (text, markdown, CSV, JSON) and plots.

Design choices (documented here because they change numbers):

* **One pass, only the needed columns.** Reports stream each file one record batch at
  a time (pyarrow column projection, at most one row group per batch) and keep only
  exact integer histograms and counts, so a 10-million-row file reports in a few seconds
  and a few hundred MB. Means, standard deviations and quantiles are computed exactly
  from those histograms (every summarised column is a small non-negative integer).
  Quantiles use numpy's default ("linear") definition.
* **Sources and labels.** A *source* is one Parquet file, or one leaf directory of a
  (hive-partitioned) dataset: each partition is a different config. Its label is the
  config's ``name`` from the metadata; names that clash are suffixed with the file stem
  (or the partition path): ``standard:run2``.
* **Denominators.** Win shares (per seat, relative to the dealer, per team, per bot)
  are over *decided* hands (stalled hands have no winner, R13), so they sum to 1; the
  stalled share is reported separately over all hands. Game length and the counters are
  over all hands: a stall is a real outcome of a config and costs ``max_turns`` turns.
* **Bots.** A per-bot section appears when the bots differ across seats or the file has
  ``bot_<s>`` columns. ``win_share`` is wins / decided hands; ``win_per_seat`` is wins per
  seat held (seat-hands), whose fair value is 1 / players whatever the seat allocation.
* **Matches (S1-S3).** One row per match and system is taken where ``pos_end`` /
  ``neg_end`` is true. The match winner under S1 is every side at the highest total,
  under S2 every side at the lowest; a k-way tie gives each tied seat 1/k (team members
  show the team total, so a winning team of two gives each member 1/2 and the team 1).
  Hands per match counts every hand played up to the end, stalled ones included.
  S2 is skipped under ``finish = "last_standing"``, where docs/rules.md leaves it undefined.
* **Intervals.** 95% by default: Wilson for shares, Student t for means; comparisons
  use Newcombe's hybrid score interval and Welch's interval, with Cohen's h (shares)
  and Cohen's d (means) as effect sizes, all ``other - baseline`` (see ``unosim.analysis.stats``).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union
from urllib.parse import unquote

import numpy as np
import pandas as pd
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from unosim.analysis import stats

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = [
    "RunInfo",
    "Result",
    "Report",
    "load",
    "hand_report",
    "match_report",
    "summarize",
    "compare",
    "balance_report",
    "to_text",
    "to_markdown",
    "to_csv",
    "to_json",
    "render",
    "LENGTH_COLUMNS",
    "BASE_COUNTERS",
    "HOUSE_COUNTERS",
]

META_PREFIX = "unosim."
LENGTH_COLUMNS = ("turns", "cards_played")
BASE_COUNTERS = ("cards_drawn", "reshuffles", "challenges", "uno_penalties")
HOUSE_COUNTERS = (
    "longest_stack",
    "stack_drawn",
    "jump_ins",
    "swaps",
    "passes",
    "slaps",
    "noises",
    "giveaways",
    "max_draw",
)
#: Counters that are per-hand maxima: their overall maximum is reported too.
_MAX_COUNTERS = ("longest_stack", "max_draw")
TABLE_COLUMNS = (
    "label", "section", "figure", "key", "stat",
    "value", "low", "high", "n", "successes", "sd",
)  # fmt: skip

PathLike = Union[str, "os.PathLike[str]"]


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True)
class RunInfo:
    """The file metadata of one source, parsed (the raw strings stay in ``raw``)."""

    config_name: str
    players: int
    teams: int
    bots: tuple[str, ...]
    mode: str
    finish: str
    match_target: int | None
    seed: str
    version: str
    engine_version: str
    config_text: str
    raw: Mapping[str, str]

    @classmethod
    def from_metadata(cls, meta: Mapping[bytes, bytes] | None, names: Sequence[str]) -> RunInfo:
        """Parse ``unosim.*`` key-value metadata; fall back on the schema where absent.

        The fallbacks (players from the ``points_<s>`` columns, mode from ``match``)
        keep hand-made or partially written files reportable.
        """
        raw: dict[str, str] = {}
        for k, v in (meta or {}).items():
            key = k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)
            if key.startswith(META_PREFIX):
                raw[key[len(META_PREFIX):]] = (
                    v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
                )
        seats = sum(1 for c in names if c.startswith("points_"))
        players = _int_or(raw.get("players"), seats or 0)
        teams = _int_or(raw.get("teams"), 1) or 1
        try:
            bots = tuple(str(b) for b in json.loads(raw.get("bots", "[]")))
        except (json.JSONDecodeError, TypeError):
            bots = ()
        if len(bots) == 1 and players > 1:
            bots = bots * players
        mode = raw.get("mode") or ("matches" if "match" in names else "hands")
        target = raw.get("match_target")
        return cls(
            config_name=raw.get("config_name", ""),
            players=players,
            teams=teams,
            bots=bots,
            mode=mode,
            finish=raw.get("finish", "first_out"),
            match_target=_int_or(target, None) if target is not None else None,
            seed=raw.get("seed", ""),
            version=raw.get("version", ""),
            engine_version=raw.get("engine_version", ""),
            config_text=raw.get("config", ""),
            raw=raw,
        )

    def summary(self) -> dict[str, str]:
        """The short metadata a rendered report shows (the config TOML is left out)."""
        out = {
            "config_name": self.config_name,
            "players": str(self.players),
            "teams": str(self.teams),
            "bots": ",".join(self.bots),
            "mode": self.mode,
            "finish": self.finish,
            "seed": self.seed,
            "version": self.version,
            "engine_version": self.engine_version,
        }
        if self.match_target is not None:
            out["match_target"] = str(self.match_target)
        return out


def _int_or(text: Any, default: Any) -> Any:
    try:
        return int(str(text))
    except (TypeError, ValueError):
        return default


@dataclass(frozen=True)
class _Source:
    """One labelled unit of input: a file, a leaf partition, or an in-memory frame."""

    label: str
    files: tuple[Path, ...]
    info: RunInfo
    names: tuple[str, ...]
    partition: Mapping[str, str]
    origin: int
    frame: pd.DataFrame | None = None


@dataclass
class Result:
    """What :func:`load` returns per source: a frame with its metadata.

    Also accepted by the report functions in place of paths (e.g. filtered frames
    from a notebook).
    """

    label: str
    frame: pd.DataFrame
    info: RunInfo
    partition: dict[str, str] = field(default_factory=dict)
    files: tuple[Path, ...] = ()

    @property
    def meta(self) -> Mapping[str, str]:
        """The raw ``unosim.*`` metadata (prefix stripped)."""
        return self.info.raw


def _parse_partition(rel: Path) -> dict[str, str]:
    """``stacking=draw2/players=4`` -> {"stacking": "draw2", "players": "4"}.

    Values are URL-unquoted, as pyarrow's hive partitioning writes them quoted.
    """
    out: dict[str, str] = {}
    for part in rel.parts:
        if "=" in part:
            k, v = part.split("=", 1)
            out[unquote(k)] = unquote(v)
    return out


def _source_meta(sources: Sequence[_Source]) -> dict[str, dict[str, str]]:
    """label -> short metadata, with the partition values as ``partition.<key>``."""
    return {
        s.label: {**s.info.summary(), **{f"partition.{k}": v for k, v in s.partition.items()}}
        for s in sources
    }


def _discover(inputs: Iterable[PathLike | Result]) -> list[_Source]:
    """Expand inputs into labelled sources (see the module docstring for labels)."""
    pending: list[tuple[str, str, tuple[Path, ...], RunInfo, tuple[str, ...], dict, int, Any]] = []
    for origin, item in enumerate(inputs):
        if isinstance(item, Result):
            names = tuple(item.frame.columns)
            pending.append(
                (item.info.config_name or item.label, item.label, item.files, item.info,
                 names, dict(item.partition), origin, item.frame)
            )  # fmt: skip
            continue
        path = Path(item)
        if path.is_dir():
            groups: dict[Path, list[Path]] = {}
            for f in sorted(path.rglob("*.parquet")):
                groups.setdefault(f.parent, []).append(f)
            if not groups:
                raise FileNotFoundError(f"no .parquet files under {path}")
            for leaf, files in sorted(groups.items()):
                rel = leaf.relative_to(path)
                part = _parse_partition(rel)
                schema = pq.read_schema(files[0])
                info = RunInfo.from_metadata(schema.metadata, schema.names)
                if part:
                    stem = ",".join(f"{k}={v}" for k, v in part.items())
                elif rel.parts:
                    stem = rel.as_posix()
                else:
                    stem = path.name
                pending.append(
                    (info.config_name or stem, stem, tuple(files), info,
                     tuple(schema.names), part, origin, None)
                )  # fmt: skip
        elif path.is_file():
            schema = pq.read_schema(path)
            info = RunInfo.from_metadata(schema.metadata, schema.names)
            pending.append(
                (info.config_name or path.stem, path.stem, (path,), info,
                 tuple(schema.names), {}, origin, None)
            )  # fmt: skip
        else:
            raise FileNotFoundError(f"no such result file or directory: {path}")
    counts: dict[str, int] = {}
    for p in pending:
        counts[p[0]] = counts.get(p[0], 0) + 1
    used: set[str] = set()
    out: list[_Source] = []
    for name, stem, files, info, names, part, origin, frame in pending:
        label = name if counts[name] == 1 or name == stem else f"{name}:{stem}"
        base, i = label, 2
        while label in used:
            label, i = f"{base}#{i}", i + 1
        used.add(label)
        out.append(_Source(label, files, info, names, part, origin, frame))
    return out


def _as_inputs(paths: Any) -> list[Any]:
    if isinstance(paths, (str, os.PathLike, Result)):
        return [paths]
    return list(paths)


# ------------------------------------------------------------------------------ loading


def load(
    paths: PathLike | Result | Sequence[PathLike | Result], columns: Sequence[str] | None = None
) -> list[Result]:
    """Read result files into pandas frames, one :class:`Result` per source.

    Only ``columns`` are read (pyarrow column projection; ``None`` reads all). A
    directory gives one Result per leaf partition, with the partition values in
    ``Result.partition`` (not as columns: they are constant within a source). Integer
    and bool columns keep their int32/int64/bool dtypes; ``bot_<s>`` strings come back
    as categoricals, never as object columns. Asking for a column a source does not
    have is an error naming it.
    """
    out: list[Result] = []
    for src in _discover(_as_inputs(paths)):
        cols = list(src.names) if columns is None else list(columns)
        missing = [c for c in cols if c not in src.names]
        if missing:
            raise KeyError(f"{src.label}: no column(s) {missing}; the file has {list(src.names)}")
        if src.frame is not None:
            frame = src.frame[cols].copy()
        else:
            table = pads.dataset(list(map(str, src.files)), format="parquet").to_table(columns=cols)
            frame = table.to_pandas(strings_to_categorical=True)
        out.append(Result(src.label, frame, src.info, dict(src.partition), src.files))
    return out


# --------------------------------------------------------------------------- streaming

_Batch = dict[str, Any]  # column -> numpy array, or (codes, names) for bot_<s>


def _needed_counters(sources: Sequence[_Source]) -> list[str]:
    """House-rule counters that are non-zero in at least one source.

    Decided from the Parquet column statistics (max per row group) without reading
    the data, so an all-zero counter costs nothing; a column without statistics is
    assumed non-zero and read.
    """
    shown: list[str] = []
    for col in HOUSE_COUNTERS:
        for src in sources:
            if col not in src.names:
                continue
            if src.frame is not None:
                if (np.asarray(src.frame[col]) != 0).any():
                    shown.append(col)
                    break
                continue
            if any(_column_may_be_nonzero(f, col) for f in src.files):
                shown.append(col)
                break
    return shown


def _column_may_be_nonzero(path: Path, col: str) -> bool:
    md = pq.ParquetFile(path).metadata
    names = [md.schema.column(i).name for i in range(md.num_columns)]
    if col not in names:
        return False
    j = names.index(col)
    for rg in range(md.num_row_groups):
        st = md.row_group(rg).column(j).statistics
        if st is None or not st.has_min_max:
            return True
        if st.min != 0 or st.max != 0:
            return True
    return False


def _iter_batches(src: _Source, columns: Sequence[str], batch_rows: int = 1 << 18) -> Iterator[_Batch]:
    """Yield the source's data as dicts of numpy arrays, one record batch at a time.

    ``bot_<s>`` columns are read dictionary-encoded and yielded as ``(codes, names)``
    so 10 million strings never become Python objects. Batches of 256k rows without
    pre-buffering measured fastest and leanest on 10M-row files (the temporaries of a
    batch then stay in cache; whole 1M-row groups cost ~40% more time and memory).
    """
    cols = [c for c in columns if c in src.names]
    bot_cols = [c for c in cols if c.startswith("bot_")]
    if src.frame is not None:
        batch: _Batch = {}
        for c in cols:
            if c in bot_cols:
                cat = pd.Categorical(src.frame[c])
                batch[c] = (np.asarray(cat.codes), [str(x) for x in cat.categories])
            else:
                batch[c] = np.asarray(src.frame[c])
        yield batch
        return
    for f in src.files:
        pf = pq.ParquetFile(f, read_dictionary=bot_cols or None, pre_buffer=False)
        for rb in pf.iter_batches(batch_size=batch_rows, columns=cols, use_threads=True):
            batch = {}
            for i, c in enumerate(rb.schema.names):
                arr = rb.column(i)
                if c in bot_cols:
                    if not hasattr(arr, "indices"):
                        arr = arr.dictionary_encode()
                    batch[c] = (arr.indices.to_numpy(zero_copy_only=False), arr.dictionary.to_pylist())
                else:
                    batch[c] = arr.to_numpy(zero_copy_only=False)
            yield batch


def _add_hist(hists: dict[str, np.ndarray], col: str, values: np.ndarray) -> None:
    """Add ``values`` to the exact integer histogram of ``col`` (grown as needed)."""
    try:
        h = np.bincount(values.astype(np.int64, copy=False))
    except ValueError as exc:  # negative values
        raise ValueError(f"column {col!r} has negative values; cannot summarise") from exc
    old = hists.get(col)
    if old is None:
        hists[col] = h
    elif len(h) > len(old):
        h[: len(old)] += old
        hists[col] = h
    else:
        old[: len(h)] += h


@dataclass
class _HistStats:
    """Exact moments and quantiles of an integer histogram (index = value)."""

    n: int
    mean: float
    sd: float
    maximum: float

    @classmethod
    def of(cls, h: np.ndarray) -> _HistStats:
        h = np.asarray(h, dtype=np.int64)
        v = np.arange(len(h), dtype=np.int64)
        n = int(h.sum())
        if n == 0:
            return cls(0, math.nan, math.nan, math.nan)
        s = int(h @ v)
        ss = int(h @ (v * v))
        var = (n * ss - s * s) / (n * (n - 1)) if n > 1 else math.nan
        nz = np.flatnonzero(h)
        return cls(n, s / n, math.sqrt(max(var, 0.0)) if n > 1 else math.nan, float(nz[-1]))


def hist_quantile(h: np.ndarray, q: float) -> float:
    """Quantile of the data an integer histogram describes, as ``np.quantile`` would give.

    Same "linear" definition as numpy: position (n - 1) q between the sorted values,
    found with a search over the cumulative counts instead of sorting 10 million values.
    """
    cum = np.cumsum(np.asarray(h, dtype=np.int64))
    n = int(cum[-1]) if len(cum) else 0
    if n == 0:
        return math.nan
    pos = (n - 1) * q
    lo = math.floor(pos)
    frac = pos - lo
    x_lo = int(np.searchsorted(cum, lo, side="right"))
    x_hi = int(np.searchsorted(cum, min(lo + 1, n - 1), side="right"))
    return x_lo + frac * (x_hi - x_lo)


class _Agg:
    """Streaming aggregate of one source: hand figures and match end rows."""

    def __init__(self, src: _Source, counters: Sequence[str], hands: bool, matches: bool) -> None:
        self.src = src
        self.players = p = max(src.info.players, 1)
        self.teams = src.info.teams
        self.hands = hands
        self.matches = matches and "match" in src.names
        self.bot_cols = [f"bot_{s}" for s in range(p) if f"bot_{s}" in src.names]
        self.counters = [c for c in (*BASE_COUNTERS, *counters) if c in src.names]
        self.n = 0
        self.stalled = 0
        self.seat_wins = np.zeros(p, np.int64)
        self.rel_wins = np.zeros(p, np.int64)
        self.team_wins = np.zeros(max(self.teams, 1), np.int64)
        self.bot_wins: dict[str, int] = {}
        self.bot_seat_hands: dict[str, int] = {}
        self.hists: dict[str, np.ndarray] = {}
        self.end_parts: list[dict[str, np.ndarray]] = []
        self.min_hand_in_match: int | None = None
        end_cols = ["match", "hand_in_match", "pos_end", "neg_end"]
        end_cols += [f"{pre}_total_{s}" for pre in ("pos", "neg") for s in range(p)]
        self.end_cols = [c for c in (*end_cols, *self.bot_cols) if c in src.names] if self.matches else []

    def columns(self) -> list[str]:
        """Every column this aggregate reads (and no other: the projection)."""
        cols: list[str] = []
        if self.hands:
            cols += ["dealer", "winner", "stalled", *LENGTH_COLUMNS, *self.counters]
            if self.teams > 1:
                cols.append("winning_team")
        cols += self.end_cols
        cols += self.bot_cols
        return list(dict.fromkeys(c for c in cols if c in self.src.names))

    def add(self, b: _Batch) -> None:
        if self.hands:
            self._add_hands(b)
        if self.matches:
            self._add_matches(b)

    def _add_hands(self, b: _Batch) -> None:
        p = self.players
        stalled = np.asarray(b["stalled"], dtype=bool)
        decided = ~stalled
        self.n += len(stalled)
        self.stalled += int(stalled.sum())
        w = np.asarray(b["winner"])[decided].astype(np.int64)
        self.seat_wins += np.bincount(w, minlength=p)[:p]
        rel = (w - np.asarray(b["dealer"])[decided]) % p
        self.rel_wins += np.bincount(rel, minlength=p)[:p]
        if self.teams > 1 and "winning_team" in b:
            t = np.asarray(b["winning_team"])[decided].astype(np.int64)
            self.team_wins += np.bincount(t, minlength=self.teams)[: self.teams]
        for c in (*LENGTH_COLUMNS, *self.counters):
            if c in b:
                _add_hist(self.hists, c, np.asarray(b[c]))
        if self.bot_cols:
            for c in self.bot_cols:
                seat = int(c.split("_", 1)[1])
                codes, names = b[c]
                codes = np.asarray(codes)[decided]
                held = np.bincount(codes, minlength=len(names))
                won = np.bincount(codes[w == seat], minlength=len(names))
                for i, name in enumerate(names):
                    self.bot_seat_hands[name] = self.bot_seat_hands.get(name, 0) + int(held[i])
                    self.bot_wins[name] = self.bot_wins.get(name, 0) + int(won[i])

    def _add_matches(self, b: _Batch) -> None:
        him = np.asarray(b["hand_in_match"])
        if len(him):
            m = int(him.min())
            self.min_hand_in_match = m if self.min_hand_in_match is None else min(m, self.min_hand_in_match)
        mask = np.zeros(len(him), dtype=bool)
        for c in ("pos_end", "neg_end"):
            if c in b:
                mask |= np.asarray(b[c], dtype=bool)
        if not mask.any():
            return
        part: dict[str, np.ndarray] = {}
        for c in self.end_cols:
            v = b[c]
            if isinstance(v, tuple):
                codes, names = v
                part[c] = np.asarray(names, dtype=object)[np.asarray(codes)[mask]]
            else:
                part[c] = np.asarray(v)[mask]
        self.end_parts.append(part)

    def end_rows(self) -> dict[str, np.ndarray]:
        """The rows where a scoring system's match ended, as one array per column."""
        if not self.end_parts:
            return {}
        keys = self.end_parts[0].keys()
        return {k: np.concatenate([p[k] for p in self.end_parts]) for k in keys}


def _aggregate(sources: Sequence[_Source], hands: bool, matches: bool) -> list[_Agg]:
    counters = _needed_counters(sources) if hands else []
    aggs = []
    for src in sources:
        agg = _Agg(src, counters, hands, matches)
        cols = agg.columns()
        for batch in _iter_batches(src, cols):
            agg.add(batch)
        aggs.append(agg)
    return aggs


# ------------------------------------------------------------------------------ reports


@dataclass
class Report:
    """A report: a long table of figures plus what is needed to render and plot it.

    ``table`` has one row per figure (columns ``TABLE_COLUMNS`` for summaries; see
    :func:`compare` and :func:`balance_report` for theirs), so CSV and JSON output are
    the table itself and comparisons are joins. ``dists`` holds, per label, integer
    histograms (index = value) of ``turns``, ``cards_played`` and hands per match, for
    plots. ``sources`` maps each label to its short metadata.
    """

    kind: str
    table: pd.DataFrame
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    title: str = ""
    dists: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    baseline: str | None = None

    @property
    def labels(self) -> list[str]:
        """The labels in input order."""
        return list(dict.fromkeys(self.table["label"])) if len(self.table) else list(self.sources)

    def figure(self, section: str, figure: str, stat: str | None = None) -> pd.DataFrame:
        """Rows of one figure (a convenience for notebooks and tests)."""
        t = self.table
        m = (t["section"] == section) & (t["figure"] == figure)
        if stat is not None:
            m &= t["stat"] == stat
        return t[m]

    def __str__(self) -> str:
        return to_text(self)


class _Rows:
    """Collects figure rows for one label."""

    def __init__(self, label: str, confidence: float) -> None:
        self.label = label
        self.confidence = confidence
        self.rows: list[dict[str, Any]] = []

    def _add(self, section: str, figure: str, key: Any, stat: str, value: float, **kw: Any) -> None:
        row = {
            "label": self.label, "section": section, "figure": figure, "key": str(key),
            "stat": stat, "value": float(value), "low": math.nan, "high": math.nan,
            "n": math.nan, "successes": math.nan, "sd": math.nan,
        }  # fmt: skip
        row.update({k: float(v) for k, v in kw.items()})
        self.rows.append(row)

    def share(self, section: str, figure: str, key: Any, x: float, n: float) -> None:
        p, lo, hi = stats.proportion(x, n, self.confidence)
        self._add(section, figure, key, "share", p, low=lo, high=hi, n=n, successes=x)

    def count(self, section: str, figure: str, key: Any, value: float) -> None:
        self._add(section, figure, key, "count", value)

    def mean(self, section: str, figure: str, key: Any, mean: float, sd: float, n: int) -> None:
        _, lo, hi = stats.mean_interval_from_moments(mean, sd, n, self.confidence)
        self._add(section, figure, key, "mean", mean, low=lo, high=hi, n=n, sd=sd)

    def plain(self, section: str, figure: str, key: Any, stat: str, value: float) -> None:
        self._add(section, figure, key, stat, value)

    def distribution(self, section: str, figure: str, h: np.ndarray, qs: Sequence[float]) -> None:
        """Mean with interval and quantiles of an integer histogram."""
        st = _HistStats.of(h)
        self.mean(section, figure, "", st.mean, st.sd, st.n)
        for q in qs:
            name = "median" if q == 0.5 else f"p{round(q * 100)}"
            self.plain(section, figure, "", name, hist_quantile(h, q) if st.n else math.nan)


def _hand_rows(agg: _Agg, out: _Rows) -> None:
    info, p = agg.src.info, agg.players
    decided = agg.n - agg.stalled
    out.count("hands", "hands", "", agg.n)
    out.share("hands", "stalled", "", agg.stalled, agg.n)
    for s in range(p):
        out.share("seat", "win_share", s, agg.seat_wins[s], decided)
    for r in range(p):
        out.share("after_dealer", "win_share", r, agg.rel_wins[r], decided)
    if agg.teams > 1:
        for t in range(agg.teams):
            out.share("team", "win_share", t, agg.team_wins[t], decided)
    bot_wins, bot_held = agg.bot_wins, agg.bot_seat_hands
    if not agg.bot_cols and len(set(info.bots)) > 1:
        bot_wins, bot_held = {}, {}
        for s, b in enumerate(info.bots[:p]):
            bot_wins[b] = bot_wins.get(b, 0) + int(agg.seat_wins[s])
            bot_held[b] = bot_held.get(b, 0) + decided
    for b in sorted(bot_wins):
        out.share("bot", "win_share", b, bot_wins[b], decided)
        out.share("bot", "win_per_seat", b, bot_wins[b], bot_held[b])
    for c in LENGTH_COLUMNS:
        if c in agg.hists:
            out.distribution("length", c, agg.hists[c], (0.5, 0.9, 0.99))
    for c in agg.counters:
        if c not in agg.hists:
            continue
        st = _HistStats.of(agg.hists[c])
        out.mean("counters", c, "", st.mean, st.sd, st.n)
        if c in _MAX_COUNTERS:
            out.plain("counters", c, "", "max", st.maximum)


_SYSTEMS = (("positive", "pos"), ("negative", "neg"))


def _match_rows(agg: _Agg, out: _Rows, dists: dict[str, np.ndarray]) -> None:
    rows = agg.end_rows()
    info, p = agg.src.info, agg.players
    base = agg.min_hand_in_match or 0
    for system, pre in _SYSTEMS:
        if system == "negative" and info.finish == "last_standing":
            continue
        sec = f"match_{system}"
        if f"{pre}_end" not in rows and system == "negative":
            continue  # no S2 columns in this file
        sel = rows[f"{pre}_end"].astype(bool) if rows else np.zeros(0, bool)
        m = int(sel.sum())
        out.count(sec, "matches", "", m)
        if m == 0:
            continue
        totals = np.stack([rows[f"{pre}_total_{s}"][sel].astype(np.float64) for s in range(p)], axis=1)
        best = totals.max(axis=1) if system == "positive" else totals.min(axis=1)
        win = totals == best[:, None]
        credit = win / win.sum(axis=1, keepdims=True)
        seat_credit = credit.sum(axis=0)
        for s in range(p):
            out.share(f"{sec}_seat", "win_share", s, seat_credit[s], m)
        if agg.teams > 1:
            for t in range(agg.teams):
                out.share(f"{sec}_team", "win_share", t, seat_credit[t :: agg.teams].sum(), m)
        bot_cols = [f"bot_{s}" for s in range(p)]
        if all(c in rows for c in bot_cols):
            seat_bots = np.stack([rows[c][sel] for c in bot_cols], axis=1).astype(str)
        elif len(set(info.bots)) > 1:
            seat_bots = np.broadcast_to(np.asarray(info.bots[:p], dtype=str), (m, p))
        else:
            seat_bots = None
        if seat_bots is not None:
            for b in sorted(set(np.unique(seat_bots).tolist())):
                out.share(f"{sec}_bot", "win_share", b, credit[seat_bots == b].sum(), m)
        hands = rows["hand_in_match"][sel].astype(np.int64) - base + 1
        h = np.bincount(hands)
        dists[f"hands_per_match_{system}"] = h
        st = _HistStats.of(h)
        out.mean(sec, "hands_per_match", "", st.mean, st.sd, st.n)
        out.plain(sec, "hands_per_match", "", "median", hist_quantile(h, 0.5))
        out.plain(sec, "hands_per_match", "", "p90", hist_quantile(h, 0.9))
        sides = totals[:, : agg.teams] if agg.teams > 1 else totals
        ordered = np.sort(sides, axis=1)
        if system == "positive":
            ordered = ordered[:, ::-1]
        _values_rows(out, sec, "final_winner", ordered[:, 0])
        if sides.shape[1] > 1:
            _values_rows(out, sec, "final_runner_up", ordered[:, 1])
            _values_rows(out, sec, "final_margin", np.abs(ordered[:, 0] - ordered[:, 1]), quantiles=False)


def _values_rows(out: _Rows, sec: str, fig: str, vals: np.ndarray, quantiles: bool = True) -> None:
    n = len(vals)
    mean = float(vals.mean()) if n else math.nan
    sd = float(vals.std(ddof=1)) if n > 1 else math.nan
    out.mean(sec, fig, "", mean, sd, n)
    if quantiles:
        out.plain(sec, fig, "", "median", float(np.quantile(vals, 0.5)) if n else math.nan)
        out.plain(sec, fig, "", "p90", float(np.quantile(vals, 0.9)) if n else math.nan)


def _build(
    paths: Any, hands: bool, matches: bool, confidence: float, title: str
) -> Report:
    sources = _discover(_as_inputs(paths))
    aggs = _aggregate(sources, hands, matches)
    rows: list[dict[str, Any]] = []
    dists: dict[str, dict[str, np.ndarray]] = {}
    for agg in aggs:
        label = agg.src.label
        r = _Rows(label, confidence)
        d: dict[str, np.ndarray] = {}
        if hands:
            _hand_rows(agg, r)
            d.update({c: agg.hists[c] for c in LENGTH_COLUMNS if c in agg.hists})
        if agg.matches:
            _match_rows(agg, r, d)
        rows += r.rows
        dists[label] = d
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    srcs = _source_meta(sources)
    return Report("summary", table, srcs, title, dists)


def hand_report(
    paths: PathLike | Result | Sequence[PathLike | Result], confidence: float = 0.95
) -> Report:
    """Per-hand figures for every source: hands, stalls, win shares, length, counters.

    Streams each file reading only the needed columns (see the module docstring for
    the denominators and the exact-histogram quantiles).
    """
    return _build(paths, True, False, confidence, "hands")


def match_report(
    paths: PathLike | Result | Sequence[PathLike | Result], confidence: float = 0.95
) -> Report:
    """Match figures under S1 (positive) and S2 (negative) for sources with ``match``.

    Per system: matches, winner share per seat/team/bot (ties shared 1/k), hands per
    match (mean, median, p90) and the final totals (winner, runner-up, margin).
    Sources without match columns are skipped.
    """
    return _build(paths, False, True, confidence, "matches")


def summarize(
    paths: PathLike | Result | Sequence[PathLike | Result], confidence: float = 0.95
) -> Report:
    """:func:`hand_report` and, where there are matches, :func:`match_report`, in one pass."""
    return _build(paths, True, True, confidence, "summary")


# --------------------------------------------------------------------------- compare

_COMPARE_COLUMNS = (
    "label", "section", "figure", "key", "stat", "base", "value",
    "diff", "low", "high", "effect", "effect_kind",
)  # fmt: skip


def _diff_rows(base: pd.DataFrame, other: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """Join two summary tables on the figure and compute differences and effects."""
    keys = ["section", "figure", "key", "stat"]
    m = other.merge(base, on=keys, suffixes=("", "_b"), how="inner")
    diff = (m["value"] - m["value_b"]).to_numpy(float)
    low = np.full(len(m), np.nan)
    high = np.full(len(m), np.nan)
    effect = np.full(len(m), np.nan)
    kind = np.full(len(m), "", dtype=object)
    sh = (m["stat"] == "share").to_numpy()
    if sh.any():
        iv = stats.diff_proportions(
            m.loc[sh, "successes"], m.loc[sh, "n"], m.loc[sh, "successes_b"], m.loc[sh, "n_b"], confidence
        )
        low[sh], high[sh] = iv.low, iv.high
        effect[sh] = stats.cohen_h(m.loc[sh, "value"], m.loc[sh, "value_b"])
        kind[sh] = "h"
    mn = (m["stat"] == "mean").to_numpy()
    if mn.any():
        a = [m.loc[mn, c].to_numpy(float) for c in ("value", "sd", "n", "value_b", "sd_b", "n_b")]
        iv = stats.diff_means(*a, confidence=confidence)
        low[mn], high[mn] = iv.low, iv.high
        effect[mn] = stats.cohen_d(*a)
        kind[mn] = "d"
    out = pd.DataFrame(
        {
            "label": m["label"], "section": m["section"], "figure": m["figure"], "key": m["key"],
            "stat": m["stat"], "base": m["value_b"], "value": m["value"], "diff": diff,
            "low": low, "high": high, "effect": effect, "effect_kind": kind.astype(str),
        }
    )  # fmt: skip
    return out


def compare(
    baseline: Report | PathLike | Result,
    others: Report | PathLike | Result | Sequence[Report | PathLike | Result],
    confidence: float = 0.95,
) -> Report:
    """Every figure of ``others`` against ``baseline``: difference, interval, effect size.

    Inputs are paths (summarised here, in one discovery so labels are disambiguated
    together) or summary Reports. The baseline must be a single config. Differences
    are ``other - baseline``: shares get Newcombe's interval and Cohen's h, means
    Welch's interval and Cohen's d; counts and quantiles get the plain difference.
    Figures present on one side only (e.g. seat 5 against a 4-player baseline) are left
    out.
    """
    other_list = [others] if isinstance(others, (Report, str, os.PathLike, Result)) else list(others)
    if not isinstance(baseline, Report) and not any(isinstance(o, Report) for o in other_list):
        n_base = len(_discover([baseline]))
        rep = summarize([baseline, *other_list], confidence)
        labels = rep.labels
        base_labels, other_labels = labels[:n_base], labels[n_base:]
        base_rep = Report("summary", rep.table[rep.table["label"].isin(base_labels)], rep.sources)
        other_tables = [rep.table[rep.table["label"].isin(other_labels)]]
        sources = rep.sources
    else:
        base_rep = baseline if isinstance(baseline, Report) else summarize(baseline, confidence)
        reps = [o if isinstance(o, Report) else summarize(o, confidence) for o in other_list]
        other_tables = [r.table for r in reps]
        sources = {**base_rep.sources}
        for r in reps:
            sources.update(r.sources)
    base_labels = base_rep.labels
    if len(base_labels) != 1:
        raise ValueError(f"the baseline must be one config, got {base_labels}")
    base_label = base_labels[0]
    base_table = base_rep.table[base_rep.table["label"] == base_label].drop(columns="label")
    parts = []
    for t in other_tables:
        for label in dict.fromkeys(t["label"]):
            parts.append(_diff_rows(base_table, t[t["label"] == label], confidence))
    table = (
        pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(_COMPARE_COLUMNS))
    )
    return Report("compare", table, sources, f"compared with {base_label}", baseline=base_label)


# ---------------------------------------------------------------------------- balance

_BALANCE_METRICS = (
    ("turns", "mean turns", "d"),
    ("seat_advantage", "win share of the first seat after the dealer", "h"),
    ("cards_drawn", "mean cards drawn", "d"),
)


def _norm(v: Any) -> str:
    """Normalise a config value so partition text and TOML values compare equal."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    s = str(v).strip().strip('"').lower()
    try:
        f = float(s)
        return str(int(f)) if f.is_integer() else repr(f)
    except ValueError:
        return s


def _find_key(tree: Mapping[str, Any], key: str) -> Any:
    """A key's value anywhere in a parsed TOML config (sections are one level deep)."""
    if key in tree and not isinstance(tree[key], Mapping):
        return tree[key]
    for v in tree.values():
        if isinstance(v, Mapping):
            found = _find_key(v, key)
            if found is not None:
                return found
    return None


def _registry_defaults() -> dict[str, Any]:
    """Defaults from the config key registry, by short and by full (``rules.x``) name.

    Imported lazily: reports must not need the engine side of the package to load.
    """
    from unosim.rules.config import describe_keys

    out: dict[str, Any] = {}
    for d in describe_keys():
        out[d["key"]] = d["default"]
        out.setdefault(d["key"].rsplit(".", 1)[-1], d["default"])
    return out


def _base_values(
    sources: Sequence[_Source], keys: Sequence[str], base: Mapping[str, Any] | None
) -> dict[str, str]:
    """The base value of every varied key (order of precedence in :func:`balance_report`)."""
    out: dict[str, str] = {}
    parsed = []
    for s in sources:
        try:
            parsed.append(tomllib.loads(s.info.config_text) if s.info.config_text else None)
        except tomllib.TOMLDecodeError:
            parsed.append(None)
    registry = _registry_defaults()
    for k in keys:
        short = k.rsplit(".", 1)[-1]
        if base is not None and (k in base or short in base):
            out[k] = _norm(base[k] if k in base else base[short])
            continue
        seen = {_norm(v) for t in parsed if t is not None and (v := _find_key(t, short)) is not None}
        values = {_norm(s.partition[k]) for s in sources if k in s.partition}
        if len(seen) == 1 and all(t is not None for t in parsed) and seen <= values:
            out[k] = seen.pop()  # every file carries the same (base) config
        elif k in registry or short in registry:
            out[k] = _norm(registry[k] if k in registry else registry[short])
        else:
            out[k] = sorted(values)[0]
            warnings.warn(f"no default known for swept key {k!r}; using {out[k]!r} as the base", stacklevel=3)
    return out


def _sweep_base(sources: Sequence[_Source]) -> dict[str, Any] | None:
    """The base values ``unosim sweep`` stores in every file (``unosim.sweep_base``), when
    all sources carry the same; None otherwise."""
    found = {s.info.raw.get("sweep_base") for s in sources}
    if len(found) != 1 or None in found:
        return None
    try:
        base = json.loads(found.pop())
    except json.JSONDecodeError:
        return None
    return base if isinstance(base, dict) else None


def balance_report(
    dataset_dir: PathLike,
    base: Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> Report:
    """Effect of every swept rule value on game length, seat advantage and cards drawn.

    ``dataset_dir`` is a hive-partitioned sweep (``stacking=draw2/players=4/...``).
    ``players`` is a stratum, not an effect: each point is compared with the *base
    point* of the same player count, the partition where every other varied key has its
    base value. The base value of a key is, in order: ``base[key]`` (when ``base`` is None:
    the base values ``unosim sweep`` stores in every file, ``unosim.sweep_base``); the value
    in the configs stored in the files' ``unosim.config`` metadata when all files agree on
    it (they then carry the sweep's base config); the default in the config key registry
    (``unosim.rules.config.describe_keys``); else the first value in sorted order (with a
    warning). A point differing from its base point in several keys is reported under
    the joined change (``stacking=all,draw=until_playable``).

    Metrics: ``turns`` (mean, Welch, Cohen's d), ``seat_advantage`` (win share of the
    first seat after the dealer among decided hands, Newcombe, Cohen's h) and
    ``cards_drawn`` (mean, Welch, d). Rows are sorted by |effect|, largest first.
    """
    sources = _discover([dataset_dir])
    keys = list(dict.fromkeys(k for s in sources for k in s.partition))
    if not keys:
        raise ValueError(f"{dataset_dir} is not a partitioned sweep (no key=value directories)")
    effect_keys = [k for k in keys if k.rsplit(".", 1)[-1] != "players"]
    players_key = next((k for k in keys if k.rsplit(".", 1)[-1] == "players"), None)
    if base is None:
        base = _sweep_base(sources)
    base_vals = _base_values(sources, effect_keys, base)
    aggs = {s.label: a for s, a in zip(sources, _aggregate(sources, True, False))}

    def metrics(a: _Agg) -> dict[str, tuple[float, ...]]:
        decided = a.n - a.stalled
        t = _HistStats.of(a.hists.get("turns", np.zeros(1, np.int64)))
        c = _HistStats.of(a.hists.get("cards_drawn", np.zeros(1, np.int64)))
        first = a.rel_wins[1 % a.players]
        return {
            "turns": (t.mean, t.sd, t.n),
            "seat_advantage": (float(first), float(decided)),
            "cards_drawn": (c.mean, c.sd, c.n),
        }

    def players_of(s: _Source) -> int:
        if players_key and players_key in s.partition:
            return int(_norm(s.partition[players_key]))
        return s.info.players

    base_points: dict[int, _Source] = {}
    for s in sources:
        if all(_norm(s.partition.get(k, base_vals[k])) == base_vals[k] for k in effect_keys):
            base_points.setdefault(players_of(s), s)
    rows: list[dict[str, Any]] = []
    for s in sources:
        pl = players_of(s)
        b = base_points.get(pl)
        if b is None or b is s:
            continue
        changed = [f"{k}={s.partition[k]}" for k in effect_keys
                   if k in s.partition and _norm(s.partition[k]) != base_vals[k]]  # fmt: skip
        if not changed:
            continue
        mo, mb = metrics(aggs[s.label]), metrics(aggs[b.label])
        for name, _, kind in _BALANCE_METRICS:
            if kind == "h":
                (xo, no), (xb, nb) = mo[name], mb[name]
                po, pb = (xo / no if no else math.nan), (xb / nb if nb else math.nan)
                iv = stats.diff_proportions(xo, no, xb, nb, confidence)
                eff = stats.cohen_h(po, pb)
                val, bval = po, pb
            else:
                iv = stats.diff_means(*mo[name], *mb[name], confidence=confidence)
                eff = stats.cohen_d(*mo[name], *mb[name])
                val, bval = mo[name][0], mb[name][0]
            rows.append(
                {
                    "change": ",".join(changed), "players": pl, "label": s.label,
                    "base_label": b.label, "metric": name, "base": bval, "value": val,
                    "diff": float(iv.estimate), "low": float(iv.low), "high": float(iv.high),
                    "effect": float(eff), "effect_kind": kind,
                }
            )  # fmt: skip
    table = pd.DataFrame(
        rows,
        columns=["change", "players", "label", "base_label", "metric", "base", "value",
                 "diff", "low", "high", "effect", "effect_kind"],
    )  # fmt: skip
    if len(table):
        table = (
            table.assign(_abs=table["effect"].abs())
            .sort_values(["_abs", "change", "players"], ascending=[False, True, True], na_position="last")
            .drop(columns="_abs")
            .reset_index(drop=True)
        )
    srcs = _source_meta(sources)
    base_desc = ", ".join(f"{k}={v}" for k, v in base_vals.items())
    return Report("balance", table, srcs, f"balance against the base point ({base_desc})")


# ---------------------------------------------------------------------------- renderers

_SECTION_TITLES = {
    "hands": "Hands",
    "seat": "Win share by seat (decided hands)",
    "after_dealer": "Win share by position after the dealer",
    "team": "Win share by team",
    "bot": "Win share by bot",
    "length": "Game length",
    "counters": "Per hand (mean)",
    "match_positive": "Matches, S1 positive scoring",
    "match_positive_seat": "S1 match winner share by seat (ties shared)",
    "match_positive_team": "S1 match winner share by team",
    "match_positive_bot": "S1 match winner share by bot",
    "match_negative": "Matches, S2 negative scoring",
    "match_negative_seat": "S2 match winner share by seat (ties shared)",
    "match_negative_team": "S2 match winner share by team",
    "match_negative_bot": "S2 match winner share by bot",
}


def _row_name(section: str, figure: str, key: str, stat: str) -> str:
    """The row caption of a figure in rendered tables."""
    if figure in ("win_share", "win_per_seat"):
        if section.endswith("after_dealer"):
            k = int(key)
            who = "dealer" if k == 0 else f"dealer+{k}"
        elif section.endswith("seat"):
            who = f"seat {key}"
        elif section.endswith("team"):
            who = f"team {key}"
        else:
            who = key
        return who if figure == "win_share" else f"{who} (per seat held)"
    name = figure.replace("_", " ")
    if key:
        name += f" {key}"
    if stat not in ("count", "share", "mean") or figure in LENGTH_COLUMNS or figure in (
        "hands_per_match", "final_winner", "final_runner_up",
    ):  # fmt: skip
        name += f" {stat}"
    return name


def _fmt_num(v: float, digits: int = 2, sign: bool = False) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"


def _pct_digits(high: float) -> int:
    """Decimals for a percentage: 2, or 4 when the whole interval is below 0.1%.

    Stall shares of 1 in 100,000 must not print as 0.00% [0.00, 0.00].
    """
    return 4 if not math.isnan(high) and 0 < high < 0.001 else 2


def _fmt_cell(stat: str, value: float, low: float, high: float) -> str:
    if stat == "count":
        return "-" if math.isnan(value) else f"{int(value):,}"
    if stat == "share":
        if math.isnan(value):
            return "-"
        d = _pct_digits(high)
        return f"{100 * value:.{d}f}% [{100 * low:.{d}f}, {100 * high:.{d}f}]"
    if stat == "mean" and not math.isnan(low):
        return f"{_fmt_num(value)} [{_fmt_num(low)}, {_fmt_num(high)}]"
    if stat in ("median", "max") or stat.startswith("p"):
        return "-" if math.isnan(value) else f"{value:g}"
    return _fmt_num(value)


def _fmt_diff(stat: str, diff: float, low: float, high: float, effect: float, kind: str) -> str:
    if math.isnan(diff):
        return "-"
    if stat == "share":
        d = _pct_digits(max(abs(low), abs(high)))
        s = f"{100 * diff:+.{d}f}pp [{100 * low:+.{d}f}, {100 * high:+.{d}f}]"
    elif stat == "count":
        s = f"{int(diff):+,}"
    elif math.isnan(low):
        s = f"{diff:+g}"
    else:
        s = f"{diff:+.2f} [{low:+.2f}, {high:+.2f}]"
    if kind and not math.isnan(effect):
        s += f" {kind}={effect:+.3f}"
    return s


def _display(report: Report) -> tuple[list[str], list[list[str]], list[bool]]:
    """Header, rows of cell strings, and which rows are section headers."""
    t = report.table
    if report.kind == "balance":
        header = ["change", "players", *[f"{m} (diff, effect)" for m, _, _ in _BALANCE_METRICS]]
        rows: list[list[str]] = []
        if len(t):
            order = (
                t.assign(_a=t["effect"].abs())
                .groupby(["change", "players"], sort=False)["_a"].max()
                .sort_values(ascending=False, kind="stable")
            )
            for (change, pl), _ in order.items():
                sub = t[(t["change"] == change) & (t["players"] == pl)].set_index("metric")
                cells = [str(change), str(pl)]
                for m, _, _ in _BALANCE_METRICS:
                    if m not in sub.index:
                        cells.append("-")
                        continue
                    r = sub.loc[m]
                    stat = "share" if m == "seat_advantage" else "mean"
                    cells.append(
                        _fmt_diff(stat, r["diff"], r["low"], r["high"], r["effect"], r["effect_kind"])
                    )
                rows.append(cells)
        return header, rows, [False] * len(rows)
    keys = ["section", "figure", "key", "stat"]
    labels = list(dict.fromkeys(t["label"])) if len(t) else []
    order = t.drop_duplicates(keys)[keys]
    rank = {sec: i for i, sec in enumerate(_SECTION_TITLES)}
    order = order.iloc[np.argsort([rank.get(x, len(rank)) for x in order["section"]], kind="stable")]
    header: list[str]
    if report.kind == "compare":
        header = ["figure", f"{report.baseline} (baseline)", *labels]
    else:
        header = ["figure", *labels]
    idx = {lab: t[t["label"] == lab].set_index(keys) for lab in labels}
    rows, is_head = [], []
    current = None
    for section, figure, key, stat in order.itertuples(index=False):
        if section != current:
            current = section
            rows.append([_SECTION_TITLES.get(section, section)] + [""] * (len(header) - 1))
            is_head.append(True)
        cells = ["  " + _row_name(section, figure, key, stat)]
        if report.kind == "compare":
            base_cell = "-"
            for lab in labels:
                k = (section, figure, key, stat)
                if k in idx[lab].index:
                    r = idx[lab].loc[k]
                    if stat == "share":
                        base_cell = f"{100 * r['base']:.{_pct_digits(r['base'])}f}%"
                    else:
                        base_cell = _fmt_cell(stat, r["base"], math.nan, math.nan)
                    break
            cells.append(base_cell)
        for lab in labels:
            k = (section, figure, key, stat)
            if k not in idx[lab].index:
                cells.append("")
                continue
            r = idx[lab].loc[k]
            if report.kind == "compare":
                cells.append(_fmt_diff(stat, r["diff"], r["low"], r["high"], r["effect"], r["effect_kind"]))
            else:
                cells.append(_fmt_cell(stat, r["value"], r["low"], r["high"]))
        rows.append(cells)
        is_head.append(False)
    return header, rows, is_head


def _title(report: Report) -> str:
    if report.kind == "compare":
        return f"unosim comparison: other - baseline ({report.baseline}), 95% intervals, effect sizes h/d"
    if report.kind == "balance":
        return f"unosim balance: {report.title}"
    return f"unosim report ({report.title or 'summary'}), 95% intervals"


def to_text(report: Report, width: int | None = None) -> str:
    """A fixed-width table, split into column blocks so it fits ``width`` characters.

    ``width`` defaults to the terminal width (at least 80). Sections are header lines;
    each config is one column, so a single-config report is one screen tall.
    """
    if width is None:
        width = max(shutil.get_terminal_size((120, 40)).columns, 80)
    header, rows, is_head = _display(report)
    lines = [_title(report)]
    if not rows:
        return lines[0] + "\n(no rows)\n"
    ncol = len(header)
    fixed = 2 if report.kind == "balance" else 1  # leading columns repeated in every block
    body = [r for r, h in zip(rows, is_head) if not h]
    widths = [max([len(header[j])] + [len(r[j]) for r in body]) for j in range(ncol)]

    def line(cells: list[str], cols: list[int]) -> str:
        return "  ".join(
            cells[j].ljust(widths[j]) if j < fixed else cells[j].rjust(widths[j]) for j in cols
        ).rstrip()

    fixed_w = sum(widths[:fixed]) + 2 * fixed
    blocks: list[list[int]] = []
    cur: list[int] = []
    used = fixed_w
    for j in range(fixed, ncol):
        if cur and used + widths[j] + 2 > width:
            blocks.append(cur)
            cur, used = [], fixed_w
        cur.append(j)
        used += widths[j] + 2
    blocks.append(cur)
    for bi, block in enumerate(blocks):
        cols = list(range(fixed)) + block
        if bi:
            lines.append("")
        lines.append(line(header, cols))
        lines.append("  ".join("-" * widths[j] for j in cols))
        for r, h in zip(rows, is_head):
            if h:
                lines.append(r[0])
            else:
                lines.append(line(r, cols))
    return "\n".join(lines) + "\n"


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def to_markdown(report: Report) -> str:
    """A GitHub-flavoured markdown table (no ``tabulate`` dependency)."""
    header, rows, is_head = _display(report)
    out = [f"**{_md_escape(_title(report))}**", ""]
    out.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
    out.append("|" + "|".join(":---" if j == 0 else "---:" for j in range(len(header))) + "|")
    for r, h in zip(rows, is_head):
        if h:
            out.append("| **" + _md_escape(r[0]) + "** |" + " |" * (len(header) - 1))
        else:
            out.append("| " + " | ".join(_md_escape(c.strip()) for c in r) + " |")
    return "\n".join(out) + "\n"


def to_csv(report: Report) -> str:
    """The report's long table as CSV (full precision, one row per figure)."""
    return report.table.to_csv(index=False)


def _json_value(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) else float(v)
    return v


def to_json(report: Report) -> str:
    """JSON: kind, title, baseline, per-label metadata and the table as records.

    NaN becomes null so the output is strict JSON.
    """
    records = [{k: _json_value(v) for k, v in rec.items()} for rec in report.table.to_dict("records")]
    doc = {
        "kind": report.kind,
        "title": _title(report),
        "baseline": report.baseline,
        "sources": report.sources,
        "rows": records,
    }
    return json.dumps(doc, indent=1, allow_nan=False)


_RENDERERS = {"text": to_text, "markdown": to_markdown, "csv": to_csv, "json": to_json}


def render(report: Report, fmt: str = "text") -> str:
    """Render with one of ``text``, ``markdown``, ``csv``, ``json`` (for the CLI)."""
    try:
        return _RENDERERS[fmt](report)
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; choose from {sorted(_RENDERERS)}") from None
