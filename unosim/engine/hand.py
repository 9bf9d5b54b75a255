"""One hand of UNO as plain functions over the state vector (docs/rules.md R2-R13, H1-H16).

The loop is: resolve a pending penalty (R8 challenge, H1 stack, or draw it), else the
seat in ``S_CUR`` takes a turn (R5-R7, H3).  Every card put down goes through
:func:`play_card`, which runs the contract's fixed order: UNO call (R10), end of the
hand (R12), jump-in window (H2), slap (H10), silence (H11), then the card's effect (R9,
H4, H5).  Effects never recurse: they set the next seat and, for draw cards, a pending
penalty that the loop resolves, so a stack of any length is a loop, not a call chain.
"""

from numba import njit

from ..bots import policy
from unosim.rules.params import (BOT_STRIDE, MAX_PLAYERS, P_BOT0, P_CHALLENGE, P_CHALLENGE_EXTRA,
    P_CHALLENGE_SKIP, P_DRAW, P_DRAW2_AMOUNT, P_DRAWN_DRAW4, P_DRAWN_MATCH, P_DRAW4_AMOUNT, P_FINISH,
    P_FIRST_CARD, P_FIRST_DRAW2_SKIPS, P_HAND_SIZE, P_JUMP_IN, P_JUMP_IN_STACK, P_MAX_TURNS, P_MULTI_PLAY,
    P_NOISE_CHANCE, P_PLAY_DRAWN, P_PLAYERS, P_RED_ZERO, P_SCORE0, P_SEVEN_O, P_SILENT_RANK, P_SLAP_RANK,
    P_STACKING, P_TWO_PLAYER_REVERSE, P_UNO_CAUGHT, P_UNO_FORGET, P_WATCHERS, P_WILD_DRAW4)
from unosim.kernel.layout import (DR_CHALLENGE, DR_NOISE, DR_PENALTY, DR_SLAP, DR_TURN, DR_UNO, EV_CHALLENGE,
    EV_DEAL, EV_END, EV_FACING, EV_GIVEAWAY, EV_JUMP, EV_KEEP, EV_NOISE, EV_OUT, EV_PASS, EV_PASS_HANDS,
    EV_PENALTY, EV_PLAY, EV_RETURN, EV_REVERSE, EV_SILENCE, EV_SKIPPED, EV_SLAP, EV_STACK, EV_STALL, EV_SWAP,
    EV_TURN_UP, EV_UNO, N_KINDS, S_AS_WILD, S_BLUFF, S_BOT0, S_BLUFFER, S_CHALLENGES, S_COLOR, S_CUR,
    S_DEALER, S_DIR, S_DONE, S_DRAW0, S_FIRST, S_GIVEAWAYS, S_HAND0, S_HS0, S_IN, S_JUMP_INS, S_LAST_PLAYER,
    S_LOGCAP, S_LONGEST_STACK, S_MAX_DRAW, S_MEM0, S_NDRAW, S_NOISES, S_NP, S_PASSES, S_PENDING,
    S_PENDING_KIND, S_PLAYED, S_RANK0, S_RULE0, S_SCORE0, S_SCR0, S_SILENT, S_SLAPS, S_STACK_DRAWN,
    S_STACK_LEN, S_STALLED, S_SWAPS, S_TOP, S_TURNS, S_UNO_PENALTIES, S_WINNER)
from unosim.kernel.moves import draw4_honest, is_legal, wild_allowed
from unosim.kernel.piles import build_deck, discard, draw_card, draw_cards, shuffle
from unosim.kernel.rng import below, chance
from unosim.kernel.table import add_card, log_event, next_seat, rule, wrap

WILD = 52
WILD_DRAW4 = 53
SKIP = 10
REVERSE = 11
DRAW2 = 12
RED_ZERO = 0


# --------------------------------------------------------------------------- set-up (R2, R3)
@njit(cache=True)
def reset(st, P, dealer):
    """Zero the scalars, the seats' hands and (for watching strategies) bot memory, and
    copy the score table in as integers; the piles are overwritten by the deal, and the
    log capacity (S_LOGCAP) is kept."""
    n = int(P[P_PLAYERS])
    cap = st[S_LOGCAP]
    for i in range(S_HAND0 + n * N_KINDS):
        st[i] = 0
    st[S_LOGCAP] = cap
    if P[P_WATCHERS] != 0.0:  # only watching strategies (counter) keep memory
        for i in range(S_MEM0, S_MEM0 + n * N_KINDS):
            st[i] = 0
    for k in range(N_KINDS):
        st[S_SCORE0 + k] = int(P[P_SCORE0 + k])
    for i in range(P_SCORE0):  # the switches as integers: no float compares on the hot path
        st[S_RULE0 + i] = int(P[i])
    for q in range(MAX_PLAYERS):
        st[S_BOT0 + q] = int(P[P_BOT0 + q * BOT_STRIDE])
    st[S_NP] = n
    st[S_IN] = n
    st[S_DIR] = 1
    st[S_DEALER] = dealer
    st[S_WINNER] = -1
    st[S_PENDING_KIND] = -1
    st[S_SILENT] = -1
    st[S_LAST_PLAYER] = -1


@njit(cache=True)
def deal(st, P, rng, log):
    """R2: ``hand_size`` rounds of one card each, starting left of the dealer."""
    n = st[S_NP]
    dealer = st[S_DEALER]
    for _ in range(int(P[P_HAND_SIZE])):
        p = dealer
        for i in range(n):
            p = wrap(p + 1, n)
            top = st[S_NDRAW] - 1
            add_card(st, p, st[S_DRAW0 + top], 1)
            st[S_NDRAW] = top
            log_event(st, log, EV_DEAL, p, st[S_DRAW0 + top], 0)


@njit(cache=True, inline="always")
def turnable(k, number_only):
    """R3/H16: may k start the discard pile?"""
    if k == WILD_DRAW4:
        return False
    return not number_only or (k < WILD and k % 13 <= 9)


@njit(cache=True)
def turn_first_card(st, P, rng, log):
    """R3: turn cards until one may start the pile, then apply its effect on the first seat.

    If no card left in the draw pile may start it (possible only when the deal took
    almost every card), the top card is used as it is and a Wild Draw Four counts as a
    Wild (README, rules choices).
    """
    number_only = P[P_FIRST_CARD] != 0.0
    n_draw = st[S_NDRAW]
    eligible = 0
    for i in range(n_draw):
        if turnable(st[S_DRAW0 + i], number_only):
            eligible += 1
    while True:
        k = st[S_DRAW0 + st[S_NDRAW] - 1]
        if eligible == 0 or turnable(k, number_only):
            break
        log_event(st, log, EV_RETURN, k, 0, 0)
        shuffle(st, S_DRAW0, n_draw, rng)
    st[S_NDRAW] = n_draw - 1
    discard(st, k)
    st[S_TOP] = k
    log_event(st, log, EV_TURN_UP, k, 0, 0)
    n = st[S_NP]
    dealer = st[S_DEALER]
    first = next_seat(st, dealer)
    cur = first
    if k >= WILD:
        st[S_COLOR] = policy.choose_color(st, P, rng, first)
        log_event(st, log, EV_PLAY, -1, k, st[S_COLOR])
    else:
        st[S_COLOR] = k // 13
        r = k % 13
        if r == DRAW2:
            got = draw_cards(st, rng, log, first, int(P[P_DRAW2_AMOUNT]), DR_PENALTY)
            log_event(st, log, EV_PENALTY, first, got, DR_PENALTY)
            if P[P_FIRST_DRAW2_SKIPS] != 0.0:
                log_event(st, log, EV_SKIPPED, first, 0, 0)
                cur = next_seat(st, first)
        elif r == SKIP:
            log_event(st, log, EV_SKIPPED, first, 0, 0)
            cur = next_seat(st, first)
        elif r == REVERSE and not (n == 2 and P[P_TWO_PLAYER_REVERSE] != 0.0):
            st[S_DIR] = -1
            log_event(st, log, EV_REVERSE, -1, 0, 0)
            cur = dealer
    st[S_CUR] = cur
    st[S_FIRST] = cur


# --------------------------------------------------------------------------- turns (R5-R7, H3, H11)
@njit(cache=True, inline="always")
def begin_turn(st, P, rng, log, a):
    """Count a turn for seat a (O1) and run the H11 silence check that opens it."""
    st[S_TURNS] += 1
    keeper = st[S_SILENT]
    if keeper >= 0 and st[S_RANK0 + keeper] != 0:
        st[S_SILENT] = -1  # the keeper left the hand (H13): nobody keeps it any more
    elif keeper >= 0:
        if chance(rng, P[P_NOISE_CHANCE]) and st[S_IN] > 1:
            n = st[S_NP]
            count = 0
            for q in range(n):
                if q != a and st[S_RANK0 + q] == 0:
                    count += 1
            u = below(rng, count)
            for q in range(n):
                if q != a and st[S_RANK0 + q] == 0:
                    if u == 0:
                        got = draw_cards(st, rng, log, q, 2, DR_NOISE)
                        st[S_NOISES] += 1
                        log_event(st, log, EV_NOISE, q, got, 0)
                        break
                    u -= 1
            st[S_SILENT] = -1
        elif keeper == a:
            st[S_SILENT] = -1


@njit(cache=True, inline="always")
def drawn_playable(st, P, p, c):
    """May p play the card c just drawn?  R6 legality, narrowed by E2 (colour matches
    only) and widened by E3 (a drawn Wild Draw Four plays as a plain Wild)."""
    if c == WILD_DRAW4 and rule(st, P_DRAWN_DRAW4) != 0:
        return wild_allowed(st, P, p, 1)
    if not is_legal(st, P, p, c):
        return False
    return rule(st, P_DRAWN_MATCH) == 0 or c >= WILD or c // 13 == st[S_COLOR]


@njit(cache=True, inline="always")
def take_turn(st, P, rng, log, p):
    """Seat p's turn up to the choice of card: returns (card, how) with how = 0 when the
    turn ended without a play (drew and kept, or passed: R6, R11), 1 for a card from the
    hand, 2 for the card just drawn (R6, H3)."""
    begin_turn(st, P, rng, log, p)
    k = policy.choose_play(st, P, rng, p)
    if k >= 0:
        return k, 1
    if rule(st, P_DRAW) != 0:  # H3: draw until a legal card shows, then play it
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
        if c >= 0:
            return c, 2
    else:
        c = draw_card(st, rng, log, p, DR_TURN)
        if c >= 0:
            if st[S_MAX_DRAW] < 1:
                st[S_MAX_DRAW] = 1
            mode = rule(st, P_PLAY_DRAWN)
            if mode != 2 and drawn_playable(st, P, p, c) and (mode == 1 or policy.play_drawn(st, P, rng, p, c)):
                return c, 2
            log_event(st, log, EV_KEEP, p, c, 0)
            st[S_CUR] = next_seat(st, p)
            return -1, 0
    log_event(st, log, EV_PASS, p, 0, 0)
    st[S_CUR] = next_seat(st, p)
    return -1, 0


# --------------------------------------------------------------------------- penalties (R8, H1)
@njit(cache=True)
def face_penalty(st, P, rng, log):
    """The seat in S_CUR faces a pending draw: challenge it (R8), stack on it (H1: returns
    the card to stack, the turn already begun), or draw it; -1 unless stacking."""
    v = st[S_CUR]
    pk = st[S_PENDING_KIND]
    if (pk == WILD_DRAW4 and st[S_STACK_LEN] == 1 and rule(st, P_WILD_DRAW4) == 0
            and rule(st, P_CHALLENGE) != 0 and policy.challenge(st, P, rng, v)):
        st[S_CHALLENGES] += 1
        b = st[S_BLUFFER]
        proven = st[S_BLUFF]
        log_event(st, log, EV_CHALLENGE, v, b, proven)
        if proven:
            got = draw_cards(st, rng, log, b, st[S_PENDING], DR_CHALLENGE)
            log_event(st, log, EV_PENALTY, b, got, DR_CHALLENGE)
            clear_pending(st)
            if rule(st, P_CHALLENGE_SKIP) != 0:  # H9
                log_event(st, log, EV_SKIPPED, v, 0, 0)
                st[S_CUR] = next_seat(st, v)
        else:
            got = draw_cards(st, rng, log, v, st[S_PENDING] + rule(st, P_CHALLENGE_EXTRA), DR_CHALLENGE)
            log_event(st, log, EV_PENALTY, v, got, DR_CHALLENGE)
            clear_pending(st)
            log_event(st, log, EV_SKIPPED, v, 0, 0)
            st[S_CUR] = next_seat(st, v)
        return -1
    if rule(st, P_STACKING) != 0:
        k = policy.choose_stack(st, P, rng, v)
        if k >= 0:
            begin_turn(st, P, rng, log, v)
            return k
    total = st[S_PENDING]
    got = draw_cards(st, rng, log, v, total, DR_PENALTY)
    log_event(st, log, EV_PENALTY, v, got, DR_PENALTY)
    if st[S_STACK_LEN] > 1:
        st[S_STACK_DRAWN] += got
    clear_pending(st)
    log_event(st, log, EV_SKIPPED, v, 0, 0)
    st[S_CUR] = next_seat(st, v)
    return -1


@njit(cache=True, inline="always")
def clear_pending(st):
    if st[S_STACK_LEN] > st[S_LONGEST_STACK]:
        st[S_LONGEST_STACK] = st[S_STACK_LEN]
    st[S_PENDING] = 0
    st[S_PENDING_KIND] = -1
    st[S_STACK_LEN] = 0
    st[S_BLUFF] = 0


# --------------------------------------------------------------------------- playing a card
@njit(cache=True, inline="always")
def is_draw_card(st, P, k):
    """Draw Two, Wild Draw Four, and the H5 +10: the next player draws and loses the turn,
    even when H18 sets the amount to 0."""
    return k == WILD_DRAW4 or (k < WILD and k % 13 == DRAW2) or (k == RED_ZERO and rule(st, P_RED_ZERO) == 1)


@njit(cache=True, inline="always")
def penalty_of(st, P, k):
    """Cards a draw card makes the next player draw (R9, H5, H18); 0 for other cards."""
    if k == WILD_DRAW4:
        return rule(st, P_DRAW4_AMOUNT)
    if k < WILD and k % 13 == DRAW2:
        return rule(st, P_DRAW2_AMOUNT)
    if k == RED_ZERO and rule(st, P_RED_ZERO) == 1:
        return 10
    return 0


@njit(cache=True, inline="always")
def put_down(st, P, rng, log, p, k, ev):
    """Move k from p's hand to the pile and name a colour for a wild."""
    base = S_HAND0 + p * N_KINDS
    if k == WILD_DRAW4:
        st[S_BLUFF] = 0 if draw4_honest(st, P, p) else 1
        st[S_BLUFFER] = p
    st[base + k] -= 1
    st[S_HS0 + p] -= 1
    discard(st, k)
    st[S_TOP] = k
    st[S_PLAYED] += 1
    st[S_LAST_PLAYER] = p
    if k >= WILD:
        st[S_COLOR] = policy.choose_color(st, P, rng, p)
    else:
        st[S_COLOR] = k // 13
    policy.observe_play(st, P, p, k)
    log_event(st, log, ev, p, k, st[S_COLOR])


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def play_card(st, P, rng, log, p, k):
    """Seat p puts k down (in turn, drawn or stacked) and everything that follows happens."""
    put_down(st, P, rng, log, p, k, EV_STACK if st[S_PENDING_KIND] >= 0 else EV_PLAY)
    settle(st, P, rng, log, p, k, 1)


@njit(cache=True)
def play_multi(st, P, rng, log, p, k):
    """H6: p plays k with more cards of its kind ("identical") or rank ("same_rank"),
    as the strategy plans; the last card put down is the one on top."""
    top_c = policy.multi_plan(st, P, rng, p, k)
    base = S_HAND0 + p * N_KINDS
    count = 0
    if k >= WILD:
        n = min(max(st[S_SCR0], 1), st[base + k])
        for _ in range(n):
            put_down(st, P, rng, log, p, k, EV_PLAY)
        count = n
        top = k
    else:
        r = k % 13
        same_rank = rule(st, P_MULTI_PLAY) == 2
        kc = k // 13
        if not same_rank:
            top_c = kc
        top = top_c * 13 + r
        for i in range(5):
            c = (top_c + 1 + i) % 4 if i < 4 else top_c  # the top colour goes last
            if i == 3:
                continue
            if c != kc and not same_rank:
                continue
            want = st[S_SCR0 + c]
            if c == kc and want < 1:
                want = 1
            n = min(want, st[base + c * 13 + r])
            for _ in range(n):
                put_down(st, P, rng, log, p, c * 13 + r, EV_PLAY)
            count += n
    settle(st, P, rng, log, p, top, count)


@njit(cache=True, inline="always")
def settle(st, P, rng, log, p, k, count):
    """What follows putting down ``count`` cards ending with k: the end of the hand (R12)
    or the UNO call (R10), the jump-in window (H2), then the effects."""
    left = st[S_HS0 + p]
    if left == 0:
        go_out(st, P, rng, log, p, k, count)
        return
    if left == 1:
        uno_call(st, P, rng, log, p)
    dmult = count
    smult = count
    if rule(st, P_JUMP_IN) != 0 and jumpable(st, P, k) and someone_else_holds(st, p, k):
        j, k, dmult = jump_window(st, P, rng, log, p, k, count)
        if j != p:
            smult = 1
            p = j
    after_play(st, P, rng, log, p, k, dmult, smult)


@njit(cache=True, inline="always")
def after_play(st, P, rng, log, p, k, dmult, smult):
    """The effects of the card that stays on top: slap (H10), silence (H11), then R9/H4/H5."""
    if k < WILD and k % 13 <= 9:
        r = k % 13
        if r == rule(st, P_SLAP_RANK):
            slap(st, P, rng, log, p)
        if r == rule(st, P_SILENT_RANK):
            st[S_SILENT] = p
            log_event(st, log, EV_SILENCE, p, 0, 0)
    effect(st, P, rng, log, p, k, dmult, smult)


@njit(cache=True)
def slap(st, P, rng, log, p):
    """H10: the slowest player (uniform among those still in, but p) draws 2."""
    n = st[S_NP]
    count = st[S_IN] - (1 if st[S_RANK0 + p] == 0 else 0)
    if count <= 0:
        return
    u = below(rng, count)
    for q in range(n):
        if q != p and st[S_RANK0 + q] == 0:
            if u == 0:
                got = draw_cards(st, rng, log, q, 2, DR_SLAP)
                st[S_SLAPS] += 1
                log_event(st, log, EV_SLAP, q, got, 0)
                return
            u -= 1


@njit(cache=True, inline="always")
def next_to_act(st, P, p, k):
    """H2's "who would act next" after p plays k: that seat may not jump in."""
    if k < WILD:
        r = k % 13
        if r == SKIP:
            return next_seat(st, next_seat(st, p))
        if r == REVERSE:
            if st[S_IN] == 2:
                if rule(st, P_TWO_PLAYER_REVERSE) != 0:
                    return next_seat(st, p)
                return next_seat(st, next_seat(st, p))
            st[S_DIR] = -st[S_DIR]
            q = next_seat(st, p)
            st[S_DIR] = -st[S_DIR]
            return q
    if is_draw_card(st, P, k):
        v = next_seat(st, p)
        mode = rule(st, P_STACKING)
        if (k == WILD_DRAW4 and mode >= 2) or (k < WILD and k % 13 == DRAW2 and mode >= 1):
            return v
        return next_seat(st, v)
    return next_seat(st, p)


@njit(cache=True, inline="always")
def someone_else_holds(st, p, k):
    """A cheap look before the H2 window: does any other seat hold a copy of k at all?
    (A branch-free sum: a test per seat mispredicts.)"""
    total = 0
    for q in range(st[S_NP]):
        total += st[S_HAND0 + q * N_KINDS + k]
    return total > st[S_HAND0 + p * N_KINDS + k]


@njit(cache=True, inline="always")
def jumpable(st, P, k):
    """H2: numbers always; Skip/Reverse/Draw Two under "colored"; wilds under "all"."""
    mode = rule(st, P_JUMP_IN)
    if k >= WILD:
        return mode == 3
    if k % 13 <= 9:
        return True
    return mode >= 2


@njit(cache=True)
def jump_window(st, P, rng, log, p, k, mult):
    """H2: identical cards jump in, possibly in a chain; returns the last (player, card, mult).

    ``mult`` counts the draw-card penalties that add up: under ``jump_in_stack =
    "accumulate"`` each jump adds one, under "replace" only the last jumper's card counts."""
    n = st[S_NP]
    max_turns = rule(st, P_MAX_TURNS)
    while jumpable(st, P, k) and st[S_TURNS] < max_turns:
        nxt = next_to_act(st, P, p, k)
        count = 0
        for q in range(n):
            if st[S_HAND0 + q * N_KINDS + k] > 0 and q != p and q != nxt and st[S_RANK0 + q] == 0 \
                    and st[S_HS0 + q] >= 2 \
                    and (k != WILD_DRAW4 or draw4_honest(st, P, q)) \
                    and policy.wants_jump(st, P, rng, q, k):
                count += 1
                st[S_SCR0 + q] = 1
            else:
                st[S_SCR0 + q] = 0
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
        if is_draw_card(st, P, k) and rule(st, P_JUMP_IN_STACK) != 0:
            mult += 1
        else:
            mult = 1
        put_down(st, P, rng, log, j, k, EV_JUMP)
        if st[S_HS0 + j] == 1:
            uno_call(st, P, rng, log, j)
        p = j
    return p, k, mult


@njit(cache=True, inline="always")
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
        st[S_CUR] = next_seat(st, p)
        if rule(st, P_STACKING) != 0:
            log_event(st, log, EV_FACING, st[S_CUR], st[S_PENDING], st[S_STACK_LEN])
        return
    if k < WILD:
        r = k % 13
        if r == SKIP or (r == REVERSE and st[S_IN] == 2 and rule(st, P_TWO_PLAYER_REVERSE) == 0):
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
        if k == RED_ZERO and rule(st, P_RED_ZERO) == 2:
            giveaway(st, P, rng, log, p)
        elif r == 0 and rule(st, P_SEVEN_O) != 0:
            pass_hands(st, log)
        elif r == 7 and rule(st, P_SEVEN_O) != 0:
            q = policy.choose_opponent(st, P, rng, p)
            if q >= 0:
                swap_hands(st, p, q)
                st[S_SWAPS] += 1
                log_event(st, log, EV_SWAP, p, q, 0)
    st[S_CUR] = next_seat(st, p)


@njit(cache=True, inline="always")
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


@njit(cache=True)
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


@njit(cache=True)
def giveaway(st, P, rng, log, p):
    """H5 giveaway: an opponent takes all of p's cards but one kept uniformly at random."""
    q = policy.choose_opponent(st, P, rng, p)
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


# --------------------------------------------------------------------------- the end (R12, R13, H13)
@njit(cache=True)
def go_out(st, P, rng, log, p, k, count):
    """p played their last card(s): the hand ends (R12), or p leaves it (H13)."""
    n = st[S_NP]
    out_rank = n - st[S_IN] + 1
    st[S_RANK0 + p] = out_rank
    st[S_IN] -= 1
    log_event(st, log, EV_OUT, p, out_rank, 0)
    if out_rank == 1:
        st[S_WINNER] = p
    if rule(st, P_FINISH) != 0 and st[S_IN] > 1:
        # H13: the last card still acts among the players left (not 0/7 or a giveaway)
        if silent_last_card(st, P, k):
            st[S_CUR] = next_seat(st, p)
            return
        dmult = count
        smult = count
        if rule(st, P_JUMP_IN) != 0 and jumpable(st, P, k) and someone_else_holds(st, p, k):
            j, k, dmult = jump_window(st, P, rng, log, p, k, count)
            if j != p:
                smult = 1
                p = j
        after_play(st, P, rng, log, p, k, dmult, smult)
        return
    # R12: a draw card's penalty, with any pending stack, is still drawn
    if is_draw_card(st, P, k) and st[S_AS_WILD] == 0:
        v = next_seat(st, p)
        got = draw_cards(st, rng, log, v, st[S_PENDING] + penalty_of(st, P, k) * count, DR_PENALTY)
        log_event(st, log, EV_PENALTY, v, got, DR_PENALTY)
        if st[S_PENDING_KIND] >= 0:
            st[S_STACK_LEN] += 1
            st[S_STACK_DRAWN] += got
        elif st[S_STACK_LEN] == 0:
            st[S_STACK_LEN] = 1
        clear_pending(st)
    if rule(st, P_FINISH) != 0:
        for q in range(n):
            if st[S_RANK0 + q] == 0:
                st[S_RANK0 + q] = n
    end_hand(st, log)


@njit(cache=True, inline="always")
def silent_last_card(st, P, k):
    """H13: a 0 or 7 under seven-o, or a giveaway red 0, does nothing as a last card."""
    if k >= WILD:
        return False
    if k == RED_ZERO and rule(st, P_RED_ZERO) != 0:
        return rule(st, P_RED_ZERO) == 2
    r = k % 13
    return (r == 0 or r == 7) and rule(st, P_SEVEN_O) != 0


@njit(cache=True)
def end_hand(st, log):
    st[S_DONE] = 1
    log_event(st, log, EV_END, st[S_WINNER], 0, 0)


@njit(cache=True)
def play_hand(st, P, rng, log, dealer):
    """Play one whole hand from the shuffle to the end; the result stays in ``st``."""
    reset(st, P, dealer)
    build_deck(st, P, rng)
    deal(st, P, rng, log)
    turn_first_card(st, P, rng, log)
    while st[S_DONE] == 0:
        step(st, P, rng, log)


@njit(cache=True, inline="always")
def step(st, P, rng, log):
    """One move of the loop: stall at ``max_turns`` (R13), else resolve a pending penalty
    or let the seat to act take its turn.  Scenario tests drive hands through this.
    Every card put down in a move goes through the single play_card call below."""
    if st[S_TURNS] >= rule(st, P_MAX_TURNS):
        st[S_STALLED] = 1
        st[S_WINNER] = -1
        log_event(st, log, EV_STALL, 0, 0, 0)
        end_hand(st, log)
        return
    p = st[S_CUR]
    if st[S_PENDING_KIND] >= 0:
        k = face_penalty(st, P, rng, log)
        how = 3
    else:
        k, how = take_turn(st, P, rng, log, p)
    if k < 0:
        return
    if how == 1 and rule(st, P_MULTI_PLAY) != 0:
        play_multi(st, P, rng, log, p, k)
        return
    if how == 2 and k == WILD_DRAW4 and rule(st, P_DRAWN_DRAW4) != 0:
        st[S_AS_WILD] = 1
    play_card(st, P, rng, log, p, k)
