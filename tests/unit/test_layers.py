"""The package's folders are its layers, imports point down only, and no import cycle:
rules -> kernel -> bots -> engine -> run -> analysis -> studies -> the commands on top
(cli, trace, scenario, page, interrupts).

What the layers mean: ``rules`` parses configs and bot files (no kernel, so loading a config
compiles nothing); ``kernel``, ``bots`` and ``engine`` are the compiled hand loop; ``run``
turns a job into result files; ``analysis`` only reads results (reports, intervals,
figures); ``studies`` runs simulations designed to answer one question (a duel, the best
format, a tuned bot, a league, the skill index) and reads them back through ``analysis``;
the top is what a user calls.

Every import counts, the ones inside functions too: a lazy import still runs, so a lazy
import up a layer or round a cycle is the same tangle, only found later.  An import edge
goes to the module named (``from a.b import c`` to ``a.b.c`` when that is a module, else to
``a.b``); a package's ``__init__`` that re-exports its modules is not an edge from each of
them back to it, as Python runs it first either way.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "unosim"
LAYERS = ["root", "rules", "kernel", "bots", "engine", "run", "analysis", "studies", "top"]
#: The modules and packages directly under unosim/ and their layer; a new one must be placed.
PLACES = {
    "__init__": "root",  # __version__, configure(), and load()/load_points(), which import their module when called
    "rules": "rules", "kernel": "kernel", "families": "kernel", "bots": "bots", "engine": "engine", "run": "run",
    "analysis": "analysis", "studies": "studies",
    "cli": "top", "trace": "top", "scenario": "top", "page": "top",
    "interrupts": "root",  # how a signal ends a command: kernels run through it at every layer
    "compat": "root",  # the TOML reader of each supported Python, for every layer that reads TOML
    "configs": "data",  # TOML files only
}  # fmt: skip


#: The package's own lazy entry points: ``unosim.load`` imports its module only when called.
FACADE = {("unosim", "unosim.analysis.frames")}


def module_of(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    return PLACES["__init__"] if len(parts) == 1 else PLACES[parts[1]]


def _is_module(dotted: str) -> bool:
    p = PKG.parent / dotted.replace(".", "/")
    return p.is_dir() or p.with_suffix(".py").exists()


def imports(path: Path) -> list[str]:
    """Every unosim module a file imports (at module level or inside a function), relative
    imports resolved."""
    package = module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
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
            subs = [f"{mod}.{a.name}" for a in node.names if _is_module(f"{mod}.{a.name}")]
            # ``from pkg import module`` depends on that module; any other name on ``mod``
            out += subs + ([mod] if len(subs) < len(node.names) else [])
    return out


def graph() -> dict[str, set[str]]:
    """module -> the modules it imports (the root's lazy entry points, :data:`FACADE`, left out)."""
    return {module_of(p): {m for m in imports(p) if (module_of(p), m) not in FACADE} - {module_of(p)}
            for p in sorted(PKG.rglob("*.py"))}


def test_every_package_and_top_module_has_a_layer() -> None:
    found = {p.stem if p.is_file() else p.name for p in PKG.iterdir()
             if (p.suffix == ".py" or p.is_dir()) and p.name != "__pycache__"}  # fmt: skip
    assert found == set(PLACES), f"unplaced: {sorted(found - set(PLACES))}, gone: {sorted(set(PLACES) - found)}"
    for name, layer in PLACES.items():
        assert layer in LAYERS or (layer == "data" and not list((PKG / name).rglob("*.py"))), name


def test_imports_point_down_only() -> None:
    wrong = []
    for mine, deps in graph().items():
        for mod in sorted(deps):
            if LAYERS.index(layer_of(mod)) > LAYERS.index(layer_of(mine)):
                wrong.append(f"{mine} ({layer_of(mine)}) imports {mod} ({layer_of(mod)})")
    assert not wrong, "\n".join(wrong)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle() -> None:
    """No module imports one that imports it back, lazily or not (the engine's step is made
    by a factory, so the search that plays it out is never named by the engine)."""
    assert cycles(graph()) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    """The check itself: a two-module cycle and a three-module one are found, a chain is not."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


HANDLES = ("address", "borrow", "handles")


def handle_misuses(source: str) -> list[str]:
    """Calls taking a handle on an array that is not a parameter of the calling function
    (unosim/kernel/borrow.py: a handle on a local array outlives it, silently)."""
    wrong = []

    def root(node: ast.AST) -> str | None:
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef):
            continue
        params = {a.arg for a in fn.args.args}
        for call in ast.walk(fn):
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in HANDLES
                    and (not call.args or root(call.args[0]) not in params)):
                wrong.append(f"{fn.name}: {ast.unparse(call)}")
    return wrong


def test_kernels_take_handles_only_on_their_arguments() -> None:
    wrong = [f"{p.relative_to(PKG.parent)} {w}" for p in sorted(PKG.rglob("*.py")) for w in handle_misuses(p.read_text())]
    assert not wrong, "\n".join(wrong)


def test_the_handle_check_finds_a_handle_on_a_local() -> None:
    """The check itself: the old hand-written shape (a local array, its handle, a keep-alive
    to remember) is refused; a handle on a parameter, or an element of one, is not."""
    local = "def k(P):\n    st_mem = np.zeros(9)\n    st = address(st_mem)\n    keep_alive(st_mem)\n"
    assert handle_misuses(local) == ["k: address(st_mem)"]
    assert handle_misuses("def k(mem, Ps, rows, b):\n    handles(mem); address(Ps[0]); borrow(rows)[b]\n") == []


def test_no_module_is_over_600_lines() -> None:
    long = [f"{p.relative_to(PKG.parent)}: {n}" for p in PKG.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 600]
    assert not long, long
