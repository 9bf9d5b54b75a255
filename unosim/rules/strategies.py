"""The bot strategies' registry: names, integer codes, parameters.

:data:`STRATEGIES` is what a config's ``[bots] seats`` may name: name -> (code, params),
``code`` its field in :data:`Strategy` (the integer :mod:`unosim.bots.policy` dispatches
on, defined once there; compiled code compares ``code == Strategy.counter``), ``params`` an ordered dict
``param -> (default, allowed)`` (``(lo, hi)`` for numbers, a tuple of strings for a choice,
None for a bool).  Parameters land in ``P`` after the code in this order, at most
``BOT_STRIDE - 1 = 15`` of them.  docs/bots.md describes every strategy.

It lives with the rules, not with the compiled bots, so loading a config never compiles them.
"""

from __future__ import annotations

from collections import namedtuple

Strategy = namedtuple("Strategy", ["random", "greedy", "wild_saver", "color_keeper", "aggressor", "counter",
                                   "weights", "rlcard_random", "search"])(*range(9))
"""Every strategy's code, in registry order: ``Strategy.counter == 5``."""

_RATE = (0.0, 1.0)
ROLLOUT_BOTS = ("random", "greedy", "wild_saver", "color_keeper", "aggressor", "counter", "weights", "rlcard_random")
"""What a ``search`` seat may play its playouts with: every strategy but itself, in code order
(a choice's index in ``P`` is then the strategy's code).  A name is that strategy at its
defaults; an inline table ``{strategy = ..., param = value, ...}`` is any such bot, tuned
parameters included (validate.py checks it as a seat)."""
_W = (-100.0, 100.0)

STRATEGIES: dict[str, tuple[int, dict[str, tuple[object, object]]]] = {
    # B0, the reference bot (docs/rules.md): fixed; at rates 0 (the defaults) it never bluffs,
    # challenges or plays several cards at once (H6) and draws no random number for any of them.
    "random": (Strategy.random, {"bluff_rate": (0.0, _RATE), "challenge_rate": (0.0, _RATE),
                                 "multi_rate": (0.0, _RATE)}),
    "greedy": (Strategy.greedy, {"bluff_rate": (0.0, _RATE), "challenge_rate": (0.0, _RATE)}),
    "wild_saver": (Strategy.wild_saver, {"bluff_rate": (0.0, _RATE), "challenge_rate": (0.0, _RATE),
                       "draw_before_wild": (False, None)}),
    "color_keeper": (Strategy.color_keeper, {"bluff_rate": (0.0, _RATE), "challenge_rate": (0.0, _RATE)}),
    "aggressor": (Strategy.aggressor, {"bluff_rate": (0.0, _RATE), "challenge_rate": (0.0, _RATE),
                      "hold_attacks": (False, None)}),
    "counter": (Strategy.counter, {"bluff_rate": (0.0, _RATE), "suspicion": (0.1, _RATE)}),
    "weights": (Strategy.weights, {
        "w_wild": (-2.0, _W), "w_draw4": (0.0, _W), "w_action": (1.0, _W), "w_points": (0.02, _W),
        "w_color_share": (2.0, _W), "w_matches_number": (0.0, _W), "w_attack_next": (2.0, _W),
        "w_copies": (0.0, _W), "w_next_color_odds": (0.0, _W), "w_wild_hand": (0.0, _W),
        "w_attack_leader": (0.0, _W), "draw_score": (-1000.0, (-1000.0, 1000.0)),
        "bluff_rate": (0.0, _RATE), "challenge_rate": (0.0, _RATE)}),
    # RLCard 1.2.0's RandomAgent: uniform over legal action ids (a wild is 4); fixed.
    "rlcard_random": (Strategy.rlcard_random, {}),
    # Determinized Monte Carlo (unosim.engine.search): at each decision it searches, the
    # option whose playouts, from hidden cards re-dealt (within the voids opponents' draws
    # showed, ``voids = 1``), score best; every other decision is its rollout bot's (a
    # name, or a whole bot as an inline table).  Never a rollout bot of its own (no
    # recursion).
    "search": (Strategy.search, {"worlds": (32, (1, 10_000)), "rollouts": (2, (1, 10_000)),
                                 "rollout_bot": ("counter", ROLLOUT_BOTS), "objective": ("auto", ("hands", "points", "auto")),
                                 "margin": (2.0, (0.0, 10.0)), "voids": (1, (0, 1)),
                                 "colours": (0, (0, 1)), "deepen": (8, (1, 100)), "promise": (1.0, (0.0, 10.0))}),
}

# Strategies that read counter's memory of the cards put down (policy.observe_play); with
# none at the table the engine keeps none.
WATCHERS: frozenset[str] = frozenset({"counter"})

# Strategies that never draw while holding a legal card (R7): they answer ``draw_below`` with
# no score at all (bots.common.usual), and B0 draws only when nothing is legal.  After their
# draw the engine skips R7's look for a legal card (the ``voluntary_draws`` count).
NEVER_DECLINE: frozenset[str] = frozenset({"random", "greedy", "color_keeper", "counter"})

# Strategies that watch only when a parameter is non-zero: ``weights`` reads counter's memory
# for its ``next_color_odds`` feature, and a seat that gives it no weight must not pay for
# the memory (the default bot keeps its speed).
WATCHING_PARAMS: dict[str, str] = {"weights": "w_next_color_odds"}


def watches(name: str, params: dict) -> bool:
    """Whether a seat of strategy ``name`` with these (complete) parameters makes the table
    a watching one (``P_WATCHERS``)."""
    if name == "search":  # its seat plays as its rollout bot (unosim.engine.search)
        bot = params["rollout_bot"]
        return watches(bot["strategy"], bot) if isinstance(bot, dict) else bot in WATCHERS
    return name in WATCHERS or (name in WATCHING_PARAMS and float(params[WATCHING_PARAMS[name]]) != 0.0)


assert ROLLOUT_BOTS == Strategy._fields[:Strategy.search], "rollout bots: every strategy before search, in code order"

__all__ = ["NEVER_DECLINE", "ROLLOUT_BOTS", "STRATEGIES", "Strategy", "WATCHERS", "WATCHING_PARAMS", "watches"]
