"""B0 `random`, the reference bot, exactly as docs/rules.md defines it.

It is fixed so that unosim's statistics can be checked against an independent
implementation: every choice is uniform over *physical* cards (two red 5s are twice as
likely as one blue 5), it never draws voluntarily, and it bluffs and challenges only at
its parameters' rates (defaults 0: never; :mod:`unosim.bots.policy` rolls them), and
plays several cards at once (H6) only at ``multi_rate``.
"""

from unosim.kernel.jit import jit
from unosim.kernel.layout import N_KINDS, S_COLOR, S_HAND0, S_NP, S_RANK0, S_SCR0, S_TOP
from unosim.families.answers import ANSWER_KINDS, answer_copies, answers_in_group
from unosim.kernel.moves import draw4_honest, group_size, wild_allowed
from unosim.kernel.rng import below
from unosim.kernel.table import color_count, kind_colour, kind_rank, rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR as NR, WILD, WILD_DRAW4
from unosim.rules.codes import MultiPlay
from unosim.rules.params import P_MULTI_PLAY

RULES = ("B0",)

BLUFF_RATE = 0      # its parameters, in the order of its entry in unosim.rules.strategies
CHALLENGE_RATE = 1
MULTI_RATE = 2


@jit(inline=True)
def choose_play(st, P, rng, p):
    """A legal card uniformly among the physical legal cards, or -1 (draw) when none."""
    base = S_HAND0 + p * N_KINDS
    c = st[S_COLOR]
    cb = base + c * NR
    same = color_count(st, p, c)
    total = same
    top = st[S_TOP]
    tr = kind_rank(top) if top < WILD else -1
    if tr >= 0:
        for c2 in range(N_COLORS):
            if c2 != c:
                total += st[base + c2 * NR + tr]
    nw = st[base + WILD]
    n4 = st[base + WILD_DRAW4]
    if nw + n4 > 0:
        if not wild_allowed(st, P, p, 1):
            nw = 0
            n4 = 0
        elif n4 > 0 and not draw4_honest(st, P, p):
            n4 = 0
    total += nw + n4
    if total == 0:
        return -1
    u = below(rng, total)
    if u < same:  # the first rank whose running count passes u, with no branch to mispredict
        r = 0
        run = 0
        for i in range(NR):
            run += st[cb + i]
            r += run <= u
        return c * NR + r
    u -= same
    if tr >= 0:
        for c2 in range(N_COLORS):
            if c2 != c:
                u -= st[base + c2 * NR + tr]
                if u < 0:
                    return c2 * NR + tr
    u -= nw
    if u < 0:
        return WILD
    return WILD_DRAW4


@jit(inline=True)
def choose_color(st, P, rng, p):
    return below(rng, N_COLORS)


@jit()
def choose_stack(st, P, rng, p):
    """H1, H25, H26: a card that may stack or deflect, uniformly among the physical ones,
    else -1 (draw the total)."""
    total = 0
    for i in range(len(ANSWER_KINDS)):
        total += answer_copies(st, P, p, ANSWER_KINDS[i])
    if total == 0:
        return -1
    u = below(rng, total)
    for i in range(len(ANSWER_KINDS)):
        k = ANSWER_KINDS[i]
        u -= answer_copies(st, P, p, k)
        if u < 0:
            return k
    return -1


@jit()
def choose_stack_or_group(st, P, rng, p):
    """H25 with H6: a card uniformly among the physical ones that answer the pending draw,
    alone or together with every card H6 lets go with it, or that may deflect it (H26),
    else -1 (draw the total).
    B0's choice when its ``multi_rate`` is above 0; every project strategy's too when no
    single card of its own answers (a card that answers alone also answers as a group)."""
    base = S_HAND0 + p * N_KINDS
    total = 0
    for i in range(len(ANSWER_KINDS)):
        k = ANSWER_KINDS[i]
        if answers_in_group(st, P, p, k):
            total += st[base + k]
    if total == 0:
        return -1
    u = below(rng, total)
    for i in range(len(ANSWER_KINDS)):
        k = ANSWER_KINDS[i]
        if answers_in_group(st, P, p, k):
            u -= st[base + k]
            if u < 0:
                return k
    return -1


@jit()
def group_plan(st, P, rng, p, k):
    """H6: k goes down with every card H6 lets go with it (:func:`unosim.kernel.moves.group_size`),
    written as :func:`unosim.bots.policy.multi_plan` expects; the colour left on top is
    uniformly random among the colours played (a random number only when there are two
    or more; a wild's colour is named as each one goes down)."""
    for c in range(N_COLORS):
        st[S_SCR0 + c] = 0
    if k >= WILD:
        st[S_SCR0] = group_size(st, P, p, k)
        return 0
    base = S_HAND0 + p * N_KINDS
    kc = kind_colour(k)
    if rule(st, P_MULTI_PLAY) != MultiPlay.same_rank:
        st[S_SCR0 + kc] = st[base + k]
        return kc
    r = kind_rank(k)
    colours = 0
    for c in range(N_COLORS):
        n = st[base + c * NR + r]
        st[S_SCR0 + c] = n
        if n > 0:
            colours += 1
    if colours < 2:
        return kc
    u = below(rng, colours)
    for c in range(N_COLORS):
        if st[S_SCR0 + c] > 0:
            if u == 0:
                return c
            u -= 1
    return kc


@jit()
def choose_opponent(st, P, rng, p, teams):
    """H4 swap / H5 giveaway target: uniform among opponents still in the hand."""
    n = st[S_NP]
    count = 0
    for q in range(n):
        if q != p and st[S_RANK0 + q] == 0 and (teams <= 1 or q % teams != p % teams):
            count += 1
    if count == 0:
        return -1
    u = below(rng, count)
    for q in range(n):
        if q != p and st[S_RANK0 + q] == 0 and (teams <= 1 or q % teams != p % teams):
            if u == 0:
                return q
            u -= 1
    return -1


@jit()
def choose_replacement(st, rng, p, c):
    """H22 take-back: a card of colour c uniformly among the physical ones, -1 if none."""
    base = S_HAND0 + p * N_KINDS + c * NR
    total = 0
    for r in range(NR):
        total += st[base + r]
    if total == 0:
        return -1
    u = below(rng, total)
    for r in range(NR):
        u -= st[base + r]
        if u < 0:
            return c * NR + r
    return -1
