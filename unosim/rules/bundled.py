"""The configs and sweeps that ship with unosim, found by name wherever it is installed.

``unosim run standard`` must work after ``pip install unosim`` as well as in a checkout,
so the bundled TOML files are package data (``unosim/configs``, which in a checkout is
the top-level ``configs/`` folder) found through :mod:`importlib.resources`, never
through a path relative to the source tree.
"""

from __future__ import annotations

import difflib
import re
from importlib.resources import files
from pathlib import Path

from unosim.compat import tomllib

__all__ = ["bundled_configs", "bundled_files", "bundled_sweeps", "describe", "find_config"]


def bundled_files(sub: str = "") -> dict[str, Path]:
    """The bundled TOML files of ``unosim/configs/<sub>``, by name (the file's stem)."""
    return {p.stem: p for p in sorted((Path(str(files("unosim") / "configs")) / sub).glob("*.toml"))}


def bundled_configs() -> dict[str, Path]:
    """Every bundled rules config, by name (the file's stem)."""
    return bundled_files()


def bundled_sweeps() -> dict[str, Path]:
    """Every bundled sweep file, by name."""
    return bundled_files("sweeps")


def describe(path: Path) -> str:
    """A bundled file's one-line description: the first sentence of its leading comment
    (which may run over several comment lines; never cut mid-sentence)."""
    words: list[str] = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            if line.strip() or words:
                break
            continue
        words += line.lstrip("#").split()
        text = " ".join(words)
        end = re.search(r"[.!?](?=\s|$)", text)
        if end:
            return text[:end.end()]
    if words:
        return " ".join(words)
    try:
        return str(tomllib.loads(path.read_text()).get("name", path.stem))
    except tomllib.TOMLDecodeError:
        return path.stem


def find_config(arg: str, kind: str = "config", root: Path | None = None) -> Path:
    """The file ``arg`` names: a path that exists (relative to ``root``, the working
    directory by default; a sweep's ``base`` is relative to the sweep file), else a bundled
    name (``standard``, ``standard.toml``).  Raises FileNotFoundError with one line that
    names ``arg`` and, for a near miss, the bundled name it probably meant."""
    path = Path(arg)
    if (root / path if root is not None else path).exists():
        return root / path if root is not None else path
    known = bundled_sweeps() if kind == "sweep" else bundled_configs()
    stem = path.name.removesuffix(".toml")
    if path.parent == Path(".") and stem in known:
        return known[stem]
    close = difflib.get_close_matches(stem, list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise FileNotFoundError(f"{arg}: {kind} file not found, and no bundled {kind} has that name{hint} "
                            f"(bundled: {', '.join(known)})")
