"""Every notebook under notebooks/ runs end to end (nbclient, kernel ``python3``).

The notebooks read their size from the environment (``UNOSIM_NB_HANDS``,
``UNOSIM_NB_MATCHES``) and their output directory from ``UNOSIM_NB_OUT``; the kernel
inherits this process's environment, so the tests set small sizes and a temporary
directory.  The notebooks are executed in memory: the files in the repository are not
rewritten.  A cold numba cache makes the first cell that simulates compile the engine,
hence the generous per-cell timeout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each notebook starts a kernel and runs its simulations

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 1800  # seconds; a cold compile on a busy 2-core machine can take minutes


def test_there_are_notebooks() -> None:
    names = {p.stem for p in NOTEBOOKS}
    assert {"house_rules", "scoring_systems"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_end_to_end(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOSIM_NB_HANDS", "400")
    monkeypatch.setenv("UNOSIM_NB_MATCHES", "30")
    monkeypatch.setenv("UNOSIM_NB_OUT", str(tmp_path / "out"))
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.get("execution_count") for c in code), "every code cell ran"
    errors = [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    assert list((tmp_path / "out").glob("*.png")), "the notebook wrote its figures to UNOSIM_NB_OUT"
    # newcomer-friendly: a markdown cell before the code, one per step at least
    md = [c for c in nb.cells if c.cell_type == "markdown"]
    assert nb.cells[0].cell_type == "markdown" and len(md) >= len(code) // 2
    if path.stem == "skill":  # its reading is written by a cell from this run's tables
        shown = [o.get("data", {}).get("text/markdown", "") for c in code for o in c.get("outputs", [])]
        assert any("players, official rules**: the tuned bot wins" in t for t in shown)


# A figure a notebook's prose may state: a definition, not a result of its run.
DEFINITIONS = {"95%": "the intervals' level", "100%": "the skill index's top", "25%": "an even share at 4",
               "500 points": "the match target", "0.2": "Cohen's h: small", "0.5": "medium", "0.8": "large",
               "5%": "the false discovery rate held"}
_FIGURE = re.compile(r"(?<![\w/])[+-]?\d[\d,]*(?:\.\d+)?\s?(?:%|pp\b|points\b)|\b\d+\.\d+\b")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_prose_states_no_result(path: Path) -> None:
    """A markdown cell states no measured figure: whatever a run measures is printed by a
    code cell from that run (notebooks/skill.ipynb's reading included), so the prose cannot
    contradict the numbers under it."""
    nb = nbformat.read(path, as_version=4)
    found = [(i, f) for i, c in enumerate(nb.cells) if c.cell_type == "markdown"
             for f in _FIGURE.findall(c.source) if f not in DEFINITIONS]
    assert not found, f"{path.name}: figures in markdown cells (cell, figure): {found}"


def test_a_notebook_leaves_no_folder_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without UNOSIM_NB_OUT the results go to a temporary folder that is gone once the
    kernel stops."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setenv("UNOSIM_NB_MATCHES", "20")
    monkeypatch.setenv("UNOSIM_NB_HANDS", "400")  # the folder is the point, not the figures
    monkeypatch.delenv("UNOSIM_NB_OUT", raising=False)
    path = next(p for p in NOTEBOOKS if p.stem == "scoring_systems")
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert not list(scratch.glob("unosim-*"))
