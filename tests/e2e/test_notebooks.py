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

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 1800  # seconds; a cold compile on a busy 2-core machine can take minutes


def test_there_are_notebooks() -> None:
    names = {p.stem for p in NOTEBOOKS}
    assert {"house_rules", "scoring_systems"} <= names


SMALL_SWEEP = ('name = "small"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 1000\nseed = 0\n'
               '[axes]\n"rules.seven_o" = [true]\n"rules.two_player_reverse" = ["none"]\n'
               '[strata]\n"table.players" = [2, 4]\n')
"""notebooks/skill.ipynb's sweep in the tests (``UNOSIM_NB_SWEEP``): 7-0 among its rules."""
VERDICT_CELL = ('print(diff[["rules", "players", "diff", "low", "high", "verdict", "discovery"]]'
                '.to_json(orient="records"))')
"""A cell the verdict test adds at the notebook's end: its verdict table as JSON."""


def _execute(path: Path, where: Path, extra: str | None = None):
    """The notebook run in ``where`` (small sizes, figures to ``where/out``); with ``extra``,
    that code as a last cell, removed again after the run and returned as its stdout."""
    nb = nbformat.read(path, as_version=4)
    if extra is not None:
        nb.cells.append(nbformat.v4.new_code_cell(extra))
    env = {"UNOSIM_NB_HANDS": "400", "UNOSIM_NB_MATCHES": "30", "UNOSIM_NB_OUT": str(where / "out")}
    if path.stem == "skill":
        (where / "small.toml").write_text(SMALL_SWEEP)
        env["UNOSIM_NB_SWEEP"] = str(where / "small.toml")
    with pytest.MonkeyPatch.context() as mp:  # the kernel inherits this process's environment
        for k, v in env.items():
            mp.setenv(k, v)
        client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                         resources={"metadata": {"path": str(where)}})
        client.execute()  # raises CellExecutionError, naming the cell, on any error
    printed = ""
    if extra is not None:
        last = nb.cells.pop()
        printed = "".join(o.get("text", "") for o in last.get("outputs", []) if o.get("name") == "stdout")
    return nb, printed


@pytest.fixture(scope="module")
def skill_notebook(tmp_path_factory: pytest.TempPathFactory):
    """notebooks/skill.ipynb run once on SMALL_SWEEP: (notebook, its folder, its verdicts as JSON)."""
    where = tmp_path_factory.mktemp("skill_nb")
    nb, printed = _execute(next(p for p in NOTEBOOKS if p.stem == "skill"), where, VERDICT_CELL)
    return nb, where, printed


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_end_to_end(path: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if path.stem == "skill":
        nb, tmp_path, _ = request.getfixturevalue("skill_notebook")
    else:
        nb, _ = _execute(path, tmp_path)
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


_CELL = re.compile(r"^(\*\*)?([+-]\d+\.\d) \[([+-]\d+\.\d), ([+-]\d+\.\d)\]\**( †)?$")


def test_the_notebook_reads_the_verdicts_of_docs_skill_page(skill_notebook) -> None:
    """One source of truth: on the notebook's own run, docs/skill.md's difference table
    (docs/skill_figures.py, as docs/generate.py writes it) and the notebook's verdicts agree
    on every rule at every table size: the same figures, the same bold (the interval
    excludes 0) with the same sign, the same †.  And the run used `unosim skill`'s replicates."""
    import json

    from docs_scripts import skill_figures
    from unosim.studies import skill_defaults

    nb, where, printed = skill_notebook
    ours = {(r["rules"], int(r["players"])): r for r in json.loads(printed)}
    run = skill_figures().load(where / "out" / "small.skill")
    assert set(run.points["replicates"]) == {skill_defaults.REPLICATES}
    table = skill_figures().difference_table(run).splitlines()
    head = next(i for i, ln in enumerate(table) if ln.startswith("| rule |"))
    sizes = [int(h.split()[0]) for h in table[head].strip("|").split("|")[1:]]
    seen = 0
    for line in table[head + 2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rule = cells[0].strip("`")
        for n, cell in zip(sizes, cells[1:]):
            if cell.startswith("- ("):
                assert (rule, n) not in ours
                continue
            m = _CELL.match(cell)
            assert m, cell
            mine = ours[(rule, n)]
            pp = [f"{100 * mine[k]:+.1f}" for k in ("diff", "low", "high")]
            assert list(m.group(2, 3, 4)) == pp, (rule, n, cell, mine)
            page = ("no clear change" if not m.group(1) else "more skill" if float(m.group(2)) > 0 else "more luck")
            assert page == mine["verdict"], (rule, n, cell, mine["verdict"])
            assert bool(m.group(5)) == bool(mine["discovery"]), (rule, n, cell)
            seen += 1
    assert seen == len(ours) == 2 * len(sizes)  # two rules at each table size
    # ... and the notebook's sentences name each moved rule with that verdict
    reading = next(o["data"]["text/markdown"] for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                   if "official rules**: the tuned bot wins" in o.get("data", {}).get("text/markdown", ""))
    for (rule, n), r in ours.items():
        line = next(ln for ln in reading.splitlines() if ln.startswith(f"* **{n} players**:"))
        said = f"`{rule}` {100 * r['diff']:+.1f}"
        assert (said in line) == (r["verdict"] != "no clear change"), (rule, n, line)
        if said in line:
            assert re.match(r" \[[^]]*\] \(([^,)]+)", line.split(said, 1)[1]).group(1) == r["verdict"], line


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
