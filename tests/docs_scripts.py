"""The scripts of docs/ as modules for the tests (docs/ is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

DOCS = Path(__file__).resolve().parent.parent / "docs"


def generate() -> ModuleType:
    """docs/generate.py, loaded once per test process."""
    if "unosim_docs_generate" not in sys.modules:
        spec = importlib.util.spec_from_file_location("unosim_docs_generate", DOCS / "generate.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod  # dataclasses look their module up there
        spec.loader.exec_module(mod)
    return sys.modules["unosim_docs_generate"]


def skill_figures() -> ModuleType:
    """docs/skill_figures.py (docs/skill.md's blocks), loaded once per test process."""
    if "skill_figures" not in sys.modules:
        spec = importlib.util.spec_from_file_location("skill_figures", DOCS / "skill_figures.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    return sys.modules["skill_figures"]
