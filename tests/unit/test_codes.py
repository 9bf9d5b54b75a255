"""Named codes (unosim.rules.codes, cards, strategies) against the config registry.

The kernel compares rule switches with named codes (``Stacking.draw2``); config.py encodes
an enum value as its index in the key's ``choices``.  These must be one and the same
(docs/rules.md: every enum key of H1-H16, R3-R9, R4, E1-E5, H13), and every card kind
and strategy code must be defined once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from unosim.rules import cards, codes, params
from unosim.rules.config import KEYS, to_params, default_config
from unosim.rules.strategies import STRATEGIES, Strategy

ROOT = Path(__file__).resolve().parents[2]
ENUM_KEYS = [k for k in KEYS.values() if k.type == "enum"]


def test_every_enum_key_has_its_codes():
    assert sorted(k.name for k in ENUM_KEYS) == sorted(codes.ENUMS)
    for key in ENUM_KEYS:
        assert key.choices == codes.ENUMS[key.name]._fields, key.full


@pytest.mark.parametrize("key", ENUM_KEYS, ids=lambda k: k.full)
def test_encode_equals_the_named_code(key):
    named = codes.ENUMS[key.name]
    for choice in key.choices:
        assert key.encode(choice) == getattr(named, choice)
    assert list(named) == list(range(len(key.choices)))


@pytest.mark.parametrize("key", ENUM_KEYS, ids=lambda k: k.full)
def test_the_kernel_reads_the_named_code(key):
    """What to_params writes in the key's P slot is the named code of the value."""
    named = codes.ENUMS[key.name]
    for choice in key.choices:
        try:
            cfg = default_config().with_values({key.full: choice})
        except ValueError:  # a value that needs other keys set too (checked in test_config)
            continue
        assert to_params(cfg)[params.SLOTS[key.name]] == getattr(named, choice)


def test_strategy_codes_come_from_the_registry():
    assert tuple(STRATEGIES) == Strategy._fields
    assert [code for code, _ in STRATEGIES.values()] == list(Strategy)


def test_card_constants():
    assert cards.WILD == cards.N_COLORS * cards.RANKS_PER_COLOR
    assert cards.name(cards.WILD) == "W" and cards.name(cards.WILD_DRAW4) == "W+4"
    assert cards.name(cards.RED_ZERO) == "R0"
    assert [cards.name(k) for k in cards.STACK_KINDS] == ["R+2", "Y+2", "G+2", "B+2", "W+4"]
    assert cards.rank_of(cards.kind(cards.BLUE, cards.NUMBER_MAX)) == 9


COMPILED = ["kernel", "families", "bots", "engine"]


def _assigned_names(tree: ast.Module) -> set[str]:
    return {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
            if isinstance(t, ast.Name)}


def test_card_constants_are_defined_once():
    """No compiled module redefines a card constant (R1): they import unosim.rules.cards."""
    names = {"WILD", "WILD_DRAW4", "SKIP", "REVERSE", "DRAW2", "RED_ZERO", "DRAW2_RANK", "STACKABLE"}
    for folder in COMPILED:
        for path in sorted((ROOT / "unosim" / folder).glob("*.py")):
            again = names & _assigned_names(ast.parse(path.read_text()))
            assert not again, f"{path.relative_to(ROOT)} redefines {sorted(again)}"


def test_no_bare_mode_numbers_in_compiled_code():
    """Rule switches are compared with named codes, never a float or a bare mode number."""
    for folder in ["families", "bots", "engine"]:
        for path in sorted((ROOT / "unosim" / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Compare) and any(isinstance(c, ast.Call) and getattr(c.func, "id", "")
                                                         == "rule" for c in [node.left, *node.comparators]):
                    for side in [node.left, *node.comparators]:
                        if isinstance(side, ast.Constant):
                            assert side.value == 0 and not isinstance(side.value, float), \
                                f"{path.name}:{node.lineno} compares a rule with {side.value!r}"
