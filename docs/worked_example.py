"""Run the commands of docs/worked_example.md and write their real output into it.

    python docs/worked_example.py          # rewrite the outputs (and the turns figure)
    python docs/worked_example.py --check  # exit 1 if a fresh run prints something else

Every ```console block's ``$ unosim ...`` lines (a ``| grep``, ``| head`` or ``| tail``
applied as the shell would) are run in order, in a scratch folder
holding the doc's TOML files, and the lines after each command become its output. A
```text block under an ``<!-- excerpt of: COMMAND; from: HEADING -->`` comment gets the
sections of COMMAND's output from the first line starting with HEADING on.  Speeds and
timings change from run to run, so ``--check`` compares with them masked; every other
character must match.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

DOC = Path(__file__).resolve().parent / "worked_example.md"
FIGURE = DOC.parent / "worked_example_turns.png"
_BLOCK = re.compile(r"```(console|toml|text)\n(.*?)```", re.S)
_EXCERPT = re.compile(r"<!-- excerpt of: (.+?); from: (.+?) -->\n```text\n(.*?)```", re.S)
_SPEED = re.compile(r"[\d,]+ (hands|matches)/s \([\d.]+ s(, after [\d.]+ s loading the engine)?\)")


def _unosim(command: str, cwd: Path) -> str:
    """What ``$ command`` prints on stdout (a first run's compile notice goes to stderr),
    through docs/generate.py's runner: ``| grep``, ``| head`` and ``| tail`` as the shell
    applies them."""
    return "\n".join(_generate().unosim(command, cwd)) + "\n"


def _generate():
    import importlib.util

    if "unosim_docs_generate" not in sys.modules:
        spec = importlib.util.spec_from_file_location("unosim_docs_generate", DOC.parent / "generate.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    return sys.modules["unosim_docs_generate"]


def render(text: str, work: Path) -> str:
    """The doc with every output regenerated (commands run in ``work``)."""
    for lang, body in _BLOCK.findall(text):  # the doc's own config files, written first
        first = body.splitlines()[0] if body else ""
        if lang == "toml" and first.startswith("# ") and first.endswith(".toml"):
            (work / first[2:]).write_text(body)

    def console(m: re.Match[str]) -> str:
        if m.group(1) != "console":
            return m.group(0)
        out: list[str] = []
        for line in m.group(2).splitlines():
            if line.startswith("$ "):
                if out:
                    out.append("")
                out.append(line)
                out += _unosim(line[2:], work).rstrip("\n").splitlines()
        return "```console\n" + "\n".join(out) + "\n```"

    text = _BLOCK.sub(console, text)

    def excerpt(m: re.Match[str]) -> str:
        command, heading = m.group(1), m.group(2)
        lines = _unosim(command, work).rstrip("\n").splitlines()
        start = next(i for i, ln in enumerate(lines) if ln.startswith(heading))
        body = "\n".join(lines[start:])
        return f"<!-- excerpt of: {command}; from: {heading} -->\n```text\n{body}\n```"

    return _EXCERPT.sub(excerpt, text)


def masked(text: str) -> str:
    return _SPEED.sub("<speed>", text)


def main_(argv: list[str]) -> int:
    check = "--check" in argv
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        old = DOC.read_text()
        new = render(old, work)
        if check:
            if masked(new) != masked(old):
                import difflib

                sys.stdout.writelines(difflib.unified_diff(masked(old).splitlines(True),
                                                           masked(new).splitlines(True), "doc", "fresh run"))
                return 1
            print("docs/worked_example.md matches a fresh run")
            return 0
        DOC.write_text(new)
        shutil.copyfile(work / "plots" / "example" / "turns.png", FIGURE)
        print(f"wrote {DOC.name} and {FIGURE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main_(sys.argv[1:]))
