"""The installed `unosim` program (``unosim.cli:command``, also ``python -m unosim.cli``)
in a real subprocess: it ends without the interpreter's teardown, so these check that
nothing is lost on the way out: the exit status, every line printed (to a pipe, where
output is block-buffered), the result files, and that `unosim run` starts without pandas.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

PROGRAM = [sys.executable, "-m", "unosim.cli"]
# as a user's shell starts it: output to a pipe block-buffered, not written at once
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def program(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROGRAM, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300,
                          env=BUFFERED)


def test_a_run_prints_everything_and_its_files_are_whole(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    done = program("run", "standard", "--hands", 3000, "--chunk-size", 1000, "--seed", 3, "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("standard: 3,000 hands") and "dealer+3" in lines[-1], done.stdout
    assert pq.read_table(out, columns=["hand"]).num_rows == 3000


def test_a_user_error_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = program("run", tmp_path / "missing.toml", "--hands", 10, "--out", tmp_path / "x.parquet", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("Error:") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_help_ends_with_status_0_and_all_its_text(tmp_path: Path) -> None:
    done = program("--help", cwd=tmp_path)
    assert done.returncode == 0 and "Commands:" in done.stdout and done.stdout.rstrip().splitlines()[-1].strip()


def test_run_starts_without_pandas(tmp_path: Path) -> None:
    """pandas costs a third of a second to import, paid once per command on one core:
    `unosim run` reads no results, so it never loads it."""
    code = ("import sys; from unosim.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, "run", "standard", "--hands", "500", "--quiet",
                           "--out", str(tmp_path / "r.parquet")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False", done.stdout


def test_buffered_output_is_flushed_before_the_process_ends() -> None:
    """print() to a pipe is block-buffered and click.echo flushes only its own writes: what
    a command leaves in a buffer must still come out, and exit handlers (a Dask client's
    close) still run."""
    code = ("import atexit, sys\nfrom unosim.cli import command, main\n"
            "atexit.register(print, 'exit handler ran')\n"
            "@main.command('say')\ndef say():\n    print('said with print')\n    sys.stderr.write('and on stderr\\n')\n"
            "sys.argv = ['unosim', 'say']\ncommand()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=BUFFERED)
    assert (done.returncode, done.stdout, done.stderr) == (0, "said with print\nexit handler ran\n", "and on stderr\n")
