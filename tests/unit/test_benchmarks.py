"""The benchmark harness (benchmarks/harness.py): its options, verdicts, JSON record,
child processes and revision export; and that every benchmark script parses its options
(``--help``, and a bad value is one usage line with exit status 2).

No benchmark is run here: their `--quick` runs together take minutes on 2 cores (one
compiles an old revision), so they are run by hand (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if p.name != "harness.py")


def _load_harness():
    # by path, under its own name: tests/ has a `harness` module of its own
    spec = importlib.util.spec_from_file_location("benchmarks_harness", BENCH / "harness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


H = _load_harness()


def toy(**kwargs) -> H.Benchmark:
    """A benchmark with one option of its own, as a script declares it."""
    bench = H.Benchmark("Toy benchmark.\n\nIts epilog.", repeats=3, quick={"hands": 10}, name="toy", **kwargs)
    bench.option("--hands", type=H.count, default=1000)
    return bench


def test_count_types_reject_what_is_not_a_whole_number() -> None:
    assert H.count("1_000") == 1000 and H.count("2,000") == 2000 and H.count0("0") == 0
    for bad, parse in (("0", H.count), ("-1", H.count0), ("1.5", H.count), ("many", H.count0)):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)


def test_quick_sets_the_script_sizes_and_one_repeat() -> None:
    args = toy().parse(["--quick", "--repeats", "7", "--hands", "500"])
    assert (args.quick, args.repeats, args.hands) == (True, 1, 10)
    args = toy().parse(["--repeats", "7", "--hands", "500"])
    assert (args.quick, args.repeats, args.hands) == (False, 7, 500)
    assert toy().parse([]).repeats == 3


@pytest.mark.parametrize("argv, says", [
    (["--repeats", "0"], "argument --repeats"),
    (["--hands", "ten"], "argument --hands"),
    (["--json", "/no/such/folder/figures.json"], "no such folder"),
    (["--against", "no-such-revision-xyz"], "not a git revision"),
])
def test_a_bad_option_is_one_usage_error_with_exit_status_2(argv, says, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        toy(against="").parse(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert says in err[-1] and err[-1].startswith("toy.py: error:")


def test_against_only_where_a_script_compares_revisions() -> None:
    assert not hasattr(toy().parse([]), "against")
    assert toy(against="").parse([]).against is None
    assert toy(against="HEAD").parse([]).against == "HEAD"


def test_target_verdicts() -> None:
    assert H.Target("rate", 300, ">=", 300).met
    assert not H.Target("rate", 299.9, ">=", 300).met
    assert H.Target("rss", 0.9, "<", 1).met and not H.Target("rss", 1, "<", 1).met
    assert not H.Target("rate", float("nan"), ">=", 1).met  # a figure that could not be taken
    line = H.Target("1 core", 250_000, ">=", 300_000, unit="hands/s", fmt="{:,.0f}", note="kernel 400,000").line()
    assert line == "[NOT MET] 1 core >= 300,000 hands/s: 250,000 hands/s (kernel 400,000)"
    assert H.Target("ratio", 1.8, ">=", 1.7, unit="x").line() == "[met    ] ratio >= 1.70x: 1.80x"


def test_main_prints_the_load_and_verdicts_and_writes_json(tmp_path, capsys) -> None:
    def measure(run) -> None:
        run.figure("rates", [1.0, float("nan")], "hands/s")
        run.target("fast enough", run.args.hands, ">=", 100, unit="hands")
        run.target("small enough", 5, "<", 1, unit="GiB")

    path = tmp_path / "figures.json"
    toy().main(measure, ["--quick", "--json", str(path)])
    out = capsys.readouterr().out
    assert "load average" in out and "after" in out
    assert "[NOT MET] fast enough >= 100.00 hands: 10.00 hands" in out
    assert "targets: 0 met, 2 NOT MET" in out and "--quick" in out
    record = json.loads(path.read_text())
    assert record["benchmark"] == "toy" and record["quick"] is True and record["options"]["hands"] == 10
    assert record["figures"]["rates"] == {"value": [1.0, None], "unit": "hands/s"}
    assert [(t["name"], t["met"]) for t in record["targets"]] == [("fast enough", False), ("small enough", False)]
    assert len(record["load_before"]) == 3 and record["cores"] >= 1


def test_resolve_config_takes_a_path_or_a_bundled_name(tmp_path) -> None:
    assert H.resolve_config("standard") == H.ROOT / "configs" / "standard.toml"
    own = tmp_path / "mine.toml"
    own.write_text('name = "mine"\n')
    assert H.resolve_config(str(own)) == own.resolve()
    with pytest.raises(argparse.ArgumentTypeError, match="no such config"):
        H.resolve_config("no-such-config")


def test_child_measures_and_a_failing_child_stops_the_run() -> None:
    done = H.child([sys.executable, "-c", "print('{\"x\": 1}')"])
    assert done.last_json() == {"x": 1} and done.wall > 0 and done.rss > 0
    with pytest.raises(SystemExit, match="the probe failed .exit status 3"):
        H.child([sys.executable, "-c", "import sys; sys.stderr.write('boom'); sys.exit(3)"], what="the probe")


def test_bytecode_compiles_a_tree_as_an_install_would_and_a_broken_one_stops(tmp_path) -> None:
    """Children start from compiled bytecode (PYTHONDONTWRITEBYTECODE or not), as an
    installed unosim does; a module that does not compile stops the benchmark."""
    pkg = tmp_path / "unosim"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("X = 1\n")
    H.bytecode(tmp_path)
    assert list((pkg / "__pycache__").glob("__init__.*.pyc"))
    (pkg / "broken.py").write_text("def (:\n")
    with pytest.raises(SystemExit, match="could not compile"):
        H.bytecode(tmp_path)


def test_revision_exports_a_tree_its_children_import_and_removes_it() -> None:
    with H.revision("HEAD") as tree:
        assert (tree.path / "unosim" / "__init__.py").is_file() and tree.script("harness").is_file()
        assert tree.env["NUMBA_CACHE_DIR"].startswith(str(tree.path.parent))  # never the user's cache
        where = tree.python("import unosim; print(unosim.__file__)").stdout.strip()
        assert Path(where).is_relative_to(tree.path)
    assert not tree.path.exists()
    with pytest.raises(SystemExit, match="not a git revision"):
        with H.revision("no-such-revision-xyz"):
            pass


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_every_script_has_help(script) -> None:
    proc = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "--quick" in proc.stdout and ("--repeats" in proc.stdout or script.stem == "rlcard_baseline")


@pytest.mark.parametrize("script", [p for p in SCRIPTS if p.stem != "rlcard_baseline"], ids=lambda p: p.stem)
def test_every_harness_script_rejects_a_bad_repeat_count(script) -> None:
    proc = subprocess.run([sys.executable, str(script), "--repeats", "0"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith("argument --repeats: 0 is below 1: give a whole number >= 1")


def test_yardstick_without_its_json_line_is_one_error() -> None:
    proc = subprocess.run([sys.executable, str(BENCH / "yardstick.py"), "--yardstick",
                           f"{sys.executable} -c \"print('{{}}')\"", "--quick"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1 and "has no players and hands_per_cpu_s" in proc.stderr
