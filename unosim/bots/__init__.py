"""Bot strategies: compiled policies the kernel runs, one module per family.

Their registry (names, codes, parameters) is :mod:`unosim.rules.strategies`;
:mod:`unosim.bots.policy` dispatches on the codes; docs/bots.md describes every strategy.
"""
