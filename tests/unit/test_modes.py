"""The run modes (unosim/run/modes.py): one object per kind of run, asked by every caller,
and what they write to disk kept as the first results wrote it (old results resume).
Compiles nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from unosim.rules.config import default_config
from unosim.run.jobs import RunError, make_job
from unosim.run.modes import MODES, mode_named, mode_of_file, seat_shares

PKG = Path(__file__).resolve().parents[2] / "unosim"

# name -> (manifest "mode", manifest count key, identity digest's mode and rotate flag, count option)
ON_DISK = {
    "hands": ("hands", "games", {"mode": "hands"}, "--hands"),
    "rotated": ("hands", "games", {"mode": "rotated"}, "--hands"),
    "matches": ("matches", "matches", {"mode": "matches"}, "--matches"),
    "rotated_matches": ("matches", "matches", {"mode": "matches", "rotate": True}, "--matches"),
    "tournaments": ("tournaments", "tournaments", {"mode": "tournaments"}, "--tournaments"),
    "rotated_tournaments": ("tournaments", "tournaments", {"mode": "tournaments", "rotate": True}, "--tournaments"),
}


def test_every_mode_keeps_what_earlier_results_wrote() -> None:
    assert list(MODES) == list(ON_DISK)
    for name, (file_mode, count_key, identity, option) in ON_DISK.items():
        m = MODES[name]
        assert (m.name, m.file_mode, m.count_key, m.identity(), m.option) == (name, file_mode, count_key, identity,
                                                                               option)
        job = make_job(default_config(players=4), m, 12, 3, out="unused")
        manifest = job.manifest()
        assert manifest["mode"] == file_mode and manifest[count_key] == 12
        assert manifest.get("rotate_seats", False) is m.rotated and ("max_hands" in manifest) is m.matches


def test_a_mode_by_name_by_object_and_by_the_rotate_flag_is_the_same_job() -> None:
    cfg = default_config(players=4)
    for name, mode in MODES.items():
        assert make_job(cfg, name, 5, 1) == make_job(cfg, mode, 5, 1)
    assert make_job(cfg, "matches", 5, 1, rotate=True).mode is MODES["rotated_matches"]
    assert make_job(cfg, "tournaments", 5, 1, rotate=True).mode is MODES["rotated_tournaments"]
    assert make_job(cfg, "rotated_matches", 5, 1, rotate=True).mode is MODES["rotated_matches"]
    # a rotated match job holds a players-th of the matches per part, as before
    assert make_job(cfg, "rotated_matches", 5, 1).chunk_size == MODES["matches"].default_chunk // 4


@pytest.mark.parametrize("mode, rotate, needle", [
    ("bogus", False, "mode: 'bogus' is not one of hands, rotated, matches"),
    ("hands", True, "--rotate-seats: a hands job rotates with mode 'rotated' (hands), not this flag"),
    ("rotated", True, "--rotate-seats: a rotated job rotates with mode 'rotated' (hands), not this flag"),
])
def test_a_mode_that_does_not_exist_is_one_line(mode: str, rotate: bool, needle: str) -> None:
    with pytest.raises(RunError, match="^" + needle.replace("(", r"\(").replace(")", r"\)")):
        mode_named(mode, rotate)


def test_parameters_the_mode_does_not_take_are_refused() -> None:
    with pytest.raises(RunError, match=r"^--max-hands: only for matches \(this run plays rotated\)"):
        make_job(default_config(), "rotated", 5, max_hands=10)
    with pytest.raises(RunError, match=r"^--tournaments: a partner-rotation tournament \(T1\) is for 4 or 8"):
        make_job(default_config(players=3), "rotated_tournaments", 5)
    assert make_job(default_config(), "rotated_matches", 5).max_hands == 10_000


def test_a_result_s_parts_name_its_mode() -> None:
    """``unosim repair`` rebuilds the job from ``unosim.mode`` and ``unosim.rotate_seats``."""
    for m in MODES.values():
        assert mode_of_file(m.file_mode, m.rotated) is m
    with pytest.raises(KeyError):
        mode_of_file("duels", False)
    assert [seat_shares(f) for f in ("hands", "matches", "tournaments", "")] == [True, True, False, True]


def test_repair_names_the_command_that_finishes_the_run() -> None:
    job = make_job(default_config(players=4), "rotated_tournaments", 7, 1)
    assert job.mode.run_options(job) == "--tournaments 7 --rotate-seats"
    job = make_job(default_config(), "hands", 7, 1)
    assert job.mode.run_options(job) == "--hands 7"


def _compares_a_mode_to_a_name(node: ast.Compare) -> bool:
    """``mode == "hands"``, ``job.mode != "rotated"``, ``mode in ("matches", ...)``."""
    sides = [node.left, *node.comparators]

    def is_mode(n: ast.AST) -> bool:
        return (isinstance(n, ast.Name) and n.id == "mode") or (isinstance(n, ast.Attribute) and n.attr == "mode")

    def is_text(n: ast.AST) -> bool:
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
            return all(is_text(e) for e in n.elts)
        return isinstance(n, ast.Constant) and isinstance(n.value, str)

    return any(is_mode(s) for s in sides) and any(is_text(s) for s in sides)


def test_no_module_compares_the_run_mode_to_a_name() -> None:
    """Callers ask the mode object; only modes.py knows the names."""
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if path == PKG / "run" / "modes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and _compares_a_mode_to_a_name(node):
                found.append(f"{path.relative_to(PKG.parent)}:{node.lineno}")
    assert not found, found
