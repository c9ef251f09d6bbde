"""The rooms server: the websocket at ``/play`` (CONTRACT.md, "Playing together").

:class:`RoomServer` reads each client's messages (:mod:`forage.net.protocol`), hands them to
its room (:mod:`forage.net.rooms`), stores what changed (:mod:`forage.net.store`) and only
then sends what the room says to whom. Its limits:

- a message over 64 KiB is ``too-large`` and closes the connection (aiohttp refuses a
  larger frame before reading it; the server checks again);
- a client sending more than its share of messages (:attr:`ServerRules.burst`, then
  :attr:`ServerRules.per_second`) gets ``rate`` and is closed;
- failed joins (an unknown room, a wrong token) are limited per client address: past
  :attr:`ServerRules.failed_joins` in :attr:`ServerRules.failed_join_seconds`, ``rate``
  and closed;
- each client has its own queue of messages to send; a client that does not read fills it
  and is cut off, without holding anyone else up;
- at most :attr:`ServerRules.max_rooms` rooms are open; ``create`` beyond that is ``full``.

Changes are stored in one transaction for all the messages read in one turn of the event
loop, before any message telling of them is sent. The rooms' waits and idle times run as
timers on the event loop, calling :meth:`~forage.net.rooms.Room.tick` when each room's
deadline comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from aiohttp import WSCloseCode, WSMsgType, web

from forage.engine import Deal
from forage.engine.deal import SEED_LIMIT
from forage.net.protocol import (
    CLOSING,
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_MESSAGE_BYTES,
    BadMessage,
    ClientMessage,
    CreateIn,
    DailyIn,
    ErrorCode,
    ErrorOut,
    JoinIn,
    LeaveIn,
    PlaceIn,
    RejoinIn,
    StartIn,
    TooLarge,
    error,
    message_text,
    read_client_message,
    room_code,
)
from forage.net.rooms import Event, Phase, Room, RoomRules, Update
from forage.net.store import RoomStore

log: Final = logging.getLogger("forage.rooms")

PATH: Final = "/play"
"""Where the websocket is served."""
TOKEN_BYTES: Final = 16
"""A player's token: 128 random bits."""
ADDRESSES_KEPT: Final = 10_000
"""The most client addresses whose failed joins are counted at once (the oldest go first)."""


def new_code() -> str:
    """A fresh, unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class ServerRules:
    """The limits of a rooms server."""

    max_rooms: int = 1000
    room: RoomRules = field(default_factory=RoomRules)
    queue_size: int = 256
    """Messages waiting to be sent to a client; one more cuts the client off."""
    burst: int = 40
    per_second: float = 20.0
    """A client may send ``burst`` messages at once, and ``per_second`` on average."""
    failed_joins: int = 10
    failed_join_seconds: float = 60.0
    """An address may fail to join ``failed_joins`` times, one more each of these periods."""
    heartbeat: float = 20.0
    """Seconds between pings; a client that does not answer within half of it is gone."""
    close_seconds: float = 5.0
    """How long a closing connection has to take its last messages."""


@dataclass
class Bucket:
    """A token bucket: ``capacity`` at once, refilled at ``rate`` a second."""

    capacity: float
    rate: float
    tokens: float
    stamp: float

    @classmethod
    def full(cls, capacity: float, rate: float, now: float) -> Bucket:
        """A bucket holding all it can."""
        return cls(capacity, rate, capacity, now)

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Take one token if there is one; whether there was."""
        self._refill(now)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def empty(self, now: float) -> bool:
        """Whether no token is left (nothing taken)."""
        self._refill(now)
        return self.tokens < 1


class _Socket(web.WebSocketResponse):
    """aiohttp's websocket, which says ``too-large`` before it closes on an oversized frame."""

    async def close(
        self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True
    ) -> bool:
        """Close; for a frame over the size limit, first send the ``too-large`` error."""
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            text = message_text(
                error(ErrorCode.TOO_LARGE, f"a message is at most {MAX_MESSAGE_BYTES} bytes")
            )
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.send_str(text), 1.0)
        return await super().close(code=code, message=message, drain=drain)


@dataclass(eq=False)
class Client:
    """One websocket connection and where it plays."""

    socket: web.WebSocketResponse
    transport: asyncio.BaseTransport | None
    address: str
    bucket: Bucket
    queue: asyncio.Queue[str | None]
    room: str | None = None
    player: int | None = None
    closing: bool = False
    close_code: int = WSCloseCode.OK
    writer: asyncio.Task[None] | None = None


class RoomServer:
    """The rooms of one server, the clients playing in them, and the store behind them."""

    def __init__(
        self,
        store: RoomStore,
        rules: ServerRules | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A server of rooms kept in ``store``; ``clock`` gives the time in seconds."""
        self.store = store
        self.rules = rules or ServerRules()
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self.seats: dict[tuple[str, int], Client] = {}
        self.clients: set[Client] = set()
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        """Each room's timer, and the deadline it is set for."""
        self._changes: list[tuple[str, Sequence[Event]]] = []
        self._outbox: list[tuple[Client, str]] = []
        self._flushing = False
        self._stopping = False
        """The server is stopping: connections that end leave their rooms as stored."""
        self._failed: OrderedDict[str, Bucket] = OrderedDict()
        self._guard: Callable[[web.Request], None] | None = None

    # -- the application ----------------------------------------------------------------------

    def attach(
        self, app: web.Application, guard: Callable[[web.Request], None] | None = None
    ) -> None:
        """Serve ``/play`` on an application; ``guard`` may refuse a request by raising an
        HTTP error (as the page's Host and Origin checks do). Live rooms are read from the
        store when the application starts."""
        self._guard = guard
        app.router.add_get(PATH, self.handle)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        app.on_cleanup.append(self._on_cleanup)

    async def _on_startup(self, app: web.Application) -> None:
        self.load()

    async def _on_shutdown(self, app: web.Application) -> None:
        self._stopping = True
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        await asyncio.gather(
            *(self._close(c, WSCloseCode.GOING_AWAY) for c in list(self.clients)),
            return_exceptions=True,
        )

    async def _on_cleanup(self, app: web.Application) -> None:
        self.store.close()

    def load(self) -> int:
        """Rebuild the rooms the store holds that have not ended; how many. Each player is
        waited for from now, as if their connection had just dropped."""
        now = self.clock()
        found = self.store.live_rooms()
        for problem in found.problems:
            log.warning("forage serve: %s", problem)
        for stored in found.rooms:
            try:
                room = Room.restore(stored, now, self.rules.room)
            except ValueError as exc:
                log.warning("forage serve: %s", exc)
                continue
            self.rooms[room.code] = room
            self._commit(room, room.tick(now))
        return len(found.rooms)

    # -- a connection -----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """A client's websocket: read its messages until it closes or is closed."""
        if self._guard is not None:
            self._guard(request)
        socket = _Socket(
            max_msg_size=MAX_MESSAGE_BYTES + 1,
            heartbeat=self.rules.heartbeat,
            compress=False,
            timeout=self.rules.close_seconds,
            decode_text=False,  # text that is not UTF-8 is a bad message, not a closed socket
        )
        await socket.prepare(request)
        rules = self.rules
        client = Client(
            socket=socket,
            transport=request.transport,
            address=request.remote or "",
            bucket=Bucket.full(rules.burst, rules.per_second, self.clock()),
            queue=asyncio.Queue(rules.queue_size),
        )
        client.writer = asyncio.create_task(self._write(client))
        self.clients.add(client)
        try:
            await self._read(client)
        finally:
            self._gone(client)
            await self._close(client, client.close_code)
            self.clients.discard(client)
        return socket

    async def _read(self, client: Client) -> None:
        async for message in client.socket:
            if client.closing:
                return
            if not client.bucket.take(self.clock()):
                self._fatal(client, ErrorCode.RATE, "too many messages: slow down")
                return
            if message.type is WSMsgType.TEXT:
                self._on_text(client, message.data)
            elif message.type is WSMsgType.BINARY:
                if len(message.data) > MAX_MESSAGE_BYTES:
                    self._fatal(client, ErrorCode.TOO_LARGE, f"at most {MAX_MESSAGE_BYTES} bytes")
                else:
                    self._tell(client, ErrorCode.BAD_MESSAGE, "send JSON text, not binary")
            if client.closing:
                return

    async def _write(self, client: Client) -> None:
        """Send a client's queued messages in order, until the end marker (None)."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            while (text := await client.queue.get()) is not None:
                await client.socket.send_str(text)

    async def _close(self, client: Client, code: int = WSCloseCode.OK) -> None:
        """Let the writer send what is queued (for a while), then close the connection."""
        self._flush()
        client.closing = True
        writer = client.writer
        if writer is not None and not writer.done():
            with contextlib.suppress(asyncio.QueueFull):
                client.queue.put_nowait(None)
            try:
                await asyncio.wait_for(asyncio.shield(writer), self.rules.close_seconds)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()
                self._cut(client)
        if client.transport is None or not client.transport.is_closing():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.socket.close(code=code), self.rules.close_seconds)
        self._cut(client)

    def _cut(self, client: Client) -> None:
        """Drop a connection at once (a client that does not read, or that will not close)."""
        client.closing = True
        if client.writer is not None:
            client.writer.cancel()
        if client.transport is not None and not client.transport.is_closing():
            client.transport.close()
            abort = getattr(client.transport, "abort", None)
            if abort is not None:
                abort()

    def _send(self, client: Client, text: str) -> None:
        """Send a message to a client, once what came before it is stored (:meth:`_flush`)."""
        if client.closing:
            return
        self._outbox.append((client, text))
        self._flush_soon()

    def _flush_soon(self) -> None:
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Store every change made since the last flush in one transaction, then queue the
        messages that tell of them; a client whose queue is full is cut off."""
        self._flushing = False
        changes, self._changes = self._changes, []
        outbox, self._outbox = self._outbox, []
        if changes:
            try:
                self.store.apply_all(changes)
            except sqlite3.Error:
                log.exception("forage serve: could not store the rooms' changes")
        for client, text in outbox:
            if client.writer is None or client.writer.done():
                continue
            try:
                client.queue.put_nowait(text)
            except asyncio.QueueFull:
                log.info("forage serve: cut off a client that does not read (%s)", client.address)
                self._cut(client)

    def _tell(self, client: Client, code: ErrorCode, message: str) -> None:
        self._send(client, message_text(error(code, message)))

    def _fatal(self, client: Client, code: ErrorCode, message: str) -> None:
        """Send an error after which the connection closes (``rate``, ``too-large``)."""
        assert code in CLOSING
        self._tell(client, code, message)
        client.closing = True
        client.close_code = (
            WSCloseCode.MESSAGE_TOO_BIG
            if code is ErrorCode.TOO_LARGE
            else WSCloseCode.POLICY_VIOLATION
        )

    def _gone(self, client: Client) -> None:
        """A connection has ended: its room waits for the player."""
        room = self.rooms.get(client.room) if client.room is not None else None
        player = client.player
        self._unbind(client)
        if self._stopping or room is None or player is None or (room.code, player) in self.seats:
            return
        self._commit(room, room.disconnect(player, self.clock()))

    # -- messages ---------------------------------------------------------------------------

    def _on_text(self, client: Client, text: bytes) -> None:
        try:
            message = read_client_message(text)
        except TooLarge as exc:
            self._fatal(client, ErrorCode.TOO_LARGE, str(exc))
            return
        except BadMessage as exc:
            self._tell(client, ErrorCode.BAD_MESSAGE, str(exc))
            return
        self._dispatch(client, message)

    def _dispatch(self, client: Client, message: ClientMessage) -> None:
        if isinstance(message, DailyIn):
            self._tell(
                client, ErrorCode.BAD_MESSAGE, "the online daily is not available on this server"
            )
        elif isinstance(message, CreateIn | JoinIn | RejoinIn):
            if client.room is not None:
                self._tell(
                    client, ErrorCode.BAD_MESSAGE, f"you are in room {client.room}: leave it first"
                )
            elif isinstance(message, CreateIn):
                self._create(client, message)
            else:
                self._join(client, message)
        else:
            room = self.rooms.get(client.room) if client.room is not None else None
            if room is None or client.player is None:
                self._tell(client, ErrorCode.NO_ROOM, "you are not in a room: create or join one")
                return
            now = self.clock()
            if isinstance(message, StartIn):
                self._commit(room, room.start(client.player, now))
            elif isinstance(message, PlaceIn):
                self._commit(room, room.place(client.player, message, now))
            elif isinstance(message, LeaveIn):
                update = room.leave(client.player, now)
                self._commit(room, update)
                self._unbind(client)

    def _create(self, client: Client, message: CreateIn) -> None:
        open_rooms = sum(1 for room in self.rooms.values() if room.phase is not Phase.ENDED)
        if open_rooms >= self.rules.max_rooms:
            self._tell(
                client,
                ErrorCode.FULL,
                f"this server has {self.rules.max_rooms} rooms open, its most: try again later",
            )
            return
        code = new_code()
        while code in self.rooms or self.store.knows(code):
            code = new_code()
        seed = secrets.randbelow(SEED_LIMIT)
        deal = Deal.from_seed(seed, recipes=message.recipes, deck=message.deck)
        room, update = Room.create(
            code,
            deal,
            message.name,
            secrets.token_urlsafe(TOKEN_BYTES),
            self.clock(),
            deck=message.deck,
            seed=seed,
            rules=self.rules.room,
        )
        self.rooms[code] = room
        self._bind(client, code, 1)
        self._commit(room, update)

    def _join(self, client: Client, message: JoinIn | RejoinIn) -> None:
        now = self.clock()
        failed = self._failed.get(client.address)
        if failed is not None and failed.empty(now):
            self._fatal(client, ErrorCode.RATE, "too many failed joins: wait a minute")
            return
        code = room_code(message.room)
        room = self.rooms.get(code) if code is not None else None
        if room is None:
            self._failed_join(client, ErrorCode.NO_ROOM, "no room has that code")
            return
        if isinstance(message, JoinIn):
            update = room.join(message.name, secrets.token_urlsafe(TOKEN_BYTES), now)
        else:
            update = room.rejoin(message.token, now)
        if update.player is None:  # refused: the one message is for this client
            refusal = update.sends[0].message
            if isinstance(refusal, ErrorOut) and refusal.code == ErrorCode.NO_ROOM:
                self._failed_join(client, ErrorCode.NO_ROOM, refusal.message)
            else:
                self._send(client, message_text(refusal))
            return
        earlier = self.seats.get((room.code, update.player))
        if earlier is not None:  # the same player on a new connection
            self._unbind(earlier)
            earlier.closing = True
            asyncio.get_running_loop().create_task(
                self._close(earlier, WSCloseCode.POLICY_VIOLATION)
            )
        self._bind(client, room.code, update.player)
        self._commit(room, update)

    def _failed_join(self, client: Client, code: ErrorCode, message: str) -> None:
        """Answer a failed join, counting it against the client's address."""
        now = self.clock()
        bucket = self._failed.pop(client.address, None)
        if bucket is None:
            rules = self.rules
            bucket = Bucket.full(
                rules.failed_joins, rules.failed_joins / rules.failed_join_seconds, now
            )
        self._failed[client.address] = bucket
        while len(self._failed) > ADDRESSES_KEPT:
            self._failed.popitem(last=False)
        if bucket.take(now):
            self._tell(client, code, message)
        else:
            self._fatal(client, ErrorCode.RATE, "too many failed joins: wait a minute")

    def _bind(self, client: Client, code: str, player: int) -> None:
        client.room, client.player = code, player
        self.seats[(code, player)] = client

    def _unbind(self, client: Client) -> None:
        room, player = client.room, client.player
        if room is not None and player is not None and self.seats.get((room, player)) is client:
            del self.seats[(room, player)]
        client.room = client.player = None

    # -- a room's changes -------------------------------------------------------------------

    def _commit(self, room: Room, update: Update) -> None:
        """Take a room's update: its changes to store and its messages to send (both at the
        next flush, the changes first), and the room's next timer."""
        if update.events:
            self._changes.append((room.code, update.events))
            self._flush_soon()
        texts: dict[int, str] = {}
        for send in update.sends:
            client = self.seats.get((room.code, send.to))
            if client is not None:
                key = id(send.message)
                text = texts.get(key)
                if text is None:
                    text = texts[key] = message_text(send.message)
                self._send(client, text)
        if update.closed:
            self._forget(room)
        else:
            self._schedule(room)

    def _schedule(self, room: Room) -> None:
        """Set the room's timer for its deadline, unless one is set no later: a timer that
        goes off early finds nothing to do and is set again (so a placement, which puts the
        idle deadline off, costs no new timer)."""
        if self._stopping:
            return
        deadline = room.deadline()
        held = self._timers.get(room.code)
        if held is not None:
            if deadline is not None and held[0] <= deadline:
                return
            held[1].cancel()
            del self._timers[room.code]
        if deadline is None:
            return
        delay = max(0.0, deadline - self.clock())
        handle = asyncio.get_running_loop().call_later(delay, self._tick, room.code)
        self._timers[room.code] = (deadline, handle)

    def _tick(self, code: str) -> None:
        self._timers.pop(code, None)
        room = self.rooms.get(code)
        if room is not None:
            self._commit(room, room.tick(self.clock()))

    def _forget(self, room: Room) -> None:
        """An ended room leaves memory (its results stay stored); its clients stay connected."""
        self.rooms.pop(room.code, None)
        held = self._timers.pop(room.code, None)
        if held is not None:
            held[1].cancel()
        for key in [key for key in self.seats if key[0] == room.code]:
            self._unbind(self.seats[key])


def add_rooms(
    app: web.Application,
    *,
    folder: Path | None = None,
    rules: ServerRules | None = None,
    guard: Callable[[web.Request], None] | None = None,
) -> RoomServer:
    """Serve rooms at ``/play`` on an application, stored in ``folder`` (the data folder by
    default); raises :class:`~forage.net.store.StoreError` if the store cannot be opened."""
    server = RoomServer(RoomStore.open(folder), rules)
    server.attach(app, guard)
    return server
