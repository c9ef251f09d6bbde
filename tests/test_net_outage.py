"""The rooms server when its database is slow or away: nothing is told before it is stored,
nobody else waits, and nobody is dropped.

SQLite is locked by another process (``BEGIN EXCLUSIVE``) while a player places; PostgreSQL
is stopped and started again mid-room.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from postgres import cluster, missing
from room_serving import Player, check_results, expect, quiet, rooms_at, run, table, until
from serving import Served, forage_server

from forage.net.admission import ServerRules
from forage.net.client import RoomClient
from forage.net.link import RoomLink
from forage.net.patience import Patience
from forage.net.protocol import (
    BusyOut,
    DealOut,
    ErrorOut,
    JoinedOut,
    PlacedOut,
    ProgressOut,
    TurnOut,
)
from forage.paths import SERVER_FILE

QUICK = Patience(first=0.02, longest=0.2, busy_after=0.3, give_up=60.0)
"""The database waited for as a server does, but told of sooner."""
HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""


@contextmanager
def locked(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holds the SQLite file's write lock until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield holder
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        holder.wait(30)


def moves_stored(path: Path, room: str) -> int:
    """How many placements of a room the file holds, as another reader sees it."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        return int(conn.execute("SELECT count(*) FROM moves WHERE room = ?", (room,)).fetchone()[0])
    finally:
        conn.close()


async def answered_within(player: Player, seconds: float) -> float:
    """How long a junk message's ``bad-message`` takes (at most ``seconds``)."""
    started = time.monotonic()
    await player.client.socket.send_str("{junk")
    message = await until(player.client, ErrorOut, seconds)  # a busy notice may come first
    assert message.code == "bad-message"
    return time.monotonic() - started


def test_a_placement_is_told_only_once_stored_and_a_lock_stops_nobody_else(
    tmp_path: Path,
) -> None:
    path = tmp_path / SERVER_FILE

    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(patience=QUICK)) as rooms:
            ann, bob = await table(rooms, 2)
            by = await rooms.player()  # in no room
            with locked(path):
                await ann.place_first()
                busy = await expect(ann.client, BusyOut)  # not placed: it is not stored
                assert "slow" in busy.message and "\n" not in busy.message
                assert moves_stored(path, ann.room) == 0
                await answered_within(by, 1.0)  # nobody else waits on the lock
                await answered_within(bob, 1.0)
                assert not [m for m in await quiet(ann.client, 0.3) if isinstance(m, PlacedOut)]
            placed = await until(ann.client, PlacedOut)
            assert placed.turn == 1
            assert moves_stored(path, ann.room) == 1  # told once stored
            await bob.place_first()
            await bob.read_until(TurnOut)
            assert moves_stored(path, ann.room) == 2

    run(scenario(), 90)


def test_a_room_made_while_the_file_is_locked_is_stored_before_its_code_is_told(
    tmp_path: Path,
) -> None:
    path = tmp_path / SERVER_FILE

    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(patience=QUICK)) as rooms:
            await (await rooms.player()).create("Warm")  # the file exists and is migrated
            ann = await rooms.player()
            with locked(path):
                await ann.client.create("Ann", False, 1)
                assert isinstance(await ann.client.receive(10), BusyOut)
            ann.took(await until(ann.client, JoinedOut))

        async with rooms_at(tmp_path) as again:  # a restart finds the room told of
            cat = await again.player()
            await cat.client.rejoin(ann.room, ann.token)
            assert (await cat.client.receive(10)).type == "joined"

    run(scenario(), 90)


def test_the_room_goes_on_when_postgresql_stops_and_starts_again(tmp_path: Path) -> None:
    why = missing()
    if why is not None:
        pytest.skip(why)

    async def scenario(url: str, stop: Callable[[], None], start: Callable[[], None]) -> None:
        async with rooms_at(tmp_path, ServerRules(patience=QUICK), url) as rooms:
            ann, bob = await table(rooms, 2)
            await asyncio.to_thread(stop)
            await ann.place_first()
            await expect(ann.client, BusyOut)
            await asyncio.to_thread(start)
            assert (await until(ann.client, PlacedOut, 30)).turn == 1
            await bob.place_first()
            call = await bob.read_until(TurnOut, 30)
            assert call.turn == 2
            assert (await ann.read_until(TurnOut, 30)).turn == 2  # nobody dropped
            assert all(s.placed == 1 for s in call.standings)

    with cluster() as made:
        url = made.schema()
        run(scenario(url, made.stop, made.start), 120)


def test_a_link_waits_through_busy_notices_for_its_room(tmp_path: Path) -> None:
    path = tmp_path / SERVER_FILE

    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(patience=QUICK)) as rooms:
            await (await rooms.player()).create("Warm")
            ann = RoomLink(rooms.url, retry_seconds=(0.05,))
            with locked(path):
                opening = asyncio.create_task(ann.create("Ann"))
                await asyncio.sleep(0)  # the request goes out while the file is locked
                done, _ = await asyncio.wait({opening}, timeout=QUICK.busy_after * 3)
                assert not done  # no room is told of before it is stored
            await opening
            assert ann.state.room and ann.state.is_host
            await ann.close()

    run(scenario(), 90)


async def rejoined(url: str, player: Player) -> Player:
    """The player on a new connection to ``url``, its place taken back and its story read up
    to the turn the room is on."""
    again = Player(await RoomClient.connect(url), token=player.token)
    await again.client.rejoin(player.room, player.token)
    again.took(await until(again.client, JoinedOut))
    await again.read_until(DealOut)
    while True:  # the story: every placement and call told so far, then where the turn is
        message = await again.read()
        if isinstance(message, ProgressOut):
            return again


def test_every_placement_told_is_there_after_the_server_is_killed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = home / SERVER_FILE

    async def play(served: Served) -> tuple[Player, Player]:
        ann, bob = [Player(await RoomClient.connect(served.url)) for _ in range(2)]
        await ann.create("Ann")
        await bob.join(ann.room, "Bob")
        await ann.client.start()
        for player in (ann, bob):
            await player.read_until(DealOut)
        for _ in range(3):
            for player in (ann, bob):
                await player.place_first()
            for player in (ann, bob):
                await player.read_until(TurnOut)
        await ann.place_first()
        await ann.read_until(PlacedOut)  # told: it must be there after the kill
        with locked(path):  # Bob's placement cannot be stored: he is told nothing of it
            await bob.place_first()
            await until(bob.client, BusyOut)
            page = await asyncio.to_thread(urllib.request.urlopen, served.url, timeout=2.0)
            assert page.status == 200  # the page is served while the placement waits
            page.close()
            served.process.kill()
            served.process.wait(10)
        for player in (ann, bob):
            await player.close()
        return ann, bob

    async def back(served: Served, ann: Player, bob: Player) -> None:
        ann_again, bob_again = await rejoined(served.url, ann), await rejoined(served.url, bob)
        assert ann_again.mirror is not None and bob_again.mirror is not None
        assert ann.mirror is not None and ann_again.mirror.moves == ann.mirror.moves
        assert len(ann_again.mirror.moves) == 4
        assert len(bob_again.mirror.moves) == 3  # never told, never stored
        ends = await asyncio.gather(ann_again.play_to_end(), bob_again.play_to_end())
        for end in ends:
            check_results(end, 2)

    with forage_server(home, tmp_path, "--max-games", "4") as first:
        ann, bob = run(play(first), 90)
    with forage_server(home, tmp_path, "--max-games", "4") as second:
        run(back(second, ann, bob), 90)
