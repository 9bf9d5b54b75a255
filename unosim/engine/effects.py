"""What a card does once it is down: putting it on the pile (R9 colour, the R8 bluff mark)
and its effects: Skip, Reverse and draw cards (R9, H14, H18), the cards that move hands
(:mod:`unosim.families.seven_o`), after the table's calls (:mod:`unosim.families.calls`).

Effects never recurse: they set the next seat and, for draw cards, a pending penalty
that the hand loop resolves, so a stack of any length is a loop, not a call chain.
"""

from unosim.families import calls, seven_o
from unosim.kernel.jit import jit

from ..bots import policy
from unosim.kernel.layout import (EV_FACING, EV_REVERSE, EV_SKIPPED, S_AS_WILD, S_BLUFF, S_BLUFFER, S_COLOR,
    S_CUR, S_DIR, S_IN, S_LAST_PLAYER, S_PENDING, S_PENDING_KIND, S_PLAY_CARDS, S_PLAYED,
    S_PREV_COLOR, S_PREV_TOP, S_STACK_LEN, S_TARGET, S_TOP)
from unosim.kernel.moves import draw4_honest, is_draw2, reverse_is_skip
from unosim.kernel.piles import discard
from unosim.kernel.table import add_card, kind_colour, kind_rank, log_event, next_seat, rule, take_choice
from unosim.rules.cards import RED_ZERO_DRAW, REVERSE, SKIP, WILD, WILD_DRAW4
from unosim.rules.codes import Stacking
from unosim.rules.params import P_DRAW2_AMOUNT, P_DRAW4_AMOUNT, P_STACKING

RULES = ("R9", "H18")


@jit(inline=True)
def is_draw_card(st, P, k):
    """Draw Two, Wild Draw Four, and the H5 +10: the next player draws and loses the turn,
    even when H18 sets the amount to 0."""
    return k == WILD_DRAW4 or is_draw2(k) or seven_o.is_draw10(st, k)


@jit(inline=True)
def penalty_of(st, P, k):
    """Cards a draw card makes the next player draw (R9, H5, H18); 0 for other cards."""
    if k == WILD_DRAW4:
        return rule(st, P_DRAW4_AMOUNT)
    if is_draw2(k):
        return rule(st, P_DRAW2_AMOUNT)
    if seven_o.is_draw10(st, k):
        return RED_ZERO_DRAW
    return 0


@jit(inline=True)
def put_down(st, P, rng, log, p, k, ev):
    """Move k from p's hand to the pile and name a colour for a wild (R9, R8 bluff mark)."""
    put_down_naming(st, P, rng, log, p, k, ev, -1)


@jit(inline=True)
def put_down_naming(st, P, rng, log, p, k, ev, named):
    """:func:`put_down`, a wild naming ``named`` (-1: the colour p's strategy names); a
    search seat names the colour it searched (unosim.engine.search)."""
    if k == WILD_DRAW4:
        st[S_BLUFF] = 0 if draw4_honest(st, P, p) else 1
        st[S_BLUFFER] = p
        st[S_PREV_COLOR] = st[S_COLOR]  # what a take-back returns to (H22)
        st[S_PREV_TOP] = st[S_TOP]
    add_card(st, p, k, -1)
    discard(st, k)
    st[S_TOP] = k
    st[S_PLAYED] += 1
    st[S_LAST_PLAYER] = p
    if k >= WILD:
        st[S_COLOR] = policy.choose_color(st, P, rng, p) if named < 0 else named
    else:
        st[S_COLOR] = kind_colour(k)
    policy.observe_play(st, k)
    log_event(st, log, ev, p, k, st[S_COLOR])


@jit(inline=True)
def after_play(st, P, rng, log, p, k, dmult, smult):
    """The effects of the card that stays on top: the table's reaction (H10, H11), then R9/H4/H5."""
    calls.react(st, P, rng, log, p, k)
    effect(st, P, rng, log, p, k, dmult, smult)


@jit(inline=True)
def effect(st, P, rng, log, p, k, dmult, smult):
    """R9 effects, H4 seven-o and H5 red zero: set the next seat and any pending penalty.

    ``dmult`` draw penalties add up and ``smult`` cards act (H6 multi-play, H2 accumulate);
    with 2 players each Reverse is a Skip."""
    draws = is_draw_card(st, P, k)
    if st[S_AS_WILD] != 0:  # E3: a drawn Wild Draw Four acting as a plain Wild
        draws = False
        st[S_AS_WILD] = 0
    if draws:
        amount = penalty_of(st, P, k)
        if st[S_PENDING_KIND] >= 0:
            st[S_PENDING] += amount * dmult
            st[S_STACK_LEN] += smult
        else:
            st[S_PENDING] = amount * dmult
            st[S_STACK_LEN] = smult
        st[S_PENDING_KIND] = k
        st[S_PLAY_CARDS] = smult  # the play the next answer is weighed against (H25)
        st[S_CUR] = next_seat(st, p)
        if rule(st, P_STACKING) != Stacking.none:
            log_event(st, log, EV_FACING, st[S_CUR], st[S_PENDING], st[S_STACK_LEN])
        return
    if k < WILD:
        r = kind_rank(k)
        if r == SKIP or (r == REVERSE and reverse_is_skip(st)):
            s = p
            for _ in range(smult):
                s = next_seat(st, s)
                log_event(st, log, EV_SKIPPED, s, 0, 0)
            st[S_CUR] = next_seat(st, s)
            return
        if r == REVERSE:
            if st[S_IN] != 2 and smult % 2 == 1:
                st[S_DIR] = -st[S_DIR]
                log_event(st, log, EV_REVERSE, st[S_DIR], 0, 0)
            st[S_CUR] = next_seat(st, p)
            return
        move = seven_o.hand_move(st, k)
        if move == seven_o.GIVE:
            seven_o.give_away(st, rng, log, p, opponent_for(st, P, rng, p))
        elif move == seven_o.PASS:
            seven_o.pass_hands(st, log)
        elif move == seven_o.SWAP:
            seven_o.swap(st, log, p, opponent_for(st, P, rng, p))
    st[S_CUR] = next_seat(st, p)


@jit(inline=True)
def opponent_for(st, P, rng, p):
    """Whom p swaps with (H4) or gives its cards to (H5): the opponent a search seat chose
    with the card it played (``S_TARGET``, used once), else its strategy's choice."""
    q = take_choice(st, S_TARGET, p)
    return q if q >= 0 else policy.choose_opponent(st, P, rng, p)
