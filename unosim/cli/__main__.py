"""`python -m unosim.cli`: the `unosim` command."""

from . import main

main()
