"""H1 and H25 stacking: which draw cards may go on a pending draw (H1), and under H25
whether a play of them makes at least what the play it answers made."""

from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_HAND0, S_PENDING_KIND, S_PLAY_CARDS
from unosim.kernel.moves import group_size, is_draw2, wild_allowed
from unosim.kernel.table import rule
from unosim.rules.cards import STACK_KINDS, WILD, WILD_DRAW4
from unosim.rules.codes import MultiPlay, Stacking
from unosim.rules.params import P_DRAW2_AMOUNT, P_DRAW4_AMOUNT, P_MULTI_PLAY, P_STACKING

RULES = ("H1", "H25")


KINDS = STACK_KINDS
"""The kinds that may ever stack: the draw cards, in kind order."""


@jit(inline=True)
def on(st):
    """Is H1 (or H25) in play?"""
    return rule(st, P_STACKING) != Stacking.none


@jit(inline=True)
def stacks_on(mode, pk, k):
    """H1, the one statement of what stacks on what: may card k go on the pending draw card
    pk (-1: none) under ``stacking`` mode?  Draw Two on Draw Two (``draw2``), Wild Draw
    Four on either (``draw2_draw4``), Draw Two on Wild Draw Four too (``all``).  Under
    ``amount`` (H25) any Draw Two or Wild Draw Four may be part of an answer, and
    :func:`answers` weighs the play.  The engine asks it with k = pk to know whether the
    victim of a draw card gets to answer (H2)."""
    if mode == Stacking.none or pk < 0:
        return False
    k_d2 = is_draw2(k)
    if is_draw2(pk):
        return k_d2 or (mode >= Stacking.draw2_draw4 and k == WILD_DRAW4)
    if pk == WILD_DRAW4:
        return (mode >= Stacking.draw2_draw4 and k == WILD_DRAW4) or (mode >= Stacking.all and k_d2)
    return False


@jit()
def can_stack(st, P, k):
    """H1: may k, played alone, be stacked on the pending penalty card?  Under H25 (with H6)
    only if it makes at least as many cards as the play it answers; without H6 H25 says
    "amount" acts as "draw2_draw4", which at amounts other than the defaults is not the
    same as weighing one card against one card, and the sentence wins."""
    mode = rule(st, P_STACKING)
    if mode == Stacking.amount and rule(st, P_MULTI_PLAY) == MultiPlay.none:
        mode = Stacking.draw2_draw4  # H25: without H6 "amount" is "draw2_draw4", whatever the H18 amounts
    if not stacks_on(mode, st[S_PENDING_KIND], k):
        return False
    return mode != Stacking.amount or answers(st, k, 1)


@jit(inline=True)
def draw_amount(st, k):
    """H25: what one Draw Two or Wild Draw Four counts (H18 amounts)."""
    return rule(st, P_DRAW4_AMOUNT) if k == WILD_DRAW4 else rule(st, P_DRAW2_AMOUNT)


@jit(inline=True)
def answers(st, k, n):
    """H25: do n cards of k's kind played at once make at least what the play they answer
    made (its kind's amount times its cards, not the running total)?"""
    return draw_amount(st, k) * n >= draw_amount(st, st[S_PENDING_KIND]) * max(st[S_PLAY_CARDS], 1)


@jit()
def group_answers(st, P, p, k):
    """H25 with H6: may p answer the pending draw with k and every card H6 lets go with it
    (:func:`group_size`)?  False for a wild that H7 keeps from going down at all."""
    if (rule(st, P_STACKING) != Stacking.amount or rule(st, P_MULTI_PLAY) == MultiPlay.none
            or st[S_HAND0 + p * N_KINDS + k] == 0):
        return False
    if not stacks_on(Stacking.amount, st[S_PENDING_KIND], k) or (k >= WILD and not wild_allowed(st, P, p, 1)):
        return False
    return answers(st, k, group_size(st, P, p, k))


@jit(inline=True)
def stack_copies(st, P, p, k):
    """Copies of k that p may stack on the pending draw, played alone (H1, H7); 0 for any
    card that is not a draw card."""
    n = st[S_HAND0 + p * N_KINDS + k]
    if n == 0 or not can_stack(st, P, k) or (k >= WILD and not wild_allowed(st, P, p, 1)):
        return 0
    return n
