"""The `unosim` command: parse, call the Python API, print.  Nothing else lives here.

Every user error ends as one ``Error: ...`` line naming the key or option, with exit
status 2; :mod:`.common` holds the group and what the command modules share.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

from . import design, league, report, run, skill, trace  # noqa: F401  (importing a module adds its commands to the group)
from .common import UserError, main

__all__ = ["UserError", "command", "main"]


def command() -> None:
    """The installed `unosim` program: :func:`main`, ended without the interpreter's teardown
    (freeing numba's and pyarrow's modules costs every command a fixed time on one core).
    Exit handlers run and streams flush; a still running non-daemon thread ends it the
    ordinary way."""
    try:
        main()
        status = 0
    except SystemExit as e:
        status = e.code
    if any(not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.exit(status)
    if status is None:
        status = 0
    elif not isinstance(status, int):
        print(status, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said on it
            pass
    os._exit(status)
