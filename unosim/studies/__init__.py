"""Studies: simulations designed to answer one question, on top of the run and analysis
layers.  Which of two bots is better (duel.py, paired deals in every seating), which
format best crowns the better player (formats.py), the best weights for a bot (tune.py,
CMA-ES over arena.py's direct kernel calls, replicates.py for the search's noise), a
league table of bots (league.py) and the skill index of a rule set (skill_index.py).

Why a layer of its own: each of these both runs the kernel (through :mod:`unosim.run`)
and reads what it ran (through :mod:`unosim.analysis`), so below analysis it would make
analysis run simulations, and inside run it would make run read reports.  analysis/ only
reads results; run/ only produces them.  The tuner and the skill index call the kernel directly (:mod:`.arena`);
the league writes ordinary ``rotated`` jobs through the run pipeline.
"""
