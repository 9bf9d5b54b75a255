"""The invariant harness: play real hands one kernel step at a time and check everything
that must hold after every step (docs/rules.md R1, R2, R11-R13, O1).

pgx runs one invariant harness over every game; unosim runs this one over every rules
config.  It is a plain module (not fixtures) so any test can call it with its own
config: ``check_config(default_config(stacking="draw2"), seed=3, hands=5)``.

Each hand is set up exactly as :func:`unosim.engine.hand.play_hand` does it (``reset``,
``build_deck``, ``deal``, ``turn_first_card`` from the batch's per-hand random stream),
then driven by :func:`unosim.engine.hand.step`, the loop body of ``play_hand``.  So the
final state must also be the very hand the parallel batch kernel plays for that index:
:func:`check_config` compares the two rows, which ties the stepwise checks to the numbers
in result files.

Checks that only hold under the official rules are switched on by the config (one card
per step unless multi-play or jump-in; first out ends the hand unless ``last_standing``),
so house-rule configs run through the same harness.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from unosim.rules import cards
import hypothesis.strategies as hs

from unosim.rules.config import Key, RulesConfig, to_params
from unosim.engine import batch as B
from unosim.engine import hand as H
from unosim.engine import search, search_batch
from unosim.kernel import layout as L
from unosim.rules import params as slots
from unosim.kernel.rng import stream_start

# Counters never go down during a hand (O1 and the house-rule tallies: every counter a row carries).
MONOTONE = L.COUNTER_SLOTS
_COUNTER_NAMES = {getattr(L, n): n for n in dir(L) if n.startswith("S_")}


def key_values(k: Key) -> hs.SearchStrategy:
    """Hypothesis values for a config key from its registry record alone (type, choices,
    range, words), so a new key is drawn by the property tests without an edit here."""
    if k.type == "enum":
        return hs.sampled_from(k.choices)
    if k.type == "bool":
        return hs.booleans()
    if k.type == "rank":
        return hs.one_of(hs.just("none"), hs.integers(int(k.lo), int(k.hi)))
    if k.type == "int":
        ints = hs.integers(int(k.lo), None if k.hi is None else int(k.hi))
        return hs.one_of(ints, hs.sampled_from(k.words)) if k.words else ints
    if k.type == "float":
        return hs.floats(k.lo, k.hi, allow_nan=False)
    raise ValueError(f"{k.full}: no values for a {k.type} key (give its strategy by hand)")


class InvariantError(AssertionError):
    """An invariant broke; the message says which, where (seed, hand, step) and the state."""


@dataclass(frozen=True)
class Rules:
    """What the checks need to know about a config, read once per hand."""

    players: int
    decks: int
    hand_size: int
    max_turns: int
    one_card_per_step: bool   # no H6 multi-play, no H2 jump-in
    first_out: bool           # H13 off: the first player out ends the hand
    points: np.ndarray        # per kind, as scoring reads them (R1, H5, H17)
    single_card: bool = True  # no H6 multi-play: a turn puts down one card
    b0_only: bool = True      # every seat is the reference bot at bluff_rate 0 (which never bluffs)
    restricted: bool = True   # wild_draw4 = "restricted" (R8)
    r7: bool = False          # a turn's draw is checked against the hand held (R7): voluntary draws
                              # on, one card a turn, no jump-ins (H2), no misplays (H24)
    wild_last: bool = True    # H7 off: a wild may be the last card

    @classmethod
    def of(cls, cfg: RulesConfig) -> "Rules":
        return cls(
            players=cfg.players, decks=cfg.deck_count, hand_size=cfg.hand_size,
            max_turns=cfg.max_turns,
            one_card_per_step=cfg.multi_play == "none" and cfg.jump_in == "none",
            first_out=cfg.finish == "first_out",
            points=cards.point_table(cfg.zero_points, cfg.red_zero == "giveaway"),
            single_card=cfg.multi_play == "none",
            b0_only=all(name == "random" and not params.get("bluff_rate") for name, params in cfg.seats),
            restricted=cfg.wild_draw4 == "restricted",
            r7=(cfg.voluntary_draw and cfg.multi_play == "none" and cfg.jump_in == "none"
                and cfg.misplay == 0.0),
            wild_last=cfg.wild_last,
        )


@dataclass
class Snapshot:
    """The numbers a step's checks compare with the previous step."""

    counters: np.ndarray
    ndraw: int
    ndisc: int
    in_hands: int
    nlog: int
    cur: int = -1
    top: int = -1
    color: int = -1
    facing: bool = False        # a draw card is pending: the step resolves it (R8, H1)
    cur_has_color: bool = False  # the seat to act holds a card of the colour in force (R8)
    hand: np.ndarray | None = None  # the seat to act's cards, per kind

    @classmethod
    def of(cls, st: np.ndarray, n: int) -> "Snapshot":
        cur, color = int(st[L.S_CUR]), int(st[L.S_COLOR])
        base = L.S_HAND0 + cur * L.N_KINDS + color * 13
        return cls(st[list(MONOTONE)].copy(), int(st[L.S_NDRAW]), int(st[L.S_NDISC]),
                   int(st[L.S_HS0:L.S_HS0 + n].sum()), int(st[L.S_NLOG]), cur, int(st[L.S_TOP]), color,
                   bool(st[L.S_PENDING_KIND] >= 0), bool(st[base:base + 13].sum() > 0),
                   st[L.S_HAND0 + cur * L.N_KINDS:L.S_HAND0 + (cur + 1) * L.N_KINDS].copy())


@dataclass(frozen=True)
class HandResult:
    """One hand played step by step: its final state, steps taken, events and O1 row."""

    seed: int
    index: int
    st: np.ndarray
    steps: int
    events: np.ndarray
    row: np.ndarray


def hands_of(st: np.ndarray, n: int) -> np.ndarray:
    """Per-seat, per-kind counts of the first n seats (a view)."""
    return st[L.S_HAND0:L.S_HAND0 + n * L.N_KINDS].reshape(n, L.N_KINDS)


def pile(st: np.ndarray, first: int, count: int) -> np.ndarray:
    return st[first:first + count]


def kind_counts(st: np.ndarray, n: int) -> np.ndarray:
    """Every card in play, per kind: hands + draw pile + discard pile."""
    total = hands_of(st, n).sum(axis=0)
    total = total + np.bincount(pile(st, L.S_DRAW0, int(st[L.S_NDRAW])), minlength=L.N_KINDS)
    return total + np.bincount(pile(st, L.S_DISC0, int(st[L.S_NDISC])), minlength=L.N_KINDS)


def _fail(where: str, what: str, st: np.ndarray) -> None:
    n = int(st[L.S_NP])
    sizes = st[L.S_HS0:L.S_HS0 + n].tolist()
    raise InvariantError(
        f"{where}: {what} [cur={st[L.S_CUR]} dir={st[L.S_DIR]} top={cards.name(int(st[L.S_TOP]))} "
        f"turns={st[L.S_TURNS]} played={st[L.S_PLAYED]} drawn={st[L.S_DRAWN]} ndraw={st[L.S_NDRAW]} "
        f"ndisc={st[L.S_NDISC]} hand sizes={sizes} pending={st[L.S_PENDING]} done={st[L.S_DONE]} "
        f"winner={st[L.S_WINNER]}]")


def check_state(st: np.ndarray, rules: Rules, deck: np.ndarray, where: str) -> None:
    """Invariants of any state once the first card is turned (R1, R2, R11, O1)."""
    n = rules.players
    hands = hands_of(st, n)
    if (hands < 0).any():
        _fail(where, "a negative card count in a hand", st)
    if not np.array_equal(st[L.S_HS0:L.S_HS0 + n], hands.sum(axis=1)):
        _fail(where, f"hand sizes {st[L.S_HS0:L.S_HS0 + n].tolist()} != per-kind sums "
                     f"{hands.sum(axis=1).tolist()}", st)
    per_colour = [hands[:, c * 13:(c + 1) * 13].sum(axis=1) for c in range(4)]
    colours = np.stack(per_colour + [hands[:, 52:].sum(axis=1)], axis=1)
    packed = (colours << (L.COLOUR_BITS * np.arange(5))).sum(axis=1)
    if not np.array_equal(st[L.S_COLOURS0:L.S_COLOURS0 + n], packed):
        _fail(where, f"colour counts {st[L.S_COLOURS0:L.S_COLOURS0 + n].tolist()} "
                     f"!= the hands' {packed.tolist()}", st)
    if not (0 <= st[L.S_NDRAW] <= slots.MAX_CARDS and 1 <= st[L.S_NDISC] <= slots.MAX_CARDS):
        _fail(where, "pile sizes out of range", st)
    if st[L.S_TOTAL] != 108 * rules.decks:
        _fail(where, f"S_TOTAL {st[L.S_TOTAL]} != {108 * rules.decks}", st)
    counts = kind_counts(st, n)
    if not np.array_equal(counts, deck):
        diff = {cards.name(k): int(counts[k] - deck[k]) for k in np.flatnonzero(counts != deck)}
        _fail(where, f"cards not conserved (in play minus deck, per kind): {diff}", st)
    if st[L.S_TOP] != st[L.S_DISC0 + st[L.S_NDISC] - 1]:
        _fail(where, "S_TOP is not the top of the discard pile", st)
    if not 0 <= st[L.S_COLOR] < 4:
        _fail(where, f"colour in force {st[L.S_COLOR]} is not a colour", st)
    if st[L.S_TOP] < cards.WILD and st[L.S_COLOR] != st[L.S_TOP] // 13:
        _fail(where, "colour in force differs from the coloured top card", st)
    if st[L.S_DIR] not in (1, -1) or not 0 <= st[L.S_CUR] < n:
        _fail(where, "direction or seat to act out of range", st)
    if st[L.S_PENDING] < 0 or (st[list(MONOTONE)] < 0).any():
        _fail(where, "a negative counter", st)
    if st[L.S_TURNS] > rules.max_turns:
        _fail(where, f"turns {st[L.S_TURNS]} > max_turns {rules.max_turns} (R13)", st)
    if st[L.S_DONE] == 0:
        if st[L.S_STALLED] != 0 or (rules.first_out and st[L.S_WINNER] != -1):
            _fail(where, "a winner or a stall flag before the hand is over", st)


def check_step(st: np.ndarray, rules: Rules, before: Snapshot, events: np.ndarray, where: str) -> None:
    """What one step may change: counters only grow, and every card and counter change is
    accounted for by the step's events (O1 cards_played/cards_drawn, R11 reshuffles)."""
    n = rules.players
    after = Snapshot.of(st, n)
    grow = after.counters - before.counters
    if (grow < 0).any():
        names = [_COUNTER_NAMES[MONOTONE[i]] for i in np.flatnonzero(grow < 0)]
        _fail(where, f"counters went down: {names}", st)
    ev = events[:, 0]
    reshuffled = int(events[ev == L.EV_RESHUFFLE, 1].sum())
    played = int(grow[MONOTONE.index(L.S_PLAYED)])
    drawn = int(grow[MONOTONE.index(L.S_DRAWN)])
    if int(grow[MONOTONE.index(L.S_RESHUFFLES)]) != int((ev == L.EV_RESHUFFLE).sum()):
        _fail(where, "reshuffles counter != reshuffle events (R11)", st)
    if after.ndisc != before.ndisc - reshuffled + played:
        _fail(where, f"discard pile {before.ndisc} -> {after.ndisc} with {played} played and "
                     f"{reshuffled} reshuffled: cards_played is not the cards discarded (O1)", st)
    if after.ndraw != before.ndraw + reshuffled - drawn:
        _fail(where, f"draw pile {before.ndraw} -> {after.ndraw} with {drawn} drawn and "
                     f"{reshuffled} reshuffled (O1 cards_drawn, R11)", st)
    if drawn != int((ev == L.EV_DRAW).sum()):
        _fail(where, f"cards_drawn grew by {drawn} but {int((ev == L.EV_DRAW).sum())} draw events", st)
    if after.in_hands - before.in_hands != drawn - played:
        _fail(where, "cards in hands changed by more than drawn - played", st)
    turns = int(grow[MONOTONE.index(L.S_TURNS)])
    if rules.one_card_per_step and (turns > 1 or played > 1):
        _fail(where, f"one step took {turns} turns and played {played} cards", st)
    if not before.facing and rules.single_card:
        check_turn_play(st, rules, before, events, where)
    if not before.facing and rules.r7:
        check_voluntary(st, rules, before, int(grow[MONOTONE.index(L.S_VOL_DRAWS)]), events, where)


def held_legal(hand: np.ndarray, color: int, top: int, wild_last: bool) -> bool:
    """R5, R8, H7: could a hand play a card, ``color`` in force on ``top``?  A Wild Draw
    Four is legal in every R8 mode when no coloured card is (E1: nothing else plays)."""
    if hand[color * 13:(color + 1) * 13].sum() > 0 or (top < cards.WILD and hand[top % 13:52:13].sum() > 0):
        return True
    return (wild_last or hand.sum() > 1) and hand[cards.WILD:].sum() > 0


def check_voluntary(st: np.ndarray, rules: Rules, before: Snapshot, vol: int, events: np.ndarray,
                    where: str) -> None:
    """R7: a turn that opens with a draw counts one voluntary draw exactly when the seat
    held a card it could play, whatever its strategy (B0, search or any other)."""
    for ev, a, k, reason in events:
        if ev in (L.EV_DRAW, L.EV_PLAY) and a == before.cur:
            if ev != L.EV_DRAW or reason != L.DR_TURN:
                return
            held = held_legal(before.hand, before.color, before.top, rules.wild_last)
            if vol != int(held):
                _fail(where, f"seat {a} drew {'holding' if held else 'without'} a legal card, "
                             f"voluntary_draws grew by {vol} (R7)", st)
            return


def check_turn_play(st: np.ndarray, rules: Rules, before: Snapshot, events: np.ndarray, where: str) -> None:
    """The first card a turn puts down (R5, R6, R8): it matches the colour in force or the
    top card's number/symbol, or is wild; after a draw it is the card just drawn; and among
    B0 players a Wild Draw Four is never a bluff under the restricted rule."""
    last_drawn = -1
    for ev, a, k, _ in events:
        if ev == L.EV_DRAW and a == before.cur and k >= 0 and _ == L.DR_TURN:
            last_drawn = int(k)
        if ev != L.EV_PLAY or a != before.cur:
            continue
        k = int(k)
        top = before.top
        matches = (k >= cards.WILD or k // 13 == before.color
                   or (top < cards.WILD and k % 13 == top % 13))
        if not matches:
            _fail(where, f"seat {a} played {cards.name(k)} on {cards.name(top)} "
                         f"({cards.COLOR_NAMES[before.color]} in force): no match (R5)", st)
        if last_drawn >= 0 and k != last_drawn:
            _fail(where, f"seat {a} drew {cards.name(last_drawn)} but played {cards.name(k)} (R6)", st)
        if k == cards.WILD_DRAW4 and rules.b0_only and rules.restricted and before.cur_has_color:
            _fail(where, f"B0 seat {a} bluffed a Wild Draw Four (R8, B0)", st)
        return


def check_end(st: np.ndarray, rules: Rules, where: str) -> None:
    """The end of a hand (R12, R13, H13)."""
    n = rules.players
    sizes = st[L.S_HS0:L.S_HS0 + n]
    w = int(st[L.S_WINNER])
    stalled = bool(st[L.S_STALLED])
    if stalled != (w == -1):
        _fail(where, "stalled must be exactly the hands without a winner (R13)", st)
    if stalled and st[L.S_TURNS] != rules.max_turns:
        _fail(where, f"stalled after {st[L.S_TURNS]} turns, max_turns is {rules.max_turns}", st)
    if not stalled:
        if sizes[w] != 0:
            _fail(where, f"winner {w} still holds {sizes[w]} cards (R12)", st)
        if rules.first_out and (np.delete(sizes, w) == 0).any():
            _fail(where, "a player other than the winner has no cards", st)


def _grow_log(log: np.ndarray, used: int) -> np.ndarray:
    if used * 2 < log.shape[0]:
        return log
    bigger = np.zeros((log.shape[0] * 4, L.LOG_WIDTH), np.int64)
    bigger[:used] = log[:used]
    return bigger


def play_hand_checked(cfg: RulesConfig, seed: int, index: int, *, P: np.ndarray | None = None) -> HandResult:
    """Play hand ``index`` of a run of ``cfg`` with ``seed`` one step at a time, checking
    every invariant after the deal, the first card and each step; raise InvariantError."""
    P = to_params(cfg) if P is None else P
    ctx = None
    if search_batch.has_search(P):  # search seats: the search table's step, its streams as the kernel's
        P, ctx = search_batch.split_params(P)
        ctx[search.C_SEED] = np.array([stream_start(seed, search_batch.STREAM_SEARCH, index)], np.uint64).view(np.int64)[0]
    rules = Rules.of(cfg)
    n = rules.players
    deck = cards.deck_counts(rules.decks)
    st = np.zeros(L.N_STATE, np.int64)
    rng = np.zeros(1, np.uint64)
    log = np.zeros((4096, L.LOG_WIDTH), np.int64)
    rng[0] = stream_start(seed, B.STREAM_HANDS, index)
    dealer = int(B.hand_dealer(P, rng, index))
    where = f"{cfg.name} seed={seed} hand={index}"
    if not 0 <= dealer < n:
        raise InvariantError(f"{where}: dealer {dealer} is not a seat (R4)")

    H.reset(st, P, dealer)
    H.build_deck(st, P)
    if not np.array_equal(np.bincount(st[L.S_DRAW0:L.S_DRAW0 + st[L.S_NDRAW]], minlength=L.N_KINDS), deck):
        raise InvariantError(f"{where}: the built deck is not the R1 deck")
    H.deal(st, P, rng, log)
    sizes = st[L.S_HS0:L.S_HS0 + n]
    if (sizes != rules.hand_size).any() or st[L.S_NDRAW] != deck.sum() - n * rules.hand_size:
        _fail(f"{where} deal", "R2: every hand gets hand_size cards, the rest is the draw pile", st)
    H.turn_first_card(st, P, rng, log)
    if st[L.S_NDISC] != 1 or st[L.S_PLAYED] != 0 or st[L.S_TURNS] != 0 or st[L.S_FIRST] != st[L.S_CUR]:
        _fail(f"{where} first card", "R3: one turned card, nothing played, no turn taken", st)
    check_state(st, rules, deck, f"{where} first card")

    limit = 2 * rules.max_turns + 2  # a penalty resolved, then a turn; and the stall step
    steps = 0
    while not st[L.S_DONE]:
        if steps >= limit:
            _fail(where, f"not over after {steps} steps (R13: the hand must end)", st)
        log = _grow_log(log, int(st[L.S_NLOG]))
        before = Snapshot.of(st, n)
        saved = st.copy(), rng.copy(), None if ctx is None else ctx.copy()
        while True:
            if ctx is None:
                H.step(st, P, rng, log)
            else:
                search.step_at(st, P, rng, log, ctx)
            if st[L.S_NLOG] < log.shape[0]:
                break
            # the step filled the log (a long chain of jump-ins can log thousands of events
            # in one step) and may have lost events: play it again, deterministically, with
            # room for them
            st[:], rng[:] = saved[0], saved[1]
            if ctx is not None:
                ctx[:] = saved[2]
            bigger = np.zeros((log.shape[0] * 4, L.LOG_WIDTH), np.int64)
            bigger[:before.nlog] = log[:before.nlog]
            log = bigger
        steps += 1
        at = f"{where} step {steps}"
        check_state(st, rules, deck, at)
        check_step(st, rules, before, log[before.nlog:st[L.S_NLOG]], at)
    check_end(st, rules, where)

    row = B.new_out(1)
    B.write_row(st, P, row, 0, index)
    points = hands_of(st, n) @ rules.points
    if not np.array_equal(row[0, L.O_POINTS0:L.O_POINTS0 + n], points):
        raise InvariantError(f"{where}: points_<s> {row[0, L.O_POINTS0:L.O_POINTS0 + n].tolist()} "
                             f"!= the cards left ({points.tolist()}) (R1)")
    return HandResult(seed, index, st, steps, log[:st[L.S_NLOG]].copy(), row[0])


def batch_rows(cfg: RulesConfig, seed: int, start: int, count: int, *, P: np.ndarray | None = None) -> np.ndarray:
    """Rows ``start .. start+count-1`` of a run, from the parallel batch kernel."""
    P = to_params(cfg) if P is None else P
    out = B.new_out(count)
    if search_batch.has_search(P):
        search_batch.play_hands(*search_batch.split_params(P), seed, start, count, out, max(1, min(count, 8)))
    else:
        B.play_hands(P, seed, start, count, out, max(1, min(count, 8)))
    return out


def check_rows(out: np.ndarray, cfg: RulesConfig) -> None:
    """O1 consistency of batch rows (the kernel's int64 ``out`` array), whatever the seed."""
    rules = Rules.of(cfg)
    n = rules.players
    w = out[:, L.O_WINNER]
    stalled = out[:, L.O_STALLED] != 0
    pts = out[:, L.O_POINTS0:L.O_POINTS0 + n]
    crd = out[:, L.O_CARDS0:L.O_CARDS0 + n]
    idx = np.arange(len(out))

    def need(ok: np.ndarray | bool, what: str) -> None:
        bad = np.flatnonzero(~np.asarray(ok, bool) & np.ones(len(out), bool))
        if bad.size:
            raise InvariantError(f"{cfg.name}: {what}; first bad hand {int(out[bad[0], L.O_HAND])}: "
                                 f"{out[bad[0], :L.O_RANK0 + n].tolist()}")

    need(stalled == (w == -1), "stalled iff winner == -1 (R13)")
    need((w >= -1) & (w < n), "winner is a seat or -1")
    need(~stalled | (out[:, L.O_TURNS] == rules.max_turns), "a stalled hand took max_turns turns (R13)")
    need((out[:, L.O_TURNS] >= 1) & (out[:, L.O_TURNS] <= rules.max_turns), "1 <= turns <= max_turns")
    won = ~stalled
    need(~won | (crd[idx, np.maximum(w, 0)] == 0), "the winner holds no cards (R12)")
    if rules.first_out:
        others = (crd > 0) | (np.arange(n)[None, :] == w[:, None])
        need(~won | others.all(axis=1), "only the winner has no cards")
    need((crd >= 0).all(axis=1) & (pts >= 0).all(axis=1), "non-negative cards and points")
    need(((crd > 0) | (pts == 0)).all(axis=1), "no cards, no points (R1)")
    need((pts <= crd * int(rules.points.max())).all(axis=1), "points <= cards x the dearest card")
    need(crd.sum(axis=1) == n * rules.hand_size + out[:, L.O_DRAWN] - out[:, L.O_PLAYED],
         "cards in hands == dealt + cards_drawn - cards_played (O1)")
    if rules.one_card_per_step:
        need(out[:, L.O_PLAYED] <= out[:, L.O_TURNS], "cards_played <= turns (one card per turn)")
    need((out[:, L.O_DEALER] >= 0) & (out[:, L.O_DEALER] < n), "dealer is a seat")
    if cfg.first_player == "after_dealer":  # H21 hands the first turn to the richest hand
        rel = (out[:, L.O_FIRST] - out[:, L.O_DEALER]) % n
        need((rel == 0) | (rel == 1) | (rel == 2 % n), "first player: dealer, dealer+1 or dealer+2 (R3)")
    need((cfg.uno_false_call > 0) | (out[:, L.O_FALSE_CALLS] == 0), "no false call without H23")
    need((cfg.misplay > 0) | (out[:, L.O_MISPLAYS] == 0), "no misplay without H24")
    need(out[:, L.O_MISPLAYS] <= out[:, L.O_TURNS], "at most one misplay a turn (H24)")
    need(out[:, L.O_MAX_DRAW] <= out[:, L.O_DRAWN], "max_draw <= cards_drawn")
    need(out[:, L.O_UNO_PENALTIES] * 2 <= out[:, L.O_DRAWN], "each caught UNO draws up to 2")
    need(out[:, L.O_MULTI_PLAYS] * 2 <= out[:, L.O_PLAYED], "a multi-play puts down 2+ cards (H6)")
    need((cfg.multi_play != "none") | (out[:, L.O_MULTI_PLAYS] == 0), "no multi-play without H6")
    need(out[:, L.O_VOL_DRAWS] <= out[:, L.O_TURNS], "at most one voluntary draw a turn (R7)")
    need(cfg.voluntary_draw | (out[:, L.O_VOL_DRAWS] == 0), "no voluntary draw under forced play (H8)")
    teams = cfg.teams
    need(out[:, L.O_WIN_TEAM] == np.where(won, w % teams, -1), "winning_team == winner mod teams")


def check_config(cfg: RulesConfig, seed: int, hands: int, start: int = 0) -> list[HandResult]:
    """Play ``hands`` hands step by step with every check, and require that each ends in
    exactly the row the batch kernel writes for it (same seed, same index)."""
    P = to_params(cfg)
    rows = batch_rows(cfg, seed, start, hands, P=P)
    check_rows(rows, cfg)
    results = []
    for i in range(hands):
        r = play_hand_checked(cfg, seed, start + i, P=P)
        if not np.array_equal(r.row, rows[i]):
            cols = [name for name, j in L.HAND_COLUMNS if r.row[j] != rows[i, j]]
            raise InvariantError(f"{cfg.name} seed={seed} hand={start + i}: the stepwise hand and "
                                 f"the batch row differ in {cols or 'per-seat columns'}")
        results.append(r)
    return results


__all__ = ["HandResult", "InvariantError", "Rules", "batch_rows", "check_config", "check_end", "key_values",
           "check_rows", "check_state", "check_step", "hands_of", "kind_counts", "play_hand_checked"]
