"""House-rule sentences of docs/rules.md that tests/scenario/test_house_rules.py had no scenario for,
found by re-reading H1-H13 sentence by sentence against the engine: one built position
each, through the real kernel, with the exact outcome."""

from __future__ import annotations


from unosim.kernel import layout as L
from unosim.rules.config import default_config
from unosim.scenario import Scenario, first_turn

CHALLENGER = {"strategy": "random", "challenge_rate": 1.0}


def seats(n: int = 4, **special: object) -> list:
    out: list = ["random"] * n
    for key, bot in special.items():
        out[int(key[1:])] = bot
    return out


# --------------------------------------------------------------------------- H1
def test_h1_a_stacked_wild_draw4_is_not_bound_by_r8_and_cannot_be_challenged() -> None:
    """H1: seat 1 holds red yet stacks its W+4 on the Draw Two; seat 2 would challenge
    any W+4 but may not challenge a stacked one: it draws the total, 2 + 4."""
    sc = Scenario.build({0: "R+2 B9", 1: "W+4 R9", 2: "G1 G2", 3: "Y1 Y2"}, top="R3",
                        draw="B1 B2 B3 B4 B5 B6 B7", stacking="draw2_draw4", seats=seats(s2=CHALLENGER))
    sc.play(0, "R+2").step()
    assert sc.top == "W+4" and sc[L.S_PENDING] == 6
    sc.step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(2) == 8 and sc.cur == 3


def test_h1_stacking_is_a_turn_drawing_the_total_is_not() -> None:
    sc = Scenario.build({0: "R+2 B9", 1: "G+2 G1", 2: "Y7 Y8", 3: "B1 B2"}, top="R3",
                        draw="B3 B4 B5 B6", stacking="draw2")
    sc.play(0, "R+2")
    assert sc[L.S_TURNS] == 1
    sc.step()  # seat 1 stacks: a turn
    assert sc[L.S_TURNS] == 2
    sc.step()  # seat 2 cannot stack: draws 4 and loses the turn, no turn taken
    assert sc[L.S_TURNS] == 2 and sc.count(2) == 6 and sc.cur == 3


# --------------------------------------------------------------------------- H2
def test_h2_jumps_chain_and_each_jump_is_a_turn() -> None:
    """Seat 2 jumps on seat 0's R6; seat 1 (no longer the one to act next) jumps on seat
    2's; play continues from the last jumper."""
    sc = Scenario.build({0: "R6 B9", 1: "R6 G1 G2", 2: "R6 Y1 Y2", 3: "B1 B2"}, top="R3",
                        jump_in="numbers")
    sc.play(0, "R6")
    assert sc[L.S_JUMP_INS] == 2 and sc[L.S_TURNS] == 3 and sc.cur == 2
    assert sc.hand(1) == ["G1", "G2"] and sc.hand(2) == ["Y1", "Y2"]


def test_h2_one_of_several_willing_jumpers_uniformly() -> None:
    jumpers = {2: 0, 3: 0}
    for seed in range(200):
        sc = Scenario.build({0: "R6 B9", 1: "G1 G2", 2: "R6 Y1", 3: "R6 B1"}, top="R3", jump_in="numbers",
                            seed=seed)
        sc.play(0, "R6")
        jumps = [e for e in sc.events() if e[0] == L.EV_JUMP]
        jumpers[jumps[0][1]] += 1
    assert 70 < jumpers[2] < 130  # 100 expected, sd 7


def test_h2_the_victim_of_a_draw_card_may_jump_and_r8_binds_a_jumped_wild_draw4() -> None:
    """H2 "all": without stacking the victim of a W+4 may jump in (it is not the one to act
    next); a jumped W+4 must be legal under R8: seat 1 holds every colour, so it never
    jumps, and seat 3, holding only wilds, always may."""
    for seed in range(20):
        sc = Scenario.build({0: "W+4 G1 G2", 1: "W+4 R1 Y1 G3 B1", 2: "B8 B9", 3: "W+4 W"}, top="R5",
                            draw="Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9", jump_in="all", seed=seed)
        sc.play(0, "W+4")
        jumps = [e for e in sc.events() if e[0] == L.EV_JUMP]
        assert [j[1] for j in jumps] == [3]
    sc = Scenario.build({0: "W+4 G1 G2", 1: "W+4 W", 2: "B8 B9", 3: "G8 G9"}, top="R5",
                        draw="Y2 Y3 Y4 Y5", jump_in="all")
    sc.play(0, "W+4")
    assert [e[1] for e in sc.events() if e[0] == L.EV_JUMP] == [1]


# --------------------------------------------------------------------------- H3
def test_h3_r11_refills_the_pile_during_the_drawing_and_it_is_one_turn() -> None:
    # (the rule key "draw" and Scenario's draw pile share a name: the config is built first)
    cfg = default_config(draw="until_playable")
    sc = Scenario.build({0: "G7 G8", 1: "B1 B2"}, top="R3", draw="Y1", discard="R9 R8", cfg=cfg)
    sc.step()
    assert sc[L.S_RESHUFFLES] == 1 and sc[L.S_TURNS] == 1 and sc.top in ("R8", "R9")
    assert sc[L.S_DRAWN] == 2 and sorted(sc.hand(0)) == ["G7", "G8", "Y1"] and sc.cur == 1


# --------------------------------------------------------------------------- H5
def test_h5_given_cards_are_not_drawn_and_the_kept_card_is_uniform() -> None:
    kept = {}
    for seed in range(150):
        sc = Scenario.build({0: "R0 B8 G9 Y1", 1: "G1 G2", 2: "Y3 Y4", 3: "B1 B2"}, top="R3",
                            red_zero="giveaway", seed=seed)
        sc.play(0, "R0")
        assert sc[L.S_DRAWN] == 0 and sc.count(0) == 1 and sc[L.S_GIVEAWAYS] == 1
        kept[sc.hand(0)[0]] = kept.get(sc.hand(0)[0], 0) + 1
    assert set(kept) == {"B8", "G9", "Y1"} and min(kept.values()) > 25  # 50 expected, sd 5.8


# --------------------------------------------------------------------------- H7
def test_h7_a_lone_wild_draw4_may_not_be_stacked() -> None:
    sc = Scenario.build({0: "R+2 B9", 1: "W+4", 2: "Y7 Y8", 3: "B1 B2"}, top="R3", draw="G1 G2 G3",
                        stacking="draw2_draw4", wild_last=False)
    sc.play(0, "R+2").step()
    assert sc.count(1) == 3 and sc.top == "R+2" and sc.cur == 2


# --------------------------------------------------------------------------- H10, H11
def test_h10_only_the_last_card_of_a_jump_chain_slaps() -> None:
    sc = Scenario.build({0: "R6 B9", 1: "G1 G2", 2: "R6 Y1 Y2", 3: "B1 B2"}, top="R3",
                        draw="G3 G4 G5 G6", jump_in="numbers", slap_rank=6)
    sc.play(0, "R6")
    assert sc[L.S_JUMP_INS] == 1 and sc[L.S_SLAPS] == 1


def test_h10_the_slap_comes_after_the_caught_uno_draw() -> None:
    sc = Scenario.build({0: "R6 B9", 1: "G1 G2", 2: "Y1 Y2", 3: "B1 B2"}, top="R3",
                        draw="G3 G4 G5 G6", slap_rank=6, uno_forget=1.0, uno_caught=1.0)
    sc.play(0, "R6")
    order = [e[0] for e in sc.events()]
    assert order.index(L.EV_UNO) < order.index(L.EV_SLAP)


def test_h10_h11_never_on_the_turned_card() -> None:
    cfg = default_config(slap_rank=5, silent_rank=5)
    for seed in range(150):
        st = first_turn(cfg, seed)
        assert st[L.S_SLAPS] == 0 and st[L.S_SILENT] == -1


def test_h11_another_silent_card_restarts_the_silence_with_its_player() -> None:
    sc = Scenario.build({0: "R6 B8", 1: "G6 G1 G2", 2: "Y1 Y2"}, top="R3", players=3,
                        silent_rank=6, noise_chance=0.0)
    sc.play(0, "R6")
    assert sc[L.S_SILENT] == 0
    sc.play(1, "G6")
    assert sc[L.S_SILENT] == 1


def test_h11_h10_a_card_that_ends_the_hand_starts_nothing() -> None:
    sc = Scenario.build({0: "R6", 1: "G1 G2", 2: "Y1 Y2"}, top="R3", players=3, draw="B1 B2",
                        silent_rank=6, slap_rank=6)
    sc.play(0, "R6")
    assert sc.done and sc[L.S_SILENT] == -1 and sc[L.S_SLAPS] == 0


# --------------------------------------------------------------------------- H13
def test_h13_a_seven_going_out_swaps_nothing() -> None:
    sc = Scenario.build({0: "R7", 1: "G1 G2", 2: "Y1 Y2 Y3"}, top="R3", players=3,
                        finish="last_standing", seven_o=True)
    sc.play(0, "R7")
    assert sc[L.S_SWAPS] == 0 and sc.hand(1) == ["G1", "G2"] and sc.cur == 1 and not sc.done


def test_h13_two_players_still_in_make_a_reverse_a_skip() -> None:
    sc = Scenario.build({0: "", 1: "RR G1 G2", 2: "Y1 Y2"}, top="R3", players=3, cur=1,
                        finish="last_standing")
    sc.st[L.S_RANK0] = 1
    sc.st[L.S_IN] = 2
    sc.play(1, "RR")
    assert sc.cur == 1 and sc[L.S_DIR] == 1  # seat 2 skipped; seat 0 is out and passed over
