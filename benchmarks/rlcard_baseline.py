#!/usr/bin/env python3
"""Baseline: RLCard's UNO game loop (rlcard 1.2.0), random play, for comparison with unosim.

Runs under a separate virtualenv that has rlcard installed (rlcard is NOT a dependency
of unosim); see benchmarks/rlcard_rules.md for the setup and for the rules RLCard plays:

    python3 -m venv rlcard-venv
    rlcard-venv/bin/pip install rlcard==1.2.0 numpy
    rlcard-venv/bin/python benchmarks/rlcard_baseline.py --hands 20000 --seed 1

It drives rlcard.games.uno.game.UnoGame directly (not the RL env, so no observation
encoding is timed): init_game(), then game.step(action) until game.is_over(). The whole
loop, including init_game, the policy and RLCard's own get_state() inside step(), runs
in this one process and is timed with time.perf_counter(). Prints one JSON object.

Policies (--policy):
  actions   (default) uniform over the list game.get_legal_actions() returns, as is.
            RLCard lists a coloured card once per physical copy ("r-5" twice for two
            red 5s) but a Wild as 4 actions (r/g/b/y-wild) however many Wilds are held,
            so a held Wild weighs 4 coloured cards.
  distinct  uniform over the distinct action strings: what rlcard's RandomAgent does
            through the env, whose legal actions are a dict of action ids.
  b0        unosim's reference bot B0: uniform over the legal physical cards in hand,
            then a uniform colour for a wild.
In every policy the action "draw" is listed only when nothing is legal, so it is then
the only choice.

It does not use benchmarks/harness.py: it is not a benchmark with a target but RLCard's
side of vs_rlcard.py and vs_rlcard_rules.py, whose protocol is one JSON object on stdout
(the harness prints a header there), and it runs in RLCard's virtualenv, which has no
unosim.  `--quick` plays 2,000 hands.
"""
import argparse
import json
import random
import sys
import time

import numpy as np


def choose_b0(actions, hand, rng):
    """B0: uniform among legal physical cards, then a uniform colour for a wild."""
    if actions == ["draw"]:
        return "draw"
    legal = set(actions)
    cards = []  # one entry per physical card that some legal action plays
    for card in hand:
        if card.type == "wild":
            if ("r-" + card.trait) in legal:
                cards.append(card.trait)
        elif card.str in legal:
            cards.append(card.str)
    pick = rng.choice(cards)
    if pick in ("wild", "wild_draw_4"):
        return rng.choice("rgby") + "-" + pick
    return pick


def run(hands, seed, players, policy, max_steps):
    import rlcard  # here, so that --help works without RLCard
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)  # RLCard's own RNG: deck, wild colours
    rng = random.Random(seed)  # the players' choices

    wins = [0] * players
    wins_rel = [0] * players  # by position in the initial order of play, 0 = first to act
    first_seat = [0] * players
    steps_total = 0
    steps_sq = 0
    draws_total = 0
    no_winner = {"crashed": 0, "step_cap": 0}
    errors = {}

    t0 = time.perf_counter()
    for _ in range(hands):
        _, first = game.init_game()
        first_seat[first] += 1
        direction0 = game.round.direction
        steps = 0
        draws = 0
        try:
            while not game.is_over():
                if steps >= max_steps:
                    no_winner["step_cap"] += 1
                    break
                actions = game.get_legal_actions()
                if policy == "actions":
                    action = rng.choice(actions)
                elif policy == "distinct":
                    action = rng.choice(sorted(set(actions)))
                else:
                    action = choose_b0(actions, game.players[game.round.current_player].hand, rng)
                if action == "draw":
                    draws += 1
                game.step(action)
                steps += 1
        except Exception as exc:  # e.g. IndexError: both piles empty (see rlcard_rules.md)
            no_winner["crashed"] += 1
            key = type(exc).__name__
            errors[key] = errors.get(key, 0) + 1
        steps_total += steps
        steps_sq += steps * steps
        draws_total += draws
        if game.is_over():
            payoffs = game.get_payoffs()
            winner = payoffs.index(1)  # the only +1; RLCard's -1 lands on seat 1 - winner
            assert game.round.winner == [winner]
            wins[winner] += 1
            wins_rel[((winner - first) * direction0) % players] += 1
    seconds = time.perf_counter() - t0

    won = sum(wins)
    return {
        "engine": "rlcard.games.uno.game.UnoGame",
        "rlcard_version": rlcard.__version__,
        "numpy_version": np.__version__,
        "python": sys.version.split()[0],
        "policy": policy,
        "players": players,
        "seed": seed,
        "hands": hands,
        "seconds": round(seconds, 3),
        "hands_per_s": round(hands / seconds, 1),
        "steps_per_s": round(steps_total / seconds, 1),
        "mean_actions_per_hand": round(steps_total / hands, 3),
        "sd_actions_per_hand": round(max(steps_sq / hands - (steps_total / hands) ** 2, 0.0) ** 0.5, 3),
        "win_counts_by_position_from_first_to_act": wins_rel,
        "mean_draw_actions_per_hand": round(draws_total / hands, 3),
        "win_share_by_seat": [round(w / won, 4) if won else None for w in wins],
        "win_share_by_position_from_first_to_act": [round(w / won, 4) if won else None
                                                     for w in wins_rel],
        "first_to_act_share_by_seat": [round(f / hands, 4) for f in first_seat],
        "hands_without_winner": sum(no_winner.values()),
        "hands_without_winner_detail": no_winner,
        "errors": errors,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--policy", choices=["actions", "distinct", "b0"], default="actions")
    p.add_argument("--max-steps", type=int, default=100000,
                   help="safety cap on game.step calls per hand (RLCard has no turn limit)")
    p.add_argument("--quick", action="store_true", help="smoke run: 2,000 hands")
    a = p.parse_args(argv)
    if a.quick:
        a.hands = 2000
    if a.hands < 1:
        p.error("--hands must be at least 1")
    if a.players < 2:
        p.error("--players must be at least 2")
    print(json.dumps(run(a.hands, a.seed, a.players, a.policy, a.max_steps), indent=2))


if __name__ == "__main__":
    main()
