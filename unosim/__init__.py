"""unosim: Monte Carlo simulation of UNO and its house rules.

Importing the package changes nothing in the process: no environment variable, no numba
setting.  Compiled code caches in a folder of its own (:mod:`unosim.kernel.cache`);
:func:`configure` is the one explicit call that tunes the process for long runs (the
``unosim`` command makes it; a notebook may).
"""

from __future__ import annotations

import os
import sys
from typing import Any

__version__ = "0.1.0"

__all__ = ["configure", "load", "load_points"]


def load(path: str | os.PathLike[str], columns: Any = None, filters: Any = None, table: str | None = None) -> Any:
    """Every row of a result (a run, a sweep, a league, a skill folder) as one pandas
    DataFrame, its parts verified; ``columns`` and ``filters`` are read from Parquet only as
    asked; ``table``: a skill folder's ``"replicates"`` or ``"ceiling"`` table instead of its
    skill table (see :func:`unosim.analysis.frames.load` and docs/data.md)."""
    from unosim.analysis.frames import load as _load

    return _load(path, columns, filters, table)


def load_points(path: str | os.PathLike[str]) -> Any:
    """A sweep's points, one row each: number, folder, label, settings, players, bots."""
    from unosim.analysis.frames import load_points as _load_points

    return _load_points(path)


def configure(*, passive_threads: bool = True, blas_probe: bool = False) -> None:
    """Set up this process for unosim's parallel kernels; call before the first run.

    ``passive_threads``: the kernel's threads sleep between parallel regions instead of
    spinning (``OMP_WAIT_POLICY=PASSIVE``, read when numba starts its threading layer,
    i.e. at the first parallel call), so the Parquet writer thread gets its share of the
    cores.  A value the user already set is kept.

    ``blas_probe``: let numba look for SciPy's BLAS as it loads its first kernel.  The look
    imports scipy.linalg, a large share of a short run's start; without it numba computes
    ``np.convolve`` and ``np.correlate`` of floats with its own loop (unosim's kernels
    use neither, nor any other BLAS call).  Nothing changes once numba has loaded a kernel."""
    if passive_threads:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if not blas_probe and not any(isinstance(f, _NoBlasProbe) for f in sys.meta_path):
        sys.meta_path.insert(0, _NoBlasProbe())


class _NoBlasProbe:
    """An import finder that refuses ``scipy.linalg`` to numba's BLAS probe alone: only
    while ``numba.np.arraymath`` is being imported and has not yet set ``_HAVE_BLAS``
    (its one use of the probe).  Every other import passes on to the usual finders."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "scipy.linalg":
            probing = sys.modules.get("numba.np.arraymath")
            if probing is not None and not hasattr(probing, "_HAVE_BLAS"):
                raise ModuleNotFoundError("not for numba's BLAS probe (unosim.configure)", name=name)
        return None
