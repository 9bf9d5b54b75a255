"""Helpers every strategy family shares: parameters, legal cards, ties, targets, plans.

All of it is compiled (``njit``) and reads only the state vector ``st`` and the rules
vector ``P``.  A strategy's parameters sit at ``P[P_BOT0 + seat * BOT_STRIDE + 1 + i]``
in the order of its entry in :data:`unosim.bots.STRATEGIES`; :func:`param` reads one.

Ties between equally good choices are broken uniformly at random over the *physical*
cards (two red 5s weigh twice one blue 5), by weighted reservoir sampling in one pass:
randomness is drawn only when a tie actually happens.

A strategy's choice of card is a loop over at most 18 candidate slots (:func:`cand`), the
kinds that can match at all, as B0 scans them; legality is decided once per decision
(:func:`legal_view`), not card by card: that keeps every strategy within a small factor
of B0's speed.
"""

from numba import njit

from unosim.rules.params import (BOT_STRIDE, P_BOT0, P_MULTI_PLAY, P_RED_ZERO, P_SCORE0, P_TEAMS,
    P_TWO_PLAYER_REVERSE, P_WILD_DRAW4, P_WILD_LAST)
from unosim.kernel.layout import N_KINDS, S_COLOR, S_HAND0, S_HS0, S_IN, S_NP, S_RANK0, S_SCR0, S_TOP
from unosim.kernel.moves import can_stack, color_count, draw4_honest, wild_allowed
from unosim.kernel.rng import below, chance

WILD = 52
WILD_DRAW4 = 53
SKIP = 10
REVERSE = 11
DRAW2 = 12
NEG = -1.0e300  # below every score


@njit(cache=True, inline="always")
def param(P, p, i):
    """Parameter i (0-based, STRATEGIES order) of seat p's strategy."""
    return P[P_BOT0 + p * BOT_STRIDE + 1 + i]


N_CAND = 18  # candidate slots: 13 kinds of the colour in force, 3 of the top's rank, 2 wilds


@njit(cache=True, inline="always")
def legal_view(st, P, p):
    """What decides legality for seat p now (R5, R8, H7): (colour in force, rank of the top
    card or -1 after a wild, Wild allowed, Wild Draw Four allowed honestly)."""
    c = st[S_COLOR]
    top = st[S_TOP]
    tr = top % 13 if top < WILD else -1
    wok = wild_allowed(st, P, p, 1)
    w4ok = wok and st[S_HAND0 + p * N_KINDS + WILD_DRAW4] > 0 and draw4_honest(st, P, p)
    return c, tr, wok, w4ok


@njit(cache=True, inline="always")
def cand(i, c, tr):
    """Candidate slot i (0 <= i < N_CAND): the kinds that may match, like B0's scan: the 13
    kinds of colour c, the top's rank tr in the 3 other colours, Wild, Wild Draw Four; -1
    for an empty slot (after a wild there is no rank to match)."""
    if i < 13:
        return c * 13 + i
    if i < 16:
        if tr < 0:
            return -1
        c2 = i - 13
        if c2 >= c:
            c2 += 1
        return c2 * 13 + tr
    return WILD + (i - 16)


@njit(cache=True, inline="always")
def legal_copies(st, base, k, wok, w4ok):
    """Copies of candidate k held at ``base`` that may be played (0: none, or a wild that
    may not be played now)."""
    if k < 0:
        return 0
    n = st[base + k]
    if k == WILD:
        return n if wok else 0
    if k == WILD_DRAW4:
        return n if w4ok else 0
    return n


@njit(cache=True, inline="always")
def stack_cand(i):
    """Stacking candidate slot i (0 <= i < 5): the four Draw Twos, then Wild Draw Four (H1)."""
    return i * 13 + DRAW2 if i < 4 else WILD_DRAW4


@njit(cache=True, inline="always")
def stack_copies(st, P, p, k):
    """Copies of k that p may stack on the pending penalty (H1, H7)."""
    n = st[S_HAND0 + p * N_KINDS + k]
    if n == 0 or not can_stack(st, P, k) or (k >= WILD and not wild_allowed(st, P, p, 1)):
        return 0
    return n


@njit(cache=True, inline="always")
def has_legal(st, P, p):
    """Whether seat p holds any card it may play honestly (R5, R8, H7)."""
    base = S_HAND0 + p * N_KINDS
    c, tr, wok, w4ok = legal_view(st, P, p)
    for i in range(N_CAND):
        if legal_copies(st, base, cand(i, c, tr), wok, w4ok) > 0:
            return True
    return False


@njit(cache=True, inline="always")
def can_bluff(st, P, p):
    """R8: p holds a Wild Draw Four that would be an illegal play now (a bluff)."""
    return (st[S_HAND0 + p * N_KINDS + WILD_DRAW4] > 0 and P[P_WILD_DRAW4] == 0.0
            and wild_allowed(st, P, p, 1) and not draw4_honest(st, P, p))


@njit(cache=True, inline="always")
def maybe_bluff(st, P, rng, p, rate):
    """With probability ``rate``, bluff a Wild Draw Four when only a bluff would play it.
    Randomness is drawn only when a bluff is possible."""
    return can_bluff(st, P, p) and chance(rng, rate)


@njit(cache=True, inline="always")
def tie(rng, score, n, best, ties):
    """One step of weighted reservoir sampling over maxima.

    Returns (take, best, ties): ``take`` says the candidate with ``n`` physical copies
    and ``score`` becomes the current choice."""
    if score > best:
        return True, score, n
    if score == best:
        ties += n
        return below(rng, ties) < n, best, ties
    return False, best, ties


@njit(cache=True, inline="always")
def is_opponent(P, p, q):
    teams = int(P[P_TEAMS])
    return q != p and (teams <= 1 or q % teams != p % teams)


@njit(cache=True, inline="always")
def min_opponent_cards(st, P, p):
    """Fewest cards held by an opponent still in the hand (a large number if none)."""
    n = st[S_NP]
    m = 1 << 30
    for q in range(n):
        if st[S_RANK0 + q] == 0 and is_opponent(P, p, q) and st[S_HS0 + q] < m:
            m = st[S_HS0 + q]
    return m


@njit(cache=True)
def fewest_cards_opponent(st, P, rng, p):
    """H4 swap / H5 giveaway target of every strategy but B0: the opponent still in the
    hand closest to going out (fewest cards); ties uniformly at random."""
    n = st[S_NP]
    best = -1
    ties = 0
    m = 1 << 30
    for q in range(n):
        if st[S_RANK0 + q] != 0 or not is_opponent(P, p, q):
            continue
        h = st[S_HS0 + q]
        if h < m:
            m = h
            best = q
            ties = 1
        elif h == m:
            ties += 1
            if below(rng, ties) == 0:
                best = q
    return best


@njit(cache=True, inline="always")
def is_attack(st, P, k):
    """Cards that make the next player lose the turn: Skip, Draw Two, Wild Draw Four, the
    H5 +10, and a Reverse with 2 players in (R9, H14)."""
    if k == WILD_DRAW4:
        return True
    if k == WILD:
        return False
    r = k % 13
    if r == SKIP or r == DRAW2:
        return True
    if r == REVERSE:
        return st[S_IN] == 2 and P[P_TWO_PLAYER_REVERSE] == 0.0
    return k == 0 and P[P_RED_ZERO] == 1.0


@njit(cache=True, inline="always")
def points(P, k):
    return P[P_SCORE0 + k]


@njit(cache=True, inline="always")
def colour_counts(st, p):
    return color_count(st, p, 0), color_count(st, p, 1), color_count(st, p, 2), color_count(st, p, 3)


@njit(cache=True, inline="always")
def colour_points(st, P, p, c):
    base = S_HAND0 + p * N_KINDS + c * 13
    s = 0.0
    for r in range(13):
        if st[base + r]:
            s += st[base + r] * P[P_SCORE0 + c * 13 + r]
    return s


@njit(cache=True, inline="always")
def argmax4(rng, a0, a1, a2, a3):
    """Index of the largest of four numbers, ties uniformly at random."""
    best = 0
    bv = a0
    ties = 1
    for c in range(1, 4):
        v = a1 if c == 1 else (a2 if c == 2 else a3)
        if v > bv:
            bv = v
            best = c
            ties = 1
        elif v == bv:
            ties += 1
            if below(rng, ties) == 0:
                best = c
    return best


@njit(cache=True, inline="always")
def most_held_colour(st, rng, p):
    """The colour p holds most cards of; ties (also an empty hand) uniformly at random."""
    c0, c1, c2, c3 = colour_counts(st, p)
    return argmax4(rng, c0, c1, c2, c3)


@njit(cache=True)
def plan_all(st, P, rng, p, k, max_wilds):
    """H6 plan that sheds every card it may: all copies of k (``identical``) or every card
    of k's rank (``same_rank``); at most ``max_wilds`` copies of a Wild, one Wild Draw
    Four (R8 is checked card by card), never a wild as the last card under H7.  Ends on
    the played colour p will hold most of afterwards (ties at random)."""
    for c in range(4):
        st[S_SCR0 + c] = 0
    base = S_HAND0 + p * N_KINDS
    if k >= WILD:
        n = st[base + k]
        if k == WILD_DRAW4:
            n = 1
        if n > max_wilds:
            n = max_wilds
        if n < 1:
            n = 1
        if P[P_WILD_LAST] == 0.0 and n >= st[S_HS0 + p]:
            n = st[S_HS0 + p] - 1
        st[S_SCR0] = max(n, 1)
        return 0
    r = k % 13
    kc = k // 13
    same_rank = P[P_MULTI_PLAY] == 2.0
    best = kc
    bv = -1
    ties = 0
    for c in range(4):
        if c != kc and not same_rank:
            continue
        n = st[base + c * 13 + r]
        if n == 0:
            continue
        st[S_SCR0 + c] = n
        left = color_count(st, p, c) - n
        if left > bv:
            bv = left
            best = c
            ties = 1
        elif left == bv:
            ties += 1
            if below(rng, ties) == 0:
                best = c
    return best
