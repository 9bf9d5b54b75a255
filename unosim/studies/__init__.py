"""Studies: simulations that answer one question, on top of the run and analysis layers.

Each both runs the kernel and reads what it ran, so it sits above both: analysis/ only
reads results, run/ only produces them.
"""
