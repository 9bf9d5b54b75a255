"""The CLI's contract, checked the same way everywhere: a user error ends with exit status
2, no traceback, and exactly one ``Error: ...`` line naming what was wrong."""

from __future__ import annotations

from click.testing import CliRunner, Result

from unosim.cli import main


def invoke(*args: object) -> Result:
    """``unosim ARGS...`` in process (arguments as strings)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(res: Result, *needles: str, alone: bool = False) -> str:
    """The one ``Error:`` line of ``res``, which holds every needle; ``alone``: it is also the
    only non-blank line of the output."""
    assert res.exit_code == 2 and "Traceback" not in res.output, (res.exit_code, res.output)
    lines = [ln for ln in res.output.splitlines() if ln.strip()] if alone else \
        [ln for ln in res.output.splitlines() if ln.startswith("Error:")]
    assert len(lines) == 1 and lines[0].startswith("Error:"), res.output
    assert all(n in lines[0] for n in needles), (needles, lines[0])
    return lines[0]
