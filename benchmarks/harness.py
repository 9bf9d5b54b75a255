"""The benchmarks' shared harness: one command line, one load line, one verdict format,
one way to measure another revision.

A benchmark script is its docstring, a few options and a measure function::

    bench = Benchmark(__doc__, repeats=3, quick={"hands": 20_000})
    bench.option("--hands", type=count, default=1_000_000, help="...")

    def measure(run: Run) -> None:
        rate = ...                                   # time something, print what it shows
        run.target("hands/s", rate, ">=", 300_000, unit="hands/s")

    if __name__ == "__main__":
        bench.main(measure)

Every script then has the same options: ``--quick`` (the script's small sizes and one
repeat: a smoke run that checks the script end to end, its figures say little),
``--repeats R``, ``--json PATH`` (every figure and verdict written as one JSON object)
and, where the script can compare this tree with an older one, ``--against REV``.  The
harness prints the header (date, commit, Python, cores, load average) before the measure
and the load average after it: figures taken while other work runs are indicative only,
and the load line says how busy the machine was.

A target is never asserted: a busy machine gives slow figures and ``NOT MET``, not a
failure.  The exit status is 0 whatever the verdicts, 1 when a measurement failed and 2
for a bad option.

The harness imports nothing from unosim (nor numpy): ``--help`` is instant, and the
measure functions import what they time.  It puts this tree first on ``sys.path`` (and
children's PYTHONPATH), so a script measures the tree it lives in, not whichever checkout
of unosim is installed.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The repository this harness lives in: "this tree"."""

# The figures a script takes in its own process and in its children measure the same
# tree, this one, even where another checkout of unosim is the installed one.
if str(ROOT) not in sys.path:
    sys.path.insert(1 if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks" else 0, str(ROOT))

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt,
}


# -- option types ----------------------------------------------------------------------

def count(text: str) -> int:
    """An option value that must be a whole number >= 1 (hands, rows, repeats)."""
    return _whole(text, 1)


def count0(text: str) -> int:
    """An option value that must be a whole number >= 0 (0 usually means "all")."""
    return _whole(text, 0)


def _whole(text: str, least: int) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{text} is below {least}: give a whole number >= {least}")
    return value


def resolve_config(name: str) -> Path:
    """A config for a script's ``--config``: a TOML path, or a bundled name such as
    ``standard`` (configs/<name>.toml).  Used as an argparse ``type``, so a wrong name is
    the usual one-line usage error."""
    path = Path(name)
    if path.is_file():
        return path.resolve()
    bundled = ROOT / "configs" / f"{name}.toml"
    if bundled.is_file():
        return bundled
    names = ", ".join(sorted(p.stem for p in (ROOT / "configs").glob("*.toml")))
    raise argparse.ArgumentTypeError(f"no such config file or bundled name: {name!r} (bundled: {names})")


def shown(path: Path) -> str:
    """A path as the user reads it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


# -- the machine --------------------------------------------------------------------------

def cpus() -> int:
    """Cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def load_line() -> str:
    """The load average over 1, 5 and 15 minutes, against the cores there are."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {cpus()} cores"


def git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def describe_tree() -> str:
    """This tree's commit, and whether it has uncommitted edits (they are measured too)."""
    head = git("rev-parse", "--short", "HEAD")
    if head.returncode != 0:
        return f"{ROOT} (not a git checkout)"
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return f"{head.stdout.strip()}{' + uncommitted edits' if dirty else ''}"


def commit_of(rev: str) -> str:
    """The full commit id of ``rev`` here, or '' when it names no commit."""
    proc = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return proc.stdout.strip() if proc.returncode == 0 else ""


# -- child processes -------------------------------------------------------------------

@dataclass
class Child:
    """One finished child process: its wall time, its CPU time, its own peak RSS and its output."""

    wall: float  # seconds, timed from outside (interpreter start included)
    rss: int  # bytes: the child's own peak resident set (wait4's ru_maxrss)
    stdout: str
    stderr: str
    cpu: float = 0.0  # seconds of CPU, user + system, the child's own threads (wait4)

    def last_json(self) -> Any:
        """The JSON object on the child's last line of output."""
        return json.loads(self.stdout.strip().splitlines()[-1])


def child(cmd: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
          pin: bool = False, what: str | None = None) -> Child:
    """Run ``cmd`` to its end, timed from outside; exit with its error output if it fails.

    ``pin`` runs the whole child on one CPU (``sched_setaffinity``), so "one core" means
    the process and every thread it starts.  The peak RSS is the child's own, from
    ``os.wait4`` (``RUSAGE_CHILDREN`` would be the largest of every earlier child too)."""
    preexec = None
    if pin and hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        preexec = lambda: os.sched_setaffinity(0, {cpu})  # noqa: E731 - runs in the child
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(cmd), env=env, cwd=cwd, stdout=out, stderr=err, preexec_fn=preexec)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4: tell Popen
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit(f"error: {what or ' '.join(cmd)} failed (exit status {proc.returncode}):\n"
                         f"{stderr[-3000:]}{stdout[-1000:]}")
    return Child(wall, usage.ru_maxrss * 1024, stdout, stderr,  # Linux: ru_maxrss is in KiB
                 usage.ru_utime + usage.ru_stime)


def unosim_command() -> list[str]:
    """The installed ``unosim`` entry point next to this interpreter, else the same CLI
    through this interpreter: what a user types."""
    exe = shutil.which("unosim", path=str(Path(sys.executable).parent)) or shutil.which("unosim")
    return [exe] if exe else [sys.executable, "-m", "unosim.cli"]


# -- trees: this one, and another revision -------------------------------------------------

@dataclass
class Tree:
    """A source tree to measure: this one, or another revision exported by :func:`revision`.

    Its children import unosim from ``path`` (PYTHONPATH) and run in it, so every figure
    is taken with that tree's own package layout and its own benchmark scripts."""

    label: str  # "this tree" / "REV"
    path: Path
    desc: str
    env: dict[str, str]

    def run(self, cmd: Sequence[str], *, pin: bool = False, what: str | None = None) -> Child:
        return child(cmd, env=self.env, cwd=self.path, pin=pin, what=f"{what or ' '.join(cmd)} in {self.label}")

    def python(self, code: str, *args: object, pin: bool = False, what: str = "a measuring child") -> Child:
        """``python -c code args...`` in this tree."""
        return self.run([sys.executable, "-c", code, *map(str, args)], pin=pin, what=what)

    def script(self, name: str) -> Path:
        """This tree's own copy of benchmarks/<name>.py."""
        return self.path / "benchmarks" / f"{name}.py"


def bytecode(tree: Path) -> None:
    """Compile the tree's package to bytecode (``__pycache__``, as pip does when it installs
    a wheel), so a child starts as an installed unosim does.  Run from a source tree with
    PYTHONDONTWRITEBYTECODE set, Python would otherwise compile every unosim module again
    at every start, a fixed cost in every start-up and end-to-end figure that no installed
    copy pays (and the same for any worker count, so it drags every ratio towards 1)."""
    import compileall

    if not compileall.compile_dir(str(tree / "unosim"), quiet=1):
        raise SystemExit(f"error: could not compile {tree / 'unosim'} to bytecode")


def this_tree() -> Tree:
    """The tree this harness lives in, uncommitted edits included, with the user's numba
    cache (warm after a first run) and its bytecode compiled (:func:`bytecode`)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    bytecode(ROOT)
    return Tree("this tree", ROOT, describe_tree(), env)


@contextmanager
def revision(rev: str, tmp: str | None = None) -> Iterator[Tree]:
    """Another revision of the repository, exported with ``git archive`` into a temporary
    folder (no worktree to register or prune), deleted at the end, also on Ctrl-C or
    SIGTERM (:meth:`Benchmark.main` turns it into an exit).

    Its children get their own, new numba cache folder: the exported files carry the
    commit's time as their mtime, so in the user's cache they would overwrite the current
    tree's compiled code; the first run in it compiles (a minute or more)."""
    sha = commit_of(rev)
    if not sha:
        raise SystemExit(f"error: not a git revision here: {rev}")
    folder = Path(tempfile.mkdtemp(prefix="unosim-bench-rev-", dir=tmp)).resolve()
    try:
        tree = folder / "tree"
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True)
        if archive.returncode != 0:
            raise SystemExit(f"error: git archive {rev} failed:\n{archive.stderr.decode()[-2000:]}")
        with tarfile.open(fileobj=BytesIO(archive.stdout)) as t:
            t.extractall(tree, filter="data")
        bytecode(tree)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(tree)
        env["NUMBA_CACHE_DIR"] = str(folder / "numba-cache")
        yield Tree(rev, tree, f"{rev} ({sha[:7]})", env)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- figures and verdicts -------------------------------------------------------------------

@dataclass
class Target:
    """A figure against its target: ``value op goal`` (``op`` one of >=, >, <=, <)."""

    name: str
    value: float
    op: str
    goal: float
    unit: str = ""
    fmt: str = "{:,.2f}"
    note: str = ""

    @property
    def met(self) -> bool:
        return self.value == self.value and _OPS[self.op](self.value, self.goal)  # NaN: not met

    def line(self) -> str:
        unit = self.unit if self.unit in ("", "x", "%") else f" {self.unit}"
        note = f" ({self.note})" if self.note else ""
        return (f"[{'met' if self.met else 'NOT MET':<7}] {self.name} {self.op} {self.fmt.format(self.goal)}{unit}: "
                f"{self.fmt.format(self.value)}{unit}{note}")

    def record(self) -> dict[str, Any]:
        return {"name": self.name, "value": _plain(self.value), "op": self.op, "goal": self.goal,
                "unit": self.unit, "met": self.met, "note": self.note}


@dataclass
class Run:
    """What a measure function gets: the parsed options, and where its figures go."""

    args: argparse.Namespace
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)

    @property
    def quick(self) -> bool:
        return bool(self.args.quick)

    @property
    def repeats(self) -> int:
        return self.args.repeats

    @property
    def against(self) -> str | None:
        return getattr(self.args, "against", None)

    def figure(self, name: str, value: Any, unit: str = "") -> Any:
        """Keep a figure for ``--json`` (a number, or a list of them: one per repeat)."""
        self.figures[name] = {"value": _plain(value), "unit": unit}
        return value

    def target(self, name: str, value: float, op: str, goal: float, *, unit: str = "", fmt: str = "{:,.2f}",
               note: str = "") -> bool:
        """Judge a figure against its target, print the verdict line, keep both."""
        if op not in _OPS:
            raise ValueError(f"op must be one of {', '.join(_OPS)}, not {op!r}")
        t = Target(name, float(value), op, float(goal), unit, fmt, note)
        self.targets.append(t)
        self.figures.setdefault(name, {"value": _plain(float(value)), "unit": unit})
        print(f"  {t.line()}", flush=True)
        return t.met


def _plain(value: Any) -> Any:
    """A figure as JSON can hold it (NaN as null; numpy scalars as Python numbers)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- the command line -------------------------------------------------------------------------

class Benchmark:
    """One benchmark script's command line: the shared options, its own, its quick sizes.

    ``doc``: the script's docstring (first paragraph the description, the rest the help
    epilog).  ``repeats``: the default of ``--repeats``.  ``quick``: the options
    ``--quick`` sets (besides ``repeats=1``, unless it names another).  ``repeats_help``:
    what a repeat is, where it is not a timed repeat.  ``against``: the default revision of
    ``--against`` for a script that compares with another revision (``None``: no such
    option; ``""``: the option, off by default)."""

    def __init__(self, doc: str, *, repeats: int, quick: dict[str, Any], against: str | None = None,
                 name: str | None = None,
                 repeats_help: str = "timed repeats of each figure; medians are reported") -> None:
        caller = sys._getframe(1).f_globals.get("__file__") or sys.argv[0]
        self.name = name or Path(caller).stem
        head, _, rest = doc.strip().partition("\n\n")
        self.parser = argparse.ArgumentParser(
            prog=f"{self.name}.py", description=head, epilog=rest,
            formatter_class=argparse.RawDescriptionHelpFormatter)
        self.quick_sizes = {"repeats": 1, **quick}
        g = self.parser.add_argument_group("shared benchmark options (benchmarks/harness.py)")
        sizes = ", ".join(f"{k.replace('_', '-')} {v:,}" if isinstance(v, int) and not isinstance(v, bool)
                          else f"{k.replace('_', '-')} {v}" for k, v in self.quick_sizes.items())
        g.add_argument("--quick", action="store_true",
                       help=f"smoke run, checks the script end to end; its figures say little ({sizes})")
        g.add_argument("--repeats", type=count, default=repeats, metavar="R",
                       help=f"{repeats_help} [default: {repeats}]")
        g.add_argument("--json", type=_json_path, metavar="PATH",
                       help="also write every figure and verdict to PATH as one JSON object")
        if against is not None:
            g.add_argument("--against", metavar="REV", default=against or None,
                           help="the git revision to compare this tree with"
                                + (f" [default: {against}]" if against else ""))

    def option(self, *names: str, **kwargs: Any) -> argparse.Action:
        """A script's own option (argparse's ``add_argument``)."""
        return self.parser.add_argument(*names, **kwargs)

    def parse(self, argv: Sequence[str] | None = None) -> argparse.Namespace:
        args = self.parser.parse_args(argv)
        if args.quick:
            for key, value in self.quick_sizes.items():
                setattr(args, key, value)
        if getattr(args, "against", None) and not commit_of(args.against):
            self.parser.error(f"argument --against: not a git revision of {ROOT}: {args.against}")
        return args

    def main(self, measure: Callable[[Run], None], argv: Sequence[str] | None = None) -> Run:
        """Parse the options, print the header, measure, print the verdicts and the load
        after, write ``--json``."""
        args = self.parse(argv)
        run = Run(args)

        def stop(signum: int, _frame: Any) -> None:  # SIGTERM/SIGHUP: clean up like Ctrl-C
            raise SystemExit(128 + signum)

        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, stop)
        started = datetime.now(timezone.utc)
        before = os.getloadavg()
        print(f"{self.name}: {started:%Y-%m-%d %H:%M} UTC; tree {describe_tree()}; python "
              f"{sys.version.split()[0]}; {load_line()}", flush=True)
        try:
            measure(run)
        except KeyboardInterrupt:
            raise SystemExit("interrupted") from None
        after = os.getloadavg()
        print(f"\n{self.name}: {load_line()} after; {time.time() - started.timestamp():.0f} s in all", flush=True)
        if run.targets:
            missed = [t for t in run.targets if not t.met]
            print(f"targets: {len(run.targets) - len(missed)} met, {len(missed)} NOT MET")
        if after[1] > cpus():
            print(f"(the machine was busy: load {after[1]:.1f} over the last 5 min on {cpus()} cores; "
                  "other work competes with the measure, so take the figures as indicative)")
        if args.quick:
            print("(--quick: a smoke run at small sizes; its figures say little about speed)")
        if args.json:
            record = {
                "benchmark": self.name, "date": started.isoformat(timespec="seconds"), "tree": describe_tree(),
                "python": sys.version.split()[0], "cores": cpus(), "load_before": list(before),
                "load_after": list(after), "quick": bool(args.quick),
                "options": {k: _plain(str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                            if k != "json"},
                "figures": run.figures, "targets": [t.record() for t in run.targets],
            }
            Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
            print(f"figures written to {args.json}")
        return run


def _json_path(text: str) -> Path:
    """``--json PATH``: checked before the measure, so a long run is not lost at its end."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder: give a file name")
    if not path.parent.resolve().is_dir():
        raise argparse.ArgumentTypeError(f"no such folder: {path.parent}")
    if not os.access(path.parent.resolve(), os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write in {path.parent}")
    return path
