"""Commit messages: the hook in .githooks/ refuses a subject over 72 characters (.gitlint)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hook(tmp_path: Path, message: str) -> subprocess.CompletedProcess[str]:
    msg = tmp_path / "COMMIT_EDITMSG"
    msg.write_text(message)
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    return subprocess.run([str(ROOT / ".githooks" / "commit-msg"), str(msg)], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def test_a_subject_of_72_characters_passes(tmp_path: Path) -> None:
    subject = "Add " + "x" * 68
    assert len(subject) == 72
    r = hook(tmp_path, subject + "\n\nWhy, in a line.\n")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_longer_subject_is_refused_saying_why(tmp_path: Path) -> None:
    r = hook(tmp_path, "Add " + "x" * 69 + "\n")
    assert r.returncode != 0
    assert "Title exceeds max length (73>72)" in r.stdout + r.stderr


def test_a_body_needs_a_blank_line_and_short_lines(tmp_path: Path) -> None:
    assert hook(tmp_path, "Fix a thing\nno blank line before this body\n").returncode != 0
    assert hook(tmp_path, "Fix a thing\n\n" + "y " * 45 + "\n").returncode != 0
