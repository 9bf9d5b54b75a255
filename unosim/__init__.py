"""unosim: Monte Carlo simulation of UNO and its house rules.

Importing the package changes nothing in the process; :func:`configure` is the one
explicit call that tunes it for long runs.
"""

from __future__ import annotations

import os
import sys
from typing import Any

__version__ = "0.1.0"

__all__ = ["configure", "load", "load_points"]


def load(path: str | os.PathLike[str], columns: Any = None, filters: Any = None, table: str | None = None) -> Any:
    """Every row of a result (a run, a sweep, a league, a skill folder) as one pandas
    DataFrame, its parts verified (see :func:`unosim.analysis.frames.load` and docs/data.md)."""
    from unosim.analysis.frames import load as _load

    return _load(path, columns, filters, table)


def load_points(path: str | os.PathLike[str]) -> Any:
    """A sweep's points, one row each: number, folder, label, settings, players, bots."""
    from unosim.analysis.frames import load_points as _load_points

    return _load_points(path)


def configure(*, passive_threads: bool = True, blas_probe: bool = False) -> None:
    """Set up this process for unosim's parallel kernels; call before the first run.

    ``passive_threads``: ``OMP_WAIT_POLICY=PASSIVE`` unless the user set it, so the kernel's
    idle threads leave the writer thread its share.  ``blas_probe``: let numba import
    scipy.linalg for its BLAS probe (unosim's kernels use no BLAS call)."""
    if passive_threads:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if not blas_probe and not any(isinstance(f, _NoBlasProbe) for f in sys.meta_path):
        sys.meta_path.insert(0, _NoBlasProbe())


class _NoBlasProbe:
    """An import finder that refuses ``scipy.linalg`` to numba's BLAS probe alone (while
    ``numba.np.arraymath`` is being imported); every other import passes."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "scipy.linalg":
            probing = sys.modules.get("numba.np.arraymath")
            if probing is not None and not hasattr(probing, "_HAVE_BLAS"):
                raise ModuleNotFoundError("not for numba's BLAS probe (unosim.configure)", name=name)
        return None
