"""The compiled core's building blocks: state layout, randomness, piles, seats, legal moves."""
