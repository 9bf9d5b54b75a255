"""One hand of UNO as plain functions over the state vector (docs/rules.md R2-R13, H1-H26, E1-E5).

:func:`step` is the loop: stall at ``max_turns`` (R13), else resolve a pending penalty, else
the current seat takes a turn.  Every card put down goes through :func:`play_card` or
:func:`play_multi` (H6), then :func:`settle` applies the contract's fixed order.  Where each
rule lives is the rule map in docs/design.md.
"""

from unosim.kernel.jit import jit

from ..bots import policy
from unosim.families import answers, seven_o
from unosim.families.calls import uno_moment
from unosim.kernel.layout import (DR_PENALTY, EV_END, EV_OUT, EV_PENALTY, EV_PLAY, EV_STACK, EV_STALL,
    N_KINDS, S_AS_WILD, S_BLUFF, S_BLUFFER, S_CUR, S_DONE, S_HAND0, S_HS0, S_IN, S_MULTI_PLAYS, S_NP, S_PENDING, S_PENDING_KIND,
    S_PLAN, S_PREV_COLOR, S_PREV_TOP, S_RANK0, S_SCR0, S_STACK_DRAWN, S_STACK_LEN, S_STALLED, S_TURNS, S_WINNER)
from unosim.kernel.piles import build_deck, draw_cards
from unosim.kernel.table import kind_colour, kind_rank, log_event, next_seat, rule, take_choice
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, WILD, WILD_DRAW4
from unosim.rules.codes import DrawnDraw4, Finish, MultiPlay
from unosim.rules.params import P_DRAWN_DRAW4, P_FINISH, P_MAX_TURNS, P_MULTI_PLAY
from .effects import is_draw_card, penalty_of, put_down
from .jump import jump_then_act
from .setup import deal, new_hand, reset, turn_first_card
from .turns import ASK, Source, begin_turn, face_penalty, take_turn

RULES = ("R12", "R13", "H6", "H13")

__all__ = ["begin_turn", "build_deck", "deal", "play_card", "play_hand", "play_multi", "put_down", "reset",
           "settle", "step", "stepper", "turn_first_card"]


@jit(inline=True)
def play_card(st, P, rng, log, p, k):
    """Seat p puts k down (in turn, drawn or stacked) and everything that follows happens."""
    put_down(st, P, rng, log, p, k, EV_STACK if st[S_PENDING_KIND] >= 0 else EV_PLAY)
    settle(st, P, rng, log, p, k, 1)


@jit()
def play_multi(st, P, rng, log, p, k):
    """H6: p plays k with more cards of its kind ("identical") or rank ("same_rank"),
    as the strategy plans, in turn or as a stack (H1, H25); the last card put down is
    the one on top."""
    top_c = plan_for(st, P, rng, p, k)
    base = S_HAND0 + p * N_KINDS
    ev = EV_STACK if st[S_PENDING_KIND] >= 0 else EV_PLAY
    count = 0
    if k >= WILD:
        n = min(max(st[S_SCR0], 1), st[base + k])
        put_down(st, P, rng, log, p, k, ev)
        bluff, before, under = st[S_BLUFF], st[S_PREV_COLOR], st[S_PREV_TOP]
        for _ in range(n - 1):
            put_down(st, P, rng, log, p, k, ev)
        if k == WILD_DRAW4:  # a group is one play: R8 tests the colour before its first card (H6)
            st[S_BLUFF], st[S_PREV_COLOR], st[S_PREV_TOP] = bluff, before, under
        count = n
        top = k
    else:
        r = kind_rank(k)
        same_rank = rule(st, P_MULTI_PLAY) == MultiPlay.same_rank
        kc = kind_colour(k)
        if not same_rank:
            top_c = kc
        top = top_c * RANKS_PER_COLOR + r
        for i in range(N_COLORS + 1):
            c = (top_c + 1 + i) % N_COLORS if i < N_COLORS else top_c  # the top colour goes last
            if i == N_COLORS - 1:
                continue
            if c != kc and not same_rank:
                continue
            want = st[S_SCR0 + c]
            if c == kc and want < 1:
                want = 1
            n = min(want, st[base + c * RANKS_PER_COLOR + r])
            for _ in range(n):
                put_down(st, P, rng, log, p, c * RANKS_PER_COLOR + r, ev)
            count += n
    if count > 1:
        st[S_MULTI_PLAYS] += 1
    settle(st, P, rng, log, p, top, count)


@jit(inline=True)
def plan_for(st, P, rng, p, k):
    """Which cards go down with k (:func:`unosim.bots.policy.multi_plan`): as the search
    seat p chose with its card (``S_PLAN``, used once), else as its strategy plans."""
    whole = take_choice(st, S_PLAN, p)
    if whole >= 0:
        return policy.chosen_plan(st, P, rng, p, k, whole == 1)
    return policy.multi_plan(st, P, rng, p, k)


@jit(inline=True)
def settle(st, P, rng, log, p, k, count):
    """What follows putting down ``count`` cards ending with k: the end of the hand (R12)
    or the UNO call (R10, or a wrong one, H23), the jump-in window (H2), then the effects."""
    left = st[S_HS0 + p]
    if left == 0:
        go_out(st, P, rng, log, p, k, count)
        return
    uno_moment(st, P, rng, log, p)
    jump_then_act(st, P, rng, log, p, k, count)


# --------------------------------------------------------------------------- the end (R12, R13, H13)
@jit()
def go_out(st, P, rng, log, p, k, count):
    """p played their last card(s): the hand ends (R12), or p leaves it (H13)."""
    n = st[S_NP]
    out_rank = n - st[S_IN] + 1
    st[S_RANK0 + p] = out_rank
    st[S_IN] -= 1
    log_event(st, log, EV_OUT, p, out_rank, 0)
    if out_rank == 1:
        st[S_WINNER] = p
    last_standing = rule(st, P_FINISH) == Finish.last_standing
    passed = st[S_PENDING_KIND] >= 0 and not is_draw_card(st, P, k)  # k passed the draw on (H26)
    if last_standing and st[S_IN] > 1:
        # H13: the last card still acts among the players left (not 0/7 or a giveaway)
        if passed:
            answers.pass_on(st, log, p)
            return
        if seven_o.silent_last_card(st, k):
            st[S_CUR] = next_seat(st, p)
            return
        jump_then_act(st, P, rng, log, p, k, count)
        return
    # R12: a draw card's penalty, with any pending stack, is still drawn; so is a draw passed on (H26)
    if passed:
        v = next_seat(st, p)
        got = draw_cards(st, rng, log, v, st[S_PENDING], DR_PENALTY)
        log_event(st, log, EV_PENALTY, v, got, DR_PENALTY)
        if st[S_STACK_LEN] > 1:
            st[S_STACK_DRAWN] += got
        answers.clear_pending(st)
    elif is_draw_card(st, P, k) and st[S_AS_WILD] == 0:
        v = next_seat(st, p)
        got = draw_cards(st, rng, log, v, st[S_PENDING] + penalty_of(st, P, k) * count, DR_PENALTY)
        log_event(st, log, EV_PENALTY, v, got, DR_PENALTY)
        if st[S_PENDING_KIND] >= 0:
            st[S_STACK_LEN] += 1
            st[S_STACK_DRAWN] += got
        elif st[S_STACK_LEN] == 0:
            st[S_STACK_LEN] = 1
        answers.clear_pending(st)
    if last_standing:
        for q in range(n):
            if st[S_RANK0 + q] == 0:
                st[S_RANK0 + q] = n
    end_hand(st, log)


@jit()
def end_hand(st, log):
    st[S_DONE] = 1
    log_event(st, log, EV_END, st[S_WINNER], 0, 0)


@jit()
def play_hand(st, P, rng, log, dealer):
    """Play one whole hand from the shuffle to the end on a state that holds P's rules
    (:func:`unosim.engine.setup.load_rules`); the result stays in ``st``."""
    new_hand(st, P, dealer)
    build_deck(st, P)
    deal(st, P, rng, log)
    turn_first_card(st, P, rng, log)
    while st[S_DONE] == 0:
        step(st, P, rng, log)


def stepper(turn, answer):
    """The hand loop's step, with the seat to act taking its turn through
    ``turn(st, P, rng, log, p, ctx)`` and answering a pending draw as
    ``answer(st, P, rng, log, ctx)`` says (:func:`face_pending`): :data:`step` (every seat
    by its strategy) is made here, the search's :data:`unosim.engine.search.searching_step`
    (some seats search) in that module, so the engine never names the search that plays
    it out."""

    @jit(inline=True)
    def step(st, P, rng, log, ctx=None):
        """One move of the loop: stall at ``max_turns`` (R13), else resolve a pending penalty
        or let the seat to act take its turn.  Scenario tests drive hands through this.
        ``ctx``: what ``turn`` reads besides the state (the search's seats; None here)."""
        if st[S_TURNS] >= rule(st, P_MAX_TURNS):
            st[S_STALLED] = 1
            st[S_WINNER] = -1
            log_event(st, log, EV_STALL, 0, 0, 0)
            end_hand(st, log)
            return
        if st[S_PENDING_KIND] >= 0:
            face_pending(st, P, rng, log, answer(st, P, rng, log, ctx))
            return
        p = st[S_CUR]
        k, source = turn(st, P, rng, log, p, ctx)
        put_move(st, P, rng, log, p, k, source)

    return step


@jit(inline=True)
def face_pending(st, P, rng, log, answer):
    """The seat in S_CUR answers the pending draw (``answer``: :func:`unosim.engine.turns.face_penalty`'s)
    and what it puts down, if anything, goes down."""
    p = st[S_CUR]
    k, source = face_penalty(st, P, rng, log, answer)
    if source == Source.replacement:  # H22: the bluffer's card acts as just played by them, R10 aside
        jump_then_act(st, P, rng, log, st[S_BLUFFER], k, 1)
        return
    if source == Source.pass_on:
        pass_play(st, P, rng, log, p, k)
        return
    put_move(st, P, rng, log, p, k, source)


@jit()
def pass_play(st, P, rng, log, p, k):
    """p passes the pending draw on with k, one card (H26): R10 as for any play, the end of
    the hand if it was p's last card (R12: the seat it passes to draws it), else the draw
    passes on; no jump-in window, no slap, no silence."""
    put_down(st, P, rng, log, p, k, answers.PASS_EVENT)
    answers.passed(st, log, k)
    if st[S_HS0 + p] == 0:
        go_out(st, P, rng, log, p, k, 1)
        return
    uno_moment(st, P, rng, log, p)
    answers.pass_on(st, log, p)


@jit(inline=True)
def own_answer(st, P, rng, log, ctx):
    """The answer to a pending draw left to the seat's strategy (``ctx`` unused)."""
    return ASK


@jit(inline=True)
def own_turn(st, P, rng, log, p, ctx):
    """A turn taken by the seat's own strategy (``ctx`` unused)."""
    return take_turn(st, P, rng, log, p)


@jit(inline=True)
def put_move(st, P, rng, log, p, k, source):
    """The card k a move chose goes down (nothing for k < 0): a single card through
    play_card; under H6 a card from the hand, in turn or as a stack, through play_multi,
    whose plan may be that card alone (a drawn card is always alone)."""
    if k < 0:
        return
    if (source == Source.hand or source == Source.stack) and rule(st, P_MULTI_PLAY) != MultiPlay.none:
        play_multi(st, P, rng, log, p, k)
        return
    if source == Source.drawn and k == WILD_DRAW4 and rule(st, P_DRAWN_DRAW4) == DrawnDraw4.wild:
        st[S_AS_WILD] = 1
    play_card(st, P, rng, log, p, k)



step = stepper(own_turn, own_answer)
"""One move of the loop (R13 stall, a pending penalty, or a turn by the seat's strategy)."""
