"""`unosim duel A B`: two bots at one table, seats rotated, win shares with intervals.

A sits at seat 0 and B at seat 1 (B plays right after A, clockwise); every other seat
holds ``others`` (``random`` by default).  Every deal is played once per rotation of
that assignment over the seats (seating.py), so A and B play from every seat and with
every seat's cards.  A bot is a strategy name, optionally with parameters:
``counter:suspicion=0.5,bluff_rate=0.1`` (values are TOML literals), or a bot file
(``tuned/bot.toml``, written by `unosim tune`; unosim/run/botfile.py).  A and B may be the
same bot: they are told apart by their seat in the assignment (A, B), not their name.

Reported per bot: its win share (wins / decided hands; stalled hands, R13, have no
winner) with a 95% Wilson interval, the points it scores per hand under S1 (the cards
left in the other hands when it wins, 0 otherwise) and the points left in its own hand
per hand (what S2 adds up).  The other seats are pooled into one line, per seat.

A duel is a job of mode ``rotated`` without output (jobs.py): the figures are the
per-bot counts of its summary (summary.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unosim.run.botfile import is_bot_file, load_bot_file, parse_spec
from unosim.rules.config import ConfigError, RulesConfig, default_config
from unosim.run.jobs import RunError, make_job
from unosim.run.runner import run_job
from unosim.run.seating import bot_label
from unosim.analysis.stats import wilson_interval

__all__ = ["DuelLine", "DuelResult", "duel", "parse_bot", "render"]

CHUNK = 100_000


def parse_bot(spec: str, where: str = "bot") -> str | dict[str, Any]:
    """``name`` or ``name:param=value,...`` -> a ``[bots] seats`` entry (validated later
    against STRATEGIES by the config); a bot file (``.toml``) -> its entry."""
    if is_bot_file(spec):
        return load_bot_file(spec, where).entry()
    return parse_spec(spec, where)


@dataclass(frozen=True)
class DuelLine:
    """One bot's figures (``seats`` > 1: the pooled other seats, figures per seat)."""

    label: str
    seats: int
    wins: float
    decided: int
    share: float
    low: float
    high: float
    points_won: float
    points_left: float


@dataclass(frozen=True)
class DuelResult:
    cfg: RulesConfig
    deals: int
    rotations: int
    hands: int
    stalled: int
    lines: tuple[DuelLine, ...]


_ARGUMENT = {"bots.seats[0]": "A", "bots.seats[1]": "B"}


def _config(a: str, b: str, players: int, others: str, cfg: RulesConfig | None) -> RulesConfig:
    """The duel's table; a bad bot is blamed on the argument that named it (A, B or
    --others), not on the config's seat list the user never wrote."""
    base = cfg if cfg is not None else default_config()
    seats = [parse_bot(a, "A"), parse_bot(b, "B")] + [parse_bot(others, "--others")] * (players - 2)
    try:
        return base.with_values({"players": players, "seats": seats})
    except ConfigError as e:
        msg = str(e)
        for seat, arg in (*_ARGUMENT.items(), *((f"bots.seats[{s}]", "--others") for s in range(2, players))):
            if msg.startswith(seat):
                raise ConfigError(arg + msg[len(seat):], arg) from None
        raise


def duel(a: str, b: str, *, players: int = 2, hands: int = 20_000, seed: int = 0, others: str = "random",
         cfg: RulesConfig | None = None, workers: int | None = None) -> DuelResult:
    """Play ``hands`` deals, each once per seat rotation, of A at seat 0, B at seat 1,
    ``others`` elsewhere, under ``cfg``'s rules (the official rules by default)."""
    if players < 2:
        raise RunError(f"--players: a duel needs at least 2 players (got {players})")
    table = _config(a, b, players, others, cfg)
    job = make_job(table, "rotated", hands, seed, chunk_size=CHUNK, count_option="--hands")
    s = run_job(job, workers=workers)
    n = players
    wins, won_points, left_points = s.bot_wins, s.bot_points_won, s.bot_points_left
    decided = s.rows - s.stalled
    labels = [bot_label(name, params) for name, params in table.seats]
    lines = []
    names = ["A: " + labels[0], "B: " + labels[1]]
    for i in range(min(2, n)):
        lo, hi = wilson_interval(wins[i], decided)
        lines.append(DuelLine(names[i], 1, float(wins[i]), decided, wins[i] / decided if decided else float("nan"),
                              float(lo), float(hi), won_points[i] / s.rows, left_points[i] / s.rows))
    if n > 2:
        k = n - 2
        w = float(wins[2:].sum())
        lo, hi = wilson_interval(w, decided)
        lines.append(DuelLine(f"others: {labels[2]} x{k}", k, w, decided, w / decided if decided else float("nan"),
                              float(lo), float(hi), won_points[2:].sum() / s.rows / k,
                              left_points[2:].sum() / s.rows / k))
    return DuelResult(table, hands, n, s.rows, s.stalled, tuple(lines))


def render(res: DuelResult) -> list[str]:
    """The lines `unosim duel` prints."""
    out = [f"{res.cfg.players} players, {res.deals:,} deals x {res.rotations} seat rotations = "
           f"{res.hands:,} hands ({res.stalled:,} stalled)"]
    width = max(len(x.label) for x in res.lines)
    out.append(f"  {'bot':<{width}}  win share  95% interval      points won/hand  points left/hand")
    for x in res.lines:
        share = f"{x.share:8.2%}" if x.seats == 1 else f"{x.share:8.2%}*"
        out.append(f"  {x.label:<{width}}  {share:<9}  [{x.low:6.2%}, {x.high:6.2%}]  {x.points_won:15.2f}  "
                   f"{x.points_left:16.2f}")
    if any(x.seats > 1 for x in res.lines):
        out.append(f"  * the other seats together; points are per seat. Even share: {1 / res.cfg.players:.2%} per seat.")
    else:
        out.append(f"  Even share: {1 / res.cfg.players:.2%} per seat.")
    return out
