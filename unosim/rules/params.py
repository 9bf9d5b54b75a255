"""The rules as the kernel reads them: slots of the float64 vector ``P``.

A config (:mod:`unosim.rules.config`) is turned once into ``P``; every compiled function
reads its rule switches from these slots.  Numba folds module-level integers into the
machine code as constants, so naming a slot costs nothing at run time.  Changing a slot
changes results: bump ``ENGINE_VERSION`` (:mod:`unosim.kernel.layout`).
"""

from __future__ import annotations

from unosim.rules.cards import MAX_CARDS, MAX_PLAYERS, N_KINDS
from unosim.rules.keys import REGISTRY

# --------------------------------------------------------------------------- P: rules
# The rule switches in slot order, each at the ``switch`` number of its registry record;
# ``P_<NAME>`` is made from it (``P_STACKING``, ...).  ``watchers`` is no key: the seats'
# strategies set it (strategies.WATCHERS).
_RESERVED = {35: "watchers"}
_BY_SLOT = {**{k.switch: k.name for k in REGISTRY if k.switch is not None}, **_RESERVED}
SWITCHES = tuple(_BY_SLOT[i] for i in range(len(_BY_SLOT)))
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
assert len(SWITCHES) <= P_SCORE0 and len(set(SWITCHES)) == len(SWITCHES) == len(_BY_SLOT)
del _name, _slot
