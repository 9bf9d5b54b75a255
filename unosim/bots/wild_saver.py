"""`wild_saver`: keeps Wild and Wild Draw Four for when nothing else plays.

Otherwise it is B0: a legal coloured card uniformly among the physical ones.  When only
wilds play it plays the Wild Draw Four first (legal now, R8, and maybe not later), then
the Wild.  It names the colour it holds most of, keeps a drawn wild unless it holds 2
cards or fewer (R6), never jumps in with a wild (H2), stacks a Draw Two before a Wild
Draw Four (H1), plays every coloured copy but a single wild in a multi-play (H6), and
swaps with or gives to the opponent with the fewest cards (H4, H5).

Parameters: ``bluff_rate``, ``challenge_rate`` (as for every strategy), and
``draw_before_wild``: when true and voluntary draws are allowed (R7), it draws instead of
playing a wild while it holds more than 2 cards.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import S_HS0
from unosim.rules.cards import WILD, WILD_DRAW4
from .common import NEG, NO, YES, Ask, no_context, param, usual

BLUFF_RATE = 0
CHALLENGE_RATE = 1
DRAW_BEFORE_WILD = 2
SAVE_HAND = 2  # with this many cards or fewer a wild is played, not saved

context = no_context


@jit(inline=True)
def card_score(k):
    """Coloured cards first, then the Wild Draw Four (legal now, R8, maybe not later), then the Wild."""
    if k == WILD_DRAW4:
        return -1.0
    if k == WILD:
        return -2.0
    return 0.0


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    if ask == Ask.play or ask == Ask.stack:
        return card_score(k)
    if ask == Ask.drawn:
        return YES if k < WILD or st[S_HS0 + p] <= SAVE_HAND else NO
    if ask == Ask.jump:
        return YES if k < WILD else NO
    if ask == Ask.draw_below:  # only wilds score below 0
        return 0.0 if param(P, p, DRAW_BEFORE_WILD) != 0.0 and st[S_HS0 + p] > SAVE_HAND else NEG
    return usual(st, P, rng, p, ask, k, BLUFF_RATE, CHALLENGE_RATE, 1.0)
