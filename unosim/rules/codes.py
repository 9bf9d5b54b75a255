"""Named codes: every choice of every enum config key, as the integer the kernel reads.

A config's enum value lands in ``P`` (and the state's integer copy at ``S_RULE0``) as its
index in the key's ``choices``; those choices are the ``_fields`` of the NamedTuples
below (:mod:`unosim.rules.config` builds them from here), so the order is defined once.
Compiled code compares with the names, ``rule(st, P_STACKING) == Stacking.draw2``: numba
treats a module-level namedtuple instance as a compile-time constant, so a name costs
nothing at run time (vectorbt's pattern).

Card kinds are in :mod:`unosim.rules.cards`, strategy codes in :mod:`unosim.rules.strategies`.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any


def _codes(name: str, choices: str) -> Any:
    """A NamedTuple instance whose fields are ``choices`` and whose values are 0, 1, 2, ..."""
    fields = choices.split()
    return namedtuple(name, fields)(*range(len(fields)))


Dealer = _codes("Dealer", "rotate winner random fixed")                 # R4 E4
FirstCard = _codes("FirstCard", "any number_only")                      # R3 H16
PlayDrawn = _codes("PlayDrawn", "may must never")                       # R6
WildDraw4 = _codes("WildDraw4", "restricted free last_resort")          # R8 E1
TwoPlayerReverse = _codes("TwoPlayerReverse", "skip none")              # R9 H14
DrawnMatch = _codes("DrawnMatch", "any color")                          # R6 E2
DrawnDraw4 = _codes("DrawnDraw4", "draw4 wild")                         # R6 E3
Stacking = _codes("Stacking", "none draw2 draw2_draw4 all amount")      # H1 H25
JumpIn = _codes("JumpIn", "none numbers colored all")                   # H2
JumpInStack = _codes("JumpInStack", "replace accumulate")               # H2
Draw = _codes("Draw", "one until_playable")                             # H3
RedZero = _codes("RedZero", "none draw10 giveaway")                     # H5
MultiPlay = _codes("MultiPlay", "none identical same_rank")             # H6
Finish = _codes("Finish", "first_out last_standing")                    # H13
TurnedReverse = _codes("TurnedReverse", "as_played dealer first_player")  # R3 E5
FirstPlayer = _codes("FirstPlayer", "after_dealer highest_points")      # R3 H21
BluffPenalty = _codes("BluffPenalty", "draw take_back")                 # R8 H22
Deflect = _codes("Deflect", "none reverse reverse_skip")                # H26

ENUMS: dict[str, Any] = {
    "dealer": Dealer, "first_card": FirstCard, "play_drawn": PlayDrawn, "wild_draw4": WildDraw4,
    "two_player_reverse": TwoPlayerReverse, "drawn_match": DrawnMatch, "drawn_draw4": DrawnDraw4,
    "stacking": Stacking, "jump_in": JumpIn, "jump_in_stack": JumpInStack, "draw": Draw,
    "red_zero": RedZero, "multi_play": MultiPlay, "finish": Finish, "turned_reverse": TurnedReverse,
    "first_player": FirstPlayer, "bluff_penalty": BluffPenalty, "deflect": Deflect,
}
"""Every enum config key by its bare name, with its codes (tests/test_codes.py checks the
registry against it)."""

__all__ = ["ENUMS", "BluffPenalty", "Dealer", "Deflect", "Draw", "DrawnDraw4", "DrawnMatch", "Finish", "FirstCard", "FirstPlayer", "JumpIn", "JumpInStack",
           "MultiPlay", "PlayDrawn", "RedZero", "Stacking", "TurnedReverse", "TwoPlayerReverse", "WildDraw4"]
