"""One entry point per decision, dispatching on the seat's strategy code.

The engine asks these functions and never a strategy directly, so a new strategy is a
new module plus one branch here.  The strategy code and its parameters sit in the rules
vector at ``P_BOT0 + seat * BOT_STRIDE`` (config.py writes them).
"""

from numba import njit

from ..engine.layout import BOT_STRIDE, P_BOT0, P_TEAMS
from . import random as b0


@njit(cache=True, inline="always")
def strategy(P, p):
    return int(P[P_BOT0 + p * BOT_STRIDE])


@njit(cache=True, inline="always")
def choose_play(st, P, rng, p):
    """The card p plays from hand, or -1 to draw (R5-R8)."""
    return b0.choose_play(st, P, rng, p)


@njit(cache=True, inline="always")
def choose_color(st, P, rng, p):
    """The colour p names after a wild (R9)."""
    return b0.choose_color(st, P, rng, p)


@njit(cache=True, inline="always")
def play_drawn(st, P, rng, p, k):
    """Whether p plays the legal card k just drawn when ``play_drawn = "may"`` (R6); B0 always does."""
    return True


@njit(cache=True, inline="always")
def challenge(st, P, rng, p):
    """Whether p challenges the Wild Draw Four it faces (R8); B0 never does."""
    return False


@njit(cache=True, inline="always")
def choose_stack(st, P, rng, p):
    """The card p stacks on a pending penalty, or -1 to draw the total (H1)."""
    return b0.choose_stack(st, P, rng, p)


@njit(cache=True, inline="always")
def wants_jump(st, P, rng, p, k):
    """Whether p jumps in with k (H2); B0 always does."""
    return True


@njit(cache=True, inline="always")
def choose_opponent(st, P, rng, p):
    """Whom p swaps with (H4) or gives cards to (H5)."""
    return b0.choose_opponent(st, P, rng, p, int(P[P_TEAMS]))
