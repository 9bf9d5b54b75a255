"""The start of a hand: reset the state, deal (R2), turn the first card (R3, H15, H16) on
the first player (the seat after the dealer, or H21's richest hand)."""

from unosim.kernel.jit import jit

from ..bots import policy
from unosim.kernel.layout import (DR_PENALTY, EV_DEAL, EV_PENALTY, EV_PLAY, EV_RETURN, EV_REVERSE, EV_SKIPPED,
    EV_TURN_UP, N_KINDS, S_BOT0, S_COLOR, S_CUR, S_DEALER, S_DIR, S_DRAW0, S_FIRST, S_HAND0, S_IN,
    S_LAST_PLAYER, S_LOGCAP, S_NDRAW, S_NP, S_PENDING_KIND, S_RULE0, S_SCORE0, S_SILENT, S_TOP,
    S_PILE_KNOWN, S_WINNER)
from unosim.kernel.piles import discard, draw_cards, pop, take, to_top
from unosim.kernel.table import add_card, hand_points, kind_colour, kind_rank, log_event, next_seat, rule, wrap
from unosim.rules.cards import DRAW2, NUMBER_MAX, REVERSE, SKIP, WILD, WILD_DRAW4
from unosim.rules.codes import FirstCard, FirstPlayer, TurnedReverse, TwoPlayerReverse
from unosim.rules.params import (BOT_STRIDE, MAX_PLAYERS, P_BOT0, P_DRAW2_AMOUNT, P_FIRST_CARD,
    P_FIRST_DRAW2_SKIPS, P_FIRST_PLAYER, P_HAND_SIZE, P_PLAYERS, P_SCORE0, P_TURNED_REVERSE, P_TWO_PLAYER_REVERSE)

RULES = ("R2", "R3", "H15", "H16", "H21", "E5")


@jit()
def reset(st, P, dealer):
    """A hand's start on any state: :func:`load_rules`, then :func:`new_hand`."""
    load_rules(st, P)
    new_hand(st, P, dealer)


@jit(inline=True)
def load_rules(st, P):
    """Copy the score table, the rule switches and the seats' strategy codes into ``st``
    as integers (:func:`unosim.kernel.table.rule`): once per state and rules vector, as
    every hand played on them keeps them."""
    for k in range(N_KINDS):
        st[S_SCORE0 + k] = int(P[P_SCORE0 + k])
    for i in range(P_SCORE0):  # the switches as integers: no float compares on the hot path
        st[S_RULE0 + i] = int(P[i])
    for q in range(MAX_PLAYERS):
        st[S_BOT0 + q] = int(P[P_BOT0 + q * BOT_STRIDE])


@jit()
def new_hand(st, P, dealer):
    """Zero the scalars (``counter``'s memory among them) and the seats' hands of a state
    that holds P's rules (:func:`load_rules`); the piles are overwritten by the deal, and
    the log capacity (S_LOGCAP) is kept."""
    n = int(P[P_PLAYERS])
    cap = st[S_LOGCAP]
    for i in range(S_HAND0 + n * N_KINDS):
        st[i] = 0
    st[S_LOGCAP] = cap
    st[S_NP] = n
    st[S_IN] = n
    st[S_DIR] = 1
    st[S_DEALER] = dealer
    st[S_WINNER] = -1
    st[S_PENDING_KIND] = -1
    st[S_SILENT] = -1
    st[S_LAST_PLAYER] = -1


@jit()
def deal(st, P, rng, log):
    """R2: ``hand_size`` rounds of one card each, starting left of the dealer."""
    n = st[S_NP]
    dealer = st[S_DEALER]
    for _ in range(rule(st, P_HAND_SIZE)):
        p = dealer
        for i in range(n):
            p = wrap(p + 1, n)
            k = take(st, rng)
            add_card(st, p, k, 1)
            log_event(st, log, EV_DEAL, p, k, 0)


@jit(inline=True)
def turnable(k, number_only):
    """R3/H16: may k start the discard pile?"""
    if k == WILD_DRAW4:
        return False
    return not number_only or (k < WILD and kind_rank(k) <= NUMBER_MAX)


@jit()
def count_turnable(st, number_only):
    """Cards in the draw pile that may start the discard pile (R3, H16)."""
    n = 0
    for i in range(st[S_NDRAW]):
        if turnable(st[S_DRAW0 + i], number_only):
            n += 1
    return n


@jit(inline=True)
def turned_reverse_void(st):
    """R3/E5 with 2 players: does a turned Reverse do nothing (the first player starts)?
    ``as_played`` follows H14 (``none``: nothing), ``dealer`` always lets the dealer play
    first as with 3+ players (RLCard's rule), ``first_player`` never does."""
    mode = rule(st, P_TURNED_REVERSE)
    if mode == TurnedReverse.as_played:
        return rule(st, P_TWO_PLAYER_REVERSE) == TwoPlayerReverse.none
    return mode == TurnedReverse.first_player


@jit()
def richest_seat(st, P):
    """H21: the seat whose dealt hand is worth the most points (the scoring table: R1, H17,
    H5's 100-point red 0), ties to the first in play order from the seat after the dealer."""
    n = st[S_NP]
    best = -1
    seat = -1
    q = st[S_DEALER]
    for _ in range(n):
        q = wrap(q + 1, n)
        v = hand_points(st, P, q)
        if v > best:
            best = v
            seat = q
    return seat


@jit()
def turn_first_card(st, P, rng, log):
    """R3: turn cards until one may start the pile, then apply its effect on the first seat.

    If no card left in the draw pile may start it (possible only when the deal took
    almost every card), the top card is used as it is and a Wild Draw Four counts as a
    Wild (docs/rules.md R3).
    """
    number_only = rule(st, P_FIRST_CARD) == FirstCard.number_only
    eligible = -1  # cards in the pile that may start it, counted once a card may not
    while True:
        k = to_top(st, rng)
        if turnable(k, number_only):
            break
        if eligible < 0:
            eligible = count_turnable(st, number_only)
        if eligible == 0:
            break
        log_event(st, log, EV_RETURN, k, 0, 0)
        st[S_PILE_KNOWN] = 0  # shuffled back in: the pile is unordered again
    pop(st)
    discard(st, k)
    st[S_TOP] = k
    log_event(st, log, EV_TURN_UP, k, 0, 0)
    n = st[S_NP]
    dealer = st[S_DEALER]
    highest = rule(st, P_FIRST_PLAYER) == FirstPlayer.highest_points
    first = richest_seat(st, P) if highest else next_seat(st, dealer)
    cur = first
    if k >= WILD:
        st[S_COLOR] = policy.choose_color(st, P, rng, first)
        log_event(st, log, EV_PLAY, -1, k, st[S_COLOR])
    else:
        st[S_COLOR] = kind_colour(k)
        r = kind_rank(k)
        if r == DRAW2:
            got = draw_cards(st, rng, log, first, rule(st, P_DRAW2_AMOUNT), DR_PENALTY)
            log_event(st, log, EV_PENALTY, first, got, DR_PENALTY)
            if rule(st, P_FIRST_DRAW2_SKIPS) != 0:
                log_event(st, log, EV_SKIPPED, first, 0, 0)
                cur = next_seat(st, first)
        elif r == SKIP:
            log_event(st, log, EV_SKIPPED, first, 0, 0)
            cur = next_seat(st, first)
        elif r == REVERSE and not (n == 2 and turned_reverse_void(st)):
            st[S_DIR] = -1
            log_event(st, log, EV_REVERSE, -1, 0, 0)
            cur = first if highest else dealer  # H21: the richest seat still plays first
    st[S_CUR] = cur
    st[S_FIRST] = cur
