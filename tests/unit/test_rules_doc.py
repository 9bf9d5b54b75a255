"""docs/rules.md, the project's own rules reference, covers every rule id and config key,
and the repository points to it rather than to any file outside the repository.

Fast: imports only ``unosim.rules.config`` (no numba compile)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from unosim.rules import config

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"

# Every id of the rules contract, whether or not the engine plays it yet.
CONTRACT_IDS = (
    [f"R{i}" for i in range(1, 14)] + [f"H{i}" for i in range(1, 27)]
    + [f"S{i}" for i in range(1, 5)] + ["T1", "B0", "O1", "C1"]
)

# Built from pieces so that this file does not contain what it looks for.
FORBIDDEN = ("../" + "shared", "RULES" + ".md", "STYLE" + ".md")


def _entry_lines() -> list[str]:
    """Lines that open an entry: a heading, or a list item / line that starts in bold."""
    text = RULES_DOC.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if re.match(r"\s*(#{1,6}\s|[-*]\s+\*\*|\*\*)", line)]


def _documented(rule_id: str, lines: list[str]) -> bool:
    pat = re.compile(rf"\b{re.escape(rule_id)}\b")
    for line in lines:
        if line.lstrip().startswith("#"):
            if pat.search(line):
                return True
        else:  # only the bold lead counts, not the sentence after it
            lead = re.match(r"\s*(?:[-*]\s+)?\*\*(.+?)\*\*", line)
            if lead and pat.search(lead.group(1)):
                return True
    return False


def test_every_registry_rule_id_has_an_entry():
    lines = _entry_lines()
    ids = sorted({r for k in config.KEYS.values() for r in k.rules})
    assert ids, "the registry lists no rule ids"
    missing = [r for r in ids if not _documented(r, lines)]
    assert not missing, f"rule ids of the registry without an entry in docs/rules.md: {missing}"


def test_every_contract_rule_id_has_an_entry():
    lines = _entry_lines()
    missing = [r for r in CONTRACT_IDS if not _documented(r, lines)]
    assert not missing, f"rule ids without an entry in docs/rules.md: {missing}"


def test_every_registry_key_is_documented():
    text = RULES_DOC.read_text(encoding="utf-8")
    missing = [k.full for k in config.KEYS.values() if f"`{k.full}`" not in text]
    assert not missing, f"config keys not named in docs/rules.md: {missing}"


def test_no_tracked_file_points_outside_the_repository():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = {f for f in out.decode("utf-8").split("\0") if f}
    files.add("docs/rules.md")  # checked even before it is committed
    this = Path(__file__).resolve().relative_to(ROOT).as_posix()
    hits = []
    for name in sorted(files - {this}):
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree
            continue
        for n, line in enumerate(path.read_bytes().splitlines(), 1):
            for bad in FORBIDDEN:
                if bad.encode() in line:
                    hits.append(f"{name}:{n}: {bad}")
    assert not hits, "references to files outside the repository (point to docs/rules.md):\n" + "\n".join(hits)
