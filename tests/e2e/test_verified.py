"""Verified to the byte: every part checked by content (CRC-32 in the part journal), by
range and by the run's identity digest, on resume, in `unosim repair` and in `unosim report`.

Each test is one case a hostile user tried on a real result: a bit flipped inside a data
page (footer intact), a part copied under another chunk's name (hand and match runs), a
stray copy beside the parts, a deleted middle part and manifest, a part of another
``--max-hands`` or of a ``--rotate-seats`` run, a sweep point holding another point's
part, metadata edited to claim another table size.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from unosim.analysis.report import hand_report
from cli_checks import invoke, one_error
from unosim.run.integrity import JOURNAL
from unosim.run.store import MANIFEST




def flip_data_byte(part: Path) -> None:
    """Flip one bit in the middle of the first column chunk's data (the footer stays intact)."""
    md = pq.read_metadata(part)
    col = md.row_group(0).column(1)
    at = col.data_page_offset + col.total_compressed_size // 2
    data = bytearray(part.read_bytes())
    data[at] ^= 0x10
    part.write_bytes(bytes(data))


HANDS = ["run", "standard", "--hands", 300, "--chunk-size", 100, "--seed", 6, "--quiet"]
MATCHES = ["run", "standard", "--matches", 30, "--chunk-size", 10, "--seed", 6, "--max-hands", 50, "--quiet"]


def rows(path: Path, key: str = "hand") -> pd.DataFrame:
    files = sorted(path.glob("part-*.parquet"))
    return pd.concat([pd.read_parquet(f) for f in files]).sort_values(key).reset_index(drop=True)


@pytest.fixture(scope="module")
def ref(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("ref")
    assert invoke(*HANDS, "--out", root / "hands").exit_code == 0
    assert invoke(*MATCHES, "--out", root / "matches").exit_code == 0
    return {"hands": root / "hands", "matches": root / "matches"}


def copy(ref: Path, tmp_path: Path) -> Path:
    out = tmp_path / ref.name
    shutil.copytree(ref, out)
    return out


def test_a_flipped_bit_is_caught_by_report_resume_and_repair(ref: dict[str, Path], tmp_path: Path) -> None:
    out = copy(ref["hands"], tmp_path)
    flip_data_byte(out / "part-000001.parquet")
    pq.read_metadata(out / "part-000001.parquet")  # the footer still reads
    one_error(invoke("report", out), "part-000001.parquet", "differs from its recorded checksum")
    rep = invoke("repair", out)
    assert rep.exit_code == 0 and "2 of 3 chunks verified" in rep.output and "_rejected" in rep.output, rep.output
    assert (out / "_rejected" / "part-000001.parquet.rejected").exists()
    again = invoke(*HANDS, "--out", out)
    assert again.exit_code == 0 and "100 of 300 hands played now" in again.output, again.output
    pd.testing.assert_frame_equal(rows(out), rows(ref["hands"]))
    assert invoke("report", out).exit_code == 0


@pytest.mark.parametrize("kind", ["hands", "matches"])
def test_a_part_copied_under_another_name_is_refused(ref: dict[str, Path], tmp_path: Path, kind: str) -> None:
    out = copy(ref[kind], tmp_path)
    shutil.copy(out / "part-000000.parquet", out / "part-000001.parquet")
    one_error(invoke("report", out), "part-000001.parquet", "not reported")
    args = HANDS if kind == "hands" else MATCHES
    r = invoke(*args, "--out", out)
    assert r.exit_code == 0 and "_rejected/part-000001.parquet.rejected" in r.output, r.output
    key = "hand" if kind == "hands" else "match"
    pd.testing.assert_frame_equal(rows(out, key).sort_values([key, "hand"]).reset_index(drop=True),
                                  rows(ref[kind], key).sort_values([key, "hand"]).reset_index(drop=True))


def test_a_stray_copy_is_named_and_never_counted(ref: dict[str, Path], tmp_path: Path) -> None:
    out = copy(ref["hands"], tmp_path)
    shutil.copy(out / "part-000000.parquet", out / "extra.parquet")
    rep = hand_report(out)
    assert any("ignored extra.parquet" in n for n in rep.notes), rep.notes
    from unosim.analysis.report import load

    (res,) = load(out, ["hand"])
    assert len(res.frame) == 300 and res.frame["hand"].is_unique
    assert "ignored extra.parquet" in invoke("report", out).output


def test_a_deleted_middle_part_and_manifest_are_said(ref: dict[str, Path], tmp_path: Path) -> None:
    out = copy(ref["hands"], tmp_path)
    (out / "part-000001.parquet").unlink()
    (out / MANIFEST).unlink()
    notes = " ".join(hand_report(out).notes)
    assert "part-000001.parquet listed in its journal is missing" in notes and "manifest" in notes, notes
    (out / JOURNAL).unlink()
    assert "unverified" in " ".join(hand_report(out).notes)


def test_a_part_of_another_max_hands_is_not_kept(ref: dict[str, Path], tmp_path: Path) -> None:
    other = tmp_path / "other"
    assert invoke(*[a if a != 50 else 40 for a in MATCHES], "--out", other).exit_code == 0
    out = copy(ref["matches"], tmp_path)
    (out / "part-000001.parquet").unlink()
    shutil.copy(other / "part-000001.parquet", out / "part-000001.parquet")
    lines = [ln for ln in (out / JOURNAL).read_text().splitlines() if '"part": 1,' not in ln]
    (out / JOURNAL).write_text("\n".join(lines) + "\n")  # as if killed before its record
    r = invoke(*MATCHES, "--out", out)
    # without its journal line the part is never trusted, whatever run it came from
    assert r.exit_code == 0 and "part-000001.parquet: not in the part journal" in r.output, r.output
    pd.testing.assert_frame_equal(rows(out, "match"), rows(ref["matches"], "match"))


def test_a_rotated_part_in_a_plain_result_is_not_counted(ref: dict[str, Path], tmp_path: Path) -> None:
    rot = tmp_path / "rot"
    assert invoke(*HANDS, "--rotate-seats", "--out", rot).exit_code == 0
    out = copy(ref["hands"], tmp_path)
    shutil.copy(rot / "part-000000.parquet", out / "part-000000.parquet")
    one_error(invoke("report", out), "part-000000.parquet", "not reported")
    r = invoke(*HANDS, "--out", out)
    assert r.exit_code == 0 and "_rejected/part-000000.parquet.rejected" in r.output
    pd.testing.assert_frame_equal(rows(out), rows(ref["hands"]))


def test_edited_metadata_and_a_swapped_sweep_point_are_refused(ref: dict[str, Path], tmp_path: Path) -> None:
    out = copy(ref["hands"], tmp_path)
    t = pq.read_table(out / "part-000002.parquet")
    meta = dict(t.schema.metadata)
    meta[b"unosim.players"] = b"7"
    pq.write_table(t.replace_schema_metadata(meta), out / "part-000002.parquet")
    one_error(invoke("report", out), "part-000002.parquet")
    sweep = tmp_path / "sw.toml"
    sweep.write_text('name = "sw"\nbase = "standard"\nhands = 100\nchunk_size = 50\n'
                     '[axes]\n"rules.stacking" = ["draw2"]\n')
    data = tmp_path / "data"
    assert invoke("sweep", sweep, "--out", data, "--quiet").exit_code == 0
    a, b = sorted(p.parent for p in data.rglob(MANIFEST))
    shutil.copy(b / "part-000000.parquet", a / "part-000000.parquet")
    one_error(invoke("report", data), "part-000000.parquet", "not reported")
    shutil.copy(a / "part-000001.parquet", a / "copy.parquet")
    shutil.copy(b / "part-000000.parquet", a / "part-000000.parquet")
    r = invoke("sweep", sweep, "--out", data, "--quiet")
    assert r.exit_code == 0, r.output
    assert (a / "_rejected" / "copy.parquet.rejected").exists()  # the copy under another name: set aside, not counted
    assert invoke("report", data).exit_code == 0
