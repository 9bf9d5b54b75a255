"""One entry point per decision, dispatching on the seat's strategy code.

The engine asks these functions and never a strategy directly, so a new strategy is a
new module plus one branch in each function here.  The strategy code and its
parameters sit in the rules vector at ``P_BOT0 + seat * BOT_STRIDE`` (config.py writes
them).  The engine trusts the answers only as far as the rules allow: it enforces
forced play (H8) here, and plays whatever legal card a strategy names.
"""

from numba import njit

from ..engine.layout import BOT_STRIDE, P_BOT0, P_TEAMS, P_VOLUNTARY_DRAW, S_SCR0
from . import random as b0


@njit(cache=True, inline="always")
def strategy(P, p):
    return int(P[P_BOT0 + p * BOT_STRIDE])


@njit(cache=True, inline="always")
def choose_play(st, P, rng, p):
    """The card p plays from hand, or -1 to draw (R5-R8).

    A strategy may return a card that only matches (a Wild Draw Four bluff under R8) or
    -1 while holding a legal card (R7); with ``voluntary_draw = false`` (H8) a -1 is
    replaced by B0's choice."""
    k = b0.choose_play(st, P, rng, p)
    if k < 0 and P[P_VOLUNTARY_DRAW] == 0.0:
        k = b0.choose_play(st, P, rng, p)
    return k


@njit(cache=True, inline="always")
def multi_plan(st, P, rng, p, k):
    """H6: which cards go down with k.  Writes per colour the number of cards of k's rank
    to play (k itself included) into ``st[S_SCR0 + colour]`` (wilds: slot 0 counts copies
    of k) and returns the colour of the card to end on top.  B0 plays the single card."""
    for c in range(4):
        st[S_SCR0 + c] = 0
    if k >= 52:
        st[S_SCR0] = 1
        return 0
    st[S_SCR0 + k // 13] = 1
    return k // 13


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


@njit(cache=True, inline="always")
def observe_play(st, P, p, k):
    """Every card put on the discard pile, for strategies that count cards (bot memory
    lives at ``S_MEM0``).  B0 remembers nothing."""
    return


@njit(cache=True, inline="always")
def observe_draw(st, P, p, k, reason):
    """Every card that reaches a hand from the draw pile (the drawer sees it)."""
    return
