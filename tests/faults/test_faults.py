"""Fault injection: damage results every way a disk, a user or a crash can, then run the
same command (or report) and demand a verified, exact result or one line of refusal.

For every writing command (run: hands, matches, rotated; sweep; league; tune, skill and
plot for their guards): bit flips in data pages and in footers, truncations, parts
duplicated under another chunk's name, stray parts, deleted manifests and journals, two
writers at once, and ``kill -9`` at random moments followed by the same command.  After
each injection the outcome must be either

* a one-line refusal (exit 2, one ``Error:`` line, no traceback), or
* verified-complete: the report has no note (every part verified against its journal, the
  run complete) and the rows equal an uninterrupted run's,

and a user's files beside the result (inside and next to it) are never changed.

The suite counts its injections and says how many it made (``pytest -m faults -s``, or
the terminal summary).  ``UNOSIM_FAULT_KILLS`` sets the number of kill -9 moments (16 by
default, CI included: each kill costs a second or two; raise it for a longer hunt).
"""

from __future__ import annotations

import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from unosim.cli import main


INJECTIONS: dict[str, int] = {}
KILLS = int(os.environ.get("UNOSIM_FAULT_KILLS", "16"))
KILL_MOMENTS: collections.Counter[str] = collections.Counter()
RNG = random.Random(20261201)


def inject(kind: str) -> None:
    INJECTIONS[kind] = INJECTIONS.get(kind, 0) + 1


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def refused_in_one_line(r: Result) -> bool:
    errors = [ln for ln in r.output.splitlines() if ln.startswith("Error:")]
    return r.exit_code == 2 and len(errors) == 1 and "Traceback" not in r.output


def rows(path: Path) -> pd.DataFrame:
    """A result's rows in a fixed order (the parts its journal lists are all there is)."""
    files = sorted(path.rglob("part-*.parquet"))
    files = [f for f in files if "_rejected" not in f.parts]
    frames = []
    for f in files:
        t = pd.read_parquet(f)
        rel = f.parent.relative_to(path).as_posix()
        frames.append(t.assign(_where=rel))
    keys = [c for c in ("_where", "match", "tournament", "hand", "rotation") if c in frames[0].columns]
    return pd.concat(frames).sort_values(keys).reset_index(drop=True)


def user_files(root: Path) -> dict[str, bytes]:
    return {f.relative_to(root).as_posix(): f.read_bytes() for f in root.rglob("*") if f.is_file()
            and f.name.startswith("user-")}


def verified_complete(out: Path, ref: Path) -> None:
    """The report of ``out`` has no note of damage (a sweep's says only that its intervals
    are paired), and its rows are ``ref``'s."""
    r = invoke("report", out, "--format", "json")
    assert r.exit_code == 0, r.output
    import json

    from unosim.analysis.report.paired import PAIRED

    notes = [n for n in json.loads(r.output)["notes"] if PAIRED not in n]
    assert notes == [], notes
    pd.testing.assert_frame_equal(rows(out), rows(ref))


def outcome(r: Result, out: Path, ref: Path, again: list[object]) -> None:
    """After an injection and the command ``r``: a one-line refusal, or (at once, or after
    a one-line refusal and ``again``) verified-complete."""
    if refused_in_one_line(r):
        if not again:
            return
        r = invoke(*again)
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    verified_complete(out, ref)


# --------------------------------------------------------------------------- damage


def flip(part: Path, where: str) -> None:
    """Flip one random bit in a data page (``data``) or in the footer (``footer``)."""
    data = bytearray(part.read_bytes())
    if where == "data":
        md = pq.read_metadata(part)
        col = md.row_group(0).column(RNG.randrange(md.num_columns))
        lo = col.data_page_offset
        at = RNG.randrange(lo, lo + max(1, col.total_compressed_size))
    else:
        footer = int.from_bytes(data[-8:-4], "little")
        at = RNG.randrange(len(data) - 8 - footer, len(data) - 8)
    data[at] ^= 1 << RNG.randrange(8)
    part.write_bytes(bytes(data))


def damage(out: Path, how: str) -> None:
    parts = sorted(p for p in out.rglob("part-*.parquet") if "_rejected" not in p.parts)
    victim = RNG.choice(parts)
    if how == "flip_data":
        flip(victim, "data")
    elif how == "flip_footer":
        flip(victim, "footer")
    elif how == "truncate":
        data = victim.read_bytes()
        victim.write_bytes(data[:RNG.randrange(len(data))])
    elif how == "duplicate":
        others = [p for p in parts if p.parent == victim.parent and p != victim]
        if others:
            shutil.copy(RNG.choice(others), victim)
        else:
            victim.write_bytes(b"")
    elif how == "stray":
        shutil.copy(victim, victim.with_name(RNG.choice(["extra.parquet", "part-000099.parquet", "copy.parquet"])))
    elif how == "no_manifest":
        (victim.parent / "_unosim.json").unlink()
    elif how == "no_journal":
        (victim.parent / "_unosim_parts.jsonl").unlink()
    elif how == "delete_part":
        victim.unlink()
    else:  # pragma: no cover
        raise AssertionError(how)
    inject(how)


HOWS = ("flip_data", "flip_footer", "truncate", "duplicate", "stray", "no_manifest", "no_journal", "delete_part")

RUNS = {
    "hands": ["run", "standard", "--hands", 500, "--chunk-size", 100, "--seed", 3, "--quiet"],
    "matches": ["run", "standard", "--matches", 30, "--chunk-size", 10, "--max-hands", 60, "--seed", 3, "--quiet"],
    "rotated": ["run", "standard", "--hands", 150, "--chunk-size", 50, "--rotate-seats", "--seed", 3, "--quiet"],
}


@pytest.fixture(scope="module")
def refs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("refs")
    out = {}
    for mode, args in RUNS.items():
        out[mode] = root / mode
        assert invoke(*args, "--out", out[mode]).exit_code == 0
    sweep = root / "sw.toml"
    sweep.write_text('name = "sw"\nbase = "standard"\nhands = 120\nchunk_size = 40\nseed = 2\n'
                     '[axes]\n"rules.stacking" = ["draw2"]\n')
    out["sweep_file"] = sweep
    out["sweep"] = root / "sweep"
    assert invoke("sweep", sweep, "--out", out["sweep"], "--quiet").exit_code == 0
    out["league"] = root / "league"
    assert invoke(*LEAGUE, "--out", out["league"]).exit_code == 0
    return out


LEAGUE = ["league", "standard", "--bots", "counter,greedy,random", "--players", 2, "--deals", 40, "--seed", 1,
          "--quiet"]


@pytest.mark.parametrize("mode", list(RUNS))
def test_every_damage_to_a_run(refs: dict[str, Path], tmp_path: Path, mode: str) -> None:
    for how in HOWS:
        out = tmp_path / f"{mode}-{how}"
        shutil.copytree(refs[mode], out)
        (out / "user-notes.txt").write_text("mine")
        (tmp_path / "user-beside.txt").write_text("mine too")
        before = user_files(tmp_path)
        damage(out, how)
        args = [*RUNS[mode], "--out", out]
        outcome(invoke(*args), out, refs[mode], [*args, "--resume"])
        assert user_files(tmp_path) == before


@pytest.mark.slow
def test_every_damage_to_a_sweep_and_a_league(refs: dict[str, Path], tmp_path: Path) -> None:
    for how in HOWS:
        out = tmp_path / f"sweep-{how}"
        shutil.copytree(refs["sweep"], out)
        damage(out, how)
        args = ["sweep", refs["sweep_file"], "--out", out, "--quiet"]
        r = invoke(*args)
        if refused_in_one_line(r) and how == "no_manifest":  # a point's manifest: rebuilt by repair
            point = next(p.parent for p in out.rglob("_unosim_parts.jsonl") if not (p.parent / "_unosim.json").exists())
            assert invoke("repair", point).exit_code == 0
        outcome(r, out, refs["sweep"], args)
    for how in ("flip_data", "flip_footer", "truncate", "duplicate", "stray", "no_journal", "delete_part"):
        out = tmp_path / f"league-{how}"
        shutil.copytree(refs["league"], out)
        damage(out, how)
        r = invoke(*LEAGUE, "--out", out)
        assert r.exit_code == 0 and "Traceback" not in r.output, r.output
        pd.testing.assert_frame_equal(rows(out), rows(refs["league"]))
        assert (out / "_leaderboard.csv").read_text() == (refs["league"] / "_leaderboard.csv").read_text()


def test_a_part_without_its_journal_line_is_never_blessed(refs: dict[str, Path], tmp_path: Path) -> None:
    """A part damaged, then the journal deleted: neither `unosim repair` nor the run's own
    command writes a journal line for a part that had none; every such part is set aside
    and its chunk played again, so the result is verified-complete (no "unverified" note)."""
    out = tmp_path / "r"
    shutil.copytree(refs["hands"], out)
    flip(out / "part-000002.parquet", "data")
    (out / "_unosim_parts.jsonl").unlink()
    inject("flip_then_no_journal")
    r = invoke("repair", out)
    assert r.exit_code == 0 and "0 of 5 chunks verified" in r.output, r.output
    assert (out / "_rejected" / "part-000002.parquet.rejected").exists()
    r = invoke(*RUNS["hands"], "--out", out)
    assert r.exit_code == 0, r.output
    verified_complete(out, refs["hands"])


def _forge(part: Path) -> None:
    """Flip a bit in the data pages of ``part``'s ``winner`` column, then rewrite its journal
    line to the damaged bytes' checksum and size."""
    from unosim.run.integrity import PartRecord, file_crc, part_index, read_records, write_records

    md = pq.read_metadata(part)
    col = md.row_group(0).column(md.schema.to_arrow_schema().names.index("winner"))
    data = bytearray(part.read_bytes())
    data[(col.dictionary_page_offset or col.data_page_offset) + col.total_compressed_size - 2] ^= 8
    part.write_bytes(bytes(data))
    records = read_records(part.parent)
    old = records[part_index(part)]
    crc, size = file_crc(part)
    records[old.index] = PartRecord(old.index, old.start, old.count, old.rows, crc, size)
    write_records(part.parent, records)


def test_a_forged_journal_line_does_not_pass_a_damaged_part(refs: dict[str, Path], tmp_path: Path) -> None:
    """A damaged part whose journal line was rewritten to match it: its pages' own checksums
    refuse it in the report (one line) and on resume (set aside, its chunk played again)."""
    out = tmp_path / "r"
    shutil.copytree(refs["hands"], out)
    _forge(out / "part-000001.parquet")
    inject("forged_journal")
    r = invoke("report", out)
    assert refused_in_one_line(r) and "part-000001.parquet: a page fails its own checksum" in r.output, r.output
    r = invoke(*RUNS["hands"], "--out", out)
    assert r.exit_code == 0 and "part-000001.parquet: does not decode" in r.output, r.output
    verified_complete(out, refs["hands"])


def test_two_writers_at_once_one_is_refused(refs: dict[str, Path], tmp_path: Path) -> None:
    from unosim.run.integrity import hold_lock

    cmds = {
        "run": [*RUNS["hands"], "--out", tmp_path / "r"],
        "sweep": ["sweep", refs["sweep_file"], "--out", tmp_path / "s", "--quiet"],
        "league": [*LEAGUE, "--out", tmp_path / "l"],
        "tune": ["tune", "standard", "--players", 2, "--budget", 12, "--deals", 10, "--quiet", "--out", tmp_path / "t"],
        "skill": ["skill", refs["sweep_file"], "--budget", 12, "--deals", 10, "--quiet", "--out", tmp_path / "k"],
        "plot": ["plot", refs["hands"], "--out", tmp_path / "p"],
    }
    for name, args in cmds.items():
        folder = Path(str(args[args.index("--out") + 1]))
        with hold_lock(folder):
            r = invoke(*args)
        inject("two_writers")
        assert refused_in_one_line(r) and "being written by another unosim command" in r.output, (name, r.output)
    # a point of a sweep while the sweep writes
    point = next(p.parent for p in refs["sweep"].rglob("_unosim.json"))
    with hold_lock(refs["sweep"]):
        r = invoke(*RUNS["hands"], "--out", point)
    inject("two_writers")
    assert refused_in_one_line(r)


@pytest.mark.slow
def test_kill_9_at_random_moments_then_the_same_command(refs: dict[str, Path], tmp_path: Path) -> None:
    """A run killed (SIGKILL) at ``KILLS`` random moments, each followed by the same
    command, ends verified-complete with the rows of an uninterrupted run.  Each kill is
    classified by what it interrupted (before the first part, a part being written, between
    parts); a run that completes between kills is checked and started afresh, so every kill
    lands in a run still writing."""
    args = ["run", "standard", "--hands", 400_000, "--chunk-size", 20_000, "--seed", 5, "--quiet"]
    parts = 400_000 // 20_000
    ref = tmp_path / "ref"
    assert invoke(*args, "--out", ref).exit_code == 0
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    cmd = [sys.executable, "-m", "unosim.cli", *map(str, args), "--out", str(out)]
    t = time.monotonic()  # how long the whole command takes here and now: the kills spread over it
    subprocess.run([*cmd[:-1], str(tmp_path / "timed")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, check=True)
    whole = time.monotonic() - t
    for _ in range(KILLS):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        time.sleep(RNG.uniform(0.05, 1.0) * whole)
        p.send_signal(signal.SIGKILL)
        p.wait()
        inject("kill_9")
        journal = out / "_unosim_parts.jsonl"
        kept = len(journal.read_text().splitlines()) if journal.exists() else 0
        if kept == parts:
            KILL_MOMENTS["after the last part"] += 1
            verified_complete(out, ref)
            shutil.rmtree(out)  # the next kill interrupts a fresh run
            continue
        writing = any(out.glob("part-*.tmp")) if out.exists() else False
        KILL_MOMENTS["a part being written" if writing else "before the first part" if kept == 0
                     else "between parts"] += 1
        if (out / "_unosim.json").exists() and not (out / "user-notes.txt").exists():
            (out / "user-notes.txt").write_text("mine")  # a user's note in the result: never touched
    r = invoke(*args, "--out", out)
    assert r.exit_code == 0, r.output
    verified_complete(out, ref)
    assert not (out / "user-notes.txt").exists() or (out / "user-notes.txt").read_text() == "mine"
    assert KILL_MOMENTS["a part being written"] + KILL_MOMENTS["between parts"] >= 1, KILL_MOMENTS


def test_the_suite_says_how_many_injections_it_made() -> None:
    total = sum(INJECTIONS.values())
    print(f"\nfault injection: {total} injections: " + ", ".join(f"{k} {v}" for k, v in sorted(INJECTIONS.items())))
    if KILL_MOMENTS:
        print("kill -9 landed: " + ", ".join(f"{k} {v}" for k, v in sorted(KILL_MOMENTS.items())))
    if len(INJECTIONS) > 1 and "kill_9" in INJECTIONS:  # the whole file ran (not -k, not -m "not slow")
        assert total >= 3 * len(HOWS) + 8 + 7 + 7 + 2 + KILLS, INJECTIONS
