"""The package's folders are its layers and imports point down only (no cycle): rules ->
kernel -> bots -> engine -> run -> analysis -> the commands on top (cli, trace, scenario)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "unosim"
LAYERS = ["rules", "kernel", "bots", "engine", "run", "analysis", "top"]


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return "top"


def imports(path: Path) -> list[str]:
    """Every unosim module a file imports, relative imports resolved."""
    rel = path.relative_to(PKG.parent).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "unosim"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "unosim":
                continue
            out.append(mod)
            out += [f"{mod}.{a.name}" for a in node.names if (PKG.parent / f"{mod}.{a.name}".replace(".", "/")).is_dir()
                    or (PKG.parent / (f"{mod}.{a.name}".replace(".", "/") + ".py")).exists()]
    return out


def test_imports_point_down_only() -> None:
    wrong = []
    for path in sorted(PKG.rglob("*.py")):
        mine = layer_of(".".join(path.relative_to(PKG.parent).with_suffix("").parts))
        for mod in imports(path):
            if mod == "unosim":
                continue  # the package root: __version__ and the numba cache set-up
            if LAYERS.index(layer_of(mod)) > LAYERS.index(mine):
                wrong.append(f"{path.relative_to(PKG.parent)} ({mine}) imports {mod} ({layer_of(mod)})")
    assert not wrong, "\n".join(wrong)


def test_no_module_is_over_600_lines() -> None:
    long = [f"{p.relative_to(PKG.parent)}: {n}" for p in PKG.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 600]
    assert not long, long
