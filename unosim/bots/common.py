"""Helpers every strategy family shares: the questions, parameters, legal cards, ties, targets, plans.

All of it is compiled (``njit``) and reads only the state vector ``st`` and the rules
vector ``P``.  A strategy's parameters sit at ``P[P_BOT0 + seat * BOT_STRIDE + 1 + i]``
in the order of its entry in :data:`unosim.bots.STRATEGIES`; :func:`param` reads one.

Ties between equally good choices are broken uniformly at random over the *physical*
cards (two red 5s weigh twice one blue 5), by weighted reservoir sampling in one pass:
randomness is drawn only when a tie actually happens.

A strategy's choice of card visits only the legal ones among 18 candidate slots
(:func:`cand`, the kinds that can match at all), found as a mask (:func:`legal_slots`).
The loops are shared (:mod:`unosim.bots.best`); a strategy answers :data:`Ask` with numbers.
"""

from collections import namedtuple

from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_COLOR, S_HAND0, S_HS0, S_NP, S_RANK0, S_SCR0, S_TOP
from unosim.kernel.moves import draw4_honest, is_draw2, reverse_is_skip, wild_allowed
from unosim.kernel.rng import below, chance
from unosim.kernel.table import color_count, kind_colour, kind_rank, rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, RED_ZERO, REVERSE, SKIP, WILD, WILD_DRAW4
from unosim.rules.codes import MultiPlay, RedZero, WildDraw4
from unosim.rules.params import BOT_STRIDE, P_BOT0, P_MULTI_PLAY, P_RED_ZERO, P_SCORE0, P_TEAMS, P_WILD_DRAW4, \
    P_WILD_LAST

RULES = ("H12",)

NEG = -1.0e300  # below every score
YES = 1.0       # a yes/no answer is a score: > 0 means yes
NO = -1.0

Ask = namedtuple("Ask", ["play", "stack", "colour", "drawn", "jump", "challenge", "bluff_rate", "draw_below",
                         "max_wilds"])(*range(9))
"""The questions every strategy answers with a number (``score(st, P, rng, p, ask, k, x)``):

* ``play``, ``stack``: the score of card k (R5, H1); the best legal card is played.
* ``colour``: the score of colour k to name after a wild (R9).
* ``drawn``, ``jump``, ``challenge``: yes (> 0) or no: play the card k just drawn (R6),
  jump in with k (H2), challenge the Wild Draw Four faced (R8).
* ``bluff_rate``: the chance to play a Wild Draw Four when only a bluff would play it (R8).
* ``draw_below``: draw instead (R7, when allowed) when the best card k scores below this.
* ``max_wilds``: how many copies of a wild it sheds in a multi-play (H6).

``x`` is what the strategy's ``context(st, P, p, ask)`` computed once per decision."""

@jit(inline=True)
def no_context(st, P, p, ask):
    """The context of a strategy whose scores share nothing."""
    return 0.0, 0.0, 0.0, 0.0, 0.0


@jit(inline=True)
def usual(st, P, rng, p, ask, k, bluff_rate, challenge_rate, max_wilds):
    """The answers most strategies share, for the questions a strategy does not answer
    itself: name the colour it holds most of, challenge at the parameter
    ``challenge_rate``, bluff at ``bluff_rate`` (parameter indices), never draw instead
    of a legal card, shed ``max_wilds`` wilds in a multi-play, and say yes to a drawn
    card and to jumping in."""
    if ask == Ask.colour:
        return float(color_count(st, p, k))
    if ask == Ask.challenge:
        return YES if chance(rng, param(P, p, challenge_rate)) else NO
    if ask == Ask.bluff_rate:
        return param(P, p, bluff_rate)
    if ask == Ask.draw_below:
        return NEG
    if ask == Ask.max_wilds:
        return max_wilds
    return YES


@jit(inline=True)
def param(P, p, i):
    """Parameter i (0-based, STRATEGIES order) of seat p's strategy."""
    return P[P_BOT0 + p * BOT_STRIDE + 1 + i]


ALL_WILDS = 99.0  # max_wilds of a strategy that sheds every wild it may (H6)
N_CAND = 18  # candidate slots: 13 kinds of the colour in force, 3 of the top's rank, 2 wilds


@jit(inline=True)
def legal_view(st, P, p):
    """What decides legality for seat p now (R5, R8, H7): (colour in force, rank of the top
    card or -1 after a wild, Wild allowed, Wild Draw Four allowed honestly)."""
    c = st[S_COLOR]
    top = st[S_TOP]
    tr = kind_rank(top) if top < WILD else -1
    wok = wild_allowed(st, P, p, 1)
    w4ok = wok and st[S_HAND0 + p * N_KINDS + WILD_DRAW4] > 0 and draw4_honest(st, P, p)
    return c, tr, wok, w4ok


@jit(inline=True)
def cand(i, c, tr):
    """Candidate slot i (0 <= i < N_CAND): the kinds that may match, like B0's scan: the 13
    kinds of colour c, the top's rank tr in the 3 other colours, Wild, Wild Draw Four; -1
    for an empty slot (after a wild there is no rank to match)."""
    if i < RANKS_PER_COLOR:
        return c * RANKS_PER_COLOR + i
    if i < RANKS_PER_COLOR + N_COLORS - 1:
        if tr < 0:
            return -1
        c2 = i - RANKS_PER_COLOR
        if c2 >= c:
            c2 += 1
        return c2 * RANKS_PER_COLOR + tr
    return WILD + (i - (RANKS_PER_COLOR + N_COLORS - 1))


@jit(inline=True)
def legal_slots(st, base, c, tr, wok, w4ok):
    """A mask with bit i set when candidate slot i (:func:`cand`) holds a card that may be
    played: the loops visit only those, instead of testing all 18 slots one by one."""
    m = 0
    first = base + c * RANKS_PER_COLOR
    for r in range(RANKS_PER_COLOR):  # contiguous: plain vector loads, no gathers
        m |= int(st[first + r] > 0) << r
    if tr >= 0:
        for i in range(RANKS_PER_COLOR, N_CAND - 2):
            m |= int(st[base + cand(i, c, tr)] > 0) << i
    m |= int(wok and st[base + WILD] > 0) << (N_CAND - 2)
    m |= int(w4ok and st[base + WILD_DRAW4] > 0) << (N_CAND - 1)
    return m


@jit(inline=True)
def goes_out_with(st, P, p, k):
    """Whether playing k empties p's hand: k is p's last card, or (H6) every card p holds
    goes down with it (all copies of k under ``identical``, all of k's rank under
    ``same_rank``; never for a wild, whose multi-play is capped by ``max_wilds``).  Such
    a play wins the hand, so no strategy may prefer a voluntary draw to it (R7, R12)."""
    hs = st[S_HS0 + p]
    if hs == 1:
        return True
    mode = rule(st, P_MULTI_PLAY)
    if mode == MultiPlay.none or k >= WILD:
        return False
    base = S_HAND0 + p * N_KINDS
    if mode != MultiPlay.same_rank:
        return st[base + k] == hs
    r = kind_rank(k)
    n = 0
    for c in range(N_COLORS):
        n += st[base + c * RANKS_PER_COLOR + r]
    return n == hs


@jit(inline=True)
def can_bluff(st, P, p):
    """R8: p holds a Wild Draw Four that would be an illegal play now (a bluff)."""
    return (st[S_HAND0 + p * N_KINDS + WILD_DRAW4] > 0 and rule(st, P_WILD_DRAW4) == WildDraw4.restricted
            and wild_allowed(st, P, p, 1) and not draw4_honest(st, P, p))


@jit(inline=True)
def maybe_bluff(st, P, rng, p, rate):
    """With probability ``rate``, bluff a Wild Draw Four when only a bluff would play it.
    Randomness is drawn only when a bluff is possible."""
    return can_bluff(st, P, p) and chance(rng, rate)


@jit(inline=True)
def tie(rng, score, n, best, ties):
    """One step of weighted reservoir sampling over maxima.

    Returns (take, best, ties): ``take`` says the candidate with ``n`` physical copies
    and ``score`` becomes the current choice."""
    if score == best:
        ties += n
        return below(rng, ties) < n, best, ties
    more = score > best  # no branch: which of two scores is higher is hard to predict
    return more, score if more else best, n if more else ties


@jit(inline=True)
def is_opponent(st, p, q):
    """H12: q plays against p (another seat, and not of p's team)."""
    teams = rule(st, P_TEAMS)
    return q != p and (teams <= 1 or q % teams != p % teams)


@jit(inline=True)
def min_opponent_cards(st, P, p):
    """Fewest cards held by an opponent still in the hand (a large number if none)."""
    n = st[S_NP]
    m = 1 << 30
    for q in range(n):
        if st[S_RANK0 + q] == 0 and is_opponent(st, p, q) and st[S_HS0 + q] < m:
            m = st[S_HS0 + q]
    return m


@jit()
def fewest_cards_opponent(st, P, rng, p):
    """H4 swap / H5 giveaway target of every strategy but B0: the opponent still in the
    hand closest to going out (fewest cards); ties uniformly at random."""
    n = st[S_NP]
    choice = -1
    best = NEG
    ties = 0
    for q in range(n):
        if st[S_RANK0 + q] != 0 or not is_opponent(st, p, q):
            continue
        take, best, ties = tie(rng, -float(st[S_HS0 + q]), 1, best, ties)
        if take:
            choice = q
    return choice


@jit(inline=True)
def is_attack(st, P, k):
    """Cards that make the next player lose the turn: Skip, Draw Two, Wild Draw Four, the
    H5 +10, and a Reverse with 2 players in (R9, H14)."""
    if k == WILD_DRAW4:
        return True
    if k == WILD:
        return False
    if kind_rank(k) == SKIP or is_draw2(k):
        return True
    if kind_rank(k) == REVERSE:
        return reverse_is_skip(st)
    return k == RED_ZERO and rule(st, P_RED_ZERO) == RedZero.draw10


@jit(inline=True)
def points(P, k):
    """Points of kind k (R1, H17) as a float score term."""
    return P[P_SCORE0 + k]


@jit(inline=True)
def colour_counts(st, p):
    """Cards of each colour in p's hand."""
    return color_count(st, p, 0), color_count(st, p, 1), color_count(st, p, 2), color_count(st, p, 3)


@jit(inline=True)
def colour_points(st, P, p, c):
    """Points of the cards of colour c in p's hand."""
    base = S_HAND0 + p * N_KINDS + c * RANKS_PER_COLOR
    s = 0.0
    for r in range(RANKS_PER_COLOR):
        if st[base + r]:
            s += st[base + r] * P[P_SCORE0 + c * RANKS_PER_COLOR + r]
    return s


@jit()
def plan_all(st, P, rng, p, k, max_wilds):
    """H6 plan that sheds every card it may: all copies of k (``identical``) or every card
    of k's rank (``same_rank``); at most ``max_wilds`` copies of a Wild, one Wild Draw
    Four (R8 is checked card by card), never a wild as the last card under H7.  Ends on
    the played colour p will hold most of afterwards (ties at random)."""
    for c in range(N_COLORS):
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
        if rule(st, P_WILD_LAST) == 0 and n >= st[S_HS0 + p]:
            n = st[S_HS0 + p] - 1
        st[S_SCR0] = max(n, 1)
        return 0
    r = kind_rank(k)
    kc = kind_colour(k)
    same_rank = rule(st, P_MULTI_PLAY) == MultiPlay.same_rank
    choice = kc
    best = NEG
    ties = 0
    for c in range(N_COLORS):
        if c != kc and not same_rank:
            continue
        n = st[base + c * RANKS_PER_COLOR + r]
        if n == 0:
            continue
        st[S_SCR0 + c] = n
        take, best, ties = tie(rng, float(color_count(st, p, c) - n), 1, best, ties)
        if take:
            choice = c
    return choice
