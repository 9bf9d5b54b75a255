"""The answers to a pending draw, once the chance to challenge it (R8) has passed: the one
question the engine, every bot and the search ask.  A stack (H1, H25) adds to the draw; a
passing card (H26 deflect) hands it on unchanged.  The hand loop calls the hooks below at
fixed points; each answering rule's module fills them in."""

from unosim.kernel.jit import jit
from unosim.kernel.layout import S_BLUFF, S_LONGEST_STACK, S_PENDING, S_PENDING_KIND, S_STACK_LEN
from . import deflect, stacking

RULES = ()
"""The hub has no rule of its own: every answering rule has its module."""

ANSWER_KINDS = stacking.KINDS + deflect.KINDS
"""Every kind that may ever answer a pending draw, each rule's in its own order."""

PASS_EVENT = deflect.EVENT
"""The trace event of a card that passes the draw on."""


@jit(inline=True)
def answers_on(st):
    """Does any rule let a player answer a pending draw instead of drawing it?"""
    return stacking.on(st) or deflect.on(st)


@jit(inline=True)
def answer_copies(st, P, p, k):
    """Copies of k that p may put on the pending draw, one at a time: to stack or to pass it on."""
    return stacking.stack_copies(st, P, p, k) + deflect.deflect_copies(st, p, k)


@jit(inline=True)
def answers_in_group(st, P, p, k):
    """Under H6, may p answer with k: with its whole group (H25), or alone to pass it on?"""
    return stacking.group_answers(st, P, p, k) or deflect.deflect_copies(st, p, k) > 0


@jit(inline=True)
def passes_on(st, k):
    """Does k, put on the pending draw, pass it on unchanged rather than add to it?"""
    return deflect.may_deflect(st, k)


@jit(inline=True)
def challengeable(st):
    """May the pending draw still be challenged as far as the answering rules go?"""
    return deflect.challengeable(st)


@jit(inline=True)
def passed(st, log, k):
    """The passing card k is down: what it does to the table before the draw moves on."""
    deflect.turn_away(st, log, k)


@jit(inline=True)
def pass_on(st, log, p):
    """The pending draw passes from p to the next seat, who faces it as p did."""
    deflect.pass_on(st, log, p)


@jit(inline=True)
def clear_pending(st):
    """The pending draw is settled (drawn, moved by a challenge, or drawn at the end, R12)
    and the answering rules forget it."""
    if st[S_STACK_LEN] > st[S_LONGEST_STACK]:
        st[S_LONGEST_STACK] = st[S_STACK_LEN]
    st[S_PENDING] = 0
    st[S_PENDING_KIND] = -1
    st[S_STACK_LEN] = 0
    st[S_BLUFF] = 0
    deflect.settled(st)
