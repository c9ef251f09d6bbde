"""benchmarks/rooms.py: a short real run against forage serve, and its percentile."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers import load_benchmark
from serving import forage_server


@pytest.mark.parametrize("think", [0.0, 0.05])
def test_a_short_run_plays_every_room_out_and_times_every_call(
    tmp_path: Path, think: float
) -> None:
    module = load_benchmark("rooms.py")
    with forage_server(tmp_path / "home", tmp_path) as served:
        found = asyncio.run(asyncio.wait_for(module.measure(served, 3, 2, think), 120))
    assert found["calls"] == 3 * 7  # turns 2 to 8 of each room
    assert found["lost"] == 0
    assert found["max"] >= found["p99"] >= found["p50"] > 0
    assert found["empty"] > 0 and found["lobbies"] > 0 and found["dealt"] > 0


def test_the_percentile_is_the_nearest_rank() -> None:
    percentile = load_benchmark("rooms.py").percentile
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.99) == 99.0
    assert percentile(values, 0.5) == 50.0
    assert percentile([3.0], 0.99) == 3.0
