"""A seat's turn up to the card it plays: the table's checks as it opens
(:mod:`unosim.families.calls`), playing from the hand or drawing (R6, R7, H3, E2, E3), and
facing a pending draw card: challenge it (:mod:`unosim.families.challenge`), answer it
(:mod:`unosim.families.answers`) or draw it."""

from collections import namedtuple

from unosim.kernel.jit import jit

from ..bots import policy
from ..bots.common import legal_view
from unosim.kernel.layout import (DR_PENALTY, DR_TURN, EV_KEEP, EV_PASS, EV_PENALTY, EV_PLAY, EV_SKIPPED, N_KINDS,
    S_BLUFFER, S_COLOR, S_CUR, S_HAND0, S_MAX_DRAW, S_PENDING, S_STACK_DRAWN, S_STACK_LEN, S_TURNS, S_VOL_DRAWS)
from unosim.families import answers, calls, challenge
from unosim.kernel.moves import is_legal, wild_allowed
from unosim.kernel.piles import draw_card, draw_cards
from unosim.kernel.table import color_count, kind_colour, log_event, next_seat, rule
from unosim.rules.cards import RANKS_PER_COLOR, WILD, WILD_DRAW4
from unosim.rules.codes import Draw, DrawnDraw4, DrawnMatch, PlayDrawn
from unosim.rules.params import P_DRAW, P_DRAWN_DRAW4, P_DRAWN_MATCH, P_MISPLAY, P_PLAY_DRAWN
from .effects import put_down

ASK = -3
"""A decision left to the seat's strategy (:func:`face_penalty`, :func:`after_draw`)."""
CHALLENGE = -2
"""Facing a Wild Draw Four: challenge it (R8)."""
DRAW = -1
"""Facing a pending draw: take it (neither challenge nor stack)."""

RULES = ("R6", "R7", "H3", "E2", "E3")

Source = namedtuple("Source", ["none", "hand", "drawn", "stack", "replacement", "pass_on"])(*range(6))
"""Where the card a move puts down comes from: no card (drew and kept, or passed), the
hand in turn, the card just drawn (R6, H3), the hand onto a pending draw card (H1), a
proven bluffer's replacement card, already down (H22: it acts as the bluffer's card), or
the hand to pass a pending draw on (H26)."""


@jit()
def holds_legal(st, P, p):
    """p holds a card it may play honestly now: a draw instead is voluntary (R7), counted
    in O1 ``voluntary_draws`` so a sweep can tell whether forced play (H8) ever acted."""
    c, tr, wok, w4ok = legal_view(st, P, p)
    if color_count(st, p, c) > 0 or w4ok:
        return True
    base = S_HAND0 + p * N_KINDS
    if wok and st[base + WILD] > 0:
        return True
    if tr < 0:
        return False
    r = base + tr  # the top's rank in each colour: four plain loads (as a loop, the compiler may gather them)
    return st[r] + st[r + RANKS_PER_COLOR] + st[r + 2 * RANKS_PER_COLOR] + st[r + 3 * RANKS_PER_COLOR] > 0


@jit(inline=True)
def begin_turn(st, P, rng, log, a):
    """Count a turn for seat a (O1) and run the H11 silence check that opens it."""
    st[S_TURNS] += 1
    calls.silence_check(st, P, rng, log, a)


@jit(inline=True)
def drawn_playable(st, P, p, c):
    """May p play the card c just drawn?  R6 legality, narrowed by E2 (colour matches
    only) and widened by E3 (a drawn Wild Draw Four plays as a plain Wild)."""
    if c == WILD_DRAW4 and rule(st, P_DRAWN_DRAW4) == DrawnDraw4.wild:
        return wild_allowed(st, P, p, 1)
    if not is_legal(st, P, p, c):
        return False
    return rule(st, P_DRAWN_MATCH) == DrawnMatch.any or c >= WILD or kind_colour(c) == st[S_COLOR]


@jit(inline=True)
def take_turn(st, P, rng, log, p):
    """Seat p's turn up to the choice of card: returns (card, source), the source a
    :data:`Source` code (``Source.none`` and card -1 when the turn ended without a play)."""
    open_turn(st, P, rng, log, p)
    return turn_with(st, P, rng, log, p, policy.choose_play(st, P, rng, p))


@jit(inline=True)
def open_turn(st, P, rng, log, p):
    """What happens to seat p as its turn opens, before it chooses: the H11 check, H24."""
    begin_turn(st, P, rng, log, p)
    if P[P_MISPLAY] > 0.0:
        calls.misplay(st, P, rng, log, p)


@jit(inline=True)
def turn_with(st, P, rng, log, p, k):
    """The rest of p's turn once it chose k from its hand (-1: draw, R6, R7, H3), as
    :func:`take_turn` returns it; a search seat's playouts start here (unosim.engine.search)."""
    if k >= 0:
        return k, Source.hand
    return after_draw(st, P, rng, log, p, draw_in_turn(st, P, rng, log, p, False), ASK)


@jit(inline=True)
def draw_in_turn(st, P, rng, log, p, searched):
    """p chose to draw (R7 counts it as voluntary when it held a legal card; ``searched``:
    a search chose it): one card (R6), or until a legal one shows (H3).  Returns the card
    drawn last, -1 if none."""
    if policy.may_draw_holding(st, P, p, searched) and holds_legal(st, P, p):  # R7: p chose to draw
        st[S_VOL_DRAWS] += 1
    if rule(st, P_DRAW) == Draw.until_playable:  # H3: draw until a legal card shows, then play it
        got = 0
        while True:
            c = draw_card(st, rng, log, p, DR_TURN)
            if c < 0:
                break
            got += 1
            if drawn_playable(st, P, p, c):
                break
        if got > st[S_MAX_DRAW]:  # the turn's draws count as one draw "at once"
            st[S_MAX_DRAW] = got
        return c
    c = draw_card(st, rng, log, p, DR_TURN)
    if c >= 0 and st[S_MAX_DRAW] < 1:
        st[S_MAX_DRAW] = 1
    return c


@jit(inline=True)
def drawn_choice(st, P, p, c):
    """Is playing the card c p just drew its own choice (R6 ``may``, the card playable, one
    card drawn: H3 plays it)?  Then :func:`after_draw`'s ``play`` decides."""
    return (c >= 0 and rule(st, P_DRAW) != Draw.until_playable and rule(st, P_PLAY_DRAWN) == PlayDrawn.may
            and drawn_playable(st, P, p, c))


@jit(inline=True)
def after_draw(st, P, rng, log, p, c, play):
    """The end of p's turn after it drew c (-1: the pile gave nothing): c played (H3; R6
    ``must``; ``may`` when ``play`` is 1, or when its strategy wants it for ``ASK``), or
    kept, or a pass.  Returns what :func:`take_turn` returns."""
    if c >= 0:
        if rule(st, P_DRAW) == Draw.until_playable:
            return c, Source.drawn
        mode = rule(st, P_PLAY_DRAWN)
        if (mode != PlayDrawn.never and drawn_playable(st, P, p, c)
                and (mode == PlayDrawn.must or (policy.play_drawn(st, P, rng, p, c) if play == ASK else play == 1))):
            return c, Source.drawn
        log_event(st, log, EV_KEEP, p, c, 0)
        st[S_CUR] = next_seat(st, p)
        return -1, Source.none
    log_event(st, log, EV_PASS, p, 0, 0)
    st[S_CUR] = next_seat(st, p)
    return -1, Source.none


@jit()
def face_penalty(st, P, rng, log, answer):
    """The seat in S_CUR faces a pending draw: challenge it (R8), stack on it (H1: returns
    the card to stack, the turn already begun), pass it on (H26: the card, ``Source.pass_on``,
    the turn already opened), or draw it; ``answer`` says which
    (``CHALLENGE``, a card kind to stack, ``DRAW``: a search seat's choice, legal by
    :func:`unosim.engine.search.answer_options`) or ``ASK``s its strategy.  Returns
    (card, source): the card to stack (``Source.stack``), a proven bluffer's replacement
    card, already down (``Source.replacement``, H22), or (-1, ``Source.none``)."""
    v = st[S_CUR]
    if challenge.may_challenge(st) and (policy.challenge(st, P, rng, v) if answer == ASK else answer == CHALLENGE):
        if challenge.challenge(st, P, rng, log, v):  # H22: the bluffer's replacement card, already down
            k = take_back(st, P, rng, log, st[S_BLUFFER])
            answers.clear_pending(st)
            if k >= 0:
                return k, Source.replacement
        return -1, Source.none
    if answers.answers_on(st):
        k = policy.choose_stack(st, P, rng, v) if answer == ASK else max(answer, DRAW)
        if k >= 0:
            begin_turn(st, P, rng, log, v)
            if answers.passes_on(st, k):  # a turn like any other: H24 too
                if P[P_MISPLAY] > 0.0:
                    calls.misplay(st, P, rng, log, v)
                return k, Source.pass_on
            return k, Source.stack
    total = st[S_PENDING]
    got = draw_cards(st, rng, log, v, total, DR_PENALTY)
    log_event(st, log, EV_PENALTY, v, got, DR_PENALTY)
    if st[S_STACK_LEN] > 1:
        st[S_STACK_DRAWN] += got
    answers.clear_pending(st)
    log_event(st, log, EV_SKIPPED, v, 0, 0)
    st[S_CUR] = next_seat(st, v)
    return -1, Source.none


@jit()
def take_back(st, P, rng, log, b):
    """H22: the proven bluffer b takes its Wild Draw Four back, puts down one card of the
    colour that was in force before it, chosen by its strategy, then draws for each card
    taken back (:mod:`unosim.families.challenge`).  Returns the replacement card, whose
    effects the caller runs as b's (-1 if b holds none, which R8 makes impossible: the
    bluff was proven by such a card)."""
    n = challenge.take_back(st, log, b)
    k = policy.choose_replacement(st, P, rng, b, st[S_COLOR])
    if k >= 0:
        put_down(st, P, rng, log, b, k, EV_PLAY)
    challenge.redraw(st, rng, log, b, n)
    return k
