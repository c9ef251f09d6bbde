"""What rooms cost ``forage serve``: the time to call each card, and memory per room.

Starts ``forage serve`` in its own process on a free loopback port (FORAGE_HOME a fresh
temporary folder), then from this process opens 250 rooms of 4 players (1000 websockets,
forage.net.client, each room from a loopback address of its own) and plays every game at
once to its end, each player placing the first legal placement of its hand when a card is
called: at once (every placement of a turn arriving together, the worst case), and again
after a pause of up to 2 s, as people take (``--think``). Measures:

- the call time: from the moment the last player of a room sends its placement for a
  turn to the moment every player of the room has the next turn's card (turns 2 to 8 of
  every room), median, 99th percentile and slowest;
- the server's resident memory before any room, with every room full in its lobby, and
  with every game dealt, and so the memory a room costs;
- that nothing is lost: every room ends with one result a player, each record replaying
  (forage.record) to its final.

With ``--db`` every run is made twice, the server on SQLite (its data folder) and on
PostgreSQL (``forage serve --db``, a throwaway cluster as the tests start it:
tests/postgres.py, a fresh schema a run), one after the other, and PostgreSQL's 99th
percentile is printed over SQLite's: a ratio from one run of a shared machine. The
cluster's processor time (its server processes, on the same cores) is printed beside the
server's.

    uv run python benchmarks/rooms.py [--rooms 250] [--players 4] [--think 0 2] [--db]

The players' side runs in one process and its time counts in the call time (a message is
timed when it is read), so the figures are an upper bound on the server's. With no pause the
players form a closed loop: each call waits behind every other player's turn, on the
server and in the players' process, so the call time grows with the number of players and
is of the order of either side's processor time for a turn of every room (printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from random import Random

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from postgres import Cluster, cluster, missing
from serving import Served, forage_server, games_of, loopback_sessions, resident_mb

from forage.net.client import PlayerGame, RoomClient
from forage.net.protocol import DealOut, EndOut, ErrorOut, JoinedOut, LobbyOut, TurnOut
from forage.record import load_game


class Table:
    """One room as its players see it: when each turn's last placement went, and when each
    player had the next card."""

    def __init__(self, code: str) -> None:
        """A room of this code, nothing played yet."""
        self.code = code
        self.sent: dict[int, float] = {}
        """Turn -> when the last placement of that turn was sent."""
        self.placed: dict[int, int] = {}
        """Turn -> how many players have sent that turn's placement."""
        self.heard: dict[int, list[float]] = {}
        """Turn -> when each player read its call."""
        self.ends: list[EndOut] = []


async def seat(client: RoomClient, table: Table, players: int, think: float, rng: Random) -> None:
    """Play one player's game: place the first legal placement whenever a card is called,
    after a pause of up to ``think`` seconds."""
    mirror: PlayerGame | None = None
    async for message in client:
        now = time.perf_counter()
        if isinstance(message, TurnOut):
            table.heard.setdefault(message.turn, []).append(now)
        if isinstance(message, DealOut):
            mirror = PlayerGame.dealt(message)
        elif isinstance(message, EndOut):
            table.ends.append(message)
            return
        elif isinstance(message, ErrorOut):
            raise RuntimeError(f"room {table.code}: {message.code}: {message.message}")
        elif mirror is not None:
            mirror.follow(message)
        if isinstance(message, DealOut | TurnOut) and mirror is not None:
            game = mirror.game()
            if game.is_over():
                continue
            placement = next(game.outcomes()).placement
            turn = mirror.turn
            if think:
                await asyncio.sleep(rng.uniform(0, think))
            table.placed[turn] = table.placed.get(turn, 0) + 1
            if table.placed[turn] == players:
                table.sent[turn] = time.perf_counter()
            await client.place(turn, placement)


async def open_room(
    served: Served, session: aiohttp.ClientSession, players: int
) -> tuple[Table, list[RoomClient]]:
    """A room with its players, all in the lobby."""
    clients = [await RoomClient.connect(served.url, session=session) for _ in range(players)]
    await clients[0].create("P1")
    joined = await clients[0].receive(30)
    assert isinstance(joined, JoinedOut), joined
    table = Table(joined.room)
    for index, client in enumerate(clients[1:], 2):
        await client.join(table.code, f"P{index}")
        assert isinstance(await client.receive(30), JoinedOut)
    for client in clients:  # each has had the lobby with everyone in it
        while True:
            lobby = await client.receive(30)
            if isinstance(lobby, LobbyOut) and len(lobby.players) == players:
                break
    return table, clients


def cpu_seconds(pid: int) -> float:
    """The processor time a process has used so far (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cluster_cpu(made: Cluster) -> float:
    """The processor time a PostgreSQL cluster's running processes have used so far, in
    seconds (its postmaster and the processes it started: connections, writers)."""
    postmaster = int((made.folder / "data" / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for pid in [postmaster, *games_of(postmaster)]:
        with contextlib.suppress(OSError):  # a connection that ended meanwhile
            total += cpu_seconds(pid)
    return total


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def measure(
    served: Served,
    rooms: int,
    players: int,
    think: float,
    database_cpu: Callable[[], float] = lambda: 0.0,
) -> dict[str, float]:
    """Open the rooms, play every game at once, and gather the figures (``database_cpu``:
    the processor time a database outside the server has used so far)."""
    empty = resident_mb(served.process.pid)
    async with loopback_sessions(rooms) as sessions:  # a room an address, as from homes
        opened = []
        for start in range(0, rooms, 25):
            opened.extend(
                await asyncio.gather(
                    *(open_room(served, s, players) for s in sessions[start : start + 25])
                )
            )
        await asyncio.sleep(1.0)
        lobbies = resident_mb(served.process.pid)
        rng = Random(1)
        playing = [
            asyncio.create_task(seat(client, table, players, think, rng))
            for table, clients in opened
            for client in clients
        ]
        started = time.perf_counter()
        server_cpu, client_cpu = cpu_seconds(served.process.pid), time.process_time()
        db_cpu = database_cpu()
        for _, clients in opened:
            await clients[0].start()
        await asyncio.sleep(0)
        dealt = 0.0
        while not all(task.done() for task in playing):
            await asyncio.sleep(0.2)
            if not dealt and all(t.heard.get(2) for t, _ in opened):
                dealt = resident_mb(served.process.pid)
        await asyncio.gather(*playing)
        seconds = time.perf_counter() - started
        server_cpu = cpu_seconds(served.process.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        db_cpu = database_cpu() - db_cpu
        for _, clients in opened:
            for client in clients:
                await client.close()
    waits = []
    for table, _ in opened:
        for turn, heard in table.heard.items():
            if len(heard) != players:
                raise RuntimeError(f"room {table.code}: turn {turn} reached {len(heard)} players")
            waits.append(max(heard) - table.sent[turn - 1])
    lost = check_results([table for table, _ in opened], players)
    return {
        "calls": len(waits),
        "p50": statistics.median(waits) * 1000,
        "p99": percentile(waits, 0.99) * 1000,
        "max": max(waits) * 1000,
        "empty": empty,
        "lobbies": lobbies,
        "dealt": dealt,
        "per_room": (max(lobbies, dealt) - empty) * 1000 / rooms,
        "seconds": seconds,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "database_cpu": db_cpu,
        "lost": lost,
    }


def check_results(tables: list[Table], players: int) -> int:
    """How many rooms did not end with a result a player whose record replays to its final."""
    lost = 0
    for table in tables:
        if len(table.ends) != players:
            lost += 1
            continue
        lines = table.ends[0].results
        good = len(lines) == players and all(
            load_game(json.dumps(line.record))[0].result().score.final == line.final
            for line in lines
        )
        lost += not good
    return lost


TARGET_RATIO = 1.5
"""PostgreSQL's 99th percentile call time at most this many times SQLite's."""


def run_once(rooms: int, players: int, think: float, made: Cluster | None) -> dict[str, float]:
    """One measured run against a fresh server: on SQLite, or on a fresh schema of a cluster."""
    with tempfile.TemporaryDirectory() as folder:
        options = ["--max-rooms", str(rooms)]
        database_cpu: Callable[[], float] = lambda: 0.0  # noqa: E731
        if made is not None:
            options += ["--db", made.schema()]
            database_cpu = functools.partial(cluster_cpu, made)
        with forage_server(Path(folder) / "home", Path(folder), *options) as served:
            return asyncio.run(measure(served, rooms, players, think, database_cpu))


def report(found: dict[str, float], rooms: int, players: int, think: float, store: str) -> None:
    """Print one run's figures."""
    pause = f"players pausing up to {think:g} s" if think else "no pause"
    print(f"{rooms} rooms of {players} players on {store}, every game at once, {pause}")
    print(
        f"  call time over {found['calls']:.0f} calls: median {found['p50']:.1f} ms, "
        f"p99 {found['p99']:.1f} ms, slowest {found['max']:.1f} ms"
    )
    print(
        f"  server memory: {found['empty']:.0f} MB with no room, {found['lobbies']:.0f} MB "
        f"with every lobby full, {found['dealt']:.0f} MB with every game dealt: "
        f"{found['per_room']:.0f} kB a room"
    )
    database = f", database {found['database_cpu']:.1f} s" if found["database_cpu"] else ""
    print(
        f"  all games played in {found['seconds']:.1f} s (processor: server "
        f"{found['server_cpu']:.1f} s{database}, players {found['client_cpu']:.1f} s); "
        f"rooms with a result lost: {found['lost']:.0f}"
    )
    if think:
        return
    turns = found["calls"] / rooms + 1
    print(
        f"  a turn of every room costs the server {found['server_cpu'] / turns * 1000:.0f} ms "
        f"and the players {found['client_cpu'] / turns * 1000:.0f} ms of processor time"
    )


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.0, 2.0],
        help="each player pauses up to this many seconds before placing (one run each)",
    )
    parser.add_argument(
        "--db",
        action="store_true",
        help="also run each on PostgreSQL (a throwaway cluster) and compare with SQLite",
    )
    args = parser.parse_args()
    why = missing() if args.db else None
    if why is not None:
        parser.error(f"--db needs PostgreSQL here: {why}")
    with ExitStack() as stack:
        made = stack.enter_context(cluster()) if args.db else None
        for think in args.think:
            sqlite = run_once(args.rooms, args.players, think, None)
            report(sqlite, args.rooms, args.players, think, "SQLite")
            if made is None:
                continue
            postgresql = run_once(args.rooms, args.players, think, made)
            report(postgresql, args.rooms, args.players, think, "PostgreSQL")
            ratio = postgresql["p99"] / sqlite["p99"]
            verdict = "met" if ratio <= TARGET_RATIO else "missed"
            print(
                f"  PostgreSQL's p99 over SQLite's: {ratio:.2f}x "
                f"(target at most {TARGET_RATIO:g}x: {verdict})"
            )


if __name__ == "__main__":
    main()
