"""H26 deflect: facing a pending draw, a Reverse of the current colour (under
``reverse_skip`` also a Skip) passes the whole draw, not increased, to the next player:
in the new direction after a Reverse, in the same one after a Skip.

:func:`may_deflect` says which cards may; :func:`turn_away` and :func:`pass_on` are what
the card does once down.  The engine puts it down, calls UNO (R10) and ends the hand
(R12) as for any play (:func:`unosim.engine.hand.pass_play`); the card opens no
jump-in window (H2) and neither slaps (H10) nor starts a silence (H11).  The rule's key,
slots, counter and trace event are its record in :mod:`unosim.rules.keys`.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import (EV_DEFLECT, EV_FACING, EV_REVERSE, N_KINDS, S_COLOR, S_CUR, S_DEFLECTED, S_DEFLECTIONS,
    S_DIR, S_HAND0, S_PENDING, S_STACK_LEN)
from unosim.kernel.table import kind_colour, kind_rank, log_event, next_seat, rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, REVERSE, SKIP, WILD
from unosim.rules.codes import Deflect
from unosim.rules.params import P_DEFLECT

RULES = ("H26",)


EVENT = EV_DEFLECT
KINDS = tuple(c * RANKS_PER_COLOR + r for r in (REVERSE, SKIP) for c in range(N_COLORS))
"""The kinds that may ever deflect: the Reverses, then the Skips."""


@jit(inline=True)
def on(st):
    """Is H26 in play?"""
    return rule(st, P_DEFLECT) != Deflect.none


@jit(inline=True)
def challengeable(st):
    """R8 with H26: a deflected Wild Draw Four may no longer be challenged."""
    return st[S_DEFLECTED] == 0


@jit(inline=True)
def settled(st):
    """The pending draw is settled: the next one starts undeflected."""
    st[S_DEFLECTED] = 0


@jit(inline=True)
def may_deflect(st, k):
    """May k deflect the pending draw: a Reverse (or, under ``reverse_skip``, a Skip) of
    the current colour, the named colour after a wild?"""
    mode = rule(st, P_DEFLECT)
    if mode == Deflect.none or k >= WILD or kind_colour(k) != st[S_COLOR]:
        return False
    r = kind_rank(k)
    return r == REVERSE or (r == SKIP and mode == Deflect.reverse_skip)


@jit(inline=True)
def deflect_copies(st, p, k):
    """Copies of k that p may deflect the pending draw with (always one at a time)."""
    if not may_deflect(st, k):
        return 0
    return st[S_HAND0 + p * N_KINDS + k]


@jit(inline=True)
def turn_away(st, log, k):
    """The deflecting card k is down: it is counted, the draw may no longer be challenged,
    and a Reverse flips the direction (with 2 players too: the draw goes back either way)."""
    st[S_DEFLECTIONS] += 1
    st[S_DEFLECTED] = 1
    if kind_rank(k) == REVERSE:
        st[S_DIR] = -st[S_DIR]
        log_event(st, log, EV_REVERSE, st[S_DIR], 0, 0)


@jit(inline=True)
def pass_on(st, log, p):
    """The pending draw passes to the seat after p, who faces it as p did."""
    st[S_CUR] = next_seat(st, p)
    log_event(st, log, EV_FACING, st[S_CUR], st[S_PENDING], st[S_STACK_LEN])
