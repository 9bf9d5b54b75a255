"""One scenario per official rule of docs/rules.md (R1-R13): a built position, the real
kernel acting on it, the exact outcome.

Positions come from :class:`unosim.scenario.Scenario` (four seats, seat 0 to act, play
clockwise, unless a test says otherwise); the set-up rules (R1-R4) drive the kernel's own
``reset``/``build_deck``/``deal``/``turn_first_card`` and the batch's ``hand_dealer``.
Where B0 (the bot at every seat) has a choice, the position leaves it exactly one legal
card, so outcomes are exact; where a rule needs a player who challenges (R8) or draws
voluntarily (R7), one seat gets a bot that does (``greedy`` with ``challenge_rate = 1``,
``wild_saver`` with ``draw_before_wild``), since B0 never does either.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from unosim.rules import cards
from unosim.rules.config import ConfigError, default_config, to_params
from unosim.engine import batch as B
from unosim.engine import hand as H
from unosim.kernel import layout as L
from unosim.rules import params as slots
from unosim.kernel.moves import is_legal
from unosim.kernel.table import hand_points, next_seat
from unosim.scenario import Scenario

CHALLENGER = {"strategy": "greedy", "challenge_rate": 1.0}  # challenges every Wild Draw Four


def seats(n: int = 4, **special: object) -> list:
    """B0 everywhere but the seats named: seats(s1=CHALLENGER)."""
    out: list = ["random"] * n
    for key, bot in special.items():
        out[int(key[1:])] = bot
    return out


def kinds(names: list[str]) -> list[int]:
    return sorted(cards.parse(x) for x in names)


def events_of(sc: Scenario, ev: int) -> list[tuple[int, int, int, int]]:
    return [e for e in sc.events() if e[0] == ev]


# =========================================================================== R1 cards
def test_r1_deck_composition() -> None:
    """R1: 108 cards of 54 kinds; per colour one 0 and two of 1-9, Skip, Reverse, Draw Two
    (25 per colour, 100 coloured); four Wild and four Wild Draw Four."""
    d = cards.deck_counts(1)
    assert d.shape == (54,) and d.sum() == 108 and cards.N_KINDS == 54
    for c in range(4):
        per = {r: int(d[cards.kind(c, r)]) for r in range(13)}
        assert per == {0: 1, **{r: 2 for r in range(1, 13)}}
        assert sum(per.values()) == 25
    assert d[:52].sum() == 100 and d[cards.WILD] == 4 and d[cards.WILD_DRAW4] == 4
    assert len({cards.name(k) for k in range(54)}) == 54
    assert all(cards.parse(cards.name(k)) == k for k in range(54))


@pytest.mark.parametrize("decks", [1, 2])
def test_r1_kernel_builds_the_deck_and_decks_2_doubles_it(decks: int) -> None:
    """R1: build_deck fills the draw pile with every card once (twice with decks = 2)."""
    P = to_params(default_config(decks=decks))
    st = np.zeros(L.N_STATE, np.int64)
    H.reset(st, P, 0)
    H.build_deck(st, P)
    pile = st[L.S_DRAW0:L.S_DRAW0 + st[L.S_NDRAW]]
    assert st[L.S_NDRAW] == st[L.S_TOTAL] == 108 * decks and st[L.S_NDISC] == 0
    assert np.array_equal(np.bincount(pile, minlength=54), cards.deck_counts(1) * decks)


def test_r2_each_card_dealt_is_uniform_over_the_deck() -> None:
    """R2: the deal is from a shuffled pile: the first card dealt is each of the 108 cards
    with the same chance (the engine draws a uniform card of those left, kernel.piles)."""
    from scipy.stats import chisquare
    seen = np.zeros(54, np.int64)
    for seed in range(3000):
        st, *_ = fresh_deal(players=2, dealer=1, seed=seed, hand_size=1)
        seen += st[L.S_HAND0:L.S_HAND0 + 54]
    expected = cards.deck_counts(1) / 108 * seen.sum()
    assert chisquare(seen, expected).pvalue > 1e-4


def test_r1_points_per_card() -> None:
    """R1: a number scores its face value (a 0 scores 0), Skip/Reverse/Draw Two 20, wilds 50."""
    expected = {"R0": 0, "Y1": 1, "G5": 5, "B9": 9, "RS": 20, "YR": 20, "G+2": 20, "W": 50, "W+4": 50}
    for name, pts in expected.items():
        assert cards.points(cards.parse(name)) == pts, name
    table = to_params(default_config())[slots.P_SCORE0:slots.P_SCORE0 + 54]
    assert np.array_equal(table, [cards.points(k) for k in range(54)])


@pytest.mark.parametrize("zero_points, total", [(0, 165), (10, 175)])
def test_r1_h17_kernel_scores_a_hand(zero_points: int, total: int) -> None:
    """R1/H17: the kernel's hand score; zero_points = 10 makes each 0 worth 10."""
    sc = Scenario.build({0: "R0 R5 GS BR Y+2 W W+4"}, top="B1", zero_points=zero_points)
    assert hand_points(sc.st, sc.P, 0) == total


# =========================================================================== R2 the deal
def fresh_deal(players: int = 4, dealer: int = 2, seed: int = 3, **rules: object):
    """reset + build_deck + deal, as play_hand does; returns (st, P, rng, log, shuffled deck)."""
    P = to_params(default_config(players=players, **rules))
    st = np.zeros(L.N_STATE, np.int64)
    rng = np.array([seed], np.uint64)
    log = np.zeros((4000, L.LOG_WIDTH), np.int64)
    H.reset(st, P, dealer)
    H.build_deck(st, P)
    deck = st[L.S_DRAW0:L.S_DRAW0 + st[L.S_NDRAW]].copy()
    H.deal(st, P, rng, log)
    return st, P, rng, log, deck


def test_r2_deal_hand_size_each_rest_is_the_draw_pile() -> None:
    """R2: 7 cards each, dealt one at a time starting left of the dealer; the other 80
    cards are the draw pile."""
    st, P, rng, log, deck = fresh_deal(players=4, dealer=2)
    assert st[L.S_HS0:L.S_HS0 + 4].tolist() == [7, 7, 7, 7]
    pile = st[L.S_DRAW0:L.S_DRAW0 + 80]
    deals = log[:st[L.S_NLOG]]
    assert (deals[:, 0] == L.EV_DEAL).all() and len(deals) == 28
    assert deals[:8, 1].tolist() == [3, 0, 1, 2, 3, 0, 1, 2]  # seat after the dealer first
    assert st[L.S_NDRAW] == 80
    assert np.array_equal(np.bincount(deals[:, 2], minlength=54) + np.bincount(pile, minlength=54),
                          np.bincount(deck, minlength=54))
    for s in range(4):
        got = np.bincount(deals[deals[:, 1] == s, 2], minlength=54)
        assert np.array_equal(got, st[L.S_HAND0 + s * 54:L.S_HAND0 + (s + 1) * 54])


@pytest.mark.parametrize("players, hand_size, decks, ok", [
    (4, 26, 1, True), (4, 27, 1, False), (2, 53, 1, None), (10, 10, 1, True), (10, 11, 1, False),
    (4, 27, 2, True), (10, 21, 2, True), (10, 22, 2, False), (9, 12, 1, False),
])
def test_r2_config_refuses_a_deal_that_leaves_no_card_to_turn(players: int, hand_size: int, decks: int,
                                                              ok: bool | None) -> None:
    """R2: players x hand_size >= 108 x decks is refused (naming table.hand_size)."""
    if ok is None:  # 53 is beyond hand_size's own range: refused either way
        with pytest.raises(ConfigError):
            default_config(players=players, hand_size=hand_size, decks=decks)
        return
    if ok:
        assert default_config(players=players, hand_size=hand_size, decks=decks).hand_size == hand_size
    else:
        with pytest.raises(ConfigError, match="hand_size") as e:
            default_config(players=players, hand_size=hand_size, decks=decks)
        assert e.value.key == "table.hand_size"


# =========================================================================== R3 the first card
def turn_up(top: str, *, players: int = 4, dealer: int = 0, seed: int = 5, **rules: object):
    """Deal, put a copy of ``top`` on top of the draw pile, then turn the first card.
    Returns (st, events of the turn-up, draw pile before turning)."""
    k = cards.parse(top)
    for s in range(seed, seed + 100):  # a deal that left a copy of ``top`` in the draw pile
        st, P, rng, log, _ = fresh_deal(players=players, dealer=dealer, seed=s, **rules)
        n = int(st[L.S_NDRAW])
        pile = st[L.S_DRAW0:L.S_DRAW0 + n]
        where = np.flatnonzero(pile == k)
        if where.size:
            break
    i = int(where[0])
    pile[i], pile[n - 1] = pile[n - 1], pile[i]
    st[L.S_PILE_KNOWN] = n  # drawn in the order laid out, top first (kernel.piles)
    before = pile.copy()
    mark = int(st[L.S_NLOG])
    H.turn_first_card(st, P, rng, log)
    events = [tuple(int(x) for x in e) for e in log[mark:st[L.S_NLOG]]]
    return st, events, before


@pytest.mark.parametrize("seed", range(6))
def test_r3_wild_draw4_goes_back_and_the_pile_is_reshuffled(seed: int) -> None:
    """R3: a turned Wild Draw Four goes back into the draw pile, which is reshuffled
    (the pile is unordered again: the next card turned is a uniform one of it), and another
    card is turned; the W+4 stays in the draw pile."""
    st, events, before = turn_up("W+4", seed=seed)
    assert events[0] == (L.EV_RETURN, cards.WILD_DRAW4, 0, 0)
    assert st[L.S_TOP] != cards.WILD_DRAW4
    assert [e[0] for e in events].count(L.EV_TURN_UP) == 1
    after = st[L.S_DRAW0:L.S_DRAW0 + st[L.S_NDRAW]]
    drawn = [e[2] for e in events if e[0] == L.EV_DRAW]  # a turned Draw Two's penalty
    left = np.bincount(before, minlength=54) - np.bincount(drawn, minlength=54)
    left[st[L.S_TOP]] -= 1
    assert np.array_equal(np.bincount(after, minlength=54), left)
    assert st[L.S_PILE_KNOWN] == 0, "the draw pile was reshuffled"
    assert st[L.S_PLAYED] == st[L.S_TURNS] == 0


def test_r3_wild_first_player_names_the_colour_then_plays() -> None:
    """R3: a turned Wild: the first player (after the dealer) names the colour and then plays."""
    st, events, _ = turn_up("W", dealer=1)
    assert st[L.S_TOP] == cards.WILD and 0 <= st[L.S_COLOR] < 4
    assert (L.EV_PLAY, -1, cards.WILD, int(st[L.S_COLOR])) in events
    assert st[L.S_CUR] == st[L.S_FIRST] == 2 and st[L.S_DIR] == 1
    assert st[L.S_HS0 + 2] == 7 and st[L.S_DRAWN] == 0 and st[L.S_PLAYED] == 0


@pytest.mark.parametrize("skips, cur", [(True, 2), (False, 1)])
def test_r3_h15_draw_two_draws_two_and_loses_the_turn_or_plays(skips: bool, cur: int) -> None:
    """R3: a turned Draw Two: the first player draws 2 and loses the turn; H15
    first_draw2_skips = false: draws 2 and then plays.  Nothing is pending to stack on."""
    st, events, before = turn_up("Y+2", dealer=0, first_draw2_skips=skips)
    assert st[L.S_HS0 + 1] == 9 and st[L.S_DRAWN] == 2
    drawn = [e[2] for e in events if e[0] == L.EV_DRAW]
    assert [e[1] for e in events if e[0] == L.EV_DRAW] == [1, 1]
    assert drawn == before[::-1][1:3].tolist()  # the two cards under the turned one
    assert st[L.S_CUR] == st[L.S_FIRST] == cur
    assert st[L.S_TURNS] == 0 and st[L.S_PENDING] == 0 and st[L.S_COLOR] == cards.YELLOW
    assert ((L.EV_SKIPPED, 1, 0, 0) in events) == skips


def test_r3_skip_first_player_is_skipped() -> None:
    st, events, _ = turn_up("GS", dealer=3)
    assert st[L.S_CUR] == st[L.S_FIRST] == 1 and (L.EV_SKIPPED, 0, 0, 0) in events
    assert st[L.S_HS0:L.S_HS0 + 4].tolist() == [7] * 4 and st[L.S_DIR] == 1


def test_r3_reverse_dealer_plays_first_anticlockwise() -> None:
    st, events, _ = turn_up("BR", dealer=2)
    assert st[L.S_DIR] == -1 and st[L.S_CUR] == st[L.S_FIRST] == 2
    assert next_seat(st, 2) == 1  # play goes on anticlockwise from the dealer


@pytest.mark.parametrize("top", ["R5", "B0", "G7", "Y9"])
def test_r3_number_card_has_no_effect(top: str) -> None:
    st, events, _ = turn_up(top, dealer=1)
    assert st[L.S_CUR] == st[L.S_FIRST] == 2 and st[L.S_DIR] == 1
    assert st[L.S_COLOR] == cards.color_of(cards.parse(top)) and st[L.S_DRAWN] == 0
    assert [e[0] for e in events] == [L.EV_TURN_UP]


@pytest.mark.parametrize("top", ["RS", "YR", "G+2", "W", "W+4"])
def test_r3_h16_number_only_turns_until_a_number(top: str) -> None:
    """H16: each turned action or wild card goes back (and the pile is reshuffled) until a
    number card shows; the number has no effect."""
    st, events, before = turn_up(top, first_card="number_only", dealer=0)
    assert events[0] == (L.EV_RETURN, cards.parse(top), 0, 0)
    k = int(st[L.S_TOP])
    assert k < cards.WILD and cards.rank_of(k) <= 9
    returned = [e[1] for e in events if e[0] == L.EV_RETURN]
    assert all(r >= cards.WILD or cards.rank_of(r) >= 10 for r in returned)
    assert st[L.S_CUR] == 1 and st[L.S_DIR] == 1 and st[L.S_DRAWN] == 0
    assert st[L.S_NDRAW] == len(before) - 1


@pytest.mark.parametrize("mode, cur, direction", [("skip", 0, -1), ("none", 1, 1)])
def test_r3_h14_two_players_turned_reverse(mode: str, cur: int, direction: int) -> None:
    """R3: with 2 players a turned Reverse lets the dealer play first; with H14
    two_player_reverse = "none" it has no effect."""
    st, _, _ = turn_up("RR", players=2, dealer=0, two_player_reverse=mode)
    assert st[L.S_CUR] == st[L.S_FIRST] == cur and st[L.S_DIR] == direction


# =========================================================================== R4 the dealer
def test_r4_rotate_dealer_is_hand_index_mod_players() -> None:
    """R4: independent hands of a batch are dealt by seat index mod players ("rotate"; also
    "winner", which has no previous hand to follow)."""
    for mode in ("rotate", "winner"):
        for n in (2, 3, 4, 7):
            P = to_params(default_config(players=n, dealer=mode))
            rng = np.zeros(1, np.uint64)
            assert [B.hand_dealer(P, rng, i) for i in range(25)] == [i % n for i in range(25)]
    cfg = default_config(players=5)
    out = B.new_out(40)
    B.play_hands(to_params(cfg), 9, 100, 40, out, 4)
    assert (out[:, L.O_DEALER] == (100 + np.arange(40)) % 5).all()


def test_r4_random_dealer_is_uniform() -> None:
    """R4: dealer = "random" picks a seat uniformly from the hand's own random stream
    (chi-square over 6000 hands, 5 seats; the 0.1% critical value of chi2(4) is 18.5)."""
    from unosim.kernel.rng import stream_start

    P = to_params(default_config(players=5, dealer="random"))
    rng = np.zeros(1, np.uint64)
    dealers = []
    for i in range(6000):
        rng[0] = stream_start(3, B.STREAM_HANDS, i)
        dealers.append(B.hand_dealer(P, rng, i))
    counts = np.bincount(dealers, minlength=5)
    assert counts.sum() == 6000 and len(counts) == 5
    chi2 = ((counts - 1200) ** 2 / 1200).sum()
    assert chi2 < 18.5, counts
    out = B.new_out(300)
    B.play_hands(P, 3, 0, 300, out, 4)
    assert np.array_equal(out[:, L.O_DEALER], dealers[:300])


# =========================================================================== R5 matching
def legal_set(sc: Scenario, seat: int = 0) -> set[str]:
    return {cards.name(k) for k in range(54) if is_legal(sc.st, sc.P, seat, k)}


def test_r5_matching_colour_number_symbol() -> None:
    """R5: a card matches the top card's colour, number or symbol, or is a Wild; the Wild
    Draw Four only without a card of the colour (R8)."""
    sc = Scenario.build({0: "B1"}, top="R5")
    legal = legal_set(sc)
    expected = {cards.name(cards.kind(cards.RED, r)) for r in range(13)} | {"Y5", "G5", "B5", "W"}
    assert legal == expected | {"W+4"}  # seat 0 holds no red card: its W+4 would be legal
    sc = Scenario.build({0: "G1 W+4"}, top="GS")
    legal = legal_set(sc)
    assert {"RS", "YS", "BS", "G0", "G9", "G+2", "W"} <= legal
    assert not legal & {"R5", "Y+2", "BR", "W+4"}


def test_r5_named_colour_after_a_wild() -> None:
    """R5: after a Wild the named colour is in force, and no number or symbol matches it."""
    sc = Scenario.build({0: "Y3"}, top="W", color="blue")
    legal = legal_set(sc)
    assert legal == {cards.name(cards.kind(cards.BLUE, r)) for r in range(13)} | {"W", "W+4"}
    sc = Scenario.build({0: "G1 W+4"}, top="W+4", color="green")
    assert "W+4" not in legal_set(sc) and "G7" in legal_set(sc) and "R+2" not in legal_set(sc)


@pytest.mark.parametrize("hand, top, color, plays", [
    ("G7 B3 Y5", "R5", None, "Y5"),   # number
    ("G7 R1 Y4", "R5", None, "R1"),   # colour
    ("GR R3 Y5", "BR", None, "GR"),   # symbol
    ("G+2 Y1 R2", "W", "yellow", "Y1"),  # named colour after a wild
])
def test_r5_the_kernel_plays_the_only_legal_card(hand: str, top: str, color: str | None, plays: str) -> None:
    for seed in range(5):
        sc = Scenario.build({0: hand, 1: "B8 B9"}, top=top, color=color, seed=seed).step()
        assert sc.top == plays and sc.count(0) == 2 and sc[L.S_PLAYED] == 1 and sc[L.S_DRAWN] == 0


# =========================================================================== R6 draw, then play it
@pytest.mark.parametrize("mode", ["may", "must"])
def test_r6_a_legal_drawn_card_is_played(mode: str) -> None:
    """R6: no legal card: draw one; a legal drawn card is played at once (B0 always does
    under "may"; "must" forces it); one turn, counted as played."""
    sc = Scenario.build({0: "G7 B3", 1: "Y8 Y9"}, top="R5", draw="R9 G1", play_drawn=mode).step()
    assert sc.top == "R9" and sorted(sc.hand(0)) == ["B3", "G7"]
    assert sc[L.S_TURNS] == 1 and sc[L.S_PLAYED] == 1 and sc[L.S_DRAWN] == 1 and sc.cur == 1


def test_r6_never_the_turn_ends_after_a_draw() -> None:
    sc = Scenario.build({0: "G7 B3", 1: "Y8 Y9"}, top="R5", draw="R9 G1", play_drawn="never").step()
    assert sc.top == "R5" and sorted(sc.hand(0)) == ["B3", "G7", "R9"]
    assert sc[L.S_TURNS] == 1 and sc[L.S_PLAYED] == 0 and sc.cur == 1
    assert events_of(sc, L.EV_KEEP) == [(L.EV_KEEP, 0, cards.parse("R9"), 0)]


@pytest.mark.parametrize("mode", ["may", "must"])
def test_r6_an_illegal_drawn_card_is_kept(mode: str) -> None:
    sc = Scenario.build({0: "G7 B3", 1: "Y8 Y9"}, top="R5", draw="G1 R9", play_drawn=mode).step()
    assert sc.top == "R5" and sorted(sc.hand(0)) == ["B3", "G1", "G7"] and sc.cur == 1
    assert sc[L.S_TURNS] == 1 and sc[L.S_DRAWN] == 1


def test_r6_only_the_drawn_card_is_played_after_drawing() -> None:
    """R6: a drawn Wild is played, and nothing else goes down with it."""
    for seed in range(5):
        sc = Scenario.build({0: "G7 B3", 1: "Y8 Y9"}, top="R5", draw="W", seed=seed).step()
        assert sc.top == "W" and sorted(sc.hand(0)) == ["B3", "G7"] and sc[L.S_PLAYED] == 1


# =========================================================================== R7 / H8 voluntary draw
def test_r7_b0_never_draws_with_a_legal_card() -> None:
    """B0/R7: B0 holding a legal card plays it, never drawing voluntarily."""
    for vol in (True, False):
        for seed in range(10):
            sc = Scenario.build({0: "R7 G2 B1", 1: "Y8 Y9"}, top="R5", draw="R9", seed=seed,
                                voluntary_draw=vol).step()
            assert sc.top == "R7" and sc[L.S_DRAWN] == 0


@pytest.mark.parametrize("voluntary, drew", [(True, True), (False, False)])
def test_r7_h8_voluntary_draw(voluntary: bool, drew: bool) -> None:
    """R7: a player may draw instead of playing a legal card (a wild_saver seat that saves
    its only playable card, a Wild); H8 voluntary_draw = false: it must play."""
    saver = {"strategy": "wild_saver", "draw_before_wild": True}
    sc = Scenario.build({0: "W G1 G2 G3", 1: "Y8 Y9"}, top="B5", draw="G9", voluntary_draw=voluntary,
                        seats=seats(s0=saver)).step()
    assert sc[L.S_TURNS] == 1 and sc.cur == 1
    if drew:
        assert sc.top == "B5" and sorted(sc.hand(0)) == ["G1", "G2", "G3", "G9", "W"] and sc[L.S_DRAWN] == 1
    else:
        assert sc.top == "W" and sc[L.S_DRAWN] == 0 and sc.count(0) == 3


# =========================================================================== R8 Wild Draw Four
def test_r8_b0_never_plays_an_illegal_wild_draw4() -> None:
    """R8: holding a card of the colour in force, B0 never plays its Wild Draw Four."""
    for seed in range(30):
        sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9"}, top="R5", seed=seed).step()
        assert sc.top in ("R7", "G5")


def test_r8_only_colour_counts_not_number_matches() -> None:
    """R8: cards that match only by number or symbol do not make the W+4 illegal."""
    tops = Counter()
    for seed in range(40):
        sc = Scenario.build({0: "W+4 G5 YS", 1: "Y8 Y9"}, top="R5", seed=seed).step()
        tops[sc.top] += 1
        if sc.top == "W+4":
            assert sc[L.S_BLUFF] == 0 and sc[L.S_PENDING] == 4
    assert set(tops) == {"W+4", "G5"} and tops["W+4"] >= 8  # binomial(40, 1/2): >= 8 always in practice


def test_r8_colour_after_a_wild_is_the_named_one() -> None:
    sc = Scenario.build({0: "W+4 B1", 1: "Y8"}, top="W", color="blue")
    assert not is_legal(sc.st, sc.P, 0, cards.WILD_DRAW4)
    sc = Scenario.build({0: "W+4 R1", 1: "Y8"}, top="W", color="blue")
    assert is_legal(sc.st, sc.P, 0, cards.WILD_DRAW4)
    sc.step()
    assert sc.top == "W+4" and sc[L.S_BLUFF] == 0


def test_r8_unchallenged_bluff_next_draws_four_and_loses_the_turn() -> None:
    """R8: a bluff (a W+4 played while holding the colour) is recorded; B0 never challenges,
    so the next player draws 4 and loses the turn; drawing the penalty is not a turn."""
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "B1"}, top="R5", draw="G1 G2 G3 G4 G6")
    sc.play(0, "W+4")
    assert sc[L.S_BLUFF] == 1 and sc[L.S_BLUFFER] == 0 and sc[L.S_PENDING] == 4 and sc.cur == 1
    sc.step()
    assert sorted(sc.hand(1)) == ["G1", "G2", "G3", "G4", "Y8", "Y9"] and sc.cur == 2
    assert sc[L.S_CHALLENGES] == 0 and sc[L.S_TURNS] == 1 and sc[L.S_DRAWN] == 4
    assert sc[L.S_PENDING] == 0 and sc.count(0) == 2


@pytest.mark.parametrize("h9, cur", [(False, 1), (True, 2)])
def test_r8_h9_challenge_proves_a_bluff(h9: bool, cur: int) -> None:
    """R8: bluff proven: the bluffer draws the 4, the challenger takes the turn normally;
    H9 challenge_success_skip: the challenger still loses the turn."""
    sc = Scenario.build({0: "W+4 R7 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6",
                        seats=seats(s1=CHALLENGER), challenge_success_skip=h9)
    sc.play(0, "W+4").step()
    assert sc[L.S_CHALLENGES] == 1 and events_of(sc, L.EV_CHALLENGE) == [(L.EV_CHALLENGE, 1, 0, 1)]
    assert sorted(sc.hand(0)) == ["G1", "G2", "G3", "G4", "G5", "R7"]
    assert sorted(sc.hand(1)) == ["Y8", "Y9"] and sc.cur == cur and sc[L.S_PENDING] == 0
    assert sc[L.S_TURNS] == 1


@pytest.mark.parametrize("extra", [2, 3])
def test_r8_h18_challenge_of_a_legal_wild_draw4(extra: int) -> None:
    """R8: legal W+4 challenged: the challenger draws 4 + challenge_extra (6) and loses the turn."""
    sc = Scenario.build({0: "W+4 G5", 1: "Y8 Y9", 2: "B1 B2"}, top="R5", draw="G1 G2 G3 G4 G6 G7 G8",
                        seats=seats(s1=CHALLENGER), challenge_extra=extra)
    sc.play(0, "W+4").step()
    assert events_of(sc, L.EV_CHALLENGE) == [(L.EV_CHALLENGE, 1, 0, 0)]
    assert sc.count(1) == 2 + 4 + extra and sc.hand(0) == ["G5"] and sc.cur == 2


@pytest.mark.parametrize("rules", [{"challenge": False}, {"wild_draw4": "free"}])
def test_r8_no_challenge_when_off_or_free(rules: dict) -> None:
    """R8: challenge = false, or wild_draw4 = "free": even a challenging bot just draws 4."""
    sc = Scenario.build({0: "W+4 R7", 1: "Y8 Y9", 2: "B1"}, top="R5", draw="G1 G2 G3 G4",
                        seats=seats(s1=CHALLENGER), **rules)
    sc.play(0, "W+4").step()
    assert sc[L.S_CHALLENGES] == 0 and sc.count(1) == 6 and sc.count(0) == 1 and sc.cur == 2


def test_r8_free_wild_draw4_is_legal_with_the_colour() -> None:
    sc = Scenario.build({0: "W+4 R7"}, top="R5", wild_draw4="free")
    assert is_legal(sc.st, sc.P, 0, cards.WILD_DRAW4)
    sc.play(0, "W+4")
    assert sc[L.S_BLUFF] == 0


@pytest.mark.parametrize("bluff, cur, drawer, size", [(True, 1, 0, 6), (False, 0, 1, 8)])
def test_r8_r9_challenge_with_two_players(bluff: bool, cur: int, drawer: int, size: int) -> None:
    """R8 with 2 players: a proven bluff gives the challenger the turn; a legal W+4 makes
    the challenger draw 6 and its player plays again (R9)."""
    hand0 = "W+4 R7 G5" if bluff else "W+4 G5 G6"
    sc = Scenario.build({0: hand0, 1: "Y8 Y9"}, top="R5", draw="G1 G2 G3 G4 B6 B7", players=2,
                        seats=seats(2, s1=CHALLENGER))
    sc.play(0, "W+4").step()
    assert sc.cur == cur and sc.count(drawer) == size


# =========================================================================== R9 effects
HANDS4 = {0: "RS RR R+2 W W+4 R3 G1", 1: "Y8 Y9", 2: "B1 B2", 3: "G8 G9"}


@pytest.mark.parametrize("card, direction, cur", [
    ("R3", 1, 1), ("RS", 1, 2), ("RR", 1, 3), ("RS", -1, 2), ("RR", -1, 1), ("R3", -1, 3),
])
def test_r9_skip_reverse_and_plain_cards(card: str, direction: int, cur: int) -> None:
    sc = Scenario.build(HANDS4, top="R5", direction=direction).play(0, card)
    assert sc.cur == cur
    flips = card == "RR"
    assert sc[L.S_DIR] == (-direction if flips else direction)
    if card == "RS":
        assert events_of(sc, L.EV_SKIPPED) == [(L.EV_SKIPPED, (0 + direction) % 4, 0, 0)]


def test_r9_reverse_with_three_players() -> None:
    sc = Scenario.build({0: "RR R1", 1: "Y8", 2: "B1"}, top="R5", players=3).play(0, "RR")
    assert sc[L.S_DIR] == -1 and sc.cur == 2


@pytest.mark.parametrize("card, amount", [("R+2", 2), ("W+4", 4)])
def test_r9_draw_cards_next_player_draws_and_loses_the_turn(card: str, amount: int) -> None:
    sc = Scenario.build({**HANDS4, 0: "R+2 W+4 G1"}, top="R5", draw="Y1 Y2 Y3 Y4 Y5").play(0, card)
    assert sc[L.S_PENDING] == amount and sc.cur == 1
    turns = sc[L.S_TURNS]
    sc.step()
    assert sc.count(1) == 2 + amount and sc.cur == 2 and sc[L.S_TURNS] == turns
    assert sc[L.S_DRAWN] == amount and sc[L.S_MAX_DRAW] == amount
    assert events_of(sc, L.EV_SKIPPED) == [(L.EV_SKIPPED, 1, 0, 0)]


def test_r9_wild_names_a_colour() -> None:
    named = set()
    for seed in range(40):
        sc = Scenario.build(HANDS4, top="R5", seed=seed).play(0, "W")
        play = events_of(sc, L.EV_PLAY)[-1]
        assert play[:3] == (L.EV_PLAY, 0, cards.WILD) and play[3] == sc[L.S_COLOR]
        assert sc.cur == 1 and sc.top == "W"
        named.add(sc.color)
    assert named == set("RYGB")


@pytest.mark.parametrize("card", ["RS", "RR", "R+2", "W+4"])
def test_r9_two_players_the_player_plays_again(card: str) -> None:
    """R9: with 2 players Skip, Reverse (H14 "skip"), Draw Two and W+4 let the player play again."""
    sc = Scenario.build({0: "RS RR R+2 W+4 R1", 1: "Y8 Y9"}, top="R5", draw="Y1 Y2 Y3 Y4",
                        players=2).play(0, card)
    if sc[L.S_PENDING]:
        sc.step()
    assert sc.cur == 0
    assert sc.count(1) == 2 + {"R+2": 2, "W+4": 4}.get(card, 0)


def test_r9_h14_two_player_reverse_none_has_no_effect() -> None:
    sc = Scenario.build({0: "RR R1", 1: "Y8 Y9"}, top="R5", players=2, two_player_reverse="none")
    sc.play(0, "RR")
    assert sc.cur == 1 and not events_of(sc, L.EV_SKIPPED)


@pytest.mark.parametrize("card, key", [("R+2", "draw2_amount"), ("W+4", "draw4_amount")])
def test_r9_h18_zero_amount_draw_card_still_skips(card: str, key: str) -> None:
    """R9/H18: "the next player draws draw2_amount and loses the turn": with 0 to draw, the
    turn is still lost (as R3's turned Draw Two does with amount 0)."""
    sc = Scenario.build({0: "R+2 W+4 G1", 1: "Y8 Y9", 2: "B1"}, top="R5", **{key: 0})
    sc.play(0, card)
    assert sc[L.S_PENDING_KIND] >= 0 and sc[L.S_PENDING] == 0
    sc.step()
    assert sc.cur == 2 and sc.count(1) == 2


# =========================================================================== R10 UNO
def test_r10_forgotten_and_caught_draws_two_before_the_effect() -> None:
    """R10: uno_forget = 1, uno_caught = 1: playing the second-to-last card (a Draw Two)
    costs 2 cards at once, before the Draw Two's penalty hits the next player."""
    sc = Scenario.build({0: "R+2 G2", 1: "Y8 Y9"}, top="R5", draw="B1 B2 B3 B4", uno_forget=1.0)
    sc.step()
    assert sc.top == "R+2" and sorted(sc.hand(0)) == ["B1", "B2", "G2"]
    assert sc[L.S_UNO_PENALTIES] == 1 and sc[L.S_DRAWN] == 2 and sc[L.S_PENDING] == 2
    ev = sc.events()
    assert ev[1] == (L.EV_UNO, 0, 1, 1) and ev[2][:2] == (L.EV_DRAW, 0)
    sc.step()
    assert sorted(sc.hand(1)) == ["B3", "B4", "Y8", "Y9"] and sc.cur == 2


def test_r10_a_drawn_second_to_last_card_needs_the_call_too() -> None:
    sc = Scenario.build({0: "G7", 1: "Y8 Y9"}, top="R5", draw="R9 B1 B2", uno_forget=1.0).step()
    assert sc.top == "R9" and sorted(sc.hand(0)) == ["B1", "B2", "G7"] and sc[L.S_UNO_PENALTIES] == 1


def test_r10_forgotten_not_caught() -> None:
    sc = Scenario.build({0: "R7 G2", 1: "Y8"}, top="R5", draw="B1 B2", uno_forget=1.0, uno_caught=0.0).step()
    assert sc.hand(0) == ["G2"] and sc[L.S_UNO_PENALTIES] == 0 and sc[L.S_DRAWN] == 0
    assert events_of(sc, L.EV_UNO) == [(L.EV_UNO, 0, 1, 0)]


def test_r10_default_always_calls_and_only_on_the_second_to_last_card() -> None:
    sc = Scenario.build({0: "R7 G2 G3", 1: "Y8 Y9", 2: "B1", 3: "B2"}, top="R5", draw="B3 B4", uno_forget=1.0)
    sc.step()
    assert not events_of(sc, L.EV_UNO) and sc[L.S_DRAWN] == 0  # 3 -> 2 cards: no call needed
    sc = Scenario.build({0: "R7 G2", 1: "Y8"}, top="R5", draw="B1 B2").step()
    assert events_of(sc, L.EV_UNO) == [(L.EV_UNO, 0, 0, 0)] and sc.count(0) == 1


# =========================================================================== R11 the draw pile
def test_r11_lazy_reshuffle_all_discards_but_the_top() -> None:
    """R11: when a card must be drawn from an empty pile, the discards under the top are
    shuffled into a new draw pile at that moment; the top stays."""
    sc = Scenario.build({0: "B7", 1: "Y8"}, top="R5", discard="G1 G2 G3")
    total = sc.cards_in_play()
    assert sc[L.S_RESHUFFLES] == 0  # nothing happens before a card is needed
    sc.step()
    assert sc[L.S_RESHUFFLES] == 1 and sc.discard_pile() == ["R5"]
    assert events_of(sc, L.EV_RESHUFFLE) == [(L.EV_RESHUFFLE, 3, 0, 0)]
    assert sorted(sc.hand(0) + sc.draw_pile()) == ["B7", "G1", "G2", "G3"]
    assert sc.count(0) == 2 and sc.cards_in_play() == total and sc.cur == 1


def test_r11_no_reshuffle_while_the_pile_has_cards() -> None:
    sc = Scenario.build({0: "B7", 1: "Y8"}, top="R5", discard="G1 G2 G3", draw="G4").step()
    assert sc[L.S_RESHUFFLES] == 0 and sc.discard_pile() == ["G1", "G2", "G3", "R5"]


def test_r11_a_penalty_is_drawn_as_far_as_it_goes() -> None:
    """R11: a W+4 with one card in the draw pile and one discard under the top: the victim
    draws those 2 (one after a reshuffle), the other 2 are forfeited, the turn is lost."""
    sc = Scenario.build({0: "W+4 G1", 1: "Y8", 2: "B1"}, top="R5", draw="Y1")
    sc.play(0, "W+4").step()
    assert sorted(sc.hand(1)) == ["R5", "Y1", "Y8"] and sc[L.S_DRAWN] == 2 and sc[L.S_MAX_DRAW] == 2
    assert sc[L.S_RESHUFFLES] == 1 and sc[L.S_PENDING] == 0 and sc.cur == 2
    assert (L.EV_PENALTY, 1, 2, L.DR_PENALTY) in sc.events()


def test_r11_a_player_who_cannot_draw_passes_and_that_is_a_turn() -> None:
    sc = Scenario.build({0: "G7 B2", 1: "Y8"}, top="R5").step()
    assert events_of(sc, L.EV_PASS) == [(L.EV_PASS, 0, 0, 0)]
    assert sc[L.S_TURNS] == 1 and sc.cur == 1 and sc.count(0) == 2 and sc[L.S_DRAWN] == 0


# =========================================================================== R12 the end
def test_r12_the_last_card_ends_the_hand() -> None:
    sc = Scenario.build({0: "R7", 1: "Y8", 2: "B1", 3: "G1"}, top="R5").step()
    assert sc.done and sc.winner == 0 and sc[L.S_STALLED] == 0 and not events_of(sc, L.EV_UNO)
    assert events_of(sc, L.EV_OUT) == [(L.EV_OUT, 0, 1, 0)] and sc.events()[-1] == (L.EV_END, 0, 0, 0)


@pytest.mark.parametrize("card, amount, direction, victim", [
    ("R+2", 2, 1, 1), ("W+4", 4, 1, 1), ("R+2", 2, -1, 3), ("W+4", 4, -1, 3),
])
def test_r12_a_last_draw_card_still_makes_the_next_player_draw(card: str, amount: int, direction: int,
                                                               victim: int) -> None:
    """R12: the next player draws the cards (counted in cards_drawn, left in their hand for
    scoring), even when that player would challenge; nothing else happens."""
    sc = Scenario.build({0: card, 1: "Y8", 2: "B1", 3: "G1"}, top="R5", draw="Y1 Y2 Y3 Y4 Y5",
                        direction=direction, seats=seats(s1=CHALLENGER, s3=CHALLENGER)).step()
    assert sc.done and sc.winner == 0 and sc.count(victim) == 1 + amount
    assert sc[L.S_DRAWN] == amount and sc[L.S_PENDING] == 0 and sc[L.S_CHALLENGES] == 0
    assert sc.draw_pile() == ["Y1", "Y2", "Y3", "Y4", "Y5"][amount:]
    row = B.new_out(1)
    B.write_row(sc.st, sc.P, row, 0, 0)
    assert row[0, L.O_CARDS0 + victim] == 1 + amount and row[0, L.O_DRAWN] == amount


@pytest.mark.parametrize("card", ["RS", "RR", "W", "R3"])
def test_r12_no_other_effect_of_a_last_card(card: str) -> None:
    sc = Scenario.build({0: card, 1: "Y8", 2: "B1", 3: "G1"}, top="R5", draw="Y1 Y2").step()
    assert sc.done and sc.winner == 0 and sc[L.S_DIR] == 1 and sc[L.S_DRAWN] == 0
    assert not events_of(sc, L.EV_SKIPPED) and not events_of(sc, L.EV_REVERSE)
    assert [sc.count(s) for s in range(4)] == [0, 1, 1, 1]


# =========================================================================== R13 max_turns
def test_r13_max_turns_stalls_with_no_winner() -> None:
    sc = Scenario.build({0: "R1 R2 R3", 1: "R4 R6 R7", 2: "R8 R9 G1", 3: "Y1 Y2 Y3"}, top="R5",
                        draw="B1 B2 B3 B4", max_turns=3).run(20)
    assert sc.done and sc.winner == -1 and sc[L.S_STALLED] == 1 and sc[L.S_TURNS] == 3
    ev = sc.events()
    assert ev[-2] == (L.EV_STALL, 0, 0, 0) and ev[-1] == (L.EV_END, -1, 0, 0)


@pytest.mark.parametrize("max_turns", [1, 2])
def test_r13_a_hand_won_on_its_last_allowed_turn_is_won(max_turns: int) -> None:
    hands = {0: "R7", 1: "Y8"} if max_turns == 1 else {0: "R7 B1", 1: "R9"}
    sc = Scenario.build(hands, top="R5", players=2, max_turns=max_turns).run(10)
    assert sc.done and sc[L.S_STALLED] == 0 and sc[L.S_TURNS] == max_turns
    assert sc.winner == (0 if max_turns == 1 else 1)
