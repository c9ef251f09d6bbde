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
  another token) are limited per client address: past :attr:`ServerRules.failed_joins` in
  :attr:`ServerRules.failed_join_seconds`, ``rate`` and closed; so are the names an
  address registers for the daily (:attr:`ServerRules.registrations`);
- each client has its own queue of messages to send; a client that does not read fills it
  and is cut off, without holding anyone else up;
- at most :attr:`ServerRules.max_rooms` rooms are open, and
  :attr:`ServerRules.rooms_per_address` made from one address (not this computer's own,
  where every browser tab plays from); ``create`` beyond that is ``full`` (daily tries are
  not counted: each player has one a day).

An address is counted as :func:`address_key` says: an IPv6 address by its /64 network.

With SQLite, changes are stored in one transaction for all the messages read in one turn
of the event loop, before any message telling of them is sent. With PostgreSQL, shared by
several servers, each action is its own transaction on the room's locked row, and the
servers pass each other the messages for their players through the database (a table and
NOTIFY; :meth:`RoomServer._act`). The rooms' waits and idle times run as timers on the
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Final

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
from forage.net.protocol import (
    CLOSING,
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_MESSAGE_BYTES,
    REPLACED,
    BadMessage,
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
from forage.net.store import DailyTry, RoomStore, Told

log: Final = logging.getLogger("forage.rooms")

PATH: Final = "/play"
"""Where the websocket is served."""
ADDRESSES_KEPT: Final = 10_000
"""The most client addresses whose failed joins are counted at once (the oldest go first)."""
BOARDS_KEPT: Final = 8
"""How many days' boards a server keeps built."""
LONGEST_TIMER: Final = 600.0
"""The longest a room's timer is set for; one that goes off before the deadline is set again."""


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
    failed_joins: int = 10
    failed_join_seconds: float = 60.0
    """An address may fail to join ``failed_joins`` times, one more each of these periods."""
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
    """A room and what an action on it did."""

    room: Room
    update: Update


class RoomServer:
    """The rooms of one server, the clients playing in them, and the store behind them.

    With SQLite the rooms in memory are the truth and are stored at each flush. With a
    shared database (PostgreSQL) they are copies: each action runs in a transaction that
    holds the room's row, takes the room again from the database if another server changed
    it, stores the change and tells the other servers (:meth:`_act`).
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
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        """Each room's timer, and the deadline it is set for."""
        self._changes: list[tuple[str, Sequence[Event]]] = []
        self._outbox: list[tuple[Client, str] | None] = []
        self._progress_at: dict[Client, int] = {}
        """Where each client's ``progress`` waits in the outbox (dropped if news follows it)."""
        self._flushing = False
        self._stopping = False
        """The server is stopping: connections that end leave their rooms as stored."""
        rules_ = self.rules
        self._failed = PerAddress(rules_.failed_joins, rules_.failed_join_seconds)
        self._registered = PerAddress(rules_.registrations, rules_.registration_seconds)
        self._guard: Callable[[web.Request], None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
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
        if not self.store.shared:
            self.load()
            return
        self.store.seen(self.clock())
        self._tasks = [
            asyncio.get_running_loop().create_task(self._listen()),
            asyncio.get_running_loop().create_task(self._sweep()),
        ]

    async def _on_shutdown(self, app: web.Application) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self.store.shared:  # the other servers wait for this one's players from now
            with contextlib.suppress(StoreFault):
                self.store.seen(0.0)
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
                room = Room.restore(stored, now, self._rules_of(stored))
            except ValueError as exc:
                log.warning("forage serve: %s", exc)
                continue
            self.rooms[room.code] = room
            self._commit(room, room.tick(now))
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
            now = self.clock()
            if not client.bucket.take(now):
                self._fatal(client, ErrorCode.RATE, "too many messages: slow down")
                return
            data = message.data
            if isinstance(data, bytes | str) and not client.budget.take(now, len(data)):
                self._fatal(client, ErrorCode.RATE, "too much sent: slow down")
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

    def _send(
        self, client: Client, text: str, *, progress: bool = False, news: bool = False
    ) -> None:
        """Send a message to a client, once what came before it is stored (:meth:`_flush`).

        ``news`` (a ``progress``, a call or the end) drops the client's ``progress`` still
        waiting in the outbox, which it makes out of date; ``progress``: this is one.
        """
        if client.closing:
            return
        if news:
            waiting = self._progress_at.pop(client, None)
            if waiting is not None:
                self._outbox[waiting] = None
        if progress:
            self._progress_at[client] = len(self._outbox)
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
        self._progress_at.clear()
        if changes:
            try:
                self.store.apply_all(changes)
            except StoreFault as exc:
                log.error("forage serve: could not store the rooms' changes (%s)", exc)
        for sent in outbox:
            if sent is None:
                continue
            client, text = sent
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
        code, player = client.room, client.player
        self._unbind(client)
        if self._stopping or code is None or player is None or (code, player) in self.seats:
            return
        now = self.clock()
        acted = self._act(
            code,
            functools.partial(Room.disconnect, player=player, now=now),
            holder=(player, self.store.server),
        )
        if acted is not None:
            self._deliver(acted)

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
        try:
            self._dispatch(client, message)
        except StoreFault as exc:
            log.error("forage serve: the store failed (%s)", exc)
            self._fatal(client, ErrorCode.RATE, "the server cannot store anything now: try later")

    def _dispatch(self, client: Client, message: ClientMessage) -> None:
        if isinstance(message, CreateIn | JoinIn | RejoinIn | DailyIn):
            if client.room is not None:
                self._tell(
                    client, ErrorCode.BAD_MESSAGE, f"you are in room {client.room}: leave it first"
                )
            elif isinstance(message, CreateIn):
                self._create(client, message)
            elif isinstance(message, DailyIn):
                self._daily(client, message)
            else:
                self._join(client, message)
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
        acted = self._act(code, action, actor=player)
        if acted is None:
            self._unbind(client)
            self._tell(client, ErrorCode.NO_ROOM, "your room is no longer on this server")
            return
        self._deliver(acted)
        if isinstance(message, LeaveIn):
            self._unbind(client)

    def _fresh_code(self) -> str:
        """A room code no room has had."""
        code = new_code()
        while code in self.rooms or self.store.knows(code):
            code = new_code()
        return code

    def _create(self, client: Client, message: CreateIn) -> None:
        open_rooms = sum(
            1
            for room in self.rooms.values()
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
            self._fresh_code(),
            deal,
            message.name,
            new_token(),
            self.clock(),
            deck=message.deck,
            seed=seed,
            rules=self.rules.room,
        )
        self._open(client, room, update)
        self._maker[room.code] = client.address

    def _open(self, client: Client, room: Room, update: Update) -> None:
        """A room just made, with the client its first player: stored before anyone is
        told (at once), then served. Raises Conflict if another server stored a room of
        the same key meanwhile."""
        if self.store.shared:
            with self.store.db.transaction():
                self.store.write(room.code, update.events)
                room.version = 1
                self.store.set_state(room.code, room.version, room.active, room.deadline())
        else:
            self._changes.append((room.code, update.events))
            self._flush()
        self.rooms[room.code] = room
        self._bind(client, room.code, 1)
        self._deliver(Acted(room, replace(update, events=[])))

    def _join(self, client: Client, message: JoinIn | RejoinIn) -> None:
        now = self.clock()
        if self._failed.spent(client.address, now):
            self._fatal(client, ErrorCode.RATE, "too many failed joins: wait a minute")
            return
        code = room_code(message.room)
        if isinstance(message, JoinIn):
            token = new_token()
            action: Action = functools.partial(Room.join, name=message.name, token=token, now=now)
        else:
            action = functools.partial(Room.rejoin, token=message.token, now=now)
        acted = None if code is None else self._act(code, action, taking=True)
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
            asyncio.get_running_loop().create_task(self._close(earlier, REPLACED))
        self._bind(client, room.code, update.player)
        self._deliver(acted)

    def _failed_join(self, client: Client, code: ErrorCode, message: str) -> None:
        """Answer a failed join, counting it against the client's address."""
        if self._failed.take(client.address, self.clock()):
            self._tell(client, code, message)
        else:
            self._fatal(client, ErrorCode.RATE, "too many failed joins: wait a minute")

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

    def _daily(self, client: Client, message: DailyIn) -> None:
        """The day's try of a name: registered by its first daily, resumed while it lasts,
        ``played`` once it has ended."""
        now = self.clock()
        if self._failed.spent(client.address, now):
            self._fatal(client, ErrorCode.RATE, "too many failed joins: wait a minute")
            return
        key = name_key(message.name)
        known = self.store.registered(key)
        if known is None:
            if not self._registered.take(client.address, now):
                self._fatal(client, ErrorCode.RATE, "too many names registered from here: wait")
                return
            chosen = message.token
            token = chosen if chosen is not None and chosen_token(chosen) else new_token()
            if not self.store.register(key, message.name, token_hash(token)):
                known = self.store.registered(key)  # registered meanwhile, elsewhere
        if known is not None:
            if message.token is None or token_hash(message.token) != known.token:
                self._failed_join(
                    client,
                    ErrorCode.NAME_TAKEN,
                    f"the name {message.name!r} is registered: give its token, or choose another",
                )
                return
            token, name = message.token, known.name
        else:
            name = message.name
        day = day_of(now)
        for _ in range(2):  # a second time if another server began the try meanwhile
            found = self.store.daily_try(day, key)
            if found is not None:
                self._resume(client, found, token, now)
                return
            with contextlib.suppress(Conflict):
                self._begin_try(client, day, key, name, token, now)
                return
        self._tell(client, ErrorCode.PLAYED, "today's try could not be found: try again")

    def _resume(self, client: Client, found: DailyTry, token: str, now: float) -> None:
        """Take a player back to their try, or tell them they have played."""
        if found.ended:
            self._tell(
                client,
                ErrorCode.PLAYED,
                f"you have played today's daily: see the board at {PAGE_PATH}",
            )
            return
        rejoin = functools.partial(Room.rejoin, token=token, now=now)
        acted = self._act(found.room, rejoin, taking=True)
        if acted is None:
            self._tell(client, ErrorCode.NO_ROOM, "today's try cannot be read: try later")
            return
        self._seat(client, acted)

    def _begin_try(
        self, client: Client, day: date, key: str, name: str, token: str, now: float
    ) -> None:
        """A player's try at the day's deal, dealt at once; raises Conflict if another
        server began it meanwhile."""
        dealt = self.store.day_deal(day)
        room, update = Room.create(
            self._fresh_code(),
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
        self._open(client, room, update)

    # -- a room's changes -------------------------------------------------------------------

    def _act(
        self,
        code: str,
        action: Action,
        *,
        actor: int | None = None,
        taking: bool = False,
        holder: tuple[int, str] | None = None,
    ) -> Acted | None:
        """Do an action on a room and keep what it changed; None if there is no such room.

        One server: the room in memory, its changes stored at the next flush. A shared
        database: in one transaction holding the room's row, the room taken again if its
        stored version moved; its changes, its new version and the messages for players
        connected to other servers stored, and the servers told. The messages for
        ``actor`` (the player acting from here) are sent here; ``taking``: the client acting
        takes the place the action gives (a join). ``holder``: do it only while that player's
        connection is held by that server.
        """
        if not self.store.shared:
            room = self.rooms.get(code)
            if room is None:
                return None
            update = action(room)
            if update.events:
                self._changes.append((code, update.events))
                self._flush_soon()
            return Acted(room, update)
        try:
            return self._act_shared(code, action, actor, taking, holder)
        except StoreFault as exc:
            self.rooms.pop(code, None)  # the copy may have gone further than the database
            log.error("forage serve: room %s: could not store a change (%s)", code, exc)
            return None

    def _act_shared(
        self,
        code: str,
        action: Action,
        actor: int | None,
        taking: bool,
        holder: tuple[int, str] | None,
    ) -> Acted | None:
        store = self.store
        with store.locked(code) as version:
            if version is None:
                return None
            if holder is not None and store.holders(code).get(holder[0]) != holder[1]:
                return None  # the player's connection is held elsewhere now
            self._catch_up(code, version)
            room = self.rooms.get(code)
            if room is None or room.version != version:
                room = self._reload(code)
                if room is None:
                    return None
            update = action(room)
            if not update.events and not update.sends:
                return Acted(room, update)
            if update.events:
                room.version = version + 1
                store.write(code, update.events)
                store.set_state(code, room.version, room.active, room.deadline())
                if code in self._told:
                    self._told[code] = room.version
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
        return Acted(room, replace(update, sends=here))

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

    def _commit(self, room: Room, update: Update) -> None:
        """Take an update of a room in memory (one server): its changes to store at the
        next flush, then its messages and the room's timer."""
        if update.events:
            self._changes.append((room.code, update.events))
            self._flush_soon()
        self._deliver(Acted(room, update))

    def _deliver(self, acted: Acted) -> None:
        """Send an update's messages to the players connected here (after the changes are
        stored), and set the room's next timer or forget an ended room."""
        room, update = acted.room, acted.update
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
                self._send(client, text, progress=progress, news=news)
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
        self._tick_room(code)

    def _tick_room(self, code: str) -> None:
        """What the time does to a room (any server may do it: it is the same once done)."""
        now = self.clock()
        acted = self._act(code, functools.partial(Room.tick, now=now))
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
                            self._catch_up(code)
                    else:
                        self._on_notice(payload)
            except StoreFault as exc:
                log.error("forage serve: lost the database's notifications (%s)", exc)
            await asyncio.sleep(1.0)

    def _on_notice(self, payload: str) -> None:
        code, _, version = payload.partition(" ")
        if code in self._told and version.isdigit():
            self._catch_up(code, int(version))

    def _catch_up(self, code: str, version: int | None = None) -> None:
        """Pass on the messages other servers stored for the room's players connected here
        since the last passed on (up to at least ``version``, the room's version now known
        to be stored)."""
        since = self._told.get(code)
        if since is None or (version is not None and version <= since):
            return
        try:
            stored = self.store.told_since(code, since)
        except StoreFault as exc:
            log.error("forage serve: room %s: could not read its messages (%s)", code, exc)
            return
        for message in stored:
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
                self._sweep_once()
            except StoreFault as exc:
                log.error("forage serve: could not look after the rooms (%s)", exc)
            await asyncio.sleep(self.rules.sweep_seconds)

    def _sweep_once(self) -> None:
        now = self.clock()
        self.store.seen(now)
        for code in self.store.due_rooms(now):
            self._tick_room(code)
        for server in self.store.dead_servers(now - self.rules.dead_seconds):
            for code, player in self.store.held_by(server):
                drop = functools.partial(Room.disconnect, player=player, now=now)
                acted = self._act(code, drop, holder=(player, server))
                if acted is not None:
                    self._deliver(acted)
            self.store.drop_server(server)
        self.store.forget_told(now - self.rules.dead_seconds)

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

    def board(self, day: date) -> Shown:
        """A day's leaderboard (once the day is over, with its deal and the records), and its
        JSON; built again only when a try of the day has ended since."""
        over = is_over(day, self.clock())
        ended = self.store.ended_tries(day)
        held = self._boards.get(day)
        if held is not None and (held.ended, held.board.over) == (ended, over):
            return held
        deal = self.store.past_deal(day) if over else None
        made = board(day, self.store.finished(day), over, deal)
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
            shown = self.board(day)
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
            shown = self.board(day)
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
            record = self.store.daily_record(day, name_key(name))
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
