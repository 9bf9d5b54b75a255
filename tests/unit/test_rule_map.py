"""The rule map in docs/design.md (where each rule lives) stays whole and true: every rule
id of docs/rules.md's sections R, H, E, S and T has a row, and every ``module.function`` a
row names exists."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"
RULES = ROOT / "docs" / "rules.md"
MAPPED = "RHEST"  # the rules the engine plays; B0 (bots), O1 (counters) and C1 (configs) live elsewhere


def rule_map() -> dict[str, str]:
    """Rule id -> the row's text, from the table of the "## Rule map" section."""
    text = DESIGN.read_text()
    start = text.find("\n## Rule map\n")
    section = text[start:].split("\n## ", 2)[1] if start >= 0 else ""
    rows: dict[str, str] = {}
    for line in section.splitlines():
        m = re.match(r"\|\s*([A-Z]\d+)\s*\|(.*)\|\s*$", line)
        if m:
            assert m.group(1) not in rows, f"two rows for {m.group(1)}"
            rows[m.group(1)] = m.group(2).replace("`", "").strip()
    return rows


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
    ids = set(re.findall(r"^### ([A-Z]\d+) ", RULES.read_text(), re.M))
    want = {i for i in ids if i[0] in MAPPED}
    rows = rule_map()
    assert want - set(rows) == set(), "rules without a row in docs/design.md's rule map"
    assert set(rows) - ids == set(), "rows for rules that docs/rules.md does not have"


def test_every_function_named_exists() -> None:
    missing = []
    for rule, row in rule_map().items():
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
