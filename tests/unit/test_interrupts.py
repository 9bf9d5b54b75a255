"""How a command ends on a signal that arrives inside a callback from C (unosim/interrupts.py)."""

from __future__ import annotations

import ctypes
import signal

import click
import pytest
from click.testing import CliRunner

from unosim.interrupts import Interrupted, Unosim, raise_dropped


def _group(raised: BaseException, then: str) -> click.Group:
    @click.group(cls=Unosim)
    def main() -> None:
        pass

    @main.command()
    def run() -> None:
        def notify(_: int) -> None:  # as llvmlite's object-cache callback, which LLVM calls as it emits code
            raise raised

        ctypes.CFUNCTYPE(None, ctypes.c_int)(notify)(0)
        if then == "fails":
            raise RuntimeError("no compiled object yet")  # what numba raised next, the interrupt dropped
        raise_dropped()  # the compile went on: unosim.run.warmup.warm checks after each kernel
        click.echo("played on")

    return main


@pytest.mark.parametrize("then", ["fails", "goes on"])
@pytest.mark.parametrize("raised, status, name", [(KeyboardInterrupt(), 130, "SIGINT"),
                                                  (Interrupted(signal.SIGTERM), 143, "SIGTERM")])
def test_a_signal_inside_a_callback_from_c_ends_the_command_in_one_line(raised: BaseException, status: int,
                                                                         name: str, then: str) -> None:
    """Ctrl-C during the first compile can land in the callback numba's compiler gets from
    LLVM: Python prints such an exception as "Exception ignored ..." with a traceback and
    drops it, and the compile then failed with a RuntimeError (exit 1), or went on as if no
    signal came.  The command ends as at any other moment: one line, exit 128 + the signal."""
    r = CliRunner().invoke(_group(raised, then), ["run"])
    assert r.exit_code == status, r.output
    assert r.output.strip() == f"unosim: interrupted ({name}); every finished part is kept; resume with: unosim run"
    try:
        raise_dropped()  # code run later in the process (a test, a notebook cell) goes on
    except KeyboardInterrupt:
        pytest.fail("the command's dropped interrupt outlived it")
