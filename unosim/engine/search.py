"""The ``search`` strategy: determinized Monte Carlo over the real engine.

At a decision with several options, a search seat samples ``worlds`` deals of the cards it
cannot see, plays each option out ``rollouts`` times with the real engine and keeps its
rollout bot's choice unless another option is better by ``margin`` standard errors.
What a seat knows, the playouts and how it runs without recursion: docs/design.md,
"The search strategy"; its parameters: docs/bots.md.
"""

from __future__ import annotations

import numpy as np

from unosim.bots import policy
from unosim.bots.common import is_opponent
from unosim.kernel.borrow import address
from unosim.kernel.jit import jit
from unosim.kernel.layout import (LOG_WIDTH, N_KINDS, N_STATE, S_CHALLENGES, S_COLOR, S_CUR, S_DISC0, S_DONE,
    S_DRAW0, S_DRAWN, S_GIVEAWAYS, S_HAND0, S_HELD, S_HELD_LAST, S_HS0, S_JUMPERS, S_JUMP_SAID, S_JUMP_YES, S_LOGCAP,
    S_NDISC, S_NDRAW, S_NP, S_PASSES, S_PLAYED, S_SWAPS, S_TOP, S_WINNER)
from unosim.families import challenge
from unosim.kernel.moves import group_size, wild_allowed
from unosim.kernel.rng import stream_start
from unosim.kernel.table import hand_points, rule
from unosim.rules.cards import N_COLORS, WILD, WILD_DRAW4
from unosim.rules.codes import BluffPenalty, Draw, DrawnMatch, PlayDrawn
from unosim.rules.params import MAX_CARDS, MAX_PLAYERS, P_BLUFF_PENALTY, P_DRAW, P_DRAWN_MATCH, P_PLAY_DRAWN
from .choices import (ANSWER, DRAWN, GROUPED, JUMP, MAX_OPTIONS, NAMED, TARGETED, TURN, answer_options,
    group_options, named_options, options, own_choice, play_option, stacked_kind, target_options)
from .hand import step, stepper
from .jump import may_jump, next_to_act, resume_window
from .turns import ASK, CHALLENGE, DRAW, Source, after_draw, draw_in_turn, drawn_choice, open_turn
from .worlds import N_GROUPS, SCRATCH, group_colour, group_rank, sample_world, sample_world_within, unknown_pool

# ctx: the search table's context, one int64 array
C_SEED = 0       # the hand's search stream (uint64 bits)
C_DECISIONS = 1  # searched decisions so far in the hand: each has its own stream
C_SEAT0 = 2      # per seat: searches (0/1), worlds, rollouts, objective, margin x 1000, voids (0/1), colours (0/1),
C_STRIDE = 9     # deepen, promise x 1000
C_TRACK = C_SEAT0 + MAX_PLAYERS * C_STRIDE  # 1: some seat uses voids, so the table keeps them
C_VSTARTED = C_TRACK + 1  # 0 until the hand's first step has set what follows (play_hand clears it)
C_VDRAWN = C_TRACK + 2    # S_DRAWN, S_PLAYED and the hand-moving counters at the last update
C_VPLAYED = C_TRACK + 3
C_VMOVED = C_TRACK + 4
C_VHS0 = C_TRACK + 5      # per seat: its hand size at the last update
C_VLIM0 = C_VHS0 + MAX_PLAYERS  # per seat, per group: how many of its cards may be of that group
C_LEN = C_VLIM0 + MAX_PLAYERS * N_GROUPS

OBJ_HANDS = 0
OBJ_POINTS = 1
# --------------------------------------------------------------------------- voids
# What every seat saw of the others' draws, kept in ctx for the tables whose search seats
# use it (``voids``): per seat q and group g (a colour, a rank, Wild, Wild Draw Four) a
# limit on how many of q's cards may be of g.  A seat that draws on its own turn held no
# legal card: none of the colour in force, none of the top card's rank, no wild it could
# play (R5-R8; bots draw holding a legal card only by R7's voluntary draw, and rarely);
# those limits go to 0, and every card it takes from the pile afterwards raises them by
# one.  Only public facts go in: hand sizes, the card in force, the O1 counters, whether
# the seat drew and whether it played what it drew.


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
def restore(base, w, n):
    """w back to the world ``base`` for the next playout: the slots a hand of n seats
    changes (scalars, hands, the live piles).  The rest (the rules, scores and codes
    copied in by load_rules, the piles' dead slots) was copied once and is never read
    before it is written."""
    for i in range(S_HAND0 + n * N_KINDS):
        w[i] = base[i]
    for i in range(base[S_NDRAW]):
        w[S_DRAW0 + i] = base[S_DRAW0 + i]
    for i in range(base[S_NDISC]):
        w[S_DISC0 + i] = base[S_DISC0 + i]


@jit()
def outcome(w, P, p, objective):
    """What a finished playout is worth to seat p (module doc)."""
    winner = w[S_WINNER]
    if winner < 0:
        return 0.0
    mine = not is_opponent(w, p, winner)
    if objective == OBJ_HANDS:
        return 1.0 if mine else 0.0
    if mine:
        total = 0
        for q in range(w[S_NP]):
            if is_opponent(w, winner, q):
                total += hand_points(w, P, q)
        return float(total)
    return -float(hand_points(w, P, p))


@jit()
def decide(st, P, log, p, ctx):
    """The card (-1: draw) search seat p plays now, at the point its strategy would be
    asked (its turn opened).  Reads ``st`` only through what p knows (module doc)."""
    opt = np.empty(MAX_OPTIONS, np.int64)
    n_opt = options(st, P, p, opt)
    if ctx[C_SEAT0 + p * C_STRIDE + 6] != 0:
        n_opt = named_options(st, P, opt, n_opt)
    n_opt = target_options(st, P, p, opt, n_opt)
    n_opt = group_options(st, P, p, opt, n_opt)
    for j in range(n_opt):  # H6: a play that empties the hand ends it won (R12), nothing to search
        if opt[j] >= 2 * GROUPED and group_size(st, P, p, opt[j] % GROUPED) == st[S_HS0 + p]:
            return opt[j]
    if n_opt == 1:
        return opt[0]
    return opt[search_among(st, P, log, p, ctx, opt, n_opt, TURN, -1)]


@jit()
def decide_answer(st, P, log, p, ctx):
    """Search seat p's answer to the pending draw it faces, not challenged: a kind to
    stack or ``DRAW`` (:func:`answer_options`)."""
    opt = np.empty(MAX_OPTIONS, np.int64)
    n_opt = answer_options(st, P, p, opt)
    if n_opt == 1:
        return DRAW
    return opt[search_among(st, P, log, p, ctx, opt, n_opt, ANSWER, -1)]


@jit()
def decide_yes(st, P, log, p, ctx, kind, card):
    """Search seat p's yes (1) or no (0) at a decision of ``kind``: ``DRAWN``, play the
    ``card`` it just drew or keep it (R6 ``may``); ``JUMP``, jump in or stay out on the
    card of the waiting H2 window (unosim.engine.jump), which it may jump into."""
    return search_among(st, P, log, p, ctx, np.arange(2), 2, kind, card)


@jit()
def search_among(st, P, log, p, ctx, opt, n_opt, kind, card):
    """The index in ``opt`` of the option of a decision of ``kind`` search seat p takes,
    on its budget in ``ctx`` and the decision's own stream."""
    c = C_SEAT0 + p * C_STRIDE
    worlds = ctx[c + 1]
    rollouts = ctx[c + 2]
    objective = ctx[c + 3]
    margin = ctx[c + 4] / 1000.0
    voids = ctx[c + 5] != 0 and ctx[C_TRACK] != 0 and ctx[C_VSTARTED] != 0
    deepen = ctx[c + 7]
    promise = ctx[c + 8] / 1000.0
    d = ctx[C_DECISIONS]
    ctx[C_DECISIONS] = d + 1
    seed = stream_start(np.uint64(ctx[C_SEED]), d, p)
    work = (np.empty(MAX_CARDS, np.int64), np.empty(N_STATE, np.int64), np.empty(N_STATE, np.int64),
            np.empty(1, np.uint64), np.empty(1, np.uint64), np.empty(MAX_PLAYERS * N_GROUPS, np.int64),
            np.empty(SCRATCH, np.int64))
    caps = work[5]
    for i in range(MAX_PLAYERS * N_GROUPS):
        caps[i] = ctx[C_VLIM0 + i]
    return search_options(work, st, P, log, p, opt, n_opt, kind, card, worlds, rollouts, objective, margin, seed,
                          voids, deepen, promise)


@jit()
def search_options(work, st, P, log, p, opt, n_opt, kind, card, worlds, rollouts, objective, margin, seed, voids,
                   deepen, promise):
    """The index in ``opt`` of the option of a decision of ``kind`` (about the drawn
    ``card``) that seat p takes, on the decision's arrays ``work`` (the unknown pool, the
    sampled world, the playout's state, two random states, the void limits and
    :func:`sample_world_within`'s scratch), which its caller holds
    (unosim/kernel/borrow.py); ``voids``: deal worlds within the limits; ``deepen`` times
    the worlds when some option is ``promise`` standard errors ahead after the first
    ``worlds`` (the module doc)."""
    pool = work[0]
    base = address(work[1])
    w = address(work[2])
    rng_w = address(work[3])
    rng_r = address(work[4])
    # the rollout bot's own choice (its ties from the search's stream, not the game's)
    rng_w[0] = stream_start(seed, 0, 0)
    own = own_choice(st, P, rng_w, p, kind, card)
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
    for wi in range(worlds * deepen):
        if wi == worlds and not ahead(gain, gain2, n_opt, j0, promise):
            break
        if voids:
            sample_world_within(st, p, pool, m, rng_w, base, work[5], work[6])
        else:
            sample_world(st, p, pool, m, rng_w, base)
        for ri in range(rollouts):
            start = stream_start(seed, wi + 1, ri)
            for j in range(n_opt):
                restore(base, w, n)
                rng_r[0] = start
                play_option(w, P, rng_r, log, p, opt[j], kind, card)
                while w[S_DONE] == 0:
                    step(w, P, rng_r, log)
                value[j] = outcome(w, P, p, objective)
            for j in range(n_opt):
                g = value[j] - value[j0]
                gain[j] += g
                gain2[j] += g * g
    return choose(gain, gain2, n_opt, j0, margin)


@jit()
def ahead(gain, gain2, n_opt, j0, promise):
    """Whether some option's summed gain over the rollout bot's choice j0 stands
    ``promise`` standard errors above 0 (the spread as in :func:`choose`)."""
    return best_past(gain, gain2, n_opt, j0, promise) != j0


@jit()
def choose(gain, gain2, n_opt, j0, margin):
    """The option to play: among those whose summed gain over the rollout bot's own choice
    j0 (paired by playout) passes the test, the largest; j0 when none does.

    The test: ``sum(d) > t * sqrt(sum(d^2))`` over the paired differences ``d``, the gain
    against its spread if the option were no better.  For a hand won or lost it is the
    sign test on the playouts where the two options' results differ; the sample's own
    spread (the mean taken out) would, when a few playouts differ and all one way, be near
    0 and let any option through.  ``t`` is ``margin`` for one alternative and
    ``sqrt(margin^2 + 2 ln k)`` for ``k`` (close to the Bonferroni bound): the best of k
    noisy options clears a fixed bar about k times as often as one, and a switch on noise
    usually swaps the rollout bot's good card for a worse one.  ``margin`` 0: the best
    mean, whatever the noise."""
    k = n_opt - 1
    t = margin
    if margin > 0.0 and k > 1:
        t = np.sqrt(margin * margin + 2.0 * np.log(k))
    return best_past(gain, gain2, n_opt, j0, t)


@jit()
def best_past(gain, gain2, n_opt, j0, t):
    """Among the options other than j0 whose summed gain passes ``gain > t * sqrt(gain2)``
    (and 0), the one with the largest gain; j0 when none does."""
    best = j0
    top = 0.0
    for j in range(n_opt):
        if j == j0:
            continue
        if gain[j] > top and gain[j] > t * np.sqrt(gain2[j]):
            best = j
            top = gain[j]
    return best


@jit(inline=True)
def searched_turn(st, P, rng, log, p, ctx):
    """:func:`unosim.engine.turns.take_turn` at a table with search seats: a search seat
    chooses its card by :func:`decide`, and whether to play a card it drew by
    :func:`decide_yes`; every other seat as usual.  Where seats use voids, the limits
    are brought up to date before the choice and a draw is noted."""
    open_turn(st, P, rng, log, p)
    track = ctx[C_TRACK] != 0
    if track:
        voids_sync(st, P, ctx)
    searches = ctx[C_SEAT0 + p * C_STRIDE] != 0
    if searches:
        k = decide(st, P, log, p, ctx)
    else:
        k = policy.choose_play(st, P, rng, p)
    if k >= NAMED:  # a wild and its colour, a 7 or red 0 and its target, a card and its group (choices):
        play_option(st, P, rng, log, p, k, TURN, -1)  # played here, nothing left for the step
        return -1, Source.none
    if k >= 0:
        return k, Source.hand
    c, top, hs = st[S_COLOR], st[S_TOP], st[S_HS0 + p]  # what note_draw reads of the turn before the draw
    wok = track and wild_allowed(st, P, p, 1)
    drawn = draw_in_turn(st, P, rng, log, p, searches)
    play = ASK
    if searches and drawn_choice(st, P, p, drawn):
        play = decide_yes(st, P, log, p, ctx, DRAWN, drawn)
    kk, source = after_draw(st, P, rng, log, p, drawn, play)
    if track:
        note_draw(st, P, ctx, p, c, top, wok, hs, source)
    return kk, source


@jit(inline=True)
def searched_answer(st, P, rng, log, ctx):
    """The answer to a pending draw at a table with search seats: a search seat challenges
    a Wild Draw Four when its rollout bot would (R8), else stacks or takes it as
    :func:`decide_answer` finds; every other seat answers by its strategy.

    The challenge is not searched: a sampled world deals the Wild Draw Four's player its
    other cards at random, so the card mostly looks like a bluff (docs/design.md)."""
    v = st[S_CUR]
    if ctx[C_SEAT0 + v * C_STRIDE] == 0:
        return ASK
    if challenge.may_challenge(st) and policy.challenge(st, P, rng, v):
        return CHALLENGE
    return stacked_kind(st, v, decide_answer(st, P, log, v, ctx))


@jit()
def answer_window(st, P, rng, log, ctx):
    """The H2 window that waits for search seats (unosim.engine.jump) goes on: each search
    seat that may jump in on its card decides by :func:`decide_yes`, all of them from the
    same state (none knows another's answer), then the window resumes."""
    k = st[S_HELD] - 1
    p = st[S_HELD_LAST]
    nxt = next_to_act(st, P, p, k)
    said = 0
    yes = 0
    for q in range(st[S_NP]):
        if (st[S_JUMPERS] >> q) & 1 and not (st[S_JUMP_SAID] >> q) & 1 and may_jump(st, P, p, nxt, q, k):
            said |= 1 << q
            if decide_yes(st, P, log, q, ctx, JUMP, -1) == 1:
                yes |= 1 << q
    st[S_JUMP_SAID] |= said
    st[S_JUMP_YES] |= yes
    resume_window(st, P, rng, log)


@jit(inline=True)
def jumpers(ctx, n):
    """The seats (bit q) whose jump-ins a search decides: the search seats of ``ctx``."""
    mask = 0
    for q in range(n):
        if ctx[C_SEAT0 + q * C_STRIDE] != 0:
            mask |= 1 << q
    return mask


@jit(inline=True)
def search_step(st, P, rng, log, ctx):
    """:data:`searching_step` with the void limits brought up to date first (a penalty
    drawn, a stack, a jump-in: every step, so one seat's play and another's draw seldom
    fall in the same update), or, while a jump-in window waits for search seats, their
    answers (:func:`answer_window`)."""
    st[S_JUMPERS] = jumpers(ctx, st[S_NP])
    if ctx[C_TRACK] != 0:
        voids_sync(st, P, ctx)
    if st[S_HELD] != 0:
        answer_window(st, P, rng, log, ctx)
        return
    searching_step(st, P, rng, log, ctx)


searching_step = stepper(searched_turn, searched_answer)
""":func:`unosim.engine.hand.step`'s loop with :func:`searched_turn` for the turn and
:func:`searched_answer` for a pending draw: the calls with a context (a table with search
seats).  A dispatcher of its own, not the playouts' ``step``: numba types a call to a
dispatcher that is compiling as a recursive call, and the program would then lack the
plain code the playouts run."""


# --------------------------------------------------------------------------- for tests and scenarios


@jit()
def choice_at(st, P, ctx, p, seed, kind=TURN, card=-1, decision=0):
    """What search seat p of ``ctx`` would decide in state ``st`` with the search stream
    ``seed``, as the hand's ``decision``-th searched decision (each has its own stream): a
    decision of ``kind`` (the card in turn, its turn opened; the answer to the pending draw
    it faces; 1 to play the ``card`` it just drew, 0 to keep it; 1 to jump in on the card of
    the window waiting in ``st``, 0 to stay out); ``st`` is left as it was (the void limits
    in ``ctx`` are brought up to ``st`` first)."""
    ctx[C_SEED] = seed
    ctx[C_DECISIONS] = decision
    if ctx[C_TRACK] != 0:
        voids_sync(st, P, ctx)
    return _choice(np.zeros((0, LOG_WIDTH), np.int64), st, P, ctx, p, kind, card)


@jit()
def _choice(log, st, P, ctx, p, kind, card):
    s, q, g, c = address(st), address(P), address(log), address(ctx)
    if kind == ANSWER:
        return decide_answer(s, q, g, p, c)
    if kind == DRAWN or kind == JUMP:
        return decide_yes(s, q, g, p, c, kind, card)
    return decide(s, q, g, p, c)


@jit()
def step_at(st, P, rng, log, ctx):
    """One :func:`unosim.engine.hand.step` of a scenario at a table with search seats
    (events go to ``log`` as far as it holds them)."""
    st[S_LOGCAP] = log.shape[0]
    search_step(address(st), address(P), address(rng), address(log), address(ctx))


__all__ = ["ANSWER", "C_LEN", "C_SEAT0", "C_STRIDE", "C_TRACK", "C_VLIM0", "C_VSTARTED", "DRAWN", "GROUPED",
           "JUMP", "MAX_OPTIONS", "N_GROUPS", "NAMED", "TARGETED", "TURN", "answer_options", "choice_at", "decide",
           "group_colour", "group_options", "group_rank", "named_options", "note_draw", "options", "outcome",
           "sample_world", "sample_world_within", "search_step", "searched_turn", "searching_step", "step_at",
           "target_options", "unknown_pool", "voids_sync"]
