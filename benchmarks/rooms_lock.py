"""A bystander's wait while another session holds the rooms' tables locked: ``forage serve``
on SQLite and on PostgreSQL.

Starts ``forage serve`` in its own process (FORAGE_HOME a fresh temporary folder), opens a
room of two players and deals, then has another session lock the rooms' tables for 5 s:
for SQLite another process holding ``BEGIN EXCLUSIVE`` on the server's ``server.sqlite3``,
for PostgreSQL (``forage serve --db``, a throwaway cluster as the tests start it:
tests/postgres.py) another connection holding ``LOCK TABLE rooms IN ACCESS EXCLUSIVE MODE``
in a transaction on the server's schema. While the lock is held, the room's first player
places (the placement cannot be stored until the lock goes) and a bystander, a connection
in no room, every 50 ms sends a junk message (answered ``bad-message``) and GETs the page.
Measures:

- the bystander's round trips during the lock, junk message and page: median, 99th
  percentile and slowest (the server's own limit: 20 messages a second, so one tick sends
  one of each and the next waits for both answers);
- when the waiting player got ``busy`` and ``placed``, from its placement and from the
  lock's end; and that the room then plays its next turn.

    uv run python benchmarks/rooms_lock.py [--seconds 5] [--only sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from postgres import cluster, missing
from rooms import percentile
from serving import Served, forage_server
from test_net_outage import locked

from forage.net.client import PlayerGame, RoomClient
from forage.net.protocol import BusyOut, DealOut, ErrorOut, JoinedOut, PlacedOut, TurnOut
from forage.paths import SERVER_FILE

EVERY = 0.05
"""The bystander's pace: a junk message and a page every this many seconds."""
M = TypeVar("M")
ANSWER_SECONDS = 150.0
"""The longest any answer is waited for (PostgreSQL gives an action two minutes)."""


@dataclass(frozen=True)
class Spread:
    """Round trips of one kind, in milliseconds."""

    count: int
    median: float
    p99: float
    slowest: float

    @classmethod
    def of(cls, seconds: list[float]) -> Spread:
        """The spread of some round trips given in seconds."""
        ms = [s * 1000 for s in seconds]
        return cls(len(ms), statistics.median(ms), percentile(ms, 0.99), max(ms))


@dataclass(frozen=True)
class LockWait:
    """What a lock on the rooms' tables cost: the bystander's round trips while it was
    held, and when the waiting player was told (seconds from its placement)."""

    junk: Spread
    page: Spread
    held: float
    """How long the lock was held, from the placement on."""
    busy: float | None
    """When the placing player got ``busy`` (None: never)."""
    placed: float
    """When it got ``placed``."""


@contextlib.contextmanager
def postgres_locked(url: str) -> Iterator[None]:
    """Another session holds ``rooms`` locked (ACCESS EXCLUSIVE) until the block ends."""
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("LOCK TABLE rooms IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            conn.rollback()


@dataclass(frozen=True)
class Seat:
    """A player of the room: its connection and its game as told."""

    client: RoomClient
    game: PlayerGame

    async def place_first(self) -> None:
        """Place the first legal placement of the hand for the turn awaited."""
        await self.client.place(self.game.turn, next(self.game.game().outcomes()).placement)


async def open_room(url: str) -> tuple[Seat, Seat]:
    """A dealt room of two."""
    ann, bob = await RoomClient.connect(url), await RoomClient.connect(url)
    await ann.create("Ann")
    joined = await ann.receive(30)
    assert isinstance(joined, JoinedOut), joined
    await bob.join(joined.room, "Bob")
    await next_of(bob, JoinedOut)
    await ann.start()
    return (
        Seat(ann, PlayerGame.dealt(await next_of(ann, DealOut))),
        Seat(bob, PlayerGame.dealt(await next_of(bob, DealOut))),
    )


async def next_of(client: RoomClient, kind: type[M]) -> M:
    """The client's next message of a kind (others skipped)."""
    while True:
        message = await client.receive(ANSWER_SECONDS)
        if isinstance(message, kind):
            return message
        if isinstance(message, ErrorOut):
            raise RuntimeError(f"{message.code}: {message.message}")


async def junk_round_trip(client: RoomClient) -> float:
    """How long a junk message's ``bad-message`` takes."""
    started = time.perf_counter()
    await client.socket.send_str("{junk")
    while True:
        message = await client.receive(ANSWER_SECONDS)
        if isinstance(message, ErrorOut):
            assert message.code == "bad-message", message
            return time.perf_counter() - started


async def page_round_trip(session: aiohttp.ClientSession, url: str) -> float:
    """How long a GET of the page takes, body and all."""
    started = time.perf_counter()
    async with session.get(url) as response:
        response.raise_for_status()
        await response.read()
    return time.perf_counter() - started


async def measure(
    served: Served, hold: Callable[[], AbstractContextManager[Any]], seconds: float
) -> LockWait:
    """Lock the tables with ``hold`` for ``seconds`` while a player places and a bystander
    sends and asks; the figures."""
    ann, bob = await open_room(served.url)
    bystander = await RoomClient.connect(served.url)
    told: dict[str, float] = {}

    async def listen() -> None:
        while "placed" not in told:
            message = await ann.client.receive(ANSWER_SECONDS)
            if isinstance(message, BusyOut):
                told.setdefault("busy", time.perf_counter())
            elif isinstance(message, PlacedOut):
                told["placed"] = time.perf_counter()
            elif isinstance(message, ErrorOut):
                raise RuntimeError(f"{message.code}: {message.message}")

    junk: list[float] = []
    page: list[float] = []
    lock = contextlib.ExitStack()
    async with aiohttp.ClientSession() as session:
        await page_round_trip(session, served.url)  # the page's connection is open
        await asyncio.to_thread(lock.enter_context, hold())
        try:
            listening = asyncio.create_task(listen())
            placed_at = time.perf_counter()
            await ann.place_first()
            tick = placed_at
            while time.perf_counter() - placed_at < seconds:
                trips = await asyncio.gather(
                    junk_round_trip(bystander), page_round_trip(session, served.url)
                )
                junk.append(trips[0])
                page.append(trips[1])
                tick += EVERY
                await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        finally:
            await asyncio.to_thread(lock.close)
        held = time.perf_counter() - placed_at
        await asyncio.wait_for(listening, ANSWER_SECONDS)
    await bob.place_first()  # the room goes on
    for seat in (ann, bob):
        assert (await next_of(seat.client, TurnOut)).turn == 2
    for client in (ann.client, bob.client, bystander):
        await client.close()
    busy = told.get("busy")
    return LockWait(
        junk=Spread.of(junk),
        page=Spread.of(page),
        held=held,
        busy=None if busy is None else busy - placed_at,
        placed=told["placed"] - placed_at,
    )


def report(store: str, found: LockWait) -> None:
    """Print one store's figures."""
    print(f"{store}: the rooms' tables locked for {found.held:.1f} s while a player places")
    for what, spread in (("junk message", found.junk), ("page GET", found.page)):
        print(
            f"  bystander's {what} over {spread.count} round trips: median "
            f"{spread.median:.1f} ms, p99 {spread.p99:.1f} ms, slowest {spread.slowest:.1f} ms"
        )
    busy = "never" if found.busy is None else f"{found.busy:.2f} s"
    print(
        f"  the waiting player: busy after {busy}, placed after {found.placed:.2f} s "
        f"({found.placed - found.held:.2f} s after the lock's end)"
    )


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long the lock is held")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    if args.only != "postgresql":
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder) / "home"
            with forage_server(home, Path(folder)) as served:
                found = asyncio.run(
                    measure(served, lambda: locked(home / SERVER_FILE), args.seconds)
                )
            report("SQLite", found)
    if args.only != "sqlite":
        why = missing()
        if why is not None:
            print(f"PostgreSQL skipped: {why}")
            return
        with tempfile.TemporaryDirectory() as folder, cluster() as made:
            url = made.schema()
            with forage_server(Path(folder) / "home", Path(folder), "--db", url) as served:
                found = asyncio.run(measure(served, lambda: postgres_locked(url), args.seconds))
            report("PostgreSQL", found)


if __name__ == "__main__":
    main()
