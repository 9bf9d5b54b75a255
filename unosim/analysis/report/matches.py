"""Match figures under S1, S2 and S4 scoring from the rows where a system's match ended,
and how often two systems crown the same winner."""

from __future__ import annotations

import math

import numpy as np

from unosim.analysis.report.hands import Rows
from unosim.analysis.report.stream import Aggregate, HistStats, hist_quantile
from unosim.run import outcomes
from unosim.run.seating import instance_at


_SYSTEMS = (("positive", "pos"), ("negative", "neg"), ("chips", "chips"))
_NAMES = {"positive": "S1", "negative": "S2", "chips": "S4"}


def match_rows(agg: Aggregate, out: Rows, dists: dict[str, np.ndarray]) -> None:
    rows = agg.end_rows()
    info, p = agg.src.info, agg.players
    base = agg.min_hand_in_match or 0
    crowned: dict[str, dict[int, int]] = {}  # system -> match -> its winners as a bit mask of seats
    for system, pre in _SYSTEMS:
        if system == "negative" and info.finish == "last_standing":
            continue
        sec = f"match_{system}"
        if f"{pre}_end" not in rows and system != "positive":
            continue  # no S2 (or S4) columns in this file
        sel = rows[f"{pre}_end"].astype(bool) if rows else np.zeros(0, bool)
        m = int(sel.sum())
        out.count(sec, "matches", "", m)
        if m == 0:
            continue
        totals = np.stack([rows[f"{pre}_total_{s}"][sel].astype(np.float64) for s in range(p)], axis=1)
        win = outcomes.winners(totals, outcomes.BEST[pre])  # S2: lowest wins
        credit = outcomes.credit(win)
        masks = outcomes.winner_masks(win)
        match_ids = rows["match"][sel].astype(np.int64)
        rotated = "rotation" in rows  # the rotations of a match share its deals: one cluster
        plays = zip(match_ids.tolist(), rows["rotation"][sel].tolist()) if rotated else match_ids.tolist()
        crowned[system] = dict(zip(plays, masks.tolist()))
        fig = _Figures(out, np.unique(match_ids, return_inverse=True)[1] if rotated else None)
        ones = np.ones(m)
        for s in range(p):
            fig.share(f"{sec}_seat", "win_share", s, credit[:, s], ones)
        if agg.teams > 1:
            for t in range(agg.teams):
                fig.share(f"{sec}_team", "win_share", t, credit[:, t :: agg.teams].sum(axis=1), ones)
        bot_cols = [f"bot_{s}" for s in range(p)]
        if all(c in rows for c in bot_cols):
            seat_bots = np.stack([rows[c][sel] for c in bot_cols], axis=1).astype(str)
        elif len(set(info.seat_labels)) > 1:
            seat_bots = np.broadcast_to(np.asarray(info.seat_labels[:p], dtype=str), (m, p))
        else:
            seat_bots = None
        if seat_bots is not None:
            for b in sorted(set(np.unique(seat_bots).tolist())):
                mine = (credit * (seat_bots == b)).sum(axis=1)
                held = (seat_bots == b).sum(axis=1).astype(np.float64)  # seats the bot held per match
                fig.share(f"{sec}_bot", "win_share", b, mine, ones)
                fig.share(f"{sec}_bot", "win_per_seat", b, mine, held)
        hands = rows["hand_in_match"][sel].astype(np.int64) - base + 1
        h = np.bincount(hands)
        dists[f"hands_per_match_{system}"] = h
        st = HistStats.of(h)
        fig.mean(sec, "hands_per_match", st.mean, st.sd, hands)
        out.plain(sec, "hands_per_match", "", "median", hist_quantile(h, 0.5))
        out.plain(sec, "hands_per_match", "", "p90", hist_quantile(h, 0.9))
        sides = totals[:, : agg.teams] if agg.teams > 1 else totals
        ordered = outcomes.standings(sides, outcomes.BEST[pre])
        _values_rows(fig, sec, "final_winner", ordered[:, 0])
        if sides.shape[1] > 1:
            _values_rows(fig, sec, "final_runner_up", ordered[:, 1])
            _values_rows(fig, sec, "final_margin", np.abs(ordered[:, 0] - ordered[:, 1]), quantiles=False)

    agreement_rows(crowned, out)


class _Figures:
    """A system's match figures from one value per ended match: plain sums, or per-match sums
    given ``cluster`` (each row's match) for the cluster-robust intervals."""

    def __init__(self, out: Rows, cluster: np.ndarray | None) -> None:
        self.out, self.cluster = out, cluster

    def share(self, sec: str, fig: str, key: object, x: np.ndarray, n: np.ndarray) -> None:
        if self.cluster is None:
            self.out.share(sec, fig, key, float(x.sum()), float(n.sum()))
        else:
            self.out.clustered_share(sec, fig, key, np.bincount(self.cluster, weights=x),
                                     np.bincount(self.cluster, weights=n))

    def mean(self, sec: str, fig: str, mean: float, sd: float, vals: np.ndarray) -> None:
        sums = None
        if self.cluster is not None:
            sums = (np.bincount(self.cluster, weights=vals), np.bincount(self.cluster).astype(np.float64))
        self.out.mean(sec, fig, "", mean, sd, len(vals), sums)


def agreement_rows(crowned: dict[str, dict], out: Rows) -> None:
    """Section ``match_agreement``: for each pair of systems, the share of the matches both
    ended in which they crown the same winner (the same set of seats), with its interval."""
    names = [s for s, _ in _SYSTEMS if s in crowned]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = sorted(crowned[a].keys() & crowned[b].keys())
            same = np.array([crowned[a][k] == crowned[b][k] for k in both], dtype=np.float64)
            if both and isinstance(both[0], tuple):
                cluster = np.unique([k[0] for k in both], return_inverse=True)[1]
                out.clustered_share("match_agreement", "same_winner", f"{_NAMES[a]}/{_NAMES[b]}",
                                    np.bincount(cluster, weights=same), np.bincount(cluster).astype(np.float64))
            else:
                out.share("match_agreement", "same_winner", f"{_NAMES[a]}/{_NAMES[b]}", same.sum(), len(both))


def _values_rows(fig: _Figures, sec: str, name: str, vals: np.ndarray, quantiles: bool = True) -> None:
    n = len(vals)
    mean = float(vals.mean()) if n else math.nan
    sd = float(vals.std(ddof=1)) if n > 1 else math.nan
    fig.mean(sec, name, mean, sd, vals)
    if quantiles:
        fig.out.plain(sec, name, "", "median", float(np.quantile(vals, 0.5)) if n else math.nan)
        fig.out.plain(sec, name, "", "p90", float(np.quantile(vals, 0.9)) if n else math.nan)


def tournament_rows(agg: Aggregate, out: Rows) -> None:
    """T1: tournaments played, and per system each player's and each bot's champion share
    (ties shared 1/k), with intervals."""
    champs = agg.champions()
    if not champs:
        return
    info = agg.src.info
    n = agg.t_players
    labels = list(info.bot_labels) if len(info.bot_labels) == n else list(info.seat_labels[:n])
    keys = agg.champion_keys()
    if keys is not None and len(labels) == n:
        _rotated_tournament_rows(champs, keys, labels, out)
        return
    for pre, win in champs.items():
        t = len(win)
        credit = outcomes.credit(win).sum(axis=0)
        if pre == "pos":
            out.count("tournament", "tournaments", "", t)
        for q in range(n):
            out.share(f"tournament_{pre}_player", "win_share", q, credit[q], t)
        if len(labels) == n:
            for b in sorted(set(labels)):
                mine = [q for q in range(n) if labels[q] == b]
                x = credit[mine].sum()
                out.share(f"tournament_{pre}_bot", "win_share", b, x, t)
                out.share(f"tournament_{pre}_bot", "win_per_seat", b, x, t * len(mine))


def _rotated_tournament_rows(champs: dict[str, np.ndarray], keys: np.ndarray, labels: list[str],
                             out: Rows) -> None:
    """T1 with the bots rotated over the player numbers: per-player shares measure the
    schedule's seats and per-bot shares the bots, a tournament's rotations one cluster."""
    n = len(labels)
    tournament, rotation = keys[:, 0], keys[:, 1]
    cluster = np.unique(tournament, return_inverse=True)[1]
    plays = np.bincount(cluster).astype(np.float64)
    inst = instance_at(np.arange(n)[None, :], rotation[:, None], n)  # config player at each player number
    names = np.asarray(labels, dtype=object)[inst]
    for pre, win in champs.items():
        t = len(win)
        credit = outcomes.credit(win)
        if pre == "pos":
            out.count("tournament", "tournaments", "", len(plays))
            out.count("tournament", "plays", "", t)
        for q in range(n):
            out.clustered_share(f"tournament_{pre}_player", "win_share", q, np.bincount(cluster, weights=credit[:, q]),
                                plays)
        for b in sorted(set(labels)):
            mine = (credit * (names == b)).sum(axis=1)
            x = np.bincount(cluster, weights=mine)
            out.clustered_share(f"tournament_{pre}_bot", "win_share", b, x, plays)
            out.clustered_share(f"tournament_{pre}_bot", "win_per_seat", b, x, plays * labels.count(b))
