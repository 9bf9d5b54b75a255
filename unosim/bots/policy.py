"""One entry point per decision, dispatching on the seat's strategy code.

The engine asks these functions and never a strategy directly.  The strategy code sits
in the rules vector at ``P_BOT0 + seat * BOT_STRIDE`` (config.py writes it, load_rules()
copies it into the state).  The engine trusts the answers only as far as the rules allow:
forced play (H8) is enforced here, and the engine plays whatever card a strategy names,
so strategies name only legal cards (or a Wild Draw Four bluff, R8).

Each entry point is inlined into the engine with B0 (``Strategy.random``) as its first
branch, so a table of reference bots runs B0's code exactly as it is; every other
strategy goes through one out-of-line call of :mod:`unosim.bots.best`, whose shared loops
ask the strategy's scores, which keeps the engine's compiled size (and compile time)
from growing with the number of strategies.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import S_BOT0, S_PENDING_KIND, S_SCR0
from unosim.families.stacking import can_stack
from unosim.kernel.moves import group_size
from unosim.kernel.table import kind_colour, rule
from unosim.kernel.rng import chance
from unosim.rules.cards import N_COLORS, WILD, WILD_DRAW4
from unosim.rules.codes import MultiPlay, Stacking
from unosim.rules.params import P_MULTI_PLAY, P_STACKING, P_TEAMS, P_VOLUNTARY_DRAW, P_WATCHERS
from unosim.rules.strategies import NEVER_DECLINE, Strategy
from . import best, counter
from . import random as b0
from .common import Ask, fewest_cards_opponent, maybe_bluff, param, plan_all

RULES = ("H8",)

NEVER_DECLINES = sum(1 << getattr(Strategy, name) for name in NEVER_DECLINE)  # bit per code


@jit(inline=True)
def strategy(st, p):
    """Seat p's strategy code, from the copy load_rules() keeps in the state."""
    return st[S_BOT0 + p]


@jit(inline=True)
def choose_play(st, P, rng, p):
    """The card p plays from hand, or -1 to draw (R5-R8).

    A strategy may return a Wild Draw Four that only matches as a bluff (R8) or -1 while
    holding a legal card (R7); with ``voluntary_draw = false`` (H8) a -1 is replaced by
    B0's choice (which is -1 only when nothing is legal)."""
    code = strategy(st, p)
    if code == Strategy.random:
        rate = param(P, p, b0.BLUFF_RATE)
        if rate > 0.0 and maybe_bluff(st, P, rng, p, rate):  # at rate 0 no random number is drawn
            return WILD_DRAW4
        return b0.choose_play(st, P, rng, p)
    k = best.choose_play(st, P, rng, p, code)
    if k < 0 and rule(st, P_VOLUNTARY_DRAW) == 0:
        k = b0.choose_play(st, P, rng, p)
    return k


@jit(inline=True)
def may_draw_holding(st, P, p, searched):
    """Whether p's draw can be a draw while holding a legal card (R7): never under forced
    play (H8), where a -1 is B0's; always when a search chose it (``searched``: its seat's
    code is its rollout bot's); else only for a strategy outside ``NEVER_DECLINE``.  The
    engine scans the hand for the O1 ``voluntary_draws`` count only when the answer could
    be yes."""
    return rule(st, P_VOLUNTARY_DRAW) != 0 and (searched or ((NEVER_DECLINES >> strategy(st, p)) & 1) == 0)


@jit(inline=True)
def multi_plan(st, P, rng, p, k):
    """H6: which cards go down with k, in turn or as a stack.  Writes per colour the number
    of cards of k's rank to play (k itself included) into ``st[S_SCR0 + colour]`` (wilds:
    slot 0 counts copies of k) and returns the colour of the card to end on top.

    Under H25 a card that does not answer alone goes down with its whole group (no random
    number for the choice).  B0 plays the single card, or at its ``multi_rate`` (after
    its choice of card; no random number at rate 0 or when nothing may go with k) every
    card H6 lets go with it.  ``rlcard_random`` has B0's answers where RLCard has no
    action (a single card).  Every other strategy sheds all it may, with at most its
    ``max_wilds`` wilds, in turn and on an H25 stack; on an H1 stack it puts down the one
    card it chose."""
    code = strategy(st, p)
    stack = st[S_PENDING_KIND] >= 0
    if stack and rule(st, P_STACKING) == Stacking.amount and not can_stack(st, P, k):
        return b0.group_plan(st, P, rng, p, k)
    if code == Strategy.random:
        rate = param(P, p, b0.MULTI_RATE)
        if rate > 0.0 and group_size(st, P, p, k) > 1 and chance(rng, rate):
            return b0.group_plan(st, P, rng, p, k)
        return b0_multi_plan(st, k)
    if code == Strategy.rlcard_random or (stack and rule(st, P_STACKING) != Stacking.amount):
        return b0_multi_plan(st, k)
    return plan_all(st, P, rng, p, k, int(best.answer(st, P, rng, p, code, Ask.max_wilds, k)))


@jit(inline=True)
def chosen_plan(st, P, rng, p, k, whole):
    """H6 as a search seat chose it with its card: k alone, or with every card H6 lets go
    with it (``whole``; the colour on top as B0 picks it)."""
    if whole:
        return b0.group_plan(st, P, rng, p, k)
    return b0_multi_plan(st, k)


@jit(inline=True)
def b0_multi_plan(st, k):
    """The single chosen card (B0 under H6 at its ``multi_rate``'s default)."""
    for c in range(N_COLORS):
        st[S_SCR0 + c] = 0
    if k >= WILD:
        st[S_SCR0] = 1
        return 0
    st[S_SCR0 + kind_colour(k)] = 1
    return kind_colour(k)


@jit(inline=True)
def choose_color(st, P, rng, p):
    """The colour p names after a wild (R9)."""
    code = strategy(st, p)
    return b0.choose_color(st, P, rng, p) if code == Strategy.random else best.choose_colour(st, P, rng, p, code)


@jit(inline=True)
def agrees(st, P, rng, p, ask, k, b0_answer):
    """A yes/no question ``ask`` about k: B0 answers ``b0_answer``, others by their score."""
    code = strategy(st, p)
    if code == Strategy.random:
        return b0_answer
    return best.answer(st, P, rng, p, code, ask, k) > 0.0


@jit(inline=True)
def play_drawn(st, P, rng, p, k):
    """Whether p plays the legal card k just drawn when ``play_drawn = "may"`` (R6); B0 always does."""
    return agrees(st, P, rng, p, Ask.drawn, k, True)


@jit(inline=True)
def challenge(st, P, rng, p):
    """Whether p challenges the Wild Draw Four it faces (R8); B0 at its ``challenge_rate``
    (default 0: never, and no random number drawn)."""
    code = strategy(st, p)
    if code == Strategy.random:
        rate = param(P, p, b0.CHALLENGE_RATE)
        return rate > 0.0 and chance(rng, rate)
    return best.answer(st, P, rng, p, code, Ask.challenge, -1) > 0.0


@jit()
def choose_replacement(st, P, rng, p, c):
    """H22: the card of colour c that p puts down instead of the Wild Draw Four it takes
    back: B0 (and ``rlcard_random``) uniformly among its physical cards of that colour,
    every other strategy its best-scoring one; -1 if it holds none."""
    code = strategy(st, p)
    if code == Strategy.random or code == Strategy.rlcard_random:
        return b0.choose_replacement(st, rng, p, c)
    return best.choose_replacement(st, P, rng, p, code, c)


@jit(inline=True)
def choose_stack(st, P, rng, p):
    """The card p stacks on a pending draw or deflects it with, or -1 to draw the total
    (H1, H25, H26).

    Under H25 with H6, B0 with a ``multi_rate`` above 0 also counts the cards that answer
    only with their whole group; every strategy but B0 and ``rlcard_random`` falls back on
    such a group when no single card of its own answers (:func:`multi_plan` then puts the
    whole group down)."""
    code = strategy(st, p)
    groups = rule(st, P_STACKING) == Stacking.amount and rule(st, P_MULTI_PLAY) != MultiPlay.none
    if code == Strategy.random:
        if groups and param(P, p, b0.MULTI_RATE) > 0.0:
            return b0.choose_stack_or_group(st, P, rng, p)
        return b0.choose_stack(st, P, rng, p)
    k = best.choose_stack(st, P, rng, p, code)
    if k < 0 and groups and code != Strategy.rlcard_random:
        k = b0.choose_stack_or_group(st, P, rng, p)
    return k


@jit(inline=True)
def wants_jump(st, P, rng, p, k):
    """Whether p jumps in with k (H2); B0 always does."""
    return agrees(st, P, rng, p, Ask.jump, k, True)


@jit(inline=True)
def choose_opponent(st, P, rng, p):
    """Whom p swaps with (H4) or gives cards to (H5): B0 (and ``rlcard_random``) uniformly,
    every other strategy the opponent with the fewest cards."""
    code = strategy(st, p)
    if code == Strategy.random or code == Strategy.rlcard_random:
        return b0.choose_opponent(st, P, rng, p, rule(st, P_TEAMS))
    return fewest_cards_opponent(st, P, rng, p)


@jit(inline=True)
def observe_play(st, k):
    """Every card put on the discard pile (after the colour is named).  A table with a
    watching seat (``P_WATCHERS``: a ``counter``, or a ``weights`` seat whose
    ``w_next_color_odds`` is non-zero) keeps ``counter``'s memory, once for all seats: it
    holds only what everyone saw.  A table of B0 bots pays one read per card."""
    if rule(st, P_WATCHERS) != 0:
        counter.observe(st, k)
