"""`python -m unosim.cli`: the `unosim` command."""

from . import command

command()
