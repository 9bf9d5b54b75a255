"""Bundled configs and sweeps (C1) are package data, found by name from any directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from unosim.cli import main
from unosim.rules.bundled import bundled_configs, bundled_sweeps, describe, find_config
from unosim.rules.config import load_config
from unosim.run.sweep import load_sweep

CHECKOUT = Path(__file__).resolve().parents[2] / "configs"


def test_the_package_ships_every_config_and_sweep_of_the_checkout() -> None:
    assert sorted(bundled_configs()) == sorted(p.stem for p in CHECKOUT.glob("*.toml"))
    assert sorted(bundled_sweeps()) == sorted(p.stem for p in (CHECKOUT / "sweeps").glob("*.toml"))


@pytest.mark.parametrize("name", sorted(bundled_configs()))
def test_every_bundled_config_loads_and_has_a_description(name: str) -> None:
    path = bundled_configs()[name]
    assert load_config(path).name
    assert describe(path) and "\n" not in describe(path)


@pytest.mark.parametrize("name", sorted(bundled_sweeps()))
def test_every_bundled_sweep_loads(name: str) -> None:
    assert load_sweep(bundled_sweeps()[name]).points


def test_a_name_finds_the_bundled_file_and_a_path_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_config("standard") == bundled_configs()["standard"]
    assert find_config("standard.toml") == bundled_configs()["standard"]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard.toml").write_text('name = "mine"\n')
    assert find_config("standard.toml") == Path("standard.toml")  # a file that exists is taken as given
    assert find_config("stacking", kind="sweep") == bundled_sweeps()["stacking"]


def test_a_misspelt_name_gets_a_did_you_mean() -> None:
    with pytest.raises(FileNotFoundError, match="did you mean 'standard'"):
        find_config("standrd")
    with pytest.raises(FileNotFoundError, match="no bundled sweep"):
        find_config("nothing_like_it", kind="sweep")


def test_run_a_bundled_name_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["run", "standard", "--hands", "50", "--out", "std", "--quiet"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "std" / "_unosim.json").exists()
    r = CliRunner().invoke(main, ["run", "standrd", "--hands", "50", "--quiet"])
    assert r.exit_code == 2 and "did you mean 'standard'" in r.output


def test_sweeps_resolve_bundled_names_like_the_command_line(tmp_path: Path) -> None:
    """`unosim sweep stacking`, `base = "standard"` and a bundled sweep copied anywhere."""
    import shutil

    assert load_sweep("stacking").name == "stacking"
    copy = tmp_path / "mine.toml"
    shutil.copy(bundled_sweeps()["stacking"], copy)
    assert load_sweep(copy).name == "stacking"  # its base = "standard" still resolves
    (tmp_path / "b.toml").write_text('base = "standrd"\nhands = 10\n[axes]\n"rules.stacking" = ["draw2"]\n')
    from unosim.run.sweep import SweepError

    with pytest.raises(SweepError, match="base: standrd: .*did you mean 'standard'"):
        load_sweep(tmp_path / "b.toml")


def entries(listing: str) -> dict[str, str]:
    """`unosim configs`' entries: a name and its description, wrapped onto indented lines."""
    found: dict[str, str] = {}
    name = None
    for ln in listing.splitlines():
        if ln.startswith("  ") and not ln.startswith("   "):
            name, _, text = ln.strip().partition(" ")
            found.setdefault(name, "")
            found[name] += " " + text.strip()
        elif ln.startswith("   ") and name is not None:
            found[name] += " " + ln.strip()
    return {k: v.strip() for k, v in found.items()}


def test_unosim_configs_lists_every_bundled_file_with_its_description() -> None:
    r = CliRunner().invoke(main, ["configs"])
    assert r.exit_code == 0, r.output
    for name, path in {**bundled_configs(), **bundled_sweeps()}.items():
        assert describe(path) in entries(r.output)[name], name
