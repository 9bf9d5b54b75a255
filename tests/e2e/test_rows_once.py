"""Rows written once, in their file types, and a start that loads only what it plays.

The kernel plays into int32 rows whose columns are the part file's columns (views, no
copy or cast); every buffer and slice of them is one numba type, so one compiled kernel
serves them all.  A run of plain hands imports neither pyarrow nor the match, tournament
and search kernels before its first hand, and ``unosim.configure`` keeps numba's BLAS
probe from importing scipy.linalg.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numba
import numpy as np
import pytest

from unosim.engine.batch import new_out
from unosim.kernel.layout import N_OUT, O_HAND, O_STALLED
from unosim.rules.config import default_config, to_params
from unosim.run.play import has_search, play_chunk
from unosim.run.store import Columns, _numpy_type, column_names, hand_column, to_table


def test_every_buffer_and_slice_of_rows_is_one_kernel_type() -> None:
    rows = new_out(10)
    kinds = {numba.typeof(a) for a in (new_out(0), new_out(1), rows, rows[3:], rows[3:4], rows[:7])}
    assert kinds == {numba.types.Array(numba.int32, 2, "A")}
    assert rows.shape == (10, N_OUT) and new_out(0).shape == (1, N_OUT)
    assert all(rows[:, j].flags.c_contiguous for j in range(N_OUT))


def test_file_columns_are_the_kernels_rows_not_copies() -> None:
    cfg = default_config()
    rows = play_chunk(to_params(cfg), 5, 1000, 300, 2)
    columns = column_names(cfg.players)
    cols = Columns.of_rows(rows, columns, 1000)
    for (name, j), values in zip(columns, cols.data):
        if _numpy_type(name) is np.int32:
            assert np.shares_memory(values, rows[:, j]), name
    table = to_table(rows, columns, {}, 1000)
    assert table.column("hand").to_pylist() == list(range(1000, 1300))
    assert table.column("stalled").to_pylist() == [bool(x) for x in rows[:, O_STALLED]]
    assert [str(f.type) for f in table.schema] == [str(f.type) for f in Columns(columns, 0).table({}).schema]


def test_a_buffer_played_in_slices_holds_the_rows_of_one_call() -> None:
    P = to_params(default_config())
    whole = play_chunk(P, 3, 0, 500, 2).copy()
    buffer = new_out(500)
    for a in range(0, 500, 120):
        play_chunk(P, 3, a, min(120, 500 - a), 2, buffer[a:])
    assert np.array_equal(buffer, whole)


@pytest.mark.parametrize("start", [0, 2**31 - 5, 2**32 - 3, 5 * 2**32 + 7, 10**12 - 100])
def test_the_hand_column_is_exact_past_two_to_the_31(start: int) -> None:
    want = np.arange(start, start + 100, dtype=np.int64)
    low = want.astype(np.int32)  # what the kernel's int32 hand column keeps
    assert np.array_equal(hand_column(low, start), want)
    rotated = np.concatenate([low, low])  # each rotation repeats the chunk's hands
    assert np.array_equal(hand_column(rotated, start), np.concatenate([want, want]))


def test_int64_rows_are_cast_and_int32_hands_need_their_start() -> None:
    rows = np.zeros((4, N_OUT), np.int64)
    rows[:, O_HAND] = np.arange(2**40, 2**40 + 4)
    table = to_table(rows, column_names(2), {})
    assert table.column("hand").to_pylist() == list(range(2**40, 2**40 + 4))
    with pytest.raises(ValueError, match="start"):
        to_table(new_out(4), column_names(2), {})


def test_has_search_is_the_search_kernels_own_answer() -> None:
    from unosim.engine import search_batch

    for seats in ("random", ["search", "counter"], ["counter", "random", "search"]):
        cfg = default_config().with_values({"players": 3 if isinstance(seats, list) and len(seats) == 3 else 2,
                                            "seats": seats})
        P = to_params(cfg)
        assert has_search(P) == search_batch.has_search(P)


def _child(code: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # a fresh interpreter's imports
def test_a_run_of_hands_loads_only_what_it_plays() -> None:
    got = _child("""
import json, sys
before = list(sys.meta_path)
import unosim
same = sys.meta_path == before
import unosim.cli, unosim.run.runner, unosim.run.local, unosim.run.jobs
heavy = ["pyarrow", "pandas", "scipy.linalg", "matplotlib", "dask", "unosim.engine.search_batch",
         "unosim.engine.matches", "unosim.engine.tournaments", "unosim.analysis"]
print(json.dumps({"same": same, "loaded": [m for m in heavy if m in sys.modules]}))
""")
    assert got == {"same": True, "loaded": []}


@pytest.mark.slow  # a fresh interpreter loads the kernel
def test_configure_keeps_scipy_linalg_from_numbas_blas_probe_alone() -> None:
    got = _child("""
import json, sys
import unosim
unosim.configure()
from unosim.engine.batch import new_out, play_hands
from unosim.rules.config import default_config, to_params
play_hands(to_params(default_config()), 0, 0, 0, new_out(0), 1)
probed = "scipy.linalg" in sys.modules
import numba.np.arraymath
import scipy.linalg
print(json.dumps({"probed": probed, "blas": numba.np.arraymath._HAVE_BLAS, "linalg": scipy.linalg.__name__}))
""")
    assert got == {"probed": False, "blas": False, "linalg": "scipy.linalg"}
