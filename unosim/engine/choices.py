"""What a search seat may choose at each decision it searches, and each option played
(:mod:`unosim.engine.search` samples the worlds and plays them out).

Four decisions (``kind``): the card in turn (:func:`options`; the wilds naming each
colour, the 7s and red 0s aimed at each opponent and the cards played alone or with their
group are encoded beside the plain kinds), the answer to a pending draw
(:func:`answer_options`; under H6 a stack alone or with its group too; a deflection, H26), the card just
drawn (keep 0, play 1) and a jump-in on the card of a waiting H2 window (stay out 0, jump
1; unosim.engine.jump).  An option is one int64; :func:`play_option` plays it from a
state as the engine would have, so a playout goes on with the engine's plain step.
"""

from __future__ import annotations

from unosim.bots import policy
from unosim.bots.common import N_CAND, can_bluff, cand, is_opponent, legal_slots, legal_view
from unosim.families.answers import ANSWER_KINDS, answer_copies, answers_on
from unosim.families.stacking import group_answers, stack_copies
from unosim.kernel.bits import lowest_bit
from unosim.kernel.jit import jit
from unosim.kernel.layout import EV_PLAY, N_KINDS, S_HAND0, S_HELD, S_JUMP_SAID, S_JUMP_YES, S_NP, S_PLAN, S_RANK0, S_TARGET
from unosim.kernel.moves import group_size
from unosim.kernel.table import kind_rank, leave_choice, rule
from unosim.rules.cards import N_COLORS, RED_ZERO, WILD, WILD_DRAW4
from unosim.rules.codes import MultiPlay, RedZero
from unosim.rules.params import MAX_PLAYERS, P_MULTI_PLAY, P_RED_ZERO, P_SEVEN_O, P_VOLUNTARY_DRAW
from .effects import put_down_naming
from .hand import face_pending, put_move, settle
from .jump import resume_window
from .turns import DRAW, after_draw, turn_with

TURN = 0    # what a search decides: the card to play in turn (:func:`options`) ...
ANSWER = 1  # ... the answer to a pending draw (:func:`answer_options`) ...
DRAWN = 2   # ... whether to play the card just drawn (0 keep, 1 play) ...
JUMP = 3    # ... whether to jump in on the card of a waiting H2 window (0 stay out, 1 jump)
MAX_OPTIONS = N_CAND + 2 + 2 * N_COLORS + (N_COLORS + 1) * (MAX_PLAYERS - 1) + 2 * (N_CAND + 1)
"""The candidate kinds, a bluff, a draw, each wild naming each colour, each 7 and the red 0
given to each opponent, each kind (and the bluff) alone and with its group."""
NAMED = N_KINDS
"""An option ``k + NAMED * (c + 1)``: the wild k naming colour c (``colours``); a plain
wild option names the rollout bot's colour."""
TARGETED = NAMED * (N_COLORS + 1)
"""An option ``k + TARGETED * (q + 1)``: the 7 (H4) or red 0 (H5) k, its swap or giveaway
going to opponent q; a plain option goes to the rollout bot's choice."""
GROUPED = TARGETED * (MAX_PLAYERS + 1)
"""An option ``k + GROUPED * m``: k played alone (m = 1) or with every card H6 lets go
with it (m = 2); a plain option plays as the rollout bot plans."""


@jit()
def options(st, P, p, opt):
    """Seat p's choices now, into ``opt``: each legal kind it holds (R5, R8, H7), a Wild
    Draw Four bluff when only a bluff would play it (R8), a draw (-1) when nothing is
    legal or R7 allows one (not under H8).  Returns how many."""
    n = 0
    c, tr, wok, w4ok = legal_view(st, P, p)
    base = S_HAND0 + p * N_KINDS
    slots = legal_slots(st, base, c, tr, wok, w4ok)
    while slots:
        opt[n] = cand(lowest_bit(slots), c, tr)
        slots &= slots - 1
        n += 1
    if can_bluff(st, P, p):
        opt[n] = WILD_DRAW4
        n += 1
    if n == 0 or rule(st, P_VOLUNTARY_DRAW) != 0:
        opt[n] = -1
        n += 1
    return n


@jit()
def named_options(st, P, opt, n):
    """``colours``: after the ``n`` options in ``opt``, each wild among them naming each
    colour (R9); none under H6, where a wild may go down with others.  Returns how many."""
    if rule(st, P_MULTI_PLAY) != MultiPlay.none:
        return n
    m = n
    for j in range(n):
        if opt[j] >= WILD:
            for c in range(N_COLORS):
                opt[m] = opt[j] + NAMED * (c + 1)
                m += 1
    return m


@jit()
def target_options(st, P, p, opt, n):
    """After the ``n`` options in ``opt``, each 7 under H4 and the red 0 under H5 ``giveaway``
    among them going to each opponent still in the hand, when there are two or more to
    choose from.  Returns how many."""
    seven = rule(st, P_SEVEN_O) != 0
    give = rule(st, P_RED_ZERO) == RedZero.giveaway
    if not seven and not give:
        return n
    count = 0
    for q in range(st[S_NP]):
        if st[S_RANK0 + q] == 0 and is_opponent(st, p, q):
            count += 1
    if count < 2:
        return n
    m = n
    for j in range(n):
        k = opt[j]
        if 0 <= k < WILD and ((seven and kind_rank(k) == 7) or (give and k == RED_ZERO)):
            for q in range(st[S_NP]):
                if st[S_RANK0 + q] == 0 and is_opponent(st, p, q):
                    opt[m] = k + TARGETED * (q + 1)
                    m += 1
    return m


@jit()
def group_options(st, P, p, opt, n):
    """Under H6, after the ``n`` options in ``opt``: each card kind among them that others
    may go down with (:func:`unosim.kernel.moves.group_size`) played alone and with its
    whole group.  Returns how many."""
    if rule(st, P_MULTI_PLAY) == MultiPlay.none:
        return n
    m = n
    for j in range(n):
        k = opt[j]
        if 0 <= k < N_KINDS and group_size(st, P, p, k) > 1:
            opt[m] = k + GROUPED
            opt[m + 1] = k + 2 * GROUPED
            m += 2
    return m


@jit()
def answer_options(st, P, p, opt):
    """Seat p's answers to the pending draw it faces once it did not challenge it (R8: the
    rollout bot's call, :func:`unosim.engine.search.searched_answer`), into ``opt``: each
    kind it may stack (H1, H7; under H25 with H6 a kind that answers only with its whole
    group too) or deflect it with (H26), take it (``DRAW``), and under H6 each kind that answers alone and has
    others to go down with it, stacked alone and with its whole group (``k + GROUPED *
    m`` as :func:`group_options`).  Returns how many."""
    n = 0
    if answers_on(st):
        for i in range(len(ANSWER_KINDS)):
            k = ANSWER_KINDS[i]
            if answer_copies(st, P, p, k) > 0 or group_answers(st, P, p, k):
                opt[n] = k
                n += 1
    opt[n] = DRAW
    m = n + 1
    if rule(st, P_MULTI_PLAY) != MultiPlay.none:
        for j in range(n):
            k = opt[j]
            if stack_copies(st, P, p, k) > 0 and group_size(st, P, p, k) > 1:
                opt[m] = k + GROUPED
                opt[m + 1] = k + 2 * GROUPED
                m += 2
    return m


@jit(inline=True)
def stacked_kind(st, p, o):
    """The card kind answer option o stacks, its plan (alone, or its whole group: ``o >=
    GROUPED``) left for seat p's play to take (``S_PLAN``, :func:`unosim.engine.hand.plan_for`,
    which every stack under H6 goes through); other answers as they are."""
    if o >= GROUPED:
        leave_choice(st, S_PLAN, p, o // GROUPED - 1)
        return o % GROUPED
    return o


@jit(inline=True)
def play_named(st, P, rng, log, p, k, named):
    """Seat p puts the wild k down from its hand naming colour ``named``, and everything
    that follows happens (:func:`unosim.engine.hand.play_card` with the colour given)."""
    put_down_naming(st, P, rng, log, p, k, EV_PLAY, named)
    settle(st, P, rng, log, p, k, 1)


@jit(inline=True)
def play_option(w, P, rng, log, p, o, kind, card):
    """Option o of a decision of ``kind`` played by seat p: a card in turn (:func:`options`,
    :func:`named_options`, :func:`target_options`, :func:`group_options`), an answer to a
    pending draw (:func:`answer_options`), the drawn ``card`` kept or played, a jump-in
    taken or not (the other seats answer the window by their strategies)."""
    if kind == ANSWER:
        face_pending(w, P, rng, log, stacked_kind(w, p, o))
        return
    if kind == JUMP:
        answer_jump(w, p, o)
        resume_window(w, P, rng, log)
        return
    if kind == DRAWN:
        k, source = after_draw(w, P, rng, log, p, card, o)
        put_move(w, P, rng, log, p, k, source)
        return
    if o >= GROUPED:
        play_grouped(w, P, rng, log, p, o)
        return
    if o >= TARGETED:
        play_targeted(w, P, rng, log, p, o)
        return
    if o >= NAMED:
        k, _ = turn_with(w, P, rng, log, p, o % NAMED)
        play_named(w, P, rng, log, p, k, o // NAMED - 1)
        return
    k, source = turn_with(w, P, rng, log, p, o)
    put_move(w, P, rng, log, p, k, source)


@jit(inline=True)
def play_grouped(st, P, rng, log, p, o):
    """Seat p plays the card of option o in turn, alone or with its whole group as the
    option says (``S_PLAN``)."""
    play_leaving(st, P, rng, log, p, o % GROUPED, S_PLAN, o // GROUPED - 1)


@jit(inline=True)
def play_targeted(st, P, rng, log, p, o):
    """Seat p plays the 7 or red 0 of option o in turn, its swap or giveaway going to the
    opponent the option names (``S_TARGET``)."""
    play_leaving(st, P, rng, log, p, o % TARGETED, S_TARGET, o // TARGETED - 1)


@jit(inline=True)
def play_leaving(st, P, rng, log, p, k, slot, value):
    """Seat p plays k in turn with ``value`` left in ``slot`` for the play to take
    (:func:`unosim.kernel.table.leave_choice`), cleared once the play is over: a card
    jumped on (H2) or gone out with (H13) never acts, and its choice must not wait for a
    later one."""
    leave_choice(st, slot, p, value)
    k, source = turn_with(st, P, rng, log, p, k)
    put_move(st, P, rng, log, p, k, source)
    if st[S_HELD] == 0:  # else the window waits, and its end clears it (jump.resume_window)
        st[slot] = 0


@jit(inline=True)
def answer_jump(st, q, o):
    """Seat q's answer to the waiting H2 window's next round: jump in (o = 1) or not."""
    st[S_JUMP_SAID] |= 1 << q
    if o == 1:
        st[S_JUMP_YES] |= 1 << q
    else:
        st[S_JUMP_YES] &= ~(1 << q)


@jit(inline=True)
def own_choice(st, P, rng, p, kind, card):
    """What the rollout bot would decide (a card, its stack or ``DRAW``, 1 to play the
    drawn card, 1 to jump in)."""
    if kind == TURN:
        return policy.choose_play(st, P, rng, p)
    if kind == DRAWN:
        return 1 if policy.play_drawn(st, P, rng, p, card) else 0
    if kind == JUMP:
        return 1 if policy.wants_jump(st, P, rng, p, st[S_HELD] - 1) else 0
    if answers_on(st):
        return max(policy.choose_stack(st, P, rng, p), DRAW)
    return DRAW


__all__ = ["ANSWER", "DRAWN", "GROUPED", "JUMP", "MAX_OPTIONS", "NAMED", "TARGETED", "TURN", "answer_jump",
           "answer_options", "group_options", "named_options", "options", "own_choice", "play_grouped",
           "play_leaving", "play_named", "play_option", "play_targeted", "stacked_kind", "target_options"]
