"""The rooms server: the websocket at ``/play`` (CONTRACT.md, "Playing together").

:class:`RoomServer` reads each client's messages (:mod:`forage.net.protocol`), hands them to
its room (:mod:`forage.net.rooms`), stores what changed (:mod:`forage.net.store`) and only
then sends what the room says to whom. Its limits:

- a message over 64 KiB is ``too-large`` and closes the connection (aiohttp refuses a
  larger frame before reading it; the server checks again);
- a client sending more than its share of messages (:attr:`ServerRules.burst`, then
  :attr:`ServerRules.per_second`) or of bytes (:attr:`ServerRules.bytes_burst`, then
  :attr:`ServerRules.bytes_per_second`) gets ``rate`` and is closed;
- failed joins (an unknown room, a wrong token, a daily under a name registered with
  another token) are limited per connection (past
  :attr:`ServerRules.failed_joins_per_connection`, ``rate`` and closed: a new connection
  may try again) and, well above that, per client address (past
  :attr:`ServerRules.failed_joins` in :attr:`ServerRules.failed_join_seconds`); so are
  the names an address registers for the daily (:attr:`ServerRules.registrations`);
- a connection that has not asked for a room (``create``, ``join``, ``rejoin``, ``daily``)
  :attr:`ServerRules.join_seconds` after it opened is closed;
- each client has its own queue of messages to send; a client that does not read fills it
  and is cut off, without holding anyone else up;
- at most :attr:`ServerRules.max_rooms` rooms are open, and
  :attr:`ServerRules.rooms_per_address` made from one address (not this computer's own,
  where every browser tab plays from); ``create`` beyond that is ``full`` (daily tries are
  not counted: each player has one a day).

An address is counted as :func:`address_key` says: an IPv6 address by its /64 network.

Told means stored: no message tells of a change before the change is committed. Every call
on the database runs on the store's own threads (:mod:`forage.net.patience`), never on the
event loop, so a lock held elsewhere or a database gone away slows only the actions that need
it; a call that fails is tried again until it works (the players waiting on it are told the
server is busy), and nobody is dropped from a room for the database's fault. With SQLite,
changes are stored in one transaction for all that were made while the last was being
stored, and each message waits for the batch holding its room's latest change. A new room
or daily try is stored before it is served. With PostgreSQL, shared by several servers,
each action is its own transaction on the room's locked row, and the servers pass each
other the messages for their players through the database (a table and NOTIFY;
:meth:`RoomServer._act`). The rooms' waits and idle times run as timers on the
event loop, calling :meth:`~forage.net.rooms.Room.tick` when each room's deadline comes;
servers sharing a database also tick, every :attr:`ServerRules.sweep_seconds`, the rooms
whose stored deadline has come, whichever server held them.

The online daily (``daily``) is a room of one on the day's deal (:mod:`forage.net.daily`);
``GET /daily/leaderboard``, ``/daily`` and ``/daily/record`` show its board.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import html
import ipaddress
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, Final, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from forage.engine import Deal
from forage.engine.deal import SEED_LIMIT
from forage.history.daily import parse_day
from forage.net import CLIENT_HEADER
from forage.net.bucket import Bucket
from forage.net.daily import (
    BOARD_PATH,
    PAGE_PATH,
    RECORD_PATH,
    Board,
    BoardError,
    board,
    board_page,
    daily_rules,
    day_of,
    is_over,
)
from forage.net.database import LISTENING, Conflict, StoreFault
from forage.net.forwarded import Proxies, arrival, is_local
from forage.net.patience import FaultLog, Patience, StoreThreads, persist
from forage.net.protocol import (
    CLOSING,
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_MESSAGE_BYTES,
    REPLACED,
    BadMessage,
    BusyOut,
    ClientMessage,
    CreateIn,
    DailyIn,
    EndOut,
    ErrorCode,
    ErrorOut,
    JoinIn,
    LeaveIn,
    PlaceIn,
    ProgressOut,
    RejoinIn,
    StartIn,
    TooLarge,
    TurnOut,
    chosen_token,
    error,
    message_text,
    name_key,
    new_token,
    read_client_message,
    room_code,
)
from forage.net.rooms import (
    Event,
    Kind,
    Phase,
    Room,
    RoomRules,
    StoredRoom,
    TryStarted,
    Update,
    token_hash,
)
from forage.net.store import DailyTry, RoomStore, Told, ToldAt

log: Final = logging.getLogger("forage.rooms")
T = TypeVar("T")

PATH: Final = "/play"
"""Where the websocket is served."""
ADDRESSES_KEPT: Final = 10_000
"""The most client addresses whose failed joins are counted at once (the oldest go first)."""
BOARDS_KEPT: Final = 8
"""How many days' boards a server keeps built."""
LONGEST_TIMER: Final = 600.0
"""The longest a room's timer is set for; one that goes off before the deadline is set again."""
TRY_AGAIN_LATER: Final = 1013
"""The close code of a connection whose action waited on the database for too long
(nothing was told of it): connect again and send it again."""
BUSY_TEXT: Final = (
    "the server's database is slow: what happens is told once it is stored (nothing to resend)"
)
GAVE_UP_TEXT: Final = "the server cannot store anything now: connect again in a moment"


def address_key(address: str) -> str:
    """What a client's limits are counted by: an IPv4 address, or an IPv6 address's /64
    network (one home or host holds a whole /64); anything else as it is."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found)


def new_code() -> str:
    """A fresh, unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class ServerRules:
    """The limits of a rooms server."""

    max_rooms: int = 1000
    rooms_per_address: int = 20
    """The most open rooms made from one client address (more ``create`` is ``full``)."""
    local_rooms_limited: bool = False
    """Whether :attr:`rooms_per_address` holds for this computer's own addresses too: not
    by default, as every browser tab of ``forage serve`` plays from it."""
    room: RoomRules = field(default_factory=RoomRules)
    queue_size: int = 256
    """Messages waiting to be sent to a client; one more cuts the client off."""
    burst: int = 40
    per_second: float = 20.0
    """A client may send ``burst`` messages at once, and ``per_second`` on average."""
    bytes_burst: int = 16 * MAX_MESSAGE_BYTES
    bytes_per_second: float = 32 * 1024
    """A client may send ``bytes_burst`` bytes at once, and ``bytes_per_second`` on average
    (the messages of a game are a few hundred bytes)."""
    failed_joins_per_connection: int = 5
    """A connection may fail to join this many times; the next failure is ``rate``."""
    failed_joins: int = 60
    failed_join_seconds: float = 600.0
    """An address may fail to join ``failed_joins`` times, one more each of these periods:
    far more than a household's players mistype, far fewer than finding a room by guessing
    its code takes (one in 600 million tries with 1000 rooms open)."""
    join_seconds: float = 30.0
    """A connection that has not asked for a room this long after it opened is closed (a
    player's game connects as it creates or joins)."""
    registrations: int = 10
    registration_seconds: float = 3600.0
    """An address may register ``registrations`` names for the daily, one more each of these
    periods."""
    sweep_seconds: float = 2.0
    """How often a server sharing its database looks for rooms whose deadline has come."""
    dead_seconds: float = 10.0
    """A server sharing the database that has not said it is running for this long has
    stopped: the rooms wait for its players."""
    heartbeat: float = 20.0
    """Seconds between pings; a client that does not answer within half of it is gone."""
    close_seconds: float = 5.0
    """How long a closing connection has to take its last messages."""
    patience: Patience = field(default_factory=Patience)
    """How long the database is waited for, and when players are told it is slow."""
    proxies: Proxies = field(default_factory=Proxies)
    """The reverse proxies whose ``X-Forwarded-*`` headers are believed
    (:mod:`forage.net.forwarded`): the limits then count the forwarded client."""


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
    """What the client's address limits are counted by (:func:`address_key`)."""
    local: bool
    """Whether the client connects from this computer."""
    bucket: Bucket
    """The messages the client may still send."""
    budget: Bucket
    """The bytes the client may still send."""
    queue: asyncio.Queue[str | None]
    room: str | None = None
    player: int | None = None
    closing: bool = False
    close_code: int = WSCloseCode.OK
    writer: asyncio.Task[None] | None = None
    ending: asyncio.Future[None] | None = None
    """The closing of the connection, once begun."""
    failed: int = 0
    """How many times the client has failed to join."""
    asked: bool = False
    """Whether the client has asked for a place in a room (create, join, rejoin, daily)."""


class PerAddress:
    """A token bucket for each client address (the most recent :data:`ADDRESSES_KEPT`)."""

    def __init__(self, capacity: int, seconds: float) -> None:
        """``capacity`` at once from one address, one more each ``seconds / capacity``."""
        self.capacity = capacity
        self.rate = capacity / seconds
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def spent(self, address: str, now: float) -> bool:
        """Whether the address has nothing left (nothing taken)."""
        bucket = self._buckets.get(address)
        return bucket is not None and bucket.empty(now)

    def take(self, address: str, now: float) -> bool:
        """Take one for the address if it has one left; whether it had."""
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = Bucket.full(self.capacity, self.rate, now)
        self._buckets[address] = bucket
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        return bucket.take(now)


@dataclass(frozen=True)
class Shown:
    """A day's board as built, its JSON, and how many of the day's tries had ended."""

    board: Board
    text: str
    ended: int


Action = Callable[[Room], Update]
"""Something done to a room: one of :class:`~forage.net.rooms.Room`'s actions."""


@dataclass(frozen=True)
class Acted:
    """A room and what an action on it did (with a shared database, the messages that other
    servers stored for this server's players before it, to pass on first)."""

    room: Room
    update: Update
    caught: tuple[ToldAt, ...] = ()


@dataclass(frozen=True)
class Waiting:
    """A message for a client that waits until the batch ``after`` is stored."""

    after: int
    client: Client
    text: str
    progress: bool


class RoomServer:
    """The rooms of one server, the clients playing in them, and the store behind them.

    With SQLite the rooms in memory are the truth, and their changes are stored in batches
    (:meth:`_store_changes`) before any message telling of them goes out. With a shared
    database (PostgreSQL) they are copies: each action runs in a transaction that holds the
    room's row, takes the room again from the database if another server changed it, stores
    the change and tells the other servers (:meth:`_act`).
    """

    def __init__(
        self,
        store: RoomStore,
        rules: ServerRules | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """A server of rooms kept in ``store``; ``clock`` gives the time in seconds since the
        epoch (the servers sharing a database share their times, and the daily's day is
        the UTC date of it)."""
        self.store = store
        self.rules = rules or ServerRules()
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self.seats: dict[tuple[str, int], Client] = {}
        self.clients: set[Client] = set()
        self.threads = StoreThreads(store.db.writers)
        """Where the store's calls run."""
        self.faults = FaultLog()
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        """Each room's timer, and the deadline it is set for."""
        self._changes: list[tuple[str, Sequence[Event]]] = []
        """Changes of rooms not yet taken to be stored (one server)."""
        self._taken = 0
        """How many batches of changes have been taken to be stored."""
        self._stored = 0
        """How many batches of changes are stored (in order)."""
        self._batch_of: dict[str, int] = {}
        """The batch holding each room's latest change."""
        self._waiting: list[Waiting | None] = []
        """Messages waiting for their batch to be stored, in the order sent."""
        self._progress_at: dict[Client, int] = {}
        """Where each client's ``progress`` waits (dropped if news follows it)."""
        self._wake = asyncio.Event()
        """Set when there are changes to store."""
        self._released = asyncio.Event()
        """Set each time a batch is stored."""
        self._storing: asyncio.Task[None] | None = None
        self._serials: dict[str, tuple[asyncio.Lock, int]] = {}
        """A lock for each room acted on, and how many hold or wait for it."""
        self._stopping = False
        """The server is stopping: connections that end leave their rooms as stored."""
        rules_ = self.rules
        self._failed = PerAddress(rules_.failed_joins, rules_.failed_join_seconds)
        self._registered = PerAddress(rules_.registrations, rules_.registration_seconds)
        self._guard: Callable[[web.Request], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._boards: dict[date, Shown] = {}
        """The boards last built, by day."""
        self._secret = secrets.token_bytes(32)
        """What this server signs its browser tabs' addresses with (:meth:`vouch`)."""
        self._maker: dict[str, str] = {}
        """The client address each room in memory was made from (to limit them)."""
        self._told: dict[str, int] = {}
        """A shared database: for each room with players connected here, the last version
        whose messages for them from other servers have been passed on."""

    # -- the application ----------------------------------------------------------------------

    def vouch(self, address: str) -> str:
        """What a browser tab's game gives to be counted as its browser's ``address``: the
        address and this server's signature of it (:data:`~forage.net.CLIENT_HEADER`)."""
        signature = hmac.new(self._secret, address.encode(), hashlib.sha256).hexdigest()
        return f"{address} {signature}"

    def vouched(self, text: str) -> str | None:
        """The address a voucher of this server names, or None if it is not one."""
        address, _, _ = text.partition(" ")
        signed = self.vouch(address).encode()
        return address if address and hmac.compare_digest(text.encode(), signed) else None

    def attach(
        self, app: web.Application, guard: Callable[[web.Request], None] | None = None
    ) -> None:
        """Serve ``/play`` and the daily's leaderboard on an application; ``guard`` may refuse
        a request by raising an HTTP error (as the page's Host and Origin checks do). Live
        rooms are read from the store when the application starts."""
        self._guard = guard
        app.router.add_get(PATH, self.handle)
        app.router.add_get(BOARD_PATH, self.handle_board)
        app.router.add_get(PAGE_PATH, self.handle_page)
        app.router.add_get(RECORD_PATH, self.handle_record)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        app.on_cleanup.append(self._on_cleanup)

    async def _on_startup(self, app: web.Application) -> None:
        self.start()

    def start(self) -> None:
        """Begin serving: one server reads back its live rooms; a server sharing its
        database says it is running and starts listening to the others."""
        self._storing = asyncio.get_running_loop().create_task(self._store_changes())
        if not self.store.shared:
            self.load()
            return
        self._spawn(self._listen())
        self._spawn(self._sweep())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run work on the event loop, kept until it ends (cancelled when the server stops)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_shutdown(self, app: web.Application) -> None:
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self.store.shared:  # the other servers wait for this one's players from now
            with contextlib.suppress(StoreFault):
                await self.threads.write(self.store.seen, 0.0)
        await asyncio.gather(
            *(self._close(c, WSCloseCode.GOING_AWAY) for c in list(self.clients)),
            return_exceptions=True,
        )
        await self._drained(self.rules.close_seconds)

    async def _on_cleanup(self, app: web.Application) -> None:
        if self._storing is not None:
            self._storing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._storing
        await asyncio.get_running_loop().run_in_executor(None, self.threads.close)
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
                room = Room.restore(stored, now, self._rules_of(stored))
            except ValueError as exc:
                log.warning("forage serve: %s", exc)
                continue
            self.rooms[room.code] = room
            update = room.tick(now)
            self._record(room.code, update.events)
            self._deliver(Acted(room, update))
        return len(found.rooms)

    def _rules_of(self, stored: StoredRoom) -> RoomRules:
        """The rules a stored room lives by: a daily try's close with its day."""
        if stored.kind is Kind.DAILY and stored.day is not None:
            return daily_rules(self.rules.room, stored.day)
        return self.rules.room

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
        rules, now = self.rules, self.clock()
        came = arrival(request.remote or "", request.scheme, request.headers, rules.proxies)
        remote = came.client
        if came.local:  # a browser tab's game of this server: its browser's address
            remote = self.vouched(request.headers.get(CLIENT_HEADER, "")) or remote
        client = Client(
            socket=socket,
            transport=request.transport,
            address=address_key(remote),
            local=is_local(remote),
            bucket=Bucket.full(rules.burst, rules.per_second, now),
            budget=Bucket.full(rules.bytes_burst, rules.bytes_per_second, now),
            queue=asyncio.Queue(rules.queue_size),
        )
        client.writer = asyncio.create_task(self._write(client))
        self.clients.add(client)
        waiting = asyncio.get_running_loop().call_later(rules.join_seconds, self._unjoined, client)
        try:
            await self._read(client)
        finally:
            waiting.cancel()
            try:
                await self._gone(client)
            finally:
                await self._close(client, client.close_code)
                self.clients.discard(client)
        return socket

    def _unjoined(self, client: Client) -> None:
        """Close a connection that has not asked for a place in a room since it opened."""
        if not client.asked and not client.closing:
            client.closing = True
            self._spawn(self._close(client, WSCloseCode.POLICY_VIOLATION))

    async def _read(self, client: Client) -> None:
        async for message in client.socket:
            if client.closing:
                return
            now = self.clock()
            if not client.bucket.take(now):
                self._fatal(client, ErrorCode.RATE, "too many messages: slow down")
                return
            data = message.data
            if isinstance(data, bytes | str) and not client.budget.take(now, len(data)):
                self._fatal(client, ErrorCode.RATE, "too much sent: slow down")
                return
            if message.type is WSMsgType.TEXT:
                await self._on_text(client, message.data)
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
        """Close a connection (once: a second call waits for the first, whose code holds)."""
        if client.ending is None:
            client.ending = asyncio.ensure_future(self._end(client, code))
        await asyncio.shield(client.ending)

    async def _end(self, client: Client, code: int) -> None:
        """Let what the client is told wait for its changes to be stored (for a while), let
        the writer send what is queued, then close the connection."""
        if any(w is not None and w.client is client for w in self._waiting):
            await self._drained(self.rules.close_seconds)
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

    def _send(
        self,
        client: Client,
        text: str,
        *,
        after: int = 0,
        progress: bool = False,
        news: bool = False,
    ) -> None:
        """Send a message to a client once the batch ``after`` (holding the changes it
        tells of) is stored: at once if it is.

        ``news`` (a ``progress``, a call or the end) drops the client's ``progress`` still
        waiting, which it makes out of date; ``progress``: this is one.
        """
        if client.closing:
            return
        if after <= self._stored:
            self._queue(client, text)
            return
        if news:
            waiting = self._progress_at.pop(client, None)
            if waiting is not None:
                self._waiting[waiting] = None
        if progress:
            self._progress_at[client] = len(self._waiting)
        self._waiting.append(Waiting(after, client, text, progress))

    def _queue(self, client: Client, text: str) -> None:
        """Give a message to the client's writer; a client whose queue is full is cut off."""
        if client.closing or client.writer is None or client.writer.done():
            return
        try:
            client.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("forage serve: cut off a client that does not read (%s)", client.address)
            self._cut(client)

    def _release(self) -> None:
        """Send the waiting messages whose changes are now stored."""
        waiting, self._waiting = self._waiting, []
        self._progress_at.clear()
        for item in waiting:
            if item is None:
                continue
            if item.after <= self._stored:
                self._queue(item.client, item.text)
                continue
            if item.progress:
                self._progress_at[item.client] = len(self._waiting)
            self._waiting.append(item)
        self._released.set()

    def _record(self, code: str, events: Sequence[Event]) -> None:
        """Keep a room's changes (one server), to be stored with the next batch."""
        if not events:
            return
        self._changes.append((code, events))
        self._batch_of[code] = self._taken + 1
        self._wake.set()

    async def _store_changes(self) -> None:
        """Store the rooms' changes (one server), each batch in one transaction, in order,
        until they are stored; then send what waited for them."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._changes:
                changes, self._changes = self._changes, []
                self._taken += 1
                try:
                    await self._store_batch(changes)
                except StoreFault as exc:  # only while stopping: nothing told of them
                    log.error("forage serve: %d changes not stored (%s)", len(changes), exc)
                    self._waiting = [w for w in self._waiting if w and w.after > self._taken]
                self._stored = self._taken
                self._release()
                for code in [c for c, n in self._batch_of.items() if n <= self._stored]:
                    del self._batch_of[code]

    async def _store_batch(self, changes: list[tuple[str, Sequence[Event]]]) -> None:
        """Store a batch of changes, tried until it is; a room whose changes can never be
        stored (a key written meanwhile) is given up and the others stored."""

        def attempt(part: list[tuple[str, Sequence[Event]]]) -> Awaitable[None]:
            return self.threads.write(self.store.apply_all, part)

        try:
            await persist(
                functools.partial(attempt, changes),
                self.faults,
                self.rules.patience,
                busy=self._busy_waiting,
                forever=True,
                stopping=lambda: self._stopping,
            )
            return
        except Conflict:
            pass
        for code, events in changes:
            try:
                await persist(
                    functools.partial(attempt, [(code, events)]),
                    self.faults,
                    self.rules.patience,
                    forever=True,
                    stopping=lambda: self._stopping,
                )
            except Conflict as exc:
                log.error("forage serve: room %s: its changes cannot be stored (%s)", code, exc)
                self._lose(code)

    def _lose(self, code: str) -> None:
        """A room whose changes cannot be stored leaves memory; its players are told it is
        gone, and nothing of what it did since it was last stored."""
        room = self.rooms.pop(code, None)
        self._maker.pop(code, None)
        for key in [key for key in self.seats if key[0] == code]:
            client = self.seats[key]
            self._unbind(client)
            self._waiting = [w for w in self._waiting if w is None or w.client is not client]
            self._tell(client, ErrorCode.NO_ROOM, "your room could not be stored: make another")
        if room is not None:
            held = self._timers.pop(code, None)
            if held is not None:
                held[1].cancel()

    def _busy_waiting(self) -> None:
        """Tell each client whose messages wait for the batch being stored that it is slow."""
        told: set[Client] = set()
        for item in self._waiting:
            if item is not None and item.after <= self._taken and item.client not in told:
                told.add(item.client)
                self._busy(item.client)

    def _busy(self, client: Client) -> None:
        """Tell a client that what it sent waits on the database."""
        self._send(client, message_text(BusyOut(message=BUSY_TEXT)))

    async def _drained(self, seconds: float) -> None:
        """Wait (at most ``seconds``) until every change made so far is stored."""
        target = self._taken + (1 if self._changes else 0)

        async def stored() -> None:
            while self._stored < target:
                self._released.clear()
                await self._released.wait()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stored(), seconds)

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

    def _gave_up(self, client: Client) -> None:
        """The database did not answer an action for too long: nothing was told of it; the
        client is asked to connect again and send it again."""
        self._send(client, message_text(BusyOut(message=GAVE_UP_TEXT)))
        client.closing = True
        client.close_code = TRY_AGAIN_LATER

    async def _gone(self, client: Client) -> None:
        """A connection has ended: its room waits for the player."""
        code, player = client.room, client.player
        self._unbind(client)
        if self._stopping or code is None or player is None or (code, player) in self.seats:
            return
        now = self.clock()
        try:
            acted = await self._act(
                code,
                functools.partial(Room.disconnect, player=player, now=now),
                holder=(player, self.store.server),
            )
        except StoreFault as exc:  # another server waits for the player once this one stops
            log.error("forage serve: room %s: could not store a lost connection (%s)", code, exc)
            return
        if acted is not None:
            self._deliver(acted)

    # -- messages ---------------------------------------------------------------------------

    async def _on_text(self, client: Client, text: bytes) -> None:
        try:
            message = read_client_message(text)
        except TooLarge as exc:
            self._fatal(client, ErrorCode.TOO_LARGE, str(exc))
            return
        except BadMessage as exc:
            self._tell(client, ErrorCode.BAD_MESSAGE, str(exc))
            return
        try:
            await self._dispatch(client, message)
        except StoreFault as exc:
            log.error("forage serve: gave up waiting for the database (%s)", exc)
            self._gave_up(client)

    async def _dispatch(self, client: Client, message: ClientMessage) -> None:
        if isinstance(message, CreateIn | JoinIn | RejoinIn | DailyIn):
            client.asked = True
            if client.room is not None:
                self._tell(
                    client, ErrorCode.BAD_MESSAGE, f"you are in room {client.room}: leave it first"
                )
            elif isinstance(message, CreateIn):
                await self._create(client, message)
            elif isinstance(message, DailyIn):
                await self._daily(client, message)
            else:
                await self._join(client, message)
            return
        code, player = client.room, client.player
        if code is None or player is None:
            self._tell(client, ErrorCode.NO_ROOM, "you are not in a room: create or join one")
            return
        now = self.clock()
        action: Action
        if isinstance(message, StartIn):
            action = functools.partial(Room.start, player=player, now=now)
        elif isinstance(message, PlaceIn):
            action = functools.partial(Room.place, player=player, message=message, now=now)
        else:
            action = functools.partial(Room.leave, player=player, now=now)
        acted = await self._act(code, action, actor=player, client=client)
        if acted is None:
            self._unbind(client)
            self._tell(client, ErrorCode.NO_ROOM, "your room is no longer on this server")
            return
        self._deliver(acted)
        if isinstance(message, LeaveIn):
            self._unbind(client)

    async def _fresh_code(self) -> str:
        """A room code no room has had."""
        code = new_code()
        while code in self.rooms or await self.threads.read(self.store.knows, code):
            code = new_code()
        return code

    async def _create(self, client: Client, message: CreateIn) -> None:
        open_rooms = sum(
            1
            for room in list(self.rooms.values())
            if room.phase is not Phase.ENDED and room.kind is Kind.ROOM
        )
        if open_rooms >= self.rules.max_rooms:
            self._tell(
                client,
                ErrorCode.FULL,
                f"this server has {self.rules.max_rooms} rooms open, its most: try again later",
            )
            return
        most = self.rules.rooms_per_address
        limited = self.rules.local_rooms_limited or not client.local
        made = [self.rooms.get(code) for code, by in self._maker.items() if by == client.address]
        if limited and sum(1 for r in made if r is not None and r.phase is not Phase.ENDED) >= most:
            self._tell(
                client,
                ErrorCode.FULL,
                f"{most} rooms made from your address are open, the most: play or leave one first",
            )
            return
        seed = secrets.randbelow(SEED_LIMIT)
        deal = Deal.from_seed(seed, recipes=message.recipes, deck=message.deck)
        room, update = Room.create(
            await self._fresh_code(),
            deal,
            message.name,
            new_token(),
            self.clock(),
            deck=message.deck,
            seed=seed,
            rules=self.rules.room,
        )
        await self._open(client, room, update)
        self._maker[room.code] = client.address

    async def _open(self, client: Client, room: Room, update: Update) -> None:
        """A room just made, with the client its first player: stored before anyone is
        told, then served. Raises Conflict if another server stored a room of the same key
        meanwhile."""
        room.version = 1
        await self._persist(
            lambda: self.threads.write(
                self.store.open_room, room.code, update.events, room.active, room.deadline()
            ),
            client,
        )
        self.rooms[room.code] = room
        self._bind(client, room.code, 1)
        self._deliver(Acted(room, replace(update, events=[])))

    async def _persist(self, attempt: Callable[[], Awaitable[T]], client: Client | None) -> T:
        """An action's call on the store, tried until it works or the server gives up
        (StoreFault); ``client`` is told meanwhile that the server is slow."""
        return await persist(
            attempt,
            self.faults,
            self.rules.patience,
            busy=None if client is None else functools.partial(self._busy, client),
            stopping=lambda: self._stopping,
        )

    async def _join(self, client: Client, message: JoinIn | RejoinIn) -> None:
        now = self.clock()
        if self._failed.spent(client.address, now):
            self._fatal(client, ErrorCode.RATE, "too many failed joins from your address: wait")
            return
        code = room_code(message.room)
        if isinstance(message, JoinIn):
            token = new_token()
            action: Action = functools.partial(Room.join, name=message.name, token=token, now=now)
        else:
            action = functools.partial(Room.rejoin, token=message.token, now=now)
        acted = None if code is None else await self._act(code, action, taking=True, client=client)
        if acted is None:
            self._failed_join(client, ErrorCode.NO_ROOM, "no room has that code")
            return
        self._seat(client, acted)

    def _seat(self, client: Client, acted: Acted) -> None:
        """Give the client the place a join or rejoin took (or tell it the refusal)."""
        room, update = acted.room, acted.update
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
            self._spawn(self._close(earlier, REPLACED))
        self._bind(client, room.code, update.player)
        self._deliver(acted)

    def _failed_join(self, client: Client, code: ErrorCode, message: str) -> None:
        """Answer a failed join, counting it against the client's connection and address."""
        client.failed += 1
        if not self._failed.take(client.address, self.clock()):
            self._fatal(client, ErrorCode.RATE, "too many failed joins from your address: wait")
        elif client.failed > self.rules.failed_joins_per_connection:
            self._fatal(client, ErrorCode.RATE, "too many failed joins: check the code")
        else:
            self._tell(client, code, message)

    def _bind(self, client: Client, code: str, player: int) -> None:
        client.room, client.player = code, player
        self.seats[(code, player)] = client
        room = self.rooms.get(code)
        if self.store.shared and room is not None:
            self._told.setdefault(code, room.version)

    def _unbind(self, client: Client) -> None:
        room, player = client.room, client.player
        if room is not None and player is not None and self.seats.get((room, player)) is client:
            del self.seats[(room, player)]
            if not any(key[0] == room for key in self.seats):
                self._told.pop(room, None)
        client.room = client.player = None

    # -- the online daily ---------------------------------------------------------------------

    async def _daily(self, client: Client, message: DailyIn) -> None:
        """The day's try of a name: registered by its first daily, resumed while it lasts,
        ``played`` once it has ended."""
        now = self.clock()
        if self._failed.spent(client.address, now):
            self._fatal(client, ErrorCode.RATE, "too many failed joins from your address: wait")
            return
        store = self.store
        key = name_key(message.name)
        known = await self._persist(lambda: self.threads.write(store.registered, key), client)
        if known is None:
            if not self._registered.take(client.address, now):
                self._fatal(client, ErrorCode.RATE, "too many names registered from here: wait")
                return
            chosen = message.token
            token = chosen if chosen is not None and chosen_token(chosen) else new_token()
            hashed = token_hash(token)
            added = await self._persist(
                lambda: self.threads.write(store.register, key, message.name, hashed), client
            )
            if not added:  # registered meanwhile, elsewhere
                known = await self._persist(
                    lambda: self.threads.write(store.registered, key), client
                )
        if known is not None:
            if message.token is None or token_hash(message.token) != known.token:
                self._failed_join(
                    client,
                    ErrorCode.NAME_TAKEN,
                    f"the name {message.name!r} is registered: give its token, or choose another",
                )
                return
            token, name, key = message.token, known.name, known.key
        else:
            name = message.name
        day = day_of(now)
        for _ in range(2):  # a second time if another server began the try meanwhile
            found = await self._persist(
                lambda: self.threads.write(store.daily_try, day, key), client
            )
            if found is not None:
                await self._resume(client, found, token, now)
                return
            with contextlib.suppress(Conflict):
                await self._begin_try(client, day, key, name, token, now)
                return
        self._tell(client, ErrorCode.PLAYED, "today's try could not be found: try again")

    async def _resume(self, client: Client, found: DailyTry, token: str, now: float) -> None:
        """Take a player back to their try, or tell them they have played."""
        if found.ended:
            self._tell(
                client,
                ErrorCode.PLAYED,
                f"you have played today's daily: see the board at {PAGE_PATH}",
            )
            return
        rejoin = functools.partial(Room.rejoin, token=token, now=now)
        acted = await self._act(found.room, rejoin, taking=True, client=client)
        if acted is None:
            self._tell(client, ErrorCode.NO_ROOM, "today's try cannot be read: try later")
            return
        self._seat(client, acted)

    async def _begin_try(
        self, client: Client, day: date, key: str, name: str, token: str, now: float
    ) -> None:
        """A player's try at the day's deal, dealt at once; raises Conflict if another
        server began it meanwhile."""
        dealt = await self._persist(lambda: self.threads.write(self.store.day_deal, day), client)
        room, update = Room.create(
            await self._fresh_code(),
            dealt.deal,
            name,
            token,
            now,
            kind=Kind.DAILY,
            rules=daily_rules(self.rules.room, day),
        )
        started = room.start(1, now)
        update.events.extend([*started.events, TryStarted(day, key)])
        update.sends.extend(started.sends)
        await self._open(client, room, update)

    # -- a room's changes -------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _serial(self, code: str) -> AsyncIterator[None]:
        """Hold a room's lock: this server acts on a room one action at a time."""
        lock, users = self._serials.get(code, (asyncio.Lock(), 0))
        self._serials[code] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._serials[code]
            if users == 1:
                del self._serials[code]
            else:
                self._serials[code] = (lock, users - 1)

    async def _act(
        self,
        code: str,
        action: Action,
        *,
        actor: int | None = None,
        taking: bool = False,
        holder: tuple[int, str] | None = None,
        client: Client | None = None,
    ) -> Acted | None:
        """Do an action on a room and keep what it changed; None if there is no such room.

        One server: the room in memory, its changes stored with the next batch (its messages
        wait for it). A shared database: in one transaction holding the room's row, the room
        taken again if its stored version moved; its changes, its new version and the
        messages for players connected to other servers stored, and the servers told,
        tried until the database answers (``client``, the one acting, told meanwhile that
        it is slow; StoreFault once the server gives up). The messages for ``actor`` (the
        player acting from here) are sent here; ``taking``: the client acting takes the
        place the action gives (a join). ``holder``: do it only while that player's
        connection is held by that server.
        """
        if not self.store.shared:
            room = self.rooms.get(code)
            if room is None:
                return None
            update = action(room)
            self._record(code, update.events)
            return Acted(room, update)
        async with self._serial(code):
            attempt = functools.partial(
                self.threads.write, self._act_shared, code, action, actor, taking, holder
            )
            acted = await self._persist(attempt, client)
            if acted is not None:
                self._pass_on(code, acted.caught, acted.room.version)
            return acted

    def _act_shared(
        self,
        code: str,
        action: Action,
        actor: int | None,
        taking: bool,
        holder: tuple[int, str] | None,
    ) -> Acted | None:
        """:meth:`_act` on a shared database, on a store thread (one action of a room at a
        time); the room's copy in memory is forgotten if the transaction fails."""
        try:
            store = self.store
            with store.locked(code) as version:
                if version is None:
                    return None
                if holder is not None and store.holders(code).get(holder[0]) != holder[1]:
                    return None  # the player's connection is held elsewhere now
                caught = self._told_since(code, version)
                room = self.rooms.get(code)
                if room is None or room.version != version:
                    room = self._reload(code)
                    if room is None:
                        return None
                update = action(room)
                if not update.events and not update.sends:
                    return Acted(room, update, caught)
                if update.events:
                    room.version = version + 1
                    store.write(code, update.events)
                    store.set_state(code, room.version, room.active, room.deadline())
                mine = {actor, *((update.player, 0) if taking else ())}
                others = [send for send in update.sends if send.to not in mine]
                holders = store.holders(code) if others else {}
                elsewhere = [
                    Told(send.to, message_text(send.message), other)
                    for send in others
                    if (other := holders.get(send.to)) is not None and other != store.server
                ]
                here = [
                    send
                    for send in update.sends
                    if send.to in mine or holders.get(send.to) == store.server
                ]
                if elsewhere:
                    store.tell(code, room.version, elsewhere, self.clock())
            return Acted(room, replace(update, sends=here), caught)
        except StoreFault:
            self.rooms.pop(code, None)  # the copy may have gone further than the database
            raise

    def _reload(self, code: str) -> Room | None:
        """A room as the database has it (another server changed it)."""
        try:
            stored = self.store.room(code)
            if stored is None:
                return None
            room = Room.restore(stored, self.clock(), self._rules_of(stored), as_stored=True)
        except ValueError as exc:
            log.warning("forage serve: %s", exc)
            return None
        self.rooms[code] = room
        return room

    def _deliver(self, acted: Acted) -> None:
        """Send an update's messages to the players connected here (once the changes are
        stored), and set the room's next timer or forget an ended room."""
        room, update = acted.room, acted.update
        after = self._batch_of.get(room.code, 0)
        texts: dict[int, str] = {}
        for send in update.sends:
            client = self.seats.get((room.code, send.to))
            if client is not None:
                message = send.message
                key = id(message)
                text = texts.get(key)
                if text is None:
                    text = texts[key] = message_text(message)
                progress = isinstance(message, ProgressOut)
                news = progress or isinstance(message, TurnOut | EndOut)
                self._send(client, text, after=after, progress=progress, news=news)
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
        delay = min(max(0.0, deadline - self.clock()), LONGEST_TIMER)
        handle = asyncio.get_running_loop().call_later(delay, self._tick, room.code)
        self._timers[room.code] = (deadline, handle)

    def _tick(self, code: str) -> None:
        self._timers.pop(code, None)
        self._spawn(self._tick_room(code))

    async def _tick_room(self, code: str) -> None:
        """What the time does to a room (any server may do it: it is the same once done)."""
        now = self.clock()
        try:
            acted = await self._act(code, functools.partial(Room.tick, now=now))
        except StoreFault as exc:  # the sweep comes back to it
            log.error("forage serve: room %s: could not store what the time did (%s)", code, exc)
            return
        if acted is not None:
            self._deliver(acted)

    def _forget(self, room: Room) -> None:
        """An ended room leaves memory (its results stay stored); its clients stay connected."""
        self.rooms.pop(room.code, None)
        self._maker.pop(room.code, None)
        held = self._timers.pop(room.code, None)
        if held is not None:
            held[1].cancel()
        for key in [key for key in self.seats if key[0] == room.code]:
            self._unbind(self.seats[key])

    # -- servers sharing a database -------------------------------------------------------------

    async def _listen(self) -> None:
        """Pass on to the players connected here what other servers' actions told them;
        listen again a moment after the connection fails, passing on what was told
        meanwhile."""
        while not self._stopping:
            try:
                async for payload in self.store.notifications():
                    if payload == LISTENING:
                        for code in list(self._told):
                            self._spawn(self._catch_up(code))
                    else:
                        self._on_notice(payload)
            except StoreFault as exc:
                self.faults.failed(exc)
            await asyncio.sleep(1.0)

    def _on_notice(self, payload: str) -> None:
        code, _, version = payload.partition(" ")
        if code in self._told and version.isdigit():
            self._spawn(self._catch_up(code, int(version)))

    async def _catch_up(self, code: str, version: int | None = None) -> None:
        """Pass on the messages other servers stored for the room's players connected here
        since the last passed on (up to at least ``version``, the room's version now known
        to be stored)."""
        async with self._serial(code):
            since = self._told.get(code)
            if since is None or (version is not None and version <= since):
                return
            try:
                stored = await self.threads.read(self.store.told_since, code, since)
            except StoreFault as exc:
                self.faults.failed(exc)
                return
            self._pass_on(code, stored, version)

    def _told_since(self, code: str, version: int) -> tuple[ToldAt, ...]:
        """The messages other servers stored for the room's players connected here after
        those passed on, if the room's stored ``version`` is past them (on a store thread)."""
        since = self._told.get(code)
        if since is None or version <= since:
            return ()
        return tuple(self.store.told_since(code, since))

    def _pass_on(self, code: str, stored: Sequence[ToldAt], version: int | None) -> None:
        """Send the messages other servers stored for players connected here, and note the
        room's version up to which they are passed on."""
        since = self._told.get(code)
        if since is None:
            return
        for message in stored:
            if message.version <= since:
                continue
            client = self.seats.get((code, message.told.player))
            if client is not None:
                self._send(client, message.told.text)
        latest = max((message.version for message in stored), default=since)
        self._told[code] = max(latest, since if version is None else version)

    async def _sweep(self) -> None:
        """Now and then: say this server is running, do what the time does to rooms whose
        deadline has come (whichever server last held them), wait for the players of
        servers that have stopped, and drop old messages."""
        while not self._stopping:
            try:
                await self._sweep_once()
            except StoreFault as exc:
                self.faults.failed(exc)
            await asyncio.sleep(self.rules.sweep_seconds)

    async def _sweep_once(self) -> None:
        now = self.clock()
        store, write = self.store, self.threads.write
        await write(store.seen, now)
        self.faults.worked()
        for code in await write(store.due_rooms, now):
            await self._tick_room(code)
        for server in await write(store.dead_servers, now - self.rules.dead_seconds):
            for code, player in await write(store.held_by, server):
                drop = functools.partial(Room.disconnect, player=player, now=now)
                acted = await self._act(code, drop, holder=(player, server))
                if acted is not None:
                    self._deliver(acted)
            await write(store.drop_server, server)
        await write(store.forget_told, now - self.rules.dead_seconds)

    # -- the daily's leaderboard over HTTP ------------------------------------------------------

    def _asked_day(self, request: web.Request) -> date | None:
        """The day a request asks for (today by default); None if it is not a date."""
        if self._guard is not None:
            self._guard(request)
        text = request.query.get("date")
        if text is None:
            return day_of(self.clock())
        try:
            return parse_day(text)
        except ValueError:
            return None

    async def board(self, day: date) -> Shown:
        """A day's leaderboard (once the day is over, with its deal and the records), and its
        JSON; built again only when a try of the day has ended since."""
        over = is_over(day, self.clock())
        read, store = self.threads.read, self.store
        ended = await read(store.ended_tries, day)
        held = self._boards.get(day)
        if held is not None and (held.ended, held.board.over) == (ended, over):
            return held
        deal = await read(store.past_deal, day) if over else None
        made = board(day, await read(store.finished, day), over, deal)
        shown = Shown(made, made.model_dump_json(exclude_none=True), ended)
        self._boards[day] = shown
        while len(self._boards) > BOARDS_KEPT:
            del self._boards[next(iter(self._boards))]
        return shown

    async def handle_board(self, request: web.Request) -> web.Response:
        """``GET /daily/leaderboard[?date=YYYY-MM-DD]``: the board as JSON; a bad date is 400."""
        day = self._asked_day(request)
        if day is None:
            return _json_error(400, f"not a date: {_shown_date(request)} (expected YYYY-MM-DD)")
        try:
            shown = await self.board(day)
        except StoreFault as exc:
            log.error("forage serve: could not read the leaderboard (%s)", exc)
            return _json_error(503, "the leaderboard cannot be read now: try later")
        return web.Response(text=shown.text, content_type="application/json")

    async def handle_page(self, request: web.Request) -> web.Response:
        """``GET /daily``: the board as a web page (no script; names escaped)."""
        day = self._asked_day(request)
        if day is None:
            text = f"<!doctype html><p>Not a date: {html.escape(_shown_date(request))}</p>"
            return web.Response(status=400, text=text, content_type="text/html")
        try:
            shown = await self.board(day)
        except StoreFault as exc:
            log.error("forage serve: could not read the leaderboard (%s)", exc)
            return web.Response(status=503, text="<!doctype html><p>Try later.</p>")
        page = board_page(shown.board, day_of(self.clock()))
        return web.Response(text=page, content_type="text/html")

    async def handle_record(self, request: web.Request) -> web.Response:
        """``GET /daily/record?date=D&name=N``: a try's game record, once its day is over."""
        day = self._asked_day(request)
        name = request.query.get("name", "")
        if day is None:
            return _json_error(400, f"not a date: {_shown_date(request)} (expected YYYY-MM-DD)")
        if not is_over(day, self.clock()):
            return _json_error(404, f"the records of {day} are published once the day is over")
        try:
            record = await self.threads.read(self.store.daily_record, day, name_key(name))
        except StoreFault as exc:
            log.error("forage serve: could not read a record (%s)", exc)
            return _json_error(503, "the record cannot be read now: try later")
        if record is None:
            return _json_error(404, f"no try of {day} ended under that name")
        return web.json_response(record)


def _shown_date(request: web.Request) -> str:
    """The date a request gave, as an error echoes it (quoted, at most 30 characters)."""
    text = json.dumps(request.query.get("date", ""), ensure_ascii=True)
    return text if len(text) <= 30 else text[:27] + "..."


def _json_error(status: int, message: str) -> web.Response:
    """An HTTP error whose body is one line of JSON, ``{"error": ...}``."""
    text = BoardError(error=message).model_dump_json()
    return web.Response(status=status, text=text, content_type="application/json")


def add_rooms(
    app: web.Application,
    *,
    folder: Path | None = None,
    url: str | None = None,
    rules: ServerRules | None = None,
    guard: Callable[[web.Request], None] | None = None,
    clock: Callable[[], float] = time.time,
) -> RoomServer:
    """Serve rooms at ``/play`` on an application, stored in PostgreSQL at ``url`` or else
    in ``folder`` (the data folder by default); raises
    :class:`~forage.net.store.StoreError` if the store cannot be opened."""
    server = RoomServer(RoomStore.open(folder, url), rules, clock)
    server.attach(app, guard)
    return server
