"""``forage serve`` under a hostile page: huge sizes, tabs that vanish, too many tabs,
floods of keys, bad requests; and a server killed under its games.

A size beyond 1000 x 500 is drawn at that size (the server and the game both clamp it); a
tab's game ends within 5 s of its websocket closing, cleanly or dropped, however busy the
game; beyond ``--max-games`` a tab gets a page saying so; a tab closed while its game
starts leaves no crash log; a tab's input is kept within its limits; bad requests are
logged in a line without their headers; a game whose server is gone ends, saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest
from serving import Served, forage_server, free_port, games_of, resident_mb

from forage.app.saves import LOCK_NAME
from forage.cli.served_game import SERVER_PID_VARIABLE

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")

END_SECONDS = 5.0


async def first_frame(
    served: Served, query: str = "width=100&height=32"
) -> tuple[tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse], bytes]:
    """Open a tab's websocket and read until the game has drawn its first turn."""
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
    try:
        socket_ = await session.ws_connect(served.url + "ws?" + query)
    except BaseException:
        await session.close()
        raise
    drawn = b""
    while b"Turn 1 of 8" not in drawn:
        message = await socket_.receive(timeout=30)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        drawn += message.data
    return (session, socket_), drawn


async def keep_reading(tab: aiohttp.ClientWebSocketResponse) -> None:
    """Read a tab's frames (and so answer the server's pings), as a browser does."""
    with contextlib.suppress(aiohttp.ClientError, ConnectionError):
        async for _ in tab:
            pass


def wait_until_gone(pids: list[int], seconds: float) -> float:
    """How long the processes took to end (fails past ``seconds``)."""
    started = time.monotonic()
    while any(_alive(pid) for pid in pids):
        assert time.monotonic() - started < seconds, "the tab's game is still running"
        time.sleep(0.05)
    return time.monotonic() - started


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_huge_size_is_clamped_and_memory_stays_small(tmp_path: Path) -> None:
    async def run(served: Served) -> tuple[float, list[int]]:
        (session, socket_), _ = await first_frame(served, "width=100000&height=100000")
        reading = asyncio.create_task(keep_reading(socket_))
        await socket_.send_json(["resize", {"width": 100000, "height": 100000}])
        await socket_.send_json(["resize", {"width": "9" * 50, "height": -5}])
        await socket_.send_str("not json at all")
        await asyncio.sleep(3)
        games = games_of(served.process.pid)
        total = resident_mb(served.process.pid) + sum(resident_mb(pid) for pid in games)
        await socket_.close()
        await reading
        await session.close()
        return total, games

    with forage_server(tmp_path / "home", tmp_path) as served:
        total, games = asyncio.run(run(served))
        assert len(games) == 1
        assert total < 400, f"{total:.0f} MB for the server and its game"
        wait_until_gone(games, END_SECONDS)


def test_a_tab_closed_cleanly_ends_its_game_within_5_seconds(tmp_path: Path) -> None:
    async def run(served: Served) -> list[int]:
        (session, socket_), _ = await first_frame(served)
        games = games_of(served.process.pid)
        await socket_.close()
        await session.close()
        return games

    with forage_server(tmp_path / "home", tmp_path) as served:
        games = asyncio.run(run(served))
        assert len(games) == 1
        assert wait_until_gone(games, END_SECONDS) < END_SECONDS


DROPPED_TAB = textwrap.dedent(
    """
    import base64, os, socket, sys, time
    host, port = "127.0.0.1", int(sys.argv[1])
    tab = socket.create_connection((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    tab.sendall((
        f"GET /ws?width=80&height=24 HTTP/1.1\\r\\nHost: {host}:{port}\\r\\n"
        f"Upgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Key: {key}\\r\\n"
        "Sec-WebSocket-Version: 13\\r\\n\\r\\n"
    ).encode())
    tab.recv(4096)
    print("open", flush=True)
    time.sleep(3600)  # never reads again, never answers a ping: a tab whose network went
    """
)


def test_a_dropped_tab_ends_its_game_within_5_seconds(tmp_path: Path) -> None:
    with forage_server(tmp_path / "home", tmp_path) as served:
        port = served.url.rsplit(":", 1)[1].strip("/")
        tab = subprocess.Popen(
            [sys.executable, "-c", DROPPED_TAB, port], stdout=subprocess.PIPE, text=True
        )
        try:
            assert tab.stdout is not None and tab.stdout.readline().strip() == "open"
            deadline = time.monotonic() + 30
            while not games_of(served.process.pid):
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(1.5)  # the game is up
            games = games_of(served.process.pid)
            os.kill(tab.pid, signal.SIGSTOP)  # the tab says nothing more, closes nothing
            assert wait_until_gone(games, END_SECONDS) < END_SECONDS
        finally:
            tab.kill()
            tab.wait()


def test_beyond_max_games_a_tab_gets_a_page_saying_so(tmp_path: Path) -> None:
    async def run(served: Served) -> tuple[int, str]:
        (session, socket_), _ = await first_frame(served)
        try:
            with pytest.raises(urllib.error.HTTPError) as full:
                await asyncio.to_thread(urllib.request.urlopen, served.url, None, 5)
            return full.value.code, full.value.read().decode()
        finally:
            await socket_.close()
            await session.close()

    with forage_server(tmp_path / "home", tmp_path, "--max-games", "1") as served:
        code, page = asyncio.run(run(served))
        assert code == 503 and "All 1 games are being played" in page
        deadline = time.monotonic() + END_SECONDS
        while True:  # the tab closed: its game ended, the page is served again
            try:
                assert "Forage" in served.get_page()
                break
            except urllib.error.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.4])
def test_a_tab_closed_while_its_game_starts_leaves_no_crash_log(
    tmp_path: Path, delay: float
) -> None:
    async def run(served: Served) -> None:
        async with aiohttp.ClientSession() as session:
            socket_ = await session.ws_connect(served.url + "ws?width=80&height=24")
            await asyncio.sleep(delay)
            await socket_.close()
        await asyncio.sleep(0.5)

    home = tmp_path / "home"
    with forage_server(home, tmp_path) as served:
        asyncio.run(run(served))
        deadline = time.monotonic() + END_SECONDS
        while games_of(served.process.pid):
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert not list(home.glob("crash-*.log"))


def test_bad_max_games_is_one_line() -> None:
    from helpers import run_forage

    done = run_forage("serve", "--max-games", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--max-games" in done.stderr


WAIT_SECONDS = 10.0
"""How long a test waits for the server to answer or close a tab."""


async def receive_until_closed(tab: aiohttp.ClientWebSocketResponse) -> int | None:
    """Read a tab's frames until the server closes it: the close code it gave (None if it
    has not closed within WAIT_SECONDS)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(WAIT_SECONDS):
            while True:
                message = await tab.receive()
                if message.type in CLOSED:
                    return tab.close_code
    return None


CLOSED = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)


async def pong(tab: aiohttp.ClientWebSocketResponse, stamp: str) -> bool:
    """Whether the tab, still open, answers a ping within WAIT_SECONDS (frames of the game
    read past)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(WAIT_SECONDS):
            await tab.send_json(["ping", stamp])
            while True:
                message = await tab.receive()
                if message.type == aiohttp.WSMsgType.TEXT:
                    return bool(message.json() == ["pong", stamp])
                if message.type in CLOSED:
                    return False
    return False


async def send_keys(tab: aiohttp.ClientWebSocketResponse, keys: str, times: int) -> None:
    """Send ``times`` messages of ``keys`` (failing if the server takes none for
    WAIT_SECONDS: it is no longer reading the tab)."""
    try:
        async with asyncio.timeout(WAIT_SECONDS):
            for _ in range(times):
                await tab.send_json(["stdin", keys])
    except TimeoutError:
        raise AssertionError("the server stopped reading the tab") from None


def test_a_tab_that_floods_its_game_then_closes_frees_the_game_at_once(tmp_path: Path) -> None:
    async def flood(served: Served) -> list[int]:
        (session, socket_), _ = await first_frame(served)
        games = games_of(served.process.pid)
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            await send_keys(socket_, "x" * 3_900_000, 3)
        await socket_.close()
        await session.close()
        return games

    async def play_again(served: Served) -> bytes:
        # The server frees the place as it sees the game's process end: a moment after.
        deadline = time.monotonic() + 3.0
        while True:
            try:
                (session, socket_), drawn = await first_frame(served)
            except aiohttp.WSServerHandshakeError as error:
                if error.status != 503 or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
                continue
            await socket_.close()
            await session.close()
            return drawn

    with forage_server(tmp_path / "home", tmp_path, "--max-games", "1") as served:
        games = asyncio.run(flood(served))
        assert len(games) == 1
        wait_until_gone(games, END_SECONDS)
        # Its place is free: under --max-games 1 a new tab gets a game.
        assert b"Turn 1 of 8" in asyncio.run(play_again(served))


def test_keys_beyond_a_tabs_rate_are_dropped_and_the_game_ends_with_its_tab(
    tmp_path: Path,
) -> None:
    async def run(served: Served) -> tuple[list[int], bool]:
        (session, socket_), _ = await first_frame(served)
        games = games_of(served.process.pid)
        await send_keys(socket_, "x" * 4000, 100)  # 400 KB at once, each message within 4 KiB
        answered = await pong(socket_, "12345")
        await socket_.close()
        await session.close()
        return games, answered

    with forage_server(tmp_path / "home", tmp_path) as served:
        games, answered = asyncio.run(run(served))
        assert answered, "the tab was closed, not its keys dropped"
        assert len(games) == 1
        wait_until_gone(games, END_SECONDS)


def test_more_than_4_KiB_of_keys_in_one_message_closes_the_tab(tmp_path: Path) -> None:
    async def run(served: Served) -> tuple[list[int], int | None]:
        (session, socket_), _ = await first_frame(served)
        games = games_of(served.process.pid)
        await send_keys(socket_, "x" * 4097, 1)
        code = await receive_until_closed(socket_)
        await session.close()
        return games, code

    with forage_server(tmp_path / "home", tmp_path) as served:
        games, code = asyncio.run(run(served))
        assert code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        wait_until_gone(games, END_SECONDS)


def test_a_websocket_message_over_64_KiB_closes_the_tab(tmp_path: Path) -> None:
    async def run(served: Served) -> int | None:
        (session, socket_), _ = await first_frame(served)
        await socket_.send_json(["resize", {"width": 80, "height": 24, "pad": "x" * 65536}])
        code = await receive_until_closed(socket_)
        await session.close()
        return code

    with forage_server(tmp_path / "home", tmp_path) as served:
        assert asyncio.run(run(served)) == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


def test_a_tab_closing_ends_its_game_even_while_the_game_takes_no_input(
    tmp_path: Path,
) -> None:
    """A game that reads none of its input (its pipe full, the server waiting to write more)
    still ends within seconds of its tab closing."""
    from aiohttp import web

    from forage.adapters.textual_serve import game_process
    from forage.cli.game_server import GameServer, TabLimits

    port = free_port()
    unlimited = TabLimits(stdin_rate=1e9, stdin_burst=1e9)
    server = GameServer("127.0.0.1", port, None, 4, command="exec sleep 600", limits=unlimited)

    async def run() -> tuple[list[int], float]:
        runner = web.AppRunner(await server.web_app())
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            async with aiohttp.ClientSession() as session:
                tab = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
                await send_keys(tab, "x" * 4000, 200)  # more than the game's pipe holds
                await asyncio.sleep(0.5)
                games = [process.pid for process in map(game_process, server.games) if process]
                await tab.close()
                closed = time.monotonic()
                while any(_alive(pid) for pid in games) and time.monotonic() - closed < 15:
                    await asyncio.sleep(0.05)
                return games, time.monotonic() - closed
        finally:
            await runner.cleanup()

    games, took = asyncio.run(run())
    assert len(games) == 1
    assert took < END_SECONDS, f"the game ended {took:.1f} s after its tab closed"


def test_a_killed_server_leaves_no_game_running_nor_the_save_locked(tmp_path: Path) -> None:
    home = tmp_path / "home"

    async def kill_while_playing(served: Served) -> tuple[list[int], bool, float]:
        (session, socket_), _ = await first_frame(served)
        reading = asyncio.create_task(keep_reading(socket_))
        await asyncio.sleep(1.0)  # the game is idle, holding the save's lock
        games = games_of(served.process.pid)
        held = not lock_free(home / LOCK_NAME)
        os.kill(served.process.pid, signal.SIGKILL)
        took = await asyncio.to_thread(wait_until_gone, games, END_SECONDS)
        await reading
        await session.close()
        return games, held, took

    with forage_server(home, tmp_path) as served:
        games, held, took = asyncio.run(kill_while_playing(served))
    assert len(games) == 1 and held
    assert took < END_SECONDS
    assert lock_free(home / LOCK_NAME)
    assert not list(home.glob("crash-*.log"))


def lock_free(path: Path) -> bool:
    """Whether a new lock on the save's lock file is granted at once."""
    import fcntl

    with path.open("a+") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return True


def test_a_game_whose_server_is_already_gone_ends_at_once(tmp_path: Path) -> None:
    """A game told it was started by a process that is not its parent (its server died
    before the game could ask to be told) ends as if the server's death signalled it."""
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), SERVER_PID_VARIABLE: "1"}
    env["TEXTUAL_DRIVER"] = "textual.drivers.web_driver:WebDriver"
    done = subprocess.run(
        [sys.executable, "-m", "forage", "play"],
        env=env,
        stdin=subprocess.PIPE,
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == -signal.SIGTERM
    assert b"__GANGLION__" not in done.stdout


def test_a_served_game_whose_input_closes_saves_and_exits_143(tmp_path: Path) -> None:
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), SERVER_PID_VARIABLE: str(os.getpid())}
    env["TEXTUAL_DRIVER"] = "textual.drivers.web_driver:WebDriver"
    game = subprocess.Popen(
        [sys.executable, "-m", "forage", "play"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert game.stdout is not None and game.stdin is not None
        drawn = b""
        while b"Turn 1 of 8" not in drawn:
            chunk = game.stdout.read1(65536)
            assert chunk, "the game ended before drawing"
            drawn += chunk
        game.stdin.close()
        started = time.monotonic()
        reading = threading.Thread(target=game.stdout.read, daemon=True)
        reading.start()  # the game may write its last frames
        assert game.wait(END_SECONDS) == 143
        assert time.monotonic() - started < END_SECONDS
    finally:
        game.kill()
        game.wait()


def raw_request(port: int, head: str) -> bytes:
    """Send an HTTP request head as given; the start of the answer (empty if none)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(head.encode())
        try:
            return connection.recv(200)
        except (TimeoutError, ConnectionError):
            return b""


def test_bad_requests_are_logged_in_one_line_without_their_headers(tmp_path: Path) -> None:
    secret = "sessiontoken"
    with forage_server(tmp_path / "home", tmp_path) as served:
        started = served.output()
        with pytest.raises(urllib.error.HTTPError) as plain:
            urllib.request.urlopen(served.url + "ws", timeout=5)
        assert plain.value.code == 400
        for path in ("/", "/ws"):
            answer = raw_request(
                served.port,
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                f"Cookie: {secret * 5000}\r\n\r\n",
            )
            assert answer.split(b" ", 2)[1:2] == [b"400"] or answer == b""
        time.sleep(0.5)
        assert "<div>Forage</div>" in served.get_page()
        logged = served.output()[len(started) :]
    assert "Traceback" not in logged and secret not in logged
    assert len(logged.splitlines()) <= 4, logged


@pytest.mark.parametrize("query", ["width=%C2%B2&height=32", "width=100&height=%C2%B2"])
def test_a_size_in_other_digits_is_taken_as_no_size(tmp_path: Path, query: str) -> None:
    async def run(served: Served) -> bool:
        (session, socket_), _ = await first_frame(served, query)
        await socket_.send_json(["resize", {"width": "²", "height": "³"}])
        answered = await pong(socket_, "1")
        await socket_.close()
        await session.close()
        return answered

    with forage_server(tmp_path / "home", tmp_path) as served:
        assert asyncio.run(run(served)), "the tab was closed"
        assert "Traceback" not in served.output()
