"""The cache folder's name covers exactly the sources compiled code is built from
(unosim/kernel/cache.py): a stale one would reuse wrong machine code, a wider one
recompiles the engine for an edit to the config's parsing."""

from __future__ import annotations

import ast
from pathlib import Path

from unosim.kernel.cache import compiled_sources

PACKAGE = Path(__file__).resolve().parents[2] / "unosim"
COMPILED_FOLDERS = ("kernel", "families", "bots", "engine")


def _module_file(name: str) -> Path | None:
    path = PACKAGE.parent.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(path: Path) -> set[Path]:
    """The unosim modules ``path`` imports, its packages' ``__init__`` among them."""
    here = path.relative_to(PACKAGE.parent).with_suffix("").parts
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level] + ((node.module,) if node.module else ())) \
                if node.level else node.module or ""
            names |= {base} | {f"{base}.{a.name}" for a in node.names}
    found = set()
    for name in names:
        parts = name.split(".")
        if parts[0] != "unosim":
            continue
        for i in range(2, len(parts) + 1):  # unosim.rules.cards also imports unosim/rules/__init__.py
            f = _module_file(".".join(parts[:i]))
            if f is not None:
                found.add(f)
    return found


def test_the_cache_key_hashes_every_module_compiled_code_imports_and_no_other() -> None:
    todo = [f for d in COMPILED_FOLDERS for f in (PACKAGE / d).glob("*.py")]
    seen: set[Path] = set()
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo += _imports(f) - seen
    seen.discard(PACKAGE / "__init__.py")
    assert {p.resolve() for p in compiled_sources()} == {p.resolve() for p in seen}
    assert PACKAGE / "rules" / "config.py" not in seen
