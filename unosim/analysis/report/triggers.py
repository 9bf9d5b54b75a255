"""Did a swept rule act at all?  The balance report's guard against reading "+0.00" as
"this rule changes nothing" when the rule never fired.

**never triggered**: the counter that shows the key acting (:data:`TRIGGERS`) is zero in
every hand; **no hand changed**: turns, winners and cards drawn equal the base's, hand for
hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from unosim.analysis.report.sources import Source
from unosim.analysis.report.stream import _iter_batches
from unosim.rules.keys import REGISTRY

NEVER_TRIGGERED = "never triggered"
NO_HAND_CHANGED = "no hand changed"

#: Columns whose hand-for-hand equality means the rule changed no hand's play.
FINGERPRINT_COLUMNS = ("hand", "turns", "winner", "cards_drawn")


@dataclass(frozen=True)
class Trigger:
    """Which counters show a key acting, read at which point, and above what value."""

    counters: tuple[str, ...]
    at_base: bool = False  # the rule forbids what the counters count: read the base point
    above: int = 0         # acted when some hand's counter exceeds this


#: Short key name (or ``name=value`` for one value) -> the counter(s) that show it acting
#: (any of them).  Keys not listed
#: act on every hand by construction (draw amounts, first card...) and only get the
#: identical-hands check.
TRIGGERS: dict[str, Trigger] = {
    "stacking": Trigger(("longest_stack",), above=1),                # H1
    "jump_in": Trigger(("jump_ins",)),                               # H2
    "jump_in_stack": Trigger(("jump_ins",)),                         # H2
    "seven_o": Trigger(("swaps", "passes")),                         # H4
    "red_zero=giveaway": Trigger(("giveaways",)),                    # H5 (draw10: hands check)
    "multi_play": Trigger(("multi_plays",)),                         # H6
    "voluntary_draw": Trigger(("voluntary_draws",), at_base=True),   # H8 forbids R7's choice
    "challenge": Trigger(("challenges",)),                           # R8
    "challenge_success_skip": Trigger(("challenges",)),              # H9
    "challenge_extra": Trigger(("challenges",)),                     # H18
    "slap_rank": Trigger(("slaps",)),                                # H10
    "silent_rank": Trigger(("noises",)),                             # H11
    "noise_chance": Trigger(("noises",)),                            # H11
    "bluff_penalty": Trigger(("challenges",)),                       # H22 acts on a proven bluff
    "uno_false_call": Trigger(("false_calls",)),                     # H23
    "misplay": Trigger(("misplays",)),                               # H24
    **{k.name: Trigger(k.acts) for k in REGISTRY if k.acts},         # what the rules declare (keys.Key.acts)
}


def trigger_of(change: str) -> Trigger | None:
    """The trigger of a change ``rules.red_zero=giveaway`` (full or short key, with its
    value or not), None if unlisted."""
    short = change.rsplit("=", 1)[0].rsplit(".", 1)[-1]
    value = change.rsplit("=", 1)[1].lower() if "=" in change else None
    return TRIGGERS.get(f"{short}={value}") or TRIGGERS.get(short)


def counter_max(src: Source, cols: Sequence[str]) -> dict[str, int]:
    """The largest value of each counter over the source's hands (absent columns left out:
    files written before the counter existed cannot say)."""
    out: dict[str, int] = {}
    for batch in _iter_batches(src, [c for c in cols if c in src.names]):
        for c, v in batch.items():
            if len(v):
                out[c] = max(out.get(c, 0), int(np.max(v)))
            else:
                out.setdefault(c, 0)
    return out


def fingerprint(src: Source) -> str:
    """A digest of :data:`FINGERPRINT_COLUMNS`, hand by hand in file order."""
    h = hashlib.sha1()
    for batch in _iter_batches(src, FINGERPRINT_COLUMNS):
        for c in FINGERPRINT_COLUMNS:
            if c in batch:
                h.update(c.encode())
                h.update(np.ascontiguousarray(batch[c], dtype=np.int64).tobytes())
    return h.hexdigest()


def status(point: Source, base: Source, keys: Sequence[str], cache: dict[str, str]) -> str:
    """``NEVER_TRIGGERED``, ``NO_HAND_CHANGED`` or "" for a point (its changes ``keys``)
    against its base point; ``cache`` keeps fingerprints by label."""
    trigs = [trigger_of(k) for k in keys]
    if keys and all(t is not None for t in trigs):
        acted = False
        for t in (t for t in trigs if t is not None):
            seen = counter_max(base if t.at_base else point, t.counters)
            if not seen or any(v > t.above for v in seen.values()):
                acted = True  # or unknown (an older file without the counter)
                break
        if not acted:
            return NEVER_TRIGGERED
    for s in (point, base):
        if s.label not in cache:
            cache[s.label] = fingerprint(s)
    return NO_HAND_CHANGED if cache[point.label] == cache[base.label] else ""
