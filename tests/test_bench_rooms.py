"""benchmarks/rooms.py and rooms_lock.py: short real runs against forage serve (on SQLite, and
on PostgreSQL where the test cluster runs), and the percentile."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers import load_benchmark
from postgres import Cluster, StoreAt
from serving import forage_server

from forage.paths import SERVER_FILE


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


def test_a_short_run_on_postgresql_plays_every_room_out(postgres: Cluster) -> None:
    found = load_benchmark("rooms.py").run_once(3, 2, 0.0, postgres)
    assert found["calls"] == 3 * 7
    assert found["lost"] == 0
    assert found["max"] >= found["p99"] >= found["p50"] > 0


def test_a_lock_on_the_tables_holds_back_only_the_placement_waiting_on_it(
    tmp_path: Path, store_at: StoreAt
) -> None:
    module = load_benchmark("rooms_lock.py")
    home = tmp_path / "home"
    options = () if store_at.url is None else ("--db", store_at.url)
    url = store_at.url
    hold = (
        (lambda: module.locked(home / SERVER_FILE))
        if url is None
        else (lambda: module.postgres_locked(url))
    )
    with forage_server(home, tmp_path, *options) as served:
        found = asyncio.run(asyncio.wait_for(module.measure(served, hold, 2.5), 120))
    assert found.held >= 2.5
    assert found.busy is not None and found.busy < found.placed  # busy after 2 s, then placed
    assert found.junk.count > 0 and found.page.count > 0
    assert found.junk.slowest < 1000 and found.page.slowest < 1000  # nobody else waits
