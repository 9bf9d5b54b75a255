"""The run modes: what a unit of a run is, and everything that follows from it.

Each kind of unit (hands, matches, tournaments, each also rotated) is one :class:`Mode`
of :data:`MODES`: its columns, kernel call, summary counts, manifest keys and run lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim.kernel.layout import HAND_STRIDE
from unosim.rules.config import RulesConfig
from unosim.run.bounds import (DEFAULT_CHUNK, DEFAULT_MATCH_CHUNK, DEFAULT_MAX_HANDS, DEFAULT_TOURNAMENT_CHUNK,
    RunError)
from unosim.run.seating import bot_label
from unosim.run.store import column_names
from unosim.run.tournaments import PLAYERS, tournament_columns, tournament_rows

if TYPE_CHECKING:  # play.py loads the engine: a mode describes results without it
    from unosim.run.play import Player

__all__ = ["MODES", "Mode", "mode_named", "mode_of_file", "seat_shares"]


@dataclass(frozen=True)
class Mode:
    """A run of independent hands; the other modes override what differs.

    ``file_mode``: the manifest's and parts' ``mode``, and the kernel it runs; ``job_name``: the
    mode the identity digest names; ``rotate_flag``: the digest's ``rotate`` flag (rotated
    matches and tournaments); ``count_key``/``option``: the count's manifest key and option;
    ``unit``/``units``: one unit, and the units counted, in text; ``rotated``: every unit once
    per rotation of the bots (over ``rotated_over``); ``matches``: ``max_hands`` applies;
    ``sliced``: a chunk may be played in slices; ``by_seat``: a row's seats are the config's.
    Methods take the job and the summary untyped (both modules import this one)."""

    name: str = "hands"
    file_mode: str = "hands"
    job_name: str = "hands"
    rotate_flag: bool = False
    count_key: str = "games"
    option: str = "--hands"
    unit: str = "hand"
    units: str = "hands"
    default_chunk: int = DEFAULT_CHUNK
    out_suffix: str = ""
    rotated: bool = False
    matches: bool = False
    sliced: bool = True
    by_seat: bool = True
    rotated_name: str = "rotated"
    rotated_over: str = "the seats"
    description: str = "independent hands, one row per hand (O1)"

    # ------------------------------------------------------------------- parameters

    @property
    def pairs_by_hand(self) -> bool:
        """Two runs of this mode compare hand by hand (unosim.analysis.report.paired): one
        row per independent hand, dealt from its own stream (seed, hand)."""
        return self.sliced and not self.rotated

    def with_rotation(self) -> Mode:
        """The mode that plays this mode's units once per rotation of the bots."""
        return MODES[self.rotated_name]

    def rotations(self, cfg: RulesConfig) -> int:
        """How many times each unit is played: once per rotation, or once."""
        return cfg.players if self.rotated else 1

    def default_chunk_size(self, cfg: RulesConfig) -> int:
        """Units per part: a rotated match or tournament run holds 1/players as many, so a
        part keeps about the rows of an unrotated one."""
        return max(1, self.default_chunk // (cfg.players if self.rotate_flag else 1))

    def rows_per_unit(self, cfg: RulesConfig) -> int | None:
        """Rows of one unit (None: it varies, as a match's)."""
        return cfg.players if self.rotated else 1

    def max_hands(self, max_hands: int | None) -> int | None:
        """``max_hands`` as the job keeps it: matches only."""
        if max_hands is not None:
            raise RunError(f"--max-hands: only for matches (this run plays {self.job_name})")
        return None

    def check(self, cfg: RulesConfig) -> None:
        """Refuse a config this mode cannot play (one line naming the option)."""

    def table_seats(self, players: int) -> int:
        """Seats of the table a row was played at."""
        return players

    def run_options(self, job: Any) -> str:
        """The ``unosim run`` options that play ``job``'s units (what ``unosim repair``
        tells to finish a result with)."""
        return f"{self.option} {job.count}" + (" --rotate-seats" if self.rotated else "")

    # ------------------------------------------------------------------- output

    def columns(self, players: int) -> list[tuple[str, int]]:
        """(name, column of the kernel's rows) in file order."""
        return column_names(players)

    def identity(self) -> dict[str, Any]:
        """The mode's part of the run's identity digest."""
        return {"mode": self.job_name, **({"rotate": True} if self.rotate_flag else {})}

    def manifest(self, job: Any) -> dict[str, Any]:
        """The result's ``_unosim.json``: the same keys and values, in the same order, as
        every earlier version wrote, so results written before resume."""
        m: dict[str, Any] = {"config": job.cfg.to_toml(), "seed": job.seed, self.count_key: job.count,
                             "chunk_size": job.chunk_size}
        if self.matches:
            m["max_hands"] = job.max_hands
        m["mode"] = self.file_mode
        if self.rotated:
            m["rotate_seats"] = True
        return m

    def metadata(self, job: Any) -> dict[str, Any]:
        """The mode's own ``unosim.*`` keys of every part file (besides the player's)."""
        return {}

    # ------------------------------------------------------------------- playing and counting

    def player(self, job: Any, workers: int) -> Player:
        """What plays the job's chunks on this process (play.py)."""
        from unosim.run.play import Player

        return Player(job, workers)

    def count(self, s: Any, rows: np.ndarray, rotation: np.ndarray | None) -> None:
        """What the rows add to the summary besides hands, turns and wins by position."""
        s.units += len(rows)

    def bot_credit(self, s: Any, system: str) -> tuple[np.ndarray, int]:
        """Rotated runs: each config seat's credit under ``system`` and the plays it is out of."""
        return s.match_bot_credit(system)

    # ------------------------------------------------------------------- what `unosim run` prints

    def what(self, job: Any, s: Any) -> str:
        """What was played, in the first line ``unosim run`` prints."""
        return f"{s.hands:,} hands of {job.cfg.players} players"

    def notes(self, job: Any) -> list[str]:
        """Lines on how the units were played."""
        if not self.rotated:
            return []
        return [f"  each of the {job.count:,} {self.units} played {job.cfg.players} times, the bots rotated over "
                f"{self.rotated_over} on the same deals; shares with intervals: unosim report {job.out}"]

    def figures(self, job: Any, s: Any, start: str) -> list[str]:
        """The rate and the mode's figures (``start``: the engine's loading time, as text)."""
        n = job.cfg.players
        labels = ["dealer"] + [f"dealer+{i}" for i in range(1, n)]
        rate = [f"  {s.hands_per_s:,.0f} hands/s ({s.seconds:.1f} s{start}); mean {s.mean_turns:.2f} turns per "
                f"hand; {s.stalled:,} stalled"]
        if s.stalled >= s.hands:  # no winner to share out: 0.00% would read as a measured share
            return rate + [f"  no hand was decided (every one stalled at max_turns = {job.cfg.max_turns:,}): "
                           "no win shares"]
        return rate + ["  winner's seat relative to the dealer:",
                       "    " + "  ".join(f"{lab} {v:6.2%}" for lab, v in zip(labels, s.shares()))]


@dataclass(frozen=True)
class RotatedMode(Mode):
    """Every deal once per rotation of the bots over the seats."""

    def player(self, job: Any, workers: int) -> Player:
        from unosim.run.play import RotatedPlayer

        return RotatedPlayer(job, workers)

    def count(self, s: Any, rows: np.ndarray, rotation: np.ndarray | None) -> None:
        assert rotation is not None, "rotated rows come with their rotation"
        s.add_bots(rows, rotation)
        s.units += len(rows) // s.players

    def notes(self, job: Any) -> list[str]:
        return [f"  {job.count:,} deals x {job.cfg.players} seat rotations; win share by bot: "
                f"unosim report {job.out}"]


@dataclass(frozen=True)
class MatchesMode(Mode):
    """Matches to ``match_target``, scored under S1, S2 and S4."""

    def rows_per_unit(self, cfg: RulesConfig) -> int | None:
        return None

    def max_hands(self, max_hands: int | None) -> int | None:
        return DEFAULT_MAX_HANDS if max_hands is None else max_hands

    def columns(self, players: int) -> list[tuple[str, int]]:
        from unosim.run.play import match_columns

        return match_columns(players)

    def metadata(self, job: Any) -> dict[str, Any]:
        return {"unosim.max_hands": job.max_hands, "unosim.hand_stride": HAND_STRIDE}

    def player(self, job: Any, workers: int) -> Player:
        from unosim.run.play import MatchPlayer, RotatedMatchPlayer

        return RotatedMatchPlayer(job, workers) if self.rotated else MatchPlayer(job, workers)

    def count(self, s: Any, rows: np.ndarray, rotation: np.ndarray | None) -> None:
        s.add_matches(rows, rotation)
        if rotation is not None:
            s.add_bots(rows, rotation)

    def what(self, job: Any, s: Any) -> str:
        return f"{s.matches:,} matches to {job.cfg.match_target} of {job.cfg.players} players ({s.hands:,} hands)"

    def figures(self, job: Any, s: Any, start: str) -> list[str]:
        cfg = job.cfg
        lines = [f"  {s.matches_per_s:,.0f} matches/s ({s.seconds:.1f} s{start}); {s.stalled:,} stalled hands; "
                 f"{s.capped:,} matches capped at {job.max_hands:,} hands"]
        labels = ["first dealer"] + [f"+{i}" for i in range(1, cfg.players)]
        systems = [("pos", "S1 positive")] + ([] if cfg.finish == "last_standing" else [("neg", "S2 negative")])
        systems.append(("chips", f"S4 chips after {cfg.chips_hands} hands"))
        for key, name in systems:
            if not np.isfinite(s.mean_hands(key)):  # every match capped before the system ended it
                lines.append(f"  {name}: no match ended within {job.max_hands:,} hands: no match win shares")
                continue
            lines.append(f"  {name}: mean {s.mean_hands(key):.2f} hands per match; match win share by seat "
                         "after the first dealer (ties shared):")
            lines.append("    " + "  ".join(f"{lab} {v:6.2%}" for lab, v in zip(labels, s.shares(key))))
            if self.rotated:
                lines.append("    by bot:  " + by_bot(job, s.bot_shares(key)))
        return lines


@dataclass(frozen=True)
class TournamentsMode(Mode):
    """Partner-rotation tournaments (T1): tables of four, two pairs."""

    def rows_per_unit(self, cfg: RulesConfig) -> int | None:
        return tournament_rows(cfg) * self.rotations(cfg)

    def check(self, cfg: RulesConfig) -> None:
        if cfg.players not in PLAYERS:
            raise RunError(f"--tournaments: a partner-rotation tournament (T1) is for 4 or 8 players; "
                           f"this config has table.players = {cfg.players}")

    def table_seats(self, players: int) -> int:
        return 4  # T1 tables seat four

    def columns(self, players: int) -> list[tuple[str, int]]:
        return tournament_columns(players)

    def metadata(self, job: Any) -> dict[str, Any]:
        return {"unosim.hand_stride": HAND_STRIDE}

    def player(self, job: Any, workers: int) -> Player:
        from unosim.run.play import RotatedTournamentPlayer, TournamentPlayer

        return RotatedTournamentPlayer(job, workers) if self.rotated else TournamentPlayer(job, workers)

    def count(self, s: Any, rows: np.ndarray, rotation: np.ndarray | None) -> None:
        s.add_champions(rows, rotation)

    def bot_credit(self, s: Any, system: str) -> tuple[np.ndarray, int]:
        return s.champion_bot_credit(system)

    def what(self, job: Any, s: Any) -> str:
        return f"{s.units:,} partner-rotation tournaments of {job.cfg.players} players ({s.hands:,} hands)"

    def figures(self, job: Any, s: Any, start: str) -> list[str]:
        lines = [f"  {s.units / s.seconds if s.seconds > 0 else float('nan'):,.0f} tournaments/s "
                 f"({s.seconds:.1f} s{start}); {s.stalled:,} stalled hands"]
        for key, name in (("pos", "S1 (highest total)"), ("neg", "S2 (lowest total)")):
            lines.append(f"  {name} champion share by player (ties shared):")
            lines.append("    " + "  ".join(f"{p} {v:6.2%}" for p, v in enumerate(s.champion_shares(key))))
            if self.rotated:
                lines.append("    by bot (the config's player number):  " + by_bot(job, s.bot_shares(key)))
        if job.cfg.players == 4:
            lines.append("  S1 and S2 agree: at 4 players everyone plays every hand, and each player's "
                         "S1 plus S2 total is the same sum")
        return lines


def by_bot(job: Any, shares: Any) -> str:
    """``0 greedy 48.10%  1 counter 51.90%``: each config seat's bot and its share (a long
    label cut to ``weights(...)``)."""
    labels = [bot_label(name, params) for name, params in job.cfg.seats]
    labels = [lab if len(lab) <= 40 else f"{lab.split('(')[0]}(...)" for lab in labels]
    return "  ".join(f"{i} {lab} {v:6.2%}" for i, (lab, v) in enumerate(zip(labels, shares)))


_MATCH = dict(file_mode="matches", job_name="matches", count_key="matches", option="--matches", unit="match",
              units="matches", default_chunk=DEFAULT_MATCH_CHUNK, out_suffix=".matches", matches=True, sliced=False,
              rotated_name="rotated_matches")
_TOURNAMENT = dict(file_mode="tournaments", job_name="tournaments", count_key="tournaments", option="--tournaments",
                   unit="tournament", units="tournaments", default_chunk=DEFAULT_TOURNAMENT_CHUNK,
                   out_suffix=".tournaments", sliced=False, by_seat=False, rotated_name="rotated_tournaments",
                   rotated_over="the player numbers")

MODES: dict[str, Mode] = {m.name: m for m in (
    Mode(),
    RotatedMode("rotated", job_name="rotated", units="deals", rotated=True, sliced=False,
                description="every deal once per rotation of the bots over the seats (rotation, bot_<s>)"),
    MatchesMode("matches", **_MATCH,
                description="matches scored under S1, S2 and S4, one row per hand"),
    MatchesMode("rotated_matches", **_MATCH, rotate_flag=True, rotated=True,
                description="every match once per rotation of the bots over the seats, on the same deals"),
    TournamentsMode("tournaments", **_TOURNAMENT,
                    description="partner-rotation tournaments (T1, 4 or 8 players), one row per hand"),
    TournamentsMode("rotated_tournaments", **_TOURNAMENT, rotate_flag=True, rotated=True,
                    description="every tournament once per rotation of the bots over the player numbers"),
)}
"""Every run mode by name."""


def mode_named(mode: str | Mode, rotate: bool = False) -> Mode:
    """The mode ``mode`` (a name of :data:`MODES`, or a mode); ``rotate``: its units once
    per rotation of the bots (matches and tournaments; rotated hands are mode ``rotated``)."""
    if not isinstance(mode, Mode):
        if mode not in MODES:
            raise RunError(f"mode: {mode!r} is not one of {', '.join(MODES)}")
        mode = MODES[mode]
    if rotate and not mode.with_rotation().rotate_flag:
        raise RunError(f"--rotate-seats: a {mode.job_name} job rotates with mode 'rotated' (hands), not this flag")
    return mode.with_rotation() if rotate else mode


def mode_of_file(file_mode: str, rotated: bool) -> Mode:
    """The mode of a result whose parts say ``unosim.mode`` = ``file_mode`` and whether its
    seats were rotated (``unosim.rotate_seats``); KeyError for a mode no run writes."""
    for m in MODES.values():
        if m.file_mode == file_mode and not m.rotated:
            return m.with_rotation() if rotated else m
    raise KeyError(file_mode)


def seat_shares(file_mode: str) -> bool:
    """Whether a result whose parts say ``unosim.mode`` = ``file_mode`` has hand win shares
    by seat worth a figure (true for a mode no run writes: its rows are read as hands)."""
    return all(m.by_seat for m in MODES.values() if m.file_mode == file_mode)
