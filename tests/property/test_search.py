"""The ``search`` strategy (unosim.engine.search): it never reads a hidden card, its runs are
reproducible, and a search table plays whole hands under every bundled config.

The no-peeking property: from the same position (everything the searching seat may know:
its hand, the discard pile, every hand's size, the draw pile's size, the voids the other
seats' draws showed) and the same search seed, dealing the hidden cards (the other hands
and the draw pile) differently among themselves, sizes kept, changes neither the worlds
the search samples nor its choice.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine import search, search_batch
from unosim.engine.batch import new_out
from unosim.kernel import layout as L
from unosim.kernel.table import recount_colours
from unosim.rules.bundled import bundled_configs
from unosim.rules.config import load_config, parse_config, to_params
from unosim.rules import cards
from unosim.rules.params import MAX_CARDS, MAX_PLAYERS
from unosim.scenario import first_turn

CONFIGS = sorted(bundled_configs().items())
TINY = {"strategy": "search", "worlds": 2, "rollouts": 1}  # the budget tests play at


TUNED_ROLLOUT = {"strategy": "weights", "w_wild": -3.0, "w_action": 2.0, "w_next_color_odds": 1.0}
"""A whole rollout bot (not a strategy's defaults, and a watching one)."""


def table(cfg, rollout_bot="counter"):
    """cfg with a tiny search at seat 0 (playing out with ``rollout_bot``) and counters
    elsewhere: (cfg, rules vector, context)."""
    cfg = cfg.replace(seats=[{**TINY, "rollout_bot": rollout_bot}] + ["counter"] * (cfg.players - 1))
    P, ctx = search_batch.split_params(to_params(cfg))
    return cfg, P, ctx


def positions(cfg, P, seed, count, *, voids=False):
    """Up to ``count`` states of hands of cfg where seat 0 is to choose in turn between 2+
    options (no penalty pending), reached by the table's bots (the search seat as its
    rollout bot); with ``voids``, (state, context holding the void limits the table kept
    on the way) pairs."""
    idle = np.zeros(search.C_LEN, np.int64)  # no seat searches: the plain bots move
    idle[search.C_TRACK] = 1 if voids else 0  # ... and the table keeps the voids
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    opt = np.zeros(search.MAX_OPTIONS, np.int64)
    rng = np.random.default_rng(seed)
    found = []
    for h in range(30 * count):
        st = first_turn(cfg, seed * 1000 + h, dealer=h % cfg.players)
        r = np.array([seed * 7919 + h], np.uint64)
        idle[search.C_VSTARTED] = 0
        stop = int(rng.integers(0, 40))
        for _ in range(stop):
            if st[L.S_DONE]:
                break
            search.step_at(st, P, r, log, idle)
        if st[L.S_DONE] or st[L.S_CUR] != 0 or st[L.S_PENDING_KIND] >= 0 or search.options(st, P, 0, opt) < 2:
            continue
        found.append((st, idle.copy()) if voids else st)
        if len(found) == count:
            break
    return found


def permuted(st, rng):
    """st with the cards seat 0 cannot see dealt again among the other hands and the draw
    pile, every size kept."""
    st = st.copy()
    n = int(st[L.S_NP])
    hidden = []
    for q in range(1, n):
        base = L.S_HAND0 + q * L.N_KINDS
        for k in range(L.N_KINDS):
            hidden += [k] * int(st[base + k])
        st[base:base + L.N_KINDS] = 0
    nd = int(st[L.S_NDRAW])
    hidden += list(st[L.S_DRAW0:L.S_DRAW0 + nd])
    rng.shuffle(hidden)
    at = 0
    for q in range(1, n):
        for _ in range(int(st[L.S_HS0 + q])):
            st[L.S_HAND0 + q * L.N_KINDS + hidden[at]] += 1
            at += 1
    st[L.S_DRAW0:L.S_DRAW0 + nd] = hidden[at:]
    for q in range(1, n):
        recount_colours(st, q)
    return st


@pytest.mark.parametrize("name, path", CONFIGS, ids=[n for n, _ in CONFIGS])
@pytest.mark.parametrize("voids", [0, 1], ids=["uniform", "voids"])
@pytest.mark.parametrize("rollout_bot", ["counter", TUNED_ROLLOUT], ids=["counter", "weights_table"])
def test_no_peeking(name, path, voids, rollout_bot):
    """Permuting the hidden cards never changes the void limits, the sampled worlds nor the
    choice, under every bundled config (teams: a partner's hand is hidden too), with the
    worlds dealt uniformly and within the voids the table saw, and with the default rollout
    bot or a whole tuned one."""
    cfg, P, ctx = table(load_config(path), rollout_bot)
    ctx[search.C_SEAT0 + 5] = voids
    rng = np.random.default_rng(len(name))
    pool = np.zeros(MAX_CARDS, np.int64)
    scr = np.zeros(MAX_CARDS + (MAX_PLAYERS + 1) * (search.N_GROUPS + 1), np.int64)
    found = positions(cfg, P, seed=len(name), count=6, voids=True)
    assert len(found) >= 3, "too few positions with a choice: the property was hardly exercised"
    for st, seen in found:
        ctx[search.C_TRACK:] = seen[search.C_TRACK:]
        before = st.copy()
        seed = int(rng.integers(1, 2**62))
        choice = search.choice_at(st, P, ctx.copy(), 0, seed)
        assert (st == before).all()  # the search reads the state, never writes it
        m = search.unknown_pool(st, P, 0, pool)
        assert m == st[L.S_NDRAW] + sum(st[L.S_HS0 + q] for q in range(1, cfg.players))
        for _ in range(3):
            other = permuted(st, rng)
            assert search.choice_at(other, P, ctx.copy(), 0, seed) == choice
            worlds, limits = [], []
            for s in (st, other):
                w = np.zeros(L.N_STATE, np.int64)
                pool[:] = 0
                m = search.unknown_pool(s, P, 0, pool)
                c = ctx.copy()
                search.voids_sync(s, P, c)
                limits.append(c)
                if voids:
                    search.sample_world_within(s, 0, pool, m, np.array([seed], np.uint64), w, caps_of(c), scr)
                else:
                    search.sample_world(s, 0, pool, m, np.array([seed], np.uint64), w)
                worlds.append(w)
            assert (limits[0] == limits[1]).all()
            assert (worlds[0] == worlds[1]).all()


def caps_of(ctx):
    """The void limits of every seat in ``ctx``, as the search reads them."""
    return ctx[search.C_VLIM0:search.C_VLIM0 + MAX_PLAYERS * search.N_GROUPS].copy()


def test_a_world_keeps_what_the_seat_knows():
    """A sampled world keeps seat 0's hand, the discard pile and every size, and holds the
    same cards as the true deal (only where the hidden ones lie differs)."""
    cfg, P, _ = table(load_config(bundled_configs()["standard"]))
    st = positions(cfg, P, seed=3, count=1)[0]
    pool = np.zeros(MAX_CARDS, np.int64)
    m = search.unknown_pool(st, P, 0, pool)
    w = np.zeros(L.N_STATE, np.int64)
    search.sample_world(st, 0, pool, m, np.array([99], np.uint64), w)
    hand0 = slice(L.S_HAND0, L.S_HAND0 + L.N_KINDS)
    assert (w[hand0] == st[hand0]).all()
    assert (w[L.S_HS0:L.S_HS0 + 10] == st[L.S_HS0:L.S_HS0 + 10]).all()
    nd, nx = st[L.S_NDISC], st[L.S_NDRAW]
    assert (w[L.S_DISC0:L.S_DISC0 + nd] == st[L.S_DISC0:L.S_DISC0 + nd]).all()

    def cards(s):
        c = np.bincount(s[L.S_DRAW0:L.S_DRAW0 + nx], minlength=L.N_KINDS)
        for q in range(1, cfg.players):
            c += s[L.S_HAND0 + q * L.N_KINDS:L.S_HAND0 + (q + 1) * L.N_KINDS]
        return c

    assert (cards(w) == cards(st)).all()
    for q in range(1, cfg.players):
        assert w[L.S_HAND0 + q * L.N_KINDS:L.S_HAND0 + (q + 1) * L.N_KINDS].sum() == st[L.S_HS0 + q]


def test_options_follow_the_rules():
    """R5, R7, R8, H8: the options are the legal kinds held, a bluff where only a bluff
    plays the Wild Draw Four, and a draw when nothing is legal or R7 allows one."""
    from unosim.scenario import Scenario
    from unosim.rules import cards

    def opts(hand, top, **rules):
        sc = Scenario.build({0: hand, 1: "G1 G2"}, top, players=2, seats=[TINY, "counter"], **rules)
        o = np.zeros(search.MAX_OPTIONS, np.int64)
        n = search.options(sc.st, sc.P, 0, o)
        return sorted(cards.name(k) if k >= 0 else "draw" for k in o[:n])

    assert opts("R5 R5 B5 Y9", "R7") == ["R5", "draw"]
    assert opts("R5 B5 Y9", "R7", voluntary_draw=False) == ["R5"]
    assert opts("Y9", "R7", voluntary_draw=False) == ["draw"]
    assert opts("R5 W+4", "R7") == ["R5", "W+4", "draw"]  # R8: the bluff is an option


def test_search_runs_are_reproducible_whatever_the_blocks():
    """A run's rows depend on (seed, hand) alone: the search's streams too."""
    cfg = parse_config({"table": {"players": 3}, "bots": {"seats": [TINY, "counter", "random"]}})
    P, ctx = search_batch.split_params(to_params(cfg))
    a, b = new_out(12), new_out(12)
    search_batch.play_hands(P, ctx, 5, 0, 12, a, 1)
    search_batch.play_hands(P, ctx, 5, 0, 12, b, 4)
    assert (a == b).all()
    c = new_out(6)
    search_batch.play_hands(P, ctx, 5, 6, 6, c, 3)
    assert (a[6:] == c).all()


def test_decide_all_chooses_as_choice_at():
    """``search_batch.decide_all`` (the decisions as a kernel compiles them, which
    benchmarks/search_speed.py times) chooses what ``choice_at`` does, position by
    position, with the void limits each table kept; the states are left as they were."""
    cfg, P, ctx = table(load_config(CONFIGS[0][1]))
    found = positions(cfg, P, seed=3, count=8, voids=True)
    assert len(found) >= 5
    rows = np.array([st for st, _ in found])
    ctxs = np.array([ctx.copy() for _ in found])
    for i, (_, seen) in enumerate(found):
        ctxs[i][search.C_TRACK:] = seen[search.C_TRACK:]
    seeds = np.arange(11, 11 + len(found), dtype=np.int64)
    expected = [search.choice_at(st, P, c.copy(), 0, int(sd)) for st, c, sd in zip(rows, ctxs, seeds)]
    before = rows.copy()
    out = np.full(len(found), -99, np.int64)
    search_batch.decide_all(rows, P, ctxs, 0, seeds, out)
    assert out.tolist() == expected
    assert (rows == before).all()
    assert len(set(expected)) > 1  # positions with different choices: the rows were not mixed up


@pytest.mark.parametrize("name, path", CONFIGS, ids=[n for n, _ in CONFIGS])
def test_a_search_table_plays_whole_hands(name, path):
    """Under every bundled config a table with a search seat plays hands to their end and
    keeps every card (the invariant harness's conservation check, at hand end)."""
    from harness import check_config

    cfg = load_config(path)
    check_config(cfg.replace(seats=[TINY] + ["counter"] * (cfg.players - 1)), seed=len(name), hands=3)


def test_split_params():
    """A search seat plays its rollout bot at that bot's defaults everywhere but the card it
    searches; the context lists its budget."""
    cfg = parse_config({"table": {"players": 2}, "bots": {"seats": [
        {"strategy": "search", "worlds": 5, "rollouts": 3, "rollout_bot": "greedy", "objective": "points",
         "deepen": 4, "promise": 1.5},
        "counter"]}})
    P0 = to_params(cfg)
    assert search_batch.has_search(P0)
    P, ctx = search_batch.split_params(P0)
    assert not search_batch.has_search(P)
    from unosim.rules import params as slots
    from unosim.rules.strategies import Strategy
    assert P[slots.P_BOT0] == Strategy.greedy and P[slots.P_BOT0 + 1] == 0.0
    seat0, seat1 = (ctx[search.C_SEAT0 + s * search.C_STRIDE:][:search.C_STRIDE] for s in (0, 1))
    assert list(seat0) == [1, 5, 3, 1, 2000, 1, 0, 4, 1500]
    assert not seat1.any()
    assert ctx[search.C_TRACK] == 1
    cfg = cfg.replace(seats=[{"strategy": "search", "voids": 0}, "counter"])
    _, ctx = search_batch.split_params(to_params(cfg))
    assert ctx[search.C_SEAT0 + 5] == 0 and ctx[search.C_TRACK] == 0


def test_objective_auto_is_points_in_matches_and_hands_elsewhere():
    """The default objective plays for what the run counts: a hand won in a run of hands,
    the S1 points that reach the target in a match (the context's objective 0 or 1)."""
    cfg = parse_config({"table": {"players": 2}, "bots": {"seats": ["search", "counter"]}})
    _, hands = search_batch.split_params(to_params(cfg))
    _, matches = search_batch.split_params(to_params(cfg), matches=True)
    at = search.C_SEAT0 + 3
    assert (hands[at], matches[at]) == (search.OBJ_HANDS, search.OBJ_POINTS)
    for chosen, code in (("hands", search.OBJ_HANDS), ("points", search.OBJ_POINTS)):  # a choice is kept
        fixed = cfg.replace(seats=[{"strategy": "search", "objective": chosen}, "counter"])
        assert all(search_batch.split_params(to_params(fixed), matches=m)[1][at] == code for m in (False, True))


def test_a_traced_hand_is_the_hand_the_run_played():
    """trace replays a search table's hand with the run's own streams: same end, same row."""
    from unosim.engine.batch import write_row
    from unosim.run.play import play_chunk
    from unosim.trace import replay

    cfg = parse_config({"table": {"players": 3}, "bots": {"seats": ["counter", TINY, "random"]}})
    rows = play_chunk(to_params(cfg), 8, 0, 5, 1)
    for hand in range(5):
        st, events = replay(cfg, 8, hand)
        row = new_out(1)
        write_row(st, search_batch.split_params(to_params(cfg))[0], row, 0, hand)
        assert (row[0] == rows[hand]).all()
        assert len(events) > 0


# --------------------------------------------------------------------------- voids
def void_table(**rules):
    """3 seats, seat 1 (counter) to act on R5 holding no red, no 5, no wild, the draw pile
    the rest of the deck with B9 on top: seat 1 draws B9 and keeps it (R6, R7)."""
    from unosim.scenario import Scenario

    hands = {0: "R+2 G8 G8 B4 Y9 G2 B6", 1: "G1 B2 Y3 GS", 2: "R3 G9 Y7 Y8 BR B1 G4"}
    left = cards.deck_counts(1).copy()
    for text in list(hands.values()) + ["R5", "B9"]:
        for k in text.split():
            left[cards.parse(k)] -= 1
    rest = [cards.name(k) for k in range(L.N_KINDS) for _ in range(int(left[k]))]
    np.random.default_rng(0).shuffle(rest)
    seats = [{"strategy": "search", "worlds": 2, "rollouts": 1}, "counter", "counter"]
    return Scenario.build(hands, "R5", draw=" ".join(["B9"] + rest), cur=1, players=3, seats=seats,
                          voluntary_draw=False, **rules)


def test_a_seat_that_drew_on_red_is_dealt_no_red():
    """R6, R7: seat 1 drew on R5 (and kept the B9 it drew), so it held no red, no 5 and no
    wild; every world seat 0 samples deals it none, without falling back, while uniform
    worlds give it red in most deals."""
    sc = void_table()
    sc.step()
    assert sc.count(1) == 5 and "B9" in sc.hand(1) and sc.cur == 2
    search.voids_sync(sc.st, sc.P, sc.ctx)
    caps = caps_of(sc.ctx)
    lim = caps[search.N_GROUPS:2 * search.N_GROUPS]
    red, five, wild, draw4 = 0, search.group_rank(cards.parse("R5")), search.group_rank(cards.WILD), \
        search.group_rank(cards.WILD_DRAW4)
    assert lim[red] == lim[five] == lim[wild] == lim[draw4] == 0
    assert lim[1] == lim[2] == lim[3] == 5  # yellow, green, blue: anything
    assert (caps[2 * search.N_GROUPS:3 * search.N_GROUPS] == 7).all()  # seat 2 showed nothing

    pool = np.zeros(MAX_CARDS, np.int64)
    scr = np.zeros(MAX_CARDS + (MAX_PLAYERS + 1) * (search.N_GROUPS + 1), np.int64)
    w = np.zeros(L.N_STATE, np.int64)
    rng = np.array([7], np.uint64)
    hand1 = slice(L.S_HAND0 + L.N_KINDS, L.S_HAND0 + 2 * L.N_KINDS)
    banned = [k for k in range(L.N_KINDS) if k >= cards.WILD or cards.color_of(k) == 0 or k % 13 == 5]
    with_red = 0
    for _ in range(400):
        m = search.unknown_pool(sc.st, sc.P, 0, pool)
        assert search.sample_world_within(sc.st, 0, pool, m, rng, w, caps, scr) == 1
        assert w[hand1][banned].sum() == 0
        assert w[hand1].sum() == 5 and w[L.S_HAND0 + 2 * L.N_KINDS:L.S_HAND0 + 3 * L.N_KINDS].sum() == 7
        m = search.unknown_pool(sc.st, sc.P, 0, pool)
        search.sample_world(sc.st, 0, pool, m, rng, w)
        with_red += w[hand1][[k for k in range(13)]].sum() > 0
    assert with_red > 200


def test_a_void_is_uniform_over_the_cards_it_allows():
    """A seat with voids alone (limits 0) gets each card it may hold with equal chance:
    its share of blue cards among its cards matches blue's share of the allowed unknown
    cards, within 4 standard errors of the worlds sampled."""
    sc = void_table()
    sc.step()
    search.voids_sync(sc.st, sc.P, sc.ctx)
    caps = caps_of(sc.ctx)
    caps[2 * search.N_GROUPS:3 * search.N_GROUPS] = 99  # seat 2 free, so seat 1 alone is bound
    pool = np.zeros(MAX_CARDS, np.int64)
    scr = np.zeros(MAX_CARDS + (MAX_PLAYERS + 1) * (search.N_GROUPS + 1), np.int64)
    w = np.zeros(L.N_STATE, np.int64)
    rng = np.array([11], np.uint64)
    m = search.unknown_pool(sc.st, sc.P, 0, pool)
    allowed = [k for k in pool[:m] if k < cards.WILD and cards.color_of(k) != 0 and k % 13 != 5]
    share = np.mean([cards.color_of(k) == 3 for k in allowed])
    n, blue = 2000, 0
    for _ in range(n):
        m = search.unknown_pool(sc.st, sc.P, 0, pool)
        search.sample_world_within(sc.st, 0, pool, m, rng, w, caps, scr)
        blue += int(w[L.S_HAND0 + L.N_KINDS + 39:L.S_HAND0 + L.N_KINDS + 52].sum())
    cards_seen = 5 * n
    se = np.sqrt(share * (1 - share) / cards_seen)  # binomial: a hand's cards, drawn without replacement, vary less
    assert abs(blue / cards_seen - share) < 4 * se


def test_a_void_is_raised_by_later_draws():
    """R9: seat 1, void in red after its draw, takes two cards from a Draw Two: two of its
    cards may now be red (or 5s, or wilds); and with nothing known any more, unconstrained
    limits follow its hand size."""
    sc = void_table()
    sc.step()   # seat 1 draws B9 on R5
    sc.step()   # seat 2 plays R3
    assert sc.discard_pile()[-1] == "R3"
    sc.step()   # seat 0 (one option: R+2) plays it
    assert sc.discard_pile()[-1] == "R+2"
    sc.step()   # seat 1 draws 2 and is skipped
    assert sc.count(1) == 7
    search.voids_sync(sc.st, sc.P, sc.ctx)
    lim = caps_of(sc.ctx)[search.N_GROUPS:2 * search.N_GROUPS]
    assert lim[0] == 2 and lim[search.group_rank(cards.WILD)] == 2
    assert lim[1] == 7


def test_a_swap_forgets_the_voids():
    """H4: after a 7 swaps two hands every void is forgotten (the hands moved)."""
    sc = void_table(seven_o=True)
    sc.step()   # seat 1 draws B9 on R5
    search.voids_sync(sc.st, sc.P, sc.ctx)
    assert caps_of(sc.ctx)[search.N_GROUPS] == 0
    sc.st[L.S_SWAPS] += 1  # as swap_hands counts it
    search.voids_sync(sc.st, sc.P, sc.ctx)
    assert (caps_of(sc.ctx)[search.N_GROUPS:2 * search.N_GROUPS] == sc.count(1)).all()


def group_counts(hand):
    """A hand's cards per void group (a colour, a rank, Wild, Wild Draw Four)."""
    cnt = np.zeros(search.N_GROUPS, np.int64)
    for k in np.nonzero(hand)[0]:
        if k < cards.WILD:
            cnt[search.group_colour(k)] += hand[k]
        cnt[search.group_rank(k)] += hand[k]
    return cnt


@pytest.mark.parametrize("name, path", CONFIGS, ids=[n for n, _ in CONFIGS])
def test_the_true_hands_always_meet_the_limits(name, path):
    """The limits are sound where the bots draw only with nothing legal (counter, R7): after
    every step of whole hands, under every bundled config (H4 swaps, H5 giveaways, H22
    take-backs, H3, H24 misplays, H10 slaps, H23 false calls, stacks...), every seat's real
    hand holds no more of a group than the table allows it, and limits do bind."""
    cfg, P, _ = table(load_config(path))
    n = cfg.players
    seen = np.zeros(search.C_LEN, np.int64)
    seen[search.C_TRACK] = 1
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    bound = 0
    for h in range(6):
        st = first_turn(cfg, len(name) * 100 + h, dealer=h % n)
        r = np.array([h + 1], np.uint64)
        seen[search.C_VSTARTED] = 0
        while not st[L.S_DONE]:
            search.step_at(st, P, r, log, seen)
            c = seen.copy()
            search.voids_sync(st, P, c)
            caps = caps_of(c)
            for q in range(n):
                lim = caps[q * search.N_GROUPS:(q + 1) * search.N_GROUPS]
                hand = st[L.S_HAND0 + q * L.N_KINDS:L.S_HAND0 + (q + 1) * L.N_KINDS]
                assert (group_counts(hand) <= lim).all(), (h, q, lim, hand)
                bound += (lim < st[L.S_HS0 + q]).any()
    assert bound > 0


# --------------------------------------------------------------------------- colours
def test_colour_options_follow_the_rules():
    """R9 with ``colours``: each wild option (a legal Wild, a Wild Draw Four, a bluff, R8)
    also comes naming each colour; none under H6 (a wild may go down with others)."""
    from unosim.scenario import Scenario

    def opts(hand, **rules):
        sc = Scenario.build({0: hand, 1: "G1 G2"}, "R7", players=2, seats=[TINY, "counter"], **rules)
        o = np.zeros(search.MAX_OPTIONS, np.int64)
        n = search.named_options(sc.st, sc.P, o, search.options(sc.st, sc.P, 0, o))
        return sorted(("draw" if k < 0 else cards.name(int(k) % search.NAMED)
                       + ("" if k < search.NAMED else "/" + cards.COLOR_LETTERS[int(k) // search.NAMED - 1]))
                      for k in o[:n])

    assert opts("R5 W") == ["R5", "W", "W/B", "W/G", "W/R", "W/Y", "draw"]
    assert opts("R5 W+4") == ["R5", "W+4", "W+4/B", "W+4/G", "W+4/R", "W+4/Y", "draw"]
    assert opts("R5 W", multi_play="identical") == ["R5", "W", "draw"]


def test_a_searched_colour_is_the_colour_named():
    """R9: a search seat with ``colours`` that plays a wild naming a colour leaves that
    colour in force, and the choice is the one :func:`choice_at` reports."""
    from unosim.scenario import Scenario

    seat = {"strategy": "search", "worlds": 4, "rollouts": 2, "margin": 0.0, "colours": 1}
    named = 0
    for seed in range(1, 13):
        sc = Scenario.build({0: "W G1 G2 B3 Y4", 1: "G5 B6 Y7 R8 R9"}, "R7", players=2, seats=[seat, "counter"],
                            voluntary_draw=False, draw="G3 G4 B1 B2 Y1 Y2 R2 R3", seed=seed)
        choice = search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), 0, seed)
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        assert sc.count(0) == 4 and sc.top == "W"
        if choice >= search.NAMED:
            named += 1
            assert sc.color == "RYGB"[choice // search.NAMED - 1]
        else:
            assert choice == cards.WILD
    assert named > 0


@pytest.mark.parametrize("name", ["standard", "multi_play", "stacking", "seven_o", "take_back", "teams"])
def test_a_table_searching_colours_plays_whole_hands(name):
    """A search seat that searches its colours plays hands to their end under the
    invariant harness (H1, H4, H6, H22, H12)."""
    from harness import check_config

    cfg = load_config(bundled_configs()[name])
    seat = dict(TINY, colours=1)
    check_config(cfg.replace(seats=[seat] + ["counter"] * (cfg.players - 1)), seed=len(name), hands=3)


def _choice(gains: list[tuple[float, float]], margin: float = 2.0) -> int:
    """search.choose over option 0 (the rollout bot's card) and the others' (summed gain,
    summed squared gain) over option 0, paired playout by playout."""
    gain = np.array([0.0] + [g for g, _ in gains])
    gain2 = np.array([0.0] + [g2 for _, g2 in gains])
    return search.choose(gain, gain2, len(gain), 0, margin)


def test_a_few_playouts_that_differ_all_one_way_do_not_switch():
    """4 playouts of 32 won with the other card and lost with the bot's, none the other way:
    the sign test gives 4 / sqrt(4) = 2, not above margin 2 (the sample's own spread, the
    mean taken out, made it 2.1 and switched)."""
    assert _choice([(4.0, 4.0)]) == 0
    assert _choice([(9.0, 9.0)]) == 1  # 9 of 9: 3 standard errors


def test_the_bar_rises_with_the_cards_that_compete():
    """8 playouts for the other card, 1 against (7 / 3 = 2.33 standard errors) passes margin
    2 alone, not against the best of 4 (sqrt(4 + 2 ln 4) = 2.60)."""
    assert _choice([(7.0, 9.0)]) == 1
    assert _choice([(7.0, 9.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]) == 0
    assert _choice([(7.0, 9.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)], margin=1.0) == 1  # sqrt(1 + 2.77) = 1.94


def test_margin_0_plays_the_best_mean_and_among_passes_the_largest_gain():
    assert _choice([(1.0, 9.0), (2.0, 30.0), (-1.0, 1.0)], margin=0.0) == 2
    assert _choice([(10.0, 10.0), (12.0, 12.0)]) == 2
    assert _choice([(-3.0, 3.0), (0.0, 4.0)], margin=0.0) == 0  # nothing beats the bot's card


def test_an_option_is_ahead_at_promise_standard_errors():
    """The second look's trigger: an option's summed gain over the rollout bot's card above
    ``promise`` times its spread (the sign test's), the bot's own option never counting."""
    gain, gain2 = np.array([0.0, 3.0, -5.0]), np.array([0.0, 9.0, 25.0])
    assert search.ahead(gain, gain2, 3, 0, 0.9)       # 3 / sqrt(9) = 1 standard error
    assert not search.ahead(gain, gain2, 3, 0, 1.0)
    assert not search.ahead(gain, gain2, 3, 1, 0.0)  # j0 = 1: only option 2 competes, and it is behind
    assert not search.ahead(np.zeros(3), np.zeros(3), 3, 0, 0.0)  # no playout differed: nothing ahead


def with_budget(ctx, worlds, deepen=1, promise=1.0):
    """The context with seat 0's budget set, at margin 0 (the best mean: every world can
    move the choice)."""
    c = ctx.copy()
    c[search.C_SEAT0 + 1] = worlds
    c[search.C_SEAT0 + 4] = 0
    c[search.C_SEAT0 + 7] = deepen
    c[search.C_SEAT0 + 8] = int(promise * 1000)
    return c


def test_deepen_plays_more_worlds_only_where_an_option_is_ahead():
    """``deepen``: a decision whose first ``worlds`` worlds put an option ahead is played
    out in ``deepen`` times the worlds (the same worlds first, then more of the same
    stream), any other keeps its first look.  So with ``promise`` 0 each choice is the
    small budget's or the large one's, and some are the large one's alone; with a
    ``promise`` no option reaches, it is the small budget's."""
    cfg, P, ctx = table(load_config(bundled_configs()["standard"]))
    rng = np.random.default_rng(5)
    deepened = 0
    found = positions(cfg, P, seed=5, count=40, voids=True)
    assert len(found) >= 30
    for st, seen in found:
        ctx[search.C_TRACK:] = seen[search.C_TRACK:]
        seed = int(rng.integers(1, 2**62))
        small, large = (search.choice_at(st, P, with_budget(ctx, w), 0, seed) for w in (2, 8))
        assert search.choice_at(st, P, with_budget(ctx, 2, 4, promise=10.0), 0, seed) == small
        choice = search.choice_at(st, P, with_budget(ctx, 2, 4, promise=0.0), 0, seed)
        assert choice in (small, large)
        deepened += choice == large != small
    assert deepened > 0, "no decision went to the second look: the property was hardly exercised"
