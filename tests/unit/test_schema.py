"""The file-metadata schema (docs/rules.md O1): one writer, one typed reader, same bytes.

The expected bytes are spelled out here key by key, independently of
``unosim.run.schema``, so a renamed key or a changed value format fails a test rather
than silently changing every result file.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from unosim import __version__
from unosim.kernel.layout import ENGINE_VERSION
from unosim.rules.config import RulesConfig
from unosim.run import schema
from unosim.run.schema import RunInfo, read_metadata, run_metadata

PACKAGE = Path(schema.__file__).resolve().parent.parent


def _write(path: Path, meta: dict[bytes, bytes], columns: tuple[str, ...] = ("hand",)) -> Path:
    table = pa.table({c: pa.array(np.zeros(3, np.int32)) for c in columns}).replace_schema_metadata(meta)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return path


def test_o1_run_metadata_bytes(standard: RulesConfig) -> None:
    """The required keys, in file order, with ``str(value)`` in UTF-8 (lists as JSON)."""
    meta = run_metadata(standard, 12, "hands")
    seats = [s for s, _ in standard.seats]
    assert meta == {
        b"unosim.version": __version__.encode(),
        b"unosim.engine_version": str(ENGINE_VERSION).encode(),
        b"unosim.config": standard.to_toml().encode(),
        b"unosim.config_name": standard.name.encode(),
        b"unosim.seed": b"12",
        b"unosim.players": b"4",
        b"unosim.teams": b"1",
        b"unosim.match_target": b"500",
        b"unosim.bots": json.dumps(seats).encode(),
        b"unosim.bot_params": json.dumps([{"bluff_rate": 0.0, "challenge_rate": 0.0, "multi_rate": 0.0}] * len(seats)).encode(),
        b"unosim.mode": b"hands",
        b"unosim.finish": b"first_out",
    }
    assert list(meta) == [k.encode() for k in schema.REQUIRED_KEYS]


def test_o1_typed_reader_round_trip(standard: RulesConfig, tmp_path: Path) -> None:
    extra = {
        schema.MAX_HANDS: 300, schema.HAND_STRIDE: 1 << 20,
        schema.SWEEP: "stacking", schema.SWEEP_MODE: "grid",
        schema.SWEEP_KEYS: json.dumps(["stacking", "players"]),
        schema.SWEEP_STRATA: json.dumps(["players"]),
        schema.SWEEP_BASE: json.dumps({"stacking": "none", "players": "4"}),
        schema.SWEEP_POINT: "stacking=all,players=4",
        schema.ROTATE_SEATS: "true", schema.ROTATIONS: 4,
        schema.BOT_LABELS: json.dumps(["random", "greedy"]),
    }  # fmt: skip
    path = _write(tmp_path / "r" / "part-000000.parquet", run_metadata(standard, 7, "matches", extra))
    info = RunInfo.read(tmp_path / "r")
    assert (info.config_name, info.players, info.teams, info.mode, info.finish) == (
        standard.name, 4, 1, "matches", "first_out")
    assert (info.seed, info.match_target, info.max_hands, info.hand_stride) == (7, 500, 300, 1 << 20)
    assert info.bots == ("random",) * 4 and info.bot_params == ({"bluff_rate": 0.0, "challenge_rate": 0.0, "multi_rate": 0.0},) * 4
    assert info.version == __version__ and info.engine_version == str(ENGINE_VERSION)
    assert info.config_text == standard.to_toml()
    assert (info.sweep, info.sweep_mode, info.sweep_point) == ("stacking", "grid", "stacking=all,players=4")
    assert info.sweep_keys == ("stacking", "players") and info.sweep_strata == ("players",)
    assert info.sweep_base == {"stacking": "none", "players": "4"}
    assert info.rotate_seats and info.rotations == 4 and info.bot_labels == ("random", "greedy")
    # the raw strings stay available, prefix stripped; read_metadata keeps the full keys
    assert info.raw["seed"] == "7" and info.summary()["seed"] == "7"
    raw = read_metadata(path)
    assert raw == read_metadata(tmp_path / "r") and raw["unosim.max_hands"] == "300"
    assert set(raw) == set(schema.REQUIRED_KEYS) | set(extra)


def test_o1_reader_fallbacks_for_hand_made_files(tmp_path: Path) -> None:
    """No or malformed metadata: players from ``points_<s>``, mode from ``match``,
    one bot name for every seat; a malformed value reads as absent."""
    meta = {b"unosim.bots": b'["greedy"]', b"unosim.seed": b"x", b"unosim.sweep_base": b"[1",
            b"pandas": b"{}"}  # fmt: skip
    path = _write(tmp_path / "h.parquet", meta, ("match", "points_0", "points_1", "points_2"))
    info = RunInfo.read(path)
    assert (info.players, info.teams, info.mode, info.finish) == (3, 1, "matches", "first_out")
    assert info.bots == ("greedy",) * 3 and info.seed is None and info.sweep_base is None
    assert info.match_target is None and not info.rotate_seats and "pandas" not in info.raw


def test_read_metadata_of_a_directory_without_parts(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no result files"):
        read_metadata(tmp_path)


def test_every_written_key_is_in_the_schema() -> None:
    """Writers outside schema.py (matches, sweeps, rotated seats) use declared keys only."""
    declared = set(schema.REQUIRED_KEYS) | set(schema.OPTIONAL_KEYS)
    written = set()
    for path in (PACKAGE / "run").glob("*.py"):
        written |= set(re.findall(r'"(unosim\.[a-z_]+)"\s*:', path.read_text()))
    assert written and written <= declared, sorted(written - declared)


def test_analysis_imports_point_down() -> None:
    """unosim.analysis reads results: it may import rules, kernel, run and the TOML reader
    (compat), never the CLI, the engine or the bots."""
    for path in (PACKAGE / "analysis").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("unosim"):
                top = node.module.split(".")[1] if "." in node.module else ""
                assert top in ("rules", "kernel", "run", "analysis", "compat"), f"{path.name}: {node.module}"
