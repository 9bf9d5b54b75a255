"""The one output guard of every command that writes.

Each writing command owns its folder through a manifest (``_unosim*.json``) listing its files
with their SHA-256; the rules in full: docs/resume.md, "What a command may overwrite".
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from unosim.kernel.layout import ENGINE_VERSION
from unosim.run.integrity import JOURNAL, hold_lock, part_index, read_json, reject, temporary, write_json_atomic

__all__ = ["OUTPUT_MANIFEST", "GuardError", "Output", "enclosing_output", "folder_kind", "guard_output", "inside",
           "is_sweep", "lock_owners", "not_a_result", "resolve_out"]

OUTPUT_MANIFEST = "_unosim_output.json"
_RUN_MANIFEST = "_unosim.json"
_SWEEP_MANIFEST = "_unosim_sweep.json"
_LEAGUE_MANIFEST = "_unosim_league.json"


class GuardError(Exception):
    """An output folder this command may not write; the message names it and why."""


def resolve_out(path: str | Path) -> Path:
    """``--out`` as the folder it names: user and symlinks expanded, ``.`` and ``..`` gone."""
    return Path(os.path.expanduser(str(path))).resolve()


def inside(root: Path, sub: Path) -> bool:
    """Whether ``sub`` (after following symlinks) lies inside ``root`` (itself excluded)."""
    r, s = root.resolve(), sub.resolve()
    return s != r and s.is_relative_to(r)


def folder_kind(path: Path) -> tuple[str, str] | None:
    """Which unosim command's output ``path`` holds, as (kind, the file that says so), or None."""
    if not path.is_dir():
        return None
    if (path / _SWEEP_MANIFEST).exists():
        return "sweep", _SWEEP_MANIFEST
    if (path / _LEAGUE_MANIFEST).exists():
        return "league", _LEAGUE_MANIFEST
    if (path / OUTPUT_MANIFEST).exists():
        m = read_json(path / OUTPUT_MANIFEST) or {}
        return str(m.get("kind", "unknown")), OUTPUT_MANIFEST
    for name in (_RUN_MANIFEST, JOURNAL):
        if (path / name).exists():
            return "run", name
    try:
        part = next((f.name for f in path.iterdir() if part_index(f) is not None), None)
    except OSError:
        part = None
    return ("run", part) if part else None


def is_sweep(path: Path) -> bool:
    """A sweep dataset: written by `unosim sweep`, or a key=value partitioned directory (schema 1)."""
    if not path.is_dir():
        return False
    if (path / _SWEEP_MANIFEST).exists():
        return True
    return any("=" in part for f in path.rglob("*.parquet") for part in f.relative_to(path).parts[:-1])


def refuse_other_output(root: Path, kind: str, noun: str, error: type[Exception] = GuardError) -> None:
    """The first checks of a command that writes folder ``root`` as ``kind``: ``root`` is no
    file and holds no other unosim command's output; raises ``error`` otherwise."""
    if root.exists() and not root.is_dir():
        raise error(f"--out: {root} exists and is not a directory; choose another path "
                    f"(--force only replaces {noun})")
    found = folder_kind(root)
    if found is not None and found[0] != kind:
        raise error(f"--out: {root} holds the output of `unosim {found[0]}` ({found[1]}); choose another "
                    f"path (--force only replaces {noun})")


_INSTEAD = {
    "league": "its leaderboard is DIR/_leaderboard.csv; draw it with `unosim plot DIR` or `unosim report DIR --html "
              "page.html`",
    "tune": "its tuned bot is DIR/bot.toml (try it with `unosim duel DIR/bot.toml random`)",
    "skill": "give its sweep's dataset to `unosim report` (the skill column is read from here), or draw it with "
             "`unosim plot DIR`",
    "plot": "it holds figures only",
}


def not_a_result(path: Path, also: Sequence[str] = ()) -> str | None:
    """For the readers (report, compare, plot): None when ``path`` may be a result (or the
    output of a command in ``also``), else what it is instead, in words."""
    found = folder_kind(path)
    if found is None or found[0] in ("run", "sweep", *also):
        return None
    hint = _INSTEAD.get(found[0], "not a result").replace("DIR", str(path))
    return f"{path} is the output of `unosim {found[0]}` ({found[1]}), not a run or sweep result; {hint}"


def enclosing_output(path: Path) -> tuple[Path, str, str] | None:
    """The nearest folder above ``path`` (symlinks followed) holding a unosim output that has
    folders of its own, as (folder, kind, the file that says so), or None."""
    for parent in resolve_out(path).parents:
        found = folder_kind(parent)
        if found is not None and found[0] != "plot":
            return parent, *found
    return None


def _owner_of(path: Path) -> tuple[Path, str] | None:
    """The nearest folder above ``path`` holding a sweep or a league (whose lock its
    writer holds), or None."""
    for parent in path.parents:
        for name in (_SWEEP_MANIFEST, _LEAGUE_MANIFEST):
            if (parent / name).exists():
                return parent, name
    return None


def lock_owners(stack: ExitStack, path: Path, option: str = "--out") -> None:
    """Hold the lock of the sweep or league folder that ``path`` is a point or table of,
    so that a plain run into it is refused while the sweep or league writes."""
    owner = _owner_of(path.resolve())
    if owner is not None:
        stack.enter_context(hold_lock(owner[0], option, create=False, what=f"the {owner[1]} there"))


def _digest(path: Path) -> str | None:
    """The SHA-256 of the file at ``path`` (None: no regular file there)."""
    if path.is_symlink() or not path.is_file():
        return None
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Output:
    """A guarded output folder of named files (see :func:`guard_output`)."""

    def __init__(self, root: Path, kind: str, identity: dict[str, Any], files: list[str],
                 sha256: dict[str, str] | None = None) -> None:
        self.root = root
        self.kind = kind
        self.identity = identity
        self.files = files
        self.sha256 = dict(sha256 or {})
        self.notes: list[str] = []  # what the guard did that the command should say (a file set aside)

    def _save(self) -> None:
        write_json_atomic(self.root / OUTPUT_MANIFEST, {"kind": self.kind, "engine_version": ENGINE_VERSION,
                                                        "identity": self.identity, "files": sorted(self.files),
                                                        "sha256": dict(sorted(self.sha256.items()))})

    def path(self, name: str) -> Path:
        """Claim ``name`` (relative to the folder) for a writer of this command's own; its digest
        is recorded when the command ends."""
        if name not in self.files or name in self.sha256:
            if name not in self.files:
                self.files.append(name)
            self.sha256.pop(name, None)  # being written: its digest is taken when the command ends (_close)
            self._save()
        return self.root / name

    def _close(self) -> None:
        """The command is over: drop claimed names with no file and record every claimed file."""
        kept: dict[str, str] = {}
        for f in self.files:
            path = self.root / f
            d = self.sha256.get(f) if path.is_file() and not path.is_symlink() else None
            d = d or _digest(path)
            if d is not None:
                kept[f] = d
        self.files, self.sha256 = list(kept), kept
        self._save()

    def rename(self, name: str, new: str) -> None:
        """Move this command's file ``name`` to ``new`` (not there), its digest kept."""
        if (self.root / name).is_file() and not (self.root / new).exists():
            (self.root / new).parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.root / name, self.root / new)
            self.files = [new if f == name else f for f in self.files]
            if name in self.sha256:
                self.sha256[new] = self.sha256.pop(name)
            self._save()

    def write(self, name: str, fn: Callable[[Path], Any]) -> Path:
        """Write ``name`` atomically: ``fn(temporary path)`` writes it (the temporary name
        keeps the suffix, for writers that choose their format by it), then it is renamed."""
        final = self.root / name
        final.parent.mkdir(parents=True, exist_ok=True)
        with temporary(final.with_name(f".unosim-{uuid.uuid4().hex[:12]}.{final.name}")) as tmp:
            fn(tmp)
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            digest = _digest(tmp)
            if digest is None:
                raise OSError(f"{tmp}: not a regular file after writing")
            if name not in self.files:
                self.files.append(name)
            self.sha256[name] = digest  # claimed and recorded with its content before it takes the name
            self._save()
            os.replace(tmp, final)
        return final

    def write_text(self, name: str, text: str) -> Path:
        return self.write(name, lambda p: p.write_text(text, encoding="utf-8"))


def _extended(old: Any, new: dict[str, Any], extends: Sequence[str]) -> dict[str, Any] | None:
    """``new`` with any key of ``extends`` it lacks taken from ``old``; None when the two
    identities differ in anything else."""
    if not isinstance(old, dict):
        return None
    merged = dict(new)
    for k in extends:
        if merged.get(k) is None and old.get(k) is not None:
            merged[k] = old[k]
    unset = {k for k in extends if old.get(k) is None}  # what the kept output lacks, the new one may add
    same = ({k: v for k, v in old.items() if k not in unset} == {k: v for k, v in merged.items() if k not in unset})
    return merged if same else None


def _ours(root: Path, name: str, manifest: dict[str, Any]) -> bool:
    """Whether listed file ``name`` still has the digest the manifest holds (a manifest
    holding no digests at all is taken at its word)."""
    digests = manifest.get("sha256")
    f = root / name
    if not isinstance(digests, dict) or not (f.exists() or f.is_symlink()):
        return True
    return name in digests and digests[name] == _digest(f)


def _diff(old: Any, new: dict[str, Any]) -> str:
    if not isinstance(old, dict):
        return "its settings"
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return ", ".join(f"{k} {json.dumps(old.get(k))} -> {json.dumps(new.get(k))}" for k in keys[:4]) or "its settings"


@contextmanager
def guard_output(out: str | Path, kind: str, identity: dict[str, Any], *, force: bool = False,
                 names: Sequence[str] = (), option: str = "--out", extends: Sequence[str] = ()) -> Iterator[Output]:
    """Own the folder ``out`` for the ``with`` block as command ``kind`` with these settings;
    ``names``: the files it may write; ``extends``: keys of ``identity`` a kept output may lack
    or gain.  Raises :class:`GuardError` (one line) when the folder may not be written."""
    root = resolve_out(out)
    shown = Path(out)
    where = f"{shown}" if str(shown) == str(root) else f"{shown} (= {root})"
    if root.exists() and not root.is_dir():
        raise GuardError(f"{option}: {where} exists and is not a directory; choose another path")
    with ExitStack() as stack:
        try:
            root.mkdir(parents=True, exist_ok=True)  # here, so a refusal says why (hold_lock's does not)
            stack.enter_context(hold_lock(root, option))
        except OSError as e:
            raise GuardError(f"{option}: cannot create {where}: {e.strerror or e}") from None
        found = folder_kind(root)
        if found is not None and found[0] != kind:
            raise GuardError(f"{option}: {where} holds the output of `unosim {found[0]}` ({found[1]}); "
                             f"`unosim {kind}` writes its own folder: choose another path")
        old = read_json(root / OUTPUT_MANIFEST) if found else None
        named = [f for f in (old or {}).get("files", []) if isinstance(f, str) and inside(root, root / f)]
        listed = [f for f in named if _ours(root, f, old)]
        changed = [f for f in named if f not in listed]
        recorded = (old or {}).get("sha256")
        recorded = recorded if isinstance(recorded, dict) else {}
        if old is not None and not any((root / f).exists() for f in listed):
            old, listed = None, []  # nothing of its output left: nothing to keep or to replace
        kept = _extended(old.get("identity"), identity, extends) if old is not None else None
        if kept is not None and old.get("engine_version") == ENGINE_VERSION:
            identity = kept
        elif old is not None:
            if not force:
                raise GuardError(f"{option}: {where} holds `unosim {kind}` output of other settings (differs in: "
                                 f"{_diff(old.get('identity'), identity)}); use --force to replace it or choose "
                                 "another path")
            for name in listed:
                f = root / name
                if (f.is_file() and not f.is_symlink() and inside(root, f)):
                    f.unlink()
            listed = []
        notes = [reject(root, root / f, f"changed since `unosim {kind}` wrote it (damaged, or edited)"
                        if f in recorded else
                        f"not recorded by `unosim {kind}` (it was stopped while writing it, or the file is a user's)")
                 for f in changed]
        clash = [n for n in names if n not in listed and ((root / n).exists() or (root / n).is_symlink())]
        if clash:
            raise GuardError(f"{option}: {root / clash[0]} exists and was not written by `unosim {kind}` here; "
                             "move it or choose another path (unosim never overwrites a file it did not write)")
        digests = (old or {}).get("sha256")
        digests = {k: v for k, v in digests.items() if k in listed} if isinstance(digests, dict) else None
        try:
            g = Output(root, kind, identity, listed, digests)
            g.notes = notes
            g._save()
        except OSError as e:
            raise GuardError(f"{option}: cannot write to {where}: {e.strerror or e}") from None
        try:
            yield g
        finally:
            try:
                g._close()
            except OSError:
                pass  # the manifest keeps the claims: a later run judges the files by their digests
