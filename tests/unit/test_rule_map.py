"""The rule map in docs/design.md stays whole and true: every rule id of docs/rules.md
has exactly one family module (the module whose ``RULES`` names it), the map's row names
that module, and every ``module.function`` a row names exists."""

from __future__ import annotations

import ast
import importlib
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "unosim"
DESIGN = ROOT / "docs" / "design.md"
RULES = ROOT / "docs" / "rules.md"


def rule_map() -> dict[str, tuple[str, str]]:
    """Rule id -> (its family module, where else it is read), from the "## Rule map" table."""
    text = DESIGN.read_text()
    start = text.find("\n## Rule map\n")
    section = text[start:].split("\n## ", 2)[1] if start >= 0 else ""
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        m = re.match(r"\|\s*([A-Z]\d+)\s*\|([^|]*)\|(.*)\|\s*$", line)
        if m:
            assert m.group(1) not in rows, f"two rows for {m.group(1)}"
            rows[m.group(1)] = (m.group(2).replace("`", "").strip(), m.group(3).replace("`", "").strip())
    return rows


def rule_ids() -> set[str]:
    return set(re.findall(r"^### ([A-Z]\d+) ", RULES.read_text(), re.M))


def declared() -> dict[str, list[str]]:
    """Rule id -> the modules under unosim/ whose module-level ``RULES`` names it."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "RULES" for t in node.targets):
                module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
                for rule in ast.literal_eval(node.value):
                    out[rule].append(module)
    return out


def functions(row: str) -> list[str]:
    """``module.function`` names of a row: ``a.b.f, g; c.d.h (note)`` gives a.b.f, a.b.g, c.d.h."""
    row = re.sub(r"\([^)]*\)", "", row)
    out = []
    for group in row.split(";"):
        module = ""
        for item in group.split(","):
            item = item.strip()
            if not item:
                continue
            if "." in item:
                module, _, name = item.rpartition(".")
            else:
                name = item
            out.append(f"{module}.{name}")
    return out


def test_every_rule_of_the_rules_doc_has_a_row() -> None:
    rows = rule_map()
    assert rule_ids() - set(rows) == set(), "rules without a row in docs/design.md's rule map"
    assert set(rows) - rule_ids() == set(), "rows for rules that docs/rules.md does not have"


def test_every_rule_has_exactly_one_family_module() -> None:
    found = declared()
    missing = sorted(rule_ids() - set(found))
    assert not missing, f"rules no module names in its RULES: {missing}"
    twice = {rule: modules for rule, modules in found.items() if len(modules) > 1}
    assert not twice, f"rules that more than one module names in its RULES: {twice}"
    unknown = sorted(set(found) - rule_ids())
    assert not unknown, f"RULES name ids that docs/rules.md does not have: {unknown}"


def test_the_map_names_each_rule_s_family_module() -> None:
    found = declared()
    wrong = {rule: (family, found.get(rule)) for rule, (family, _) in rule_map().items()
             if [family] != found.get(rule)}
    assert not wrong, f"rows whose family is not the module that names the rule (row, RULES): {wrong}"


def test_every_function_named_exists() -> None:
    missing = []
    for rule, (_, row) in rule_map().items():
        for name in functions(row):
            module, _, func = name.rpartition(".")
            mod = importlib.import_module(f"unosim.{module}")
            if not callable(getattr(mod, func, None)):
                missing.append(f"{rule}: unosim.{name}")
    assert not missing, f"the rule map names functions that do not exist: {missing}"


def code_words(path: Path) -> set[str]:
    """The names and the string constants of a module's code, lower-cased; docstrings and
    comments left out."""
    tree = ast.parse(path.read_text())
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    words = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            words.add(n.value.lower())
        for field in ("id", "attr", "name", "arg", "asname"):
            value = getattr(n, field, None)
            if isinstance(value, str):
                words.add(value.lower())
    return words


# A rule added under the registry and a family: where its name may appear in code.
RULE_FILES = {
    "deflect": {"rules/keys.py", "families/deflect.py", "families/answers.py"},  # H26
}


@pytest.mark.parametrize("word", sorted(RULE_FILES))
def test_a_family_rule_lives_in_its_record_and_its_module(word: str) -> None:
    """H26: the rule's code is its registry record, its family module and its line in the
    family's hooks; no engine module, bot or search file names it (docstrings aside)."""
    package = ROOT / "unosim"
    found = {str(p.relative_to(package)) for p in package.rglob("*.py")
             if any(word in w for w in code_words(p))}
    assert found == RULE_FILES[word]
