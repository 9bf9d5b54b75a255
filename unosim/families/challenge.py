"""R8 the challenge of a Wild Draw Four, with H9 (a proven challenger still loses the turn)
and H22 (a proven bluff is taken back).

A Wild Draw Four put down while its player held a card of the colour in force is a bluff
(the mark is set as it goes down, :func:`unosim.kernel.moves.draw4_honest`, E1).  The hand
asks the seat whether to challenge; :func:`challenge` settles it.  Under H22 the engine
asks the bluffer for its replacement card between :func:`take_back` and :func:`redraw`.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import (DR_CHALLENGE, EV_CHALLENGE, EV_PENALTY, EV_SKIPPED, EV_TAKE_BACK, S_BLUFF, S_BLUFFER,
    S_CHALLENGES, S_COLOR, S_CUR, S_NDISC, S_PENDING, S_PENDING_KIND, S_PLAY_CARDS, S_PLAYED, S_PREV_COLOR,
    S_PREV_TOP, S_STACK_LEN, S_TOP)
from unosim.kernel.piles import draw_cards
from unosim.kernel.table import add_card, log_event, next_seat, rule
from unosim.rules.cards import WILD_DRAW4
from unosim.rules.codes import BluffPenalty, WildDraw4
from unosim.rules.params import (P_BLUFF_PENALTY, P_CHALLENGE, P_CHALLENGE_EXTRA, P_CHALLENGE_SUCCESS_SKIP,
    P_DRAW4_AMOUNT, P_WILD_DRAW4)
from . import answers

RULES = ("R8", "H9", "H22")


@jit(inline=True)
def may_challenge(st):
    """R8: the pending draw is one play of Wild Draw Fours (one card, or a group under H6),
    not a stack (H1) nor passed on (H26), under ``restricted`` with challenges on."""
    return (st[S_PENDING_KIND] == WILD_DRAW4 and st[S_STACK_LEN] == st[S_PLAY_CARDS] and answers.challengeable(st)
            and rule(st, P_WILD_DRAW4) == WildDraw4.restricted and rule(st, P_CHALLENGE) != 0)


@jit(inline=True)
def challenge(st, P, rng, log, v):
    """Seat v challenges the pending Wild Draw Four.  A proven bluffer draws the pending
    cards (H9: the challenger still loses the turn), an honest player's challenger draws
    them plus ``challenge_extra`` (H18) and loses the turn.  Returns True when H22 takes a
    proven bluff back instead: the caller runs :func:`take_back`, nothing is settled yet."""
    st[S_CHALLENGES] += 1
    b = st[S_BLUFFER]
    proven = st[S_BLUFF]
    log_event(st, log, EV_CHALLENGE, v, b, proven)
    if proven and rule(st, P_BLUFF_PENALTY) == BluffPenalty.take_back:
        return True
    if proven:
        got = draw_cards(st, rng, log, b, st[S_PENDING], DR_CHALLENGE)
        log_event(st, log, EV_PENALTY, b, got, DR_CHALLENGE)
        answers.clear_pending(st)
        if rule(st, P_CHALLENGE_SUCCESS_SKIP) != 0:  # H9
            log_event(st, log, EV_SKIPPED, v, 0, 0)
            st[S_CUR] = next_seat(st, v)
    else:
        got = draw_cards(st, rng, log, v, st[S_PENDING] + rule(st, P_CHALLENGE_EXTRA), DR_CHALLENGE)
        log_event(st, log, EV_PENALTY, v, got, DR_CHALLENGE)
        answers.clear_pending(st)
        log_event(st, log, EV_SKIPPED, v, 0, 0)
        st[S_CUR] = next_seat(st, v)
    return False


@jit()
def take_back(st, log, b):
    """H22: the proven bluffer b takes the Wild Draw Four back (the whole group under H6;
    they no longer count as played) and the pile is as b found it, the colour before it in
    force.  Returns the cards taken back."""
    n = st[S_STACK_LEN]
    st[S_NDISC] -= n
    add_card(st, b, WILD_DRAW4, n)
    st[S_PLAYED] -= n
    st[S_COLOR] = st[S_PREV_COLOR]
    st[S_TOP] = st[S_PREV_TOP]  # the pile as the bluffer found it (scored against it)
    log_event(st, log, EV_TAKE_BACK, b, WILD_DRAW4, n)
    return n


@jit()
def redraw(st, rng, log, b, n):
    """H22: after its replacement card, b draws ``draw4_amount`` for each of the n cards it
    took back; the challenger draws nothing."""
    got = draw_cards(st, rng, log, b, n * rule(st, P_DRAW4_AMOUNT), DR_CHALLENGE)
    log_event(st, log, EV_PENALTY, b, got, DR_CHALLENGE)
