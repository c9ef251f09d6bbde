"""A rooms server on a free 127.0.0.1 port for a test, and players that talk to it through
the protocol's client (forage.net.client)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from aiohttp import web

from forage.engine import Placement
from forage.net.admission import ServerRules
from forage.net.client import PlayerGame, RoomClient
from forage.net.link import RoomLink
from forage.net.protocol import (
    DealOut,
    EndOut,
    ErrorOut,
    JoinedOut,
    ServerMessage,
    TurnOut,
)
from forage.net.server import RoomServer, add_rooms
from forage.record import load_game

QUICK = (0.05,)
"""A link's retry at once: the tests do not wait for the real back-off."""

T = TypeVar("T")
M = TypeVar("M", bound=ServerMessage)
WAIT = 10.0
"""The longest a test waits for any one message."""


def run(scenario: Awaitable[T], seconds: float = 120.0) -> T:
    """Run a test's scenario on a fresh event loop, failing it after ``seconds``."""

    async def bounded() -> T:
        return await asyncio.wait_for(scenario, seconds)

    return asyncio.run(bounded())


@dataclass
class Rooms:
    """A running rooms server: its address, the server object, and the clients opened on it
    (closed when it stops)."""

    url: str
    server: RoomServer
    runner: web.AppRunner
    clients: list[RoomClient] = field(default_factory=list)

    async def client(self) -> RoomClient:
        """A new connection to the server."""
        client = await RoomClient.connect(self.url)
        self.clients.append(client)
        return client

    async def player(self) -> Player:
        """A player on a new connection."""
        return Player(await self.client())

    async def stop(self) -> None:
        """Stop the server as the application stops (clients are told it is going away),
        then close the clients' ends."""
        await self.runner.cleanup()
        for client in self.clients:
            await client.close()


@asynccontextmanager
async def rooms_at(
    folder: Path,
    rules: ServerRules | None = None,
    url: str | None = None,
    clock: Callable[[], float] = time.time,
) -> AsyncIterator[Rooms]:
    """A rooms server storing in ``folder`` (or PostgreSQL at ``url``) on a free 127.0.0.1
    port, until the block ends."""
    rooms = await start_rooms(folder, rules, url, clock)
    try:
        yield rooms
    finally:
        await rooms.stop()


async def start_rooms(
    folder: Path,
    rules: ServerRules | None = None,
    url: str | None = None,
    clock: Callable[[], float] = time.time,
) -> Rooms:
    """Start a rooms server storing in ``folder`` (or PostgreSQL at ``url``) on a free
    127.0.0.1 port."""
    app = web.Application()
    server = add_rooms(app, folder=folder, url=url, rules=rules, clock=clock)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    return Rooms(f"http://{host}:{port}", server, runner)


async def expect(client: RoomClient, kind: type[M], timeout: float = WAIT) -> M:
    """The client's next message, which must be of this type."""
    message = await client.receive(timeout)
    assert isinstance(message, kind), f"expected {kind.__name__}, got {message}"
    return message


async def until(client: RoomClient, kind: type[M], timeout: float = WAIT) -> M:
    """The client's next message of this type (any others before it are passed over)."""
    while True:
        message = await client.receive(timeout)
        if isinstance(message, kind):
            return message


async def refusal(client: RoomClient, timeout: float = WAIT) -> tuple[str, str | None]:
    """The (code, reason) of the client's next message, an error."""
    message = await expect(client, ErrorOut, timeout)
    assert message.message and "\n" not in message.message
    return message.code, message.reason


async def quiet(client: RoomClient, seconds: float) -> list[ServerMessage]:
    """Every message the client gets within ``seconds``."""
    got: list[ServerMessage] = []
    try:
        while True:
            got.append(await client.receive(seconds))
    except TimeoutError:
        return got


@dataclass
class Player:
    """A player at a table: its connection, its place in the room, and its game as told."""

    client: RoomClient
    room: str = ""
    player: int = 0
    token: str = ""
    mirror: PlayerGame | None = None
    told: list[ServerMessage] = field(default_factory=list)
    sent: int = 0
    """The last turn this player sent a placement for."""

    async def create(self, name: str, recipes: bool = False, deck: int = 1) -> None:
        """Open a room as its host."""
        await self.client.create(name, recipes, deck)
        self.took(await expect(self.client, JoinedOut))

    async def join(self, room: str, name: str) -> None:
        """Join a room."""
        await self.client.join(room, name)
        self.took(await expect(self.client, JoinedOut))

    def took(self, joined: JoinedOut) -> None:
        """Keep what ``joined`` says."""
        self.room, self.player, self.token = joined.room, joined.player, joined.token

    async def read(self, timeout: float = WAIT) -> ServerMessage:
        """The next message, taken into the player's game."""
        message = await self.client.receive(timeout)
        self.told.append(message)
        if isinstance(message, DealOut):
            self.mirror = PlayerGame.dealt(message)
        elif self.mirror is not None:
            self.mirror.follow(message)
        return message

    async def read_until(self, kind: type[M], timeout: float = WAIT) -> M:
        """Read messages into the game until one of this type."""
        while True:
            message = await self.read(timeout)
            if isinstance(message, kind):
                return message

    async def place_first(self) -> None:
        """Place the first legal placement of the hand for the turn being played."""
        assert self.mirror is not None
        outcome = next(self.mirror.game().outcomes())
        self.sent = self.mirror.turn
        await self.client.place(self.mirror.turn, outcome.placement)

    async def play_to_end(self) -> EndOut:
        """Play each turn as it is called until the room ends."""
        while True:
            mirror = self.mirror
            if (
                mirror is not None
                and not mirror.placed
                and self.sent < mirror.turn
                and not mirror.game().is_over()
            ):
                await self.place_first()
            message = await self.read()
            if isinstance(message, EndOut):
                return message
            assert not isinstance(message, ErrorOut), message

    async def close(self) -> None:
        """Close the connection."""
        await self.client.close()


async def table(rooms: Rooms, count: int, recipes: bool = False) -> list[Player]:
    """A started room of ``count`` players, each having read up to their deal."""
    host = await rooms.player()
    await host.create("P1", recipes=recipes)
    players = [host]
    for index in range(2, count + 1):
        player = await rooms.player()
        await player.join(host.room, f"P{index}")
        players.append(player)
    await host.client.start()
    for player in players:
        await player.read_until(DealOut)
    return players


def check_results(end: EndOut, players: int) -> None:
    """Every player has a result, highest final first, whose record replays to its final."""
    assert sorted(line.player for line in end.results) == list(range(1, players + 1))
    finals = [line.final for line in end.results]
    assert finals == sorted(finals, reverse=True)
    for line in end.results:
        game, refusal = load_game(json.dumps(line.record))
        assert refusal is None
        assert game.result().score.final == line.final


def called(messages: list[ServerMessage]) -> list[int | None]:
    """The cards of the turn messages among these, in order."""
    return [m.card for m in messages if isinstance(m, TurnOut)]


# -- players on a link (forage.net.link) -----------------------------------------------------


async def link_until(
    link: RoomLink, done: Callable[[RoomLink], bool], seconds: float = 10.0
) -> None:
    """Wait until ``done(link)`` holds (checked after each news), failing after ``seconds``."""
    changed = asyncio.Event()
    stop = link.watch(lambda news: changed.set())
    try:
        async with asyncio.timeout(seconds):
            while not done(link):
                await changed.wait()
                changed.clear()
    finally:
        stop()


async def link_place_first(link: RoomLink) -> Placement:
    """Place the first legal placement of the hand for the turn being played."""
    game = link.state.game
    assert game is not None
    placement = next(game.game().outcomes()).placement
    await link.place(game.turn, placement)
    return placement


async def link_play_to_end(link: RoomLink) -> EndOut:
    """Place each turn as it is called until the room ends."""
    changed = asyncio.Event()
    stop = link.watch(lambda news: changed.set())
    try:
        while link.state.end is None:
            changed.clear()
            game = link.state.game
            assert game is not None
            if not game.placed and link.pending is None and not game.game().is_over():
                await link_place_first(link)
            if link.state.end is None:
                async with asyncio.timeout(10):
                    await changed.wait()
    finally:
        stop()
    return link.state.end


@asynccontextmanager
async def serving_play(
    play: Callable[[web.Request], Awaitable[web.StreamResponse]],
) -> AsyncIterator[str]:
    """A web server on a free 127.0.0.1 port whose ``/play`` is ``play``: its address."""
    app = web.Application()
    app.router.add_get("/play", play)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()
