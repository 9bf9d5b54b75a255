"""The search player's decisions beyond the card in turn (unosim.engine.search): the answer
to a pending draw it did not challenge (stack on it, H1, H25; or take it), whether to play
the card it just drew (R6 ``may``), the target of a 7 or red 0 (H4, H5), the cards that
go down together (H6, in turn and on a stack) and a jump-in (H2).  Each is searched as the card is, never reads a
hidden card (the true bluff mark included), and is the decision the hand then takes; a
challenge (R8) stays the rollout bot's.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine import hand as H
from unosim.engine import search, turns
from unosim.kernel import layout as L
from unosim.kernel.table import add_card
from unosim.rules import cards
from unosim.rules.bundled import bundled_configs
from unosim.rules.config import load_config
from unosim.scenario import Scenario, first_turn

from test_search import TINY, permuted, table

CONFIGS = sorted(bundled_configs().items())
SEAT = {"strategy": "search", "worlds": 4, "rollouts": 2, "margin": 0.0}
"""A search seat that takes the best mean however small the gain, so its choices vary."""


def answers(hand: str, pending: str, **rules) -> list[str]:
    """Seat 0's answer options after seat 1 plays ``pending`` on R5 (2 players)."""
    sc = Scenario.build({0: hand, 1: f"{pending} R1 G2 B3"}, "R5", cur=1, players=2, seats=[TINY, "counter"],
                        **rules)
    sc.play(1, pending)
    o = np.zeros(search.MAX_OPTIONS, np.int64)
    n = search.answer_options(sc.st, sc.P, 0, o)
    return [answer_name(int(k)) for k in o[:n]]


def answer_name(k: int) -> str:
    """An answer option as the tests write it: a kind, ``draw``, a kind stacked alone
    ``=1`` or with its whole group ``=all`` (H6)."""
    if k == turns.DRAW:
        return "draw"
    if k >= search.GROUPED:
        return cards.name(k % search.GROUPED) + ("=1" if k < 2 * search.GROUPED else "=all")
    return cards.name(k)


def test_answer_options_follow_the_rules():
    """H1: the kinds held that may stack; H7: never a wild as the last card; H25; the draw
    is always an answer.  A challenge (R8) is no option: the rollout bot's call."""
    assert answers("G7 Y8", "W+4") == ["draw"]
    assert answers("G+2 W+4 Y8", "W+4", stacking="draw2_draw4") == ["W+4", "draw"]
    assert answers("G+2 W+4 Y8", "W+4", stacking="all") == ["G+2", "W+4", "draw"]
    assert answers("G+2 B+2 Y8", "R+2", stacking="draw2") == ["G+2", "B+2", "draw"]
    assert answers("G+2 Y8", "R+2") == ["draw"]
    assert answers("W+4", "R+2", stacking="draw2_draw4", wild_last=False) == ["draw"]  # H7
    assert answers("G+2 Y8", "W+4", stacking="amount") == ["draw"]  # H25 without H6: draw2_draw4
    assert answers("G+2 G+2 Y8", "W+4", stacking="amount", multi_play="identical") == ["G+2", "draw"]


def test_answer_options_under_multi_play_stack_alone_or_with_the_group():
    """H6 with H1 or H25: a kind that may be stacked alone and has others to go down with
    it comes alone and with its whole group too (the plain kind: as the rollout bot
    plans); one that answers only with its group (H25) stays the plain kind."""
    assert answers("G+2 G+2 Y8", "R+2", stacking="draw2", multi_play="identical") == [
        "G+2", "draw", "G+2=1", "G+2=all"]
    assert answers("G+2 B+2 Y8", "R+2", stacking="draw2", multi_play="identical") == ["G+2", "B+2", "draw"]
    assert answers("G+2 B+2 Y8", "R+2", stacking="draw2", multi_play="same_rank") == [
        "G+2", "B+2", "draw", "G+2=1", "G+2=all", "B+2=1", "B+2=all"]
    assert answers("G+2 G+2 Y8", "R+2", stacking="amount", multi_play="identical") == [
        "G+2", "draw", "G+2=1", "G+2=all"]
    assert answers("G+2 G+2 G+2 Y8", "W+4", stacking="amount", multi_play="identical") == ["G+2", "draw"]


def test_a_searched_stack_puts_down_what_was_chosen():
    """H1 with H6: facing a Draw Two with a pair of Draw Twos, the search seat stacks one
    (its rollout bot's plan, or alone), both, or draws, as :func:`search.choice_at`
    says; over a dozen deals (margin 0) more than one of them happens."""
    seen = set()
    for seed in range(1, 13):
        sc = Scenario.build({0: "G+2 G+2 Y8 B9 G4", 1: "R+2 R1 G2 B3 Y5"}, "R5", cur=1, players=2,
                            seats=[SEAT, "counter"], stacking="draw2", multi_play="identical",
                            draw="G1 G3 B1 B2 Y1 Y2 Y3 R2 R3 R4", seed=seed)
        sc.play(1, "R+2")
        choice = int(search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), 0, seed, search.ANSWER))
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        assert sc[L.S_PLAN] == 0
        if choice == turns.DRAW:
            assert sc.count(0) == 7 and sc.top == "R+2"
        else:
            both = choice >= 2 * search.GROUPED
            assert choice % search.GROUPED == cards.parse("G+2")
            assert sc.top == "G+2" and sc.count(0) == (3 if both else 4)
            assert sc[L.S_PENDING] == (6 if both else 4)
        seen.add(answer_name(choice))
    assert len(seen) > 1


def test_a_search_seat_challenges_as_its_rollout_bot_would():
    """R8: facing a Wild Draw Four it may challenge, the search seat challenges exactly when
    its rollout bot does (B0 at ``challenge_rate`` 1 always, ``counter`` by its suspicion),
    whatever the card really was."""
    for rollout, bluffed in (("random", True), ("random", False), ("counter", True), ("counter", False)):
        held = "R1 G2 B3" if bluffed else "G1 G2 B3"
        rb = {"strategy": "random", "challenge_rate": 1.0} if rollout == "random" else rollout
        seat = {"strategy": "search", "worlds": 2, "rollouts": 1, "rollout_bot": rb}
        sc = Scenario.build({0: "G7 Y8", 1: f"W+4 {held}"}, "R5", cur=1, players=2, seats=[seat, "counter"],
                            stacking="draw2_draw4", draw="G3 G4 B1 B2 Y1 Y2 Y3 R2 R3")
        plain = Scenario.build({0: "G7 Y8", 1: f"W+4 {held}"}, "R5", cur=1, players=2, seats=[rb, "counter"],
                               stacking="draw2_draw4", draw="G3 G4 B1 B2 Y1 Y2 Y3 R2 R3")
        for s in (sc, plain):
            s.play(1, "W+4")
            s.step()
        assert sc[L.S_CHALLENGES] == plain[L.S_CHALLENGES]
        assert (sc.count(0), sc.count(1)) == (plain.count(0), plain.count(1))
        if rollout == "random":
            assert sc[L.S_CHALLENGES] == 1


def pending_positions(cfg, P, seed, count, *, drawn=False):
    """States of hands of cfg reached by the table's bots where seat 0 must answer a pending
    draw with 2+ options (``drawn``: where seat 0 has just drawn a card it may play or keep,
    R6 ``may``), with the card drawn (-1 for an answer)."""
    idle = np.zeros(search.C_LEN, np.int64)
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    o = np.zeros(search.MAX_OPTIONS, np.int64)
    found = []
    for h in range(400 * count):
        st = first_turn(cfg, seed * 1000 + h, dealer=h % cfg.players)
        r = np.array([seed * 7919 + h], np.uint64)
        for _ in range(200):
            if st[L.S_DONE] or len(found) == count:
                break
            if st[L.S_CUR] == 0 and not drawn and st[L.S_PENDING_KIND] >= 0:
                if search.answer_options(st, P, 0, o) >= 2:
                    found.append((st.copy(), -1))
                    break
            if st[L.S_CUR] == 0 and drawn and st[L.S_PENDING_KIND] < 0 and st[L.S_NDRAW] > 0:
                after = st.copy()
                c = int(after[L.S_DRAW0 + after[L.S_NDRAW] - 1])  # a card of the pile, as a draw gives one
                after[L.S_NDRAW] -= 1
                add_card(after, 0, c, 1)
                after[L.S_DRAWN] += 1
                if turns.drawn_choice(after, P, 0, c):
                    found.append((after, c))
                    break
            search.step_at(st, P, r, log, idle)
        if len(found) == count:
            break
    return found


def flip_bluff(st, rng):
    """The true bluff mark is hidden too: any value, the search must not care."""
    st = st.copy()
    st[L.S_BLUFF] = int(rng.integers(0, 2))
    return st


ANSWER_CONFIGS = [(n, p) for n, p in CONFIGS if load_config(p).stacking != "none"]


@pytest.mark.parametrize("name, path", ANSWER_CONFIGS, ids=[n for n, _ in ANSWER_CONFIGS])
def test_no_peeking_in_an_answer(name, path):
    """Permuting the hidden cards (and the true bluff mark) never changes the answer to a
    pending draw, under every bundled config where an answer is a choice (H1 stacking)."""
    cfg, P, ctx = table(load_config(path))
    ctx[search.C_SEAT0 + 4] = 0  # margin 0: the best mean, so the choice is as sensitive as it can be
    rng = np.random.default_rng(len(name))
    found = pending_positions(cfg, P, seed=len(name), count=5)
    assert len(found) >= 3, "too few positions with an answer to choose: the property was hardly exercised"
    for st, _ in found:
        before = st.copy()
        seed = int(rng.integers(1, 2**62))
        choice = search.choice_at(st, P, ctx.copy(), 0, seed, search.ANSWER)
        assert (st == before).all()
        for _ in range(3):
            other = flip_bluff(permuted(st, rng), rng)
            assert search.choice_at(other, P, ctx.copy(), 0, seed, search.ANSWER) == choice


DRAWN_CONFIGS = [(n, p) for n, p in CONFIGS if n in ("standard", "seven_o", "jump_in", "teams", "multi_play")]


@pytest.mark.parametrize("name, path", DRAWN_CONFIGS, ids=[n for n, _ in DRAWN_CONFIGS])
def test_no_peeking_on_a_drawn_card(name, path):
    """Permuting the hidden cards never changes whether the card just drawn is played."""
    cfg, P, ctx = table(load_config(path))
    ctx[search.C_SEAT0 + 4] = 0
    rng = np.random.default_rng(len(name))
    found = pending_positions(cfg, P, seed=len(name), count=5, drawn=True)
    assert len(found) >= 3
    for st, c in found:
        seed = int(rng.integers(1, 2**62))
        choice = search.choice_at(st, P, ctx.copy(), 0, seed, search.DRAWN, c)
        assert choice in (0, 1)
        for _ in range(3):
            assert search.choice_at(permuted(st, rng), P, ctx.copy(), 0, seed, search.DRAWN, c) == choice


def test_a_searched_answer_is_the_answer_taken():
    """H1: facing a Draw Two with a Draw Two in hand, the search seat stacks or draws as
    :func:`search.choice_at` says, and over a dozen deals both happen (margin 0)."""
    taken = set()
    for seed in range(1, 13):
        sc = Scenario.build({0: "G+2 Y8 B9 G4", 1: "R+2 R1 G2 B3 Y5"}, "R5", cur=1, players=2,
                            seats=[SEAT, "counter"], stacking="draw2", draw="G1 G3 B1 B2 Y1 Y2 Y3 R2 R3 R4", seed=seed)
        sc.play(1, "R+2")
        choice = search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), 0, seed, search.ANSWER)
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        if choice == turns.DRAW:
            assert sc.count(0) == 6 and sc.top == "R+2"
        else:
            assert choice == cards.parse("G+2") and sc.top == "G+2" and sc.count(0) == 3
        taken.add(int(choice))
    assert len(taken) == 2


def test_a_searched_drawn_card_is_the_card_played_or_kept():
    """R6 ``may``: seat 0 holds nothing legal on R5 and draws R7; it plays or keeps it as
    :func:`search.choice_at` says for the state after the draw."""
    for seed in range(1, 9):
        sc = Scenario.build({0: "G8 Y8 B9", 1: "R1 G2 B3 Y5"}, "R5", players=2, seats=[SEAT, "counter"],
                            voluntary_draw=False, draw="R7 G1 G3 B1 B2 Y1 Y2 Y3", seed=seed)
        after = sc.st.copy()
        after[L.S_TURNS] += 1  # the turn opened (R13's count) ...
        after[L.S_NDRAW] -= 1  # ... and R7 came from the pile (kernel.piles.draw_card)
        r7 = cards.parse("R7")
        add_card(after, 0, r7, 1)
        after[L.S_DRAWN] += 1
        after[L.S_MAX_DRAW] = max(after[L.S_MAX_DRAW], 1)
        choice = search.choice_at(after, sc.P, sc.ctx.copy(), 0, seed, search.DRAWN, r7)
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        assert (sc.top, sc.count(0)) == (("R7", 3) if choice == 1 else ("R5", 4))


def targets(hand: str, players: int = 4, **rules) -> list[str]:
    """Seat 0's options in turn on R5 with a tiny search seat, a target written ``>q``."""
    hands = {0: hand} | {q: "G1 G2 B3" for q in range(1, players)}
    sc = Scenario.build(hands, "R5", players=players, seats=[TINY] + ["counter"] * (players - 1), **rules)
    o = np.zeros(search.MAX_OPTIONS, np.int64)
    n = search.target_options(sc.st, sc.P, 0, o, search.options(sc.st, sc.P, 0, o))
    return [("draw" if k < 0 else cards.name(int(k) % search.TARGETED)
             + ("" if k < search.TARGETED else f">{int(k) // search.TARGETED - 1}")) for k in o[:n]]


def test_target_options_follow_the_rules():
    """H4: a 7 under ``seven_o`` also comes swapping with each opponent still in the hand; H5:
    the red 0 under ``giveaway`` giving to each; H12: a partner is no opponent; with one
    opponent there is nothing to choose."""
    assert targets("R7 G3", seven_o=True) == ["R7", "draw", "R7>1", "R7>2", "R7>3"]
    assert targets("R7 G3") == ["R7", "draw"]
    assert targets("R7 G3", players=2, seven_o=True) == ["R7", "draw"]
    assert targets("R7 G3", seven_o=True, teams=2) == ["R7", "draw", "R7>1", "R7>3"]
    assert targets("R0 R8", red_zero="giveaway") == ["R0", "R8", "draw", "R0>1", "R0>2", "R0>3"]
    assert targets("R0 R8", red_zero="draw10") == ["R0", "R8", "draw"]


def test_a_searched_swap_goes_to_the_opponent_chosen():
    """H4: the search seat's 7 swaps with the opponent its option names (or, for the plain
    7, its rollout bot's), as :func:`search.choice_at` says; over a dozen deals at margin 0
    more than one target is chosen."""
    chosen = set()
    for seed in range(1, 13):
        hands = {0: "R7 G3 B4 Y6 Y9", 1: "G1 G2", 2: "B1 B2 B3 Y1 Y2 Y3", 3: "G5 G6 G7 G8"}
        sc = Scenario.build(hands, "R5", players=4, seats=[SEAT, "counter", "counter", "counter"],
                            voluntary_draw=False, seven_o=True, draw="R1 R2 R3 R4 G9 B9 Y8 Y7 B8 B7", seed=seed)
        choice = int(search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), 0, seed))
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        assert sc.top == "R7" and sc[L.S_SWAPS] == 1 and sc[L.S_TARGET] == 0
        if choice >= search.TARGETED:
            q = choice // search.TARGETED - 1
            assert choice % search.TARGETED == cards.parse("R7")
            assert sc.count(q) == 4 and sc.count(0) == len(hands[q].split())
            chosen.add(q)
        else:
            assert choice == cards.parse("R7")
            assert sc.count(0) == 2  # counter swaps with the fewest cards: seat 1
            chosen.add(1)
    assert len(chosen) > 1


def test_a_target_never_outlives_its_play():
    """H2 with H4: seat 0's 7 aimed at seat 3 is jumped on by seat 2's identical 7 (seat 1,
    next to act, may not jump), whose swap is seat 2's own choice; the target is gone once
    the play is over."""
    from unosim.engine.choices import play_targeted

    hands = {0: "R7 G3 B4", 1: "B1 B2 B3 Y1 Y2", 2: "R7 G1 G2 G4", 3: "G5 G6 G7"}
    sc = Scenario.build(hands, "R5", players=4, seats=[TINY, "counter", "random", "counter"], seven_o=True,
                        jump_in="all", draw="R1 R2 R3 R4 G9 B9")
    play_targeted(sc.st, sc.P, sc.rng, sc.log, 0, cards.parse("R7") + search.TARGETED * 4)
    assert sc[L.S_JUMP_INS] == 1 and sc[L.S_LAST_PLAYER] == 2
    assert sc[L.S_TARGET] == 0
    assert sc[L.S_SWAPS] == 1


def groups(hand: str, **rules) -> list[str]:
    """Seat 0's options in turn on R7 (2 players), a card alone written ``=1``, with its
    whole group ``=all``."""
    sc = Scenario.build({0: hand, 1: "G1 G2 B3"}, "R7", players=2, seats=[TINY, "counter"], **rules)
    o = np.zeros(search.MAX_OPTIONS, np.int64)
    n = search.group_options(sc.st, sc.P, 0, o, search.options(sc.st, sc.P, 0, o))
    return [("draw" if k < 0 else cards.name(int(k) % search.GROUPED)
             + ("" if k < search.GROUPED else ("=1" if k < 2 * search.GROUPED else "=all"))) for k in o[:n]]


def test_group_options_follow_the_rules():
    """H6: a card that others may go down with comes alone and with its whole group (every
    copy under ``identical``, every card of its rank under ``same_rank``); H7 keeps a wild
    from being the last card."""
    assert groups("R5 R5 G3", multi_play="identical") == ["R5", "draw", "R5=1", "R5=all"]
    assert groups("R5 B5 G3", multi_play="identical") == ["R5", "draw"]
    assert groups("R5 B5 G3", multi_play="same_rank") == ["R5", "draw", "R5=1", "R5=all"]
    assert groups("R5 R5 G3") == ["R5", "draw"]
    assert groups("W W", multi_play="identical", wild_last=False) == ["W", "draw"]  # one must stay back
    assert groups("W W G3", multi_play="identical", wild_last=False) == ["W", "draw", "W=1", "W=all"]


def test_a_searched_multi_play_puts_down_what_was_chosen():
    """H6: the search seat plays R5 alone, with its pair, or as its rollout bot plans (which
    sheds both), as :func:`search.choice_at` says; over sixty deals at margin 0 more than
    one of them happens (alone about one time in eight)."""
    counts = set()
    for seed in range(1, 61):
        sc = Scenario.build({0: "R5 R5 G3 B4 Y6", 1: "G1 G2 B3 Y1"}, "R7", players=2, seats=[SEAT, "counter"],
                            multi_play="identical", draw="R1 R2 R3 R4 G9 B9 Y8 Y7", seed=seed)
        choice = int(search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), 0, seed))
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        assert sc[L.S_PLAN] == 0
        if choice % search.GROUPED == cards.parse("R5"):
            alone = search.GROUPED <= choice < 2 * search.GROUPED
            assert sc.top == "R5" and sc.count(0) == (4 if alone else 3)
            counts.add(sc.count(0))
    assert counts == {3, 4}


JUMP_SEAT = {"strategy": "search", "worlds": 4, "rollouts": 2, "margin": 0.0}


def jump_table(seats, seed, third="R5 B1 B2 B3", **rules):
    """Seat 0 plays R5 on R7 at a 4-player table where seat 2 holds an R5 too, and seat 3
    ``third`` (H2 ``numbers``); seat 1 acts next, so it may not jump."""
    hands = {0: "R5 G3 B4", 1: "R1 Y2 Y3", 2: "R5 G1 G2 B7", 3: third}
    sc = Scenario.build(hands, "R7", players=4, seats=seats, jump_in="numbers",
                        draw="R1 R2 R3 R4 G9 B9 Y8 Y7 G7 G8", seed=seed, **rules)
    sc.play(0, "R5")
    return sc


def test_a_window_waits_for_a_search_seat_that_may_jump_in():
    """H2: seat 0's R5 opens a window that search seat 2 may jump into: the play stops there
    (the card down, nobody asked, no effect yet) until the hand loop's next step, which
    answers it as :func:`search.choice_at` says; over a few deals (margin 0) seat 2 both
    jumps (and play goes on from it) and stays out (and seat 1 plays next)."""
    seen = set()
    for seed in range(1, 9):
        sc = jump_table(["counter", "counter", JUMP_SEAT, "counter"], seed, third="B1 B2 B3 B5")
        assert sc[L.S_HELD] == 1 + cards.parse("R5") and sc[L.S_HELD_FIRST] == 0 and sc[L.S_HELD_LAST] == 0
        assert sc.top == "R5" and sc.count(0) == 2 and sc[L.S_JUMP_INS] == 0 and sc.cur == 0
        choice = int(search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), 2, seed, search.JUMP))
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        assert sc[L.S_HELD] == 0 and sc[L.S_JUMP_SAID] == 0
        if choice == 1:
            assert sc[L.S_JUMP_INS] == 1 and sc.count(2) == 3 and sc[L.S_LAST_PLAYER] == 2 and sc.cur == 3
        else:
            assert sc[L.S_JUMP_INS] == 0 and sc.count(2) == 4 and sc[L.S_LAST_PLAYER] == 0 and sc.cur == 1
        seen.add(choice)
    assert seen == {0, 1}


def test_search_seats_answer_a_window_without_knowing_each_other():
    """H2: two search seats that may both jump in decide from the same state, each as
    :func:`search.choice_at` says for it alone (seat 2 the hand's first searched decision,
    seat 3 its second); the jumper is one of those who said yes (the fastest hand, from
    the game's stream), nobody when neither did."""
    outcomes = set()
    for seed in range(1, 13):
        sc = jump_table(["counter", "counter", JUMP_SEAT, JUMP_SEAT], seed)
        wants = {q for d, q in enumerate((2, 3))
                 if search.choice_at(sc.st.copy(), sc.P, sc.ctx.copy(), q, seed, search.JUMP, -1, d) == 1}
        sc.ctx[search.C_SEED] = seed
        sc.ctx[search.C_DECISIONS] = 0
        sc.step()
        if wants:
            assert sc[L.S_JUMP_INS] == 1 and sc[L.S_LAST_PLAYER] in wants
        else:
            assert sc[L.S_JUMP_INS] == 0 and sc.cur == 1
        outcomes.add(len(wants))
    assert len(outcomes) > 1


def test_a_search_seats_own_play_does_not_wait_for_itself():
    """H2: the seat that played may not jump on its own card, nor the seat to act next: a
    window with no other search seat that may jump goes on at once, as without search."""
    sc = jump_table([JUMP_SEAT, JUMP_SEAT, "counter", "counter"], 3)
    assert sc[L.S_HELD] == 0 and sc[L.S_JUMP_INS] == 1


def test_a_target_waits_with_its_window():
    """H4 with H2: search seat 0's 7 aimed at seat 3 opens a window that search seat 2 (an
    identical 7) may jump into; the target waits with the window, acts once seat 2 stays
    out, and is gone after the play."""
    from unosim.engine.choices import answer_jump, play_targeted
    from unosim.engine.jump import resume_window

    hands = {0: "R7 G3 B4", 1: "B1 B2 B3 Y1 Y2", 2: "R7 G1 G2 G4", 3: "G5 G6 G7"}
    sc = Scenario.build(hands, "R5", players=4, seats=[TINY, "counter", JUMP_SEAT, "counter"], seven_o=True,
                        jump_in="numbers", draw="R1 R2 R3 R4 G9 B9")
    play_targeted(sc.st, sc.P, sc.rng, sc.log, 0, cards.parse("R7") + search.TARGETED * 4)
    assert sc[L.S_HELD] == 1 + cards.parse("R7") and sc[L.S_TARGET] != 0 and sc[L.S_SWAPS] == 0
    answer_jump(sc.st, 2, 0)
    resume_window(sc.st, sc.P, sc.rng, sc.log)
    assert sc[L.S_JUMP_INS] == 0 and sc[L.S_SWAPS] == 1 and sc[L.S_TARGET] == 0
    assert sc.hand(0) == ["G5", "G6", "G7"] and sc.count(3) == 2


def held_positions(cfg, P, seed, count):
    """States of hands of cfg reached by the table's bots where an H2 window waits for
    seat 0 (``S_JUMPERS`` marks it alone, the other seats' strategies are its table's)."""
    log = np.zeros((0, L.LOG_WIDTH), np.int64)
    found = []
    for h in range(400 * count):
        st = first_turn(cfg, seed * 1000 + h, dealer=h % cfg.players)
        r = np.array([seed * 7919 + h], np.uint64)
        for _ in range(300):
            if st[L.S_DONE]:
                break
            st[L.S_JUMPERS] = 1
            H.step(st, P, r, log)
            if st[L.S_HELD]:
                found.append(st.copy())
                break
        if len(found) == count:
            break
    return found


JUMP_CONFIGS = [(n, p) for n, p in CONFIGS if load_config(p).jump_in != "none"]


@pytest.mark.parametrize("name, path", JUMP_CONFIGS, ids=[n for n, _ in JUMP_CONFIGS])
def test_no_peeking_on_a_jump_in(name, path):
    """Permuting the hidden cards never changes whether seat 0 jumps in, under every
    bundled config with jump-ins (H2)."""
    cfg, P, ctx = table(load_config(path))
    ctx[search.C_SEAT0 + 4] = 0
    rng = np.random.default_rng(len(name))
    found = held_positions(cfg, P, seed=len(name), count=5)
    assert len(found) >= 3
    for st in found:
        before = st.copy()
        seed = int(rng.integers(1, 2**62))
        choice = search.choice_at(st, P, ctx.copy(), 0, seed, search.JUMP)
        assert (st == before).all()
        for _ in range(3):
            assert search.choice_at(permuted(st, rng), P, ctx.copy(), 0, seed, search.JUMP) == choice
