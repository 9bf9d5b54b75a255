"""What may answer a pending draw, once the chance to challenge it (R8) has passed: the
one question the engine, every bot and the search ask (a stack, H1 and H25, or a
deflection, H26)."""

from unosim.kernel.jit import jit
from unosim.kernel.table import rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, REVERSE, SKIP, STACK_KINDS
from unosim.rules.codes import Deflect, Stacking
from unosim.rules.params import P_DEFLECT, P_STACKING
from .deflect import deflect_copies
from .stacking import stack_copies

ANSWER_KINDS = STACK_KINDS + tuple(c * RANKS_PER_COLOR + r for r in (REVERSE, SKIP) for c in range(N_COLORS))
"""Every kind that may ever answer a pending draw: the draw cards first, in kind order
(as a scan of all 54 kinds meets them), then the Reverses and Skips."""


@jit(inline=True)
def answers_on(st):
    """Does any rule let a player answer a pending draw instead of drawing it?"""
    return rule(st, P_STACKING) != Stacking.none or rule(st, P_DEFLECT) != Deflect.none


@jit(inline=True)
def answer_copies(st, P, p, k):
    """Copies of k that p may put on the pending draw, one at a time: to stack or to deflect."""
    return stack_copies(st, P, p, k) + deflect_copies(st, p, k)
