"""`weights`: a linear scoring bot whose weights are TOML parameters.

Every card the bot may play scores ``sum of w_<feature> x feature``; the best score is
played, ties at random over physical cards.  The features, the other decisions and why
the last three features exist: docs/bots.md, "weights".  A feature at weight 0 costs
nothing, and only a seat with a non-zero ``w_next_color_odds`` makes the table keep
``counter``'s memory (``rules.strategies.WATCHING_PARAMS``).
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_COLOR, S_HAND0, S_HS0, S_TOP
from unosim.kernel.table import color_count, kind_colour, kind_rank, next_seat
from unosim.rules.cards import N_COLORS, SKIP, WILD, WILD_DRAW4
from .common import ALL_WILDS, NO, YES, Ask, colour_counts, is_attack, is_opponent, min_opponent_cards, param, \
    points, usual
from .counter import holds_colour_chance

W_WILD = 0
W_DRAW4 = 1
W_ACTION = 2
W_POINTS = 3
W_COLOR_SHARE = 4
W_MATCHES_NUMBER = 5
W_ATTACK_NEXT = 6
W_COPIES = 7
W_NEXT_COLOR_ODDS = 8
W_WILD_HAND = 9
W_ATTACK_LEADER = 10
DRAW_SCORE = 11
BLUFF_RATE = 12
CHALLENGE_RATE = 13


@jit()
def next_odds(st, P, p, c):
    """``next_color_odds`` of colour c: the chance the next player holds a card of c."""
    return holds_colour_chance(st, P, p, next_seat(st, p), c)


@jit()
def colour_value(st, P, p, c):
    """The score of naming colour c (R9): cards of c held, plus ``w_next_color_odds`` x
    the next player's chance of holding c when that weight is non-zero."""
    v = float(color_count(st, p, c))
    w = param(P, p, W_NEXT_COLOR_ODDS)
    if w != 0.0:
        v += w * next_odds(st, P, p, c)
    return v


@jit()
def named_colour(st, P, p):
    """The colour a wild played now would name (the first best :func:`colour_value`; the
    real choice breaks ties at random, which a feature must not)."""
    best = 0
    bv = colour_value(st, P, p, 0)
    for c in range(1, N_COLORS):
        v = colour_value(st, P, p, c)
        if v > bv:
            best = c
            bv = v
    return best


@jit()
def next_is_leader(st, P, p):
    """``attack_leader``'s test: the next player is an opponent with the fewest cards."""
    q = next_seat(st, p)
    return is_opponent(st, p, q) and st[S_HS0 + q] <= min_opponent_cards(st, P, p)


@jit(inline=True)
def features(st, p):
    """What every card's features share: p's cards per colour and the next player's count."""
    c0, c1, c2, c3 = colour_counts(st, p)
    return c0, c1, c2, c3, st[S_HS0 + next_seat(st, p)]


@jit(inline=True)
def score_in(st, P, p, k, c0, c1, c2, c3, h_next):
    """The linear score of card k in seat p's hand, given :func:`context`."""
    others = st[S_HS0 + p] - 1
    s = param(P, p, W_POINTS) * points(P, k) + param(P, p, W_COPIES) * st[S_HAND0 + p * N_KINDS + k]
    if k >= WILD:
        s += param(P, p, W_WILD)
        if k == WILD_DRAW4:
            s += param(P, p, W_DRAW4)
        share = max(max(c0, c1), max(c2, c3))
    else:
        c = kind_colour(k)
        r = kind_rank(k)
        if r >= SKIP:
            s += param(P, p, W_ACTION)
        share = (c0 if c == 0 else (c1 if c == 1 else (c2 if c == 2 else c3))) - 1
        top = st[S_TOP]
        if c != st[S_COLOR] and top < WILD and kind_rank(top) == r:
            s += param(P, p, W_MATCHES_NUMBER)
    if others > 0:
        s += param(P, p, W_COLOR_SHARE) * share / others
    if is_attack(st, P, k):
        s += param(P, p, W_ATTACK_NEXT) / max(1, h_next)
        w = param(P, p, W_ATTACK_LEADER)
        if w != 0.0 and next_is_leader(st, P, p):
            s += w
    # the new features: each skipped at weight 0, so the default bot scores as it did
    w = param(P, p, W_NEXT_COLOR_ODDS)
    if w != 0.0:
        s += w * next_odds(st, P, p, named_colour(st, P, p) if k >= WILD else kind_colour(k))
    if k >= WILD:
        w = param(P, p, W_WILD_HAND)
        if w != 0.0:
            s += w / st[S_HS0 + p]
    return s


@jit(inline=True)
def context(st, P, p, ask):
    """:func:`features` for the questions that score a card (as floats: exact for counts)."""
    if ask == Ask.colour or ask == Ask.challenge or ask == Ask.max_wilds:
        return 0.0, 0.0, 0.0, 0.0, 0.0
    c0, c1, c2, c3, h = features(st, p)
    return float(c0), float(c1), float(c2), float(c3), float(h)


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    if ask == Ask.play or ask == Ask.stack:
        return score_in(st, P, p, k, x[0], x[1], x[2], x[3], x[4])
    if ask == Ask.drawn or ask == Ask.jump:  # only a card worth ``draw_score``
        return YES if score_in(st, P, p, k, x[0], x[1], x[2], x[3], x[4]) >= param(P, p, DRAW_SCORE) else NO
    if ask == Ask.draw_below:
        return param(P, p, DRAW_SCORE)
    if ask == Ask.colour:
        return colour_value(st, P, p, k)
    return usual(st, P, rng, p, ask, k, BLUFF_RATE, CHALLENGE_RATE, ALL_WILDS)
