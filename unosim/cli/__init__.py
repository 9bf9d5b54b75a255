"""The `unosim` command: parse, call the Python API, print.  Nothing else lives here.

Every user error (bad config, bad option, unusable path) ends as one ``Error: ...`` line
naming the key or option, with exit status 2; tracebacks are for bugs only.  One module
per group of commands: :mod:`.run` (run, sweep, duel, configs, warmup, repair),
:mod:`.trace` (trace, rules), :mod:`.report` (report, compare, plot), :mod:`.skill`
(tune, league, skill); :mod:`.common` holds the group and what they share.
"""

from __future__ import annotations

from . import report, run, skill, trace  # noqa: F401  (importing a module adds its commands to the group)
from .common import UserError, main

skill.register(main)

__all__ = ["UserError", "main"]
