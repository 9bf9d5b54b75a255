"""`unosim repair DIR`: rebuild a result's lost or damaged manifest from its own parts.

One readable part's metadata rebuilds the job, hence the manifest; every other part is
checked against it and removed if it fails, so the same `unosim run` finishes the result.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from unosim.compat import tomllib
from unosim.rules.config import ConfigError, parse_config
from unosim.run.integrity import hold_lock, part_index
from unosim.run.jobs import Job, RunError, make_job
from unosim.run.modes import mode_of_file
from unosim.run.store import StoreError

__all__ = ["job_from_parts", "repair"]


def job_from_parts(path: Path) -> Job:
    """The job that wrote the parts in ``path``, from the first part that opens and names
    its plan (count and chunk size: parts written before those keys existed cannot)."""
    for f in sorted(path.glob("part-*.parquet")):
        if part_index(f) is None:
            continue
        try:
            meta = {k.decode(): v.decode() for k, v in (pq.read_schema(f).metadata or {}).items()}
        except (OSError, ValueError):
            continue
        if "unosim.count" not in meta or "unosim.chunk_size" not in meta:
            continue
        try:
            cfg = parse_config(tomllib.loads(meta["unosim.config"]), source_text=meta["unosim.config"])
            mode = mode_of_file(meta["unosim.mode"], meta.get("unosim.rotate_seats") == "true")
            return make_job(cfg, mode, int(meta["unosim.count"]), int(meta["unosim.seed"]),
                            chunk_size=int(meta["unosim.chunk_size"]), out=path,
                            max_hands=int(meta["unosim.max_hands"]) if mode.matches else None)
        except (ConfigError, RunError, KeyError, ValueError, tomllib.TOMLDecodeError):
            continue
    raise StoreError(f"{path}: no part here opens and names its run's plan (count, chunk size); run the "
                     "same `unosim run` command with --resume instead")


def repair(path: str | Path) -> list[str]:
    """Rebuild the manifest of the result at ``path`` and check every part; what was done,
    in lines."""
    from unosim.run.guard import folder_kind

    p = Path(path)
    if not p.is_dir():
        raise StoreError(f"{p}: not a folder (give the result directory of a run)")
    found = folder_kind(p)
    if found is not None and found[0] != "run":
        raise StoreError(f"{p}: holds the output of `unosim {found[0]}` ({found[1]}); repair rebuilds one run "
                         "result: give its folder (a sweep's point, a league's table=k)")
    job = job_from_parts(p)
    with hold_lock(p, "DIR"):
        done = job.prepare(resume=True)
    total = len(job.chunks())
    lines = [f"{p}: {'manifest rebuilt' if job.notes and 'rebuilt' in job.notes[0] else 'manifest in order'}; "
             f"{len(done)} of {total} chunks verified"]
    lines += [f"  {n}" for n in job.notes]
    if len(done) < total:
        lines.append(f"  finish it with the run's own command: unosim run CONFIG {job.mode.run_options(job)} "
                     f"--seed {job.seed} --chunk-size {job.chunk_size} --out {p}")
    return lines
