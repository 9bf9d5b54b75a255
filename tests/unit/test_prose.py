"""The prose of README.md and docs/*.md stays readable: no sentence over MAX_WORDS words
(code, tables and generated blocks aside), and the README reads in five minutes.  Module
headers under unosim/ stay short: at most HEADER_LINES lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_WORDS = 35
README_WORDS = 1500
HEADER_LINES = 15

# Sentences allowed to run long, each with its reason: (page, its first words).
ALLOWED: dict[tuple[str, str], str] = {}

_DROP = (re.compile(r"<!-- generated: .*?<!-- /generated -->", re.S),
         re.compile(r"<!-- rules-table:start -->.*?<!-- rules-table:end -->", re.S),
         re.compile(r"<!--.*?-->", re.S),
         re.compile(r"^\s*```.*?^\s*```[^\n]*$", re.S | re.M))
_ITEM = re.compile(r"^(?:[-*+]|\d+\.)\s+")
_END = re.compile(r"(?<=[.!?])[)\"*_]*\s+(?=[A-Z`*\"(\[†])")


def paragraphs(text: str) -> list[str]:
    """The prose of a Markdown page, one string per paragraph or list item: without code
    fences, tables, headings, images, HTML comments and generated blocks."""
    for pattern in _DROP:
        text = pattern.sub("\n", text)
    out: list[str] = []
    cur: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        new_item = _ITEM.match(s)
        if not s or s.startswith(("|", "#", "![")) or new_item:
            if cur:
                out.append(" ".join(cur))
            cur = []
            if not new_item:
                continue
            s = s[new_item.end():]
        cur.append(s)
    if cur:
        out.append(" ".join(cur))
    return out


def sentences(text: str) -> list[str]:
    return [s for p in paragraphs(text) for s in _END.split(p)]


def words(text: str) -> int:
    """Words as a reader counts them: inline code is one word, a link its text."""
    text = re.sub(r"`[^`]*`", "X", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return len(re.findall(r"\w[\w'’.,/+-]*", text))


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def long_sentences(page: Path) -> list[str]:
    rel = str(page.relative_to(ROOT))
    return [s for s in sentences(page.read_text())
            if words(s) > MAX_WORDS and not any(rel == p and s.startswith(start) for p, start in ALLOWED)]


def test_no_sentence_runs_over_the_limit() -> None:
    found = [f"{page.relative_to(ROOT)}: {words(s)} words: {s[:90]}..." for page in pages()
             for s in long_sentences(page)]
    assert not found, f"{len(found)} sentences over {MAX_WORDS} words (split, cut or move them):\n" + "\n".join(found)


def test_the_allow_list_is_short_and_used() -> None:
    assert len(ALLOWED) <= 10
    for (page, start), why in ALLOWED.items():
        assert why, (page, start)
        assert any(s.startswith(start) and words(s) > MAX_WORDS for s in sentences((ROOT / page).read_text())), \
            f"{page}: {start!r} is short now or gone: drop it from ALLOWED"


def test_the_readme_reads_in_five_minutes() -> None:
    prose = sum(words(p) for p in paragraphs((ROOT / "README.md").read_text()))
    assert prose <= README_WORDS, f"README.md has {prose} words of prose, over {README_WORDS}"


def test_the_check_sees_prose_only() -> None:
    page = ("# Title\n\nOne short sentence. And `a b c` one more.\n\n```sh\nnot prose at all\n```\n\n"
            "| a | b |\n|---|---|\n| cell words | here |\n\n- an item. Two\n  lines.\n\n"
            "<!-- generated: x -->\nnot this\n<!-- /generated -->\n")
    assert sentences(page) == ["One short sentence.", "And `a b c` one more.", "an item.", "Two lines."]
    assert words("And `a b c` one [link text](http://x.y/z) more.") == 6
    long = " ".join(["word"] * (MAX_WORDS + 1)) + "."
    assert [words(s) for s in sentences(long + " Short one.")] == [MAX_WORDS + 1, 2]


def header_lines(source: str) -> int:
    """Lines of a module's docstring (0 without one)."""
    doc = ast.get_docstring(ast.parse(source))
    return len(doc.splitlines()) if doc else 0


def test_module_headers_are_short() -> None:
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in sorted((ROOT / "unosim").rglob("*.py"))
            if (n := header_lines(p.read_text())) > HEADER_LINES]
    assert not long, (f"module docstrings over {HEADER_LINES} lines (say what the module is for; "
                      "the rationale goes to docs/design.md):\n" + "\n".join(long))


def test_header_lines_counts_the_docstring_only() -> None:
    body = "\n".join(f"line {i}." for i in range(HEADER_LINES + 1))
    assert header_lines(f'"""{body}"""\nx = 1\n') == HEADER_LINES + 1
    assert header_lines('"""One line."""\n"""Not the docstring.\nAt all."""\n') == 1
    assert header_lines("x = 1\n") == 0
