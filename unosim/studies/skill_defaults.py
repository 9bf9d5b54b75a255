"""The settings `unosim skill` runs at by default, in one place (no heavy imports)."""

BUDGET = 300
"""Tuning evaluations per point and replicate."""
DEALS = 500
"""Deals per tuning evaluation."""
CHECK_DEALS = 10_000
"""Fresh deals measuring each replicate's skill index."""
REPLICATES = 3
"""Tunings per point (seeds SEED, SEED+1, ...): the intervals then hold the search's noise."""
