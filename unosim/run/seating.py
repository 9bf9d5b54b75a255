"""Fair seatings: every deal played once per rotation of the bots over the seats.

In rotation r the bot of config seat i sits at seat (i + r) mod n on the same cards; rows
gain ``rotation`` and ``bot_<s>``.  Why: docs/which_bot.md, "Fair comparisons".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from unosim.rules.botfile import param_text
from unosim.rules.config import RulesConfig, to_params
from unosim.rules.params import rollout_slots, seat_slots
from unosim.kernel.layout import O_WINNER

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["SeatRotation", "bot_label", "join_rotations", "rotated_params", "seat_of", "instance_at"]


def bot_label(name: str, params: dict[str, Any]) -> str:
    """The bot's own name when the config gives one, else ``name`` or ``name(p=v, ...)``
    listing the parameters that differ from the defaults."""
    return param_text({**params, "strategy": name})


def seat_of(instance: int | np.ndarray, rotation: int | np.ndarray, n: int) -> Any:
    """Seat of the bot the config puts at seat ``instance``, in rotation ``rotation``."""
    return (instance + rotation) % n


def instance_at(seat: int | np.ndarray, rotation: int | np.ndarray, n: int) -> Any:
    """Config seat (the "instance") of the bot sitting at ``seat`` in rotation ``rotation``."""
    return (seat - rotation) % n


def rotated_params(P: np.ndarray, n: int, r: int) -> np.ndarray:
    """A copy of ``P`` with every seat's strategy block (and a search's rollout bot) moved r
    seats on (seat i -> i + r)."""
    Q = P.copy()
    for i in range(n):
        Q[seat_slots((i + r) % n)] = P[seat_slots(i)]
        Q[rollout_slots((i + r) % n)] = P[rollout_slots(i)]
    return Q


def join_rotations(parts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The rows of each rotation (in rotation order) as one array, and each row's rotation."""
    rows = np.concatenate(parts) if len(parts) > 1 else parts[0]
    rotation = np.concatenate([np.full(len(p), r, np.int64) for r, p in enumerate(parts)])
    return rows, rotation


@dataclass
class SeatRotation:
    """The n rotated parameter vectors of a config and the columns they add to rows."""

    cfg: RulesConfig
    n: int = field(init=False)
    labels: list[str] = field(init=False)       # by config seat (instance)
    params: list[np.ndarray] = field(init=False)  # by rotation

    def __post_init__(self) -> None:
        self.n = self.cfg.players
        self.labels = [bot_label(name, params) for name, params in self.cfg.seats]
        P = to_params(self.cfg)
        self.params = [rotated_params(P, self.n, r) for r in range(self.n)]

    def play(self, play_chunk, seed: int, start: int, count: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
        """Units start..start+count-1 once per rotation: (rows, rotation of each row);
        ``play_chunk(P, seed, start, count, workers)`` is the runner's kernel call."""
        parts = [play_chunk(P, seed, start, count, workers) for P in self.params]
        return join_rotations(parts)

    def instance_winner(self, rows: np.ndarray, rotation: np.ndarray) -> np.ndarray:
        """Config seat of each row's winner (-1 for a stalled hand)."""
        w = rows[:, O_WINNER]
        return np.where(w >= 0, instance_at(w, rotation, self.n), -1)

    def add_columns(self, table: pa.Table, rotation: np.ndarray, instances: np.ndarray | None = None) -> pa.Table:
        """``rotation`` after ``hand`` (when present), ``bot_<s>`` strings at the end;
        ``instances``: the config seat at each (row, seat) when not the rotation's."""
        import pyarrow as pa

        col = pa.array(rotation.astype(np.int32))
        names = table.column_names
        at = names.index("hand") + 1 if "hand" in names else len(names)
        table = table.add_column(at, "rotation", col)
        unique = list(dict.fromkeys(self.labels))
        code_of = np.array([unique.index(lab) for lab in self.labels], dtype=np.int32)
        dictionary = pa.array(unique, pa.string())
        seats = self.n if instances is None else instances.shape[1]
        for s in range(seats):
            inst = instance_at(s, rotation, self.n) if instances is None else instances[:, s]
            codes = pa.array(code_of[inst])
            table = table.append_column(f"bot_{s}", pa.DictionaryArray.from_arrays(codes, dictionary))
        return table

    def metadata(self) -> dict[str, Any]:
        """Extra file metadata of a rotated run."""
        return {"unosim.rotate_seats": "true", "unosim.rotations": self.n,
                "unosim.bot_labels": json.dumps(self.labels)}

