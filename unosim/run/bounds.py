"""What a run may ask: the defaults and bounds of its arguments, and the one error."""

from __future__ import annotations

from collections.abc import Callable

from unosim.kernel.layout import HAND_STRIDE

__all__ = ["DEFAULT_CHUNK", "DEFAULT_MATCH_CHUNK", "DEFAULT_MAX_HANDS", "DEFAULT_TOURNAMENT_CHUNK", "MAX_CHUNK_ROWS",
           "MAX_COUNT", "MAX_MATCH_CHUNK", "MAX_PARTS", "Progress", "RunError", "check_run"]

DEFAULT_CHUNK = 200_000
"""Hands (or deals) per Parquet part file."""
DEFAULT_MATCH_CHUNK = 10_000
"""Matches per Parquet part file (about 150,000-300,000 rows with the official rules)."""
DEFAULT_TOURNAMENT_CHUNK = 10_000
"""Tournaments per Parquet part file (120,000 rows for 4 players with the default
``hands_per_round``)."""
DEFAULT_MAX_HANDS = 10_000
"""Hands after which a match is stopped and flagged ``capped``."""
Progress = Callable[[int], None]


class RunError(Exception):
    """Bad run arguments; the message names the option."""


MAX_COUNT = 10**12
"""Units one run may hold: a million million hands is weeks of this engine on a big machine."""
MAX_CHUNK_ROWS = 5_000_000
"""Rows of one part in memory (about 1 GB while it is built): hands, or deals x players."""
MAX_MATCH_CHUNK = 200_000
"""Matches of one part (each about 15 rows with the official rules)."""
MAX_PARTS = 1_000_000
"""Part files of one result: their names hold six digits (``part-NNNNNN.parquet``), and a
folder of a million files is already more than a file system lists quickly."""


def check_run(option: str, count: int, seed: int, chunk_size: int, max_hands: int | None = None,
              rows_per_unit: int = 1, rotations: int = 1, unit: str | None = None, chosen: bool = True) -> None:
    """The checks every run shares, each a one-line :class:`RunError` naming its option.
    ``unit``: what the chunk size counts, in the error; ``chosen``: the user gave
    ``chunk_size``."""
    if not 1 <= count <= MAX_COUNT:
        raise RunError(f"{option}: must be between 1 and {MAX_COUNT:,} (got {count:,})")
    if max_hands is not None:
        top = MAX_MATCH_CHUNK // rotations
    else:
        top = MAX_CHUNK_ROWS // rows_per_unit
    unit = unit or ("matches" if max_hands is not None else "hands" if rows_per_unit == 1 else "deals")
    if not chosen and (chunk_size > top or -(-count // chunk_size) > MAX_PARTS):
        raise RunError(f"{option}: at most {top * MAX_PARTS:,} {unit} fit one result ({MAX_PARTS:,} parts of at "
                       f"most {top:,} {unit}; got {count:,})")
    if not 1 <= chunk_size <= top:
        raise RunError(f"--chunk-size: must be between 1 and {top:,} {unit} (got {chunk_size:,})")
    parts = -(-count // chunk_size)
    if parts > MAX_PARTS:
        raise RunError(f"--chunk-size: {count:,} {unit} in chunks of {chunk_size:,} make {parts:,} part files; "
                       f"at most {MAX_PARTS:,} (give --chunk-size {-(-count // MAX_PARTS):,} or more)")
    if seed < 0 or seed >= 2**63:
        raise RunError(f"--seed: must be between 0 and 2**63-1 (got {seed})")
    if max_hands is not None and not 1 <= max_hands <= HAND_STRIDE:
        raise RunError(f"--max-hands: must be between 1 and {HAND_STRIDE:,} (got {max_hands})")
