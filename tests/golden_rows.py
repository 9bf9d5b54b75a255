"""Golden rows: a few hundred output rows per case at fixed seeds, kept in tests/golden/
beside the test that compares them (tests/golden/test_golden.py).

Any change to what the engine writes (a rule's effect, a bot's choice, the order of random
draws, a column) shows as a diff here.  A change that is meant must bump ``ENGINE_VERSION``
(stored in every output file) and regenerate, in the same commit:

    python tests/golden_rows.py                 # rewrites tests/golden/*.csv, *.txt
    python tests/golden_rows.py --add-columns   # only writes columns the files lack (and new cases' files)

Rows are compared column by column (:func:`compare`), so a new column (a rule's new
counter) fails only as "new column", and ``--add-columns`` adds it to every file without
touching a value of the columns already kept: it refuses if any of them changed.

The cases go through the ``unosim`` command itself (in process), the contract users
script against: every bundled config, a rotated-seat run of mixed bots, every strategy at
one table, a search seat at a table with challenges and stacking, at one with swaps and
giveaways, at one playing several cards at once and at one stacking several at once,
B0 and counter seats challenging groups of Wild Draw Fours (H6, H22), a search seat at a
table that deflects (H26),
two search seats at a table with jump-ins, match runs (plain, teams, last standing;
S1-S4), tournament runs (T1, 4 and 8 players) and play-by-play traces (of a batch hand, a
match hand and a tournament hand).
"""

from __future__ import annotations

import csv
import io
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from click.testing import CliRunner

from unosim.cli import main
from unosim.kernel.layout import ENGINE_VERSION

GOLDEN = Path(__file__).resolve().parent / "golden"
CONFIGS = Path(__file__).resolve().parent.parent / "configs"
VERSION_FILE = GOLDEN / "ENGINE_VERSION"

MIXED = """name = "mixed"
[table]
players = 4
[bots]
seats = ["counter", "greedy", {strategy = "aggressor", hold_attacks = true}, "wild_saver"]
"""
TOURNAMENT8 = """name = "tournament8"
[table]
players = 8
[tournament]
hands_per_round = 1
[bots]
seats = ["counter", "random", "greedy", "random", "wild_saver", "random", "aggressor", "color_keeper"]
"""
EVERY_STRATEGY = """name = "every_strategy"
[table]
players = 7
[rules]
stacking = "draw2"
jump_in = "all"
[bots]
seats = ["random", {strategy = "greedy", bluff_rate = 0.3, challenge_rate = 0.5},
         {strategy = "wild_saver", draw_before_wild = true}, "color_keeper", "aggressor",
         {strategy = "counter", bluff_rate = 0.2}, {strategy = "weights", w_copies = 1.5, bluff_rate = 0.1}]
"""
SEARCH_TABLE = """name = "search_table"
[table]
players = 3
[rules]
stacking = "draw2_draw4"
[bots]
seats = [{strategy = "search", worlds = 2, rollouts = 2}, "counter", "greedy"]
"""
SEARCH_SWAPS = """name = "search_swaps"
[table]
players = 4
[rules]
seven_o = true
red_zero = "giveaway"
[bots]
seats = [{strategy = "search", worlds = 2, rollouts = 2, margin = 0.0}, "counter", "greedy", "counter"]
"""
SEARCH_MULTI = """name = "search_multi"
[table]
players = 3
[rules]
multi_play = "same_rank"
[bots]
seats = [{strategy = "search", worlds = 2, rollouts = 2, margin = 0.0}, "counter", "random"]
"""
SEARCH_STACKS = """name = "search_stacks"
[table]
players = 3
[rules]
multi_play = "identical"
stacking = "draw2_draw4"
[bots]
seats = [{strategy = "search", worlds = 2, rollouts = 2, margin = 0.0}, "counter",
         {strategy = "random", multi_rate = 0.5}]
"""
SEARCH_JUMPS = """name = "search_jumps"
[table]
players = 4
[rules]
jump_in = "all"
stacking = "draw2"
[bots]
seats = [{strategy = "search", worlds = 2, rollouts = 2, margin = 0.0}, "counter",
         {strategy = "search", worlds = 2, rollouts = 1, margin = 0.0}, "random"]
"""
SEARCH_DEFLECTS = """name = "search_deflects"
[table]
players = 4
[rules]
deflect = "reverse_skip"
stacking = "draw2"
[bots]
seats = [{strategy = "search", worlds = 2, rollouts = 2, margin = 0.0}, "counter", "random", "greedy"]
"""
GROUP_CHALLENGES = """name = "group_challenges"
[table]
players = 4
[rules]
multi_play = "identical"
bluff_penalty = "take_back"
[bots]
seats = [{strategy = "random", bluff_rate = 0.3, challenge_rate = 0.5, multi_rate = 1.0}, "counter",
         {strategy = "random", bluff_rate = 0.3, challenge_rate = 0.5, multi_rate = 1.0}, "counter"]
"""


@dataclass(frozen=True)
class Case:
    """One golden file: the command's arguments after CONFIG and the sort order of its rows."""

    name: str
    config: str            # a bundled config's stem, or a TOML text
    args: tuple[str, ...]
    sort: tuple[str, ...] = ("hand",)
    trace: bool = False

    @property
    def file(self) -> Path:
        return GOLDEN / (f"{self.name}.txt" if self.trace else f"{self.name}.csv")


def cases() -> list[Case]:
    out = [Case(p.stem, p.stem, ("--hands", "200", "--seed", "11", "--chunk-size", "70"))
           for p in sorted(CONFIGS.glob("*.toml"))]
    out += [
        Case("rotated_mixed", MIXED, ("--hands", "60", "--seed", "5", "--rotate-seats"), ("hand", "rotation")),
        Case("every_strategy", EVERY_STRATEGY, ("--hands", "200", "--seed", "3")),
        Case("search_table", SEARCH_TABLE, ("--hands", "40", "--seed", "9")),
        Case("search_swaps", SEARCH_SWAPS, ("--hands", "40", "--seed", "9")),
        Case("search_multi", SEARCH_MULTI, ("--hands", "40", "--seed", "9")),
        Case("search_jumps", SEARCH_JUMPS, ("--hands", "40", "--seed", "9")),
        Case("search_stacks", SEARCH_STACKS, ("--hands", "60", "--seed", "9")),
        Case("search_deflects", SEARCH_DEFLECTS, ("--hands", "40", "--seed", "9")),
        Case("group_challenges", GROUP_CHALLENGES, ("--hands", "300", "--seed", "13")),
        Case("matches_standard", "standard", ("--matches", "8", "--seed", "2", "--chunk-size", "3"),
             ("match", "hand")),
        Case("matches_teams", "teams", ("--matches", "6", "--seed", "4"), ("match", "hand")),
        Case("matches_last_standing", "last_standing", ("--matches", "6", "--seed", "6", "--max-hands", "40"), ("match", "hand")),
        Case("tournaments_standard", "standard", ("--tournaments", "4", "--seed", "2", "--chunk-size", "3"),
             ("tournament", "hand")),
        Case("tournaments_8", TOURNAMENT8, ("--tournaments", "2", "--seed", "3"), ("tournament", "hand")),
        Case("trace_standard", "standard", ("--seed", "7", "--hand", "3"), trace=True),
        Case("trace_match", "standard", ("--seed", "2", "--match", "1", "--hand", "4"), trace=True),
        Case("trace_tournament8", TOURNAMENT8, ("--seed", "3", "--tournament", "1", "--round", "5", "--table", "1"),
             trace=True),
        Case("trace_house_favourites", "house_favourites", ("--seed", "1", "--hand", "2"), trace=True),
    ]
    return out


def produce(case: Case, work: Path) -> str:
    """The case's output as text: CSV of the rows sorted, or the trace's lines."""
    config = case.config
    if "\n" in config:
        path = work / f"{case.name}.toml"
        path.write_text(config)
        config = str(path)
    else:
        config = str(CONFIGS / f"{config}.toml")
    if case.trace:
        res = CliRunner().invoke(main, ["trace", config, *case.args])
        if res.exit_code != 0:
            raise RuntimeError(f"{case.name}: unosim trace failed: {res.output}")
        return res.stdout  # stderr may carry a compile notice
    out = work / f"{case.name}.parquet"
    res = CliRunner().invoke(main, ["run", config, *case.args, "--out", str(out), "--quiet"])
    if res.exit_code != 0:
        raise RuntimeError(f"{case.name}: unosim run failed: {res.output}")
    rows = pd.read_parquet(out).sort_values(list(case.sort)).reset_index(drop=True)
    return rows.to_csv(index=False, lineterminator="\n")


def columns(text: str) -> dict[str, list[str]]:
    """A CSV's columns by name, in file order, each as its cells' text."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return {}
    return {name: [r[j] for r in rows[1:]] for j, name in enumerate(rows[0])}


def compare(want: str, got: str) -> tuple[list[str], list[str]]:
    """(problems, new columns) of output ``got`` against golden ``want``, column by column:
    a kept column missing, moved or with a different cell is a problem (its first differing
    row named); a column the golden file lacks is new."""
    w, g = columns(want), columns(got)
    problems = [f"column {c!r} is gone" for c in w if c not in g]
    new = [c for c in g if c not in w]
    kept = [c for c in g if c in w]
    if kept != [c for c in w if c in g]:
        problems.append(f"columns moved: golden order {[c for c in w if c in g]}, now {kept}")
    for c in kept:
        if len(g[c]) != len(w[c]):
            problems.append(f"{len(g[c])} rows, golden {len(w[c])}")
            break
        bad = [i for i, (x, y) in enumerate(zip(w[c], g[c])) if x != y]
        if bad:
            problems.append(f"column {c!r}: {len(bad)} rows differ, first row {bad[0]}: golden {w[c][bad[0]]}, "
                            f"now {g[c][bad[0]]}")
    return problems, new


def add_columns() -> None:
    """Write into each golden CSV the columns the output has and the file lacks, in the
    output's order; every kept column must be unchanged (else: regenerate, and bump).  A
    case without a file yet (a new bundled config) gets its file, and no kept file moves."""
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases():
            if not case.file.exists():
                case.file.write_text(produce(case, Path(tmp)))
                print(f"{case.file.relative_to(GOLDEN.parent.parent)}: new case")
                continue
            if case.trace:
                continue
            want, got = case.file.read_text(), produce(case, Path(tmp))
            problems, new = compare(want, got)
            if problems:
                raise SystemExit(f"{case.name}: kept columns changed, not adding columns: {problems[0]}")
            if new:
                case.file.write_text(got)
                print(f"{case.file.relative_to(GOLDEN.parent.parent)}: added {', '.join(new)}")
    VERSION_FILE.write_text(f"{ENGINE_VERSION}\n")
    print(f"engine version {ENGINE_VERSION}")


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for old in [*GOLDEN.glob("*.csv"), *GOLDEN.glob("*.txt")]:  # the kept rows, not the test beside them
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases():
            case.file.write_text(produce(case, Path(tmp)))
            print(f"wrote {case.file.relative_to(GOLDEN.parent.parent)}")
    VERSION_FILE.write_text(f"{ENGINE_VERSION}\n")
    print(f"engine version {ENGINE_VERSION}")


if __name__ == "__main__":
    sys.exit(add_columns() if sys.argv[1:] == ["--add-columns"] else regenerate())
