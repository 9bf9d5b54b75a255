"""`greedy`: sheds the highest-point card first.

Plays the legal card worth the most points (R1: Wild and Wild Draw Four 50, Skip,
Reverse and Draw Two 20, a number its face value), so a hand lost early costs little;
ties uniformly at random over the physical cards.  Never draws voluntarily, always plays
a legal drawn card (R6), always jumps in (H2), stacks its highest-point stackable card
(H1: a Wild Draw Four before a Draw Two), names the colour whose cards in hand are worth
the most points, sheds every card it may in a multi-play (H6), swaps with or gives to
the opponent with the fewest cards (H4, H5).

Parameters: ``bluff_rate`` (chance to play a Wild Draw Four as a bluff when only a
bluff would play it, R8), ``challenge_rate`` (chance to challenge a Wild Draw Four).
"""

from unosim.kernel.jit import jit

from .common import ALL_WILDS, Ask, colour_points, no_context, points, usual

BLUFF_RATE = 0
CHALLENGE_RATE = 1

context = no_context


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    if ask == Ask.play or ask == Ask.stack:
        return points(P, k)
    if ask == Ask.colour:
        return colour_points(st, P, p, k)
    return usual(st, P, rng, p, ask, k, BLUFF_RATE, CHALLENGE_RATE, ALL_WILDS)
