"""A swept rule that never acted must not read as "changes nothing".

The O1 counters that show H6 multi-plays and R7 voluntary draws (the engine), and the
balance report's marks "never triggered" / "no hand changed" (report/triggers.py) instead
of a zero effect.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness import batch_rows, check_rows
from result_files import write_result
from unosim.analysis import report as rp
from unosim.analysis.report import triggers
from unosim.kernel import layout as L
from unosim.rules.config import default_config
from unosim.scenario import Scenario

SAVER = {"strategy": "wild_saver", "bluff_rate": 0.2, "challenge_rate": 0.5, "draw_before_wild": True}


def dull(**by_seat: str) -> dict[int, str]:
    hands = {s: "G1 G2 G4 G6" for s in range(4)}
    hands.update({int(k[1:]): v for k, v in by_seat.items()})
    return hands


# --------------------------------------------------------------------------- engine counters
def test_h6_a_multi_play_is_counted_once_per_play():
    """H6: greedy sheds both R5s at once: one multi-play, two cards played."""
    sc = Scenario.build(dull(s0="R5 R5 B9"), top="R3", multi_play="identical", seats="greedy")
    sc.step()
    assert sc[L.S_PLAYED] == 2 and sc[L.S_MULTI_PLAYS] == 1


def test_h6_b0_single_card_is_not_a_multi_play():
    """B0 plays the single chosen card (B0): multi_plays stays 0 under H6."""
    sc = Scenario.build(dull(s0="R5 R5 B9"), top="R3", multi_play="identical")
    sc.step()
    assert sc[L.S_PLAYED] == 1 and sc[L.S_MULTI_PLAYS] == 0


def test_r7_a_draw_holding_a_legal_wild_is_voluntary():
    """R7: wild_saver (draw_before_wild) draws rather than play its only legal card, a Wild."""
    sc = Scenario.build(dull(s0="W B9 G7"), top="R3", draw="Y2", seats=SAVER)
    sc.step()
    assert sc[L.S_DRAWN] == 1 and sc[L.S_VOL_DRAWS] == 1


def test_h8_forced_play_leaves_no_voluntary_draw():
    """H8: with voluntary_draw = false the same seat plays the Wild; nothing to count."""
    sc = Scenario.build(dull(s0="W B9 G7"), top="R3", draw="Y2", seats=SAVER, voluntary_draw=False)
    sc.step()
    assert sc[L.S_DRAWN] == 0 and sc[L.S_PLAYED] == 1 and sc[L.S_VOL_DRAWS] == 0


def test_r7_a_draw_with_nothing_legal_is_not_voluntary():
    sc = Scenario.build(dull(s0="B9 G7"), top="R3", draw="Y2", seats=SAVER)
    sc.step()
    assert sc[L.S_DRAWN] == 1 and sc[L.S_VOL_DRAWS] == 0


def test_batch_rows_carry_the_new_counters():
    """O1 multi_plays and voluntary_draws: zero under B0, non-zero under the sweep's bots."""
    b0 = default_config(multi_play="identical")
    rows = batch_rows(b0, 7, 0, 300)
    check_rows(rows, b0)
    assert (rows[:, L.O_MULTI_PLAYS] == 0).all() and (rows[:, L.O_VOL_DRAWS] == 0).all()
    saver = default_config(multi_play="identical", seats=SAVER)
    rows = batch_rows(saver, 7, 0, 300)
    check_rows(rows, saver)
    assert rows[:, L.O_MULTI_PLAYS].sum() > 0 and rows[:, L.O_VOL_DRAWS].sum() > 0
    assert (rows[:, L.O_MULTI_PLAYS] * 2 <= rows[:, L.O_PLAYED]).all()
    names = [n for n, _ in L.HAND_COLUMNS]
    assert "multi_plays" in names and "voluntary_draws" in names


# --------------------------------------------------------------------------- the balance report
def _point(root: Path, key: str, value: str, players: int, turns: list[int], **counters: list[int]) -> None:
    n = len(turns)
    cols = {"dealer": [h % players for h in range(n)], "winner": [(h + 1) % players for h in range(n)],
            "turns": turns, "cards_drawn": [t // 3 for t in turns], **counters}
    cfg = f'name = "s"\n[table]\nplayers = {players}\n'
    write_result(root / f"{key}={value}" / f"players={players}" / "part-00000.parquet", cols,
                 players=players, name="s", config=cfg)


def _sweep(root: Path) -> Path:
    """challenge_extra: 2 (base) / 3 with no challenge at all; challenge_success_skip with
    challenges; first_card (no counter) with hands identical to the base and changed."""
    n = 30
    base = [40 + h % 9 for h in range(n)]
    other = [t + (h % 2) for h, t in enumerate(base)]
    for players in (2, 4):
        _point(root, "challenge_extra", "2", players, base)
        _point(root, "challenge_extra", "3", players, other)  # challenges all zero
        _point(root, "challenge_success_skip", "true", players, other, challenges=[h % 3 for h in range(n)])
        _point(root, "first_card", "number_only", players, base if players == 2 else other)
    return root


def _status(t, change: str, players: int) -> set[str]:
    return set(t[(t["change"] == change) & (t["players"] == players)]["status"])


def test_a_change_whose_counter_is_zero_never_triggered(tmp_path: Path):
    """H18 challenge_extra acts only on a challenge: no challenge in any hand, no effect measured."""
    t = rp.balance_report(_sweep(tmp_path / "s"), base={"challenge_extra": 2, "challenge_success_skip": False,
                                                        "first_card": "any"}).table
    assert _status(t, "challenge_extra=3", 2) == {triggers.NEVER_TRIGGERED}
    assert _status(t, "challenge_extra=3", 4) == {triggers.NEVER_TRIGGERED}
    assert _status(t, "challenge_success_skip=true", 4) == {""}  # H9: challenges happened


def test_a_change_with_every_hand_identical_changed_no_hand(tmp_path: Path):
    """H16 first_card has no counter: identical turns/winners/draws to the base (same seed)."""
    t = rp.balance_report(_sweep(tmp_path / "s"), base={"challenge_extra": 2, "challenge_success_skip": False,
                                                        "first_card": "any"}).table
    assert _status(t, "first_card=number_only", 2) == {triggers.NO_HAND_CHANGED}
    assert _status(t, "first_card=number_only", 4) == {""}


def test_the_text_says_the_word_instead_of_a_zero(tmp_path: Path):
    bal = rp.balance_report(_sweep(tmp_path / "s"), base={"challenge_extra": 2, "challenge_success_skip": False,
                                                          "first_card": "any"})
    lines = rp.to_text(bal, width=400).splitlines()
    inert = [ln for ln in lines if ln.startswith("challenge_extra=3")]
    assert len(inert) == 2 and all("never triggered" in ln and "+0.00" not in ln for ln in inert)
    same = [ln for ln in lines if ln.startswith("first_card=number_only") and " 2 " in ln]
    assert len(same) == 1 and "no hand changed" in same[0]
    acted = [ln for ln in lines if ln.startswith("challenge_success_skip=true")]
    assert acted and all("[" in ln for ln in acted)  # intervals shown
    assert lines.index(inert[0]) > lines.index(acted[0])  # what never acted goes last


def test_every_rule_the_house_sweep_varies_maps_to_a_counter_or_the_hands_check():
    """Keys map to counters in one place; a counter named there is an O1 column."""
    names = {n for n, _ in L.HAND_COLUMNS}
    for key, trig in triggers.TRIGGERS.items():
        assert set(trig.counters) <= names, key
    assert triggers.trigger_of("rules.voluntary_draw=false").at_base
    assert triggers.trigger_of("rules.red_zero=giveaway").counters == ("giveaways",)
    assert triggers.trigger_of("rules.red_zero=draw10") is None  # acts on every red 0: hands check
    assert triggers.trigger_of("rules.multi_play=identical").counters == ("multi_plays",)
    assert np.isin(["challenges", "jump_ins", "slaps", "noises"],
                   [c for t in triggers.TRIGGERS.values() for c in t.counters]).all()
