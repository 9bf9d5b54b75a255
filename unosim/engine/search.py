"""The ``search`` strategy: determinized Monte Carlo over the real engine.

At each turn where a search seat has more than one option (a legal card kind, a Wild
Draw Four bluff under R8, or a draw where R7 allows one), it samples ``worlds`` deals of
the cards it cannot see, plays each option out ``rollouts`` times per world with the real
engine, and plays the option with the best mean outcome (``objective``): its side's win
share (``hands``) or its points (``points``: what its side scores in the hand when it
wins, minus what its own hand gives the winner when it loses).  Perfect-information Monte
Carlo: each sampled world is played as if it were the true deal.  It starts from what
its rollout bot would play and switches to another option only when that option's mean
gain over it (paired playout by playout) exceeds ``margin`` standard errors: a few
hundred playouts cannot tell apart options a few points of win share apart, and the
noisy best of many options would otherwise replace a good rule by a coin toss.

What a seat knows, and so what a world keeps: its own hand, the discard pile (every card
on it was seen), every hand's size, the draw pile's size and everything else public in
the state.  The unknown cards are the deck minus its hand minus the discard pile, built
from counts (never from where the hidden cards lie, so the choice cannot depend on them:
tests/test_search.py permutes the hidden cards and checks the choice never moves), and
each world deals them uniformly into the other hands (sizes kept, a partner's included)
and the draw pile; with ``voids = 1`` uniformly among the deals that respect
what every seat's draws showed (a seat that drew on red held no red: the voids section
below), as closely as :func:`sample_world_within` says.

The playouts: the search seat plays its ``rollout_bot`` (at that strategy's defaults)
after the option, the other seats their own strategies, and the hand runs to its end
under every rule the engine plays.  The same world and the same random stream serve
every option (common random numbers), so options differ by the option alone.  Every
decision other than the card (colour, stack, challenge, drawn card, jump-in, swap
target, multi-play) is the rollout bot's, in the game as in the playouts.

How it runs in the kernel without recursion: the table's rules vector gives each search
seat its rollout bot's code (:func:`unosim.engine.search_batch.split_params`), and the
seats that search are listed in a context array ``ctx`` passed to the hand loop's step
made with :func:`searched_turn` for the turn (:data:`searching_step`, from the engine's
:func:`unosim.engine.hand.stepper`, wrapped by :func:`search_step`, which first brings
the void limits kept in the same context up to date); the playouts call the engine's
plain :func:`unosim.engine.hand.step`, so they never search in turn.  The search's
randomness is its own stream per hand (``STREAM_SEARCH``), per decision and per playout:
the game's stream is never touched by a playout, and a run is bit-identical whatever
the thread count.
"""

from __future__ import annotations

import numpy as np

from unosim.bots import policy
from unosim.bots.common import N_CAND, can_bluff, cand, is_opponent, legal_copies, legal_view
from unosim.kernel.borrow import address
from unosim.kernel.jit import jit
from unosim.kernel.layout import (LOG_WIDTH, N_KINDS, N_STATE, S_BLUFF, S_CHALLENGES, S_COLOR, S_DISC0, S_DONE,
    S_DRAW0, S_DRAWN, S_GIVEAWAYS, S_HAND0, S_HS0, S_LOGCAP, S_MEM0, S_NDISC, S_NDRAW, S_NLOG, S_NP, S_PASSES,
    S_PLAYED, S_SCR0, S_SWAPS, S_TOP, S_WINNER)
from unosim.kernel.moves import wild_allowed
from unosim.kernel.rng import below, stream_start
from unosim.kernel.table import hand_points, rule
from unosim.rules.cards import N_COLORS, RANKS_PER_COLOR, WILD, WILD_DRAW4
from unosim.rules.codes import BluffPenalty, Draw, DrawnMatch, PlayDrawn
from unosim.rules.params import (MAX_CARDS, MAX_PLAYERS, P_BLUFF_PENALTY, P_DECKS, P_DRAW, P_DRAWN_MATCH,
    P_PLAY_DRAWN, P_TEAMS, P_VOLUNTARY_DRAW)
from .hand import put_move, step, stepper
from .turns import Source, open_turn, turn_with

# ctx: the search table's context, one int64 array
C_SEED = 0       # the hand's search stream (uint64 bits)
C_DECISIONS = 1  # searched decisions so far in the hand: each has its own stream
C_SEAT0 = 2      # per seat: searches (0/1), worlds, rollouts, objective, margin x 1000, voids (0/1)
C_STRIDE = 6
C_TRACK = C_SEAT0 + MAX_PLAYERS * C_STRIDE  # 1: some seat uses voids, so the table keeps them
C_VSTARTED = C_TRACK + 1  # 0 until the hand's first step has set what follows (play_hand clears it)
C_VDRAWN = C_TRACK + 2    # S_DRAWN, S_PLAYED and the hand-moving counters at the last update
C_VPLAYED = C_TRACK + 3
C_VMOVED = C_TRACK + 4
C_VHS0 = C_TRACK + 5      # per seat: its hand size at the last update
N_GROUPS = N_COLORS + RANKS_PER_COLOR + 2  # a colour, a rank (Wild and Wild Draw Four are ranks 13, 14)
C_VLIM0 = C_VHS0 + MAX_PLAYERS  # per seat, per group: how many of its cards may be of that group
C_LEN = C_VLIM0 + MAX_PLAYERS * N_GROUPS

OBJ_HANDS = 0
OBJ_POINTS = 1
MAX_OPTIONS = N_CAND + 2  # the candidate kinds, a bluff, a draw


# --------------------------------------------------------------------------- the decision
@jit()
def options(st, P, p, opt):
    """Seat p's choices now, into ``opt``: each legal kind it holds (R5, R8, H7), a Wild
    Draw Four bluff when only a bluff would play it (R8), a draw (-1) when nothing is
    legal or R7 allows one (not under H8).  Returns how many."""
    n = 0
    c, tr, wok, w4ok = legal_view(st, P, p)
    base = S_HAND0 + p * N_KINDS
    for i in range(N_CAND):
        k = cand(i, c, tr)
        if legal_copies(st, base, k, wok, w4ok) > 0:
            opt[n] = k
            n += 1
    if can_bluff(st, P, p):
        opt[n] = WILD_DRAW4
        n += 1
    if n == 0 or rule(st, P_VOLUNTARY_DRAW) != 0:
        opt[n] = -1
        n += 1
    return n


@jit()
def unknown_pool(st, P, p, pool):
    """The cards seat p cannot see, in kind order, into ``pool``: the deck (R1, H20) minus
    p's hand minus the discard pile, from counts alone.  Returns how many."""
    counts = np.zeros(N_KINDS, np.int64)
    decks = rule(st, P_DECKS)
    for k in range(N_KINDS):
        copies = 4 if k >= WILD else (1 if k % RANKS_PER_COLOR == 0 else 2)
        counts[k] = copies * decks - st[S_HAND0 + p * N_KINDS + k]
    for i in range(st[S_NDISC]):
        counts[st[S_DISC0 + i]] -= 1
    m = 0
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            pool[m] = k
            m += 1
    return m


@jit()
def sample_world(st, p, pool, m, rng, w):
    """A world for seat p into ``w``: the state ``st`` with the other hands (sizes kept)
    and the draw pile dealt afresh from the ``m`` unknown cards in ``pool``, shuffled with
    ``rng``; nothing is logged in it and the per-seat scratch starts empty."""
    world_base(st, w)
    shuffle(pool, 0, m, rng)
    deal_in_order(st, p, pool, m, w)


@jit(inline=True)
def world_base(st, w):
    """``w`` = ``st`` with nothing logged and the per-seat scratch empty (the hidden cards
    are then dealt over it)."""
    for i in range(N_STATE):
        w[i] = st[i]
    w[S_LOGCAP] = 0
    w[S_NLOG] = 0
    w[S_BLUFF] = 0
    for q in range(MAX_PLAYERS):
        w[S_SCR0 + q] = 0


@jit(inline=True)
def shuffle(pool, lo, hi, rng):
    """Fisher-Yates on ``pool[lo:hi]``."""
    for i in range(hi - 1, lo, -1):
        j = lo + below(rng, i - lo + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t


@jit()
def deal_in_order(st, p, pool, m, w):
    """The cards of ``pool`` in order: each other seat's hand (its size), then the draw pile."""
    n = st[S_NP]
    at = 0
    for q in range(n):
        if q == p:
            continue
        base = S_HAND0 + q * N_KINDS
        for k in range(N_KINDS):
            w[base + k] = 0
        for _ in range(st[S_HS0 + q]):
            if at < m:
                w[base + pool[at]] += 1
            at += 1
    for i in range(st[S_NDRAW]):
        w[S_DRAW0 + i] = pool[at] if at < m else 0
        at += 1


# --------------------------------------------------------------------------- voids
# What every seat saw of the others' draws, kept in ctx for the tables whose search seats
# use it (``voids``): per seat q and group g (a colour, a rank, Wild, Wild Draw Four) a
# limit on how many of q's cards may be of g.  A seat that draws on its own turn held no
# legal card: none of the colour in force, none of the top card's rank, no wild it could
# play (R5-R8; bots draw holding a legal card only by R7's voluntary draw, and rarely);
# those limits go to 0, and every card it takes from the pile afterwards raises them by
# one.  Only public facts go in: hand sizes, the card in force, the O1 counters, whether
# the seat drew and whether it played what it drew.


@jit(inline=True)
def group_colour(k):
    """The colour group of kind k (-1 for a wild)."""
    return k // RANKS_PER_COLOR if k < WILD else -1


@jit(inline=True)
def group_rank(k):
    """The rank group of kind k: N_COLORS + its rank (Wild 13, Wild Draw Four 14)."""
    return N_COLORS + (k % RANKS_PER_COLOR if k < WILD else RANKS_PER_COLOR + k - WILD)


@jit()
def voids_sync(st, P, ctx):
    """Bring the limits up to ``st``: each seat's limits rise by the cards it may have
    taken since the last update and never exceed its hand size.  Cards taken are bounded
    from public counts: at most the cards drawn by anyone, and at most the seat's growth
    plus the cards anyone put down (its own plays hide draws).  Hands that moved whole
    (H4 swaps and passes, H5 giveaways, H22 take-backs) make every limit unknown again,
    as does the hand's first update."""
    n = st[S_NP]
    moved = st[S_SWAPS] + st[S_PASSES] + st[S_GIVEAWAYS]
    if rule(st, P_BLUFF_PENALTY) == BluffPenalty.take_back:
        moved += st[S_CHALLENGES]
    fresh = ctx[C_VSTARTED] == 0 or moved != ctx[C_VMOVED]
    drawn = st[S_DRAWN] - ctx[C_VDRAWN]
    played = max(st[S_PLAYED] - ctx[C_VPLAYED], 0)
    for q in range(n):
        hs = st[S_HS0 + q]
        gained = hs if fresh else min(drawn, max(0, hs - ctx[C_VHS0 + q] + played))
        b = C_VLIM0 + q * N_GROUPS
        for g in range(N_GROUPS):
            ctx[b + g] = min(ctx[b + g] + gained, hs)
        ctx[C_VHS0 + q] = hs
    ctx[C_VSTARTED] = 1
    ctx[C_VDRAWN] = st[S_DRAWN]
    ctx[C_VPLAYED] = st[S_PLAYED]
    ctx[C_VMOVED] = moved


@jit()
def note_draw(st, P, ctx, p, c, top, wok, hs_before, source):
    """Seat p drew on its own turn (the colour in force c, the top card ``top``, wilds
    playable ``wok`` when it chose to draw) and the draw is over (``source``: it plays the
    card drawn, or none): it held nothing of c, of the top's rank, nor a wild it could
    play.  The cards it keeps from the draw count only where they could be of those
    groups: a kept card is unplayable under H3 and, R6 ``must`` or ``may`` (bots play a
    legal drawn card, all but a few: aggressor keeps an attack card, wild_saver a wild),
    not of c; only ``never`` keeps any card."""
    voids_sync(st, P, ctx)
    kept = st[S_HS0 + p] - hs_before - (1 if source == Source.drawn else 0)
    kept = max(kept, 0)
    sure = (source == Source.drawn or rule(st, P_DRAW) == Draw.until_playable
            or rule(st, P_PLAY_DRAWN) != PlayDrawn.never)
    v = 0 if sure else kept
    b = C_VLIM0 + p * N_GROUPS
    if 0 <= c < N_COLORS:
        ctx[b + c] = min(ctx[b + c], v)
    if top < WILD:  # E2 ``color``: a drawn card of the top's rank but another colour is kept
        vr = v if rule(st, P_DRAWN_MATCH) == DrawnMatch.any else kept
        g = group_rank(top)
        ctx[b + g] = min(ctx[b + g], vr)
    if wok:
        for k in (WILD, WILD_DRAW4):
            g = group_rank(k)
            ctx[b + g] = min(ctx[b + g], v)


@jit(inline=True)
def _count(cnt, o, k, d):
    """Owner o's group counts += d for one card of kind k."""
    b = o * N_GROUPS
    if k < WILD:
        cnt[b + group_colour(k)] += d
    cnt[b + group_rank(k)] += d


@jit(inline=True)
def _within(cnt, caps, o, k):
    """Owner o's counts of kind k's groups are within its limits."""
    b = o * N_GROUPS
    if k < WILD and cnt[b + group_colour(k)] > caps[b + group_colour(k)]:
        return False
    return cnt[b + group_rank(k)] <= caps[b + group_rank(k)]


@jit()
def sample_world_within(st, p, pool, m, rng, w, caps, scr):
    """:func:`sample_world` with each other seat q's hand holding at most
    ``caps[q * N_GROUPS + g]`` cards of group g; returns 1, or 0 when this deal could not
    meet the limits and the world is the unconstrained one (a bluff, a voluntary draw or
    a declined drawn card can make the limits wrong).

    How close to uniform among the deals that meet the limits: the seats with a binding
    limit are dealt first, each taking the first cards of a fresh shuffle that fit (for
    limits of 0, the voids, that is exactly uniform for the seat), the rest in a fresh
    shuffle to the other seats and the draw pile; then ``m`` steps of a Metropolis chain
    (swap a card of a bound seat with any card of another owner when both still fit: a
    symmetric proposal, so its stationary law is the uniform one) undo most of what
    dealing the seats one after the other favours (a seat dealt first takes its share of
    a colour another seat may not hold; exact uniformity would weigh its hands by the
    completions left).  With no binding limit this is the plain uniform deal.  ``scr``: MAX_CARDS owners
    (a seat, MAX_PLAYERS for the draw pile), then per owner its group counts, then per
    owner 1 if it has a binding limit."""
    world_base(st, w)
    n = st[S_NP]
    cnt0 = MAX_CARDS
    bind0 = cnt0 + (MAX_PLAYERS + 1) * N_GROUPS
    for i in range(cnt0, bind0 + MAX_PLAYERS + 1):
        scr[i] = 0
    total = st[S_NDRAW]
    for q in range(n):
        if q == p:
            continue
        total += st[S_HS0 + q]
        for g in range(N_GROUPS):
            if caps[q * N_GROUPS + g] < st[S_HS0 + q]:
                scr[bind0 + q] = 1
    shuffle(pool, 0, m, rng)
    ok = total == m
    at = 0
    for bound in (1, 0):
        for q in range(n):
            if q == p or scr[bind0 + q] != bound or not ok:
                continue
            h = st[S_HS0 + q]
            start = at
            if bound:
                i = at
                while at - start < h and i < m:
                    k = pool[i]
                    _count(scr[cnt0:], q, k, 1)
                    if _within(scr[cnt0:], caps, q, k):
                        pool[i] = pool[at]
                        pool[at] = k
                        at += 1
                    else:
                        _count(scr[cnt0:], q, k, -1)
                    i += 1
                ok = at - start == h
                shuffle(pool, at, m, rng)
            else:
                at += h
            for i in range(start, min(start + h, m)):
                scr[i] = q
    if not ok:
        shuffle(pool, 0, m, rng)
        deal_in_order(st, p, pool, m, w)
        return 0
    for i in range(at, m):
        scr[i] = MAX_PLAYERS
    cnt = scr[cnt0:bind0]
    nb = 0  # the bound seats hold pool[:nb]: each swap moves one of their cards
    for q in range(n):
        if q != p and scr[bind0 + q]:
            nb += st[S_HS0 + q]
    for _ in range(m if nb > 0 else 0):
        i = below(rng, nb)
        j = below(rng, m)
        oi = scr[i]
        oj = scr[j]
        if oi == oj:
            continue
        a = pool[i]
        b = pool[j]
        fits = True
        if scr[bind0 + oi]:
            _count(cnt, oi, a, -1)
            _count(cnt, oi, b, 1)
            fits = _within(cnt, caps, oi, b)
        if fits and scr[bind0 + oj]:
            _count(cnt, oj, b, -1)
            _count(cnt, oj, a, 1)
            fits = _within(cnt, caps, oj, a)
            if not fits:
                _count(cnt, oj, b, 1)
                _count(cnt, oj, a, -1)
        if not fits:
            if scr[bind0 + oi]:
                _count(cnt, oi, a, 1)
                _count(cnt, oi, b, -1)
            continue
        pool[i] = b
        pool[j] = a
    for q in range(n):
        if q != p:
            base = S_HAND0 + q * N_KINDS
            for k in range(N_KINDS):
                w[base + k] = 0
    d = 0
    for i in range(m):
        o = scr[i]
        if o < MAX_PLAYERS:
            w[S_HAND0 + o * N_KINDS + pool[i]] += 1
        else:
            w[S_DRAW0 + d] = pool[i]
            d += 1
    return 1


@jit(inline=True)
def restore(base, w, n):
    """w back to the world ``base`` for the next playout: the slots a hand of n seats
    changes (scalars, hands, the live piles, card counters' memory).  The rest (the rules,
    scores and codes copied in by reset, the piles' dead slots) was copied once and is
    never read before it is written."""
    for i in range(S_HAND0 + n * N_KINDS):
        w[i] = base[i]
    for i in range(base[S_NDRAW]):
        w[S_DRAW0 + i] = base[S_DRAW0 + i]
    for i in range(base[S_NDISC]):
        w[S_DISC0 + i] = base[S_DISC0 + i]
    for i in range(n * N_KINDS):
        w[S_MEM0 + i] = base[S_MEM0 + i]


@jit()
def outcome(w, P, p, objective):
    """What a finished playout is worth to seat p (module doc)."""
    winner = w[S_WINNER]
    if winner < 0:
        return 0.0
    mine = winner == p or not is_opponent(w, p, winner)
    if objective == OBJ_HANDS:
        return 1.0 if mine else 0.0
    if mine:
        total = 0
        teams = rule(w, P_TEAMS)
        for q in range(w[S_NP]):
            if q != winner and (teams <= 1 or q % teams != winner % teams):
                total += hand_points(w, P, q)
        return float(total)
    return -float(hand_points(w, P, p))


@jit()
def decide(st, P, log, p, ctx):
    """The card (-1: draw) search seat p plays now, at the point its strategy would be
    asked (its turn opened).  Reads ``st`` only through what p knows (module doc)."""
    opt = np.empty(MAX_OPTIONS, np.int64)
    n_opt = options(st, P, p, opt)
    if n_opt == 1:
        return opt[0]
    c = C_SEAT0 + p * C_STRIDE
    worlds = ctx[c + 1]
    rollouts = ctx[c + 2]
    objective = ctx[c + 3]
    margin = ctx[c + 4] / 1000.0
    voids = ctx[c + 5] != 0 and ctx[C_TRACK] != 0 and ctx[C_VSTARTED] != 0
    d = ctx[C_DECISIONS]
    ctx[C_DECISIONS] = d + 1
    seed = stream_start(np.uint64(ctx[C_SEED]), d, p)
    work = (np.empty(MAX_CARDS, np.int64), np.empty(N_STATE, np.int64), np.empty(N_STATE, np.int64),
            np.empty(1, np.uint64), np.empty(1, np.uint64), np.empty(MAX_PLAYERS * N_GROUPS, np.int64),
            np.empty(MAX_CARDS + (MAX_PLAYERS + 1) * (N_GROUPS + 1), np.int64))
    caps = work[5]
    for i in range(MAX_PLAYERS * N_GROUPS):
        caps[i] = ctx[C_VLIM0 + i]
    return opt[search_options(work, st, P, log, p, opt, n_opt, worlds, rollouts, objective, margin, seed, voids)]


@jit()
def search_options(work, st, P, log, p, opt, n_opt, worlds, rollouts, objective, margin, seed, voids):
    """The index in ``opt`` of the option :func:`decide` plays, on the decision's arrays
    ``work`` (the unknown pool, the sampled world, the playout's state, two random states,
    the void limits and :func:`sample_world_within`'s scratch), which its caller holds
    (unosim/kernel/borrow.py); ``voids``: deal worlds within the limits."""
    pool = work[0]
    base = address(work[1])
    w = address(work[2])
    rng_w = address(work[3])
    rng_r = address(work[4])
    # the rollout bot's own choice (its ties from the search's stream, not the game's)
    rng_w[0] = stream_start(seed, 0, 0)
    own = policy.choose_play(st, P, rng_w, p)
    j0 = 0
    for j in range(n_opt):
        if opt[j] == own:
            j0 = j
    value = np.zeros(MAX_OPTIONS, np.float64)
    gain = np.zeros(MAX_OPTIONS, np.float64)  # summed over playouts: value - the own choice's
    gain2 = np.zeros(MAX_OPTIONS, np.float64)
    rng_w[0] = seed
    m = unknown_pool(st, P, p, pool)
    for i in range(N_STATE):
        w[i] = st[i]
    n = st[S_NP]
    for wi in range(worlds):
        if voids:
            sample_world_within(st, p, pool, m, rng_w, base, work[5], work[6])
        else:
            sample_world(st, p, pool, m, rng_w, base)
        for ri in range(rollouts):
            start = stream_start(seed, wi + 1, ri)
            for j in range(n_opt):
                restore(base, w, n)
                rng_r[0] = start
                k, source = turn_with(w, P, rng_r, log, p, opt[j])
                put_move(w, P, rng_r, log, p, k, source)
                while w[S_DONE] == 0:
                    step(w, P, rng_r, log)
                value[j] = outcome(w, P, p, objective)
            for j in range(n_opt):
                g = value[j] - value[j0]
                gain[j] += g
                gain2[j] += g * g
    return choose(gain, gain2, n_opt, j0, worlds * rollouts, margin)


@jit()
def choose(gain, gain2, n_opt, j0, n, margin):
    """The option to play: the one whose mean gain over the rollout bot's own choice j0
    (paired by playout) is largest among those beating it by more than ``margin``
    standard errors; j0 when none does."""
    best = j0
    top = 0.0
    for j in range(n_opt):
        if j == j0:
            continue
        mean = gain[j] / n
        var = gain2[j] / n - mean * mean
        se = np.sqrt(max(var, 0.0) / n)
        if mean > top and mean > margin * se:
            best = j
            top = mean
    return best


@jit(inline=True)
def searched_turn(st, P, rng, log, p, ctx):
    """:func:`unosim.engine.turns.take_turn` at a table with search seats: a search seat
    chooses its card by :func:`decide`, every other seat as usual.  Where seats use voids,
    the limits are brought up to date before the choice and a draw is noted."""
    open_turn(st, P, rng, log, p)
    track = ctx[C_TRACK] != 0
    if track:
        voids_sync(st, P, ctx)
    if ctx[C_SEAT0 + p * C_STRIDE] != 0:
        k = decide(st, P, log, p, ctx)
    else:
        k = policy.choose_play(st, P, rng, p)
    if not track or k >= 0:
        return turn_with(st, P, rng, log, p, k)
    c = st[S_COLOR]
    top = st[S_TOP]
    wok = wild_allowed(st, P, p, 1)
    hs = st[S_HS0 + p]
    kk, source = turn_with(st, P, rng, log, p, k)
    note_draw(st, P, ctx, p, c, top, wok, hs, source)
    return kk, source


@jit(inline=True)
def search_step(st, P, rng, log, ctx):
    """:data:`searching_step` with the void limits brought up to date first (a penalty
    drawn, a stack, a jump-in: every step, so one seat's play and another's draw seldom
    fall in the same update)."""
    if ctx[C_TRACK] != 0:
        voids_sync(st, P, ctx)
    searching_step(st, P, rng, log, ctx)


searching_step = stepper(searched_turn)
""":func:`unosim.engine.hand.step`'s loop with :func:`searched_turn` for the turn: the
calls with a context (a table with search seats).  A dispatcher of its own, not the
playouts' ``step``: numba types a call to a dispatcher that is compiling as a recursive
call, and the program would then lack the plain code the playouts run."""


# --------------------------------------------------------------------------- for tests and scenarios


@jit()
def choice_at(st, P, ctx, p, seed):
    """What search seat p of ``ctx`` would play in state ``st`` (its turn opened), with the
    search stream ``seed``; ``st`` is left as it was (the void limits in ``ctx`` are
    brought up to ``st`` first)."""
    ctx[C_SEED] = seed
    ctx[C_DECISIONS] = 0
    if ctx[C_TRACK] != 0:
        voids_sync(st, P, ctx)
    return _choice(np.zeros((0, LOG_WIDTH), np.int64), st, P, ctx, p)


@jit()
def _choice(log, st, P, ctx, p):
    return decide(address(st), address(P), address(log), p, address(ctx))


@jit()
def step_at(st, P, rng, log, ctx):
    """One :func:`unosim.engine.hand.step` of a scenario at a table with search seats
    (events go to ``log`` as far as it holds them)."""
    st[S_LOGCAP] = log.shape[0]
    search_step(address(st), address(P), address(rng), address(log), address(ctx))


__all__ = ["C_LEN", "C_SEAT0", "C_STRIDE", "C_TRACK", "C_VLIM0", "C_VSTARTED", "N_GROUPS", "choice_at", "decide",
           "group_colour", "group_rank", "note_draw", "options", "outcome", "sample_world", "sample_world_within",
           "search_step", "searched_turn", "searching_step", "step_at", "unknown_pool", "voids_sync"]
