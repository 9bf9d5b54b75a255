"""Every result kind opens anywhere: pandas, pyarrow.dataset, DuckDB and polars read it whole,
with the same rows and columns, and ``unosim.load`` returns the same (docs/data.md)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

import unosim
from cli_checks import invoke
from unosim.run.columns import kind_schema
from unosim.studies.skill_columns import skill_schema

SWEEP = """
name = "mixed"
base = "standard"
hands = 200
seed = 3
chunk_size = 100
[axes]
"rules.stacking" = ["draw2"]
"rules.first_player" = ["highest_points"]
"rules.noise_chance" = [0.5]
[strata]
"table.players" = [2, 4, 7]
"""
# the sort keys that make a row unique, in the order the readers may list rows
KEYS = ("point", "league_table", "league_order", "hand", "rotation")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small result of every kind."""
    root = tmp_path_factory.mktemp("kinds")
    runs = {
        "hands": ("--hands", 300, "--chunk-size", 100),
        "rotated hands": ("--hands", 100, "--chunk-size", 50, "--rotate-seats"),
        "matches": ("--matches", 6, "--chunk-size", 3),
        "rotated matches": ("--matches", 4, "--chunk-size", 2, "--rotate-seats"),
        "tournaments": ("--tournaments", 4, "--chunk-size", 2),
        "rotated tournaments": ("--tournaments", 2, "--chunk-size", 1, "--rotate-seats"),
    }
    out = {}
    for kind, args in runs.items():
        out[kind] = root / kind.replace(" ", "_")
        r = invoke("run", "standard", *args, "--out", out[kind], "--quiet")
        assert r.exit_code == 0, r.output
    (root / "mixed.toml").write_text(SWEEP)
    out["sweep"] = root / "sweep"
    r = invoke("sweep", root / "mixed.toml", "--out", out["sweep"], "--quiet")
    assert r.exit_code == 0, r.output
    (root / "matches.toml").write_text('matches = 4\nchunk_size = 2\nmax_hands = 200\n[set]\nmatch_target = 100\n'
                                       '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2, 5]\n')
    out["sweep of matches"] = root / "sweep_matches"
    r = invoke("sweep", root / "matches.toml", "--out", out["sweep of matches"], "--quiet")
    assert r.exit_code == 0, r.output
    out["league"] = root / "league"
    r = invoke("league", "standard", "--bots", "counter,random,greedy", "--players", 2, "--deals", 30, "--quiet",
               "--out", out["league"])
    assert r.exit_code == 0, r.output
    return out


def _frame(table: pa.Table) -> pd.DataFrame:
    """A reader's rows as comparable pandas: text as text, rows in key order."""
    df = table.to_pandas()
    for c in df.columns:
        if isinstance(df[c].dtype, pd.CategoricalDtype) or df[c].dtype == object:
            df[c] = df[c].astype(str)
    df = df[sorted(df.columns)]
    return df.sort_values([k for k in KEYS if k in df.columns]).reset_index(drop=True)


def _readers(path: Path) -> dict[str, pd.DataFrame]:
    glob = f"{path}/**/*.parquet"
    return {"duckdb": _frame(duckdb.sql(f"select * from '{glob}'").to_arrow_table()),
            "polars": _frame(pl.scan_parquet(glob).collect().to_arrow()),
            "pandas": _frame(pa.Table.from_pandas(pd.read_parquet(path), preserve_index=False)),
            "pyarrow": _frame(pads.dataset(path).to_table())}


KINDS = ("hands", "rotated hands", "matches", "rotated matches", "tournaments", "rotated tournaments", "sweep",
         "sweep of matches", "league")


@pytest.mark.parametrize("kind", KINDS)
def test_four_readers_read_every_kind_whole(results: dict[str, Path], kind: str) -> None:
    path = results[kind]
    frames = _readers(path)
    rows = sum(pq.read_metadata(f).num_rows for f in path.glob("**/part-*.parquet"))
    mine = _frame(pa.Table.from_pandas(unosim.load(path), preserve_index=False))
    assert len(mine) == rows > 0
    for name, df in frames.items():
        assert list(df.columns) == list(mine.columns), name
        pd.testing.assert_frame_equal(df, mine, check_dtype=False, obj=name)


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "sweep of matches"])
def test_every_part_has_the_documented_schema(results: dict[str, Path], kind: str) -> None:
    """The parts' columns and types are docs/data.md's (unosim.run.columns.kind_schema)."""
    players = 7 if kind == "sweep" else 2 if kind == "league" else 4
    want = kind_schema(kind, players)
    for f in results[kind].glob("**/part-*.parquet"):
        got = pq.read_schema(f)
        if kind == "sweep":  # its own keys after point
            got = pa.schema([x for x in got if not x.name.startswith("rules_")])
            want = pa.schema([x for x in want if not x.name.startswith("rules_")])
        assert got.remove_metadata() == want.remove_metadata(), f
        assert (got.metadata or pq.read_schema(f).metadata)[b"unosim.schema_version"] == b"2"


def test_a_league_folder_is_its_rows_with_the_leaderboard_beside_them(results: dict[str, Path]) -> None:
    """The leaderboard's files start with ``_``: every reader of the folder reads the rows
    only, and the command says where the leaderboard is."""
    path = results["league"]
    mine = unosim.load(path)
    assert len(mine) == 3 * 30 * 2 and {"league_table", "league_order", "bot_0", "bot_1"} <= set(mine.columns)
    assert [p.name for p in sorted(path.iterdir()) if p.is_dir()] == [f"table-{k:04d}-order-0000" for k in range(3)]
    assert sorted(p.name for p in path.iterdir() if p.is_file()) == ["_leaderboard.csv", "_leaderboard.png",
                                                                    "_unosim_league.json"]
    board = pd.read_csv(path / "_leaderboard.csv")
    assert sorted(board["bot"]) == ["counter", "greedy", "random"]
    r = invoke("league", "standard", "--bots", "counter,random,greedy", "--players", 2, "--deals", 30, "--quiet",
               "--out", path)  # the finished league, said again
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith(f"the leaderboard: {path / '_leaderboard.csv'}, "
                                              f"{path / '_leaderboard.png'}"), r.output


def test_a_league_of_the_old_layout_still_reads_and_draws(results: dict[str, Path], tmp_path: Path) -> None:
    """A league written with ``leaderboard.csv`` and ``.png`` in its folder: unosim.load,
    ``unosim plot`` and ``report --html`` read it; --force removes its old files too."""
    import shutil

    old = tmp_path / "league"
    shutil.copytree(results["league"], old)
    for name in ("_leaderboard.csv", "_leaderboard.png"):
        (old / name).rename(old / name[1:])
    pd.testing.assert_frame_equal(unosim.load(old), unosim.load(results["league"]))
    r = invoke("plot", old, "--out", tmp_path / "figs")
    assert r.exit_code == 0 and (tmp_path / "figs" / "league_league.png").exists(), r.output
    r = invoke("report", old, "--html", tmp_path / "page.html")
    assert r.exit_code == 0 and "counter" in (tmp_path / "page.html").read_text(), r.output
    r = invoke("league", "standard", "--bots", "counter,random", "--players", 2, "--deals", 10, "--quiet",
               "--out", old, "--force")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in old.iterdir() if p.is_file()) == ["_leaderboard.csv", "_leaderboard.png",
                                                                   "_unosim_league.json"]


SKILL_SWEEP = ('name = "sk"\nbase = "standard"\nmode = "one_at_a_time"\nhands = 100\nseed = 0\n'
               '[axes]\n"rules.stacking" = ["draw2"]\n[strata]\n"table.players" = [2]\n')
SKILL_ARGS = ("--budget", 12, "--deals", 30, "--check-deals", 200, "--replicates", 2, "--quiet")


@pytest.fixture(scope="module")
def skill_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small `unosim skill` folder: two points, two tuned replicates each."""
    root = tmp_path_factory.mktemp("skill")
    (root / "sk.toml").write_text(SKILL_SWEEP)
    r = invoke("skill", root / "sk.toml", "--out", root / "sk.skill", *SKILL_ARGS)
    assert r.exit_code == 0, r.output
    return root / "sk.skill"


def test_a_skill_folder_reads_as_its_skill_table_in_the_four_readers(skill_run: Path) -> None:
    """skill.parquet is the folder's one table; the replicates, the figure and each point's
    bot and search history sit beside it under ``_`` names that no reader takes for rows."""
    path = skill_run
    table = pd.read_parquet(path / "skill.parquet")
    assert len(table) == 2 and pq.read_schema(path / "skill.parquet").remove_metadata() == skill_schema(ceiling=False)
    mine = unosim.load(path)
    pd.testing.assert_frame_equal(mine, table)
    want = _frame(pa.Table.from_pandas(mine, preserve_index=False))
    for name, df in _readers(path).items():
        pd.testing.assert_frame_equal(df, want, check_dtype=False, obj=name)
    assert sorted(p.name for p in path.iterdir()) == ["_points", "_skill.png", "_skill_replicates.pq",
                                                      "_unosim_output.json", "skill.parquet"]
    assert sorted(p.relative_to(path / "_points").as_posix() for p in (path / "_points").rglob("*.*")) == [
        f"point-{i:04d}/replicate={r}/{f}" for i in range(2) for r in range(2) for f in ("bot.toml", "history.pq")]
    raw = unosim.load(path, table="replicates")
    assert len(raw) == 4 and sorted(set(raw["replicate"])) == [0, 1]
    pd.testing.assert_frame_equal(raw, pd.read_parquet(path / "_skill_replicates.pq"))
    pd.testing.assert_frame_equal(unosim.load(path, table="skill", columns=["label"]), table[["label"]])
    history = pd.read_parquet(path / "_points" / "point-0001" / "replicate=1" / "history.pq")
    assert len(history) > 0
    with pytest.raises(FileNotFoundError, match="no ceiling table.*--ceiling"):
        unosim.load(path, table="ceiling")
    with pytest.raises(ValueError, match="^table: 'nope' is not a table of .*skill, replicates, ceiling"):
        unosim.load(path, table="nope")


def test_only_a_skill_folder_has_other_tables(results: dict[str, Path]) -> None:
    with pytest.raises(ValueError, match="^table: 'replicates' is not a table of .*only a skill folder"):
        unosim.load(results["hands"], table="replicates")


OLD_SKILL = {"_skill_replicates.pq": "skill_replicates.parquet", "_skill.png": "skill.png", "_points": "points",
             "history.pq": "history.parquet"}


def _as_old_skill_folder(new: Path, old: Path) -> None:
    """A copy of skill folder ``new`` as unosim wrote one before: its tables and bots under
    plain names beside skill.parquet, the manifest listing those."""
    import shutil

    shutil.copytree(new, old)
    for f in sorted(old.rglob("*"), key=lambda f: -len(f.parts)):
        if f.name in OLD_SKILL:
            f.rename(f.with_name(OLD_SKILL[f.name]))
    manifest = json.loads((old / "_unosim_output.json").read_text())

    def rename(name: str) -> str:
        return "/".join(OLD_SKILL.get(x, x) for x in name.split("/"))

    manifest["files"] = [rename(f) for f in manifest["files"]]
    manifest["sha256"] = {rename(k): v for k, v in manifest["sha256"].items()}
    (old / "_unosim_output.json").write_text(json.dumps(manifest))


def test_a_skill_folder_of_the_old_layout_reads_and_is_resumed_in_the_new(skill_run: Path, tmp_path: Path) -> None:
    old = tmp_path / "sk.skill"
    _as_old_skill_folder(skill_run, old)
    assert (old / "points" / "point-0000" / "replicate=0" / "history.parquet").is_file()
    pd.testing.assert_frame_equal(unosim.load(old), unosim.load(skill_run))
    pd.testing.assert_frame_equal(unosim.load(old, table="replicates"), unosim.load(skill_run, table="replicates"))
    assert invoke("plot", old, "--out", tmp_path / "figs").exit_code == 0
    (tmp_path / "sk.toml").write_text(SKILL_SWEEP)
    r = invoke("skill", tmp_path / "sk.toml", "--out", old, *SKILL_ARGS)  # every point kept, nothing tuned again
    assert r.exit_code == 0, r.output
    pd.testing.assert_frame_equal(unosim.load(old).drop(columns="seconds"), unosim.load(skill_run).drop(columns="seconds"))
    assert sorted(p.name for p in old.iterdir()) == sorted(p.name for p in skill_run.iterdir())
    assert sorted(p.relative_to(old).as_posix() for p in old.rglob("*")) == \
        sorted(p.relative_to(skill_run).as_posix() for p in skill_run.rglob("*"))
    manifest = json.loads((old / "_unosim_output.json").read_text())
    assert manifest["files"] == json.loads((skill_run / "_unosim_output.json").read_text())["files"]
    for name, df in _readers(old).items():
        assert len(df) == 2, name


def test_a_sweep_has_one_level_settings_as_columns_and_a_points_table(results: dict[str, Path]) -> None:
    path = results["sweep"]
    df = unosim.load(path)
    points = unosim.load_points(path)
    assert sorted(p.name for p in path.iterdir() if p.is_dir()) == [f"point-{i:04d}" for i in range(len(points))]
    assert list(points.columns) == ["point", "folder", "label", "rules_stacking", "rules_first_player",
                                    "rules_noise_chance", "table_players", "players", "bots"]
    assert len(points) == 4 * 3 and set(points["table_players"]) == {2, 4, 7}
    assert (points["players"] == points["table_players"]).all()
    assert points["bots"].str.startswith("random").all()
    # first_player is a hand column and a varied key: both are there, apart
    assert {"first_player", "rules_first_player", "point", "table_players"} <= set(df.columns)
    assert isinstance(df["rules_stacking"].dtype, pd.CategoricalDtype)
    # seats past a point's table are null; its own are not
    two = df[df["table_players"] == 2]
    assert two["points_6"].isna().all() and two["points_1"].notna().all()
    assert df[df["table_players"] == 7]["points_6"].notna().all()
    assert len(df) == 12 * 200
    # every row's settings are its point's
    merged = df[["point", "rules_stacking", "table_players"]].drop_duplicates().merge(points, on="point")
    assert (merged["rules_stacking_x"].astype(str) == merged["rules_stacking_y"].astype(str)).all()
    assert (merged["table_players_x"] == merged["table_players_y"]).all()


@pytest.mark.slow
def test_a_sweep_read_back_equals_its_points_run_one_by_one(results: dict[str, Path], tmp_path: Path) -> None:
    path = results["sweep"]
    points = unosim.load_points(path)
    for row in points.itertuples():
        meta = pq.read_schema(next((path / row.folder).glob("part-*.parquet"))).metadata
        config = tmp_path / f"p{row.point}.toml"
        config.write_text(meta[b"unosim.config"].decode())
        out = tmp_path / f"p{row.point}"
        r = invoke("run", config, "--hands", 200, "--seed", 3, "--chunk-size", 100, "--out", out, "--quiet")
        assert r.exit_code == 0, r.output
        alone = unosim.load(out)
        mine = unosim.load(path, columns=list(alone.columns), filters=[("point", "==", row.point)])
        pd.testing.assert_frame_equal(mine.reset_index(drop=True), alone, check_dtype=False)


def test_load_pushes_columns_and_filters_down_and_names_what_is_wrong(results: dict[str, Path]) -> None:
    path = results["sweep"]
    df = unosim.load(path, columns=["turns", "table_players"], filters=[("table_players", "==", 4)])
    assert list(df.columns) == ["turns", "table_players"] and len(df) == 4 * 200 and (df["table_players"] == 4).all()
    expr = pads.field("rules_stacking") == "draw2"
    assert len(unosim.load(path, columns=["hand"], filters=expr)) == 3 * 200
    with pytest.raises(KeyError, match="no column 'turnz'.*turns"):
        unosim.load(path, columns=["turnz"])
    with pytest.raises(ValueError, match="filters"):
        unosim.load(path, filters=[("turns",)])
    with pytest.raises(ValueError, match="^filters: .*nope.*the result's columns: hand"):
        unosim.load(path, filters=[("nope", "==", 1)])
    with pytest.raises(ValueError, match="^filters: "):
        unosim.load(path, filters=[("rules_stacking", ">", 3)])
    with pytest.raises(FileNotFoundError, match="no such result"):
        unosim.load(path / "nothing")


def _copy(src: Path, dest: Path) -> Path:
    dest.mkdir()
    for f in src.iterdir():
        dest.joinpath(f.name).write_bytes(f.read_bytes())
    return dest


def _flip(part: Path, column: str | None = None) -> None:
    """Flip one bit: in the middle of ``column``'s pages, else of the file."""
    data = bytearray(part.read_bytes())
    at = len(data) // 2
    if column is not None:
        md = pq.read_metadata(part).row_group(0)
        chunk = next(md.column(i) for i in range(md.num_columns) if md.column(i).path_in_schema == column)
        start = chunk.dictionary_page_offset or chunk.data_page_offset
        at = start + chunk.total_compressed_size // 2
    data[at] ^= 0x04
    part.write_bytes(bytes(data))


def test_load_names_a_damaged_part_and_returns_nothing(results: dict[str, Path], tmp_path: Path) -> None:
    """Every page read is checked against its CRC: a flipped bit in what is asked for is an
    error naming the part; a flip in a column not asked for leaves what is returned whole."""
    copy = _copy(results["hands"], tmp_path / "hands")
    good = unosim.load(results["hands"])
    _flip(copy / "part-000001.parquet", "turns")
    with pytest.raises(ValueError, match="part-000001.parquet"):
        unosim.load(copy, columns=["turns"])
    with pytest.raises(ValueError, match="part-000001.parquet"):
        unosim.load(copy)
    pd.testing.assert_frame_equal(unosim.load(copy, columns=["winner"]), good[["winner"]])
    # with a filter (pruned by footer statistics) every part is hashed whole
    with pytest.raises(ValueError, match="part-000001.parquet"):
        unosim.load(copy, columns=["winner"], filters=[("winner", ">=", 0)])
    # a sweep point's part, read whole
    other = _copy(results["sweep"] / "point-0004", tmp_path / "point")
    _flip(other / "part-000000.parquet", "cards_drawn")
    with pytest.raises(ValueError, match="part-000000.parquet"):
        unosim.load(other)


def test_a_result_with_a_rejected_part_reads_the_same_in_the_four_readers(results: dict[str, Path],
                                                                         tmp_path: Path) -> None:
    """A resume sets a stray part aside in _rejected/ under a name no reader takes for rows
    (``*.parquet.rejected``): the four readers and unosim.load read the result as before."""
    copy = _copy(results["hands"], tmp_path / "hands")
    (copy / "part-000099.parquet").write_bytes((copy / "part-000001.parquet").read_bytes())
    r = invoke("run", "standard", "--hands", 300, "--chunk-size", 100, "--out", copy, "--quiet")
    assert r.exit_code == 0 and "moved to _rejected/part-000099.parquet.rejected" in r.output, r.output
    assert [f.name for f in (copy / "_rejected").iterdir() if f.name != "why.txt"] == ["part-000099.parquet.rejected"]
    want = _frame(pa.Table.from_pandas(unosim.load(results["hands"]), preserve_index=False))
    pd.testing.assert_frame_equal(_frame(pa.Table.from_pandas(unosim.load(copy), preserve_index=False)), want)
    for name, df in _readers(copy).items():
        pd.testing.assert_frame_equal(df, want, check_dtype=False, obj=name)


def test_a_part_without_page_crcs_is_hashed_whole(results: dict[str, Path], tmp_path: Path) -> None:
    """A result resumed across versions mixes parts with and without page CRCs: those
    without are checked against their journal CRC, so damage in them is still named."""
    from dataclasses import replace

    from unosim.run.integrity import file_crc, read_records, write_records

    copy = _copy(results["hands"], tmp_path / "hands")
    part = copy / "part-000001.parquet"
    t = pq.read_table(part)
    meta = {k: v for k, v in t.schema.metadata.items() if k != b"unosim.schema_version"}
    pq.write_table(t.replace_schema_metadata(meta), part, compression="lz4")  # as schema 1 wrote it
    records = read_records(copy)
    crc, size = file_crc(part)
    write_records(copy, {**records, 1: replace(records[1], crc32=crc, size=size)})
    pd.testing.assert_frame_equal(unosim.load(copy, columns=["turns"]), unosim.load(results["hands"], columns=["turns"]))
    _flip(part, "turns")
    with pytest.raises(ValueError, match="part-000001.parquet"):
        unosim.load(copy, columns=["turns"])


def test_a_sweep_of_the_old_layout_still_loads(results: dict[str, Path], tmp_path: Path) -> None:
    """Schema 1: one key=value folder per key, each point with its own seats only."""
    new = results["sweep"]
    old = tmp_path / "old"
    points = unosim.load_points(new)
    for row in points.itertuples():
        leaf = old / f"stacking={row.rules_stacking}" / f"first_player={row.rules_first_player}" / \
            f"noise_chance={row.rules_noise_chance}" / f"players={row.table_players}"
        leaf.mkdir(parents=True)
        for f in (new / row.folder).glob("part-*.parquet"):
            t = pq.read_table(f)
            keep = [c for c in t.column_names if t.column(c).null_count < len(t) and c != "point"
                    and not c.startswith(("rules_", "table_"))]
            meta = {k: v for k, v in t.schema.metadata.items() if k not in (b"unosim.schema_version",
                                                                             b"unosim.sweep_values")}
            pq.write_table(t.select(keep).replace_schema_metadata(meta), leaf / f.name)
    with pytest.warns(UserWarning, match="unverified"):  # no journal in these hand-made folders
        df = unosim.load(old)
    assert len(df) == len(points) * 200
    assert {"point", "rules_stacking", "rules_first_player", "table_players", "first_player"} <= set(df.columns)
    assert df[df["table_players"] == 2]["points_6"].isna().all()
    again = unosim.load_points(old)
    assert sorted(again["label"]) == sorted(points["label"])
    assert set(again["table_players"]) == {2, 4, 7}
    r = invoke("report", old)  # the balance report reads the old folders too
    assert r.exit_code == 0 and "balance" in r.output and "stacking=draw2" in r.output, r.output


def test_a_sweep_of_the_old_layout_is_not_resumed_in_the_new(results: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "sw"
    (tmp_path / "mixed.toml").write_text(SWEEP.replace("hands = 200", "hands = 20"))
    assert invoke("sweep", tmp_path / "mixed.toml", "--out", out, "--quiet").exit_code == 0
    manifest = json.loads((out / "_unosim_sweep.json").read_text())
    del manifest["layout"]
    (out / "_unosim_sweep.json").write_text(json.dumps(manifest))
    r = invoke("sweep", tmp_path / "mixed.toml", "--out", out, "--quiet")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1].startswith(f"Error: --out: {out} holds a sweep of an earlier unosim"), r.output
    assert invoke("sweep", tmp_path / "mixed.toml", "--out", out, "--quiet", "--force").exit_code == 0


def test_importing_unosim_loads_no_reader() -> None:
    import subprocess
    import sys

    code = "import sys, unosim; print(json.dumps(sorted(m for m in sys.modules if m.startswith(('pandas', 'pyarrow', 'unosim.')))))"
    out = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "configs" / "sweeps").glob("*.toml")))
def test_no_path_under_a_bundled_sweep_is_longer_than_120_characters(name: str, tmp_path: Path) -> None:
    out = tmp_path / name
    r = invoke("sweep", name, "--hands", 20, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    paths = [p.relative_to(out).as_posix() for p in out.rglob("*")]
    assert any(p.endswith("part-000000.parquet") for p in paths)
    longest = max(paths, key=len)
    assert len(longest) <= 120, longest
    # and the four readers see every point
    points = unosim.load_points(out)
    assert duckdb.sql(f"select count(distinct point) from '{out}/**/*.parquet'").fetchall()[0][0] == len(points)
