"""The rules config (docs/rules.md C1): registry, TOML loading, validation, the kernel's P.

Fast: nothing here compiles numba code.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from unosim.rules import cards
from unosim.rules import config as C
from unosim.rules.config import ConfigError, default_config, load_config, parse_config, to_params
from unosim.rules import params as slots

STANDARD = Path(__file__).resolve().parents[2] / "configs" / "standard.toml"

HOUSE_RULE_KEYS = {"stacking", "jump_in", "jump_in_stack", "draw", "seven_o", "red_zero", "multi_play",
                   "wild_last", "slap_rank", "silent_rank", "noise_chance", "teams", "finish"}


def _error(data: dict, **kw) -> str:
    with pytest.raises(ConfigError) as e:
        parse_config(data, **kw)
    msg = str(e.value)
    assert "\n" not in msg, "C1: one-line messages"
    return msg


@pytest.fixture
def bots(monkeypatch):
    """A stand-in bot registry with every parameter type: an int, a float, a bool and an
    enum parameter."""
    strategies = {
        "random": (0, {}),
        "greedy": (3, {"depth": (2, (0, 5)), "aggression": (0.5, (0.0, 1.0)),
                       "bluff": (False, None), "colour": ("most", ("most", "random"))}),
    }
    monkeypatch.setattr(C, "STRATEGIES", strategies)
    return strategies


# --------------------------------------------------------------------------- registry & defaults


def test_c1_registry_covers_every_key_and_field():
    """C1: one record per key; RulesConfig has a field for each."""
    import dataclasses
    fields = {f.name for f in dataclasses.fields(C.RulesConfig)} - {"source"}
    assert fields == set(C.KEYS)
    assert {k.section for k in C.KEYS.values()} == {"", *C.SECTIONS}
    assert C.KEYS["players"].section == "table" and C.KEYS["dealer"].section == "table"
    assert C.KEYS["zero_points"].section == "scoring" and C.KEYS["match_target"].section == "scoring"
    assert C.KEYS["seats"].section == "bots" and C.KEYS["teams"].section == "rules"
    for k in C.KEYS.values():
        assert k.rules and k.doc, k.name


def test_c1_the_record_and_p_layout_come_from_the_registry():
    """RulesConfig's fields are the registry's keys in its order with its defaults; every
    key the kernel reads has a P slot (params.SWITCHES or FORMATS), every slot a key
    (but watchers, which the seats set), P_<KEY> names it, and no two share one."""
    import dataclasses
    fields = [f for f in dataclasses.fields(C.RulesConfig) if f.name not in ("seats", "source")]
    keys = [k for k in C.REGISTRY if k.type != "seats"]
    assert [(f.name, f.default) for f in fields] == [(k.name, k.default) for k in keys]
    assert all(k.name in slots.SLOTS for k in keys if k.type != "str"), "a key without a P slot"
    assert set(slots.SLOTS) - set(C.KEYS) == {"watchers"}
    for k in keys:
        if k.name in slots.SLOTS:
            assert getattr(slots, "P_" + k.name.upper()) == slots.SLOTS[k.name]
    assert len(set(slots.SLOTS.values())) == len(slots.SLOTS)


# Every switch's P slot, state slots and trace events as first numbered: a new rule's take
# the next numbers, so an old config's P and an old trace still read the same.
SWITCHES_SO_FAR = (
    "players decks hand_size dealer first_card first_draw2_skips play_drawn voluntary_draw wild_draw4 challenge "
    "challenge_success_skip two_player_reverse uno_forget uno_caught max_turns draw2_amount draw4_amount "
    "challenge_extra zero_points match_target stacking jump_in jump_in_stack draw seven_o red_zero multi_play "
    "wild_last slap_rank silent_rank noise_chance teams finish drawn_match drawn_draw4 watchers turned_reverse "
    "first_player bluff_penalty uno_false_call misplay deflect").split()
RULE_SLOTS_SO_FAR = {"S_DEFLECTIONS": 56, "S_DEFLECTED": 57, "EV_DEFLECT": 29}


def test_c1_switch_and_rule_slot_numbers_are_append_only():
    """The registry's numbering keeps every number it gave (keys.Key.switch, state, events)."""
    from unosim.kernel import layout
    assert list(slots.SWITCHES[:len(SWITCHES_SO_FAR)]) == SWITCHES_SO_FAR
    assert {n: getattr(layout, n) for n in RULE_SLOTS_SO_FAR} == RULE_SLOTS_SO_FAR


def test_every_key_is_built():
    """R1-R13, H1-H19 and the E extensions are all switches of the engine now."""
    assert HOUSE_RULE_KEYS <= set(C.KEYS)


def test_c1_standard_toml_loads_and_equals_the_defaults():
    cfg = load_config(STANDARD)
    assert cfg == C.RulesConfig() == default_config()
    assert cfg.name == "standard" and cfg.players == 4
    assert cfg.seats == (("random", {"bluff_rate": 0.0, "challenge_rate": 0.0, "multi_rate": 0.0}),) * 4  # B0 at its rates' defaults
    assert cfg.source == STANDARD.read_text()


def test_c1_standard_toml_lists_every_key_with_a_rule_comment():
    text = STANDARD.read_text()
    data = tomllib.loads(text)
    for k in C.KEYS.values():
        body = data[k.section] if k.section else data
        assert k.name in body, k.full
        assert f"# {' '.join(k.rules)}: {k.doc}" in text, k.full


def test_empty_config_is_the_official_rules():
    """C1: every key is optional."""
    cfg = parse_config({})
    assert cfg == C.RulesConfig()
    assert (cfg.play_drawn, cfg.wild_draw4, cfg.challenge, cfg.uno_caught, cfg.max_turns) == \
        ("may", "restricted", True, 1.0, 5000)


def test_load_without_name_uses_the_file_stem(tmp_path):
    p = tmp_path / "fast_game.toml"
    p.write_text("[table]\nplayers = 3\n")
    cfg = load_config(p)
    assert cfg.name == "fast_game" and cfg.players == 3 and len(cfg.seats) == 3


# --------------------------------------------------------------------------- P encoding

ENUM_CODES = {  # copied from layout.py's comments, not from config.py
    "dealer": (slots.P_DEALER, ["rotate", "winner", "random", "fixed"]),
    "drawn_match": (slots.P_DRAWN_MATCH, ["any", "color"]),
    "drawn_draw4": (slots.P_DRAWN_DRAW4, ["draw4", "wild"]),
    "first_card": (slots.P_FIRST_CARD, ["any", "number_only"]),
    "play_drawn": (slots.P_PLAY_DRAWN, ["may", "must", "never"]),
    "wild_draw4": (slots.P_WILD_DRAW4, ["restricted", "free", "last_resort"]),
    "two_player_reverse": (slots.P_TWO_PLAYER_REVERSE, ["skip", "none"]),
    "stacking": (slots.P_STACKING, ["none", "draw2", "draw2_draw4", "all", "amount"]),
    "jump_in": (slots.P_JUMP_IN, ["none", "numbers", "colored", "all"]),
    "jump_in_stack": (slots.P_JUMP_IN_STACK, ["replace", "accumulate"]),
    "draw": (slots.P_DRAW, ["one", "until_playable"]),
    "red_zero": (slots.P_RED_ZERO, ["none", "draw10", "giveaway"]),
    "multi_play": (slots.P_MULTI_PLAY, ["none", "identical", "same_rank"]),
    "finish": (slots.P_FINISH, ["first_out", "last_standing"]),
}
BOOL_SLOTS = {
    "first_draw2_skips": slots.P_FIRST_DRAW2_SKIPS, "voluntary_draw": slots.P_VOLUNTARY_DRAW,
    "challenge": slots.P_CHALLENGE, "challenge_success_skip": slots.P_CHALLENGE_SUCCESS_SKIP,
    "seven_o": slots.P_SEVEN_O, "wild_last": slots.P_WILD_LAST,
}


@pytest.mark.parametrize("key", sorted(ENUM_CODES))
def test_every_enum_value_lands_in_its_slot_with_its_code(key):
    slot, values = ENUM_CODES[key]
    assert slots.SLOTS[key] == slot
    assert list(C.KEYS[key].choices) == values
    for code, value in enumerate(values):
        cfg = default_config(**{key: value})
        P = to_params(cfg)
        assert P[slot] == code, (key, value)


@pytest.mark.parametrize("key", sorted(BOOL_SLOTS))
def test_bools_are_0_and_1(key):
    for v in (False, True):
        assert to_params(default_config(**{key: v}))[BOOL_SLOTS[key]] == float(v)


def test_numbers_and_ranks_land_in_their_slots():
    """R2, R10, R13, H10, H11, H12, H17, H18, H19."""
    cfg = parse_config({"table": {"players": 6, "decks": 2, "hand_size": 9},
                        "rules": {"uno_forget": 0.25, "uno_caught": 0.5, "max_turns": 300,
                                  "draw2_amount": 3, "draw4_amount": 5, "challenge_extra": 1,
                                  "slap_rank": 9, "silent_rank": 0, "noise_chance": 0.1, "teams": 3},
                        "scoring": {"zero_points": 10, "match_target": 200}})
    P = to_params(cfg)
    assert P.dtype == np.float64 and P.shape == (slots.N_PARAMS,)
    expect = {slots.P_PLAYERS: 6, slots.P_DECKS: 2, slots.P_HAND_SIZE: 9, slots.P_UNO_FORGET: 0.25, slots.P_UNO_CAUGHT: 0.5,
              slots.P_MAX_TURNS: 300, slots.P_DRAW2_AMOUNT: 3, slots.P_DRAW4_AMOUNT: 5, slots.P_CHALLENGE_EXTRA: 1,
              slots.P_SLAP_RANK: 9, slots.P_SILENT_RANK: 0, slots.P_NOISE_CHANCE: 0.1, slots.P_TEAMS: 3,
              slots.P_ZERO_POINTS: 10, slots.P_MATCH_TARGET: 200}
    for slot, v in expect.items():
        assert P[slot] == v, slot


def test_ranks_none_is_minus_one():
    """H10, H11: "none" encodes as -1."""
    P = to_params(default_config())
    assert P[slots.P_SLAP_RANK] == -1 and P[slots.P_SILENT_RANK] == -1


def test_r1_point_table_in_p():
    P = to_params(default_config())
    table = P[slots.P_SCORE0:slots.P_SCORE0 + cards.N_KINDS]
    assert np.array_equal(table, cards.point_table())
    assert table[cards.parse("R7")] == 7 and table[cards.parse("G+2")] == 20 and table[cards.WILD] == 50
    assert table[cards.RED_ZERO] == 0


def test_h17_zero_points_and_h5_giveaway_in_point_table():
    P = to_params(parse_config({"scoring": {"zero_points": 10}, "rules": {"red_zero": "giveaway"}}))
    table = P[slots.P_SCORE0:slots.P_SCORE0 + cards.N_KINDS]
    assert table[cards.RED_ZERO] == 100 and table[cards.parse("B0")] == 10
    P = to_params(parse_config({"rules": {"red_zero": "draw10"}}))
    assert P[slots.P_SCORE0 + cards.RED_ZERO] == 0


def test_b0_default_seats_in_p():
    P = to_params(parse_config({"table": {"players": 3}}))
    for s in range(slots.MAX_PLAYERS):
        assert P[slots.P_BOT0 + s * slots.BOT_STRIDE] == (0 if s < 3 else -1)


def test_every_slot_key_is_written():
    """Each registry key with a slot fills a distinct slot below the point table."""
    used = [k.switch for k in C.KEYS.values() if k.switch is not None]
    assert len(used) == len(set(used)) == 41  # H26 deflect is the 41st
    assert max(used) < slots.P_SCORE0


# --------------------------------------------------------------------------- seats and bots


def test_b0_seats_single_name_fills_every_seat():
    b0 = ("random", {"bluff_rate": 0.0, "challenge_rate": 0.0, "multi_rate": 0.0})
    assert parse_config({"table": {"players": 5}, "bots": {"seats": "random"}}).seats == (b0,) * 5


def test_seat_list_must_match_players():
    msg = _error({"bots": {"seats": ["random"] * 3}})
    assert msg.startswith("bots.seats:") and "3 entries for 4 players" in msg


def test_unknown_strategy_lists_known_ones(bots):
    msg = _error({"bots": {"seats": ["random", "random", "smart", "random"]}})
    assert msg.startswith("bots.seats[2]:") and "'smart'" in msg and "random, greedy" in msg


def test_per_seat_bot_params_resolved_and_in_p(bots):
    cfg = parse_config({"bots": {"seats": [
        "random",
        {"strategy": "greedy", "depth": 4, "bluff": True},
        "greedy",
        {"strategy": "greedy", "aggression": 1, "colour": "random"},
    ]}})
    assert cfg.seats[0] == ("random", {})
    assert cfg.seats[1] == ("greedy", {"depth": 4, "aggression": 0.5, "bluff": True, "colour": "most"})
    assert cfg.seats[3][1]["aggression"] == 1.0 and isinstance(cfg.seats[3][1]["aggression"], float)
    P = to_params(cfg)
    row = lambda s: list(P[slots.P_BOT0 + s * slots.BOT_STRIDE:slots.P_BOT0 + s * slots.BOT_STRIDE + 5])  # noqa: E731
    assert row(0) == [0, 0, 0, 0, 0]
    assert row(1) == [3, 4, 0.5, 1, 0]   # code, then params in registry order
    assert row(2) == [3, 2, 0.5, 0, 0]
    assert row(3) == [3, 2, 1.0, 0, 1]   # enum "random" -> index 1


@pytest.mark.parametrize("entry, fragment", [
    ({"strategy": "greedy", "depth": 9}, "bots.seats[1].depth: 9 is out of range"),
    ({"strategy": "greedy", "depth": 1.5}, "bots.seats[1].depth: expected an integer"),
    ({"strategy": "greedy", "depht": 1}, "bots.seats[1].depht: unknown parameter"),
    ({"strategy": "greedy", "bluff": 1}, "bots.seats[1].bluff: expected true or false"),
    ({"strategy": "greedy", "colour": "blue"}, "bots.seats[1].colour: string 'blue' is not one of most, random"),
    ({"depth": 1}, "bots.seats[1]: an inline table needs strategy"),
    (7, "bots.seats[1]: expected a strategy name or an inline table"),
])
def test_bad_bot_params_name_the_seat(bots, entry, fragment):
    assert fragment in _error({"bots": {"seats": ["random", entry, "random", "random"]}})


def test_inline_table_for_every_seat(bots):
    cfg = parse_config({"table": {"players": 2}, "bots": {"seats": {"strategy": "greedy", "depth": 1}}})
    assert cfg.seats[0] == cfg.seats[1] and cfg.seats[0][1]["depth"] == 1


# --------------------------------------------------------------------------- validation errors


@pytest.mark.parametrize("data, fragment", [
    ({"rules": {"play_drawn": "sometimes"}}, "rules.play_drawn: 'sometimes' is not one of may, must, never"),
    ({"table": {"dealer": 2}}, "table.dealer: expected one of rotate, winner, random, fixed"),
    ({"table": {"players": "four"}}, "table.players: expected an integer 2-10, got string 'four'"),
    ({"table": {"players": True}}, "table.players: expected an integer 2-10, got boolean true"),
    ({"table": {"players": 4.0}}, "table.players: expected an integer"),
    ({"table": {"players": 11}}, "table.players: 11 is out of range; allowed: 2-10"),
    ({"table": {"players": 1}}, "table.players: 1 is out of range"),
    ({"table": {"decks": 3}}, "table.decks: 3 is out of range; allowed: \"auto\" or 1-2"),
    ({"table": {"hand_size": 0}}, "table.hand_size: 0 is out of range"),
    ({"rules": {"voluntary_draw": "yes"}}, "rules.voluntary_draw: expected true or false, got string 'yes'"),
    ({"rules": {"challenge": 1}}, "rules.challenge: expected true or false, got integer 1"),
    ({"rules": {"uno_forget": 1.5}}, "rules.uno_forget: 1.5 is out of range; allowed: 0.0-1.0"),
    ({"rules": {"uno_caught": float("nan")}}, "rules.uno_caught: nan is out of range"),
    ({"rules": {"uno_caught": False}}, "rules.uno_caught: expected a number"),
    ({"rules": {"max_turns": 0}}, "rules.max_turns: 0 is out of range; allowed: 1-1000000"),
    # R13: a bound a user could mean; 2**63-1 once stalled every hand at 0 turns
    ({"rules": {"max_turns": 9223372036854775807}}, "rules.max_turns: 9223372036854775807 is out of range"),
    ({"scoring": {"match_target": 10**20}}, "scoring.match_target: 100000000000000000000 is out of range"),
    ({"rules": {"draw2_amount": -1}}, "rules.draw2_amount: -1 is out of range; allowed: 0-50"),
    ({"rules": {"draw4_amount": 51}}, "rules.draw4_amount: 51 is out of range"),
    ({"scoring": {"match_target": 0}}, "scoring.match_target: 0 is out of range"),
    ({"scoring": {"zero_points": "10"}}, "scoring.zero_points: expected an integer"),
    ({"name": ""}, "name: expected 1-64 letters"),
    ({"name": 3}, "got integer 3"),
    # C1: a name is a label, never a path
    ({"name": "../../escape"}, "name: expected 1-64 letters"),
    ({"name": "/etc/x"}, "got '/etc/x'"),
    ({"name": "a\x00b"}, "name: expected 1-64 letters"),
    ({"name": "x" * 70}, "got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'..."),
    ({"bots": {"seats": []}}, "bots.seats: expected a strategy name"),
])
def test_c1_bad_values_name_the_key(data, fragment):
    assert fragment in _error(data)


@pytest.mark.parametrize("data, fragment", [
    ({"rules": {"slap_rank": 10}}, "rules.slap_rank: 10 is out of range; allowed: \"none\" or 0-9"),
    ({"rules": {"slap_rank": "nine"}}, "rules.slap_rank: expected \"none\" or 0-9, got string 'nine'"),
    ({"rules": {"silent_rank": True}}, "rules.silent_rank: expected \"none\" or 0-9, got boolean true"),
    ({"rules": {"stacking": "draw4"}}, "rules.stacking: 'draw4' is not one of none, draw2, draw2_draw4, all"),
    ({"rules": {"noise_chance": -0.1}}, "rules.noise_chance: -0.1 is out of range"),
])
def test_c1_house_rule_values_checked_even_when_allowed(data, fragment):
    assert fragment in _error(data)


def test_c1_unknown_key_lists_valid_keys():
    msg = _error({"rules": {"stackin": "draw2"}})
    assert msg.startswith("unknown key 'rules.stackin'")
    assert "did you mean 'stacking'" in msg and "valid keys in [rules]: first_card," in msg


def test_c1_key_in_the_wrong_section_says_where_it_belongs():
    msg = _error({"rules": {"players": 4}})
    assert "unknown key 'rules.players'" in msg and "belongs in [table]" in msg
    msg = _error({"players": 4})
    assert "unknown key 'players'" in msg and "belongs in [table]" in msg


def test_c1_unknown_section_lists_sections():
    msg = _error({"rule": {"stacking": "none"}})
    assert msg.startswith("unknown section [rule]") and "table, rules, scoring, tournament, bots" in msg
    assert "[rules] must be a table" in _error({"rules": 3})


@pytest.mark.parametrize("key, value, rule", [
    ("stacking", "draw2", "H1"), ("jump_in", "numbers", "H2"), ("jump_in_stack", "accumulate", "H2"),
    ("draw", "until_playable", "H3"), ("seven_o", True, "H4"), ("red_zero", "draw10", "H5"),
    ("multi_play", "identical", "H6"), ("wild_last", False, "H7"), ("slap_rank", 9, "H10"),
    ("silent_rank", 6, "H11"), ("noise_chance", 0.5, "H11"), ("teams", 2, "H12"),
    ("finish", "last_standing", "H13"),
])
def test_every_house_rule_is_a_working_switch(key, value, rule):
    """H1-H13: every house rule is built now; its key names its rule id."""
    assert key in C.KEYS and rule in C.KEYS[key].rules
    extra = {"silent_rank": 6} if key == "noise_chance" else {}
    assert parse_config({"rules": {key: value, **extra}}).value(key) == value
    assert parse_config({"rules": {key: C.KEYS[key].default}}) == default_config()


def test_r2_deal_must_leave_a_card_to_turn():
    msg = _error({"table": {"players": 10, "hand_size": 11}})
    assert msg.startswith("table.hand_size:") and "110" in msg and "108" in msg and "R2" in msg
    assert "table.hand_size" in _error({"table": {"players": 4, "hand_size": 27}})  # 108 exactly
    assert parse_config({"table": {"players": 4, "hand_size": 26}}).hand_size == 26  # 104 + 4 left
    assert parse_config({"table": {"players": 10, "hand_size": 11, "decks": 2}}).decks == 2


def test_h12_teams_must_divide_players():
    msg = _error({"table": {"players": 6}, "rules": {"teams": 4}})
    assert msg.startswith("rules.teams:") and "does not divide players = 6" in msg
    msg = _error({"table": {"players": 5}, "rules": {"teams": 2}})
    assert "does not divide" in msg


def test_h12_every_team_has_two_players_or_more():
    """Our choice: teams == players would be 'no teams' under another name."""
    msg = _error({"table": {"players": 4}, "rules": {"teams": 4}})
    assert msg.startswith("rules.teams:") and "one player each" in msg
    for players, teams in ((4, 2), (6, 2), (6, 3), (8, 4), (10, 5)):
        cfg = parse_config({"table": {"players": players}, "rules": {"teams": teams}})
        assert cfg.teams == teams


def test_missing_file_names_the_path(tmp_path):
    p = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="config file not found: .*nope.toml"):
        load_config(p)


def test_toml_syntax_error_carries_tomllib_message(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("[table]\nplayers = \n")
    with pytest.raises(ConfigError) as e:
        load_config(p)
    assert "bad.toml: invalid TOML:" in str(e.value) and "line 2" in str(e.value)


def test_load_config_errors_come_from_validation(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text('[rules]\nplay_drawn = "sometimes"\n')
    with pytest.raises(ConfigError, match=r"^rules\.play_drawn: 'sometimes' is not one of may, must, never"):
        load_config(p)


def test_config_error_is_a_value_error_with_the_key():
    with pytest.raises(ValueError) as e:
        parse_config({"table": {"players": 99}})
    assert e.value.key == "table.players"


# --------------------------------------------------------------------------- round trips & sweeps


def _round_trip(cfg):
    back = parse_config(tomllib.loads(cfg.to_toml()))
    assert back == cfg
    return back


def test_to_toml_round_trips_defaults_and_changes():
    _round_trip(default_config())
    _round_trip(parse_config({
        "name": 'odd name+1.2 é',
        "table": {"players": 2, "decks": 2, "hand_size": 10, "dealer": "winner"},
        "rules": {"first_card": "number_only", "first_draw2_skips": False, "play_drawn": "never",
                  "voluntary_draw": False, "wild_draw4": "free", "challenge": False,
                  "challenge_success_skip": True, "two_player_reverse": "none", "uno_forget": 0.1,
                  "uno_caught": 0.3333333333333333, "max_turns": 77, "draw2_amount": 0,
                  "stacking": "all", "jump_in": "colored", "jump_in_stack": "accumulate",
                  "draw": "until_playable", "seven_o": True, "red_zero": "giveaway",
                  "multi_play": "same_rank", "wild_last": False, "slap_rank": 0, "silent_rank": 6,
                  "noise_chance": 1e-05, "finish": "last_standing"},
        "scoring": {"zero_points": 10, "match_target": 1000}}))


def test_to_toml_round_trips_mixed_seats(bots):
    cfg = parse_config({"bots": {"seats": ["random", {"strategy": "greedy", "depth": 0}, "greedy", "random"]}})
    back = _round_trip(cfg)
    assert back.seats[1][1]["depth"] == 0


def test_with_values_for_sweeps():
    cfg = default_config()
    six = cfg.with_values({"table.players": 6, "rules.play_drawn": "must"})
    assert six.players == 6 and len(six.seats) == 6 and six.play_drawn == "must"
    assert cfg.players == 4  # frozen, unchanged
    assert cfg.replace(hand_size=5).hand_size == 5
    assert cfg.replace(stacking="draw2").stacking == "draw2"
    with pytest.raises(ConfigError, match="unknown key 'rules.stackin'"):
        cfg.with_values({"rules.stackin": "draw2"})
    with pytest.raises(ConfigError, match="unknown key 'table.stacking'"):
        cfg.with_values({"table.stacking": "draw2"})


def test_with_values_keeps_mixed_seats_and_checks_their_count(bots):
    cfg = parse_config({"bots": {"seats": ["random", "greedy", "random", "random"]}})
    with pytest.raises(ConfigError, match="bots.seats: 4 entries for 5 players"):
        cfg.replace(players=5)
    five = cfg.with_values({"players": 5, "bots.seats": ["greedy"] * 5})
    assert [s[0] for s in five.seats] == ["greedy"] * 5


def test_flat_values():
    flat = default_config().flat()
    assert flat["table.players"] == 4 and flat["rules.stacking"] == "none" and flat["name"] == "standard"
    assert "bots.seats" not in flat


# --------------------------------------------------------------------------- docs


def test_describe_keys_and_markdown():
    rows = C.describe_keys()
    assert [r["key"] for r in rows] == [k.full for k in C.KEYS.values()]
    stacking = next(r for r in rows if r["key"] == "rules.stacking")
    assert stacking["rules"] == ["H1", "H25"] and stacking["default"] == "none"
    assert stacking["allowed"] == "none, draw2, draw2_draw4, all, amount"
    md = C.rules_markdown()
    assert md.count("\n") == len(rows) + 2
    assert "| `rules.play_drawn` | R6 | `\"may\"` | may, must, never |" in md
    assert "not supported yet" not in md


def test_c1_a_file_stem_becomes_a_safe_name(tmp_path):
    """An unnamed config takes its file's stem as its name, made safe (not refused)."""
    p = tmp_path / "my rules (v2).toml"
    p.write_text("[table]\nplayers = 3\n")
    assert load_config(p).name == "my rules (v2)"
    assert C.safe_name("..x") == "_x" and C.safe_name(".hidden") == "_.hidden"


def test_c1_only_a_regular_small_file_is_read(tmp_path):
    """A folder or a device (/dev/zero never ends) is refused before any read."""
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(tmp_path)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n")
    with pytest.raises(ConfigError, match="too large for a config"):
        load_config(big)


def test_c1_replace_with_a_misspelt_key_says_what_was_meant():
    with pytest.raises(ConfigError, match=r"unknown key 'stackin' \(did you mean 'stacking'\?\)"):
        default_config().replace(stackin="draw2")
    with pytest.raises(ConfigError, match=r"did you mean 'rules.stacking'"):
        default_config().with_values({"rules.stackng": "draw2"})


# --------------------------------------------------------------------------- S4 and T1 keys


def test_s4_chips_hands_and_t1_hands_per_round_defaults_and_slots():
    """S4 ``[scoring] chips_hands`` (default 10), T1 ``[tournament] hands_per_round`` (default 4):
    format slots after the bots' blocks, read between hands only."""
    cfg = default_config()
    assert cfg.chips_hands == 10 and cfg.hands_per_round == 4
    P = to_params(parse_config({"scoring": {"chips_hands": 25}, "tournament": {"hands_per_round": 2}}))
    assert P[slots.P_CHIPS_HANDS] == 25 and P[slots.P_HANDS_PER_ROUND] == 2
    assert min(slots.FORMAT_SLOTS) >= slots.P_BOT0 + slots.MAX_PLAYERS * slots.BOT_STRIDE
    assert "[tournament]" in cfg.to_toml() and "hands_per_round = 4" in cfg.to_toml()
    assert parse_config(tomllib.loads(cfg.replace(chips_hands=3).to_toml())).chips_hands == 3


@pytest.mark.parametrize("data, fragment", [
    ({"scoring": {"chips_hands": 0}}, "scoring.chips_hands: 0 is out of range; allowed: 1-10000"),
    ({"scoring": {"chips_hands": 10_001}}, "scoring.chips_hands: 10001 is out of range; allowed: 1-10000"),
    ({"scoring": {"chips_hands": "ten"}}, "scoring.chips_hands: expected an integer"),
    ({"tournament": {"hands_per_round": 0}}, "tournament.hands_per_round: 0 is out of range; allowed: 1-1000"),
    ({"tournament": {"hands_per_round": 1001}}, "tournament.hands_per_round: 1001 is out of range"),
    ({"tournament": {"hands_per_round": 2.5}}, "tournament.hands_per_round: expected an integer"),
    ({"tournament": {"rounds": 3}}, "unknown key 'tournament.rounds'"),
    ({"scoring": {"hands_per_round": 3}}, "[tournament]"),
    ({"tournament": 4}, "[tournament] must be a table of keys"),
])
def test_s4_t1_bad_values_name_the_key(data, fragment):
    assert fragment in _error(data)
