"""Named codes: every choice of every enum config key, as the integer the kernel reads.

Made from the registry (:mod:`unosim.rules.keys`): key ``stacking`` gives ``Stacking``,
whose fields are the key's choices numbered 0, 1, 2, ... in their order there.  Compiled
code compares with the names, ``rule(st, P_STACKING) == Stacking.draw2``: numba treats a
module-level namedtuple instance as a compile-time constant, so a name costs nothing.

Card kinds are in :mod:`unosim.rules.cards`, strategy codes in :mod:`unosim.rules.strategies`.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from unosim.rules.keys import REGISTRY


def _codes(key: str, choices: tuple[str, ...]) -> Any:
    """A NamedTuple instance named after ``key`` (``two_player_reverse`` ->
    ``TwoPlayerReverse``) whose fields are ``choices`` and whose values are 0, 1, 2, ..."""
    name = "".join(part.capitalize() for part in key.split("_"))
    return namedtuple(name, choices)(*range(len(choices)))


ENUMS: dict[str, Any] = {k.name: _codes(k.name, k.choices) for k in REGISTRY if k.type == "enum"}
"""Every enum config key by its bare name, with its codes."""

globals().update({type(c).__name__: c for c in ENUMS.values()})  # Stacking, Deflect, ...
__all__ = ["ENUMS", *(type(c).__name__ for c in ENUMS.values())]
