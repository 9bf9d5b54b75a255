"""One streaming pass over the needed columns of each source into exact aggregates
(integer histograms stand in for the data)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from unosim.analysis.report.model import BASE_COUNTERS, HOUSE_COUNTERS, LENGTH_COLUMNS
from unosim.analysis.report.sources import Source
from unosim.run import outcomes

_Batch = dict[str, Any]  # column -> numpy array, or (codes, names) for bot_<s>


def _needed_counters(sources: Sequence[Source]) -> list[str]:
    """House-rule counters that are non-zero in at least one source, from the column
    statistics (a column without them is read)."""
    return [col for col in HOUSE_COUNTERS if any(_may_be_nonzero(src, col) for src in sources)]


def _may_be_nonzero(src: Source, col: str) -> bool:
    if col not in src.names:
        return False
    if src.frame is not None:
        return bool((np.asarray(src.frame[col]) != 0).any())
    return any(_column_may_be_nonzero(f, col) for f in src.files)


def _column_may_be_nonzero(path: Path, col: str) -> bool:
    md = pq.ParquetFile(path).metadata
    names = [md.schema.column(i).name for i in range(md.num_columns)]
    if col not in names:
        return False
    j = names.index(col)
    for rg in range(md.num_row_groups):
        st = md.row_group(rg).column(j).statistics
        if st is None or not st.has_min_max or st.min != 0 or st.max != 0:
            return True
    return False


def _iter_batches(src: Source, columns: Sequence[str], batch_rows: int = 1 << 18) -> Iterator[_Batch]:
    """Yield the source's data as dicts of numpy arrays, one record batch at a time;
    ``bot_<s>`` columns as ``(codes, names)``."""
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
    f = None
    try:
        for f in src.files:
            pf = pq.ParquetFile(f, read_dictionary=bot_cols or None, pre_buffer=False,
                                page_checksum_verification=True)  # each page against its own checksum
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
    except (OSError, ValueError) as e:
        src.confirm()  # a damaged part: its checksum says so in plain words
        if "CRC checksum verification failed" in str(e):  # a page's own checksum, whatever the journal says
            raise ValueError(f"{f}: a page fails its own checksum (damaged); not reported: the same command sets "
                             "it aside and plays its chunk again") from None
        raise
    src.confirm()  # the data was read while its checksums were computed: only now may it count


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
class HistStats:
    """Exact moments and quantiles of an integer histogram (index = value)."""

    n: int
    mean: float
    sd: float
    maximum: float

    @classmethod
    def of(cls, h: np.ndarray) -> HistStats:
        h = np.asarray(h, dtype=np.int64)
        v = np.arange(len(h), dtype=np.int64)
        n = int(h.sum())
        if n == 0:
            return cls(0, math.nan, math.nan, math.nan)
        s = int(h @ v)
        ss = int(h @ (v * v))
        sd = math.sqrt(max((n * ss - s * s) / (n * (n - 1)), 0.0)) if n > 1 else math.nan
        return cls(n, s / n, sd, float(np.flatnonzero(h)[-1]))


def hist_quantile(h: np.ndarray, q: float) -> float:
    """Quantile of the data an integer histogram describes: the median numpy's "linear", every
    other quantile its "inverted_cdf" (so tails read as whole numbers)."""
    cum = np.cumsum(np.asarray(h, dtype=np.int64))
    n = int(cum[-1]) if len(cum) else 0
    if n == 0:
        return math.nan
    if q == 0.5:
        lo = (n - 1) // 2
        x_lo = int(np.searchsorted(cum, lo, side="right"))
        x_hi = int(np.searchsorted(cum, lo + 1, side="right")) if n % 2 == 0 else x_lo
        return (x_lo + x_hi) / 2
    return float(np.searchsorted(cum, max(math.ceil(n * q - 1e-9), 1), side="left"))


class ClusterSums:
    """Per-cluster counts of a seat-rotated run, for cluster-robust share intervals.

    The rotations of one deal (match, tournament) are one observation, so every share keeps one
    array over the clusters, indexed by cluster number and grown as the pass meets higher ones;
    the means keep each cluster's sum.  Each batch adds with one ``bincount``."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.dtype = np.int8 if key == "hand" else np.int32
        self.arrays: dict[str, np.ndarray] = {}
        self.sums: dict[str, np.ndarray] = {}
        self.size = 0  # cluster numbers seen: 0 .. size-1
        self._lo = 0
        self._local = np.zeros(0, np.int64)
        self._span = 0

    def start(self, keys: np.ndarray) -> None:
        """The cluster numbers of the next batch's rows (before :meth:`add`)."""
        keys = np.asarray(keys).astype(np.int64, copy=False)
        if not len(keys):
            self._local, self._span = keys, 0
            return
        lo, hi = int(keys.min()), int(keys.max())
        if lo < 0:
            raise ValueError(f"column {self.key!r} has negative values; cannot summarise")
        self._lo, self._local, self._span = lo, keys - lo, hi - lo + 1
        rows = self.arrays.get("rows")
        if self.dtype == np.int8 and rows is not None:
            have = rows[lo : min(hi + 1, len(rows))].astype(np.int64)
            new = np.bincount(self._local, minlength=self._span)[: len(have)]
            if len(have) and int((have + new).max()) > np.iinfo(np.int8).max:
                self.dtype = np.int32
                self.arrays = {k: a.astype(np.int32) for k, a in self.arrays.items()}
        if hi + 1 > self.size:
            self.size = hi + 1
            for group in (self.arrays, self.sums):
                for name, a in group.items():
                    if len(a) < self.size:
                        group[name] = self._grown(a)

    def _grown(self, a: np.ndarray) -> np.ndarray:
        b = np.zeros(max(self.size, 2 * len(a)), a.dtype)  # doubling: no quadratic copying
        b[: len(a)] = a
        return b

    def add(self, name: str, mask: np.ndarray | None = None) -> None:
        """Count the batch's rows (those where ``mask`` is true) into array ``name``."""
        a = self.arrays.get(name)
        if a is None:
            a = self.arrays[name] = np.zeros(self.size, self.dtype)
        if self._span:
            local = self._local if mask is None else self._local[mask]
            a[self._lo : self._lo + self._span] += np.bincount(local, minlength=self._span).astype(self.dtype)

    def add_sum(self, name: str, values: np.ndarray) -> None:
        """Add the batch's ``values`` (one per row) into each cluster's sum ``name``."""
        a = self.sums.get(name)
        if a is None:
            a = self.sums[name] = np.zeros(self.size, np.int32)
        if not self._span:
            return
        seg = slice(self._lo, self._lo + self._span)
        new = a[seg] + np.bincount(self._local, weights=values, minlength=self._span).astype(np.int64)
        if a.dtype != np.int64 and len(new) and int(new.max()) > np.iinfo(a.dtype).max:
            a = self.sums[name] = a.astype(np.int64)
        a[seg] = new

    def sum_totals(self, name: str) -> np.ndarray:
        """Each cluster's sum ``name`` over the clusters that hold rows (float)."""
        seen = self.arrays["rows"][: self.size] > 0
        return self.sums[name][: self.size][seen].astype(np.float64)

    def totals(self, name: str) -> np.ndarray:
        """Array ``name`` over the clusters that hold rows (float, for the interval);
        ``decided`` is ``rows - stalled``."""
        if name == "decided":
            return self.totals("rows") - self.totals("stalled")
        seen = self.arrays["rows"][: self.size] > 0
        a = self.arrays.get(name)
        if a is None:
            return np.zeros(int(seen.sum()))
        return a[: self.size][seen].astype(np.float64)


class Aggregate:
    """Streaming aggregate of one source: hand figures and match end rows."""

    def __init__(self, src: Source, counters: Sequence[str], hands: bool, matches: bool) -> None:
        self.src = src
        self.tournaments = "tournament" in src.names  # T1: tables of four seats, two pairs
        self.t_players = max(src.info.players, 1)
        self.players = p = 4 if self.tournaments else max(src.info.players, 1)
        self.teams = 2 if self.tournaments else src.info.teams
        self.hands = hands
        self.matches = matches and "match" in src.names
        self.champ_cols = [f"champion_{pre}_{q}" for pre in ("pos", "neg") for q in range(self.t_players)
                           if f"champion_{pre}_{q}" in src.names] if self.tournaments and matches else []
        self.champ_parts: list[np.ndarray] = []
        # a seat-rotated tournament run: each title's tournament (its cluster) and rotation
        self.champ_keys = ["tournament", "rotation"] if self.champ_cols and "rotation" in src.names else []
        self.champ_key_parts: list[np.ndarray] = []
        self.bot_cols = [f"bot_{s}" for s in range(p) if f"bot_{s}" in src.names]
        self.counters = [c for c in (*BASE_COUNTERS, *counters) if c in src.names]
        self.n = 0
        self.stalled = 0
        self.seat_wins = np.zeros(p, np.int64)
        self.rel_wins = np.zeros(p, np.int64)
        self.team_wins = np.zeros(max(self.teams, 1), np.int64)
        self.bot_wins: dict[str, int] = {}
        self.bot_seat_hands: dict[str, int] = {}
        # a seat-rotated run: the hands of a deal (match, tournament) are one cluster
        key = next((k for k in ("match", "tournament", "hand") if k in src.names), None)
        self.clusters = ClusterSums(key) if hands and key and "rotation" in src.names else None
        self.hists: dict[str, np.ndarray] = {}
        self.end_parts: list[dict[str, np.ndarray]] = []
        self.min_hand_in_match: int | None = None
        end_cols = ["match", "rotation", "hand_in_match", "pos_end", "neg_end", "chips_end"]
        end_cols += [f"{pre}_total_{s}" for pre in ("pos", "neg", "chips") for s in range(p)]
        self.end_cols = [c for c in (*end_cols, *self.bot_cols) if c in src.names] if self.matches else []

    def columns(self) -> list[str]:
        """Every column this aggregate reads (and no other: the projection)."""
        cols: list[str] = []
        if self.hands:
            cols += ["dealer", "winner", "stalled", *LENGTH_COLUMNS, *self.counters]
            if self.teams > 1:
                cols.append("winning_team")
            if self.clusters is not None:
                cols.append(self.clusters.key)
        cols += self.end_cols
        cols += self.bot_cols
        if self.champ_cols:
            cols += ["t_end", *self.champ_cols, *self.champ_keys]
        return list(dict.fromkeys(c for c in cols if c in self.src.names))

    def add(self, b: _Batch) -> None:
        if self.hands:
            self._add_hands(b)
        if self.matches:
            self._add_matches(b)
        if self.champ_cols:
            last = np.asarray(b["t_end"], dtype=bool)
            self.champ_parts.append(np.stack([np.asarray(b[c])[last] for c in self.champ_cols], axis=1))
            if self.champ_keys:
                self.champ_key_parts.append(np.stack([np.asarray(b[c])[last] for c in self.champ_keys], axis=1))

    def _add_hands(self, b: _Batch) -> None:
        p = self.players
        stalled = np.asarray(b["stalled"], dtype=bool)
        decided = ~stalled
        self.n += len(stalled)
        self.stalled += int(stalled.sum())
        w = np.asarray(b["winner"])[decided].astype(np.int64)
        self.seat_wins += np.bincount(w, minlength=p)[:p]
        self.rel_wins += outcomes.wins_from_dealer(w, np.asarray(b["dealer"])[decided], p)
        if self.teams > 1 and "winning_team" in b:
            t = np.asarray(b["winning_team"])[decided].astype(np.int64)
            self.team_wins += np.bincount(t, minlength=self.teams)[: self.teams]
        for c in (*LENGTH_COLUMNS, *self.counters):
            if c in b:
                _add_hist(self.hists, c, np.asarray(b[c]))
        cl = self.clusters
        if cl is not None:
            cl.start(b[cl.key])
            cl.add("rows")
            for c in (*LENGTH_COLUMNS, *self.counters):
                if c in b:
                    cl.add_sum(c, np.asarray(b[c]))
            cl.add("stalled", stalled)
            wd = np.asarray(b["winner"]).astype(np.int64)
            rel = outcomes.from_dealer(wd, np.asarray(b["dealer"]), p)
            for s in range(p):
                cl.add(f"seat:{s}", decided & (wd == s))
                cl.add(f"after_dealer:{s}", decided & (rel == s))
            if self.teams > 1 and "winning_team" in b:
                t = np.asarray(b["winning_team"]).astype(np.int64)
                for k in range(self.teams):
                    cl.add(f"team:{k}", decided & (t == k))
        for c in self.bot_cols:
            seat = int(c.split("_", 1)[1])
            codes, names = b[c]
            codes = np.asarray(codes)[decided]
            held = np.bincount(codes, minlength=len(names))
            won = np.bincount(codes[w == seat], minlength=len(names))
            for i, name in enumerate(names):
                self.bot_seat_hands[name] = self.bot_seat_hands.get(name, 0) + int(held[i])
                self.bot_wins[name] = self.bot_wins.get(name, 0) + int(won[i])
            if cl is not None:
                all_codes = np.asarray(b[c][0])
                for i, name in enumerate(names):
                    if held[i]:
                        mine = decided & (all_codes == i)
                        cl.add(f"held:{name}", mine)
                        cl.add(f"won:{name}", mine & (wd == seat))

    def _add_matches(self, b: _Batch) -> None:
        him = np.asarray(b["hand_in_match"])
        if len(him):
            m = int(him.min())
            self.min_hand_in_match = m if self.min_hand_in_match is None else min(m, self.min_hand_in_match)
        mask = np.zeros(len(him), dtype=bool)
        for c in ("pos_end", "neg_end", "chips_end"):
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

    def champions(self) -> dict[str, np.ndarray]:
        """Tournaments: per system (``pos``, ``neg``) a (tournaments, players) bool array of
        the champions, from each tournament's last row."""
        if not self.champ_parts:
            return {}
        allc = np.concatenate(self.champ_parts).astype(bool)
        n = self.t_players
        return {"pos": allc[:, :n], "neg": allc[:, n:2 * n]}

    def champion_keys(self) -> np.ndarray | None:
        """Seat-rotated tournaments: (tournament, rotation) of each row of
        :meth:`champions`; None for other runs."""
        if not self.champ_key_parts:
            return None
        return np.concatenate(self.champ_key_parts).astype(np.int64)

    def end_rows(self) -> dict[str, np.ndarray]:
        """The rows where a scoring system's match ended, as one array per column."""
        if not self.end_parts:
            return {}
        keys = self.end_parts[0].keys()
        return {k: np.concatenate([p[k] for p in self.end_parts]) for k in keys}


def aggregate(sources: Sequence[Source], hands: bool, matches: bool) -> list[Aggregate]:
    counters = _needed_counters(sources) if hands else []
    aggs = []
    for src in sources:
        agg = Aggregate(src, counters, hands, matches)
        cols = agg.columns()
        for batch in _iter_batches(src, cols):
            agg.add(batch)
        aggs.append(agg)
    return aggs
