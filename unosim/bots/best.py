"""The shared best-choice loops: every strategy but B0 is its answers to :data:`Ask`.

A strategy module defines ``context(st, P, p, ask)`` (five floats its scores share for one
decision) and ``score(st, P, rng, p, ask, k, x)`` (its number for card or colour k).  The
loops pick the best-scoring legal card, stackable card or colour, ties at random over
physical cards.  :func:`context` and :func:`score` are the only places that list the
strategies; a new strategy adds one line to each (docs/bots.md, "Adding a strategy").
"""

from unosim.kernel.bits import lowest_bit
from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_HAND0
from unosim.kernel.table import rule
from unosim.families.answers import ANSWER_KINDS, answer_copies
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, WILD_DRAW4
from unosim.rules.params import P_VOLUNTARY_DRAW
from unosim.rules.strategies import Strategy
from . import aggressor, color_keeper, counter, greedy, rlcard_random, weights, wild_saver
from .common import NEG, Ask, cand, goes_out_with, legal_slots, legal_view, maybe_bluff, tie


@jit(inline=True)
def context(st, P, p, code, ask):
    """Strategy ``code``'s context for question ``ask``."""
    if code == Strategy.greedy:
        return greedy.context(st, P, p, ask)
    if code == Strategy.wild_saver:
        return wild_saver.context(st, P, p, ask)
    if code == Strategy.color_keeper:
        return color_keeper.context(st, P, p, ask)
    if code == Strategy.aggressor:
        return aggressor.context(st, P, p, ask)
    if code == Strategy.counter:
        return counter.context(st, P, p, ask)
    if code == Strategy.rlcard_random:
        return rlcard_random.context(st, P, p, ask)
    return weights.context(st, P, p, ask)


@jit(inline=True)
def score(st, P, rng, p, code, ask, k, x):
    """Strategy ``code``'s answer to ``ask`` about k, given its context x."""
    if code == Strategy.greedy:
        return greedy.score(st, P, rng, p, ask, k, x)
    if code == Strategy.wild_saver:
        return wild_saver.score(st, P, rng, p, ask, k, x)
    if code == Strategy.color_keeper:
        return color_keeper.score(st, P, rng, p, ask, k, x)
    if code == Strategy.aggressor:
        return aggressor.score(st, P, rng, p, ask, k, x)
    if code == Strategy.counter:
        return counter.score(st, P, rng, p, ask, k, x)
    if code == Strategy.rlcard_random:
        return rlcard_random.score(st, P, rng, p, ask, k, x)
    return weights.score(st, P, rng, p, ask, k, x)


@jit()
def choose_play(st, P, rng, p, code):
    """The card p plays: a Wild Draw Four bluff at the strategy's ``bluff_rate`` (R8), else
    its best-scoring legal card; -1 (draw, R7) when nothing is legal, or when voluntary
    draws are allowed and the best scores below its ``draw_below``, unless that card goes
    out (:func:`goes_out_with`): a winning play is never declined.  ``rlcard_random``
    chooses by action ids, not by scores (:mod:`unosim.bots.rlcard_random`)."""
    if code == Strategy.rlcard_random:
        return rlcard_random.choose_play(st, P, rng, p)
    x = context(st, P, p, code, Ask.play)
    if maybe_bluff(st, P, rng, p, score(st, P, rng, p, code, Ask.bluff_rate, -1, x)):
        return WILD_DRAW4
    choice = -1
    best = NEG
    ties = 0
    base = S_HAND0 + p * N_KINDS
    c, tr, wok, w4ok = legal_view(st, P, p)
    slots = legal_slots(st, base, c, tr, wok, w4ok)
    while slots:
        k = cand(lowest_bit(slots), c, tr)
        slots &= slots - 1
        take, best, ties = tie(rng, score(st, P, rng, p, code, Ask.play, k, x), st[base + k], best, ties)
        if take:
            choice = k
    if (choice >= 0 and rule(st, P_VOLUNTARY_DRAW) != 0 and not goes_out_with(st, P, p, choice)
            and best < score(st, P, rng, p, code, Ask.draw_below, choice, x)):
        return -1
    return choice


@jit()
def choose_stack(st, P, rng, p, code):
    """The best-scoring card p may stack on the pending draw or deflect it with (H1, H25,
    H26), or -1 to draw it
    (``rlcard_random``: by action ids)."""
    if code == Strategy.rlcard_random:
        return rlcard_random.choose_stack(st, P, rng, p)
    x = context(st, P, p, code, Ask.stack)
    choice = -1
    best = NEG
    ties = 0
    for i in range(len(ANSWER_KINDS)):
        k = ANSWER_KINDS[i]
        n = answer_copies(st, P, p, k)
        if n == 0:
            continue
        take, best, ties = tie(rng, score(st, P, rng, p, code, Ask.stack, k, x), n, best, ties)
        if take:
            choice = k
    return choice


@jit()
def choose_replacement(st, P, rng, p, code, c):
    """H22 take-back: the best-scoring card of colour c (every one is legal on the colour
    it returns to), scored as a play; -1 if p holds none."""
    x = context(st, P, p, code, Ask.play)
    choice = -1
    best = NEG
    ties = 0
    base = S_HAND0 + p * N_KINDS
    for r in range(RANKS_PER_COLOR):
        k = c * RANKS_PER_COLOR + r
        n = st[base + k]
        if n == 0:
            continue
        take, best, ties = tie(rng, score(st, P, rng, p, code, Ask.play, k, x), n, best, ties)
        if take:
            choice = k
    return choice


@jit()
def choose_colour(st, P, rng, p, code):
    """The best-scoring colour to name after a wild (R9), ties uniformly at random."""
    x = context(st, P, p, code, Ask.colour)
    choice = 0
    best = NEG
    ties = 0
    for c in range(N_COLORS):
        take, best, ties = tie(rng, score(st, P, rng, p, code, Ask.colour, c, x), 1, best, ties)
        if take:
            choice = c
    return choice


@jit()
def answer(st, P, rng, p, code, ask, k):
    """The strategy's number for a question asked outside the loops above: yes (> 0) or no
    for ``drawn``, ``jump``, ``challenge``; the count for ``max_wilds``."""
    return score(st, P, rng, p, code, ask, k, context(st, P, p, code, ask))
