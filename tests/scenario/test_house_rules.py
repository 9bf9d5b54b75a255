"""One scenario per house rule of docs/rules.md (H1-H18) and per mode: a built position, one
action through the real kernel, the exact outcome."""

from __future__ import annotations

import pytest

from unosim.rules import cards
from unosim.rules.config import default_config, to_params
from unosim.engine import hand as H
from unosim.kernel import layout as L
from unosim.rules import params as slots
from unosim.scenario import Scenario, first_turn

OTHERS = {1: "G1 G2", 2: "Y1 Y2", 3: "B1 B2"}


def hands(**by_seat: str) -> dict[int, str]:
    """Four seats holding dull cards, with some replaced: hands(s0="R5 R6")."""
    out = {0: "B8 B9", **OTHERS}
    for key, text in by_seat.items():
        out[int(key[1:])] = text
    return out


# --------------------------------------------------------------------------- H1 stacking
def test_h1_draw2_stack_passes_the_total_on():
    sc = Scenario.build(hands(s0="R+2 B9", s1="G+2 G1"), top="R3", draw="Y5 Y6 Y7 Y8 Y9", stacking="draw2")
    sc.play(0, "R+2").step()  # seat 1 stacks its G+2 (B0 always stacks when it can)
    assert sc.top == "G+2" and sc[L.S_PENDING] == 4 and sc.cur == 2
    sc.step()  # seat 2 cannot stack: draws the total and loses the turn
    assert sc.count(2) == 6 and sc.cur == 3
    assert sc[L.S_LONGEST_STACK] == 2 and sc[L.S_STACK_DRAWN] == 4 and sc[L.S_TURNS] == 2


def test_h1_draw2_mode_refuses_wild_draw4_on_draw_two():
    sc = Scenario.build(hands(s0="R+2 B9", s1="W+4 G1"), top="R3", draw="Y5 Y6", stacking="draw2")
    sc.play(0, "R+2").step()
    assert sc.count(1) == 4 and sc.cur == 2 and sc[L.S_LONGEST_STACK] == 1


@pytest.mark.parametrize("mode, ok", [("draw2_draw4", True), ("all", True)])
def test_h1_wild_draw4_on_draw_two(mode, ok):
    sc = Scenario.build(hands(s0="R+2 B9", s1="W+4 G1"), top="R3", draw="Y5 Y6 Y7 Y8 Y9 B5", stacking=mode)
    sc.play(0, "R+2").step()
    assert sc.top == "W+4" and sc[L.S_PENDING] == 6
    sc.step()
    assert sc.count(2) == 8 and sc.cur == 3


@pytest.mark.parametrize("mode, stacks", [("draw2_draw4", False), ("all", True)])
def test_h1_draw_two_on_wild_draw4_only_under_all(mode, stacks):
    sc = Scenario.build(hands(s0="W+4 B9", s1="G+2 G1"), top="R3", draw="Y5 Y6 Y7 Y8 Y9 B5", stacking=mode)
    sc.play(0, "W+4").step()
    if stacks:
        assert sc.top == "G+2" and sc[L.S_PENDING] == 6
    else:
        assert sc.count(1) == 6 and sc.cur == 2


def test_h1_red_zero_plus_ten_is_never_stacked_on():
    sc = Scenario.build(hands(s0="R0 B9", s1="R+2 G1"), top="R3", draw=" ".join(["Y5"] * 12),
                        stacking="all", red_zero="draw10")
    sc.play(0, "R0").step()
    assert sc.count(1) == 12 and sc.cur == 2


def test_h1_stack_on_last_card_is_drawn_whole():
    """R12 + H1: a stack ending a hand is drawn whole by the next player."""
    sc = Scenario.build(hands(s0="R+2 B9", s1="G+2"), top="R3", draw="Y5 Y6 Y7 Y8 Y9", stacking="draw2")
    sc.play(0, "R+2").step()
    assert sc.done and sc.winner == 1 and sc.count(2) == 6


# --------------------------------------------------------------------------- H26 deflect
PILE = " ".join(["Y5", "Y6", "Y7", "Y8"] * 4)


def deflecting(s1: str = "RR G1", mode: str = "reverse", s0: str = "R+2 B9", card: str = "R+2",
               **rules: object) -> Scenario:
    """Seat 0 plays ``card`` on R3 (a pending draw for seat 1, who holds ``s1``); seat 1 answers."""
    sc = Scenario.build(hands(s0=s0, s1=s1), top="R3", draw=PILE, deflect=mode, **rules)
    return sc.play(0, card).step()


def test_h26_a_reverse_of_the_current_colour_passes_a_draw_two_back():
    """H26: instead of drawing, a Reverse of the current colour: the direction flips and the
    whole draw, not increased, passes to the next player in the new direction."""
    sc = deflecting()
    assert sc.top == "RR" and sc[L.S_DIR] == -1 and sc.cur == 0 and sc[L.S_PENDING] == 2
    assert sc.count(1) == 1 and sc[L.S_DEFLECTIONS] == 1
    sc.step()  # seat 0 holds B9: it draws the 2 and loses the turn, play goes on anticlockwise
    assert sc.count(0) == 3 and sc.cur == 3 and sc[L.S_PENDING] == 0 and sc[L.S_PENDING_KIND] == -1


def test_h26_only_a_reverse_of_the_current_colour_deflects():
    sc = deflecting(s1="GR G1")
    assert sc.count(1) == 4 and sc.cur == 2 and sc[L.S_DEFLECTIONS] == 0


def test_h26_off_by_default():
    sc = deflecting(mode="none")
    assert sc.count(1) == 4 and sc.cur == 2 and sc[L.S_DIR] == 1


def test_h26_a_stack_is_deflected_whole():
    """H26 with H1: the stack's running total passes on, not increased."""
    sc = Scenario.build(hands(s1="G+2 G1", s2="GR Y1", s0="R+2 B9"), top="R3", draw=PILE, deflect="reverse",
                        stacking="draw2")
    sc.play(0, "R+2").step().step()  # seat 1 stacks, seat 2 deflects with the green Reverse
    assert sc.top == "GR" and sc.cur == 1 and sc[L.S_PENDING] == 4 and sc[L.S_DIR] == -1
    sc.step()
    assert sc.count(1) == 5 and sc.cur == 0 and sc[L.S_STACK_DRAWN] == 4


def test_h26_the_player_it_passes_to_may_stack_on_it():
    sc = deflecting(s0="R+2 Y+2 B9", stacking="draw2")
    assert sc.cur == 0
    sc.step()  # seat 0 stacks its Y+2 on the deflected draw
    assert sc.top == "Y+2" and sc[L.S_PENDING] == 4 and sc.cur == 3
    sc.step()
    assert sc.count(3) == 6 and sc.cur == 2


def test_h26_the_player_it_passes_to_may_deflect_again():
    sc = deflecting(s0="R+2 RR B9")
    sc.step()  # seat 0 deflects back: clockwise again, to seat 1
    assert sc[L.S_DIR] == 1 and sc.cur == 1 and sc[L.S_PENDING] == 2 and sc[L.S_DEFLECTIONS] == 2
    sc.step()  # seat 1 holds G1 now: it draws
    assert sc.count(1) == 3 and sc.cur == 2


def test_h26_the_red_zero_plus_ten_is_deflected():
    sc = deflecting(s0="R0 B9", card="R0", red_zero="draw10")
    assert sc.cur == 0 and sc[L.S_PENDING] == 10 and sc[L.S_DEFLECTIONS] == 1


CHALLENGER = {"strategy": "random", "challenge_rate": 1.0}
REVERSES = "RR YR GR BR G1"


def test_h26_a_wild_draw4_is_deflected_once_the_challenge_passed_unused():
    """B0 never challenges: the Wild Draw Four is deflected with the named colour's Reverse;
    the player it passes to may not challenge it (seat 0 challenges every one it may)."""
    sc = Scenario.build(hands(s0="W+4 B9", s1=REVERSES), top="R3", draw=PILE, deflect="reverse",
                        seats=[CHALLENGER, "random", "random", "random"])
    sc.play(0, "W+4").step()
    assert sc[L.S_DEFLECTIONS] == 1 and sc.top[0] == sc.color and sc.cur == 0 and sc[L.S_PENDING] == 4
    sc.step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(0) == 5 and sc.cur == 3


def test_h26_a_wild_draw4_challenged_is_not_deflected():
    sc = Scenario.build(hands(s0="W+4 B9", s1=REVERSES), top="R3", draw=PILE, deflect="reverse",
                        seats=["random", CHALLENGER, "random", "random"])
    sc.play(0, "W+4").step()
    assert sc[L.S_CHALLENGES] == 1 and sc[L.S_DEFLECTIONS] == 0 and sc.count(1) == 5 + 6


@pytest.mark.parametrize("h14", ["skip", "none"])
def test_h26_with_two_players_it_goes_back_to_the_draw_cards_player(h14):
    sc = Scenario.build({0: "R+2 B9", 1: "RR G1"}, top="R3", draw=PILE, players=2, deflect="reverse",
                        two_player_reverse=h14)
    sc.play(0, "R+2").step()
    assert sc.cur == 0 and sc[L.S_PENDING] == 2
    sc.step()
    assert sc.count(0) == 3 and sc.cur == 1


def test_h26_a_skip_deflects_only_under_reverse_skip():
    assert deflecting(s1="RS G1")[L.S_DEFLECTIONS] == 0
    sc = deflecting(s1="RS G1", mode="reverse_skip")
    assert sc[L.S_DEFLECTIONS] == 1 and sc[L.S_DIR] == 1 and sc.cur == 2 and sc[L.S_PENDING] == 2
    sc.step()  # nobody was skipped: seat 2 faces the draw, draws it and loses the turn
    assert sc.count(2) == 4 and sc.cur == 3


def test_h26_a_deflection_is_a_turn_and_one_card_under_h6_too():
    sc = deflecting(s1="RR RR G1", multi_play="identical", seats={"strategy": "random", "multi_rate": 1.0})
    assert sc[L.S_TURNS] == 2 and sc[L.S_PLAYED] == 2 and sc.count(1) == 2 and sc[L.S_MULTI_PLAYS] == 0


def test_h26_the_deflecting_card_opens_no_jump_in_window():
    """Seat 3 holds the identical red Reverse, yet no window opens (nobody held an R+2)."""
    sc = Scenario.build(hands(s0="R+2 B9", s1="RR G1", s3="RR B2"), top="R3", draw=PILE, deflect="reverse",
                        jump_in="colored")
    sc.play(0, "R+2").step()
    assert sc[L.S_DEFLECTIONS] == 1 and sc[L.S_JUMP_INS] == 0 and sc.count(3) == 2 and sc.cur == 0


def test_h26_r10_applies_to_the_deflecting_card():
    sc = deflecting(s0="R+2 B8 B9", uno_forget=1.0, uno_caught=1.0)
    assert sc[L.S_UNO_PENALTIES] == 1 and sc.count(1) == 3 and sc.cur == 0


def test_h26_a_last_card_deflection_ends_the_hand_and_the_draw_is_drawn():
    """R12: the player the draw passed to draws it."""
    sc = deflecting(s1="RR")
    assert sc.done and sc.winner == 1 and sc.count(0) == 3 and sc[L.S_PENDING] == 0


def test_h26_under_h13_the_deflection_still_passes_the_draw_on():
    sc = deflecting(s1="RR", finish="last_standing")
    assert not sc.done and sc[L.S_RANK0 + 1] == 1 and sc.cur == 0 and sc[L.S_PENDING] == 2
    sc.step()
    assert sc.count(0) == 3 and sc.cur == 3


def test_h26_a_deflection_turn_opens_with_the_h24_check():
    """H24 exempts a stack and a jump-in; a deflection is a turn of its own, so it opens
    with the misplay check (G1 does not play on a red Draw Two)."""
    sc = deflecting(misplay=1.0)
    assert sc[L.S_MISPLAYS] == 1 and sc[L.S_DEFLECTIONS] == 1 and sc.count(1) == 2


def test_h26_b0_deflects_or_stacks_uniformly_among_the_physical_cards():
    """B0: a card that may deflect counts like one that may be stacked: G+2 once, RR twice."""
    n = 600
    deflected = sum(deflecting(s1="G+2 RR RR", stacking="draw2", seed=seed)[L.S_DEFLECTIONS] for seed in range(n))
    p = 2 / 3
    sd = (n * p * (1 - p)) ** 0.5
    assert abs(deflected - n * p) < 4 * sd


# --------------------------------------------------------------------------- H2 jump-in
def test_h2_numbers_jump_in_and_play_continues_from_the_jumper():
    sc = Scenario.build(hands(s0="R5 B9", s2="R5 Y1"), top="R3", jump_in="numbers")
    sc.play(0, "R5")
    assert sc[L.S_JUMP_INS] == 1 and sc.count(2) == 1 and sc.cur == 3 and sc[L.S_TURNS] == 2


def test_h2_the_next_player_may_not_jump_in():
    sc = Scenario.build(hands(s0="R5 B9", s1="R5 G1"), top="R3", jump_in="numbers")
    sc.play(0, "R5")
    assert sc[L.S_JUMP_INS] == 0 and sc.cur == 1


def test_h2_a_player_holding_one_card_may_not_jump_in():
    sc = Scenario.build(hands(s0="R5 B9", s2="R5"), top="R3", jump_in="numbers")
    sc.play(0, "R5")
    assert sc[L.S_JUMP_INS] == 0


def test_h2_numbers_mode_ignores_symbols():
    sc = Scenario.build(hands(s0="RS B9", s1="RS G1"), top="R3", jump_in="numbers")
    sc.play(0, "RS")
    assert sc[L.S_JUMP_INS] == 0 and sc.cur == 2


def test_h2_colored_skipped_player_may_jump_with_a_skip():
    sc = Scenario.build(hands(s0="RS B9", s1="RS G1"), top="R3", jump_in="colored")
    sc.play(0, "RS")
    # seat 1 jumps with its Skip; its effect skips seat 2
    assert sc[L.S_JUMP_INS] == 1 and sc.cur == 3


@pytest.mark.parametrize("mode, drawn", [("replace", 2), ("accumulate", 4)])
def test_h2_jumped_draw_two_replace_or_accumulate(mode, drawn):
    """Without stacking the victim may jump in; its Draw Two hits the next seat."""
    sc = Scenario.build(hands(s0="R+2 B9", s1="R+2 G1"), top="R3", draw="Y5 Y6 Y7 Y8",
                        jump_in="colored", jump_in_stack=mode)
    sc.play(0, "R+2")
    assert sc[L.S_JUMP_INS] == 1 and sc.cur == 2 and sc[L.S_PENDING] == drawn
    sc.step()
    assert sc.count(2) == 2 + drawn and sc.cur == 3


def test_h2_all_mode_jumps_with_a_wild():
    sc = Scenario.build(hands(s0="W B9", s2="W Y1"), top="R3", jump_in="all")
    sc.play(0, "W")
    assert sc[L.S_JUMP_INS] == 1 and sc.cur == 3


# --------------------------------------------------------------------------- H3 draw until playable
def until_playable(**rules):
    """The config key ``draw`` clashes with Scenario.build's ``draw`` pile: pass a config."""
    return default_config(draw="until_playable", **rules)


def test_h3_draws_until_a_legal_card_shows_then_plays_it():
    sc = Scenario.build(hands(s0="B8 B9"), top="R3", draw="G1 G2 R9 Y4", cfg=until_playable())
    sc.step()
    assert sc.top == "R9" and sorted(sc.hand(0)) == ["B8", "B9", "G1", "G2"]
    assert sc[L.S_TURNS] == 1 and sc[L.S_DRAWN] == 3 and sc.cur == 1


def test_h3_ignores_play_drawn_never():
    sc = Scenario.build(hands(s0="B8 B9"), top="R3", draw="G1 R9", cfg=until_playable(play_drawn="never"))
    sc.step()
    assert sc.top == "R9"


def test_h3_nothing_left_to_draw_ends_in_a_pass():
    """R11 inside H3: the drawing stops only when nothing at all can be drawn."""
    sc = Scenario.build(hands(s0="B8 B9"), top="R3", draw="G1", cfg=until_playable())
    sc.step()
    assert sc.hand(0) == ["G1", "B8", "B9"] and sc.cur == 1 and sc[L.S_TURNS] == 1


# --------------------------------------------------------------------------- H4 seven-o
def test_h4_seven_swaps_hands_with_an_opponent():
    sc = Scenario.build({0: "R7 B8 B9", 1: "G1 G2"}, top="R3", players=2, seven_o=True)
    sc.play(0, "R7")
    assert sc.hand(0) == ["G1", "G2"] and sc.hand(1) == ["B8", "B9"] and sc[L.S_SWAPS] == 1
    assert sc.cur == 1


def test_h4_zero_passes_every_hand_in_the_direction_of_play():
    sc = Scenario.build(hands(s0="R0 B8 B9"), top="R3", seven_o=True)
    sc.play(0, "R0")
    assert sc.hand(1) == ["B8", "B9"] and sc.hand(2) == ["G1", "G2"]
    assert sc.hand(3) == ["Y1", "Y2"] and sc.hand(0) == ["B1", "B2"] and sc[L.S_PASSES] == 1


def test_h4_zero_passes_anticlockwise_after_a_reverse():
    sc = Scenario.build(hands(s0="R0 B8 B9"), top="R3", direction=-1, seven_o=True)
    sc.play(0, "R0")
    assert sc.hand(3) == ["B8", "B9"] and sc.hand(0) == ["G1", "G2"] and sc.cur == 3


def test_h4_a_seven_as_last_card_does_nothing():
    sc = Scenario.build({0: "R7", 1: "G1 G2"}, top="R3", players=2, seven_o=True)
    sc.play(0, "R7")
    assert sc.done and sc.winner == 0 and sc.hand(1) == ["G1", "G2"] and sc[L.S_SWAPS] == 0


# --------------------------------------------------------------------------- H5 red zero
def test_h5_draw10_next_player_draws_ten_and_loses_the_turn():
    sc = Scenario.build(hands(s0="R0 B9"), top="R3", draw=" ".join(["Y5"] * 10), red_zero="draw10")
    sc.play(0, "R0").step()
    assert sc.count(1) == 12 and sc.cur == 2


def test_h5_giveaway_opponent_takes_all_but_one():
    sc = Scenario.build({0: "R0 B7 B8 B9", 1: "G1"}, top="R3", players=2, red_zero="giveaway")
    sc.play(0, "R0")
    assert sc.count(0) == 1 and sc.count(1) == 3 and sc[L.S_GIVEAWAYS] == 1
    assert sorted(sc.hand(0) + sc.hand(1)) == ["B7", "B8", "B9", "G1"]


def test_h5_red_zero_scores_100_only_under_giveaway():
    give = to_params(default_config(red_zero="giveaway"))
    plain = to_params(default_config(red_zero="draw10"))
    assert give[slots.P_SCORE0 + cards.RED_ZERO] == 100 and plain[slots.P_SCORE0 + cards.RED_ZERO] == 0
    assert give[slots.P_SCORE0 + cards.kind(cards.BLUE, 0)] == 0


def test_h5_wins_over_h4_for_the_red_zero():
    sc = Scenario.build(hands(s0="R0 B9"), top="R3", draw=" ".join(["Y5"] * 10),
                        red_zero="draw10", seven_o=True)
    sc.play(0, "R0")
    assert sc[L.S_PASSES] == 0 and sc[L.S_PENDING] == 10


# --------------------------------------------------------------------------- H6 multi-play
def test_h6_effects_add_up_two_skips_skip_two_players():
    """B0 plays single cards (B0); the effect arithmetic is the engine's: N Skips skip N."""
    sc = Scenario.build(hands(s0="RS RS B9"), top="R3", multi_play="identical")
    k = cards.parse("RS")
    H.begin_turn(sc.st, sc.P, sc.rng, sc.log, 0)
    for _ in range(2):
        H.put_down(sc.st, sc.P, sc.rng, sc.log, 0, k, L.EV_PLAY)
    H.settle(sc.st, sc.P, sc.rng, sc.log, 0, k, 2)
    assert sc.cur == 3 and sc[L.S_PLAYED] == 2


def test_h6_two_draw_twos_make_four():
    sc = Scenario.build(hands(s0="R+2 G+2 B9"), top="R3", multi_play="same_rank")
    H.begin_turn(sc.st, sc.P, sc.rng, sc.log, 0)
    H.put_down(sc.st, sc.P, sc.rng, sc.log, 0, cards.parse("R+2"), L.EV_PLAY)
    H.put_down(sc.st, sc.P, sc.rng, sc.log, 0, cards.parse("G+2"), L.EV_PLAY)
    H.settle(sc.st, sc.P, sc.rng, sc.log, 0, cards.parse("G+2"), 2)
    assert sc[L.S_PENDING] == 4 and sc.cur == 1 and sc.color == "G"


def test_h6_even_reverses_keep_the_direction():
    sc = Scenario.build(hands(s0="RR RR B9"), top="R3", multi_play="identical")
    k = cards.parse("RR")
    H.begin_turn(sc.st, sc.P, sc.rng, sc.log, 0)
    for _ in range(2):
        H.put_down(sc.st, sc.P, sc.rng, sc.log, 0, k, L.EV_PLAY)
    H.settle(sc.st, sc.P, sc.rng, sc.log, 0, k, 2)
    assert sc[L.S_DIR] == 1 and sc.cur == 1


def test_h6_b0_plays_the_single_chosen_card():
    sc = Scenario.build(hands(s0="R5 R5 B9"), top="R3", multi_play="identical")
    sc.step()
    assert sc.count(0) == 2 and sc[L.S_PLAYED] == 1


# H6 with R8: a group of Wild Draw Fours put down in a turn is one play that may be challenged
GROUP = {"strategy": "random", "multi_rate": 1.0}                     # B0 that puts down all its W+4
BLUFF_GROUP = {"strategy": "random", "multi_rate": 1.0, "bluff_rate": 1.0}
CHALLENGER = {"strategy": "random", "challenge_rate": 1.0}
DRAWS = " ".join(["Y5", "Y6", "Y7", "Y8"] * 6)


def group_played(hand0: str, s0: dict = GROUP, seed: int = 12345, **rules: object) -> Scenario:
    """Seat 0 puts down both its W+4 on R3 in its turn; seat 1 challenges every W+4."""
    sc = Scenario.build({0: hand0, 1: "B8 B9", 2: "G8 G9", 3: "B1 B2"}, top="R3", draw=DRAWS, seed=seed,
                        seats=[s0, CHALLENGER, "random", "random"], multi_play="identical", **rules)
    sc.step()
    assert sc.top == "W+4" and sc[L.S_PENDING] == 8 and sc.count(0) == len(hand0.split()) - 2
    return sc


def test_h6_a_group_of_wild_draw4s_may_be_challenged_legal_costs_the_total_plus_two():
    """H6, R8: the group was legal (no red card held): the challenger draws the group's
    total (2 x 4) plus challenge_extra (2) and loses the turn."""
    sc = group_played("W+4 W+4 G1").step()
    assert sc[L.S_CHALLENGES] == 1 and sc.count(1) == 2 + 8 + 2 and sc.count(0) == 1 and sc.cur == 2
    assert [e[1:] for e in sc.events() if e[0] == L.EV_CHALLENGE] == [(1, 0, 0)]


def test_h6_a_legal_group_challenged_h18_challenge_extra():
    assert group_played("W+4 W+4 G1", challenge_extra=0).step().count(1) == 2 + 8


def test_h6_a_group_proven_a_bluff_the_player_draws_the_groups_total():
    """H6, R8: a bluff (a red card held): the player draws the group's total, the
    challenger draws nothing and takes the turn."""
    sc = group_played("W+4 W+4 R1 G1", s0=BLUFF_GROUP)
    assert sc[L.S_BLUFF] == 1
    sc.step()
    assert sc[L.S_CHALLENGES] == 1 and sc.count(0) == 2 + 8 and sc.count(1) == 2 and sc.cur == 1


@pytest.mark.parametrize("seed", range(12))
def test_h6_the_test_is_r8s_against_the_colour_before_the_group(seed: int):
    """H6: the test looks at the colour in force before the group's first card, whatever
    colours its cards named (a held G1 after a W+4 named green does not make it a bluff; a
    held R1 makes it one however the last card named)."""
    honest = group_played("W+4 W+4 G1", seed=seed)
    assert honest[L.S_BLUFF] == 0 and honest[L.S_PREV_COLOR] == 0 and honest[L.S_PREV_TOP] == cards.parse("R3")
    bluff = group_played("W+4 W+4 R1 G1", s0=BLUFF_GROUP, seed=seed)
    assert bluff[L.S_BLUFF] == 1 and bluff[L.S_PREV_COLOR] == 0


def test_h6_the_colour_test_is_not_made_against_the_groups_own_colours():
    """The seeds above include groups whose first card named green (against which the
    held G1 would have been a bluff) and whose last card named a colour other than red."""
    named = []
    for seed in range(12):
        plays = [e for e in group_played("W+4 W+4 G1", seed=seed).events() if e[0] == L.EV_PLAY]
        named.append((plays[0][3], plays[-1][3]))
    assert any(first == cards.COLOR_LETTERS.index("G") for first, _ in named)
    assert any(last != 0 for _, last in named)


def test_h6_h22_the_whole_group_is_taken_back_one_card_replaces_it():
    """H6 with H22: the proven bluffer takes both W+4 back, puts down one red card, and
    draws the group's total; only the replacement counts as played."""
    sc = group_played("W+4 W+4 R7 G5", s0=BLUFF_GROUP, bluff_penalty="take_back").step()
    assert sorted(sc.hand(0)) == sorted(["G5", "W+4", "W+4"] + ["Y5", "Y6", "Y7", "Y8"] * 2)
    assert sc.top == "R7" and sc.color == "R" and sc.discard_pile() == ["R3", "R7"]
    assert sc[L.S_PLAYED] == 1 and sc.count(1) == 2 and sc.cur == 1
    assert [e[3] for e in sc.events() if e[0] == L.EV_TAKE_BACK] == [2]


def test_h6_a_stacked_group_is_not_challenged():
    """H1: only a stacked group is exempt: seat 1 stacks its two W+4 on a Draw Two; seat 2,
    who challenges every W+4 it may, draws the total."""
    sc = Scenario.build({0: "R+2 B9", 1: "W+4 W+4 G1", 2: "G8 G9", 3: "B1 B2"}, top="R3", draw=DRAWS,
                        seats=["random", GROUP, CHALLENGER, "random"], multi_play="identical",
                        stacking="draw2_draw4")
    sc.play(0, "R+2").step()
    assert sc[L.S_PENDING] == 2 + 8 and sc.hand(1) == ["G1"]
    sc.step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(2) == 2 + 10 and sc.cur == 3


def test_h6_counter_weighs_a_group_against_the_colour_before_it():
    """The counter's bluff estimate for a group reads the colour in force before it."""
    from unosim.bots.counter import colour_before_draw4
    sc = group_played("W+4 W+4 G1")
    assert colour_before_draw4(sc.st) == 0


# --------------------------------------------------------------------------- H7 no wild as last card
def test_h7_a_lone_wild_may_not_be_played():
    sc = Scenario.build(hands(s0="W"), top="R3", draw="G5", wild_last=False)
    sc.step()
    assert sorted(sc.hand(0)) == ["G5", "W"] and sc.top == "R3" and sc.cur == 1


def test_h7_a_wild_with_another_card_may_be_played():
    sc = Scenario.build(hands(s0="W G9"), top="R3", wild_last=False)
    sc.step()
    assert sc.top == "W"


# --------------------------------------------------------------------------- H8 forced play
def test_h8_b0_with_a_legal_card_plays_it():
    sc = Scenario.build(hands(s0="R5 B9"), top="R3", draw="G1", voluntary_draw=False)
    sc.step()
    assert sc.top == "R5" and sc[L.S_DRAWN] == 0


# --------------------------------------------------------------------------- H10 slap
def test_h10_slowest_slapper_draws_two():
    sc = Scenario.build({0: "R9 B8", 1: "G1"}, top="R3", players=2, draw="Y5 Y6", slap_rank=9)
    sc.play(0, "R9")
    assert sc.count(1) == 3 and sc[L.S_SLAPS] == 1 and sc[L.S_DRAWN] == 2 and sc[L.S_TURNS] == 1


def test_h10_never_on_the_last_card():
    sc = Scenario.build({0: "R9", 1: "G1"}, top="R3", players=2, draw="Y5 Y6", slap_rank=9)
    sc.play(0, "R9")
    assert sc.done and sc[L.S_SLAPS] == 0


def test_h10_slapper_is_never_the_player_who_played():
    for seed in range(20):
        sc = Scenario.build(hands(s0="R9 B8"), top="R3", draw="Y5 Y6", slap_rank=9, seed=seed)
        sc.play(0, "R9")
        assert sc.count(0) == 1 and sum(sc.count(s) for s in (1, 2, 3)) == 8


# --------------------------------------------------------------------------- H11 silence
def test_h11_noise_breaks_the_silence_and_costs_two():
    sc = Scenario.build({0: "R6 B8", 1: "G1 R1"}, top="R3", players=2, draw="Y5 Y6 Y7",
                        silent_rank=6, noise_chance=1.0)
    sc.play(0, "R6")
    assert sc[L.S_SILENT] == 0
    sc.step()  # seat 1's turn begins: someone other than seat 1 (only seat 0) makes a sound
    assert sc[L.S_NOISES] == 1 and sc.count(0) == 3 and sc[L.S_SILENT] == -1


def test_h11_silence_lifts_on_the_keepers_next_turn():
    sc = Scenario.build({0: "R6 B8 R8", 1: "G1 R1 G2"}, top="R3", players=2, silent_rank=6, noise_chance=0.0)
    sc.play(0, "R6").step()
    assert sc[L.S_SILENT] == 0
    sc.step()  # seat 0's next turn: the silence lifts with no sound
    assert sc[L.S_SILENT] == -1 and sc[L.S_NOISES] == 0


def test_h11_the_keepers_own_turn_makes_no_noise_check():
    """H11: the silence lifts when the keeper's next turn begins, and that turn has no sound:
    no noise check is made then, even at noise_chance = 1."""
    sc = Scenario.build({0: "B8 R8 G9", 1: "G1 R1 G2"}, top="R3", players=2, draw="Y5 Y6 Y7",
                        silent_rank=6, noise_chance=1.0)
    sc.st[L.S_SILENT] = 0  # seat 0 keeps a silence and its turn is next (it plays R8, no 6)
    sc.step()
    assert sc[L.S_SILENT] == -1 and sc[L.S_NOISES] == 0 and sc.count(1) == 3


def test_h11_any_other_turn_makes_the_check():
    """H11: as a non-keeper's turn begins the check is made (noise_chance = 1: always a sound),
    and the keeper may be the one who makes it."""
    sc = Scenario.build({0: "R6 B8 R8", 1: "G1 R1 G2"}, top="R3", players=2, draw="Y5 Y6 Y7",
                        silent_rank=6, noise_chance=1.0, cur=1)
    sc.st[L.S_SILENT] = 0
    sc.step()
    assert sc[L.S_NOISES] == 1 and sc.count(0) == 5 and sc[L.S_SILENT] == -1


# --------------------------------------------------------------------------- H12 teams
def test_h12_opponent_is_on_the_other_team():
    for seed in range(30):
        sc = Scenario.build(hands(s0="R7 B8 B9"), top="R3", teams=2, seven_o=True, seed=seed)
        before = {s: sc.hand(s) for s in range(4)}
        sc.play(0, "R7")
        partner_kept = sc.hand(2) == before[2]
        assert partner_kept and sc.hand(0) in (before[1], before[3])


def test_h12_winning_team_recorded():
    from unosim.engine.batch import new_out, play_hands
    P = to_params(default_config(teams=2))
    out = new_out(200)
    play_hands(P, 3, 0, 200, out, 2)
    won = out[:, L.O_WINNER] >= 0
    assert (out[won, L.O_WIN_TEAM] == out[won, L.O_WINNER] % 2).all()


# --------------------------------------------------------------------------- H13 last standing
def test_h13_player_out_leaves_and_the_hand_goes_on():
    sc = Scenario.build({0: "R5", 1: "G1 G2", 2: "Y1 Y2"}, top="R3", players=3, finish="last_standing")
    sc.play(0, "R5")
    assert not sc.done and sc.winner == 0 and sc[L.S_RANK0] == 1 and sc.cur == 1
    assert sc[L.S_IN] == 2


def test_h13_out_seats_are_passed_over_and_last_card_acts():
    sc = Scenario.build({0: "RS", 1: "G1 G2", 2: "Y1 Y2 Y3"}, top="R3", players=3, finish="last_standing")
    sc.play(0, "RS")  # seat 0 leaves; its Skip still skips seat 1
    assert sc.cur == 2


def test_h13_last_two_rank_and_r12_penalty():
    sc = Scenario.build({0: "", 1: "R+2", 2: "Y1 Y2"}, top="R3", players=3, cur=1,
                        draw="G7 G8", finish="last_standing")
    sc.st[L.S_RANK0 + 0] = 1
    sc.st[L.S_IN] = 2
    sc.st[L.S_WINNER] = 0
    sc.play(1, "R+2")
    assert sc.done and [sc[L.S_RANK0 + s] for s in range(3)] == [1, 2, 3] and sc.count(2) == 4


# --------------------------------------------------------------------------- H14 two-player reverse
@pytest.mark.parametrize("mode, nxt", [("skip", 0), ("none", 1)])
def test_h14_two_player_reverse(mode, nxt):
    sc = Scenario.build({0: "RR B9", 1: "G1 G2"}, top="R3", players=2, two_player_reverse=mode)
    sc.play(0, "RR")
    assert sc.cur == nxt


# --------------------------------------------------------------------------- H15, H16 first card
def _first_card(seed: int, **rules):
    return first_turn(default_config(**rules), seed)


def test_h16_number_only_first_card():
    for seed in range(200):
        st = _first_card(seed, first_card="number_only")
        top = int(st[L.S_TOP])
        assert top < cards.WILD and cards.rank_of(top) <= 9


def test_h15_first_draw_two_draw_then_play():
    seen = 0
    for seed in range(400):
        st = _first_card(seed, first_draw2_skips=False)
        if cards.rank_of(int(st[L.S_TOP])) == cards.DRAW2:
            seen += 1
            assert st[L.S_CUR] == 1 and st[L.S_HS0 + 1] == 9
    assert seen > 0


# --------------------------------------------------------------------------- H17, H18 amounts
def test_h17_zero_points():
    P = to_params(default_config(zero_points=10))
    assert P[slots.P_SCORE0 + cards.kind(cards.GREEN, 0)] == 10


def test_h18_amounts():
    sc = Scenario.build(hands(s0="R+2 B9"), top="R3", draw="Y5 Y6 Y7", draw2_amount=3)
    sc.play(0, "R+2").step()
    assert sc.count(1) == 5 and sc.cur == 2
