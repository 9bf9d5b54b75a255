"""`unosim trace`: replay one hand of a run and tell it in plain words.

The kernel replays the hand exactly as the run played it, writing events into a log
array: a hand of a batch from (seed, hand index); a hand of a match (S1-S4) from the
match's stream, the match's earlier hands played again unlogged; a hand of a tournament
(T1) from its table's round the same way.  A hand of a seat-rotated run (``rotation``)
is replayed with that rotation's seating and, for matches and tournaments, the run's
one-stream-per-hand randomness (seating.py).  This module only turns those integers into
sentences.
"""

from __future__ import annotations

import numpy as np

from unosim.rules import cards
from unosim.rules.config import RulesConfig, to_params
from unosim.kernel import layout as L
from unosim.rules import params as slots
from .engine.batch import trace_hand
from .engine.matches import trace_match_hand
from .engine.tournaments import trace_tournament_hand

_DRAW_REASON = {L.DR_TURN: "", L.DR_PENALTY: " (penalty)", L.DR_UNO: " (UNO not called)",
                L.DR_SLAP: " (slowest slap)", L.DR_NOISE: " (made a sound)", L.DR_CHALLENGE: " (challenge)",
                L.DR_FALSE_CALL: " (wrong UNO call)", L.DR_MISPLAY: " (misplay)"}


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
    st = trace_hand(_params(cfg, rotation), seed, hand, log)
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
    """(final state, events, the table's config, the player at each seat) of hand ``hand``
    of table ``table`` in round ``rnd`` of tournament ``tournament`` of a T1 run (in its
    rotation ``rotation`` of the bots over the player numbers, for a seat-rotated run)."""
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


def _tell(cfg: RulesConfig, st: np.ndarray, events: np.ndarray, lines: list[str]) -> list[str]:
    n = cfg.players
    dealt: dict[int, list[str]] = {}
    color = lambda c: cards.COLOR_NAMES[int(c)]  # noqa: E731
    for ev, a, b, c in events.tolist():
        if ev == L.EV_DEAL:
            dealt.setdefault(a, []).append(cards.name(b))
            continue
        if dealt:
            for s in range(n):
                lines.append(f"  seat {s} is dealt {' '.join(dealt.get(s, []))}")
            dealt = {}
        if ev == L.EV_RETURN:
            lines.append(f"Turned {cards.name(a)}: it goes back and the draw pile is reshuffled.")
        elif ev == L.EV_TURN_UP:
            lines.append(f"Turned {cards.name(a)} to start the discard pile.")
        elif ev == L.EV_PLAY:
            who = "The first player names" if a < 0 else f"Seat {a} plays {cards.name(b)}"
            if a < 0:
                lines.append(f"{who} {color(c)}.")
            elif b >= cards.WILD:
                lines.append(f"{who} and names {color(c)}.")
            else:
                lines.append(f"{who}.")
        elif ev == L.EV_STACK:
            lines.append(f"Seat {a} stacks {cards.name(b)}" + (f" and names {color(c)}." if b >= cards.WILD else "."))
        elif ev == L.EV_JUMP:
            lines.append(f"Seat {a} jumps in with {cards.name(b)}" + (f" and names {color(c)}." if b >= cards.WILD else "."))
        elif ev == L.EV_DRAW:
            lines.append(f"  seat {a} draws {cards.name(b)}{_DRAW_REASON.get(c, '')}")
        elif ev == L.EV_KEEP:
            lines.append(f"  seat {a} keeps it; turn over.")
        elif ev == L.EV_PASS:
            lines.append(f"Seat {a} cannot draw (both piles empty) and passes.")
        elif ev == L.EV_SKIPPED:
            lines.append(f"  seat {a} loses the turn.")
        elif ev == L.EV_REVERSE:
            lines.append("  play now goes " + ("clockwise." if a > 0 else "anticlockwise."))
        elif ev == L.EV_PENALTY:
            what = {L.DR_UNO: "for not calling UNO", L.DR_CHALLENGE: "after the challenge",
                    L.DR_FALSE_CALL: "for the wrong call", L.DR_MISPLAY: "for the misplay"}.get(c, "as a penalty")
            lines.append(f"  seat {a} has drawn {b} {what}.")
        elif ev == L.EV_CHALLENGE:
            verdict = "the bluff is proven" if c else "the Wild Draw Four was legal"
            lines.append(f"Seat {a} challenges seat {b}'s Wild Draw Four: {verdict}.")
        elif ev == L.EV_UNO:
            if b == 0:
                lines.append(f"  seat {a} calls UNO.")
            else:
                lines.append(f"  seat {a} forgets to call UNO" + (" and is caught." if c else " and gets away with it."))
        elif ev == L.EV_OUT:
            lines.append(f"Seat {a} has no cards left (finishing rank {b}).")
        elif ev == L.EV_RESHUFFLE:
            lines.append(f"  the draw pile is empty: {a} discards are shuffled into a new draw pile.")
        elif ev == L.EV_SWAP:
            lines.append(f"  seat {a} swaps hands with seat {b}.")
        elif ev == L.EV_PASS_HANDS:
            lines.append("  every player passes their hand to the next player.")
        elif ev == L.EV_GIVEAWAY:
            lines.append(f"  seat {a} gives {c} cards to seat {b}.")
        elif ev == L.EV_SLAP:
            lines.append(f"  everyone slaps the pile; seat {a} is slowest and draws {b}.")
        elif ev == L.EV_SILENCE:
            lines.append(f"  silence! kept by seat {a}.")
        elif ev == L.EV_NOISE:
            lines.append(f"  seat {a} makes a sound, draws {b}, and the silence lifts.")
        elif ev == L.EV_TAKE_BACK:
            lines.append(f"  seat {a} takes the {cards.name(b)} back and plays a card of the colour it hid instead.")
        elif ev == L.EV_FALSE_CALL:
            lines.append(f"  seat {a} calls UNO with two or more cards left and is caught.")
        elif ev == L.EV_MISPLAY:
            lines.append(f"Seat {a} puts down a card that does not play, takes it back.")
        elif ev == L.EV_FACING:
            lines.append(f"  seat {a} faces {b} cards (a stack of {c}): stack on it or draw them all.")
        elif ev == L.EV_STALL:
            lines.append(f"The hand reaches max_turns = {cfg.max_turns} and stops with no winner (stalled).")
        elif ev == L.EV_END:
            if a >= 0:
                lines.append(f"Seat {a} wins the hand.")
    lines.append(f"{int(st[L.S_TURNS])} turns, {int(st[L.S_PLAYED])} cards played, "
                 f"{int(st[L.S_DRAWN])} drawn, {int(st[L.S_RESHUFFLES])} reshuffles.")
    for s in range(n):
        pts = sum(int(st[L.S_HAND0 + s * L.N_KINDS + k]) * int(to_params(cfg)[slots.P_SCORE0 + k])
                  for k in range(L.N_KINDS))
        lines.append(f"  seat {s} ends with {_hand_text(st, s)} ({pts} points)")
    return lines
