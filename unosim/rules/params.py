"""The rules as the kernel reads them: slots of the float64 vector ``P``.

A config (:mod:`unosim.rules.config`) is turned once into ``P``; every compiled function
reads its rule switches from these slots.  Numba folds module-level integers into the
machine code as constants, so naming a slot costs nothing at run time.  Changing a slot
changes results: bump ``ENGINE_VERSION`` (:mod:`unosim.kernel.layout`).
"""

from __future__ import annotations

from unosim.rules.cards import N_KINDS

MAX_PLAYERS = 10
MAX_CARDS = 216  # 108 x 2 decks

# --------------------------------------------------------------------------- P: rules
# The rule switches in slot order: a switch's slot is its place here and ``P_<NAME>`` is
# made from it (``P_STACKING``, ...).  Every name is a registry key (unosim.rules.keys takes
# the key's slot from here; how a value is encoded is :meth:`Key.encode`), but
# ``watchers``, which the seats' strategies set (strategies.WATCHERS).  A new key's switch
# goes at the end, so the others keep their slots.
SWITCHES = (
    "players", "decks", "hand_size", "dealer", "first_card", "first_draw2_skips", "play_drawn",
    "voluntary_draw", "wild_draw4", "challenge", "challenge_success_skip", "two_player_reverse",
    "uno_forget", "uno_caught", "max_turns", "draw2_amount", "draw4_amount", "challenge_extra",
    "zero_points", "match_target", "stacking", "jump_in", "jump_in_stack", "draw", "seven_o",
    "red_zero", "multi_play", "wild_last", "slap_rank", "silent_rank", "noise_chance", "teams",
    "finish", "drawn_match", "drawn_draw4", "watchers", "turned_reverse", "first_player",
    "bluff_penalty", "uno_false_call", "misplay", "deflect",
)
# Formats of play over many hands: read by the match and tournament loops between hands,
# never by a turn, so they sit after the bots' blocks (not copied into the hand's state).
FORMATS = ("chips_hands", "hands_per_round")

P_SCORE0 = 48            # N_KINDS points per kind (R1, H5, H17)
P_BOT0 = P_SCORE0 + N_KINDS  # per seat: strategy code (strategies.Strategy) then its parameters
BOT_STRIDE = 16


def seat_slots(seat: int) -> slice:
    """The ``BOT_STRIDE`` slots of ``P`` holding the bot at ``seat`` (its strategy code, then
    its parameters): the one place a seat's block is located."""
    return slice(P_BOT0 + seat * BOT_STRIDE, P_BOT0 + (seat + 1) * BOT_STRIDE)


P_FORMAT0 = P_BOT0 + MAX_PLAYERS * BOT_STRIDE
SLOTS = {**{n: i for i, n in enumerate(SWITCHES)}, **{n: P_FORMAT0 + i for i, n in enumerate(FORMATS)}}
"""Every named slot of ``P`` by key name."""
for _name, _slot in SLOTS.items():
    globals()["P_" + _name.upper()] = _slot  # module integers, which numba folds like any other
FORMAT_SLOTS = tuple(SLOTS[n] for n in FORMATS)

# Per seat, the bot a ``search`` seat plays its playouts with (strategy code, then its
# parameters, as a seat's block): a search seat's own block holds the search's parameters,
# so a tuned rollout bot needs room of its own.  Only the search's set-up reads it
# (engine.search_batch.split_params copies it into the seat's block); no turn does.
P_ROLLOUT0 = P_FORMAT0 + len(FORMATS)
N_PARAMS = P_ROLLOUT0 + MAX_PLAYERS * BOT_STRIDE


def rollout_slots(seat: int) -> slice:
    """The ``BOT_STRIDE`` slots of ``P`` holding the rollout bot of the search at ``seat``
    (unused for any other seat): it moves with the seat, like :func:`seat_slots`."""
    return slice(P_ROLLOUT0 + seat * BOT_STRIDE, P_ROLLOUT0 + (seat + 1) * BOT_STRIDE)
assert len(SWITCHES) <= P_SCORE0 and len(set(SWITCHES)) == len(SWITCHES)
del _name, _slot
