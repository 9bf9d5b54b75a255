"""`rlcard_random`: RLCard 1.2.0's own ``RandomAgent``, so RLCard baselines can be reproduced.

It picks uniformly among RLCard's legal *action ids*, not among cards as B0 does: a
coloured kind is one action however many copies are held, and a wild is four (one per
colour).  What RLCard has no action for is answered as B0 does.  Details: docs/bots.md,
"rlcard_random".
"""

from unosim.kernel.bits import lowest_bit
from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_HAND0
from unosim.families.answers import ANSWER_KINDS, answer_copies
from unosim.kernel.rng import below
from unosim.rules.cards import N_COLORS, WILD
from .common import NEG, NO, YES, Ask, cand, legal_slots, legal_view


@jit(inline=True)
def actions(k):
    """RLCard action ids of card kind k: a wild kind names its colour in the action."""
    return N_COLORS if k >= WILD else 1


@jit()
def choose_play(st, P, rng, p):
    """A legal kind with probability proportional to its action ids (1, or 4 for a wild
    kind), or -1 (draw) when nothing is legal."""
    base = S_HAND0 + p * N_KINDS
    c, tr, wok, w4ok = legal_view(st, P, p)
    legal = legal_slots(st, base, c, tr, wok, w4ok)
    total = 0
    slots = legal
    while slots:
        total += actions(cand(lowest_bit(slots), c, tr))
        slots &= slots - 1
    if total == 0:
        return -1
    u = below(rng, total)
    slots = legal
    while slots:
        k = cand(lowest_bit(slots), c, tr)
        slots &= slots - 1
        u -= actions(k)
        if u < 0:
            return k
    return -1


@jit()
def choose_stack(st, P, rng, p):
    """H1, H25, H26: a kind that may stack or deflect, with probability proportional to
    its action ids, else -1."""
    total = 0
    for i in range(len(ANSWER_KINDS)):
        k = ANSWER_KINDS[i]
        if answer_copies(st, P, p, k) > 0:
            total += actions(k)
    if total == 0:
        return -1
    u = below(rng, total)
    for i in range(len(ANSWER_KINDS)):
        k = ANSWER_KINDS[i]
        if answer_copies(st, P, p, k) > 0:
            u -= actions(k)
            if u < 0:
                return k
    return -1


@jit(inline=True)
def context(st, P, p, ask):
    """Its answers share nothing."""
    return 0.0, 0.0, 0.0, 0.0, 0.0


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    """Equal scores for every colour (the named colour is uniform); yes to a drawn card
    and to jumping in, no challenge, no bluff, no voluntary draw, one wild at a time.
    Cards to play or stack are chosen by :func:`choose_play` and :func:`choose_stack`."""
    if ask == Ask.challenge:
        return NO
    if ask == Ask.bluff_rate:
        return 0.0
    if ask == Ask.draw_below:
        return NEG
    if ask == Ask.max_wilds:
        return 1.0
    if ask == Ask.drawn or ask == Ask.jump:
        return YES
    return 0.0
