"""`counter`: counts the cards seen on the discard pile and plays the odds.

What it remembers is public, so a watching table keeps it once for every seat: the
coloured cards of each colour put on the pile since the last reshuffle (``S_SEEN``) and
the colours named with the last two wilds (``S_NAMED``).  How it plays, challenges and
what its parameters (``bluff_rate``, ``suspicion``) do: docs/bots.md, "counter".
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import (N_KINDS, S_BLUFFER, S_COLOR, S_DISC0, S_HAND0, S_HS0, S_NAMED, S_NDISC,
    S_PENDING, S_PLAY_CARDS, S_PREV_COLOR, S_SEEN, S_TOP, S_TOTAL)
from unosim.kernel.table import color_count, kind_colour, kind_rank, next_seat, rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, WILD, WILD_DRAW4
from unosim.rules.params import P_CHALLENGE_EXTRA, P_DECKS
from .common import ALL_WILDS, NO, YES, Ask, colour_counts, param, points, usual

BLUFF_RATE = 0
SUSPICION = 1
COLOR_COPIES = 25  # cards of one colour in a deck (R1)


@jit(inline=True)
def colour_bit(k):
    """k's one in ``S_SEEN``: 1 in its colour's 8 bits (0 for a wild)."""
    return 1 << (8 * kind_colour(k)) if k < WILD else 0


@jit(inline=True)
def observe(st, k):
    """The watching table sees k put on the discard pile."""
    if st[S_NDISC] == 2:  # first card over the turn-up or over a reshuffled pile: count from it
        st[S_SEEN] = colour_bit(st[S_DISC0])
    if k < WILD:
        st[S_SEEN] += colour_bit(k)
    else:
        st[S_NAMED] = (st[S_NAMED] & 15) * 16 + st[S_COLOR] + 1


@jit(inline=True)
def seen(st, c):
    """Coloured cards of colour c put on the pile since the last reshuffle."""
    return (st[S_SEEN] >> (8 * c)) & 255


@jit(inline=True)
def unseen_total(st, p):
    """Cards p cannot see: the draw pile and the other hands."""
    return st[S_TOTAL] - st[S_NDISC] - st[S_HS0 + p]


@jit(inline=True)
def value(st, P, p, c, mine, h, u_total):
    """mine - expected cards of colour c among the h cards of the next player."""
    unseen = COLOR_COPIES * rule(st, P_DECKS) - seen(st, c) - mine
    if unseen < 0:
        unseen = 0
    if u_total <= 0:
        return float(mine)
    return mine - h * unseen / u_total


@jit(inline=True)
def values(st, P, p):
    """The value of each colour to p (see the module doc)."""
    h = st[S_HS0 + next_seat(st, p)]
    u = unseen_total(st, p)
    m0, m1, m2, m3 = colour_counts(st, p)
    return (value(st, P, p, 0, m0, h, u), value(st, P, p, 1, m1, h, u), value(st, P, p, 2, m2, h, u),
            value(st, P, p, 3, m3, h, u))


@jit(inline=True)
def card_score(P, k, v0, v1, v2, v3):
    if k == WILD_DRAW4:
        return -1.0e9
    if k == WILD:
        return -2.0e9
    c = kind_colour(k)
    v = v0 if c == 0 else (v1 if c == 1 else (v2 if c == 2 else v3))
    return v + points(P, k) * 1.0e-3


@jit()
def colour_before_draw4(st):
    """The colour in force before the Wild Draw Four on top, or before its whole group
    (H6: the colour every seat saw in force then) (-1: not known)."""
    if st[S_PLAY_CARDS] > 1:
        return st[S_PREV_COLOR]
    nd = st[S_NDISC]
    if nd < 2:
        return -1
    x = st[S_DISC0 + nd - 2]
    if x < WILD:
        return kind_colour(x)
    return st[S_NAMED] // 16 - 1


@jit()
def holds_colour_chance(st, P, p, b, c):
    """Chance that seat b's hand holds a card of colour c, its cards drawn from the ones p
    cannot see (hypergeometric)."""
    h = st[S_HS0 + b]
    u_total = unseen_total(st, p)
    unseen = COLOR_COPIES * rule(st, P_DECKS) - seen(st, c) - color_count(st, p, c)
    if unseen <= 0 or h <= 0:
        return 0.0
    none = 1.0
    for i in range(h):
        num = u_total - unseen - i
        den = u_total - i
        if num <= 0 or den <= 0:
            return 1.0
        none *= num / den
    return 1.0 - none


@jit()
def bluff_chance(st, P, p):
    """The counter's estimate that the Wild Draw Four it faces is a bluff."""
    c = colour_before_draw4(st)
    if c < 0:
        return 0.0
    q = holds_colour_chance(st, P, p, st[S_BLUFFER], c)
    s = param(P, p, SUSPICION)
    den = s * q + 1.0 - q
    if den <= 0.0:
        return 1.0
    return s * q / den


@jit(inline=True)
def play_values(st, P, p):
    """:func:`values` when the legal coloured cards span 2+ colours, else zeros: the odds
    only matter then (a summed count for the colour in force, not a test per kind: those
    branches mispredict)."""
    base = S_HAND0 + p * N_KINDS
    c = st[S_COLOR]
    top = st[S_TOP]
    colours = 1 << c if color_count(st, p, c) > 0 else 0
    if top < WILD:
        tr = kind_rank(top)
        for c2 in range(N_COLORS):
            if c2 != c and st[base + c2 * RANKS_PER_COLOR + tr] > 0:
                colours |= 1 << c2
    if colours & (colours - 1):
        return values(st, P, p)
    return 0.0, 0.0, 0.0, 0.0


@jit()
def challenge_score(st, P, p):
    """YES when the chance of a bluff beats the break-even (module doc)."""
    extra = float(rule(st, P_CHALLENGE_EXTRA))
    pen = float(st[S_PENDING])
    if extra + 2.0 * pen <= 0.0:
        return NO
    return YES if bluff_chance(st, P, p) > extra / (extra + 2.0 * pen) else NO


@jit(inline=True)
def context(st, P, p, ask):
    """x[0:4]: the value of each colour (module doc), when the question needs it."""
    if ask == Ask.play:
        v0, v1, v2, v3 = play_values(st, P, p)
    elif ask == Ask.stack or ask == Ask.colour:
        v0, v1, v2, v3 = values(st, P, p)
    else:
        v0, v1, v2, v3 = 0.0, 0.0, 0.0, 0.0
    return v0, v1, v2, v3, 0.0


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    if ask == Ask.play or ask == Ask.stack:
        return card_score(P, k, x[0], x[1], x[2], x[3])
    if ask == Ask.colour:
        return x[k]
    if ask == Ask.challenge:
        return challenge_score(st, P, p)
    return usual(st, P, rng, p, ask, k, BLUFF_RATE, -1, ALL_WILDS)
