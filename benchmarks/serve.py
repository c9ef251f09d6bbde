"""What ``forage serve`` costs a tab: memory, and the time until its first frame.

Starts ``forage serve`` on a free loopback port (FORAGE_HOME a fresh temporary folder),
then for each count of tabs (1, 5 and 20 by default) opens that many websockets at once,
as browser tabs would, and measures:

- the time from opening each tab to its game's first frame ("Turn 1 of 8" drawn; every
  tab but the one holding the save first answers "play a new game here?"), the median
  and the slowest;
- the resident memory of the server and of each tab's game process, once all are drawn;
- after closing every tab, how long until the last of their games has ended.

Also: one tab asking for a 100000 x 100000 terminal (clamped to 1000 x 500), the memory of
the server and its game after 5 s; and one tab that floods its game (three websocket
messages of 3.9 million keys each, then closes): the game's peak memory, the CPU time it
used and how long after the close it ended (given up after 90 s). Nothing here is a timed
test; the figures go in docs/serve.md.

    uv run python benchmarks/serve.py [--tabs 1 5 20] [--flood-only]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import Served, forage_server, games_of, resident_mb
from terminal import ESCAPES


async def open_tab(
    served: Served, session: aiohttp.ClientSession, query: str
) -> tuple[aiohttp.ClientWebSocketResponse, float]:
    """A tab's websocket and the seconds until its game drew the first turn."""
    started = time.monotonic()
    tab = await session.ws_connect(served.url + "ws?" + query)
    drawn, asked = b"", False
    while b"Turn1of8" not in (shown := re.sub(rb"\s", b"", ESCAPES.sub(b"", drawn))):
        if not asked and b"Playanewgamehere" in shown:  # another tab holds the save
            await tab.send_json(["stdin", "y"])
            asked = True
        message = await tab.receive(timeout=120)
        if message.type != aiohttp.WSMsgType.BINARY:
            raise RuntimeError(f"tab closed: {message}")
        drawn += message.data
    return tab, time.monotonic() - started


def memory(served: Served) -> tuple[float, list[float]]:
    """The server's resident MB and each of its games'."""
    return resident_mb(served.process.pid), [resident_mb(p) for p in games_of(served.process.pid)]


def until_gone(served: Served, limit: float = 60) -> float:
    """Seconds until the server has no games left."""
    started = time.monotonic()
    while games_of(served.process.pid) and time.monotonic() - started < limit:
        time.sleep(0.02)
    return time.monotonic() - started


async def tabs_at_once(served: Served, count: int) -> dict[str, float]:
    """Open ``count`` tabs together; their first-frame times, memory, and the end time."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:
        opened = await asyncio.gather(
            *(open_tab(served, session, "width=100&height=32") for _ in range(count))
        )
        reading = [asyncio.create_task(keep_reading(tab)) for tab, _ in opened]
        await asyncio.sleep(1.0)
        server, games = memory(served)
        for tab, _ in opened:
            await tab.close()
        await asyncio.gather(*reading)
    ended = await asyncio.to_thread(until_gone, served)
    times = [seconds for _, seconds in opened]
    return {
        "median": statistics.median(times),
        "slowest": max(times),
        "server": server,
        "game": statistics.mean(games) if games else 0.0,
        "total": server + sum(games),
        "ended": ended,
    }


async def keep_reading(tab: aiohttp.ClientWebSocketResponse) -> None:
    """Read a tab's frames (and so answer the server's pings), as a browser does."""
    with contextlib.suppress(aiohttp.ClientError, ConnectionError):
        async for _ in tab:
            pass


async def huge_tab(served: Served) -> float:
    """Memory of the server and its game 5 s after a tab asks for 100000 x 100000."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
        tab, _ = await open_tab(served, session, "width=100000&height=100000")
        reading = asyncio.create_task(keep_reading(tab))
        await tab.send_json(["resize", {"width": 100000, "height": 100000}])
        await asyncio.sleep(5)
        server, games = memory(served)
        assert games, "the tab's game is gone"
        await tab.close()
        await reading
    await asyncio.to_thread(until_gone, served)
    return server + sum(games)


FLOOD_WATCH_SECONDS = 90.0


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user and system), 0 once it has gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def flood_tab(served: Served) -> dict[str, float]:
    """A tab that sends three messages of 3.9 million keys and closes: its game's peak MB,
    its CPU seconds and the seconds from the close until it ended (or gave up watching)."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
        tab, _ = await open_tab(served, session, "width=100&height=32")
        (game,) = games_of(served.process.pid)
        reading = asyncio.create_task(keep_reading(tab))
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            for _ in range(3):
                await tab.send_json(["stdin", "x" * 3_900_000])
        await tab.close()
        closed = time.monotonic()
        await reading
    peak = cpu = 0.0
    while game in games_of(served.process.pid):
        peak, cpu = max(peak, resident_mb(game)), max(cpu, cpu_seconds(game))
        if time.monotonic() - closed > FLOOD_WATCH_SECONDS:
            break
        await asyncio.sleep(0.1)
    ended = time.monotonic() - closed
    return {"peak": peak, "cpu": cpu, "ended": ended}


def main() -> None:
    """Measure and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, nargs="+", default=[1, 5, 20])
    parser.add_argument("--flood-only", action="store_true", help="measure only the flood")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        with forage_server(home, Path(folder), "--max-games", "64") as served:
            if not args.flood_only:
                print(
                    "tabs  first frame: median  slowest   server MB  MB a game  total MB  all ended"
                )
            for count in [] if args.flood_only else args.tabs:
                found = asyncio.run(tabs_at_once(served, count))
                print(
                    f"{count:>4}  {found['median']:>19.2f}s {found['slowest']:>7.2f}s"
                    f"  {found['server']:>9.0f}  {found['game']:>9.0f}  {found['total']:>8.0f}"
                    f"  {found['ended']:>8.2f}s"
                )
            if not args.flood_only:
                total = asyncio.run(huge_tab(served))
                print(f"a 100000 x 100000 tab after 5 s: {total:.0f} MB, server and game together")
            flood = asyncio.run(flood_tab(served))
            print(
                f"a tab flooding its game, then closed: game peak {flood['peak']:.0f} MB, "
                f"{flood['cpu']:.1f} CPU s, ended {flood['ended']:.1f} s after the close"
                + (" (still running: gave up)" if games_of(served.process.pid) else "")
            )


if __name__ == "__main__":
    main()
