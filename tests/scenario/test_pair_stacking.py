"""H25 (``stacking = "amount"``, pair stacking) sentence by sentence, and B0's ``multi_rate``
(H6 plays of the reference bot) with the order of its random numbers.

Each test builds a hand with :class:`unosim.scenario.Scenario`, lets the bots act, and
checks the exact outcome.  A pair is played by a B0 seat at ``multi_rate = 1`` (it then
puts down every card H6 lets go with the card it chose, without a random number for it).
"""

from __future__ import annotations

import pytest

from cli_checks import invoke, one_error
from unosim.kernel import layout as L
from unosim.kernel.rng import _GAMMA
from unosim.rules.config import ConfigError, default_config
from unosim.scenario import Scenario

PAIRS = {"strategy": "random", "multi_rate": 1.0}   # B0 that plays every card H6 lets go with its choice
HALF = {"strategy": "random", "multi_rate": 0.5}
PILE = " ".join(["Y5", "Y6", "Y7", "Y8"] * 6)        # cards to draw penalties from
AMOUNT = {"stacking": "amount", "multi_play": "identical"}


def seats(**special: object) -> list:
    out: list = ["random"] * 4
    for key, bot in special.items():
        out[int(key[1:])] = bot
    return out


def draws(sc: Scenario, seed: int = 12345) -> int:
    """Random numbers drawn so far: the stream is a counter that moves by one gamma a draw."""
    return ((int(sc.rng[0]) - seed) * pow(int(_GAMMA), -1, 2**64)) % 2**64


def pair_played(hand0: str = "R+2 R+2 B9", **rules: object) -> Scenario:
    """Seat 0 (B0, multi_rate 1) puts down its Draw Twos together on R3 (a red pair: seat 1 faces 4)."""
    rules = {**AMOUNT, **rules}
    s1 = rules.pop("s1", "random")
    sc = Scenario.build({0: hand0, 1: rules.pop("hand1"), 2: rules.pop("hand2", "G5 G6")}, top="R3",
                        draw=PILE, seats=seats(s0=PAIRS, s1=s1), **rules)
    sc.step()
    assert sc.top.endswith("+2") and sc.hand(0) == ["B9"] and sc.cur == 1
    return sc


# --------------------------------------------------------------------------- H25 sentence by sentence
def test_h25_draw_two_on_draw_two() -> None:
    sc = Scenario.build({0: "R+2 B9", 1: "G+2 G1"}, top="R3", draw=PILE, **AMOUNT)
    sc.play(0, "R+2").step()
    assert sc.top == "G+2" and sc[L.S_PENDING] == 4 and sc.cur == 2


@pytest.mark.parametrize("first", ["R+2", "W+4"])
def test_h25_wild_draw4_on_draw_two_and_on_wild_draw4(first: str) -> None:
    sc = Scenario.build({0: f"{first} B9", 1: "W+4 G1"}, top="R3", draw=PILE, **AMOUNT)
    sc.play(0, first).step()
    assert sc.top == "W+4" and sc.hand(1) == ["G1"] and sc[L.S_PENDING] == (6 if first == "R+2" else 8)


def test_h25_pair_of_draw_twos_on_wild_draw4() -> None:
    """Two Draw Twos put down together make 4: they cover a Wild Draw Four (4)."""
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1=PAIRS), **AMOUNT)
    sc.play(0, "W+4").step()
    assert sc.top == "G+2" and sc.hand(1) == ["B1"] and sc[L.S_PENDING] == 8
    assert sc[L.S_STACK_LEN] == 3 and sc[L.S_PLAY_CARDS] == 2 and sc[L.S_MULTI_PLAYS] == 1 and sc.cur == 2


def test_h25_pair_of_draw_twos_on_a_pair() -> None:
    sc = pair_played(hand1="G+2 G+2 B1", s1=PAIRS)
    sc.step()
    assert sc.top == "G+2" and sc.hand(1) == ["B1"] and sc[L.S_PENDING] == 8 and sc[L.S_STACK_LEN] == 4


def test_h25_a_single_draw_two_is_refused_on_a_pair() -> None:
    sc = pair_played(hand1="G+2 B1")
    assert sc[L.S_PLAY_CARDS] == 2 and sc[L.S_PENDING] == 4
    sc.step()  # the G+2 alone makes 2 < 4: seat 1 draws the 4 and loses the turn
    assert sc.count(1) == 6 and "G+2" in sc.hand(1) and sc.cur == 2 and sc[L.S_PENDING_KIND] == -1


def test_h25_a_single_draw_two_is_refused_on_a_wild_draw4() -> None:
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 B1"}, top="R3", draw=PILE, **AMOUNT)
    sc.play(0, "W+4").step()
    assert sc.count(1) == 6 and "G+2" in sc.hand(1) and sc.cur == 2
    under_all = Scenario.build({0: "W+4 B9", 1: "G+2 B1"}, top="R3", draw=PILE, stacking="all")
    under_all.play(0, "W+4").step()
    assert under_all.top == "G+2"  # what H25 refuses here, H1 "all" allows


def test_h25_a_wild_draw4_covers_a_pair_but_not_three_draw_twos() -> None:
    """N cards make N times the amount: a Wild Draw Four (4) covers a pair (4), not a
    same_rank play of three Draw Twos (6)."""
    sc = pair_played(hand1="W+4 B1")
    sc.step()
    assert sc.top == "W+4" and sc[L.S_PENDING] == 8
    sc = pair_played(hand0="R+2 B+2 G+2 B9", hand1="W+4 B1", multi_play="same_rank")
    assert sc[L.S_PLAY_CARDS] == 3 and sc[L.S_PENDING] == 6
    sc.step()
    assert sc.count(1) == 8 and "W+4" in sc.hand(1) and sc.cur == 2


@pytest.mark.parametrize("d2, d4, d2_on_w4, w4_on_d2, pair_on_w4", [
    (3, 5, False, True, True),     # a pair makes 6 >= 5
    (2, 5, False, True, False),    # a pair makes 4 < 5
    (5, 4, True, False, True),     # a Draw Two outweighs a Wild Draw Four
])
def test_h25_amounts_are_h18s(d2: int, d4: int, d2_on_w4: bool, w4_on_d2: bool, pair_on_w4: bool) -> None:
    amounts = {"draw2_amount": d2, "draw4_amount": d4, **AMOUNT}
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 B1"}, top="R3", draw=PILE, **amounts)
    sc.play(0, "W+4").step()
    assert (sc.top == "G+2") == d2_on_w4
    sc = Scenario.build({0: "R+2 B9", 1: "W+4 B1"}, top="R3", draw=PILE, **amounts)
    sc.play(0, "R+2").step()
    assert (sc.top == "W+4") == w4_on_d2
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1=PAIRS), **amounts)
    sc.play(0, "W+4").step()
    assert (sc.top == "G+2" and sc.hand(1) == ["B1"]) == pair_on_w4
    if pair_on_w4:
        assert sc[L.S_PENDING] == d4 + 2 * d2


@pytest.mark.parametrize("d2, d4", [(5, 4), (4, 4), (2, 4), (3, 5)])
def test_h25_without_h6_is_draw2_draw4_whatever_the_amounts(d2: int, d4: int) -> None:
    """H25: "without H6 a play is one card, and amount acts as draw2_draw4 does", also
    where the H18 amounts would weigh the cards the other way."""
    amounts = {"draw2_amount": d2, "draw4_amount": d4, "stacking": "amount"}
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 B1"}, top="R3", draw=PILE, **amounts)
    sc.play(0, "W+4").step()
    assert sc.top == "W+4" and sc.count(1) == 2 + d4  # never a Draw Two on a Wild Draw Four
    sc = Scenario.build({0: "R+2 B9", 1: "W+4 B1"}, top="R3", draw=PILE, **amounts)
    sc.play(0, "R+2").step()
    assert sc.top == "W+4"  # always a Wild Draw Four on a Draw Two


def test_h25_the_first_who_does_not_answer_draws_the_total() -> None:
    sc = pair_played(hand1="W+4 B1", hand2="G5 G6")
    sc.step()  # seat 1 answers the pair (4) with a Wild Draw Four (4): 8 pending
    turns = sc[L.S_TURNS]
    sc.step()  # seat 2 cannot answer: draws all 8 and loses the turn, which is no turn of its own
    assert sc.count(2) == 10 and sc.cur == 3 and sc[L.S_TURNS] == turns
    assert sc[L.S_LONGEST_STACK] == 3 and sc[L.S_STACK_DRAWN] == 8 and sc[L.S_PENDING_KIND] == -1


def test_h25_answering_is_a_turn() -> None:
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1=PAIRS), **AMOUNT)
    sc.play(0, "W+4")
    turns = sc[L.S_TURNS]
    sc.step()
    assert sc[L.S_TURNS] == turns + 1


def test_h25_a_stacked_wild_draw4_is_free_of_r8_and_cannot_be_challenged() -> None:
    """Seat 1 holds a red card (R8 would forbid its Wild Draw Four in a turn), answers the
    Draw Two with it anyway; seat 2, who challenges every Wild Draw Four it may, may not."""
    challenger = {"strategy": "random", "challenge_rate": 1.0}
    sc = Scenario.build({0: "R+2 B9", 1: "W+4 R1", 2: "G5 G6"}, top="R3", color="R", draw=PILE,
                        seats=seats(s2=challenger), **AMOUNT)
    sc.play(0, "R+2").step()
    assert sc.top == "W+4" and sc.hand(1) == ["R1"]
    sc.step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(2) == 8 and sc.cur == 3


def test_h25_the_plus_ten_neither_stacks_nor_is_stacked_on() -> None:
    sc = Scenario.build({0: "R0 B9", 1: "W+4 G+2 G+2"}, top="R3", draw=" ".join(["Y5"] * 12),
                        seats=seats(s1=PAIRS), red_zero="draw10", **AMOUNT)
    sc.play(0, "R0").step()
    assert sc.count(1) == 13 and sc.cur == 2
    sc = Scenario.build({0: "R+2 B9", 1: "R0 G1"}, top="R3", draw=PILE, red_zero="draw10", **AMOUNT)
    sc.play(0, "R+2").step()
    assert sc.count(1) == 4 and "R0" in sc.hand(1)


def test_h25_without_h6_a_play_is_one_card() -> None:
    """Without H6 the pair goes down one card at a time: the first Draw Two is the play
    (2), and a single Draw Two answers it, as under draw2_draw4."""
    sc = Scenario.build({0: "R+2 R+2 B9", 1: "G+2 B1"}, top="R3", draw=PILE, seats=seats(s0=PAIRS),
                        stacking="amount")
    sc.step()
    assert sc.hand(0) == ["R+2", "B9"] and sc[L.S_PENDING] == 2
    sc.step()
    assert sc.top == "G+2" and sc[L.S_PENDING] == 4


def test_h25_a_jump_in_is_the_play_answered() -> None:
    """H2: after a pair, a jumped-in identical Draw Two (one card) is what the next player
    answers, so a single Draw Two answers it."""
    sc = Scenario.build({0: "R+2 R+2 B9", 1: "G1 G2", 2: "R+2 B1", 3: "G+2 B2"}, top="R3", draw=PILE,
                        seats=seats(s0=PAIRS), decks=2, jump_in="colored", **AMOUNT)
    sc.step()  # seat 0's pair, then seat 2 jumps in with its R+2 (replace: only its 2 count)
    assert sc[L.S_JUMP_INS] == 1 and sc[L.S_PLAY_CARDS] == 1 and sc[L.S_PENDING] == 2 and sc.cur == 3
    sc.step()
    assert sc.top == "G+2" and sc[L.S_PENDING] == 4


# --------------------------------------------------------------------------- the project's strategies
@pytest.mark.parametrize("bot", ["greedy", "wild_saver", "color_keeper", "aggressor", "counter", "weights"])
def test_h25_strategies_answer_with_a_group_when_no_single_card_does(bot: str) -> None:
    """(No challenge here: ``counter`` would challenge by the odds, R8.)"""
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1=bot), challenge=False,
                        **AMOUNT)
    sc.play(0, "W+4").step()
    assert sc.top == "G+2" and sc.hand(1) == ["B1"] and sc[L.S_PENDING] == 8


@pytest.mark.parametrize("bot", ["greedy", "wild_saver", "aggressor", "counter", "rlcard_random"])
def test_h25_strategies_never_answer_a_pair_with_one_draw_two(bot: str) -> None:
    sc = pair_played(hand1="G+2 B1", s1=bot)
    sc.step()
    assert sc.count(1) == 6 and sc.cur == 2


def test_h25_rlcard_random_stacks_single_cards_only() -> None:
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1="rlcard_random"),
                        **AMOUNT)
    sc.play(0, "W+4").step()
    assert sc.count(1) == 7 and sc.cur == 2


# --------------------------------------------------------------------------- B0 multi_rate
def test_b0_multi_rate_one_plays_the_whole_group() -> None:
    sc = Scenario.build({0: "R5 R5 B9"}, top="R3", seats=seats(s0=PAIRS), multi_play="identical")
    sc.step()
    assert sc.hand(0) == ["B9"] and sc[L.S_MULTI_PLAYS] == 1 and sc[L.S_PLAYED] == 2
    assert draws(sc) == 1  # the card only: at rate 1 the chance is certain and draws nothing


def test_b0_multi_rate_zero_draws_no_random_number() -> None:
    """B0 at multi_rate 0 under H6 plays exactly as without H6: same card, same stream."""
    for mode in ("identical", "same_rank"):
        with_h6 = Scenario.build({0: "R5 R5 B5 B9"}, top="R3", multi_play=mode).step()
        without = Scenario.build({0: "R5 R5 B5 B9"}, top="R3").step()
        assert with_h6.hand(0) == without.hand(0) and with_h6[L.S_PLAYED] == 1
        assert with_h6.rng[0] == without.rng[0] and draws(with_h6) == 1


def test_b0_order_card_then_chance_then_colour() -> None:
    """The card (1 draw), then the chance (1 draw, rate 0.5), then under same_rank the
    colour among the colours played (1 draw, 3 colours)."""
    groups = 0
    for seed in range(40):
        sc = Scenario.build({0: "R5 B5 G5 Y9"}, top="R3", seats=seats(s0=HALF), multi_play="same_rank", seed=seed)
        sc.step()
        if sc[L.S_PLAYED] == 3:
            assert draws(sc, seed) == 3 and sc.color in "RBG" and sc.hand(0) == ["Y9"]
            groups += 1
        else:
            assert draws(sc, seed) == 2 and sc.top == "R5"
    assert 0 < groups < 40
    sc = Scenario.build({0: "R5 B9"}, top="R3", seats=seats(s0=HALF), multi_play="same_rank").step()
    assert draws(sc) == 1  # nothing may go with R5: no chance drawn


def test_b0_same_rank_colour_is_uniform_among_the_colours_played() -> None:
    seen = {c: 0 for c in "RYGB"}
    n = 300
    for seed in range(n):
        sc = Scenario.build({0: "R5 B5 G5 Y9"}, top="R3", seats=seats(s0=PAIRS), multi_play="same_rank", seed=seed)
        sc.step()
        seen[sc.color] += 1
    assert seen["Y"] == 0
    sd = (n * (1 / 3) * (2 / 3)) ** 0.5
    assert all(abs(seen[c] - n / 3) < 4.5 * sd for c in "RGB"), seen


def test_b0_h25_a_card_that_answers_only_as_a_group_goes_down_whole_without_a_chance() -> None:
    """B0 at multi_rate 0.5 facing a Wild Draw Four with G+2 G+2 B+2: only the green pair
    answers (the B+2 alone makes 2); one draw picks among the two green cards, none more."""
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B+2 B1"}, top="R3", draw=PILE, seats=seats(s1=HALF), **AMOUNT)
    sc.play(0, "W+4")
    before = draws(sc)
    sc.step()
    assert sc.hand(1) == ["B1", "B+2"] and sc[L.S_PENDING] == 8 and draws(sc) == before + 1


def test_b0_h25_at_multi_rate_zero_only_single_cards_count() -> None:
    sc = Scenario.build({0: "W+4 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, **AMOUNT)
    sc.play(0, "W+4").step()
    assert sc.count(1) == 7 and sc.cur == 2


def test_b0_h25_a_card_that_answers_alone_takes_its_group_at_multi_rate() -> None:
    sc = Scenario.build({0: "R+2 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1=PAIRS), **AMOUNT)
    sc.play(0, "R+2").step()
    assert sc.hand(1) == ["B1"] and sc[L.S_PENDING] == 6


def test_b0_h1_stack_takes_its_group_at_multi_rate() -> None:
    """The contract's "to stack under H1/H25": under H1 too the chosen Draw Two brings its twin."""
    sc = Scenario.build({0: "R+2 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1=PAIRS),
                        stacking="draw2", multi_play="identical")
    sc.play(0, "R+2").step()
    assert sc.hand(1) == ["B1"] and sc[L.S_PENDING] == 6
    greedy = Scenario.build({0: "R+2 B9", 1: "G+2 G+2 B1"}, top="R3", draw=PILE, seats=seats(s1="greedy"),
                            stacking="draw2", multi_play="identical")
    greedy.play(0, "R+2").step()
    assert greedy.hand(1) == ["G+2", "B1"]  # the project's strategies stack one card under H1


def test_b0_drawn_card_and_jump_in_are_single_cards() -> None:
    """R6: the drawn G7 goes down alone, its same_rank companion R7 stays (it did not match
    the wild's colour, so the turn began with a draw)."""
    sc = Scenario.build({0: "R7 B9"}, top="W", color="G", draw="G7", seats=seats(s0=PAIRS), multi_play="same_rank")
    sc.step()
    assert sc.top == "G7" and sorted(sc.hand(0)) == ["B9", "R7"]
    sc = Scenario.build({0: "R5 B9", 1: "G1", 2: "R5 R5 B1"}, top="R3", seats=seats(s2=PAIRS), decks=2,
                        jump_in="numbers", multi_play="identical")
    sc.play(0, "R5")  # H2: seat 2 jumps in with one R5 of its two
    assert sc[L.S_JUMP_INS] == 1 and sc.hand(2) == ["R5", "B1"]


# --------------------------------------------------------------------------- the parameter's values
@pytest.mark.parametrize("value", [-0.1, 1.5, "often", float("nan")])
def test_b0_multi_rate_is_checked(value) -> None:
    with pytest.raises(ConfigError, match="multi_rate"):
        default_config(seats={"strategy": "random", "multi_rate": value})


@pytest.mark.parametrize("value", ["nan", "1.5", "-1"])
def test_b0_multi_rate_bad_values_are_one_line(tmp_path, value: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[rules]\nstacking = "amount"\n[bots]\nseats = {{ strategy = "random", multi_rate = {value} }}\n')
    one_error(invoke("run", cfg, "--hands", "5", "--out", tmp_path / "o.parquet"), "bots.seats.multi_rate", "0.0-1.0")


def test_h25_two_wild_draw4s_at_once_need_a_pair_to_answer() -> None:
    """H25 with H6: two Wild Draw Fours put down together make 8; a single Wild Draw Four
    (4) does not answer them, so seat 1 (which does not challenge) draws the 8."""
    sc = Scenario.build({0: "W+4 W+4 G1", 1: "W+4 B1", 2: "G5 G6"}, top="R3", draw=PILE,
                        seats=seats(s0=PAIRS), **AMOUNT)
    sc.step()
    assert sc.hand(0) == ["G1"] and sc[L.S_PENDING] == 8 and sc[L.S_PLAY_CARDS] == 2
    sc.step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(1) == 10 and "W+4" in sc.hand(1) and sc.cur == 2


def test_h25_two_wild_draw4s_at_once_may_be_challenged() -> None:
    """H6 with R8: the group is one play put down in a turn, not a stack, so it may be
    challenged; it was legal (no red card held): the challenger draws 8 + 2."""
    challenger = {"strategy": "random", "challenge_rate": 1.0}
    sc = Scenario.build({0: "W+4 W+4 G1", 1: "W+4 B1", 2: "G5 G6"}, top="R3", draw=PILE,
                        seats=seats(s0=PAIRS, s1=challenger), **AMOUNT)
    sc.step().step()
    assert sc[L.S_CHALLENGES] == 1 and sc.count(1) == 12 and sc.cur == 2
