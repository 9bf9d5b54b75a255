"""One scenario per sentence of the table variants H20-H24 and of B0's two rates
(docs/rules.md): a built position, one action through the real kernel, the exact outcome."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine import hand as H
from unosim.engine.setup import richest_seat
from unosim.kernel import layout as L
from unosim.kernel.piles import build_deck
from unosim.kernel.table import hand_points
from unosim.rules import cards
from unosim.rules import params as slots
from unosim.rules.config import ConfigError, default_config, parse_config, to_params
from unosim.scenario import Scenario, first_turn

CHALLENGER = {"strategy": "random", "challenge_rate": 1.0}  # B0 that challenges every Wild Draw Four


def seats(n: int = 4, **special: object) -> list:
    out: list = ["random"] * n
    for key, bot in special.items():
        out[int(key[1:])] = bot
    return out


def events_of(sc: Scenario, ev: int) -> list[tuple[int, int, int, int]]:
    return [e for e in sc.events() if e[0] == ev]


def kinds_of(sc: Scenario) -> list[int]:
    return [e[0] for e in sc.events()]


# =========================================================================== H20 decks = "auto"
@pytest.mark.parametrize("players, decks", [(2, 1), (4, 1), (5, 2), (10, 2)])
def test_h20_auto_is_one_deck_to_four_players_two_from_five(players: int, decks: int) -> None:
    cfg = default_config(players=players, decks="auto")
    assert cfg.deck_count == decks and to_params(cfg)[slots.P_DECKS] == decks


def test_h20_the_config_records_what_auto_became() -> None:
    cfg = default_config(players=6, decks="auto")
    text = cfg.to_toml()
    assert 'decks = "auto"' in text and 'became 2 for 6 players' in text
    import tomllib
    again = parse_config(tomllib.loads(text))
    assert again == cfg and again.deck_count == 2
    assert cfg.replace(players=4).deck_count == 1  # a sweep changing players re-resolves it


def test_h20_a_six_player_auto_hand_holds_216_cards() -> None:
    P = to_params(default_config(players=6, decks="auto"))
    st = np.zeros(L.N_STATE, np.int64)
    H.reset(st, P, 0)
    build_deck(st, P)
    assert st[L.S_TOTAL] == 216


@pytest.mark.parametrize("value", ["three", 3, 0, True, 1.5])
def test_h20_other_values_are_refused_naming_the_key(value) -> None:
    with pytest.raises(ConfigError, match=r'table\.decks.*"auto" or 1-2'):
        default_config(decks=value)


def test_h20_the_deal_limit_counts_the_decks_auto_gives() -> None:
    default_config(players=5, hand_size=21, decks="auto")  # 105 of 216 cards
    with pytest.raises(ConfigError, match="table.hand_size"):
        default_config(players=4, hand_size=27, decks="auto")  # 108 of 108


# =========================================================================== H21 first player
def first_card(seed: int, players: int = 4, dealer: int = 0, **rules) -> np.ndarray:
    """A hand dealt and its first card turned, as play_hand starts it."""
    return first_turn(default_config(players=players, **rules), seed, dealer)


def richest(st: np.ndarray, P: np.ndarray, n: int, dealer: int) -> int:
    """H21 by hand: the most points after the deal, ties to the first in play order."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    pts = {s: int(hand_points(st, P, s)) for s in order}
    return max(order, key=lambda s: (pts[s], -order.index(s)))


def test_h21_the_richest_hand_takes_the_first_turn_and_the_turned_card_acts_on_it() -> None:
    """H21: the richest hand plays first; the turned card acts on that player as R3 says for
    "the first player" (Skip: skipped; Draw Two: draws 2 and loses the turn; Reverse: the
    direction becomes anticlockwise and that player still plays first); the dealer stays."""
    P = to_params(default_config(first_player="highest_points"))
    seen = set()
    for seed in range(300):
        dealer = seed % 4
        st = first_card(seed, dealer=dealer, first_player="highest_points")
        top = int(st[L.S_TOP])
        rank = cards.rank_of(top) if top < cards.WILD else -1
        if rank == cards.DRAW2:  # the first player's 2 penalty cards changed its hand: undo to compare
            continue
        first = richest(st, P, 4, dealer)
        assert int(richest_seat(st, P)) == first and st[L.S_DEALER] == dealer
        if rank == cards.SKIP:
            assert st[L.S_CUR] == (first + 1) % 4 and st[L.S_DIR] == 1
        elif rank == cards.REVERSE:
            assert st[L.S_CUR] == first and st[L.S_DIR] == -1
        else:
            assert st[L.S_CUR] == first and st[L.S_DIR] == 1
        assert st[L.S_FIRST] == st[L.S_CUR]
        seen.add(rank if rank in (cards.SKIP, cards.REVERSE) else 0)
    assert seen == {0, cards.SKIP, cards.REVERSE}


def test_h21_a_turned_draw_two_hits_the_richest_hand() -> None:
    hit = 0
    for seed in range(300):
        base = first_card(seed, first_player="after_dealer")
        if cards.rank_of(int(base[L.S_TOP])) != cards.DRAW2 or base[L.S_TOP] >= cards.WILD:
            continue
        st = first_card(seed, first_player="highest_points")
        victims = [s for s in range(4) if st[L.S_HS0 + s] == 9]
        assert len(victims) == 1 and st[L.S_CUR] == (victims[0] + 1) % 4
        hit += 1
    assert hit > 0


def test_h21_ties_go_to_the_first_in_play_order_after_the_dealer() -> None:
    sc = Scenario.build({0: "R9 G1", 1: "B5", 2: "Y4 Y6", 3: "G2 G8"}, top="R3", dealer=2,
                        first_player="highest_points")
    # seats 0, 2 and 3 hold 10 points; play order after dealer 2 is 3, 0, 1, 2
    assert richest_seat(sc.st, sc.P) == 3
    sc.st[L.S_DEALER] = 3
    assert richest_seat(sc.st, sc.P) == 0


def test_h21_counts_zero_points_and_the_giveaway_red_zero() -> None:
    """H21 uses the scoring table: zero_points (H17) and the 100-point giveaway red 0 (H5)."""
    hands = {0: "G9", 1: "R0", 2: "Y0", 3: "B1"}
    sc = Scenario.build(hands, top="R3", first_player="highest_points")
    assert richest_seat(sc.st, sc.P) == 0
    sc = Scenario.build(hands, top="R3", first_player="highest_points", zero_points=10)
    assert richest_seat(sc.st, sc.P) == 1  # R0 and Y0 are worth 10; seat 1 comes first
    sc = Scenario.build(hands, top="R3", first_player="highest_points", red_zero="giveaway")
    assert richest_seat(sc.st, sc.P) == 1


def test_h21_default_is_the_seat_after_the_dealer() -> None:
    for seed in range(50):
        st = first_card(seed, dealer=2)
        top = int(st[L.S_TOP])
        if top >= cards.WILD or cards.rank_of(top) not in (cards.SKIP, cards.REVERSE, cards.DRAW2):
            assert st[L.S_CUR] == 3


# =========================================================================== H22 take-back
def take_back(hand0: str, **rules) -> Scenario:
    sc = Scenario.build({0: hand0, 1: "Y8 Y9", 2: "B1 B2", 3: "G8 G9"}, top="R5", draw="G1 G2 G3 G4 G6 G7",
                        seats=seats(s1=CHALLENGER, **rules.pop("bots", {})), bluff_penalty="take_back", **rules)
    sc.play(0, "W+4")
    assert sc[L.S_BLUFF] == 1
    return sc.step()  # seat 1 challenges: the bluff is proven


def test_h22_the_bluffer_takes_it_back_plays_the_colour_and_draws_four() -> None:
    """H22: the proven bluffer takes the W+4 back, puts down a card of the colour in force
    before it, then draws draw4_amount; the challenger draws nothing and takes the turn."""
    sc = take_back("W+4 R7 G5")
    assert sc[L.S_CHALLENGES] == 1 and events_of(sc, L.EV_CHALLENGE) == [(L.EV_CHALLENGE, 1, 0, 1)]
    assert sorted(sc.hand(0)) == ["G1", "G2", "G3", "G4", "G5", "W+4"]
    assert sc.hand(1) == ["Y8", "Y9"] and sc.top == "R7" and sc.color == "R" and sc.cur == 1
    assert sc.discard_pile() == ["R5", "R7"] and sc[L.S_PENDING] == 0 and sc[L.S_PENDING_KIND] == -1
    order = kinds_of(sc)
    assert order.index(L.EV_TAKE_BACK) < order.index(L.EV_PLAY, order.index(L.EV_TAKE_BACK))


def test_h22_counts_the_replacement_not_the_wild_draw4_and_is_no_new_turn() -> None:
    sc = take_back("W+4 R7 G5")
    assert sc[L.S_PLAYED] == 1 and sc[L.S_TURNS] == 1 and sc[L.S_DRAWN] == 4


def test_h22_h18_draws_draw4_amount() -> None:
    assert take_back("W+4 R7 G5", draw4_amount=2).count(0) == 2 + 2


@pytest.mark.parametrize("card, cur, pending", [("RS", 2, 0), ("R+2", 1, 2), ("RR", 3, 0)])
def test_h22_the_replacement_acts_as_the_bluffers_card(card: str, cur: int, pending: int) -> None:
    """R9 effects of the replacement: a Skip skips the challenger, a Draw Two makes it face 2,
    a Reverse turns play back to seat 3."""
    sc = take_back(f"W+4 {card} G5")
    assert sc.top == card and sc.cur == cur and sc[L.S_PENDING] == pending


def test_h22_h9_does_not_apply() -> None:
    assert take_back("W+4 R7 G5", challenge_success_skip=True).cur == 1


def test_h22_the_jump_in_window_opens_on_the_replacement() -> None:
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "R7 B2", 3: "G8 G9"}, top="R5", draw="G1 G2 G3 G4 G6",
                        seats=seats(s1=CHALLENGER), bluff_penalty="take_back", jump_in="numbers")
    sc.play(0, "W+4").step()
    assert sc[L.S_JUMP_INS] == 1 and sc.hand(2) == ["B2"] and sc.cur == 3


@pytest.mark.parametrize("rule, slot", [({"slap_rank": 7}, L.S_SLAPS), ({"silent_rank": 7}, L.S_SILENT)])
def test_h22_slap_and_silence_act_on_the_replacement(rule: dict, slot: int) -> None:
    sc = take_back("W+4 R7 G5", **rule)
    assert sc[slot] == (0 if slot == L.S_SILENT else 1)


def test_h22_r10_and_h23_do_not_apply_to_the_replacement() -> None:
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6 G7 G8 G9",
                        seats=seats(s1=CHALLENGER), bluff_penalty="take_back", uno_false_call=1.0)
    sc.play(0, "W+4")
    calls = sc[L.S_FALSE_CALLS]
    assert calls == 1  # the W+4 itself left 2 cards: a wrong call (H23)
    sc.step()
    assert sc[L.S_FALSE_CALLS] == calls and not events_of(sc, L.EV_UNO)


def test_h22_b0_picks_uniformly_among_its_cards_of_that_colour() -> None:
    picked = {}
    for seed in range(200):
        sc = Scenario.build({0: "W+4 R7 R7 R3 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6",
                            seats=seats(s1=CHALLENGER), bluff_penalty="take_back", seed=seed)
        sc.play(0, "W+4").step()
        picked[sc.top] = picked.get(sc.top, 0) + 1
    assert set(picked) == {"R3", "R7"} and 40 < picked["R3"] < 95  # 1/3 of 200 = 67, sd 6.7


def test_h22_other_strategies_pick_by_their_own_scoring() -> None:
    """greedy sheds the most points: of R7 and the Skip (20 points) it puts down the Skip."""
    sc = take_back("W+4 R7 RS G5", bots={"s0": "greedy"})
    assert sc.top == "RS"


def test_h22_default_draw_keeps_r8() -> None:
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6",
                        seats=seats(s1=CHALLENGER))
    sc.play(0, "W+4").step()
    assert sc.top == "W+4" and sc.count(0) == 6 and not events_of(sc, L.EV_TAKE_BACK)


# =========================================================================== H23 false UNO calls
def test_h23_a_wrong_call_after_a_play_leaving_two_costs_two_at_once() -> None:
    """H23: after a play that leaves 2+ cards, always caught: draws 2 right after the play,
    before the card's effect; counted in false_calls and cards_drawn."""
    sc = Scenario.build({0: "RS R6 R7", 1: "G1 G2"}, top="R3", draw="Y1 Y2 Y3", uno_false_call=1.0)
    sc.play(0, "RS")
    assert sc[L.S_FALSE_CALLS] == 1 and sc.count(0) == 4 and sc[L.S_DRAWN] == 2
    order = kinds_of(sc)
    assert order.index(L.EV_FALSE_CALL) < order.index(L.EV_SKIPPED)
    assert events_of(sc, L.EV_PENALTY) == [(L.EV_PENALTY, 0, 2, L.DR_FALSE_CALL)]


def test_h23_leaving_one_card_is_the_r10_call_not_a_wrong_one() -> None:
    sc = Scenario.build({0: "R6 R7", 1: "G1 G2"}, top="R3", draw="Y1 Y2 Y3", uno_false_call=1.0)
    sc.play(0, "R6")
    assert sc[L.S_FALSE_CALLS] == 0 and events_of(sc, L.EV_UNO) == [(L.EV_UNO, 0, 0, 0)]


def test_h23_a_jump_in_is_a_play_too() -> None:
    sc = Scenario.build({0: "R6 B9 B8", 1: "G1 G2", 2: "R6 Y1 Y2"}, top="R3", draw="Y3 Y4 Y5 Y6",
                        jump_in="numbers", uno_false_call=1.0)
    sc.play(0, "R6")
    assert sc[L.S_JUMP_INS] == 1 and sc[L.S_FALSE_CALLS] == 2 and sc.count(2) == 4


def test_h23_off_draws_no_random_number() -> None:
    sc = Scenario.build({0: "R6 R7 R8", 1: "G1 G2"}, top="R3", draw="Y1 Y2 Y3")
    before = sc.rng.copy()
    sc.play(0, "R6")
    assert sc.rng[0] == before[0] and sc[L.S_FALSE_CALLS] == 0


# =========================================================================== H24 misplays
def test_h24_a_misplay_costs_one_card_then_the_turn_goes_on() -> None:
    """H24: holding a card that is not legal, the player puts one down by mistake, takes it
    back and draws 1; then plays as usual (here the penalty card, legal, as any card)."""
    sc = Scenario.build({0: "G7 G8", 1: "B1 B2"}, top="R3", draw="R9 Y1", misplay=1.0)
    sc.step()
    assert sc[L.S_MISPLAYS] == 1 and sc[L.S_DRAWN] == 1 and sc.top == "R9" and sc.hand(0) == ["G7", "G8"]
    assert sc[L.S_TURNS] == 1 and sc[L.S_PLAYED] == 1 and sc.cur == 1
    assert events_of(sc, L.EV_PENALTY) == [(L.EV_PENALTY, 0, 1, L.DR_MISPLAY)]


def test_h24_the_penalty_card_is_not_the_r6_drawn_card() -> None:
    """After a misplay the player may still draw under R6: nothing legal, it draws one."""
    sc = Scenario.build({0: "G7 G8", 1: "B1 B2"}, top="R3", draw="Y1 R9", misplay=1.0)
    sc.step()
    assert sc[L.S_MISPLAYS] == 1 and sc[L.S_DRAWN] == 2 and sc.top == "R9" and sc.count(0) == 3


def test_h24_comes_after_the_h11_check() -> None:
    sc = Scenario.build({0: "R6 B8", 1: "G1 R1"}, top="R3", players=2, draw="Y5 Y6 Y7 Y8",
                        silent_rank=6, noise_chance=1.0, misplay=1.0)
    sc.play(0, "R6").step()
    order = kinds_of(sc)
    assert order.index(L.EV_NOISE) < order.index(L.EV_MISPLAY)


def test_h24_every_card_legal_no_misplay_and_no_random_number() -> None:
    sc = Scenario.build({0: "R5 R6", 1: "G1 G2"}, top="R3", draw="Y1", misplay=1.0)
    rng = sc.rng.copy()
    H.begin_turn(sc.st, sc.P, sc.rng, sc.log, 0)
    from unosim.families.calls import misplay
    misplay(sc.st, sc.P, sc.rng, sc.log, 0)
    assert sc[L.S_MISPLAYS] == 0 and sc.rng[0] == rng[0]


def test_h24_a_wild_draw4_held_with_the_colour_is_not_legal() -> None:
    sc = Scenario.build({0: "W+4 R5", 1: "G1 G2"}, top="R3", draw="Y1", misplay=1.0)
    sc.step()
    assert sc[L.S_MISPLAYS] == 1


def test_h24_not_on_a_stack_or_a_jump_in() -> None:
    sc = Scenario.build({0: "R+2 B9", 1: "G+2 Y7 Y8", 2: "B1 B2", 3: "Y1 Y2"}, top="R3", draw="B3 B4 B5 B6",
                        stacking="draw2", misplay=1.0)
    sc.play(0, "R+2").step()  # seat 1 stacks
    assert sc.top == "G+2" and sc[L.S_MISPLAYS] == 0
    sc = Scenario.build({0: "R6 B9 B8", 1: "G1 G2", 2: "R6 Y1 Y2"}, top="R3", draw="Y3 Y4",
                        jump_in="numbers", misplay=1.0)
    sc.play(0, "R6")
    assert sc[L.S_JUMP_INS] == 1 and sc[L.S_MISPLAYS] == 0


# =========================================================================== B0 bluff_rate, challenge_rate
def test_b0_bluff_rate_one_bluffs_at_a_normal_turn() -> None:
    sc = Scenario.build({0: "W+4 R7", 1: "G1 G2"}, top="R5", draw="Y1 Y2 Y3 Y4",
                        seats=seats(s0={"strategy": "random", "bluff_rate": 1.0}))
    sc.step()
    assert sc.top == "W+4" and sc[L.S_BLUFF] == 1


def test_b0_bluffs_only_where_r8_forbids_the_wild_draw4() -> None:
    sc = Scenario.build({0: "W+4 G7", 1: "G1 G2"}, top="R5", draw="Y1 Y2 Y3 Y4",
                        seats=seats(s0={"strategy": "random", "bluff_rate": 1.0}))
    sc.step()  # no red: the W+4 is legal, and B0 picks uniformly among... only the W+4
    assert sc.top == "W+4" and sc[L.S_BLUFF] == 0


def test_b0_challenge_rate_one_challenges() -> None:
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6",
                        seats=seats(s1=CHALLENGER))
    sc.play(0, "W+4").step()
    assert sc[L.S_CHALLENGES] == 1 and sc.count(0) == 6 and sc.cur == 1


def test_b0_rates_zero_are_b0_row_for_row() -> None:
    """Defaults 0: B0 unchanged (the golden rows of every B0 config kept their values when the
    rates came in), and no random number drawn for either rate."""
    plain = default_config(players=3)
    zero = plain.replace(seats={"strategy": "random", "bluff_rate": 0.0, "challenge_rate": 0.0})
    assert zero == plain and plain.to_dict()["bots"]["seats"] == "random"
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6")
    sc.play(0, "W+4")
    rng = sc.rng.copy()
    sc.step()  # seat 1 (B0, challenge_rate 0) draws the 4 without a challenge and without a random number
    assert sc[L.S_CHALLENGES] == 0 and sc.count(1) == 6 and sc.rng[0] == rng[0]


@pytest.mark.parametrize("value", [-0.1, 1.5, "often"])
def test_b0_rates_are_checked(value) -> None:
    with pytest.raises(ConfigError, match="bluff_rate"):
        default_config(seats={"strategy": "random", "bluff_rate": value})
