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
and the draw pile.  Voids an opponent's draw would imply are not used.

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
:func:`unosim.engine.hand.stepper`); the playouts call the engine's plain
:func:`unosim.engine.hand.step`, so they never search in turn.  The search's
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
from unosim.kernel.layout import (LOG_WIDTH, N_KINDS, N_STATE, S_BLUFF, S_DISC0, S_DONE, S_DRAW0, S_HAND0, S_HS0,
    S_LOGCAP, S_MEM0, S_NDISC, S_NDRAW, S_NLOG, S_NP, S_SCR0, S_WINNER)
from unosim.kernel.rng import below, stream_start
from unosim.kernel.table import hand_points, rule
from unosim.rules.cards import RANKS_PER_COLOR, WILD, WILD_DRAW4
from unosim.rules.params import MAX_CARDS, MAX_PLAYERS, P_DECKS, P_TEAMS, P_VOLUNTARY_DRAW
from .hand import put_move, step, stepper
from .turns import open_turn, turn_with

# ctx: the search table's context, one int64 array
C_SEED = 0       # the hand's search stream (uint64 bits)
C_DECISIONS = 1  # searched decisions so far in the hand: each has its own stream
C_SEAT0 = 2      # per seat: searches (0/1), worlds, rollouts, objective, margin x 1000
C_STRIDE = 5
C_LEN = C_SEAT0 + MAX_PLAYERS * C_STRIDE

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
    for i in range(N_STATE):
        w[i] = st[i]
    w[S_LOGCAP] = 0
    w[S_NLOG] = 0
    w[S_BLUFF] = 0
    for q in range(MAX_PLAYERS):
        w[S_SCR0 + q] = 0
    for i in range(m - 1, 0, -1):  # Fisher-Yates
        j = below(rng, i + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
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
    d = ctx[C_DECISIONS]
    ctx[C_DECISIONS] = d + 1
    seed = stream_start(np.uint64(ctx[C_SEED]), d, p)
    work = (np.empty(MAX_CARDS, np.int64), np.empty(N_STATE, np.int64), np.empty(N_STATE, np.int64),
            np.empty(1, np.uint64), np.empty(1, np.uint64))
    return opt[search_options(work, st, P, log, p, opt, n_opt, worlds, rollouts, objective, margin, seed)]


@jit()
def search_options(work, st, P, log, p, opt, n_opt, worlds, rollouts, objective, margin, seed):
    """The index in ``opt`` of the option :func:`decide` plays, on the decision's arrays
    ``work`` (the unknown pool, the sampled world, the playout's state, two random states),
    which its caller holds (unosim/kernel/borrow.py)."""
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
    chooses its card by :func:`decide`, every other seat as usual."""
    open_turn(st, P, rng, log, p)
    if ctx[C_SEAT0 + p * C_STRIDE] != 0:
        k = decide(st, P, log, p, ctx)
    else:
        k = policy.choose_play(st, P, rng, p)
    return turn_with(st, P, rng, log, p, k)


searching_step = stepper(searched_turn)
""":func:`unosim.engine.hand.step`'s loop with :func:`searched_turn` for the turn: the
calls with a context (a table with search seats).  A dispatcher of its own, not the
playouts' ``step``: numba types a call to a dispatcher that is compiling as a recursive
call, and the program would then lack the plain code the playouts run."""


# --------------------------------------------------------------------------- for tests and scenarios


@jit()
def choice_at(st, P, ctx, p, seed):
    """What search seat p of ``ctx`` would play in state ``st`` (its turn opened), with the
    search stream ``seed``; ``st`` is left as it was."""
    ctx[C_SEED] = seed
    ctx[C_DECISIONS] = 0
    return _choice(np.zeros((0, LOG_WIDTH), np.int64), st, P, ctx, p)


@jit()
def _choice(log, st, P, ctx, p):
    return decide(address(st), address(P), address(log), p, address(ctx))


@jit()
def step_at(st, P, rng, log, ctx):
    """One :func:`unosim.engine.hand.step` of a scenario at a table with search seats
    (events go to ``log`` as far as it holds them)."""
    st[S_LOGCAP] = log.shape[0]
    searching_step(address(st), address(P), address(rng), address(log), address(ctx))


__all__ = ["C_LEN", "C_SEAT0", "C_STRIDE", "choice_at", "decide", "options", "outcome", "sample_world",
           "searched_turn", "searching_step", "step_at", "unknown_pool"]
