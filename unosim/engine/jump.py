"""H2 jump-in: after a card is put down, any other seat holding an identical card may play
it out of turn, possibly in a chain; the card left on top then acts.

A search seat decides whether to jump by playing the hand out from this very moment, which
falls inside another seat's play.  So a window that reaches a seat listed in ``S_JUMPERS``
(set only at a table with search seats, never in a playout) waits: :func:`jump_window`
stops before asking anyone, the window's state goes into the ``S_HELD`` slots, and the
play returns up to the hand loop (every caller of :func:`jump_then_act` ends with it).
The loop's next step (unosim.engine.search) gives the waiting seats' answers in
``S_JUMP_SAID``/``S_JUMP_YES`` and calls :func:`resume_window`, which goes on exactly
where the window stopped; a playout of the answer does the same from its world."""

from unosim.kernel.jit import jit

from ..bots import policy
from unosim.kernel.layout import (EV_JUMP, N_KINDS, S_AS_WILD, S_DIR, S_HAND0, S_HELD, S_HELD_COUNT, S_HELD_FIRST,
    S_HELD_LAST, S_HELD_MULT, S_HS0, S_IN, S_JUMP_INS, S_JUMP_SAID, S_JUMP_YES, S_JUMPERS, S_NP, S_PLAN, S_RANK0,
    S_SCR0, S_TARGET, S_TURNS)
from unosim.families.stacking import stacks_on
from unosim.kernel.moves import draw4_honest, reverse_is_skip
from unosim.kernel.rng import below
from unosim.kernel.table import kind_rank, next_seat, rule
from unosim.rules.cards import NUMBER_MAX, REVERSE, SKIP, WILD, WILD_DRAW4
from unosim.rules.codes import JumpIn, JumpInStack
from unosim.rules.params import P_JUMP_IN, P_JUMP_IN_STACK, P_MAX_TURNS, P_STACKING
from unosim.families.calls import uno_moment
from .effects import after_play, is_draw_card, put_down
from .turns import begin_turn

RULES = ("H2",)


@jit(inline=True)
def jump_then_act(st, P, rng, log, p, k, count):
    """The H2 window after p put down ``count`` cards ending with k, then the effects of
    the card left on top (:func:`after_play`), by its last player."""
    dmult = count
    smult = count
    if rule(st, P_JUMP_IN) != JumpIn.none and jumpable(st, P, k) and someone_else_holds(st, p, k):
        j, k, dmult = jump_window(st, P, rng, log, p, k, count)
        if j < 0:  # it waits for a search seat's answer (module doc)
            st[S_HELD_FIRST] = p
            st[S_HELD_COUNT] = count
            return
        if j != p:
            smult = 1
            p = j
    after_play(st, P, rng, log, p, k, dmult, smult)


@jit()
def resume_window(st, P, rng, log):
    """The waiting H2 window goes on, with the answers given in ``S_JUMP_SAID`` and
    ``S_JUMP_YES``, and then (unless it waits again) the card left on top acts, as
    :func:`jump_then_act` would have gone on.  A search seat's choice left for the card
    that opened the window (its swap target, its multi-play) is spent with that play."""
    first = st[S_HELD_FIRST]
    count = st[S_HELD_COUNT]
    k = st[S_HELD] - 1
    st[S_HELD] = 0
    j, k, dmult = jump_window(st, P, rng, log, st[S_HELD_LAST], k, st[S_HELD_MULT])
    if j < 0:
        return
    after_play(st, P, rng, log, j, k, dmult, count if j == first else 1)
    st[S_TARGET] = 0
    st[S_PLAN] = 0


@jit(inline=True)
def may_jump(st, P, p, nxt, q, k):
    """H2: seat q may jump in with k on p's card, nxt acting next: it holds one, is neither
    of them, is still in the hand with two cards or more, and a Wild Draw Four is legal for
    it (R8)."""
    return st[S_HAND0 + q * N_KINDS + k] > 0 and q != p and q != nxt and st[S_RANK0 + q] == 0 \
        and st[S_HS0 + q] >= 2 and (k != WILD_DRAW4 or draw4_honest(st, P, q))


@jit(inline=True)
def waits_for(st, P, p, nxt, k):
    """Some seat whose jump-in a search decides (``S_JUMPERS``) may jump in now and has
    not answered yet."""
    jumpers = st[S_JUMPERS] & ~st[S_JUMP_SAID]
    if jumpers == 0:
        return False
    for q in range(st[S_NP]):
        if (jumpers >> q) & 1 and may_jump(st, P, p, nxt, q, k):
            return True
    return False


@jit(inline=True)
def answered(st, q):
    """Seat q's answer given for this round of the window: -1 none, 0 stays out, 1 jumps."""
    if (st[S_JUMP_SAID] >> q) & 1:
        return (st[S_JUMP_YES] >> q) & 1
    return -1


@jit(inline=True)
def next_to_act(st, P, p, k):
    """H2's "who would act next" after p plays k: that seat may not jump in."""
    if k < WILD:
        r = kind_rank(k)
        if r == SKIP:
            return next_seat(st, next_seat(st, p))
        if r == REVERSE:
            if st[S_IN] == 2:
                if not reverse_is_skip(st):
                    return next_seat(st, p)
                return next_seat(st, next_seat(st, p))
            st[S_DIR] = -st[S_DIR]
            q = next_seat(st, p)
            st[S_DIR] = -st[S_DIR]
            return q
    if is_draw_card(st, P, k):
        v = next_seat(st, p)
        if stacks_on(rule(st, P_STACKING), k, k):  # the victim may answer with a stack (H1)
            return v
        return next_seat(st, v)
    return next_seat(st, p)


@jit(inline=True)
def someone_else_holds(st, p, k):
    """A cheap look before the H2 window: does any other seat hold a copy of k at all?
    (A branch-free sum: a test per seat mispredicts.)"""
    total = 0
    for q in range(st[S_NP]):
        total += st[S_HAND0 + q * N_KINDS + k]
    return total > st[S_HAND0 + p * N_KINDS + k]


@jit(inline=True)
def jumpable(st, P, k):
    """H2: numbers always; Skip/Reverse/Draw Two under "colored"; wilds under "all"."""
    mode = rule(st, P_JUMP_IN)
    if k >= WILD:
        return mode == JumpIn.all
    if kind_rank(k) <= NUMBER_MAX:
        return True
    return mode >= JumpIn.colored


@jit(inline=True)
def wants(st, P, rng, q, k):
    """Whether seat q jumps in with k: its answer given for this round, else its strategy's."""
    a = answered(st, q)
    if a >= 0:
        return a == 1
    return policy.wants_jump(st, P, rng, q, k)


@jit()
def jump_window(st, P, rng, log, p, k, mult):
    """H2: identical cards jump in, possibly in a chain; returns the last (player, card, mult),
    or player -1 when the window waits for a search seat's answer (the module doc).

    ``mult`` counts the draw-card penalties that add up: under ``jump_in_stack =
    "accumulate"`` each jump adds one, under "replace" only the last jumper's card counts."""
    n = st[S_NP]
    max_turns = rule(st, P_MAX_TURNS)
    while jumpable(st, P, k) and st[S_TURNS] < max_turns:
        nxt = next_to_act(st, P, p, k)
        if st[S_JUMPERS] != 0 and waits_for(st, P, p, nxt, k):
            st[S_HELD] = 1 + k
            st[S_HELD_LAST] = p
            st[S_HELD_MULT] = mult
            return -1, k, mult
        count = 0
        for q in range(n):
            if may_jump(st, P, p, nxt, q, k) and wants(st, P, rng, q, k):
                count += 1
                st[S_SCR0 + q] = 1
            else:
                st[S_SCR0 + q] = 0
        st[S_JUMP_SAID] = 0
        st[S_JUMP_YES] = 0
        if count == 0:
            break
        u = below(rng, count)
        j = -1
        for q in range(n):
            if st[S_SCR0 + q] == 1:
                if u == 0:
                    j = q
                u -= 1
        begin_turn(st, P, rng, log, j)
        st[S_JUMP_INS] += 1
        st[S_AS_WILD] = 0
        if is_draw_card(st, P, k) and rule(st, P_JUMP_IN_STACK) == JumpInStack.accumulate:
            mult += 1
        else:
            mult = 1
        put_down(st, P, rng, log, j, k, EV_JUMP)
        uno_moment(st, P, rng, log, j)
        p = j
    return p, k, mult
