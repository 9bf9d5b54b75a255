"""`color_keeper`: plays from, and names, the colour it holds most of.

Among its legal cards it plays one of the colour it holds most cards of (counting the
card itself), the highest-point one first, so the colour in force stays one it can
follow; a card matching by number or symbol switches to that colour when it is the
bigger one.  Wilds only when nothing else plays (Wild Draw Four first).  It names the
colour it holds most of, plays a legal drawn card (R6), always jumps in (H2), stacks the
Draw Two of its biggest colour before a Wild Draw Four (H1), sheds every card it may in
a multi-play ending on its biggest colour (H6), swaps with or gives to the opponent with
the fewest cards (H4, H5).  Never draws voluntarily.

Parameters: ``bluff_rate``, ``challenge_rate``.
"""

from unosim.kernel.jit import jit
from unosim.kernel.table import color_count, kind_colour
from unosim.rules.cards import WILD, WILD_DRAW4
from .common import ALL_WILDS, Ask, no_context, points, usual

BLUFF_RATE = 0
CHALLENGE_RATE = 1

context = no_context


@jit(inline=True)
def card_score(st, P, p, k):
    if k == WILD_DRAW4:
        return -1.0
    if k == WILD:
        return -2.0
    return 100.0 * color_count(st, p, kind_colour(k)) + points(P, k)


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    if ask == Ask.play or ask == Ask.stack:
        return card_score(st, P, p, k)
    return usual(st, P, rng, p, ask, k, BLUFF_RATE, CHALLENGE_RATE, ALL_WILDS)
