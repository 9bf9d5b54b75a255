"""The invariant harness (tests/harness.py) over every house-rule switch and mode
(H1-H24) and over random combinations of them, official variants included."""

from __future__ import annotations

import hypothesis.strategies as hs
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings

from harness import check_config, key_values
from test_invariants import official_configs
from unosim.rules.config import REGISTRY, ConfigError, default_config
from unosim.rules.validate import check_value
from unosim.kernel import layout as L
from unosim.rules import cards

# B0 with its two rates on (docs/rules.md B0): bluffs and challenges happen, so H9, H18
# challenge_extra and H22 are exercised with the reference bot.
BLUFFING_B0 = {"strategy": "random", "bluff_rate": 0.5, "challenge_rate": 0.5}
MULTI_B0 = {"strategy": "random", "multi_rate": 0.5, "bluff_rate": 0.2}  # H6 groups in turn and on stacks (H1, H25)

SWITCHES: dict[str, dict] = {
    **{f"H1_stacking_{m}": {"stacking": m} for m in ("draw2", "draw2_draw4", "all")},
    **{f"H2_jump_in_{m}": {"jump_in": m} for m in ("numbers", "colored", "all")},
    "H2_jump_in_all_accumulate": {"jump_in": "all", "jump_in_stack": "accumulate"},
    "H3_until_playable": {"draw": "until_playable"},
    "H4_seven_o": {"seven_o": True},
    "H5_draw10": {"red_zero": "draw10"},
    "H5_giveaway": {"red_zero": "giveaway"},
    **{f"H6_multi_{m}": {"multi_play": m} for m in ("identical", "same_rank")},
    "H7_no_wild_last": {"wild_last": False},
    "H9_challenge_skip": {"challenge_success_skip": True},
    "H10_slap": {"slap_rank": 9},
    "H11_silence": {"silent_rank": 6, "noise_chance": 0.3},
    "H12_teams": {"players": 6, "teams": 3},
    "H13_last_standing": {"finish": "last_standing", "players": 5},
    "H13_last_standing_2p": {"finish": "last_standing", "players": 2},
    "E1_last_resort": {"wild_draw4": "last_resort", "challenge": False},
    "H20_decks_auto_6p": {"decks": "auto", "players": 6},
    "H21_highest_points": {"first_player": "highest_points"},
    "H22_take_back": {"bluff_penalty": "take_back", "seats": BLUFFING_B0},
    "H22_take_back_jump_in": {"bluff_penalty": "take_back", "jump_in": "all", "slap_rank": 5,
                              "silent_rank": 3, "noise_chance": 0.5, "seats": BLUFFING_B0},
    "H23_false_call": {"uno_false_call": 0.3},
    "H24_misplay": {"misplay": 0.3},
    "H25_amount": {"stacking": "amount"},
    **{f"H25_amount_{m}_B0_multi_rate": {"stacking": "amount", "multi_play": m, "seats": MULTI_B0}
       for m in ("identical", "same_rank")},
    "H25_amount_strategies": {"stacking": "amount", "multi_play": "same_rank", "draw2_amount": 3, "players": 5,
                              "seats": ["greedy", "wild_saver", MULTI_B0, "aggressor", "rlcard_random"]},
    "H1_draw2_B0_multi_rate": {"stacking": "draw2_draw4", "multi_play": "identical", "seats": MULTI_B0},
    "B0_bluffs_and_challenges": {"seats": BLUFFING_B0},
    "H26_deflect": {"deflect": "reverse"},
    "H26_deflect_2p": {"deflect": "reverse_skip", "players": 2, "stacking": "draw2"},
    "H26_deflect_challenges_take_back": {"deflect": "reverse", "bluff_penalty": "take_back", "seats": BLUFFING_B0},
    "H26_deflect_stacking_amount_groups": {"deflect": "reverse_skip", "stacking": "amount", "multi_play": "identical",
                                           "red_zero": "draw10", "seats": MULTI_B0},
    "H26_deflect_last_standing_jump_in": {"deflect": "reverse_skip", "finish": "last_standing", "players": 5,
                                          "jump_in": "all", "misplay": 0.2, "silent_rank": 3, "noise_chance": 0.5},
    **{f"H6_group_challenges_{b}": {"multi_play": "identical", "bluff_penalty": b,
                                    "seats": {**BLUFFING_B0, "multi_rate": 1.0}} for b in ("draw", "take_back")},
    "house_favourites": {"stacking": "draw2", "seven_o": True, "jump_in": "numbers", "draw": "until_playable"},
    "everything": {"stacking": "all", "jump_in": "all", "jump_in_stack": "accumulate", "draw": "until_playable",
                   "seven_o": True, "red_zero": "draw10", "multi_play": "same_rank", "wild_last": False,
                   "slap_rank": 5, "silent_rank": 3, "noise_chance": 0.5, "finish": "last_standing",
                   "players": 6, "teams": 2},
}


@pytest.mark.parametrize("name", list(SWITCHES))
def test_house_rule_invariants_after_every_step(name: str) -> None:
    cfg = default_config(**SWITCHES[name]).replace(name=name)
    for seed in (5, 2**33 + 1):
        results = check_config(cfg, seed, hands=4)
        assert all(r.st[L.S_DONE] for r in results)


# Keys whose values depend on other keys, or are not one value: drawn here, not from the registry.
BY_HAND = {"name", "seats", "teams"}


@hs.composite
def house_configs(draw: hs.DrawFn) -> dict:
    """Official variants plus any subset of the other [table] and [rules] keys, each at any
    value its registry record allows (:func:`harness.key_values`): a new key is in the mix
    as soon as it is in the registry."""
    changes = draw(official_configs())
    players = changes["players"]
    house = {k.name: key_values(k) for k in REGISTRY
             if k.section in ("table", "rules") and k.name not in changes and k.name not in BY_HAND}
    house["seats"] = hs.sampled_from(["random", BLUFFING_B0, MULTI_B0])
    house["teams"] = hs.sampled_from([t for t in (1, 2, 3, 5) if players % t == 0 and players // t >= 2 or t == 1])
    for key, strategy in house.items():
        if draw(hs.booleans()):
            changes[key] = draw(strategy)
    return changes


@settings(max_examples=200, deadline=None)
@given(data=hs.data())
def test_key_values_are_what_the_config_accepts(data: hs.DataObject) -> None:
    """Every value :func:`harness.key_values` draws passes the key's own check (C1), so the
    property tests explore the configs users can write, not refused ones."""
    k = data.draw(hs.sampled_from([k for k in REGISTRY if k.type not in ("str", "seats")]))
    value = data.draw(key_values(k))
    assert check_value(k, value) == value


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=house_configs(), seed=hs.integers(0, 2**63 - 1), start=hs.integers(0, 10**6))
@example(changes={"players": 4, "decks": 1, "hand_size": 1, "dealer": "rotate", "first_card": "any",
                  "first_draw2_skips": False, "play_drawn": "may", "voluntary_draw": False,
                  "wild_draw4": "restricted", "challenge": False, "challenge_success_skip": False,
                  "two_player_reverse": "skip", "uno_forget": 0.0, "uno_caught": 0.0, "max_turns": 5000,
                  "draw2_amount": 0, "draw4_amount": 0, "zero_points": 0, "drawn_match": "any",
                  "drawn_draw4": "draw4", "uno_false_call": 1.0, "jump_in": "all"},
         seed=0, start=0)  # one step of thousands of jump-ins: more events than the log had room for
def test_house_rule_combinations_hypothesis(changes: dict, seed: int, start: int) -> None:
    """Every combination the config accepts keeps every invariant (cards conserved, the
    hand ends, counters consistent, stepwise == batch)."""
    try:
        cfg = default_config(**changes)
    except ConfigError:  # a refused combination (e.g. R2's deal limit) is not played
        cfg = None
    assume(cfg is not None)  # hypothesis then draws another, rather than count a vacuous pass
    check_config(cfg.replace(name="combo"), seed, hands=2, start=start)


def _plays(events: np.ndarray) -> list[tuple[int, int, list[int]]]:
    """The trace's plays: (event, seat, kinds) for each run of EV_PLAY or EV_STACK events
    of one seat with nothing between them (the cards of one H6 play)."""
    out: list[tuple[int, int, list[int]]] = []
    joined = False
    for ev, a, b, _ in events:
        if ev in (L.EV_PLAY, L.EV_STACK, L.EV_JUMP, L.EV_DEFLECT):
            if joined and out[-1][0] == ev and out[-1][1] == a and ev != L.EV_JUMP:
                out[-1][2].append(int(b))
            else:
                out.append((int(ev), int(a), [int(b)]))
            joined = True
        else:
            joined = False
    return out


@pytest.mark.parametrize("mode", ["identical", "same_rank"])
def test_h25_every_answer_makes_at_least_the_play_it_answers(mode: str) -> None:
    """H25, read back from the trace of whole hands: every stack is a play of draw cards
    whose amount (H18 amounts times its cards) is at least the amount of the play before
    it, never the running total; B0 at multi_rate 0.5 and 1 and two project strategies."""
    cfg = default_config(stacking="amount", multi_play=mode, draw2_amount=3,
                         seats=[MULTI_B0, "greedy", {"strategy": "random", "multi_rate": 1.0}, "wild_saver"])
    amount = {cards.WILD_DRAW4: 4}
    answered = 0
    for seed in (3, 2**40 + 7):
        for r in check_config(cfg.replace(name="h25_trace"), seed, hands=12):
            plays = _plays(r.events[: r.st[L.S_NLOG]])
            for prev, play in zip(plays, plays[1:]):
                if play[0] != L.EV_STACK:
                    continue
                made = [amount.get(k, 3) for k in play[2]]
                assert all(k == cards.WILD_DRAW4 or cards.rank_of(k) == cards.DRAW2 for k in play[2] + prev[2])
                assert len(set(made)) == 1 and made[0] * len(made) >= amount.get(prev[2][0], 3) * len(prev[2])
                answered += 1
    assert answered > 10


@pytest.mark.parametrize("mode", ["reverse", "reverse_skip"])
def test_h26_every_deflection_passes_the_draw_on_unchanged(mode: str) -> None:
    """H26, read back from the trace of whole hands: every deflecting card is a Reverse (or
    under reverse_skip a Skip) of the colour in force, one card at a time, and the player
    it passes to faces the same total: the next seat in the new direction for a Reverse,
    in the same direction for a Skip."""
    ranks = {"reverse": {cards.REVERSE}, "reverse_skip": {cards.REVERSE, cards.SKIP}}[mode]
    cfg = default_config(deflect=mode, stacking="draw2", multi_play="identical", players=5,
                         seats=[MULTI_B0, "greedy", "random", "wild_saver", "counter"])
    deflected = 0
    for seed in (11, 2**41 + 3):
        for r in check_config(cfg.replace(name="h26_trace"), seed, hands=40):
            events = r.events[: r.st[L.S_NLOG]]
            color, facing, direction, seat = -1, None, 1, -1
            for i, (ev, a, b, c) in enumerate(events):
                if ev == L.EV_DEFLECT:
                    assert cards.rank_of(int(b)) in ranks and cards.color_of(int(b)) == color
                    assert facing is not None and facing[0] == a
                    seat, total = int(a), facing[1]
                    deflected += 1
                if ev in (L.EV_PLAY, L.EV_STACK, L.EV_JUMP, L.EV_DEFLECT):
                    color = int(c)
                if ev == L.EV_REVERSE:
                    direction = int(a)
                if ev == L.EV_FACING:
                    if seat >= 0:  # the seat the deflection passed the draw to, the same total
                        assert b == total and a == (seat + direction) % 5
                        seat = -1
                    facing = (int(a), int(b))
    assert deflected > 30

