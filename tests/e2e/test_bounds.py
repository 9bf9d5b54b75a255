"""Bounds that fit memory and addresses that fail fast (one line each).

Chunk plans are lazy (a plan of 10**12 units is three integers), a sweep's point count is
bounded before any point is built, point names fit any valid grid, every bot option is
checked even where no seat uses it, and ``--scheduler`` addresses are normalised and
probed whatever their form.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from cli_checks import invoke, one_error
from unosim.run.jobs import chunks
from unosim.run.sweep import MAX_POINTS, SweepError, parse_sweep, point_name




def test_a_chunk_plan_is_lazy() -> None:
    plan = chunks(10**12, 10_000)
    assert len(plan) == 10**8 and plan[10**8 - 1] == (10**8 - 1, 10**12 - 10_000, 10_000)
    assert list(chunks(25, 10)) == [(0, 0, 10), (1, 10, 10), (2, 20, 5)] and plan[-1] == plan[10**8 - 1]


def test_a_sweep_is_bounded_and_any_grid_has_valid_names() -> None:
    t = time.perf_counter()
    with pytest.raises(SweepError, match=f"at most {MAX_POINTS:,}"):
        parse_sweep({"name": "x", "mode": "grid", "hands": 10,
                     "axes": {"rules.noise_chance": [i / 1000 for i in range(1000)],
                              "table.hand_size": [3, 4, 5, 6, 7], "table.players": [2, 3, 4]}})
    assert time.perf_counter() - t < 30
    sw = parse_sweep({"name": "a_rather_long_sweep_name_for_a_grid", "mode": "grid", "hands": 10,
                      "axes": {"rules.stacking": ["none", "draw2_draw4"], "rules.draw": ["one", "until_playable"],
                               "rules.jump_in": ["none", "colored"]}})
    names = [p.cfg.name for p in sw.points]
    assert len(sw.points) == 8 and len(set(names)) == 8 and max(map(len, names)) <= 64
    assert point_name("s", "base") == "s:base"


def test_bot_options_and_workers_are_checked(tmp_path: Path) -> None:
    one_error(invoke("duel", "random", "greedy", "--others", "nosuch", "--players", 3, "--hands", 10), "--others", "nosuch")
    one_error(invoke("duel", "random", "greedy", "--others", "nosuch", "--hands", 10), "--others", "no other seats")
    one_error(invoke("run", "standard", "--hands", 10, "--workers", 0, "--scheduler", "127.0.0.1:1",
                     "--out", tmp_path / "w"), "--workers")


def _server(reply: bytes | None) -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()

    def serve() -> None:
        while True:
            c, _ = s.accept()
            if reply:
                c.sendall(reply)
            time.sleep(60)

    threading.Thread(target=serve, daemon=True).start()
    return s.getsockname()[1]


@pytest.mark.parametrize("address, needle", [
    ("127.0.0.1:1", "cannot connect to tcp://127.0.0.1:1"),
    ("tls://127.0.0.1:1", "cannot connect to tls://127.0.0.1:1"),
    ("inproc://x", "inproc://"),
    ("ws://host:1", "unsupported scheme"),
    ("127.0.0.1:99999", "port between 1 and 65535"),
    ("SSH", "not a Dask scheduler"),
    pytest.param("FAKE", "not a Dask scheduler", marks=pytest.mark.slow),  # waits out a silent server
])
def test_scheduler_addresses_fail_within_seconds(tmp_path: Path, address: str, needle: str) -> None:
    pytest.importorskip("distributed")
    if address == "SSH":
        address = f"127.0.0.1:{_server(b'SSH-2.0-OpenSSH_9.6 banner here')}"
    elif address == "FAKE":
        address = f"127.0.0.1:{_server(struct.pack('<QQ', 24, 1))}"
    t = time.perf_counter()
    one_error(invoke("run", "standard", "--hands", 10, "--scheduler", address, "--out", tmp_path / "o", "--quiet"),
              needle)
    assert time.perf_counter() - t < 20
