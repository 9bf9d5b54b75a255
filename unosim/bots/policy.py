"""One entry point per decision, dispatching on the seat's strategy code.

The engine asks these functions and never a strategy directly, so a new strategy is a
new module plus one branch in each ``_other_*`` function here and one entry in
:data:`unosim.bots.STRATEGIES`.  The strategy code and its parameters sit in the rules
vector at ``P_BOT0 + seat * BOT_STRIDE`` (config.py writes them).  The engine trusts the
answers only as far as the rules allow: forced play (H8) is enforced here, and the
engine plays whatever card a strategy names, so strategies name only legal cards (or a
Wild Draw Four bluff, R8).

Each entry point is inlined into the engine with B0 (code 0) as its first branch, so a
table of reference bots runs B0's code exactly as before; every other strategy goes
through one out-of-line ``_other_*`` call, which keeps the engine's compiled size (and
compile time) from growing with the number of strategies.
"""

from numba import njit

from unosim.rules.params import P_TEAMS, P_VOLUNTARY_DRAW, P_WATCHERS
from unosim.kernel.layout import S_BOT0, S_NP, S_SCR0
from unosim.kernel.table import rule
from . import aggressor, color_keeper, counter, greedy, weights, wild_saver
from . import random as b0
from .common import fewest_cards_opponent

RANDOM = 0
GREEDY = 1
WILD_SAVER = 2
COLOR_KEEPER = 3
AGGRESSOR = 4
COUNTER = 5
WEIGHTS = 6


@njit(cache=True, inline="always")
def strategy(st, p):
    """Seat p's strategy code, from the copy reset() keeps in the state."""
    return st[S_BOT0 + p]


# --------------------------------------------------------------------------- out-of-line dispatch
@njit(cache=True)
def _other_play(st, P, rng, p, code):
    if code == GREEDY:
        return greedy.choose_play(st, P, rng, p)
    if code == WILD_SAVER:
        return wild_saver.choose_play(st, P, rng, p)
    if code == COLOR_KEEPER:
        return color_keeper.choose_play(st, P, rng, p)
    if code == AGGRESSOR:
        return aggressor.choose_play(st, P, rng, p)
    if code == COUNTER:
        return counter.choose_play(st, P, rng, p)
    if code == WEIGHTS:
        return weights.choose_play(st, P, rng, p)
    return b0.choose_play(st, P, rng, p)


@njit(cache=True)
def _other_multi(st, P, rng, p, k, code):
    if code == GREEDY:
        return greedy.multi_plan(st, P, rng, p, k)
    if code == WILD_SAVER:
        return wild_saver.multi_plan(st, P, rng, p, k)
    if code == COLOR_KEEPER:
        return color_keeper.multi_plan(st, P, rng, p, k)
    if code == AGGRESSOR:
        return aggressor.multi_plan(st, P, rng, p, k)
    if code == COUNTER:
        return counter.multi_plan(st, P, rng, p, k)
    return weights.multi_plan(st, P, rng, p, k)


@njit(cache=True)
def _other_color(st, P, rng, p, code):
    if code == GREEDY:
        return greedy.choose_color(st, P, rng, p)
    if code == WILD_SAVER:
        return wild_saver.choose_color(st, P, rng, p)
    if code == COLOR_KEEPER:
        return color_keeper.choose_color(st, P, rng, p)
    if code == AGGRESSOR:
        return aggressor.choose_color(st, P, rng, p)
    if code == COUNTER:
        return counter.choose_color(st, P, rng, p)
    if code == WEIGHTS:
        return weights.choose_color(st, P, rng, p)
    return b0.choose_color(st, P, rng, p)


@njit(cache=True)
def _other_play_drawn(st, P, rng, p, k, code):
    if code == GREEDY:
        return greedy.play_drawn(st, P, rng, p, k)
    if code == WILD_SAVER:
        return wild_saver.play_drawn(st, P, rng, p, k)
    if code == COLOR_KEEPER:
        return color_keeper.play_drawn(st, P, rng, p, k)
    if code == AGGRESSOR:
        return aggressor.play_drawn(st, P, rng, p, k)
    if code == COUNTER:
        return counter.play_drawn(st, P, rng, p, k)
    if code == WEIGHTS:
        return weights.play_drawn(st, P, rng, p, k)
    return True


@njit(cache=True)
def _other_challenge(st, P, rng, p, code):
    if code == GREEDY:
        return greedy.challenge(st, P, rng, p)
    if code == WILD_SAVER:
        return wild_saver.challenge(st, P, rng, p)
    if code == COLOR_KEEPER:
        return color_keeper.challenge(st, P, rng, p)
    if code == AGGRESSOR:
        return aggressor.challenge(st, P, rng, p)
    if code == COUNTER:
        return counter.challenge(st, P, rng, p)
    if code == WEIGHTS:
        return weights.challenge(st, P, rng, p)
    return False


@njit(cache=True)
def _other_stack(st, P, rng, p, code):
    if code == GREEDY:
        return greedy.choose_stack(st, P, rng, p)
    if code == WILD_SAVER:
        return wild_saver.choose_stack(st, P, rng, p)
    if code == COLOR_KEEPER:
        return color_keeper.choose_stack(st, P, rng, p)
    if code == AGGRESSOR:
        return aggressor.choose_stack(st, P, rng, p)
    if code == COUNTER:
        return counter.choose_stack(st, P, rng, p)
    if code == WEIGHTS:
        return weights.choose_stack(st, P, rng, p)
    return b0.choose_stack(st, P, rng, p)


@njit(cache=True)
def _other_jump(st, P, rng, p, k, code):
    if code == GREEDY:
        return greedy.wants_jump(st, P, rng, p, k)
    if code == WILD_SAVER:
        return wild_saver.wants_jump(st, P, rng, p, k)
    if code == COLOR_KEEPER:
        return color_keeper.wants_jump(st, P, rng, p, k)
    if code == AGGRESSOR:
        return aggressor.wants_jump(st, P, rng, p, k)
    if code == COUNTER:
        return counter.wants_jump(st, P, rng, p, k)
    if code == WEIGHTS:
        return weights.wants_jump(st, P, rng, p, k)
    return True


@njit(cache=True, inline="always")
def _observe_all(st, P, k):
    """Every counting seat sees k go on the pile (nothing to do without one: P_WATCHERS)."""
    if rule(st, P_WATCHERS) == 0:
        return
    for q in range(st[S_NP]):
        if strategy(st, q) == COUNTER:
            counter.observe(st, q, k)


# --------------------------------------------------------------------------- the hooks
@njit(cache=True, inline="always")
def choose_play(st, P, rng, p):
    """The card p plays from hand, or -1 to draw (R5-R8).

    A strategy may return a Wild Draw Four that only matches as a bluff (R8) or -1 while
    holding a legal card (R7); with ``voluntary_draw = false`` (H8) a -1 is replaced by
    B0's choice (which is -1 only when nothing is legal)."""
    code = strategy(st, p)
    if code == RANDOM:
        return b0.choose_play(st, P, rng, p)
    k = _other_play(st, P, rng, p, code)
    if k < 0 and rule(st, P_VOLUNTARY_DRAW) == 0:
        k = b0.choose_play(st, P, rng, p)
    return k


@njit(cache=True, inline="always")
def multi_plan(st, P, rng, p, k):
    """H6: which cards go down with k.  Writes per colour the number of cards of k's rank
    to play (k itself included) into ``st[S_SCR0 + colour]`` (wilds: slot 0 counts copies
    of k) and returns the colour of the card to end on top.  B0 plays the single card."""
    code = strategy(st, p)
    if code == RANDOM:
        return b0_multi_plan(st, k)
    return _other_multi(st, P, rng, p, k, code)


@njit(cache=True, inline="always")
def b0_multi_plan(st, k):
    """B0 under H6: the single chosen card."""
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
    code = strategy(st, p)
    if code == RANDOM:
        return b0.choose_color(st, P, rng, p)
    return _other_color(st, P, rng, p, code)


@njit(cache=True, inline="always")
def play_drawn(st, P, rng, p, k):
    """Whether p plays the legal card k just drawn when ``play_drawn = "may"`` (R6); B0 always does."""
    code = strategy(st, p)
    if code == RANDOM:
        return True
    return _other_play_drawn(st, P, rng, p, k, code)


@njit(cache=True, inline="always")
def challenge(st, P, rng, p):
    """Whether p challenges the Wild Draw Four it faces (R8); B0 never does."""
    code = strategy(st, p)
    if code == RANDOM:
        return False
    return _other_challenge(st, P, rng, p, code)


@njit(cache=True, inline="always")
def choose_stack(st, P, rng, p):
    """The card p stacks on a pending penalty, or -1 to draw the total (H1)."""
    code = strategy(st, p)
    if code == RANDOM:
        return b0.choose_stack(st, P, rng, p)
    return _other_stack(st, P, rng, p, code)


@njit(cache=True, inline="always")
def wants_jump(st, P, rng, p, k):
    """Whether p jumps in with k (H2); B0 always does."""
    code = strategy(st, p)
    if code == RANDOM:
        return True
    return _other_jump(st, P, rng, p, k, code)


@njit(cache=True, inline="always")
def choose_opponent(st, P, rng, p):
    """Whom p swaps with (H4) or gives cards to (H5): B0 uniformly, every other strategy
    the opponent with the fewest cards."""
    if strategy(st, p) == RANDOM:
        return b0.choose_opponent(st, P, rng, p, int(P[P_TEAMS]))
    return fewest_cards_opponent(st, P, rng, p)


@njit(cache=True, inline="always")
def observe_play(st, P, p, k):
    """Every card put on the discard pile (after the colour is named).  Counting
    strategies (``counter``) keep their memory at ``S_MEM0``; B0 remembers nothing."""
    _observe_all(st, P, k)


@njit(cache=True, inline="always")
def observe_draw(st, P, p, k, reason):
    """Every card that reaches a hand from the draw pile (the drawer sees it).  Declared
    for strategies to come; the engine does not call it yet."""
    return
