"""The rooms server on the web: the websocket at ``/play`` (CONTRACT.md, "Playing together")
and the daily's board, served by aiohttp for :class:`~forage.net.service.RoomService`.

:class:`RoomServer` reads each client's messages and hands them to the service; what the
service tells a client goes through the client's own queue. Its limits on a connection (the
others are the service's, :mod:`forage.net.admission`):

- a message over 64 KiB is ``too-large`` and closes the connection (aiohttp refuses a
  larger frame before reading it; the server checks again);
- a client sending more than its share of messages (:attr:`ServerRules.burst`, then
  :attr:`ServerRules.per_second`) or of bytes (:attr:`ServerRules.bytes_burst`, then
  :attr:`ServerRules.bytes_per_second`) gets ``rate`` and is closed;
- a connection that has not asked for a room (``create``, ``join``, ``rejoin``, ``daily``)
  :attr:`ServerRules.join_seconds` after it opened is closed;
- each client has its own queue of messages to send; a client that does not read fills it
  and is cut off, without holding anyone else up.

A client's address is the one :mod:`forage.net.forwarded` finds (a trusted proxy's
forwarded client), or for a browser tab of this server the address its voucher names
(:meth:`RoomServer.vouch`). ``GET /daily/leaderboard``, ``/daily`` and ``/daily/record``
show the online daily's board.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import logging
import secrets
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Final

from aiohttp import WSCloseCode, WSMsgType, web

from forage.history.daily import parse_day
from forage.net import CLIENT_HEADER
from forage.net.admission import ServerRules, address_key
from forage.net.bucket import Bucket
from forage.net.daily import (
    BOARD_PATH,
    PAGE_PATH,
    RECORD_PATH,
    BoardError,
    board_page,
    day_of,
    is_over,
)
from forage.net.database import StoreFault
from forage.net.forwarded import arrival, is_local
from forage.net.peer import NORMAL, POLICY_VIOLATION, Peer
from forage.net.protocol import (
    MAX_MESSAGE_BYTES,
    ErrorCode,
    error,
    message_text,
    name_key,
)
from forage.net.service import RoomService
from forage.net.store import RoomStore

log: Final = logging.getLogger("forage.rooms")

PATH: Final = "/play"
"""Where the websocket is served."""


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


class Client(Peer):
    """One websocket connection: its socket, its limits, and the queue its writer sends."""

    def __init__(
        self,
        server: RoomServer,
        socket: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        address: str,
        local: bool,
        now: float,
    ) -> None:
        """A connection of ``server`` from ``address`` (``local``: this computer), opened
        at ``now``."""
        super().__init__(address, local)
        rules = server.rules
        self.server = server
        self.socket = socket
        self.transport = transport
        self.bucket = Bucket.full(rules.burst, rules.per_second, now)
        """The messages the client may still send."""
        self.budget = Bucket.full(rules.bytes_burst, rules.bytes_per_second, now)
        """The bytes the client may still send."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(rules.queue_size)
        self.writer: asyncio.Task[None] | None = None
        self.ending: asyncio.Future[None] | None = None
        """The closing of the connection, once begun."""

    def put(self, text: str) -> None:
        """Give a message to the client's writer; a client whose queue is full is cut off."""
        if self.closing or self.writer is None or self.writer.done():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("forage serve: cut off a client that does not read (%s)", self.address)
            self.cut()

    async def close(self, code: int = NORMAL) -> None:
        """Close the connection (once: a second call waits for the first, whose code holds)."""
        if self.ending is None:
            self.ending = asyncio.ensure_future(self._end(code))
        await asyncio.shield(self.ending)

    async def _end(self, code: int) -> None:
        """Let what the client is told wait for its changes to be stored (for a while), let
        the writer send what is queued, then close the connection."""
        service, seconds = self.server.service, self.server.rules.close_seconds
        if service.waits(self):
            await service.drained(seconds)
        self.closing = True
        writer = self.writer
        if writer is not None and not writer.done():
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            try:
                await asyncio.wait_for(asyncio.shield(writer), seconds)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()
                self.cut()
        if self.transport is None or not self.transport.is_closing():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.socket.close(code=code), seconds)
        self.cut()

    def cut(self) -> None:
        """Drop the connection at once (a client that does not read, or will not close)."""
        self.closing = True
        if self.writer is not None:
            self.writer.cancel()
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.close()
            abort = getattr(transport, "abort", None)
            if abort is not None:
                abort()

    async def write(self) -> None:
        """Send the queued messages in order, until the end marker (None)."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            while (text := await self.queue.get()) is not None:
                await self.socket.send_str(text)


class RoomServer:
    """The rooms service on an aiohttp application: its websocket, its connections' limits
    and the daily's board."""

    def __init__(self, service: RoomService) -> None:
        """The web's way into ``service``."""
        self.service = service
        self.rules = service.rules
        self.clients: set[Client] = set()
        self._guard: Callable[[web.Request], None] | None = None
        self._secret = secrets.token_bytes(32)
        """What this server signs its browser tabs' addresses with (:meth:`vouch`)."""

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
        self.service.start()

    async def _on_shutdown(self, app: web.Application) -> None:
        await self.service.stop(list(self.clients))

    async def _on_cleanup(self, app: web.Application) -> None:
        await self.service.close()

    # -- a connection -----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """A client's websocket: read its messages until it closes or is closed."""
        if self._guard is not None:
            self._guard(request)
        rules = self.rules
        socket = _Socket(
            max_msg_size=MAX_MESSAGE_BYTES + 1,
            heartbeat=rules.heartbeat,
            compress=False,
            timeout=rules.close_seconds,
            decode_text=False,  # text that is not UTF-8 is a bad message, not a closed socket
        )
        await socket.prepare(request)
        came = arrival(request.remote or "", request.scheme, request.headers, rules.proxies)
        remote = came.client
        if came.local:  # a browser tab's game of this server: its browser's address
            remote = self.vouched(request.headers.get(CLIENT_HEADER, "")) or remote
        client = Client(
            self,
            socket,
            request.transport,
            address_key(remote),
            is_local(remote),
            self.service.clock(),
        )
        client.writer = asyncio.create_task(client.write())
        self.clients.add(client)
        waiting = asyncio.get_running_loop().call_later(rules.join_seconds, self._unjoined, client)
        try:
            await self._read(client)
        finally:
            waiting.cancel()
            try:
                await self.service.gone(client)
            finally:
                await client.close(client.close_code)
                self.clients.discard(client)
        return socket

    def _unjoined(self, client: Client) -> None:
        """Close a connection that has not asked for a place in a room since it opened."""
        if not client.asked and not client.closing:
            client.closing = True
            self.service.spawn(client.close(POLICY_VIOLATION))

    async def _read(self, client: Client) -> None:
        service = self.service
        async for message in client.socket:
            if client.closing:
                return
            now = service.clock()
            if not client.bucket.take(now):
                service.fatal(client, ErrorCode.RATE, "too many messages: slow down")
                return
            data = message.data
            if isinstance(data, bytes | str) and not client.budget.take(now, len(data)):
                service.fatal(client, ErrorCode.RATE, "too much sent: slow down")
                return
            if message.type is WSMsgType.TEXT:
                await service.on_text(client, message.data)
            elif message.type is WSMsgType.BINARY:
                if len(message.data) > MAX_MESSAGE_BYTES:
                    service.fatal(client, ErrorCode.TOO_LARGE, f"at most {MAX_MESSAGE_BYTES} bytes")
                else:
                    service.tell(client, ErrorCode.BAD_MESSAGE, "send JSON text, not binary")
            if client.closing:
                return

    # -- the daily's leaderboard over HTTP ------------------------------------------------------

    def _asked_day(self, request: web.Request) -> date | None:
        """The day a request asks for (today by default); None if it is not a date."""
        if self._guard is not None:
            self._guard(request)
        text = request.query.get("date")
        if text is None:
            return day_of(self.service.clock())
        try:
            return parse_day(text)
        except ValueError:
            return None

    async def handle_board(self, request: web.Request) -> web.Response:
        """``GET /daily/leaderboard[?date=YYYY-MM-DD]``: the board as JSON; a bad date is 400."""
        day = self._asked_day(request)
        if day is None:
            return _json_error(400, f"not a date: {_shown_date(request)} (expected YYYY-MM-DD)")
        try:
            shown = await self.service.board(day)
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
            shown = await self.service.board(day)
        except StoreFault as exc:
            log.error("forage serve: could not read the leaderboard (%s)", exc)
            return web.Response(status=503, text="<!doctype html><p>Try later.</p>")
        page = board_page(shown.board, day_of(self.service.clock()))
        return web.Response(text=page, content_type="text/html")

    async def handle_record(self, request: web.Request) -> web.Response:
        """``GET /daily/record?date=D&name=N``: a try's game record, once its day is over."""
        day = self._asked_day(request)
        name = request.query.get("name", "")
        if day is None:
            return _json_error(400, f"not a date: {_shown_date(request)} (expected YYYY-MM-DD)")
        if not is_over(day, self.service.clock()):
            return _json_error(404, f"the records of {day} are published once the day is over")
        try:
            service = self.service
            record = await service.threads.read(service.store.daily_record, day, name_key(name))
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
    server = RoomServer(RoomService(RoomStore.open(folder, url), rules, clock))
    server.attach(app, guard)
    return server
