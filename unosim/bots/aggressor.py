"""`aggressor`: aims Skips, Draw Twos and Wild Draw Fours at the player closest to going out.

The *victim* of an attack card (Skip, Draw Two, Wild Draw Four, the H5 +10, a Reverse
with 2 players in) is the next seat.  When the victim is an opponent holding the fewest
cards of all opponents (ties count), the aggressor plays its hardest attack (most cards
to draw, then a Skip); otherwise it keeps its attacks and plays the highest-point other
card, an attack only when nothing else plays.  It bluffs a Wild Draw Four (R8) only at
such a victim.  Names the colour it holds most of, always jumps in (H2), always stacks
(H1: the hardest card at the victim, else the cheapest), sheds every card it may in a
multi-play (H6), swaps with or gives to the opponent with the fewest cards (H4, H5).

Parameters: ``bluff_rate``, ``challenge_rate``, and ``hold_attacks``: when true and
voluntary draws are allowed (R7), it draws rather than waste an attack on a victim who is
not the closest to going out, and keeps a drawn attack card for later (R6).
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import S_HS0
from unosim.kernel.moves import is_draw2
from unosim.kernel.table import next_seat, rule
from unosim.rules.cards import RED_ZERO, RED_ZERO_DRAW, WILD_DRAW4
from unosim.rules.params import P_DRAW2_AMOUNT, P_DRAW4_AMOUNT
from .common import ALL_WILDS, NEG, NO, YES, Ask, is_attack, is_opponent, min_opponent_cards, param, points, usual

BLUFF_RATE = 0
CHALLENGE_RATE = 1
HOLD_ATTACKS = 2


@jit(inline=True)
def aiming(st, P, p):
    """Whether the next seat is an opponent with the fewest cards among p's opponents."""
    v = next_seat(st, p)
    return is_opponent(st, p, v) and st[S_HS0 + v] <= min_opponent_cards(st, P, p)


@jit(inline=True)
def damage(st, k):
    """Cards an attack makes its victim draw (R9, H5, H18); 0 for a Skip."""
    if k == WILD_DRAW4:
        return float(rule(st, P_DRAW4_AMOUNT))
    if is_draw2(k):
        return float(rule(st, P_DRAW2_AMOUNT))
    if k == RED_ZERO:
        return float(RED_ZERO_DRAW)  # only an attack under H5 "draw10"
    return 0.0


@jit(inline=True)
def context(st, P, p, ask):
    """x[0]: 1.0 when aiming at the next seat (asked once per choice of card)."""
    aim = 0.0
    if ask == Ask.play or ask == Ask.stack:
        aim = 1.0 if aiming(st, P, p) else 0.0
    return aim, 0.0, 0.0, 0.0, 0.0


@jit(inline=True)
def score(st, P, rng, p, ask, k, x):
    aim = x[0] != 0.0
    if ask == Ask.play:
        if is_attack(st, P, k):
            if aim:
                return 1000.0 + damage(st, k)
            return -1000.0 + points(P, k)
        return points(P, k)
    if ask == Ask.stack:  # the hardest card at the victim, else the cheapest
        d = damage(st, k)
        return d if aim else -d
    if ask == Ask.drawn:
        if param(P, p, HOLD_ATTACKS) != 0.0 and is_attack(st, P, k):
            return YES if aiming(st, P, p) else NO
        return YES
    if ask == Ask.bluff_rate:  # bluffs only at the victim
        return param(P, p, BLUFF_RATE) if aim else 0.0
    if ask == Ask.draw_below:  # attacks not at the victim score below 0
        return 0.0 if param(P, p, HOLD_ATTACKS) != 0.0 and not aim else NEG
    return usual(st, P, rng, p, ask, k, BLUFF_RATE, CHALLENGE_RATE, ALL_WILDS)
