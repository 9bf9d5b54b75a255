"""Skill or luck: tuned bots (tune.py), a league table of bots (league.py) and the skill
index of a rule set (index.py), on top of the run and analysis layers.

Every figure here comes from the compiled kernel through :mod:`unosim.run`: the tuner and
the skill index call the kernel directly, one rotated call per bot under test
(:mod:`.arena`), because they need thousands of small evaluations and no files; the
league is a set of ordinary ``rotated`` jobs written through the run pipeline (resumable
Parquet parts with the bot at every seat).
"""
