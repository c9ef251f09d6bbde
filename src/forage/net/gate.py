"""The door of ``forage serve``: how many connections it holds, and how long a silent one lasts.

aiohttp closes a connection that has not sent a whole request within its keep-alive time
(counted from the connection's opening, however many bytes came), which
:func:`serve_gated` sets to :attr:`GateLimits.request_seconds`; it has no cap on
connections. :class:`Connections` counts the open connections of each client address
(:func:`~forage.net.admission.address_key`) against a cap per address and a cap in all,
the latter under the process's descriptor limit (:func:`connection_cap`) so that
``accept()`` never runs out of descriptors; :class:`Gate` puts it in front of the web
server, closing at once a connection over a cap. What is refused is logged in one line
per cause a minute (:class:`Tally`, :class:`QuietLog`), and so is asyncio's
``socket.accept() out of system resource``, which it would otherwise log for every try.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from aiohttp import web
from aiohttp.web_runner import GracefulExit

from forage.adapters.aiohttp import ProtocolSite
from forage.net.admission import address_key
from forage.net.forwarded import is_local

log: Final = logging.getLogger("forage.gate")

REQUEST_SECONDS: Final = 5.0
"""How long a connection has to send a whole request (and how long an idle one is kept
between requests)."""
PER_ADDRESS: Final = 64
"""The most connections open from one client address: a household's browsers (a page's few
connections and a websocket for each tab) and terminal players, with room to spare."""
LOCAL_PER_ADDRESS: Final = 256
"""The least allowed from one of this computer's own addresses, where its browser's tabs
and every tab's game (whose rooms connection comes from here) connect from."""
BACKLOG: Final = 64
"""Connections waiting to be accepted; asyncio accepts up to this many at a time, each a
descriptor until it is refused."""
SPARE_DESCRIPTORS: Final = 64
"""Descriptors kept for the database, files, the listening sockets and the event loop."""
GAME_DESCRIPTORS: Final = 8
"""Descriptors kept for each game the server may run (its pipes, and more while it starts)."""
FEWEST_CONNECTIONS: Final = 16
"""The cap in all is never set below this, however low the descriptor limit."""
TALLY_SECONDS: Final = 60.0
"""Each cause of refusal is logged at most once in this many seconds, with its count."""
ACCEPT_FAILED: Final = "socket.accept() out of system resource"
"""The message asyncio logs when ``accept()`` fails for want of descriptors."""


class Verdict(Enum):
    """Whether a new connection is taken, or which cap it is over."""

    OPEN = "open"
    ADDRESS_FULL = "too many connections from one address"
    ALL_FULL = "too many connections in all"


@dataclass(frozen=True)
class GateLimits:
    """The connections a server holds at once."""

    total: int
    """The most in all (:func:`connection_cap`)."""
    per_address: int = PER_ADDRESS
    """The most from one client address (:func:`~forage.net.admission.address_key`)."""
    local_per_address: int = LOCAL_PER_ADDRESS
    """The most from one of this computer's own (loopback) addresses."""
    request_seconds: float = REQUEST_SECONDS
    """How long a connection has to send a whole request."""
    trusted: Callable[[str], bool] = field(default=lambda address: False)
    """Whether a peer address is a trusted proxy, whose connections are many clients' and
    held only to the cap in all."""


def descriptor_limit() -> int:
    """The most descriptors this process may have open (its soft RLIMIT_NOFILE)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return hard if soft == resource.RLIM_INFINITY else soft


def connection_cap(descriptors: int, games: int, backlog: int = BACKLOG) -> int:
    """The most connections to hold under a limit of ``descriptors``: room is kept for the
    server's own files, for ``games`` games, and for the connections asyncio accepts
    before they can be refused (a few rounds of ``backlog``)."""
    kept = SPARE_DESCRIPTORS + GAME_DESCRIPTORS * games + 4 * backlog
    return max(FEWEST_CONNECTIONS, descriptors - kept)


def limits_for(
    games: int,
    descriptors: int | None = None,
    trusted: Callable[[str], bool] = lambda address: False,
) -> GateLimits:
    """The limits of a server running at most ``games`` games under ``descriptors`` (this
    process's limit unless told), ``trusted`` saying which peers are trusted proxies: this
    computer's addresses may hold two connections for each game (the tab's and its game's
    rooms), and at least :data:`LOCAL_PER_ADDRESS`."""
    total = connection_cap(descriptor_limit() if descriptors is None else descriptors, games)
    local = min(total, max(LOCAL_PER_ADDRESS, 2 * games + PER_ADDRESS))
    return GateLimits(
        total=total,
        per_address=min(total, PER_ADDRESS),
        local_per_address=local,
        trusted=trusted,
    )


class Connections:
    """The open connections of each client address, against the caps of :class:`GateLimits`."""

    def __init__(self, limits: GateLimits) -> None:
        """No connection open yet."""
        self.limits = limits
        self.open = 0
        self._by_address: dict[str, int] = {}

    def admit(self, peer: str) -> Verdict:
        """Count a new connection from ``peer`` (an IP address) if no cap is reached, saying
        whether it was; a connection taken is given back with :meth:`release`."""
        limits = self.limits
        if self.open >= limits.total:
            return Verdict.ALL_FULL
        key = address_key(peer)
        held = self._by_address.get(key, 0)
        most = limits.local_per_address if is_local(peer) else limits.per_address
        if held >= most and not limits.trusted(peer):
            return Verdict.ADDRESS_FULL
        self._by_address[key] = held + 1
        self.open += 1
        return Verdict.OPEN

    def release(self, peer: str) -> None:
        """A connection :meth:`admit` took from ``peer`` has closed."""
        key = address_key(peer)
        held = self._by_address.get(key, 0)
        if held <= 1:
            self._by_address.pop(key, None)
        else:
            self._by_address[key] = held - 1
        self.open = max(0, self.open - 1)

    def held(self, peer: str) -> int:
        """How many connections are open from ``peer``'s address."""
        return self._by_address.get(address_key(peer), 0)


@dataclass
class _Window:
    """A cause's minute: when it ends, and how many events came after the one told."""

    ends: float
    more: int = 0


@dataclass(frozen=True)
class Counted:
    """How many times a cause happened in a minute, beyond what was told already."""

    cause: str
    count: int


class Tally:
    """Events counted by cause, each cause told at most once a window: its first event at
    once, then at the end of each window in which more came, their count."""

    def __init__(self, seconds: float = TALLY_SECONDS) -> None:
        """Windows of ``seconds``."""
        self.seconds = seconds
        self._windows: dict[str, _Window] = {}

    def add(self, cause: str, now: float) -> bool:
        """Count an event at ``now``; whether to tell of it at once (none of its cause came
        in the last window)."""
        window = self._windows.get(cause)
        if window is None:
            self._windows[cause] = _Window(now + self.seconds)
            return True
        window.more += 1
        return False

    def ended(self, now: float) -> list[Counted]:
        """The causes whose window has ended by ``now`` with events untold, and how many;
        such a cause opens a new window, and a cause with none closes its own."""
        told = []
        for cause, window in list(self._windows.items()):
            if window.ends > now:
                continue
            if window.more:
                told.append(Counted(cause, window.more))
                self._windows[cause] = _Window(now + self.seconds)
            else:
                del self._windows[cause]
        return told

    def next_end(self) -> float | None:
        """When the earliest window ends, or None if none is open."""
        return min((window.ends for window in self._windows.values()), default=None)


class QuietLog:
    """A log of repeated problems, in one line per cause a minute (:class:`Tally`), on the
    running event loop."""

    def __init__(self, logger: logging.Logger = log, seconds: float = TALLY_SECONDS) -> None:
        """Lines to ``logger``, each cause at most once in ``seconds``."""
        self.logger = logger
        self.tally = Tally(seconds)
        self._timer: asyncio.TimerHandle | None = None

    def note(self, cause: str) -> None:
        """One more event of ``cause``: logged now if it is the first in a while, else
        counted for the line at the end of its minute."""
        loop = asyncio.get_running_loop()
        if self.tally.add(cause, loop.time()):
            self.logger.warning("%s", cause)
        if self._timer is None:
            self._wake(loop)

    def _wake(self, loop: asyncio.AbstractEventLoop) -> None:
        """Set the timer for the earliest window's end, if any is open."""
        ends = self.tally.next_end()
        self._timer = None if ends is None else loop.call_at(ends, self._tell, loop)

    def _tell(self, loop: asyncio.AbstractEventLoop) -> None:
        for counted in self.tally.ended(loop.time()):
            self.logger.warning(
                "%s (%d more in the last %.0f s)",
                counted.cause,
                counted.count,
                self.tally.seconds,
            )
        self._wake(loop)

    def close(self) -> None:
        """Stop the timer (the counts not yet told are dropped)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Gate:
    """The caps of :class:`Connections` in front of a server's connections."""

    def __init__(self, limits: GateLimits, quiet: QuietLog | None = None) -> None:
        """A gate holding connections within ``limits``, logging its refusals to ``quiet``."""
        self.limits = limits
        self.connections = Connections(limits)
        self.quiet = quiet or QuietLog()

    def protocol(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server``: ``inner``'s protocol for each
        connection taken, a connection over a cap closed at once."""
        return lambda: _Gated(self, inner)

    def refused(self, verdict: Verdict) -> None:
        """Log a refusal (once a minute for each cap)."""
        shown = {
            Verdict.ADDRESS_FULL: (
                f"refused connections: {self.limits.per_address} open from one address "
                f"({self.limits.local_per_address} from this computer), the most"
            ),
            Verdict.ALL_FULL: f"refused connections: {self.limits.total} open, the most",
        }
        self.quiet.note(shown.get(verdict, verdict.value))


class _Gated(asyncio.Protocol):
    """One connection through a :class:`Gate`: the server's protocol if the connection is
    taken, nothing if it is refused (closed at once)."""

    def __init__(self, gate: Gate, factory: Callable[[], asyncio.Protocol]) -> None:
        self.gate = gate
        self.factory = factory
        self.peer: str | None = None
        self.inner: asyncio.Protocol | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        name = transport.get_extra_info("peername")
        peer = str(name[0]) if isinstance(name, tuple) and name else ""
        verdict = self.gate.connections.admit(peer)
        if verdict is not Verdict.OPEN:
            self.gate.refused(verdict)
            abort = getattr(transport, "abort", transport.close)
            abort()
            return
        self.peer = peer
        self.inner = self.factory()
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.peer is not None:
            self.gate.connections.release(self.peer)
            self.peer = None
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


def quiet_accept_failures(loop: asyncio.AbstractEventLoop, quiet: QuietLog) -> None:
    """Count asyncio's ``socket.accept() out of system resource`` in ``quiet`` (once a
    minute) rather than log each; the loop's other errors are logged as before."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == ACCEPT_FAILED:
            quiet.note("accept() failed: out of descriptors")
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


async def start_gated(app: web.Application, host: str, port: int, gate: Gate) -> web.AppRunner:
    """Start serving ``app`` on host:port through ``gate``, a connection closed that has
    not sent a whole request within the gate's :attr:`GateLimits.request_seconds`; the
    runner to clean up when done."""
    runner = web.AppRunner(app, handle_signals=False, keepalive_timeout=gate.limits.request_seconds)
    await runner.setup()
    try:
        await ProtocolSite(runner, host, port, gate.protocol, BACKLOG).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def serve_gated(
    app: Awaitable[web.Application],
    host: str,
    port: int,
    gate: Gate,
    loop: asyncio.AbstractEventLoop,
) -> None:
    """Serve ``app`` on host:port through ``gate`` on ``loop`` until GracefulExit, then
    clean it up and close the loop (as :func:`aiohttp.web.run_app` does, with no signal
    handlers and nothing printed)."""
    quiet_accept_failures(loop, gate.quiet)

    async def serving() -> None:
        runner = await start_gated(await app, host, port, gate)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
            gate.quiet.close()

    asyncio.set_event_loop(loop)
    main = loop.create_task(serving())
    try:
        loop.run_until_complete(main)
    except (GracefulExit, KeyboardInterrupt):
        pass
    finally:
        main.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            loop.run_until_complete(main)
        _cancel_all(loop)
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel the tasks still running and let them end."""
    left = asyncio.all_tasks(loop)
    for task in left:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
