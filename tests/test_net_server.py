"""The rooms server (forage.net.server) on a real 127.0.0.1 port, with real websocket
clients: whole rooms, the calling of cards, refusals, limits, rejoins and restarts."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from pathlib import Path

import aiohttp
import pytest
from helpers import run_forage
from room_serving import (
    Player,
    Rooms,
    check_results,
    expect,
    quiet,
    refusal,
    rooms_at,
    run,
    start_rooms,
    table,
    until,
)
from serving import forage_server, free_port

from forage.engine import Placement
from forage.net.admission import ServerRules, address_key
from forage.net.client import Closed, RoomClient
from forage.net.link import RoomLink
from forage.net.protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_MESSAGE_BYTES,
    REPLACED,
    DealOut,
    EndOut,
    ErrorOut,
    JoinedOut,
    LobbyOut,
    PlacedOut,
    PlaceIn,
    ProgressOut,
    TurnOut,
    message_text,
    room_code,
)
from forage.net.rooms import RoomRules
from forage.net.service import new_code
from forage.paths import SERVER_FILE


@pytest.mark.parametrize(("count", "recipes"), [(2, False), (2, True), (4, False), (4, True)])
def test_a_whole_room_plays_to_the_end_and_each_record_replays(
    tmp_path: Path, count: int, recipes: bool
) -> None:
    async def scenario() -> list[EndOut]:
        async with rooms_at(tmp_path) as rooms:
            players = await table(rooms, count, recipes)
            deal = players[0].told[-1]
            assert isinstance(deal, DealOut)
            assert (len(deal.recipes) == 2) is recipes
            ends = await asyncio.gather(*(p.play_to_end() for p in players))
            return ends

    ends = run(scenario())
    assert all(end.results == ends[0].results for end in ends)
    check_results(ends[0], count)
    assert all(len(line.record["moves"]) == 8 for line in ends[0].results)


def test_forage_replay_scores_a_rooms_record_to_its_final(tmp_path: Path) -> None:
    async def scenario() -> EndOut:
        async with rooms_at(tmp_path) as rooms:
            players = await table(rooms, 2)
            ends = await asyncio.gather(*(p.play_to_end() for p in players))
            return ends[0]

    end = run(scenario())
    for line in end.results:
        path = tmp_path / f"player-{line.player}.json"
        path.write_text(json.dumps(line.record), encoding="utf-8")
        done = run_forage("replay", str(path), "--json")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["finished"] and result["score"]["final"] == line.final


def test_no_card_is_sent_before_it_is_called_and_a_slow_player_holds_it_back(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            fast, slow = await table(rooms, 2)
            cards = rooms.server.service.rooms[fast.room].deal.cards  # the server's secret
            deal = fast.told[-1]
            assert isinstance(deal, DealOut)
            assert deal.model_dump() == {
                "type": "deal",
                "turn": 1,
                "start": cards[0],
                "hand": list(cards[1:3]),
                "recipes": [],
                "deck": 1,
            }
            await fast.place_first()
            assert isinstance(await fast.read(), PlacedOut)
            waited = ProgressOut(turn=1, placed=[fast.player], waiting=[slow.player])
            assert await expect(fast.client, ProgressOut) == waited
            assert await expect(slow.client, ProgressOut) == waited
            assert await quiet(fast.client, 0.5) == []  # no turn while the slow one thinks
            await slow.place_first()
            assert isinstance(await slow.read(), PlacedOut)
            call = await expect(fast.client, TurnOut)
            assert call.turn == 2 and call.card == cards[3]
            other = await expect(slow.client, TurnOut)
            assert other == call

    run(scenario())


async def read_together(rooms: Rooms, players: list[Player]) -> None:
    """The server reads each player's first legal placement in one go, as from one poll of
    its sockets (so that all are done before anything is sent)."""
    for player in players:
        assert player.mirror is not None
        outcome = next(player.mirror.game().outcomes())
        player.sent = player.mirror.turn
        text = message_text(PlaceIn.of(player.mirror.turn, outcome.placement))
        await rooms.server.service.on_text(
            rooms.server.service.seats[(player.room, player.player)], text.encode()
        )


def test_a_progress_not_yet_sent_is_dropped_for_newer_news(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann, bob, cat = await table(rooms, 3)
            await read_together(rooms, [ann, bob])
            both = ProgressOut(turn=1, placed=[ann.player, bob.player], waiting=[cat.player])
            for player in (ann, bob):
                assert isinstance(await player.read(), PlacedOut)
                assert await player.read() == both
            assert await cat.read() == both  # not first the progress of Ann's placement alone
            await cat.place_first()
            for player in (ann, bob, cat):
                await player.read_until(TurnOut)
            await read_together(rooms, [ann, bob, cat])  # the turn ends: its call tells all
            for player in (ann, bob, cat):
                assert isinstance(await player.read(), PlacedOut)
                call = await player.read()
                assert isinstance(call, TurnOut) and call.turn == 3
            await ann.place_first()  # read alone: told as it comes
            one = ProgressOut(turn=3, placed=[ann.player], waiting=[bob.player, cat.player])
            assert isinstance(await ann.read(), PlacedOut)
            assert await ann.read() == one
            assert await cat.read() == one

    run(scenario())


def test_refused_placements_carry_the_contracts_codes_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            host = await rooms.player()
            await host.create("Ann")
            guest = await rooms.player()
            await guest.join(host.room, "Bob")
            await until(host.client, LobbyOut)
            await until(host.client, LobbyOut)
            early = Placement(card=1, x=0, y=0)
            await host.client.place(1, early)
            assert await refusal(host.client) == ("not-started", None)
            await host.client.start()
            for player in (host, guest):
                await player.read_until(DealOut)
            assert host.mirror is not None
            hand = host.mirror.hand
            await host.client.place(1, Placement(card=hand[0], x=40, y=40))
            assert await refusal(host.client) == ("illegal", "no-overlap")
            await host.client.place(1, Placement(card=99, x=0, y=0))
            assert await refusal(host.client) == ("illegal", "not-in-hand")
            await host.client.place(2, Placement(card=hand[0], x=0, y=0))
            assert await refusal(host.client) == ("stale-turn", None)
            await host.place_first()
            assert isinstance(await host.read(), PlacedOut)
            assert isinstance(await host.read(), ProgressOut)
            await host.place_first()
            assert await refusal(host.client) == ("already-placed", None)
            await guest.place_first()
            await host.read_until(TurnOut)
            await host.client.place(1, Placement(card=hand[1], x=0, y=0))
            assert await refusal(host.client) == ("stale-turn", None)
            ends = await asyncio.gather(host.play_to_end(), guest.play_to_end())
            check_results(ends[0], 2)

    run(scenario())


def test_junk_and_binary_messages_are_bad_and_the_connection_stays_open(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            client = await rooms.client()
            for junk in ("hello", "{}", "[]", '{"type": 5}', '{"type": "create"}', "\x00\x1b["):
                await client.socket.send_str(junk)
                assert (await refusal(client))[0] == "bad-message"
            await client.socket.send_bytes(b"\x00\xff binary")
            assert (await refusal(client))[0] == "bad-message"
            await client.socket.send_frame(b'{"type": "\xff\xfe"}', aiohttp.WSMsgType.TEXT)
            assert (await refusal(client))[0] == "bad-message"  # text that is not UTF-8
            await client.socket.send_str('{"type": "start"}')
            assert (await refusal(client))[0] == "no-room"
            await client.create("Ann")
            assert isinstance(await client.receive(5), JoinedOut)

    run(scenario())


@pytest.mark.parametrize("size", [MAX_MESSAGE_BYTES + 1, 1_000_000])
def test_a_message_over_64_kib_is_too_large_and_closes(tmp_path: Path, size: int) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            client = await rooms.client()
            head = '{"type": "start", "pad": "'
            await client.socket.send_str(head + "x" * (size - len(head) - 2) + '"}')
            assert await refusal(client) == ("too-large", None)
            with pytest.raises(Exception, match="closed"):
                await client.receive(5)
            assert client.socket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG

    run(scenario())


def test_a_message_of_exactly_64_kib_is_read(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            client = await rooms.client()
            head = '{"type": "start", "pad": "'
            text = head + "x" * (MAX_MESSAGE_BYTES - len(head) - 2) + '"}'
            await client.socket.send_str(text)
            assert (await refusal(client))[0] == "no-room"

    run(scenario())


def test_lobby_refusals_over_the_wire(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            host = await rooms.player()
            await host.create("P1")
            guests = []
            for index in range(2, 9):
                guest = await rooms.player()
                await guest.join(host.room.lower(), f"P{index}")  # codes read in any case
                guests.append(guest)
            late = await rooms.client()
            await late.join(host.room, "P9")
            assert await refusal(late) == ("full", None)
            await guests[0].client.start()
            assert (await until(guests[0].client, ErrorOut)).code == "not-host"
            await host.client.start()
            await until(host.client, DealOut)
            await host.client.start()
            assert (await until(host.client, ErrorOut)).code == "started"
            await late.join("NOSUCHRM", "P9")
            assert await refusal(late) == ("no-room", None)
            await late.join(host.room, "P9")
            assert await refusal(late) == ("started", None)
            taken = await rooms.player()
            await taken.create("Solo")
            other = await rooms.client()
            await other.join(taken.room, "solo")
            assert await refusal(other) == ("name-taken", None)

    run(scenario())


def test_names_with_escapes_or_markup_are_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            client = await rooms.client()
            for name in ("\x1b]0;pwned\x07", "\x1b[2J", "[link=http://x]hi[/link]", "<b>", ""):
                await client.create(name)
                code, _ = await refusal(client)
                assert code == "bad-message"
            await client.create("  Zoë  ")
            joined = await expect(client, JoinedOut)
            lobby = await expect(client, LobbyOut)
            assert joined.host and lobby.players[0].name == "Zoë"

    run(scenario())


def test_names_that_read_as_one_in_the_room_or_mix_scripts_are_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            paul = await rooms.player()
            await paul.create("Paul")
            pop = await rooms.player()
            await pop.join(paul.room, "Pop")
            other = await rooms.client()
            for name in ("PAU1", "\uff30\uff41\uff55\uff4c", "\u0420\u043e\u0440"):  # Рор
                await other.join(paul.room, name)
                assert await refusal(other) == ("name-taken", None)
            for name in ("P\u0430ul", "\u0420aul"):  # a Cyrillic а, Р
                await other.join(paul.room, name)
                error = await expect(other, ErrorOut)
                assert error.code == "bad-message" and "cannot mix scripts" in error.message
            await other.join(paul.room, "Saul")
            lobby = await until(other, LobbyOut)
            assert [p.name for p in lobby.players] == ["Paul", "Pop", "Saul"]

    run(scenario())


def test_failed_joins_are_rate_limited_per_address(tmp_path: Path) -> None:
    rules = ServerRules(failed_joins=3, failed_join_seconds=60.0)

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            client = await rooms.client()
            for _ in range(3):
                await client.join(new_code(), "Ann")
                assert await refusal(client) == ("no-room", None)
            await client.join(new_code(), "Ann")
            assert await refusal(client) == ("rate", None)
            with pytest.raises(Exception, match="closed"):
                await client.receive(5)
            again = await rooms.client()  # the same address, a new connection
            await again.rejoin(new_code(), "guessed-token")
            assert await refusal(again) == ("rate", None)
            host = await rooms.player()
            await host.create("Host")  # creating is not joining: still allowed
            assert host.room

    run(scenario())


def test_a_guesser_is_closed_per_connection_and_a_new_connection_joins(tmp_path: Path) -> None:
    rules = ServerRules(failed_joins_per_connection=2)

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            host = await rooms.player()
            await host.create("Host")
            guesser = await rooms.client()
            for _ in range(2):
                await guesser.join(new_code(), "Guess")
                assert await refusal(guesser) == ("no-room", None)
            await guesser.rejoin(new_code(), "guessed-token")
            assert await refusal(guesser) == ("rate", None)
            with pytest.raises(Exception, match="closed"):
                await guesser.receive(5)
            friend = await rooms.client()  # the same address: its few failures do not count
            await friend.join(host.room, "Friend")
            assert (await expect(friend, JoinedOut)).room == host.room

    run(scenario())


def test_a_connection_that_asks_for_no_room_is_closed_after_join_seconds(tmp_path: Path) -> None:
    rules = ServerRules(join_seconds=0.5)

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            host = await rooms.player()  # opened before the idle one: its time is up first
            await host.create("Host")
            asker = await rooms.client()  # asked, though it got no room
            await asker.join(new_code(), "Ann")
            assert await refusal(asker) == ("no-room", None)
            idle = await rooms.client()
            with pytest.raises(Closed) as closed:
                await idle.receive(10)
            assert closed.value.code == 1008
            for client in (host.client, asker):  # the others are still served
                await client.socket.send_str("not json")
                assert (await until(client, ErrorOut)).code == "bad-message"

    run(scenario())


def test_a_browser_tabs_game_is_counted_by_the_address_its_server_vouches_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = ServerRules(failed_joins=2, failed_join_seconds=60.0)

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            vouch = rooms.server.vouch("203.0.113.5")
            tab = await RoomClient.connect(rooms.url, vouch=vouch)
            rooms.clients.append(tab)
            for _ in range(2):
                await tab.join(new_code(), "Ann")
                assert await refusal(tab) == ("no-room", None)
            await tab.join(new_code(), "Ann")
            assert await refusal(tab) == ("rate", None)  # that browser's failed joins
            plain = await rooms.client()  # this computer's own: not counted with it
            await plain.join(new_code(), "Bob")
            assert await refusal(plain) == ("no-room", None)
            assert rooms.server.vouched("198.51.100.7 ébahi") is None  # not ASCII: not one
            forged = await RoomClient.connect(rooms.url, vouch="198.51.100.7 0123abcd")
            rooms.clients.append(forged)
            await forged.join(new_code(), "Cy")  # not the server's: counted as its own
            assert await refusal(forged) == ("no-room", None)
            await forged.join(new_code(), "Cy")
            assert await refusal(forged) == ("rate", None)
            monkeypatch.setenv("FORAGE_ROOMS_SERVER", rooms.url)
            monkeypatch.setenv("FORAGE_ROOMS_CLIENT", rooms.server.vouch("192.0.2.1"))
            link = RoomLink(rooms.url)  # a tab's game: it gives what its server told it
            await link.create("Dee")
            assert rooms.server.service.seats[(link.state.room, 1)].address == "192.0.2.1"
            await link.close()

    run(scenario())


def test_a_client_that_floods_is_told_rate_and_closed(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(burst=20, per_second=10)) as rooms:
            client = await rooms.client()
            for _ in range(200):
                await client.socket.send_str('{"type": "start"}')
            codes = []
            with pytest.raises(Exception, match="closed"):
                while True:
                    codes.append((await refusal(client))[0])
            assert codes[-1] == "rate" and codes.count("rate") == 1
            assert set(codes[:-1]) == {"no-room"} and len(codes) <= 21

    run(scenario())


def test_a_client_sending_too_many_bytes_is_told_rate_and_closed(tmp_path: Path) -> None:
    big = json.dumps({"type": "start", "pad": "x" * 60_000})  # each a message it may send
    rules = ServerRules(bytes_burst=4 * len(big), bytes_per_second=1000)
    assert rules.burst > 10  # the count of messages is not what stops it

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            client = await rooms.client()
            for _ in range(10):
                await client.socket.send_str(big)
            codes = []
            with pytest.raises(Exception, match="closed"):
                while True:
                    codes.append((await refusal(client))[0])
            assert codes == ["no-room"] * 4 + ["rate"]
            other = await rooms.player()  # the others are served as before
            await other.create("Ann")
            assert other.room

    run(scenario())


def test_a_server_at_its_most_rooms_refuses_another(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(max_rooms=2)) as rooms:
            for _ in range(2):
                player = await rooms.player()
                await player.create("Ann")
            extra = await rooms.client()
            await extra.create("Ann")
            code, _ = await refusal(extra)
            assert code == "full"

    run(scenario())


def test_one_address_may_keep_only_so_many_rooms_open(tmp_path: Path) -> None:
    rules = ServerRules(rooms_per_address=2, local_rooms_limited=True)  # as if from afar

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            made = []
            for _ in range(2):  # made, then left by a connection that closes
                player = await rooms.player()
                await player.create("Ann")
                made.append(player)
                await player.close()
            extra = await rooms.client()
            await extra.create("Ann")
            code, _ = await refusal(extra)
            assert code == "full"
            connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
            async with aiohttp.ClientSession(connector=connector) as session:
                other = Player(await RoomClient.connect(rooms.url, session=session))
                await other.create("Bob")  # from another address
                assert other.room
                await other.close()
            back = await rooms.client()  # the host comes back and leaves: the room ends
            await back.rejoin(made[0].room, made[0].token)
            await expect(back, JoinedOut)
            await back.leave()
            again = await rooms.player()
            await again.create("Ann")
            assert again.room

    run(scenario())


def test_this_computers_own_address_may_open_rooms_up_to_the_servers_most(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:  # every browser tab of forage serve plays from it
        async with rooms_at(tmp_path, ServerRules(rooms_per_address=2, max_rooms=4)) as rooms:
            for _ in range(4):
                player = await rooms.player()
                await player.create("Ann")
                assert player.room
            extra = await rooms.client()
            await extra.create("Ann")
            told = await expect(extra, ErrorOut)
            assert told.code == "full" and "this server has 4 rooms open" in told.message

    run(scenario())


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::7", "2001:db8:1:2::/64"),  # the same home
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("", ""),
    ],
)
def test_an_address_is_counted_by_its_ipv6_network(address: str, key: str) -> None:
    assert address_key(address) == key


def test_a_dropped_connection_rejoins_mid_turn_and_plays_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann, bob = await table(rooms, 2)
            for _ in range(2):
                await ann.place_first()
                await bob.place_first()
                await ann.read_until(TurnOut)
                await bob.read_until(TurnOut)
            await bob.place_first()
            await bob.read_until(PlacedOut)
            assert bob.mirror is not None
            before = list(bob.mirror.moves)
            await bob.close()
            lobby = await until(ann.client, LobbyOut)
            assert {p.player: p.connected for p in lobby.players} == {1: True, 2: False}
            back = await rooms.player()
            await back.client.rejoin(bob.room, bob.token)
            back.took(await expect(back.client, JoinedOut))
            assert back.player == 2
            assert isinstance(await back.read(), LobbyOut)
            deal = await back.read()
            assert isinstance(deal, DealOut)
            while back.mirror is not None and len(back.mirror.moves) < len(before):
                await back.read()
            assert back.mirror is not None
            assert back.mirror.moves == before and back.mirror.turn == 3
            assert back.mirror.placed
            assert [m.type for m in back.told] == [
                *["lobby", "deal"],
                *["placed", "turn"] * 2,
                "placed",
            ]
            back_lobby = await until(ann.client, LobbyOut)
            assert all(p.connected for p in back_lobby.players)
            ends = await asyncio.gather(ann.play_to_end(), back.play_to_end())
            check_results(ends[0], 2)

    run(scenario())


def test_a_player_who_never_comes_back_is_left_behind_after_the_wait(tmp_path: Path) -> None:
    rules = ServerRules(room=RoomRules(wait_seconds=0.5))

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            ann, bob, cy = await table(rooms, 3)
            await cy.close()
            ends = await asyncio.gather(ann.play_to_end(), bob.play_to_end())
            check_results(ends[0], 3)
            lines = {line.player: line for line in ends[0].results}
            assert lines[3].record["moves"] == [] and lines[3].won is False
            assert len(lines[1].record["moves"]) == 8

    run(scenario())


def test_an_idle_room_ends_after_the_idle_time_since_its_last_action(tmp_path: Path) -> None:
    rules = ServerRules(room=RoomRules(idle_seconds=1.5))

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules) as rooms:
            ann, bob = await table(rooms, 2)
            await asyncio.sleep(0.5)
            await ann.place_first()
            await ann.read_until(PlacedOut)
            placed = time.monotonic()
            end = await ann.read_until(EndOut, timeout=5)
            assert time.monotonic() - placed >= 1.4  # the placement put the end off
            assert end.reason == "idle" and len(end.results) == 2
            assert (await bob.read_until(EndOut)).reason == "idle"
            check_results(end, 2)
            assert [len(line.record["moves"]) for line in end.results if line.player == 1] == [1]

    run(scenario())


def test_rooms_survive_a_restart_and_players_rejoin_with_their_tokens(tmp_path: Path) -> None:
    async def scenario() -> None:
        rooms = await start_rooms(tmp_path)
        ann, bob = await table(rooms, 2)
        lobby_only = await rooms.player()
        await lobby_only.create("Waiting")
        for _ in range(3):
            await ann.place_first()
            await bob.place_first()
            await ann.read_until(TurnOut)
            await bob.read_until(TurnOut)
        await ann.place_first()
        await ann.read_until(PlacedOut)
        await rooms.stop()
        with pytest.raises(Exception, match="closed"):
            await until(ann.client, EndOut, 5)

        again = await start_rooms(tmp_path)
        assert set(again.server.service.rooms) == {ann.room, lobby_only.room}
        players = []
        for old in (ann, bob):
            player = await again.player()
            await player.client.rejoin(old.room, old.token)
            player.took(await expect(player.client, JoinedOut))
            await player.read_until(DealOut)
            while player.mirror is not None and len(player.mirror.moves) < (
                len(old.mirror.moves) if old.mirror else 0
            ):
                await player.read()
            assert player.mirror is not None and old.mirror is not None
            assert player.mirror.moves == old.mirror.moves
            players.append(player)
        ends = await asyncio.gather(*(p.play_to_end() for p in players))
        check_results(ends[0], 2)
        host = await again.player()
        await host.client.rejoin(lobby_only.room, lobby_only.token)
        assert (await expect(host.client, JoinedOut)).host
        await again.stop()

    run(scenario())


def test_a_second_connection_of_a_player_replaces_the_first(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path) as rooms:
            ann = await rooms.player()
            await ann.create("Ann")
            twin = await rooms.client()
            await twin.rejoin(ann.room, ann.token)
            assert (await expect(twin, JoinedOut)).player == 1
            with pytest.raises(Closed) as closed:
                await until(ann.client, EndOut, 5)
            assert closed.value.code == REPLACED  # so that it does not take the place back
            lobby = await until(twin, LobbyOut)
            assert lobby.players[0].connected

    run(scenario())


def test_a_client_that_never_reads_is_cut_off_without_holding_up_a_room(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "forage.rooms")
    rules = ServerRules(queue_size=8, burst=10**9, per_second=10**9)

    async def scenario() -> int:
        async with rooms_at(tmp_path, rules) as rooms:
            ann, bob = await table(rooms, 2)
            deaf = await rooms.client()  # sends, and never reads an answer
            assert len(rooms.server.clients) == 3
            sent = 0
            with contextlib.suppress(ConnectionError, aiohttp.ClientError):
                while len(rooms.server.clients) == 3 and sent < 1_000_000:
                    for _ in range(1000):
                        await deaf.socket.send_str("junk")
                    sent += 1000
                    await asyncio.sleep(0)
                    await ann.place_first() if sent == 1000 else None
            for _ in range(100):
                if len(rooms.server.clients) == 2:  # the deaf one is gone
                    break
                await asyncio.sleep(0.02)
            assert len(rooms.server.clients) == 2
            await bob.place_first()
            call = await ann.read_until(TurnOut, timeout=5)
            assert call.turn == 2
            return sent

    assert run(scenario()) < 1_000_000
    assert "cut off a client that does not read" in caplog.text


def test_room_codes_are_long_unambiguous_and_read_in_any_case() -> None:
    assert len(CODE_ALPHABET) ** CODE_LENGTH >= 2**30
    assert not set("01OILU") & set(CODE_ALPHABET)
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    code = codes.pop()
    assert room_code(code.lower()) == code
    assert room_code(f"{code[:4]}-{code[4:]}") == code
    assert room_code("O0O0O0O0") is None and room_code("") is None


def test_forage_serve_serves_rooms_beside_the_page_to_clients_without_an_origin(
    tmp_path: Path,
) -> None:
    async def scenario(url: str) -> None:
        async with aiohttp.ClientSession() as session:
            client = await RoomClient.connect(url, session=session)
            await client.create("Ann")
            assert isinstance(await client.receive(10), JoinedOut)
            other = await RoomClient.connect(url, session=session)
            await other.create("Bob")
            assert await refusal(other) == ("full", None)  # --max-rooms 1
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url + "play", headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
            await client.close()
            await other.close()

    with forage_server(tmp_path / "home", tmp_path, "--max-rooms", "1") as served:
        run(scenario(served.url), 60)
    assert (tmp_path / "home" / SERVER_FILE).exists()


def test_bad_max_rooms_or_an_unusable_store_is_one_line(tmp_path: Path) -> None:
    done = run_forage("serve", "--port", str(free_port()), "--max-rooms", "0")
    assert done.returncode == 2
    assert done.stderr == "forage: --max-rooms: must be from 1 to 100000, not 0\n"
    blocked = tmp_path / "a-file"
    blocked.write_text("in the way")
    env = {**os.environ, "FORAGE_HOME": str(blocked)}
    done = run_forage("serve", "--port", str(free_port()), env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"forage: the rooms' store {blocked / SERVER_FILE}: ")
    assert "Traceback" not in done.stderr
