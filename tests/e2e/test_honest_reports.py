"""Reports say what they stand on (O1): an unfinished run or sweep is flagged, parts of
different runs in one folder are refused, and a file that is not a unosim result is one
line naming it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from unosim.analysis.report import compare, hand_report
from cli_checks import invoke
from cli_checks import one_error as _one_error




@pytest.fixture()
def run5(tmp_path: Path) -> Path:
    out = tmp_path / "r"
    assert invoke("run", "standard", "--hands", 500, "--chunk-size", 100, "--out", out, "--quiet").exit_code == 0
    return out


def test_an_unfinished_run_is_reported_as_incomplete(run5: Path) -> None:
    (run5 / "part-000003.parquet").unlink()
    rep = hand_report(run5)
    assert rep.notes == ["r is incomplete: 4 of 5 chunks (run the same command again to finish it)"]
    res = invoke("report", run5)
    assert res.exit_code == 0 and "note: r is incomplete: 4 of 5 chunks" in res.output.splitlines()[1]
    assert json.loads(invoke("report", run5, "--format", "json").output)["notes"] == rep.notes
    notes = compare(run5, run5).notes
    assert notes[:2] == rep.notes * 2 and "paired hand by hand" in notes[2] and len(notes) == 3
    (run5 / "part-000004.parquet").rename(run5 / "part-000003.parquet")  # a part under another's name
    one_error(invoke("report", run5), "part-000003.parquet", "not reported")


def test_a_run_being_written_or_with_a_damaged_manifest_says_so(run5: Path) -> None:
    """Read while its command still writes it, a result is growing, not stopped; a manifest
    that is there but unreadable is damaged, not missing."""
    from unosim.run.integrity import hold_lock
    from unosim.run.store import MANIFEST

    (run5 / "part-000004.parquet").unlink()
    with hold_lock(run5):
        assert hand_report(run5).notes == ["r is incomplete: 4 of 5 chunks (another unosim command is writing it now: "
                                           "these figures are of the parts so far)"]
    assert "run the same command again" in hand_report(run5).notes[0]
    (run5 / MANIFEST).write_text("{")
    assert any(f"its manifest {MANIFEST} is damaged" in n for n in hand_report(run5).notes)
    (run5 / MANIFEST).unlink()
    assert any(f"its manifest {MANIFEST} is missing" in n for n in hand_report(run5).notes)


def test_a_finished_run_has_no_note(run5: Path) -> None:
    assert hand_report(run5).notes == []
    assert "note:" not in invoke("report", run5).output


def test_parts_of_different_runs_in_one_folder_are_refused(run5: Path, tmp_path: Path) -> None:
    other = tmp_path / "three"
    (tmp_path / "three.toml").write_text('name = "three"\n[table]\nplayers = 3\n')
    assert invoke("run", tmp_path / "three.toml", "--hands", 100, "--out", other, "--quiet").exit_code == 0
    shutil.copy(other / "part-000000.parquet", run5 / "part-000007.parquet")  # not in the journal: ignored
    assert hand_report(run5).notes == ["r: ignored part-000007.parquet: not part of this run (not in its journal)"]
    shutil.copy(other / "part-000000.parquet", run5 / "part-000001.parquet")  # in place of a listed part
    one_error(invoke("report", run5), "part-000001.parquet", "not reported")
    for f in (run5 / "_unosim_parts.jsonl", run5 / "_unosim.json"):  # unverified: the footers still refuse
        f.unlink()
    with pytest.raises(ValueError, match="both hold hands 0-99"):
        hand_report(run5)  # part-000001 (hands 0-99 of the other run) overlaps part-000000
    import pyarrow as pa
    import pyarrow.parquet as pq

    (run5 / "part-000007.parquet").unlink()
    t = pd.read_parquet(run5 / "part-000001.parquet")
    meta = pq.read_schema(run5 / "part-000001.parquet").metadata
    moved = pa.Table.from_pandas(t.assign(hand=t["hand"] + 100), preserve_index=False)
    pq.write_table(moved.replace_schema_metadata(meta), run5 / "part-000001.parquet")  # hands 100-199 now
    with pytest.raises(ValueError, match="holds parts of different runs"):
        hand_report(run5)
    one_error(invoke("report", run5), "holds parts of different runs", "refusing to mix them")


def test_a_file_that_is_not_a_result_is_one_line(run5: Path, tmp_path: Path) -> None:
    plain = tmp_path / "other.parquet"
    pd.DataFrame({"a": [1, 2]}).to_parquet(plain)
    for cmd in (("report", plain), ("compare", plain, plain), ("plot", plain, "--out", tmp_path / "p")):
        one_error(invoke(*cmd), "other.parquet", "not a unosim result")
    (run5 / "part-abc.parquet").write_text("junk")
    assert "ignored part-abc.parquet" in invoke("report", run5).output  # a stray file is named, never read


def test_an_unfinished_sweep_is_reported_as_incomplete(tmp_path: Path) -> None:
    (tmp_path / "sw.toml").write_text(
        'name = "tiny"\nmode = "one_at_a_time"\nhands = 200\nseed = 1\nchunk_size = 100\n'
        '[axes]\n"rules.stacking" = ["draw2", "all"]\n')
    out = tmp_path / "sw"
    assert invoke("sweep", tmp_path / "sw.toml", "--out", out, "--quiet").exit_code == 0
    shutil.rmtree(out / "point-0002")  # stacking=all
    (out / "point-0001" / "part-000001.parquet").unlink()  # stacking=draw2
    lines = invoke("report", out).output.splitlines()
    assert lines[1] == "note: sweep sw is incomplete: 2 of 3 points have results (run the same command again to finish it)"
    assert lines[2].startswith("note: stacking=draw2 is incomplete: 1 of 2 chunks")
    from unosim.run.integrity import hold_lock

    with hold_lock(out):  # the sweep's command still writes it: a second command would be refused
        lines = invoke("report", out).output.splitlines()
    assert lines[1] == ("note: sweep sw is incomplete: 2 of 3 points have results (another unosim command is writing "
                        "it now: these figures are of the results so far)")
    assert lines[2] == ("note: stacking=draw2 is incomplete: 1 of 2 chunks (another unosim command is writing it now: "
                        "these figures are of the parts so far)")


def one_error(res, *needles: str) -> str:
    """The output is that one line and nothing else."""
    return _one_error(res, *needles, alone=True)
