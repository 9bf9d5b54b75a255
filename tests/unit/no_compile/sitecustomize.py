"""A unit test's child processes compile nothing either: tests/unit/conftest.py puts this
folder first on their ``PYTHONPATH``, so Python runs this file as each child starts.

When the child imports numba, every dispatcher's ``compile`` (a compile, or a load from
numba's cache) writes the function's name to the file ``UNOSIM_UNIT_COMPILES`` names and
raises: the child stops at once instead of compiling for minutes, and the test fails,
naming the function.  numba is not imported here: a child that never uses it pays nothing.
A child started with ``python -I``/``-E``/``-S``, or given a ``PYTHONPATH`` of its own (the
benchmark harness's exported revisions), escapes; another ``sitecustomize`` is shadowed.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys

_LOG = os.environ.get("UNOSIM_UNIT_COMPILES")


def _guard(dispatcher: type) -> None:
    compile_ = dispatcher.compile

    def compile(self, sig):  # noqa: A001 - numba's name
        from numba.core import sigutils

        args = tuple(sigutils.normalize_signature(sig)[0])
        if args not in self.overloads:
            fn = self.py_func
            name = f"{fn.__module__}.{fn.__qualname__}({', '.join(map(str, args))})"
            with open(_LOG, "a", encoding="utf-8") as log:
                log.write(f"{name}\n")
            raise RuntimeError(f"a unit test's child process compiles {name}: "
                               "move the test to the kind that runs the engine (tests/unit/conftest.py)")
        return compile_(self, sig)

    dispatcher.compile = compile


class _Finder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loading of ``numba.core.dispatcher`` to guard it."""

    def find_spec(self, name, path, target=None):
        if name != "numba.core.dispatcher":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            _guard(module.Dispatcher)

        spec.loader.exec_module = exec_module
        return spec


if _LOG:
    sys.meta_path.insert(0, _Finder())
