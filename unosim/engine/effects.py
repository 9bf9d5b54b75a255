"""What a card does once it is down: putting it on the pile (R9 colour), the UNO call
(R10), slap (H10), silence (H11), and the effects: Skip, Reverse and draw cards (R9, H5
+10, H14, H18), seven-o (H4) and the red zero giveaway (H5).

Effects never recurse: they set the next seat and, for draw cards, a pending penalty
that the hand loop resolves, so a stack of any length is a loop, not a call chain.
"""

from unosim.kernel.jit import jit

from ..bots import policy
from unosim.kernel.layout import (DR_FALSE_CALL, DR_SLAP, DR_UNO, EV_FACING, EV_FALSE_CALL, EV_GIVEAWAY, EV_PASS_HANDS, EV_PENALTY,
    EV_REVERSE, EV_SILENCE, EV_SKIPPED, EV_SLAP, EV_SWAP, EV_UNO, N_KINDS, S_AS_WILD, S_BLUFF, S_BLUFFER,
    S_COLOR, S_CUR, S_DIR, S_GIVEAWAYS, S_HAND0, S_HS0, S_IN, S_LAST_PLAYER, S_NP, S_PASSES, S_PENDING,
    S_PENDING_KIND, S_PLAY_CARDS, S_PLAYED, S_RANK0, S_SILENT, S_SLAPS, S_STACK_LEN, S_SWAPS, S_TOP, S_UNO_PENALTIES,
    S_FALSE_CALLS, S_PREV_COLOR, S_PREV_TOP, S_TARGET)
from unosim.kernel.moves import draw4_honest, is_draw2, reverse_is_skip
from unosim.kernel.piles import discard, draw_cards
from unosim.kernel.rng import below, chance
from unosim.kernel.table import add_card, log_event, next_seat, rule, take_choice
from unosim.rules.cards import NUMBER_MAX, RANKS_PER_COLOR, RED_ZERO, RED_ZERO_DRAW, REVERSE, SKIP, WILD, WILD_DRAW4
from unosim.rules.codes import RedZero, Stacking
from unosim.rules.params import (P_DRAW2_AMOUNT, P_DRAW4_AMOUNT, P_RED_ZERO, P_SEVEN_O, P_SILENT_RANK,
    P_SLAP_RANK, P_STACKING, P_UNO_CAUGHT, P_UNO_FALSE_CALL, P_UNO_FORGET)


@jit(inline=True)
def is_draw_card(st, P, k):
    """Draw Two, Wild Draw Four, and the H5 +10: the next player draws and loses the turn,
    even when H18 sets the amount to 0."""
    return k == WILD_DRAW4 or is_draw2(k) or (k == RED_ZERO and rule(st, P_RED_ZERO) == RedZero.draw10)


@jit(inline=True)
def penalty_of(st, P, k):
    """Cards a draw card makes the next player draw (R9, H5, H18); 0 for other cards."""
    if k == WILD_DRAW4:
        return rule(st, P_DRAW4_AMOUNT)
    if is_draw2(k):
        return rule(st, P_DRAW2_AMOUNT)
    if k == RED_ZERO and rule(st, P_RED_ZERO) == RedZero.draw10:
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
    base = S_HAND0 + p * N_KINDS
    if k == WILD_DRAW4:
        st[S_BLUFF] = 0 if draw4_honest(st, P, p) else 1
        st[S_BLUFFER] = p
        st[S_PREV_COLOR] = st[S_COLOR]  # what a take-back returns to (H22)
        st[S_PREV_TOP] = st[S_TOP]
    st[base + k] -= 1
    st[S_HS0 + p] -= 1
    discard(st, k)
    st[S_TOP] = k
    st[S_PLAYED] += 1
    st[S_LAST_PLAYER] = p
    if k >= WILD:
        st[S_COLOR] = policy.choose_color(st, P, rng, p) if named < 0 else named
    else:
        st[S_COLOR] = k // RANKS_PER_COLOR
    policy.observe_play(st, P, p, k)
    log_event(st, log, ev, p, k, st[S_COLOR])


@jit(inline=True)
def uno_call(st, P, rng, log, p):
    """R10: p has just played their second-to-last card."""
    if chance(rng, P[P_UNO_FORGET]):
        caught = chance(rng, P[P_UNO_CAUGHT])
        log_event(st, log, EV_UNO, p, 1, 1 if caught else 0)
        if caught:
            st[S_UNO_PENALTIES] += 1
            got = draw_cards(st, rng, log, p, 2, DR_UNO)
            log_event(st, log, EV_PENALTY, p, got, DR_UNO)
    else:
        log_event(st, log, EV_UNO, p, 0, 0)


@jit(inline=True)
def uno_moment(st, P, rng, log, p):
    """Right after p's play, before any jump-in or effect: the UNO call on the
    second-to-last card (R10), or a wrong call with 2 or more cards left (H23)."""
    left = st[S_HS0 + p]
    if left == 1:
        uno_call(st, P, rng, log, p)
    elif left >= 2 and P[P_UNO_FALSE_CALL] > 0.0 and chance(rng, P[P_UNO_FALSE_CALL]):
        false_call(st, rng, log, p)


@jit()
def false_call(st, rng, log, p):
    """H23: p called UNO wrongly; the call is always caught and p draws 2 at once."""
    st[S_FALSE_CALLS] += 1
    log_event(st, log, EV_FALSE_CALL, p, 0, 0)
    got = draw_cards(st, rng, log, p, 2, DR_FALSE_CALL)
    log_event(st, log, EV_PENALTY, p, got, DR_FALSE_CALL)


@jit(inline=True)
def after_play(st, P, rng, log, p, k, dmult, smult):
    """The effects of the card that stays on top: slap (H10), silence (H11), then R9/H4/H5."""
    if k < WILD and k % RANKS_PER_COLOR <= NUMBER_MAX:
        r = k % RANKS_PER_COLOR
        if r == rule(st, P_SLAP_RANK):
            slap(st, P, rng, log, p)
        if r == rule(st, P_SILENT_RANK):
            st[S_SILENT] = p
            log_event(st, log, EV_SILENCE, p, 0, 0)
    effect(st, P, rng, log, p, k, dmult, smult)


@jit()
def slap(st, P, rng, log, p):
    """H10: the slowest player (uniform among those still in, but p) draws 2."""
    q, got = other_draws_two(st, rng, log, p, DR_SLAP)
    if q >= 0:
        st[S_SLAPS] += 1
        log_event(st, log, EV_SLAP, q, got, 0)


@jit(inline=True)
def other_draws_two(st, rng, log, p, reason):
    """A seat still in but p, uniformly at random, draws 2 (H10 slap, H11 noise); returns
    (that seat, cards drawn), or (-1, 0) when there is none."""
    n = st[S_NP]
    count = st[S_IN] - (1 if st[S_RANK0 + p] == 0 else 0)
    if count <= 0:
        return -1, 0
    u = below(rng, count)
    for q in range(n):
        if q != p and st[S_RANK0 + q] == 0:
            if u == 0:
                return q, draw_cards(st, rng, log, q, 2, reason)
            u -= 1
    return -1, 0


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
        r = k % RANKS_PER_COLOR
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
        if k == RED_ZERO and rule(st, P_RED_ZERO) == RedZero.giveaway:
            giveaway(st, P, rng, log, p)
        elif r == 0 and rule(st, P_SEVEN_O) != 0:
            pass_hands(st, log)
        elif r == 7 and rule(st, P_SEVEN_O) != 0:
            q = opponent_for(st, P, rng, p)
            if q >= 0:
                swap_hands(st, p, q)
                st[S_SWAPS] += 1
                log_event(st, log, EV_SWAP, p, q, 0)
    st[S_CUR] = next_seat(st, p)


@jit(inline=True)
def opponent_for(st, P, rng, p):
    """Whom p swaps with (H4) or gives its cards to (H5): the opponent a search seat chose
    with the card it played (``S_TARGET``, used once), else its strategy's choice."""
    q = take_choice(st, S_TARGET, p)
    return q if q >= 0 else policy.choose_opponent(st, P, rng, p)


@jit(inline=True)
def swap_hands(st, p, q):
    a = S_HAND0 + p * N_KINDS
    b = S_HAND0 + q * N_KINDS
    for i in range(N_KINDS):
        t = st[a + i]
        st[a + i] = st[b + i]
        st[b + i] = t
    t = st[S_HS0 + p]
    st[S_HS0 + p] = st[S_HS0 + q]
    st[S_HS0 + q] = t


@jit()
def pass_hands(st, log):
    """H4 zero: every hand still in moves to the next seat in the direction of play."""
    n = st[S_NP]
    start = -1
    for q in range(n):
        if st[S_RANK0 + q] == 0:
            start = q
            break
    # walk the cycle backwards so each hand moves once: hand(prev) -> seat q
    q = start
    for _ in range(st[S_IN] - 1):
        st[S_DIR] = -st[S_DIR]
        prev = next_seat(st, q)
        st[S_DIR] = -st[S_DIR]
        swap_hands(st, q, prev)
        q = prev
    st[S_PASSES] += 1
    log_event(st, log, EV_PASS_HANDS, st[S_DIR], 0, 0)


@jit()
def giveaway(st, P, rng, log, p):
    """H5 giveaway: an opponent takes all of p's cards but one kept uniformly at random."""
    q = opponent_for(st, P, rng, p)
    left = st[S_HS0 + p]
    if q < 0 or left <= 1:
        return
    base = S_HAND0 + p * N_KINDS
    u = below(rng, left)
    keep = -1
    for i in range(N_KINDS):
        u -= st[base + i]
        if u < 0:
            keep = i
            break
    for i in range(N_KINDS):
        c = st[base + i] - (1 if i == keep else 0)
        if c > 0:
            add_card(st, q, i, c)
            add_card(st, p, i, -c)
    st[S_GIVEAWAYS] += 1
    log_event(st, log, EV_GIVEAWAY, p, q, left - 1)
