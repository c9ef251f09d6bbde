"""The gate of ``forage serve`` (forage.net.gate): connections counted per address and in all,
refusals logged once a minute, the cap in all under the descriptor limit; and, with real
sockets, a connection over a cap closed at once and a silent one closed in time."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from aiohttp import web

from forage.net.gate import (
    ACCEPT_FAILED,
    FEWEST_CONNECTIONS,
    Connections,
    Counted,
    Gate,
    GateLimits,
    Tally,
    Verdict,
    connection_cap,
    descriptor_limit,
    limits_for,
    quiet_accept_failures,
    start_gated,
)

WAIT = 10.0
"""The longest a test waits for anything."""


def test_connections_are_counted_per_address_and_in_all() -> None:
    limits = GateLimits(total=7, per_address=2, local_per_address=3)
    connections = Connections(limits)
    assert [connections.admit("203.0.113.1") for _ in range(3)] == [
        Verdict.OPEN,
        Verdict.OPEN,
        Verdict.ADDRESS_FULL,
    ]
    # one IPv6 /64 is one address
    assert connections.admit("2001:db8::1") is Verdict.OPEN
    assert connections.admit("2001:db8::2") is Verdict.OPEN
    assert connections.admit("2001:db8::3") is Verdict.ADDRESS_FULL
    assert connections.admit("2001:db8:0:1::3") is Verdict.OPEN
    # this computer's own addresses have their own, larger cap
    assert [connections.admit("127.0.0.1") for _ in range(3)] == [Verdict.OPEN] * 2 + [
        Verdict.ALL_FULL
    ]
    assert connections.open == 7 and connections.held("127.0.0.1") == 2
    connections.release("203.0.113.1")
    assert connections.admit("127.0.0.1") is Verdict.OPEN
    assert connections.admit("127.0.0.1") is Verdict.ALL_FULL
    connections.release("2001:db8::2")
    assert connections.held("2001:db8::1") == 1
    assert connections.admit("2001:db8::9") is Verdict.OPEN


@pytest.mark.parametrize("peer", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_this_computers_addresses_have_the_larger_cap(peer: str) -> None:
    connections = Connections(GateLimits(total=10, per_address=1, local_per_address=3))
    assert [connections.admit(peer) for _ in range(4)] == [Verdict.OPEN] * 3 + [
        Verdict.ADDRESS_FULL
    ]


def test_a_trusted_proxy_is_held_only_to_the_cap_in_all() -> None:
    limits = GateLimits(total=4, per_address=1, trusted=lambda peer: peer == "192.0.2.9")
    connections = Connections(limits)
    assert [connections.admit("192.0.2.9") for _ in range(5)] == [Verdict.OPEN] * 4 + [
        Verdict.ALL_FULL
    ]
    assert connections.admit("192.0.2.8") is Verdict.ALL_FULL


def test_a_tally_tells_each_cause_once_a_window_with_its_count() -> None:
    tally = Tally(seconds=60.0)
    assert tally.add("full", 0.0) is True
    assert [tally.add("full", now) for now in (1.0, 2.0, 3.0)] == [False] * 3
    assert tally.add("slow", 30.0) is True
    assert tally.ended(59.0) == []
    assert tally.ended(60.0) == [Counted("full", 3)]
    assert tally.add("full", 61.0) is False  # in the window the count opened
    assert tally.ended(90.0) == []  # "slow" came once: told, nothing to add
    assert tally.add("slow", 91.0) is True
    assert tally.ended(120.0) == [Counted("full", 1)]
    assert tally.next_end() == 151.0
    assert tally.ended(151.0) == []  # "slow" came once: its window closes
    assert tally.next_end() == 180.0
    assert tally.ended(180.0) == [] and tally.next_end() is None
    assert tally.add("full", 200.0) is True


def test_the_cap_in_all_leaves_room_under_the_descriptor_limit() -> None:
    for games in (1, 16, 64):
        cap = connection_cap(1024, games)
        assert FEWEST_CONNECTIONS <= cap <= 1024 - 8 * games - 256
    assert connection_cap(1024, 16) > connection_cap(1024, 64)
    assert connection_cap(100, 64) == FEWEST_CONNECTIONS
    limits = limits_for(16, 1024)
    assert limits.per_address <= limits.local_per_address <= limits.total
    assert limits.local_per_address >= 2 * 16
    assert limits_for(1000, 1024).local_per_address == limits_for(1000, 1024).total
    assert limits_for(4).total == connection_cap(descriptor_limit(), 4)


def test_accept_failures_are_logged_once_with_their_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        gate = Gate(GateLimits(total=10))
        loop = asyncio.get_running_loop()
        quiet_accept_failures(loop, gate.quiet)
        for _ in range(500):
            loop.call_exception_handler({"message": ACCEPT_FAILED, "exception": OSError(24)})
        gate.quiet.close()

    with caplog.at_level(logging.WARNING, "forage.gate"):
        asyncio.run(scenario())
    lines = [record.getMessage() for record in caplog.records if record.name == "forage.gate"]
    assert lines == ["accept() failed: out of descriptors"]


@asynccontextmanager
async def gated(limits: GateLimits) -> AsyncIterator[tuple[int, Gate]]:
    """A page (``ok``) served on a free 127.0.0.1 port through a gate of ``limits``."""

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/", page)
    gate = Gate(limits)
    runner = await start_gated(app, "127.0.0.1", 0, gate)
    try:
        yield runner.addresses[0][1], gate
    finally:
        await runner.cleanup()
        gate.quiet.close()


async def connect(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the port from the loopback address ``source``."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def closed_by_server(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closes the connection within ``seconds``."""
    try:
        return await asyncio.wait_for(reader.read(1), seconds) == b""
    except ConnectionError:
        return True
    except TimeoutError:
        return False


async def page_from(port: int, source: str) -> str:
    """The page, asked for from ``source``."""
    reader, writer = await connect(port, source)
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), WAIT)
    writer.close()
    return answer.decode()


async def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (fails after WAIT)."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "not within the wait"
        await asyncio.sleep(0.01)


def test_a_connection_over_a_cap_is_closed_at_once_and_others_are_served(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limits = GateLimits(total=5, per_address=3, local_per_address=3, request_seconds=60.0)

    async def scenario() -> None:
        async with gated(limits) as (port, gate):
            held = [await connect(port, "127.0.0.2") for _ in range(3)]
            await until(lambda: gate.connections.held("127.0.0.2") == 3)
            for _ in range(2):
                reader, writer = await connect(port, "127.0.0.2")
                assert await closed_by_server(reader, 2.0), "over the address's cap, held"
                writer.close()
            assert (await page_from(port, "127.0.0.3")).endswith("ok")
            more = [await connect(port, "127.0.0.3") for _ in range(2)]
            await until(lambda: gate.connections.open == 5)
            reader, writer = await connect(port, "127.0.0.4")
            assert await closed_by_server(reader, 2.0), "over the cap in all, held"
            writer.close()
            held[0][1].close()  # one of them leaves: another may come
            await until(lambda: gate.connections.open == 4)
            assert (await page_from(port, "127.0.0.2")).endswith("ok")
            for _, writer in held[1:] + more:
                writer.close()
            await until(lambda: gate.connections.open == 0)

    with caplog.at_level(logging.WARNING, "forage.gate"):
        asyncio.run(asyncio.wait_for(scenario(), 60.0))
    lines = [record.getMessage() for record in caplog.records if record.name == "forage.gate"]
    assert lines == [
        "refused connections: 3 open from one address (3 from this computer), the most",
        "refused connections: 5 open, the most",
    ]


def test_a_connection_that_sends_no_whole_request_in_time_is_closed() -> None:
    limits = GateLimits(total=10, request_seconds=0.5)

    async def scenario() -> None:
        async with gated(limits) as (port, gate):
            silent_reader, silent = await connect(port, "127.0.0.2")
            halfway_reader, halfway = await connect(port, "127.0.0.2")
            halfway.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
            assert await closed_by_server(silent_reader, WAIT)
            assert await closed_by_server(halfway_reader, WAIT)
            silent.close()
            halfway.close()
            await until(lambda: gate.connections.open == 0)
            assert (await page_from(port, "127.0.0.2")).endswith("ok")

    asyncio.run(asyncio.wait_for(scenario(), 60.0))
