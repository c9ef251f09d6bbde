"""A rematch: the host of an ended room opens a new room on a new deal for its players, who
are told its code and join it, with no code to pass round."""

from __future__ import annotations

import asyncio
from pathlib import Path

from room_helpers import errors, play_out, room_of, to
from room_serving import (
    QUICK,
    link_play_to_end,
    link_until,
    refusal,
    rooms_at,
    run,
    table,
    until,
)

from forage.engine import Deal
from forage.net.admission import ServerRules
from forage.net.link import Connection, RoomLink
from forage.net.protocol import (
    DealOut,
    ErrorOut,
    JoinedOut,
    LobbyOut,
    RematchOut,
    read_client_message,
    read_server_message,
)
from forage.net.rooms import Kind, Rematched, Room


def ended_room(players: int = 3) -> Room:
    """A room of ``players`` played to its end."""
    room = room_of(players, Deal.from_seed(5))
    room.start(1, 1.0)
    play_out(room)
    return room


def test_only_the_host_of_an_ended_room_may_ask_for_a_rematch() -> None:
    room = room_of(2)
    assert errors(room.may_rematch(1), 1) == [("bad-message", None)]
    room.start(1, 1.0)
    assert errors(room.may_rematch(1), 1) == [("bad-message", None)]
    play_out(room)
    assert errors(room.may_rematch(2), 2) == [("not-host", None)]
    allowed = room.may_rematch(1)
    assert allowed.sends == [] and allowed.events == []


def test_a_rematch_tells_the_others_connected_its_code_and_is_opened_once() -> None:
    room = ended_room(3)
    room.disconnect(3, 2.0)
    update = room.rematched(1, "NEWROOM2")
    assert update.events == [Rematched("NEWROOM2")]
    assert to(update, 1) == [] and to(update, 3) == []
    assert to(update, 2) == [RematchOut(room="NEWROOM2", host=room.seats[1].name)]
    refused = room.may_rematch(1)
    assert errors(refused, 1) == [("bad-message", None)]
    message = to(refused, 1)[0]
    assert isinstance(message, ErrorOut) and "NEWROOM2" in message.message


def test_the_online_daily_has_no_rematch() -> None:
    room, _ = Room.create("DAILYTRY", Deal.from_seed(3), "Ann", "token-1", 0.0, kind=Kind.DAILY)
    room.start(1, 0.0)
    play_out(room)
    assert errors(room.may_rematch(1), 1) == [("bad-message", None)]


def test_rematch_messages_read_both_ways() -> None:
    assert read_client_message(b'{"type": "rematch"}').type == "rematch"
    told = read_server_message(b'{"type": "rematch", "room": "ABCDEFGH", "host": "Ann"}')
    assert told == RematchOut(room="ABCDEFGH", host="Ann")


def test_a_rematch_over_the_wire_opens_a_new_room_the_others_join_and_play(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            host, other, gone = await table(rooms, 3)
            first = host.told[-1]
            await gone.client.leave()
            await asyncio.gather(*(p.play_to_end() for p in (host, other)))
            await other.client.rematch()  # not the host
            assert (await refusal(other.client))[0] == "not-host"
            await host.client.rematch()
            joined = await until(host.client, JoinedOut)
            assert joined.room != host.room and joined.host
            told = await until(other.client, RematchOut)
            assert (told.room, told.host) == (joined.room, "P1")
            await other.client.join(told.room, "P2")
            assert (await until(other.client, JoinedOut)).room == joined.room
            lobby = await until(host.client, LobbyOut)
            while len(lobby.players) < 2:
                lobby = await until(host.client, LobbyOut)
            assert [p.name for p in lobby.players] == ["P1", "P2"]
            await host.client.start()
            deal = await until(host.client, DealOut)
            assert isinstance(first, DealOut) and deal != first
            assert await until(other.client, DealOut) == deal

    run(scenario())


def test_a_rematch_is_refused_before_the_end_and_by_a_full_server(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(max_rooms=1)) as rooms:
            host, other = await table(rooms, 2)
            await host.client.rematch()
            assert (await refusal(host.client))[0] == "bad-message"
            await asyncio.gather(*(p.play_to_end() for p in (host, other)))
            blocker = await rooms.player()
            await blocker.create("Cy")
            await host.client.rematch()
            assert (await refusal(host.client))[0] == "full"

    run(scenario())


def test_links_follow_a_rematch_into_the_new_rooms_lobby(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            host, guest = RoomLink(rooms.url, retry_seconds=QUICK), RoomLink(rooms.url)
            try:
                await host.create("Ann", recipes=True)
                await guest.join(host.state.room, "Bob")
                await link_until(host, lambda link: len(link.state.players) == 2)
                old = host.state.room
                assert await host.start()
                for link in (host, guest):
                    await link_until(link, lambda link: link.state.game is not None)
                await asyncio.gather(link_play_to_end(host), link_play_to_end(guest))
                assert await host.rematch()
                await link_until(host, lambda link: link.state.room != old)
                assert host.state.is_host and host.state.end is None
                await link_until(guest, lambda link: link.state.rematch is not None)
                offer = guest.state.rematch
                assert offer is not None and offer.room == host.state.room
                await guest.join_rematch()
                assert guest.state.room == host.state.room and guest.state.end is None
                await link_until(host, lambda link: len(link.state.players) == 2)
                assert await host.start()
                await link_until(guest, lambda link: link.state.game is not None)
                assert guest.state.recipes
            finally:
                await host.close()
                await guest.close()

    run(scenario())


def test_a_host_whose_connection_was_lost_after_the_end_takes_the_seat_back_to_rematch(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            host, guest = RoomLink(rooms.url, retry_seconds=QUICK), RoomLink(rooms.url)
            try:
                await host.create("Ann")
                await guest.join(host.state.room, "Bob")
                await link_until(host, lambda link: len(link.state.players) == 2)
                assert await host.start()
                for link in (host, guest):
                    await link_until(link, lambda link: link.state.game is not None)
                await asyncio.gather(link_play_to_end(host), link_play_to_end(guest))
                old = host.state.room
                seat = rooms.server.service.seats[(old, host.state.player)]
                await seat.socket.close()  # the server ends Ann's connection after the end
                await link_until(host, lambda link: link.connection is Connection.CLOSED)
                assert await host.rematch()
                await link_until(host, lambda link: link.state.room != old)
                await link_until(guest, lambda link: link.state.rematch is not None)
                assert guest.state.rematch is not None
                assert guest.state.rematch.room == host.state.room
            finally:
                await host.close()
                await guest.close()

    run(scenario())
