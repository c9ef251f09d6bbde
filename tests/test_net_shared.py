"""Several ``forage serve`` processes on one PostgreSQL database (``--db``), and servers killed
with SIGKILL: one leaderboard, one room whose players are connected to different servers,
a try resumed after its server was killed, and every ended try on the board once."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from helpers import run_forage
from postgres import Cluster, StoreAt
from room_serving import (
    Player,
    check_results,
    expect,
    quiet,
    rooms_at,
    run,
    start_rooms,
    until,
)
from serving import Served, forage_server, free_port

from forage.net.admission import ServerRules
from forage.net.client import RoomClient
from forage.net.daily import Board
from forage.net.protocol import DealOut, EndOut, JoinedOut, LobbyOut, RematchOut, TurnOut
from forage.net.rooms import RoomRules
from forage.net.store import RoomStore


def board_of(served: Served) -> Board:
    """A server's board of today."""
    with urllib.request.urlopen(f"{served.url}daily/leaderboard", timeout=10) as response:
        return Board.model_validate(json.loads(response.read()))


def logged(served: Served) -> list[str]:
    """What a server has printed beyond saying where it serves (its problems)."""
    said = ("forage: serving the game at", "forage: each browser tab")
    return [line for line in served.output().splitlines() if not line.startswith(said)]


@contextmanager
def servers(tmp_path: Path, count: int, *options: str) -> Iterator[list[Served]]:
    """``count`` servers, each with its own data folder, with the same options."""
    with ExitStack() as stack:
        yield [
            stack.enter_context(forage_server(tmp_path / f"home-{i}", tmp_path, *options))
            for i in range(count)
        ]


async def daily(url: str, name: str, token: str | None = None) -> Player:
    """A player on a server who asked for the daily and was answered ``joined``."""
    player = Player(await RoomClient.connect(url))
    await player.client.daily(name, token)
    player.took(await expect(player.client, JoinedOut))
    return player


def test_two_servers_share_one_leaderboard_and_one_room(tmp_path: Path, postgres: Cluster) -> None:
    url = postgres.schema()

    async def scenario(one: Served, two: Served) -> EndOut:
        ann = await daily(one.url, "Ann")
        bob = await daily(two.url, "Bob")
        for player in (ann, bob):
            await player.play_to_end()
            await player.close()
        host = Player(await RoomClient.connect(one.url))
        await host.create("Cy")
        guest = Player(await RoomClient.connect(two.url))
        await guest.join(host.room, "Dee")
        lobby = await until(host.client, LobbyOut)  # told through the other server
        while len(lobby.players) < 2:
            lobby = await until(host.client, LobbyOut)
        await host.client.start()
        for player in (host, guest):
            await player.read_until(DealOut)
        ends = await asyncio.gather(host.play_to_end(), guest.play_to_end())
        assert ends[0].results == ends[1].results
        for player in (host, guest):
            await player.close()
        return ends[0]

    with servers(tmp_path, 2, "--db", url) as (one, two):
        end = run(scenario(one, two), 120)
        boards = [board_of(one), board_of(two)]
        assert logged(one) == logged(two) == []
    check_results(end, 2)
    assert boards[0] == boards[1]
    assert sorted(entry.name for entry in boards[0].entries) == ["Ann", "Bob"]


def test_a_try_survives_its_server_killed_and_the_board_counts_it_once(
    tmp_path: Path, store_at: StoreAt
) -> None:
    options = () if store_at.url is None else ("--db", store_at.url)
    home = tmp_path / "home"

    async def begin(served: Served) -> tuple[Player, list[object]]:
        eve = await daily(served.url, "Eve")
        await eve.read_until(DealOut)
        for _ in range(3):
            await eve.place_first()
            await eve.read_until(TurnOut)
        assert eve.mirror is not None
        served.process.kill()  # SIGKILL: mid-try, nothing said to anyone
        served.process.wait(10)
        await eve.close()
        return eve, list(eve.mirror.moves)

    async def finish(served: Served, token: str, moves: list[object]) -> EndOut:
        again = await daily(served.url, "Eve", token)
        await again.read_until(DealOut)
        while again.mirror is not None and again.mirror.turn < 4:
            await again.read()
        assert again.mirror is not None and again.mirror.moves == moves
        end = await again.play_to_end()
        await again.close()
        return end

    with forage_server(home, tmp_path, *options) as first:
        eve, moves = run(begin(first), 60)
    with forage_server(home, tmp_path, *options) as second:
        end = run(finish(second, eve.token, moves), 60)
        board = board_of(second)
        assert logged(second) == []
    [line] = end.results
    assert len(line.record["moves"]) == 8
    assert [(entry.name, entry.final) for entry in board.entries] == [("Eve", line.final)]


@pytest.mark.parametrize("tries", [12])
def test_every_ended_try_is_on_the_board_once(
    tmp_path: Path, postgres: Cluster, tries: int
) -> None:
    url = postgres.schema()

    async def scenario(urls: list[str]) -> None:
        async def one(index: int) -> None:
            player = await daily(urls[index % len(urls)], f"P{index}")
            await player.play_to_end()
            await player.close()

        await asyncio.gather(*(one(index) for index in range(tries)))

    with servers(tmp_path, 2, "--db", url) as served:
        run(scenario([s.url for s in served]), 120)
        boards = [board_of(s) for s in served]
    names = [entry.name for entry in boards[0].entries]
    assert sorted(names) == sorted(f"P{index}" for index in range(tries))
    assert boards[0] == boards[1]
    assert [entry.rank for entry in boards[0].entries] == list(range(1, tries + 1))


def test_a_bad_or_unreachable_database_is_one_line() -> None:
    done = run_forage("serve", "--port", str(free_port()), "--db", "mysql://me:pw@db/forage")
    assert done.returncode == 2
    assert done.stderr == "forage: --db: a PostgreSQL address postgresql://..., not 'db/forage'\n"
    away = "postgresql://me:hunter2@127.0.0.1:1/forage?connect_timeout=2"
    done = run_forage("serve", "--port", str(free_port()), "--db", away)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        "forage: the rooms' store postgresql://me:***@127.0.0.1:1/forage?connect_timeout=2:"
        " cannot connect ("
    )
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr


def test_the_players_of_a_server_that_stops_are_waited_for_by_the_others(
    tmp_path: Path, postgres: Cluster
) -> None:
    url = postgres.schema()
    rules = ServerRules(
        sweep_seconds=0.2,
        dead_seconds=30.0,  # a stopping server says so: it is found at the next sweep
        close_seconds=0.5,
        room=RoomRules(wait_seconds=1.5, idle_seconds=60),
    )

    async def scenario() -> None:
        async with rooms_at(tmp_path / "one", rules, url) as one:
            two = await start_rooms(tmp_path / "two", rules, url)
            ann, bob = await one.player(), await two.player()
            await ann.create("Ann")
            await bob.join(ann.room, "Bob")
            await ann.client.start()
            await ann.read_until(DealOut)
            await bob.read_until(DealOut)
            await two.stop()  # Bob's server goes, and Bob with it
            lobby = await until(ann.client, LobbyOut)
            while all(p.connected for p in lobby.players):
                lobby = await until(ann.client, LobbyOut)
            assert [p.name for p in lobby.players if not p.connected] == ["Bob"]
            end = await ann.play_to_end()  # Bob waited out, Ann plays on alone
            assert {line.name for line in end.results} == {"Ann", "Bob"}

    run(scenario(), 120)


def test_what_is_told_before_a_server_listens_is_passed_on_when_it_does(
    tmp_path: Path, postgres: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.schema()
    gate: list[asyncio.Event] = []
    listening = RoomStore.notifications

    async def late(store: RoomStore) -> AsyncIterator[str]:
        await gate[0].wait()  # the servers' listeners connect only when the test says
        async for payload in listening(store):
            yield payload

    monkeypatch.setattr(RoomStore, "notifications", late)

    async def scenario() -> None:
        gate.append(asyncio.Event())
        async with (
            rooms_at(tmp_path / "one", None, url) as one,
            rooms_at(tmp_path / "two", None, url) as two,
        ):
            ann, bob = await one.player(), await two.player()
            await ann.create("Ann")
            await bob.join(ann.room, "Bob")
            await ann.client.start()  # Bob's deal is told while server two is deaf
            await ann.read_until(DealOut)
            assert not any(isinstance(m, DealOut) for m in await quiet(bob.client, 0.5))
            gate[0].set()
            await bob.read_until(DealOut)
            assert bob.mirror is not None and bob.mirror.turn == 1

    run(scenario(), 60)


def test_a_rematch_reaches_a_player_on_another_server_once_its_room_is_stored(
    tmp_path: Path, postgres: Cluster
) -> None:
    url = postgres.schema()

    async def scenario() -> None:
        async with (
            rooms_at(tmp_path / "one", None, url) as one,
            rooms_at(tmp_path / "two", None, url) as two,
        ):
            ann, bob = await one.player(), await two.player()
            await ann.create("Ann")
            await bob.join(ann.room, "Bob")
            await ann.client.start()
            for player in (ann, bob):
                await player.read_until(DealOut)
            await asyncio.gather(ann.play_to_end(), bob.play_to_end())
            await ann.client.rematch()
            joined = await until(ann.client, JoinedOut)
            told = await until(bob.client, RematchOut)  # passed on by the other server
            assert (told.room, told.host) == (joined.room, "Ann")
            await bob.client.join(told.room, "Bob")  # the new room is stored: server two has it
            assert (await until(bob.client, JoinedOut)).room == joined.room
            await ann.client.start()
            assert await until(ann.client, DealOut) == await until(bob.client, DealOut)

    run(scenario(), 60)
