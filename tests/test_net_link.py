"""A player's link to a room (forage.net.link) against a real rooms server on a free
127.0.0.1 port: opening and joining, the state as told, whom a turn waits for, a lost
connection taken back by itself (a placement sent meanwhile sent again), a room the server
no longer has, an address where no server answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from room_serving import (
    QUICK,
    Rooms,
    check_results,
    link_place_first,
    link_play_to_end,
    link_until,
    rooms_at,
    run,
    serving_play,
)
from serving import free_port

from forage.net.link import Connection, News, Pending, Refused, RoomLink, Unreachable
from forage.net.protocol import PlacedOut, ProgressOut, TurnOut


async def two_players(rooms: Rooms) -> tuple[RoomLink, RoomLink]:
    """Ann's room with Bob in it, dealt."""
    ann = RoomLink(rooms.url, retry_seconds=QUICK)
    await ann.create("Ann")
    bob = RoomLink(rooms.url, retry_seconds=QUICK)
    await bob.join(ann.state.room.lower(), "Bob")
    await link_until(ann, lambda link: len(link.state.players) == 2)
    assert ann.state.is_host and not bob.state.is_host
    assert await ann.start()
    for link in (ann, bob):
        await link_until(link, lambda link: link.state.game is not None)
    return ann, bob


def test_two_links_play_a_room_to_its_end_and_are_told_whom_each_turn_waits_for(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann, bob = await two_players(rooms)
            assert ann.state.waiting_for() == ["Bob"] and bob.state.waiting_for() == ["Ann"]
            await link_place_first(ann)
            await link_until(ann, lambda link: link.state.progress is not None)
            await link_until(bob, lambda link: link.state.progress is not None)
            assert ann.state.waiting_for() == ["Bob"]
            assert bob.state.placed_now() == {ann.state.player}
            assert bob.state.waiting_for() == []  # only Bob himself is waited for
            ends = await asyncio.gather(link_play_to_end(ann), link_play_to_end(bob))
            assert ends[0] == ends[1]
            check_results(ends[0], 2)
            for link in (ann, bob):
                game = link.state.game
                assert game is not None and game.game().is_finished()
                await link.close()
                assert link.connection is Connection.CLOSED

    run(scenario())


def test_a_connection_closed_by_the_server_mid_turn_is_taken_back_and_play_goes_on(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann, bob = await two_players(rooms)
            news: list[News] = []
            bob.watch(news.append)
            await link_place_first(ann)
            await link_place_first(bob)
            await link_until(bob, lambda link: link.state.turn == 2)
            moves = list(bob.state.game.moves) if bob.state.game else []
            seat = rooms.server.service.seats[(bob.state.room, bob.state.player)]
            await seat.socket.close()  # the server ends Bob's connection
            await link_until(bob, lambda link: link.connection is Connection.LOST)
            placed = await link_place_first(bob)  # sent while the connection is down
            assert bob.pending is not None
            await link_until(bob, lambda link: link.connection is Connection.OPEN)
            await link_until(bob, lambda link: link.pending is None)
            game = bob.state.game
            assert game is not None and game.moves == [*moves, placed] and game.turn == 2
            changes = [n.connection for n in news if n.connection is not None]
            assert changes[:1] == [Connection.LOST] and changes[-1] is Connection.OPEN
            assert [n.message.type for n in news if isinstance(n.message, PlacedOut)] != []
            ends = await asyncio.gather(link_play_to_end(ann), link_play_to_end(bob))
            check_results(ends[0], 2)
            await ann.close()
            await bob.close()

    run(scenario())


def test_a_placement_answered_before_the_connection_dropped_is_not_made_twice(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann, bob = await two_players(rooms)
            placed = await link_place_first(bob)
            await link_until(bob, lambda link: link.pending is None)
            news: list[News] = []
            bob.watch(news.append)
            bob.pending = Pending(1, placed)  # as if the answer had been lost with the connection
            seat = rooms.server.service.seats[(bob.state.room, bob.state.player)]
            await seat.socket.close()
            await link_until(bob, lambda link: link.connection is Connection.LOST)
            await link_until(bob, lambda link: link.connection is Connection.OPEN)
            await link_until(bob, lambda link: isinstance(link.state.progress, ProgressOut))
            game = bob.state.game
            assert game is not None and game.moves == [placed]
            await link_place_first(ann)
            await link_until(bob, lambda link: link.state.turn == 2)
            assert isinstance(bob.state.standings, tuple) and len(bob.state.standings) == 2
            assert [n for n in news if n.message is not None and n.message.type == "error"] == []
            await ann.close()
            await bob.close()

    run(scenario())


def test_a_room_the_server_no_longer_has_cannot_be_taken_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann = RoomLink(rooms.url, retry_seconds=QUICK)
            await ann.create("Ann")
            code = ann.state.room
            seat = rooms.server.service.seats[(code, ann.state.player)]
            rooms.server.service.rooms.pop(code)
            await seat.socket.close()
            await link_until(ann, lambda link: link.connection is Connection.GONE)
            assert ann.problem == "no room has that code"
            await ann.close()
            assert ann.connection is Connection.GONE

    run(scenario())


def test_a_place_taken_by_another_connection_of_the_player_is_not_taken_back(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            first = RoomLink(rooms.url, retry_seconds=QUICK)
            await first.daily("Ann", None)
            token = first.state.token
            second = RoomLink(rooms.url, retry_seconds=QUICK)  # Ann in another window
            await second.daily("Ann", token)
            await link_until(first, lambda link: link.connection is Connection.GONE)
            assert first.problem == "another connection of yours took your place in it"
            await asyncio.sleep(0.5)  # ten retries' time: nobody takes it back
            assert second.connection is Connection.OPEN
            assert first.connection is Connection.GONE
            await first.close()
            await second.close()

    run(scenario())


def test_refusals_and_an_address_with_no_server_are_one_line_each(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            link = RoomLink(rooms.url)
            with pytest.raises(Refused) as refused:
                await link.join("ABCD2345", "Ann")
            assert refused.value.code == "no-room"
            assert str(refused.value) == "no room has that code"
        nowhere = f"http://127.0.0.1:{free_port()}"
        with pytest.raises(Unreachable) as unreachable:
            await RoomLink(nowhere).create("Ann")
        assert str(unreachable.value) == (
            f"cannot reach {nowhere} (connection refused): is forage serve running there?"
        )
        with pytest.raises(Unreachable) as bad:
            await RoomLink("http://[::1").create("Ann")
        assert "not a server address" in str(bad.value) and "\n" not in str(bad.value)

    run(scenario())


def test_the_turn_message_calls_the_card_into_the_players_hand(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann, bob = await two_players(rooms)
            news: list[News] = []
            ann.watch(news.append)
            kept = await link_place_first(ann)
            await link_place_first(bob)
            await link_until(ann, lambda link: link.state.turn == 2)
            told = [n.message for n in news if isinstance(n.message, TurnOut)]
            game = ann.state.game
            assert game is not None and told and told[0].card is not None
            hand = game.game().hand
            assert told[0].card in hand and kept.card not in hand and len(hand) == 2
            await ann.close()
            await bob.close()

    run(scenario())


@contextlib.asynccontextmanager
async def hostile(*answers: object) -> AsyncIterator[str]:
    """A server that answers a client's first message with these (JSON, or text as it is),
    then keeps the connection open saying nothing more: its address."""

    async def play(request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.receive()
        for answer in answers:
            await socket.send_str(answer if isinstance(answer, str) else json.dumps(answer))
        async for _ in socket:
            pass
        return socket

    async with serving_play(play) as url:
        yield url


JOINED = {"type": "joined", "room": "K7MX3QPA", "player": 1, "token": "t", "host": True}


def lobby_of(name: str) -> dict[str, object]:
    """A lobby of Ann and one other player."""
    players = [
        {"player": 1, "name": "Ann", "connected": True},
        {"player": 2, "name": name, "connected": True},
    ]
    return {"type": "lobby", "room": "K7MX3QPA", "players": players, "host": 1}


def deal_of(*cards: int) -> dict[str, object]:
    """A deal of these three cards."""
    return {"type": "deal", "start": cards[0], "hand": list(cards[1:]), "recipes": [], "deck": 1}


@pytest.mark.parametrize(
    ("room", "words"),
    [("[/]ABCDEFGH", "joined: room: not a room code"), ("K7MX3QP", "not a room code")],
)
def test_a_room_code_a_server_makes_up_is_not_taken(room: str, words: str) -> None:
    async def scenario() -> None:
        async with hostile({**JOINED, "room": room}) as url:
            with pytest.raises(Unreachable, match="sent something unreadable") as caught:
                await RoomLink(url).create("Ann")
            assert words in str(caught.value)

    run(scenario())


@pytest.mark.parametrize(
    ("told", "words"),
    [
        (lobby_of("\x1b]0;PWNED\x07Bob"), "control characters"),
        (lobby_of("[bold]Bob[/]"), "cannot hold [ or ]"),
        (deal_of(4, 12, 99), "deal cannot be played: card 99 is not in the deck"),
        (deal_of(4, 12, 12), "deal cannot be played"),
        ({**lobby_of("Bob"), "players": [lobby_of("Bob")["players"][1]] * 9}, "at most 8"),
    ],
)
def test_what_a_server_should_never_send_is_a_lost_connection_not_a_crash(
    told: dict[str, object], words: str
) -> None:
    async def scenario() -> None:
        async with hostile(JOINED, told) as url:
            link = RoomLink(url, retry_seconds=(30.0,))
            await link.create("Ann")
            await link_until(link, lambda link: link.connection is Connection.LOST)
            assert link.problem is not None and words in link.problem
            assert link.state.players == () and link.state.game is None  # nothing taken in
            await link.close()

    run(scenario())


def test_a_servers_refusal_is_shown_without_its_escapes() -> None:
    refusal = {"type": "error", "code": "no-room", "message": "\x1b[2J\x1b[Hgone" + "!" * 900}

    async def scenario() -> None:
        async with hostile(refusal) as url:
            with pytest.raises(Refused) as caught:
                await RoomLink(url).join("K7MX3QPA", "Ann")
            said = str(caught.value)
            assert said.startswith("[2J[Hgone") and "\x1b" not in said and len(said) <= 500

    run(scenario())
