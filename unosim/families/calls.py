"""What the table calls out around a play, each a draw outside the turn order: the UNO
call (R10) and a false one (H23), a slap (H10), a silence and the noise that breaks it
(H11), a wrong card put down by mistake (H24).

The hand calls :func:`uno_moment` right after a play, :func:`react` before the card's
effect, and :func:`silence_check` and :func:`misplay` as a turn opens.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import (DR_FALSE_CALL, DR_MISPLAY, DR_NOISE, DR_SLAP, DR_UNO, EV_FALSE_CALL, EV_MISPLAY,
    EV_NOISE, EV_PENALTY, EV_SILENCE, EV_SLAP, EV_UNO, N_KINDS, S_FALSE_CALLS, S_HAND0, S_HS0, S_IN, S_MISPLAYS,
    S_NOISES, S_NP, S_RANK0, S_SILENT, S_SLAPS, S_UNO_PENALTIES)
from unosim.kernel.moves import is_legal
from unosim.kernel.piles import draw_cards
from unosim.kernel.rng import below, chance
from unosim.kernel.table import kind_rank, log_event, rule
from unosim.rules.cards import NUMBER_MAX, WILD
from unosim.rules.params import (P_MISPLAY, P_NOISE_CHANCE, P_SILENT_RANK, P_SLAP_RANK, P_UNO_CAUGHT,
    P_UNO_FALSE_CALL, P_UNO_FORGET)

RULES = ("R10", "H10", "H11", "H23", "H24")


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
def react(st, P, rng, log, p, k):
    """The table's reaction to the number card k that stays on top: a slap (H10), then a
    silence that p keeps (H11)."""
    # the switches first: they hold all hand long, while which card came is a coin toss to the CPU
    if (rule(st, P_SLAP_RANK) >= 0 or rule(st, P_SILENT_RANK) >= 0) and k < WILD and kind_rank(k) <= NUMBER_MAX:
        r = kind_rank(k)
        if r == rule(st, P_SLAP_RANK):
            slap(st, P, rng, log, p)
        if r == rule(st, P_SILENT_RANK):
            st[S_SILENT] = p
            log_event(st, log, EV_SILENCE, p, 0, 0)


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
def silence_check(st, P, rng, log, a):
    """H11, as seat a's turn begins: during another player's silence, a sound with chance
    ``noise_chance``; as the keeper's own turn begins, no check at all, the silence lifts."""
    keeper = st[S_SILENT]
    if keeper >= 0 and st[S_RANK0 + keeper] != 0:
        st[S_SILENT] = -1  # the keeper left the hand (H13): nobody keeps it any more
    elif keeper == a:
        st[S_SILENT] = -1  # the keeper's own turn: the silence lifts, and no check is made
    elif keeper >= 0 and chance(rng, P[P_NOISE_CHANCE]) and st[S_IN] > 1:
        q, got = other_draws_two(st, rng, log, a, DR_NOISE)
        if q >= 0:
            st[S_NOISES] += 1
            log_event(st, log, EV_NOISE, q, got, 0)
        st[S_SILENT] = -1


@jit()
def misplay(st, P, rng, log, p):
    """H24, as p's turn begins (after the H11 check): holding a card that is not legal now,
    with chance ``misplay`` p puts one down by mistake, takes it back and draws 1.  No
    random number is drawn when every card p holds is legal."""
    base = S_HAND0 + p * N_KINDS
    for k in range(N_KINDS):
        if st[base + k] > 0 and not is_legal(st, P, p, k):
            if chance(rng, P[P_MISPLAY]):
                st[S_MISPLAYS] += 1
                log_event(st, log, EV_MISPLAY, p, 0, 0)
                got = draw_cards(st, rng, log, p, 1, DR_MISPLAY)
                log_event(st, log, EV_PENALTY, p, got, DR_MISPLAY)
            return
