"""unosim: Monte Carlo simulation of UNO and its house rules."""

__version__ = "0.1.0"
