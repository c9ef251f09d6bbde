"""What the online daily costs ``forage serve``: 1000 players each playing the day's try.

Two set-ups, each from a fresh store: two ``forage serve`` processes on one PostgreSQL
database (a throwaway cluster, as the tests start it: tests/postgres.py), the players shared
between them; and one ``forage serve`` on its SQLite file. From this process, every player
connects (from its own loopback address, ten players an address, as registrations are
limited per address), asks for the daily (registering its name), and all play at once,
each placing the first legal placement of its hand the moment a card comes. Measured:

- placements a second: the 8 000 placements over the time from the first deal to the last
  end;
- the time from sending a placement to having the next card (``turn``), median and 99th
  percentile (the players' own processing counts in it: an upper bound on the server's);
- the leaderboard: the store is filled to ``--tries`` ended tries (the rest written straight
  into the database, as many servers would have), then ``GET /daily/leaderboard`` is asked
  ``--requests`` times, a few at once: median and 99th percentile;
- the count check: every ended try is on the board once, with its final, and the board's
  ranks are 1 to N.

    uv run python benchmarks/daily_online.py [--players 1000] [--tries 10000] [--only sqlite]

Every player plays the same deal with the same policy, so the players' process works out
each distinct hand once (a cache), which keeps its share of the two cores small.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import Served, forage_server, loopback_sessions

from forage.engine import Placement
from forage.net.client import PlayerGame, RoomClient
from forage.net.daily import Board, day_of
from forage.net.protocol import (
    DealOut,
    EndOut,
    ErrorOut,
    JoinedOut,
    PlacedOut,
    ResultLine,
    TurnOut,
    name_key,
)
from forage.net.rooms import (
    Created,
    Ended,
    EndReason,
    HostChanged,
    Kind,
    PlayerAdded,
    Started,
    TryStarted,
)
from forage.net.store import RoomStore

PER_ADDRESS = 10
"""Players connecting from one loopback address (the server registers 10 names an hour
from one address)."""


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Policy:
    """The first legal placement of a hand, each distinct game worked out once."""

    def __init__(self) -> None:
        """An empty cache."""
        self.known: dict[tuple[object, ...], Placement] = {}

    def choose(self, mirror: PlayerGame) -> Placement | None:
        """The placement for the turn, or None when the game is over."""
        key = (mirror.start, mirror.hand, tuple(mirror.called), tuple(mirror.moves))
        if key not in self.known:
            game = mirror.game()
            if game.is_over():
                return None
            self.known[key] = next(game.outcomes()).placement
        return self.known[key]


class Gate:
    """Holds the players back until every one has joined."""

    def __init__(self) -> None:
        """No one joined yet."""
        self.joined = 0
        self.go = asyncio.Event()


async def player(
    url: str, name: str, session: aiohttp.ClientSession, policy: Policy, gate: Gate
) -> tuple[list[float], EndOut]:
    """One player's try: ask for the daily, wait for the go, then play to the end; the time
    from each placement to the next card, and the end."""
    client = await RoomClient.connect(url, session=session, timeout=60)
    await client.daily(name)
    joined = await client.receive(60)
    if not isinstance(joined, JoinedOut):
        raise RuntimeError(f"{name}: {joined}")
    waits: list[float] = []
    mirror: PlayerGame | None = None
    sent = 0.0
    gate.joined += 1
    await gate.go.wait()
    try:
        async for message in client:
            if isinstance(message, ErrorOut):
                raise RuntimeError(f"{name}: {message.code}: {message.message}")
            if isinstance(message, EndOut):
                return waits, message
            if isinstance(message, DealOut):
                mirror = PlayerGame.dealt(message)
            elif mirror is not None and isinstance(message, PlacedOut | TurnOut):
                mirror.follow(message)
                if isinstance(message, TurnOut):
                    waits.append(time.perf_counter() - sent)
            if mirror is not None and isinstance(message, DealOut | TurnOut):
                placement = policy.choose(mirror)
                if placement is not None:
                    sent = time.perf_counter()
                    await client.place(mirror.turn, placement)
        raise RuntimeError(f"{name}: the connection closed before the end")
    finally:
        await client.close()


async def play_all(urls: list[str], players: int) -> dict[str, float]:
    """Every player asks for the daily, then all play at once; the figures."""
    policy = Policy()
    gate = Gate()
    async with loopback_sessions((players + PER_ADDRESS - 1) // PER_ADDRESS) as made:
        tasks = []
        started = time.perf_counter()
        for index in range(players):
            tasks.append(
                asyncio.create_task(
                    player(
                        urls[index % len(urls)],
                        f"bench-{index}",
                        made[index // PER_ADDRESS],
                        policy,
                        gate,
                    )
                )
            )
            if index % 50 == 49:
                await asyncio.sleep(0.05)  # connections in waves, as people arrive
        while gate.joined < players:
            failed = [t for t in tasks if t.done()]
            if failed:
                await failed[0]  # raises what went wrong
            await asyncio.sleep(0.05)
        joined = time.perf_counter() - started
        playing = time.perf_counter()
        cpu = time.process_time()
        gate.go.set()
        found = await asyncio.gather(*tasks)
        seconds = time.perf_counter() - playing
        cpu = time.process_time() - cpu
        await asyncio.sleep(0.2)
    waits = [wait for times, _ in found for wait in times]
    placements = sum(len(end.results[0].record["moves"]) for _, end in found)
    return {
        "joined": joined,
        "placements": placements,
        "per_second": placements / seconds,
        "seconds": seconds,
        "p50": statistics.median(waits) * 1000,
        "p99": percentile(waits, 0.99) * 1000,
        "client_cpu": cpu,
        "finals": float(len({end.results[0].name for _, end in found})),
    }


def seed(store: RoomStore, tries: int, have: int) -> None:
    """Fill the store up to ``tries`` ended tries of today, as servers would have."""
    day = day_of(time.time())
    deal = store.day_deal(day).deal
    now = time.time()
    with store.db.transaction():
        for index in range(have, tries):
            name = f"seeded-{index}"
            code = f"SEED{index:06d}"
            store.register(name_key(name), name, "0" * 64)
            line = ResultLine(
                player=1,
                name=name,
                final=index % 60 - 10,
                won=False,
                record={"format": "forage/1", "deal": list(deal.cards[:3]), "moves": []},
            )
            store.write(
                code,
                [
                    Created(Kind.DAILY, deal, 1, None),
                    PlayerAdded(1, name, "0" * 64),
                    HostChanged(1),
                    Started(),
                    TryStarted(day, name_key(name)),
                    Ended(EndReason.FINISHED, (line,), now + index * 1e-3),
                ],
            )


async def board_times(url: str, requests: int, at_once: int = 4) -> tuple[list[float], Board]:
    """Ask for the board ``requests`` times, ``at_once`` at a time; each time, and the board."""
    times: list[float] = []
    last: Board | None = None
    async with aiohttp.ClientSession() as session:

        async def ask() -> None:
            nonlocal last
            began = time.perf_counter()
            async with session.get(f"{url}daily/leaderboard") as response:
                body = await response.read()
            times.append(time.perf_counter() - began)
            last = Board.model_validate_json(body)

        for _ in range(requests // at_once):
            await asyncio.gather(*(ask() for _ in range(at_once)))
    assert last is not None
    return times, last


def count_check(board: Board, expected: int) -> str:
    """Whether every ended try is on the board once, ranked 1 to N: ``ok`` or the problem."""
    names = [entry.name for entry in board.entries]
    if len(names) != expected or len(set(names)) != expected:
        return f"{len(names)} entries, {len(set(names))} names, for {expected} tries"
    if [entry.rank for entry in board.entries] != list(range(1, expected + 1)):
        return "the ranks are not 1 to N"
    finals = [entry.final for entry in board.entries]
    return "ok" if finals == sorted(finals, reverse=True) else "not best first"


def measure(urls: list[str], store: RoomStore, args: argparse.Namespace) -> dict[str, object]:
    """Play, check, fill the store, time the board."""
    played = asyncio.run(play_all(urls, args.players))
    times, board = asyncio.run(board_times(urls[0], 20))
    first_check = count_check(board, args.players)
    seed(store, args.tries, args.players)
    times, board = asyncio.run(board_times(urls[-1], args.requests))
    return {
        **played,
        "board_p50": statistics.median(times) * 1000,
        "board_p99": percentile(times, 0.99) * 1000,
        "check_players": first_check,
        "check_all": count_check(board, args.tries),
    }


def report(title: str, found: dict[str, object]) -> None:
    """Print one set-up's figures."""
    print(title)
    print(
        f"  {found['placements']} placements in {found['seconds']:.1f} s: "
        f"{found['per_second']:.0f} a second; placement to next card: median "
        f"{found['p50']:.1f} ms, p99 {found['p99']:.1f} ms (players' processor "
        f"{found['client_cpu']:.1f} s)"
    )
    print(
        f"  leaderboard of {found['tries']} tries: median {found['board_p50']:.1f} ms, "
        f"p99 {found['board_p99']:.1f} ms"
    )
    print(f"  count check: {found['check_players']} after the plays, {found['check_all']} after")


def main() -> None:
    """Measure both set-ups and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tries", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--only", choices=("postgresql", "sqlite"))
    args = parser.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {args.players} players")
    if args.only != "sqlite":
        from postgres import cluster, missing

        why = missing()
        if why is not None:
            print(f"PostgreSQL skipped: {why}")
        else:
            with tempfile.TemporaryDirectory() as folder, cluster() as made:
                url = made.schema()
                with ExitStack() as stack:
                    served: list[Served] = [
                        stack.enter_context(
                            forage_server(Path(folder) / f"home-{i}", Path(folder), "--db", url)
                        )
                        for i in range(2)
                    ]
                    store = RoomStore.open(url=url)
                    found = measure([s.url for s in served], store, args)
                    store.close()
                report("two servers on one PostgreSQL", {**found, "tries": args.tries})
    if args.only != "postgresql":
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder) / "home"
            with forage_server(home, Path(folder)) as one:
                store = RoomStore.open(home)
                found = measure([one.url], store, args)
                store.close()
            report("one server on SQLite", {**found, "tries": args.tries})


if __name__ == "__main__":
    main()
