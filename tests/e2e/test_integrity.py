"""The building blocks that keep a result whole (O1 output): the writer's lock, the atomic
manifest, the footer check of each part."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from unosim.cli import main
from unosim.run.integrity import LockedError, PartCheck, check_part, hold_lock, part_index, write_json_atomic


def run(tmp: Path, name: str, *args: str) -> Path:
    out = tmp / name
    r = CliRunner().invoke(main, ["run", "standard", *args, "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """30 hands in chunks of 10, seed 1."""
    return run(tmp_path_factory.mktemp("h"), "r", "--hands", "30", "--chunk-size", "10", "--seed", "1")


def chunk(i: int, meta: tuple[tuple[str, str], ...] = (("unosim.seed", "1"),)) -> PartCheck:
    return PartCheck(i, 10 * i, 10, "hand", 10, meta)


def test_a_whole_part_is_its_chunk(hands: Path) -> None:
    for i in range(3):
        assert check_part(hands / f"part-{i:06d}.parquet", chunk(i)) is None


def test_damaged_parts_are_named_for_what_is_wrong(hands: Path, tmp_path: Path) -> None:
    part = (hands / "part-000001.parquet").read_bytes()
    (tmp_path / "empty.parquet").write_bytes(b"")
    assert "unreadable" in check_part(tmp_path / "empty.parquet", chunk(1))
    (tmp_path / "cut.parquet").write_bytes(part[: len(part) // 2])
    assert "unreadable" in check_part(tmp_path / "cut.parquet", chunk(1))
    # the right file under another chunk's name: its hands are 10-19, not 30-39
    assert check_part(hands / "part-000001.parquet", chunk(3)) == "hands 10-19 where chunk 3 has 30-39"
    assert "from another run (unosim.seed differs)" == check_part(
        hands / "part-000001.parquet", chunk(1, (("unosim.seed", "2"),)))
    assert "10 rows where the chunk has 5" == check_part(
        hands / "part-000001.parquet", PartCheck(1, 10, 10, "hand", 5))


def test_match_parts_are_checked_by_their_match_range(tmp_path: Path) -> None:
    out = run(tmp_path, "m", "--matches", "6", "--chunk-size", "3", "--max-hands", "20")
    assert check_part(out / "part-000001.parquet", PartCheck(1, 3, 3, "match")) is None
    assert "matches 3-5 where chunk 0 has 0-2" == check_part(out / "part-000001.parquet",
                                                              PartCheck(0, 0, 3, "match"))


def test_part_index_reads_only_part_names() -> None:
    assert part_index(Path("part-000042.parquet")) == 42
    assert part_index(Path("part-abc.parquet")) is None
    assert part_index(Path("part-000042.parquet.0123456789ab.tmp")) is None


def test_the_lock_admits_one_writer(tmp_path: Path) -> None:
    d = tmp_path / "res"
    with hold_lock(d):
        with pytest.raises(LockedError, match="being written by another unosim command"):
            with hold_lock(d):
                pass
    with hold_lock(d):  # released on exit
        pass
    assert list(d.iterdir()) == []  # no lock file left in the folder


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    d = tmp_path / "res"
    code = ("import sys, time; from pathlib import Path; from unosim.run.integrity import hold_lock\n"
            "with hold_lock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(600)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(d)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(LockedError):
            with hold_lock(d):
                pass
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    t0 = time.monotonic()
    with hold_lock(d):
        assert time.monotonic() - t0 < 5


def test_an_atomic_write_never_leaves_a_torn_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "_unosim.json"
    write_json_atomic(path, {"seed": 1})
    assert json.loads(path.read_text()) == {"seed": 1}

    def full_disk(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        write_json_atomic(path, {"seed": 2})
    assert json.loads(path.read_text()) == {"seed": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["_unosim.json"]


def test_a_copied_result_keeps_passing(hands: Path, tmp_path: Path) -> None:
    """Checks depend on the files, not on where they sit."""
    copy = tmp_path / "copy"
    shutil.copytree(hands, copy)
    assert check_part(copy / "part-000002.parquet", chunk(2)) is None
