"""`rlcard_random`: RLCard 1.2.0's own ``RandomAgent``, so RLCard baselines can be reproduced.

RandomAgent picks uniformly among the *action ids* the env lists as legal
(``envs/uno.py: _get_legal_actions`` keeps each id once), not among cards as B0 does:

* a coloured card is one action however many copies are held (two red 5s are one
  ``r-5``, as likely as one blue 5);
* a Wild is four actions, one per colour named (``r-wild`` ... ``y-wild``), and so is a
  Wild Draw Four: a held wild kind weighs 4, however many copies;
* ``draw`` is an action only when nothing is legal.

So it plays wilds far more often than B0 (benchmarks/rlcard_rules.md, R5).  The wild's
colour is the colour of its action: uniform once the wild is drawn, which is what the
shared colour loop does with equal scores.  Legality is the config's (R5, R8 or E1, H7);
under ``configs/rlcard.toml`` it is RLCard's.  What RLCard has no action for is answered
as B0 does: a legal drawn card is played (R6), it jumps in (H2), never challenges or
bluffs (R8), puts down one card (H6), picks swap and giveaway targets uniformly (H4, H5)
(:mod:`unosim.bots.policy`).  Stacking (H1) is uniform over the stackable action ids
(each Draw Two kind 1, the Wild Draw Four 4), never drawing while it may stack.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_HAND0
from unosim.kernel.moves import can_stack, wild_allowed
from unosim.kernel.rng import below
from unosim.rules.cards import N_COLORS, STACK_KINDS, WILD
from .common import N_CAND, NEG, NO, YES, Ask, cand, legal_copies, legal_view


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
    total = 0
    for i in range(N_CAND):
        k = cand(i, c, tr)
        if legal_copies(st, base, k, wok, w4ok) > 0:
            total += actions(k)
    if total == 0:
        return -1
    u = below(rng, total)
    for i in range(N_CAND):
        k = cand(i, c, tr)
        if legal_copies(st, base, k, wok, w4ok) > 0:
            u -= actions(k)
            if u < 0:
                return k
    return -1


@jit()
def choose_stack(st, P, rng, p):
    """H1: a stackable kind with probability proportional to its action ids, else -1."""
    base = S_HAND0 + p * N_KINDS
    total = 0
    for i in range(len(STACK_KINDS)):
        k = STACK_KINDS[i]
        if st[base + k] > 0 and can_stack(st, P, k) and (k < WILD or wild_allowed(st, P, p, 1)):
            total += actions(k)
    if total == 0:
        return -1
    u = below(rng, total)
    for i in range(len(STACK_KINDS)):
        k = STACK_KINDS[i]
        if st[base + k] > 0 and can_stack(st, P, k) and (k < WILD or wild_allowed(st, P, p, 1)):
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
