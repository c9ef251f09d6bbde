"""``forage serve`` under connections that misbehave, with real sockets: idle connections by the
thousand under a descriptor limit of 1024, a request whose headers never end, a guesser of
room codes; the page, the rooms and a friend's right code are still served."""

from __future__ import annotations

import asyncio
import resource
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from room_serving import refusal
from serving import Served, forage_server

from forage.net.admission import ServerRules
from forage.net.client import RoomClient
from forage.net.gate import REQUEST_SECONDS, limits_for
from forage.net.protocol import ErrorCode, JoinedOut
from forage.net.service import new_code

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")

DESCRIPTORS = 1024
"""The server's descriptor limit in these tests (``ulimit -n``)."""
SMALL_DESCRIPTORS = 512
"""A smaller limit, whose cap in all a flood surely reaches before its first connections
time out."""
FLOOD = 1200
"""How many idle connections a test opens: more than the server may have files open."""
LOG_BYTES = 4096
"""The most the server may write while flooded (a line per cause a minute)."""
HELD = 100
"""How many of the idle connections the server holds before a test asks for the page."""
ANSWER_SECONDS = 5.0
"""How soon the page and the rooms answer a newcomer while idle connections hold on."""


@pytest.fixture
def many_sockets() -> Iterator[None]:
    """This test process may open FLOOD sockets and more (its soft limit raised to them)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FLOOD + 1024
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"opens {FLOOD} sockets: the hard limit on open files is {hard}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@contextmanager
def idle_connections(port: int, sources: Sequence[str]) -> Iterator[list[socket.socket]]:
    """FLOOD connections to the server opened at once, from ``sources`` in turn (loopback
    addresses), that never send a byte; all closed when the block ends."""
    made: list[socket.socket] = []
    try:
        for number in range(FLOOD):
            connection = socket.socket()
            made.append(connection)
            connection.setblocking(False)
            connection.bind((sources[number % len(sources)], 0))
            connection.connect_ex(("127.0.0.1", port))
        yield made
    finally:
        for connection in made:
            connection.close()


def open_files(pid: int) -> int:
    """How many files a process has open."""
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def page_from(served: Served, source: str) -> str:
    """The page, asked for from the loopback address ``source``."""
    with socket.create_connection(("127.0.0.1", served.port), 5.0, (source, 0)) as connection:
        connection.settimeout(5.0)
        connection.sendall(
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer.decode("utf-8", "replace")


def within(seconds: float, ask: Callable[[], bool]) -> float:
    """How long until ``ask`` says yes (asked again and again; an error is a no); fails
    past ``seconds``."""
    started = time.monotonic()
    while True:
        try:
            if ask():
                return time.monotonic() - started
        except OSError:
            pass
        assert time.monotonic() - started < seconds, f"not within {seconds} s"
        time.sleep(0.05)


async def created(served: Served) -> JoinedOut:
    """A new room's ``joined``, made on a new connection to the server's rooms."""
    client = await RoomClient.connect(served.url.rstrip("/"))
    try:
        await client.create("Ann")
        joined = await client.receive(ANSWER_SECONDS)
    finally:
        await client.close()
    assert isinstance(joined, JoinedOut), joined
    return joined


def room_created(served: Served) -> bool:
    """Whether a room is made on a new connection, answered within ANSWER_SECONDS."""
    return asyncio.run(asyncio.wait_for(created(served), ANSWER_SECONDS)).room != ""


def test_idle_connections_from_one_address_leave_the_page_and_rooms_to_the_others(
    tmp_path: Path, many_sockets: None
) -> None:
    with forage_server(tmp_path / "home", tmp_path, descriptors=DESCRIPTORS) as served:
        before, files = len(served.output()), open_files(served.process.pid)
        with idle_connections(served.port, ["127.0.0.2"]):
            within(10.0, lambda: open_files(served.process.pid) >= files + HELD)
            within(ANSWER_SECONDS, lambda: "Forage" in page_from(served, "127.0.0.1"))
            within(ANSWER_SECONDS, lambda: room_created(served))
            # the idle ones time out: the crowded address is served again
            within(REQUEST_SECONDS + 10.0, lambda: "Forage" in page_from(served, "127.0.0.2"))
        logged = served.output()[before:]
    assert "out of system resource" not in logged
    assert len(logged.encode()) < LOG_BYTES, logged[:1000]


def test_idle_connections_from_many_addresses_never_run_the_server_out_of_files(
    tmp_path: Path, many_sockets: None
) -> None:
    descriptors, games = SMALL_DESCRIPTORS, 4
    total = limits_for(games, descriptors).total
    assert 2 * descriptors < FLOOD and total < descriptors // 2
    sources = [f"127.0.1.{number}" for number in range(1, 9)]
    options = ("--max-games", str(games))
    with forage_server(tmp_path / "home", tmp_path, *options, descriptors=descriptors) as served:
        before = len(served.output())
        full = f"refused connections: {total} open, the most"
        with idle_connections(served.port, sources):
            within(15.0, lambda: full in served.output()[before:])  # the cap in all is reached
            within(REQUEST_SECONDS + 10.0, lambda: "Forage" in page_from(served, "127.0.0.1"))
            within(ANSWER_SECONDS, lambda: room_created(served))
        logged = served.output()[before:]
    assert "out of system resource" not in logged and "accept() failed" not in logged
    assert len(logged.encode()) < LOG_BYTES, logged[:1000]


def test_a_request_whose_headers_never_end_is_closed(tmp_path: Path) -> None:
    with forage_server(tmp_path / "home", tmp_path) as served:
        slow = socket.create_connection(("127.0.0.1", served.port), 5.0)
        with slow:
            slow.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n".encode())
            slow.settimeout(0.5)
            started = time.monotonic()
            closed = False
            while not closed and time.monotonic() - started < REQUEST_SECONDS + 10.0:
                try:  # a header line now and then, never the blank line that ends them
                    slow.sendall(b"X-Slow: yes\r\n")
                    closed = slow.recv(1) == b""
                except TimeoutError:
                    pass
                except ConnectionError:
                    closed = True
        assert closed, "still open"
        assert "Forage" in served.get_page()


def test_a_guesser_is_closed_and_a_friend_with_the_right_code_gets_in(tmp_path: Path) -> None:
    most = ServerRules().failed_joins_per_connection

    async def scenario(url: str) -> None:
        host = await RoomClient.connect(url)
        guesser = await RoomClient.connect(url)
        friend: RoomClient | None = None
        try:
            await host.create("Host")
            made = await host.receive(ANSWER_SECONDS)
            assert isinstance(made, JoinedOut), made
            room = made.room
            codes = []
            for _ in range(15):
                try:
                    await guesser.join(new_code(), "Guess")
                    codes.append((await refusal(guesser))[0])
                except Exception:  # closed
                    break
            assert codes == [ErrorCode.NO_ROOM] * most + [ErrorCode.RATE], codes
            with pytest.raises(Exception, match="closed"):
                await guesser.receive(ANSWER_SECONDS)
            friend = await RoomClient.connect(url)  # the same address, a new connection
            await friend.join(room, "Friend")
            joined = await friend.receive(ANSWER_SECONDS)
            assert isinstance(joined, JoinedOut) and joined.room == room, joined
        finally:
            for client in (host, guesser, friend):
                if client is not None:
                    await client.close()

    with forage_server(tmp_path / "home", tmp_path) as served:
        asyncio.run(asyncio.wait_for(scenario(served.url.rstrip("/")), 60.0))
