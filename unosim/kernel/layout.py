"""Where everything lives in the kernel's three flat arrays.

The compiled core keeps no objects: a hand in progress is one int64 vector ``st``
(scalars, then per-seat hand counts, piles and ranks at fixed offsets), the rules are
one float64 vector ``P`` built once from the config, and each finished hand is one int64
row of ``out``.  Numba folds these module-level integers into the machine code as
constants, so naming a slot costs nothing at run time.  Moving an ``out`` column, or
changing what the kernel computes, changes results: bump :data:`ENGINE_VERSION` (stored
in every output file); moving an ``st`` slot does not.
"""

from __future__ import annotations

from unosim.rules.cards import N_KINDS
from unosim.rules.keys import REGISTRY, Counter
from unosim.rules.params import MAX_CARDS, MAX_PLAYERS, P_SCORE0

ENGINE_VERSION = 19

# --------------------------------------------------------------------------- st: a hand
S_NP = 0          # players at the table
S_CUR = 1         # seat about to act
S_DIR = 2         # +1 clockwise, -1 anticlockwise
S_COLOR = 3       # colour in force (the named colour after a wild)
S_TOP = 4         # kind on top of the discard pile
S_NDRAW = 5       # cards in the draw pile
S_NDISC = 6       # cards in the discard pile
S_DEALER = 7
S_FIRST = 8       # seat that took the first turn
S_TURNS = 9       # O1 counters from here ...
S_PLAYED = 10
S_DRAWN = 11
S_RESHUFFLES = 12
S_CHALLENGES = 13
S_UNO_PENALTIES = 14
S_WINNER = 15     # -1 while nobody is out / stalled
S_STALLED = 16
S_DONE = 17
S_PENDING = 18    # cards the seat S_CUR must draw (a penalty, or a stack total)    H1
S_PENDING_KIND = 19  # draw card the seat S_CUR faces (R9, H1), -1 for none
S_BLUFF = 20      # 1 if the pending Wild Draw Four was played illegally (R8)
S_BLUFFER = 21    # seat that played the pending Wild Draw Four
S_STACK_LEN = 22  # cards in the current stack                                   H1
S_LONGEST_STACK = 23
S_STACK_DRAWN = 24
S_JUMP_INS = 25   #                                                              H2
S_SWAPS = 26      #                                                              H4
S_PASSES = 27     #                                                              H4
S_SLAPS = 28      #                                                              H10
S_NOISES = 29     #                                                              H11
S_SILENT = 30     # seat keeping a silence, -1 for none                          H11
S_IN = 31         # players still in the hand                                    H13
S_MAX_DRAW = 32   # largest number of cards drawn at once
S_NLOG = 33       # events written to the trace log
S_TOTAL = 34      # cards in play (deck size), for invariant checks
S_GIVEAWAYS = 35  #                                                              H5
S_LAST_PLAYER = 36  # seat that put the top card down (-1: the turned card)
S_AS_WILD = 37    # 1 while a drawn Wild Draw Four acts as a plain Wild (E3)
S_LOGCAP = 38     # events the trace log can hold when it is passed as a pointer (kept by reset)
S_MULTI_PLAYS = 39    # plays of 2+ cards at once                                H6
S_VOL_DRAWS = 40      # draws in turn while holding a legal card                 R7 (H8 forbids)
S_FALSE_CALLS = 41    # wrong UNO calls, each caught (2 cards)                   H23
S_MISPLAYS = 42       # illegal cards put down by mistake and taken back (1 card) H24
S_PREV_COLOR = 43     # colour in force before the last Wild Draw Four went down  H22
S_PREV_TOP = 44       # the top card before it                                    H22
S_PLAY_CARDS = 45     # cards of the play that last added to the pending draw    H25
S_TARGET = 46         # a search seat's swap or giveaway target for its play (table.leave_choice)  H4 H5
S_PLAN = 47           # a search seat's multi-play for its play: 0 alone, 1 its whole group  H6
S_JUMPERS = 48        # seats (bit q) whose jump-ins a search decides: an H2 window waits for them  H2
S_HELD = 49           # 1 + the card of an H2 window that waits for them (engine.jump.hold), 0: none
S_HELD_FIRST = 50     # the waiting window: who put down the card that opened it ...
S_HELD_COUNT = 51     # ... how many cards they put down ...
S_HELD_LAST = 52      # ... who played last in its chain ...
S_HELD_MULT = 53      # ... and the draw penalties that add up so far (jump_in_stack)
S_JUMP_SAID = 54      # seats (bit q) whose answer to the window's next round is given ...
S_JUMP_YES = 55       # ... and those of them who jump
S_RULE_STATE0 = 56    # then the slots the rules declare (keys.Key.state), in switch order
_RULES = sorted((k for k in REGISTRY if k.switch is not None), key=lambda k: k.switch)
_RULE_STATE = tuple(name for k in _RULES for name, _ in k.state)
globals().update({"S_" + n: S_RULE_STATE0 + i for i, n in enumerate(_RULE_STATE)})  # S_DEFLECTIONS, ...
S_PILE_KNOWN = S_RULE_STATE0 + len(_RULE_STATE)  # cards on top of the draw pile in a known order (kernel.piles)
S_SEEN = S_PILE_KNOWN + 1       # coloured cards put down since the last reshuffle, 8 bits a colour (bots.counter)
S_NAMED = S_SEEN + 1            # colours named with the last two wilds: 16 x (last but one + 1) + (last + 1)
S_HS0 = S_NAMED + 1             # hand sizes, one per seat
S_RANK0 = S_HS0 + MAX_PLAYERS    # finishing rank, 0 = still in                 H13
S_SCR0 = S_RANK0 + MAX_PLAYERS   # per-seat scratch: jump-in candidates (H2), a multi-play plan (H6)
S_COLOURS0 = S_SCR0 + MAX_PLAYERS  # per seat: its cards of each colour, COLOUR_BITS each (kernel.table.add_card)
S_HAND0 = S_COLOURS0 + MAX_PLAYERS  # per seat N_KINDS counts
S_DRAW0 = S_HAND0 + MAX_PLAYERS * N_KINDS  # draw pile, top at S_NDRAW - 1
S_DISC0 = S_DRAW0 + MAX_CARDS              # discard pile, top at S_NDISC - 1
S_SCORE0 = S_DISC0 + MAX_CARDS   # N_KINDS points per kind, P_SCORE0 as integers (load_rules)
S_RULE0 = S_SCORE0 + N_KINDS    # P[0:P_SCORE0] as integers (load_rules): the switches, read every turn
S_BOT0 = S_RULE0 + P_SCORE0          # per seat: its strategy code, as P_BOT0 + seat * BOT_STRIDE (load_rules)
N_STATE = S_BOT0 + MAX_PLAYERS


COLOUR_BITS = 12
"""Width of one colour's count in ``st[S_COLOURS0 + seat]``: colours 0-3, then the wilds
as colour 4, so a colour's count is a shift and a mask, not a sum over its 13 kinds."""


# --------------------------------------------------------------------------- the hand's counters
# The one list of counters (keys.Counter), in file order: the engine's own, then those the
# rules declare, in switch order.  The row writer copies it, ``HAND_COLUMNS`` names it, and
# docs/data.md (unosim.run.columns), the reports' counter sets and the invariant harness
# read it; an engine counter is an ``S_`` slot above and one record here.
COUNTERS = (
    Counter("turns", "TURNS", "length", "O1 R13", "turns", "turns played"),
    Counter("cards_played", "PLAYED", "length", "O1", "cards", "cards put on the discard pile (not the turned first card)"),
    Counter("cards_drawn", "DRAWN", "base", "O1", "cards", "cards drawn from the draw pile after the deal"),
    Counter("reshuffles", "RESHUFFLES", "base", "R11", "count",
            "times the discard pile was shuffled into a new draw pile"),
    Counter("challenges", "CHALLENGES", "base", "R8 H9 H22", "count", "Wild Draw Four challenges"),
    Counter("uno_penalties", "UNO_PENALTIES", "base", "R10", "count", "UNO penalties drawn"),
    Counter("longest_stack", "LONGEST_STACK", "house", "H1 H25", "cards", "the largest stacked penalty of the hand",
            maximum=True),
    Counter("stack_drawn", "STACK_DRAWN", "house", "H1 H25", "cards", "cards drawn as stacked penalties"),
    Counter("jump_ins", "JUMP_INS", "house", "H2", "count", "jump-ins"),
    Counter("swaps", "SWAPS", "house", "H4", "count", "hands swapped on a 7"),
    Counter("passes", "PASSES", "house", "H4", "count", "hands passed on a 0"),
    Counter("slaps", "SLAPS", "house", "H10", "count", "slap rounds"),
    Counter("noises", "NOISES", "house", "H11", "count", "silences broken"),
    Counter("giveaways", "GIVEAWAYS", "house", "H5", "count", "red-zero giveaways"),
    Counter("max_draw", "MAX_DRAW", "house", "O1", "cards", "the most cards drawn at once", maximum=True),
    Counter("multi_plays", "MULTI_PLAYS", "house", "H6", "count", "plays of two or more cards at once"),
    Counter("voluntary_draws", "VOL_DRAWS", "house", "R7 H8", "count", "draws while holding a card that could be played"),
    Counter("false_calls", "FALSE_CALLS", "house", "H23", "count", "wrong UNO calls"),
    Counter("misplays", "MISPLAYS", "house", "H24", "count", "cards put down by mistake"),
) + tuple(c for k in _RULES for c in k.counters)
N_COUNTERS = len(COUNTERS)
COUNTER_SLOTS = tuple(globals()["S_" + c.name] for c in COUNTERS)
"""``st`` slot of each counter, in file order: what the row writer copies."""

# --------------------------------------------------------------------------- out: one row per hand
O_HAND = 0
O_DEALER = 1
O_FIRST = 2
O_WINNER = 3
O_WIN_TEAM = 4
O_STALLED = 5
O_COUNTER0 = 6   # the counters, in COUNTERS order: O_<name> = O_COUNTER0 + its index
for _i, _c in enumerate(COUNTERS):
    globals()["O_" + _c.name] = O_COUNTER0 + _i  # O_TURNS, O_PLAYED, ... as plain module integers
O_POINTS0 = O_COUNTER0 + N_COUNTERS
O_CARDS0 = O_POINTS0 + MAX_PLAYERS
O_RANK0 = O_CARDS0 + MAX_PLAYERS
N_OUT = O_RANK0 + MAX_PLAYERS

HAND_STRIDE = 1_000_000
"""The ``hand`` column of a match or tournament run is ``sequence * HAND_STRIDE + k``, ``k``
the hand's place in its match (tournament): unique, readable (match 12, hand 7 ->
12000007) and independent of chunking; ``max_hands`` may not exceed it.  Split runs
(seating.py) seed hand ``k`` of a sequence from the same number."""
MAX_SEQUENCES = 2**63 // HAND_STRIDE
"""Matches (tournaments) a run may number: the hand column stays an int64."""

# Column names in file order; per-seat columns are added for the seats at the table.
HAND_COLUMNS = (
    ("hand", O_HAND), ("dealer", O_DEALER), ("first_player", O_FIRST), ("winner", O_WINNER),
    ("winning_team", O_WIN_TEAM), ("stalled", O_STALLED),
) + tuple((c.column, O_COUNTER0 + i) for i, c in enumerate(COUNTERS))
SEAT_COLUMNS = (("points", O_POINTS0), ("cards", O_CARDS0), ("rank", O_RANK0))

_STATE = {v: k for k, v in globals().items() if k.startswith("S_") and isinstance(v, int) and v < S_HS0}
assert len(set(COUNTER_SLOTS)) == N_COUNTERS and all(_STATE[s] == "S_" + c.name for s, c in zip(COUNTER_SLOTS, COUNTERS)), \
    "every counter has an st slot of its own below S_HS0"
assert len({c.column for c in COUNTERS} | {n for n, _ in HAND_COLUMNS[:6]}) == len(HAND_COLUMNS)
del _i, _c, _STATE

# --------------------------------------------------------------------------- trace events
EV_DEAL = 1         # seat, kind dealt
EV_TURN_UP = 2      # kind turned to start the discard pile
EV_RETURN = 3       # kind put back into the draw pile (R3, H16)
EV_PLAY = 4         # seat, kind, colour named (or -1)
EV_DRAW = 5         # seat, kind, reason
EV_PASS = 6         # seat (nothing to draw, R11)
EV_SKIPPED = 7      # seat
EV_REVERSE = 8      # new direction
EV_PENALTY = 9      # seat, cards, reason
EV_CHALLENGE = 10   # challenger, bluffer, 1 if the bluff was proven
EV_UNO = 11         # seat, forgot, caught
EV_OUT = 12         # seat, rank
EV_STALL = 13
EV_RESHUFFLE = 14   # cards reshuffled into a new draw pile
EV_KEEP = 15        # seat keeps the drawn card
EV_JUMP = 16        # seat, kind
EV_STACK = 17       # seat, kind, running total
EV_SWAP = 18        # seat, other seat
EV_PASS_HANDS = 19  # direction
EV_GIVEAWAY = 20    # seat, to seat, cards given
EV_SLAP = 21        # slowest seat
EV_NOISE = 22       # seat
EV_SILENCE = 23     # keeper
EV_END = 24         # winner (-1 stalled)
EV_FACING = 25      # seat facing a stack, its total, cards in the stack (H1)
EV_TAKE_BACK = 26   # bluffer, kind taken back (H22)
EV_FALSE_CALL = 27  # seat (H23)
EV_MISPLAY = 28     # seat (H24)
EV_RULE0 = 29       # then the events the rules declare (keys.Key.events), in switch order
RULE_EVENTS = tuple(e for k in _RULES for e in k.events)
globals().update({"EV_" + e.name: EV_RULE0 + i for i, e in enumerate(RULE_EVENTS)})  # EV_DEFLECT, ...
LOG_WIDTH = 4

# draw reasons
DR_TURN = 0
DR_PENALTY = 1
DR_UNO = 2
DR_SLAP = 3
DR_NOISE = 4
DR_CHALLENGE = 5
DR_FALSE_CALL = 6
DR_MISPLAY = 7
