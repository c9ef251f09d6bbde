"""``forage serve`` under a hostile page: huge sizes, tabs that vanish, too many tabs.

A size beyond 1000 x 500 is drawn at that size (the server and the game both clamp it); a
tab's game ends within 5 s of its websocket closing, cleanly or dropped; beyond
``--max-games`` a tab gets a page saying so; a tab closed while its game starts leaves
no crash log.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest
from serving import Served, forage_server, games_of, resident_mb

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")

END_SECONDS = 5.0


async def first_frame(
    served: Served, query: str = "width=100&height=32"
) -> tuple[tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse], bytes]:
    """Open a tab's websocket and read until the game has drawn its first turn."""
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
    socket_ = await session.ws_connect(served.url + "ws?" + query)
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
