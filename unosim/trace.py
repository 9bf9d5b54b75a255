"""`unosim trace`: replay one hand of a run and tell it in plain words.

The kernel replays the hand exactly as the run played it (a match's or tournament's
earlier hands again unlogged, a rotated run in its rotation), writing events into a log
array; this module turns those integers into sentences.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from unosim.rules import cards
from unosim.rules.config import RulesConfig, to_params
from unosim.kernel import layout as L
from unosim.rules import params as slots
from .engine import search_batch
from .engine.batch import trace_hand
from .engine.matches import trace_match_hand
from .engine.tournaments import trace_tournament_hand

# Why cards were drawn (unosim.kernel.layout.DR_*): what a single drawn card's line adds, and
# how a penalty drawn at once is told ("as a penalty" where None).
DRAW_REASONS: dict[int, tuple[str, str | None]] = {
    L.DR_TURN: ("", None),
    L.DR_PENALTY: (" (penalty)", None),
    L.DR_UNO: (" (UNO not called)", "for not calling UNO"),
    L.DR_SLAP: (" (slowest slap)", None),
    L.DR_NOISE: (" (made a sound)", None),
    L.DR_CHALLENGE: (" (challenge)", "after the challenge"),
    L.DR_FALSE_CALL: (" (wrong UNO call)", "for the wrong call"),
    L.DR_MISPLAY: (" (misplay)", "for the misplay"),
}
assert set(DRAW_REASONS) == {v for k, v in vars(L).items() if k.startswith("DR_")}, "every draw reason has a text"


def _params(cfg: RulesConfig, rotation: int | None) -> np.ndarray:
    """The rules vector of the run, or of its rotation ``rotation`` (seating.py)."""
    from unosim.run.seating import rotated_params

    P = to_params(cfg)
    return P if rotation is None else rotated_params(P, cfg.players, rotation)


def replay(cfg: RulesConfig, seed: int, hand: int, capacity: int = 200_000,
           rotation: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(final state vector, events) of hand ``hand`` of a run of ``cfg`` with ``seed``
    (of its rotation ``rotation``, for a seat-rotated run)."""
    log = np.zeros((capacity, L.LOG_WIDTH), np.int64)
    P = _params(cfg, rotation)
    if search_batch.has_search(P):
        st = search_batch.trace_hand(*search_batch.split_params(P), seed, hand, log)
    else:
        st = trace_hand(P, seed, hand, log)
    return st, log[: st[L.S_NLOG]]


def replay_match(cfg: RulesConfig, seed: int, match: int, hand: int, capacity: int = 200_000,
                 rotation: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(final state, events) of hand ``hand`` of match ``match`` of a match run (in its
    rotation ``rotation``, for a seat-rotated run)."""
    log = np.zeros((capacity, L.LOG_WIDTH), np.int64)
    st = trace_match_hand(_params(cfg, rotation), seed, match, hand, log, rotation is not None)
    return st, log[: st[L.S_NLOG]]


def replay_tournament(cfg: RulesConfig, seed: int, tournament: int, rnd: int, table: int, hand: int,
                      capacity: int = 200_000, rotation: int | None = None
                      ) -> tuple[np.ndarray, np.ndarray, RulesConfig, list[int]]:
    """(final state, events, the table's config, the player at each seat) of hand ``hand`` of
    table ``table`` in round ``rnd`` of tournament ``tournament`` (in ``rotation``)."""
    from unosim.run.tournaments import Tournament

    t = Tournament(cfg, rotation or 0)
    log = np.zeros((capacity, L.LOG_WIDTH), np.int64)
    rt = rnd * t.tables + table
    st = trace_tournament_hand(t.params[rt], seed, tournament, rnd, table, t.rounds, t.tables, hand, log,
                               rotation is not None)
    return st, log[: st[L.S_NLOG]], t.table_config(rnd, table), [int(p) for p in t.seating[rt]]


def _hand_text(st: np.ndarray, seat: int) -> str:
    base = L.S_HAND0 + seat * L.N_KINDS
    names = [cards.name(k) for k in range(L.N_KINDS) for _ in range(int(st[base + k]))]
    return " ".join(names) if names else "(no cards)"


def _seated(cfg: RulesConfig, rotation: int | None) -> str:
    """Words naming the rotation and who sits where in it (the bot of config seat i at
    seat (i + r) mod n); nothing for an unrotated run."""
    if rotation is None:
        return ""
    from unosim.run.seating import bot_label

    n = cfg.players
    labels = [bot_label(*cfg.seats[(s - rotation) % n]) for s in range(n)]
    labels = [lab if len(lab) <= 40 else f"{lab.split('(')[0]}(...)" for lab in labels]
    return f", seat rotation {rotation} ({', '.join(f'seat {s}: {lab}' for s, lab in enumerate(labels))})"


def describe(cfg: RulesConfig, seed: int, hand: int, rotation: int | None = None) -> list[str]:
    """The hand play by play, one line per event."""
    st, events = replay(cfg, seed, hand, rotation=rotation)
    head = (f"Hand {hand} of a run of {cfg.name!r} with seed {seed}{_seated(cfg, rotation)}: {cfg.players} "
            f"players, dealer seat {int(st[L.S_DEALER])}.")
    return _tell(cfg, st, events, [head])


def describe_match(cfg: RulesConfig, seed: int, match: int, hand: int, rotation: int | None = None) -> list[str]:
    """Hand ``hand`` (0-based) of match ``match`` of a match run, play by play."""
    st, events = replay_match(cfg, seed, match, hand, rotation=rotation)
    head = (f"Hand {hand} of match {match} of a match run of {cfg.name!r} with seed {seed}"
            f"{_seated(cfg, rotation)}: {cfg.players} players, dealer seat {int(st[L.S_DEALER])}.")
    return _tell(cfg, st, events, [head])


def describe_tournament(cfg: RulesConfig, seed: int, tournament: int, rnd: int, table: int, hand: int,
                        rotation: int | None = None) -> list[str]:
    """Hand ``hand`` of table ``table`` in round ``rnd`` of tournament ``tournament``, play by play."""
    st, events, table_cfg, who = replay_tournament(cfg, seed, tournament, rnd, table, hand, rotation=rotation)
    rot = "" if rotation is None else f" (rotation {rotation} of the bots over the player numbers)"
    head = [f"Hand {hand} of round {rnd}, table {table}, of tournament {tournament}{rot} of a tournament run of "
            f"{cfg.name!r} with seed {seed}: dealer seat {int(st[L.S_DEALER])}.",
            "  " + ", ".join(f"seat {s}: player {p} ({table_cfg.seats[s][0]})" for s, p in enumerate(who))
            + "; partners at seats 0 and 2, 1 and 3."]
    return _tell(table_cfg, st, events, head)


def _colour(c: int) -> str:
    return cards.COLOR_NAMES[int(c)]


def _names(b: int, c: int) -> str:
    """" and names <colour>." after a wild card, else "."."""
    return f" and names {_colour(c)}." if b >= cards.WILD else "."


def _play(a: int, b: int, c: int) -> str:
    if a < 0:  # a wild turned up: the first player names the colour (R3)
        return f"The first player names {_colour(c)}."
    return f"Seat {a} plays {cards.name(b)}{_names(b, c)}"


def _uno(a: int, b: int, c: int) -> str:
    if b == 0:
        return f"  seat {a} calls UNO."
    return f"  seat {a} forgets to call UNO" + (" and is caught." if c else " and gets away with it.")


def _draw(a: int, b: int, c: int) -> str:
    return f"  seat {a} draws {cards.name(b)}{DRAW_REASONS[c][0] if c in DRAW_REASONS else ''}"


def _penalty(a: int, b: int, c: int) -> str:
    why = DRAW_REASONS[c][1] if c in DRAW_REASONS else None
    return f"  seat {a} has drawn {b} {why or 'as a penalty'}."

Text = Callable[[int, int, int], "str | None"]

# What each kernel event (unosim.kernel.layout.EV_*, arguments a, b, c) says; None: nothing.
# EV_DEAL is gathered into one line per seat by _tell; EV_STALL needs the config (_tell).
EVENT_TEXT: dict[int, Text] = {
    L.EV_RETURN: lambda a, b, c: f"Turned {cards.name(a)}: it goes back and the draw pile is reshuffled.",
    L.EV_TURN_UP: lambda a, b, c: f"Turned {cards.name(a)} to start the discard pile.",
    L.EV_PLAY: _play,
    L.EV_STACK: lambda a, b, c: f"Seat {a} stacks {cards.name(b)}{_names(b, c)}",
    L.EV_JUMP: lambda a, b, c: f"Seat {a} jumps in with {cards.name(b)}{_names(b, c)}",
    L.EV_DRAW: _draw,
    L.EV_KEEP: lambda a, b, c: f"  seat {a} keeps it; turn over.",
    L.EV_PASS: lambda a, b, c: f"Seat {a} cannot draw (both piles empty) and passes.",
    L.EV_SKIPPED: lambda a, b, c: f"  seat {a} loses the turn.",
    L.EV_REVERSE: lambda a, b, c: "  play now goes " + ("clockwise." if a > 0 else "anticlockwise."),
    L.EV_PENALTY: _penalty,
    L.EV_CHALLENGE: lambda a, b, c: (f"Seat {a} challenges seat {b}'s Wild Draw Four: "
                                     + ("the bluff is proven." if c else "the Wild Draw Four was legal.")),
    L.EV_UNO: _uno,
    L.EV_OUT: lambda a, b, c: f"Seat {a} has no cards left (finishing rank {b}).",
    L.EV_RESHUFFLE: lambda a, b, c: f"  the draw pile is empty: {a} discards are shuffled into a new draw pile.",
    L.EV_SWAP: lambda a, b, c: f"  seat {a} swaps hands with seat {b}.",
    L.EV_PASS_HANDS: lambda a, b, c: "  every player passes their hand to the next player.",
    L.EV_GIVEAWAY: lambda a, b, c: f"  seat {a} gives {c} cards to seat {b}.",
    L.EV_SLAP: lambda a, b, c: f"  everyone slaps the pile; seat {a} is slowest and draws {b}.",
    L.EV_SILENCE: lambda a, b, c: f"  silence! kept by seat {a}.",
    L.EV_NOISE: lambda a, b, c: f"  seat {a} makes a sound, draws {b}, and the silence lifts.",
    L.EV_TAKE_BACK: lambda a, b, c: (f"  seat {a} takes the {cards.name(b) if c <= 1 else f'{c} {cards.name(b)} cards'} "
                                     "back and plays a card of the colour it hid instead."),
    L.EV_FALSE_CALL: lambda a, b, c: f"  seat {a} calls UNO with two or more cards left and is caught.",
    L.EV_MISPLAY: lambda a, b, c: f"Seat {a} puts down a card that does not play, takes it back.",
    L.EV_FACING: lambda a, b, c: f"  seat {a} faces {b} cards (a stack of {c}): stack on it or draw them all.",
    L.EV_END: lambda a, b, c: f"Seat {a} wins the hand." if a >= 0 else None,
    **{L.EV_RULE0 + i: e.text for i, e in enumerate(L.RULE_EVENTS)},  # what the rules declare (keys.Key.events)
}
_EVENTS = {v for k, v in vars(L).items() if k.startswith("EV_")}
assert _EVENTS == set(EVENT_TEXT) | {L.EV_DEAL, L.EV_STALL}, "every kernel event has a text"


def _tell(cfg: RulesConfig, st: np.ndarray, events: np.ndarray, lines: list[str]) -> list[str]:
    n = cfg.players
    dealt: dict[int, list[str]] = {}
    for ev, a, b, c in events.tolist():
        if ev == L.EV_DEAL:
            dealt.setdefault(a, []).append(cards.name(b))
            continue
        if dealt:
            for s in range(n):
                lines.append(f"  seat {s} is dealt {' '.join(dealt.get(s, []))}")
            dealt = {}
        if ev == L.EV_STALL:
            text = f"The hand reaches max_turns = {cfg.max_turns} and stops with no winner (stalled)."
        else:
            text = EVENT_TEXT[ev](a, b, c)
        if text is not None:
            lines.append(text)
    lines.append(f"{int(st[L.S_TURNS])} turns, {int(st[L.S_PLAYED])} cards played, "
                 f"{int(st[L.S_DRAWN])} drawn, {int(st[L.S_RESHUFFLES])} reshuffles.")
    for s in range(n):
        pts = sum(int(st[L.S_HAND0 + s * L.N_KINDS + k]) * int(to_params(cfg)[slots.P_SCORE0 + k])
                  for k in range(L.N_KINDS))
        lines.append(f"  seat {s} ends with {_hand_text(st, s)} ({pts} points)")
    return lines
