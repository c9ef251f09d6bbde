"""The online daily on a real rooms server (in SQLite and in PostgreSQL), with real websocket
clients: a whole try, resuming and ``played``, names and tokens, the deal never sent ahead,
the leaderboard's order, what a day that is over publishes, and its page."""

from __future__ import annotations

import json
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest
from postgres import StoreAt
from room_serving import Player, Rooms, expect, refusal, rooms_at, run

from forage.net.admission import ServerRules
from forage.net.daily import Board, day_end
from forage.net.protocol import (
    DealOut,
    EndOut,
    ErrorOut,
    JoinedOut,
    LeftOut,
    PlacedOut,
    TurnOut,
)
from forage.record import load_game

DAY = date(2026, 5, 1)


class Clock:
    """The servers' clock for a test: now on ``DAY``, moved on at will."""

    def __init__(self, day: date = DAY) -> None:
        """A clock at 10:00 UTC on ``day``."""
        start = datetime(day.year, day.month, day.day, 10, tzinfo=UTC).timestamp()
        self.shift = start - time.time()

    def __call__(self) -> float:
        """The time now, as the server sees it."""
        return time.time() + self.shift

    def next_day(self) -> None:
        """Move the clock on by a day."""
        self.shift += 86_400


async def daily(rooms: Rooms, name: str, token: str | None = None) -> Player:
    """A player who asked for the daily and was answered ``joined``."""
    player = await rooms.player()
    await player.client.daily(name, token)
    player.took(await expect(player.client, JoinedOut))
    return player


def secret_cards(rooms: Rooms, player: Player) -> tuple[int, ...]:
    """The whole deal of a player's try, as the server keeps it."""
    return rooms.server.service.rooms[player.room].deal.cards


def test_a_whole_try_ends_with_a_record_that_replays_to_its_final(store_at: StoreAt) -> None:
    async def scenario() -> tuple[EndOut, tuple[int, ...], list[object]]:
        async with rooms_at(store_at.folder, url=store_at.url, clock=Clock()) as rooms:
            ann = await daily(rooms, "Ann")
            assert ann.token and ann.player == 1
            cards = secret_cards(rooms, ann)
            end = await ann.play_to_end()
            return end, cards, ann.told

    end, cards, told = run(scenario())
    [line] = end.results
    game, problem = load_game(json.dumps(line.record))
    assert problem is None and game.result().score.final == line.final
    assert len(line.record["moves"]) == 8 and line.record["deal"] == list(cards)
    deal = next(m for m in told if isinstance(m, DealOut))
    assert (deal.start, *deal.hand) == cards[:3] and deal.recipes == [] and deal.deck == 1


def test_no_card_comes_before_the_placement_that_calls_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, clock=Clock()) as rooms:
            ann = await daily(rooms, "Ann")
            cards = secret_cards(rooms, ann)
            await ann.read_until(DealOut)
            for turn in range(1, 8):
                assert await quiet_for(ann, 0.3) == []  # nothing until Ann places
                await ann.place_first()
                assert isinstance(await ann.read(), PlacedOut)
                called = await ann.read()
                assert isinstance(called, TurnOut)
                assert called.card == (cards[turn + 2] if turn + 2 < len(cards) else None)
            assert set(ann.mirror.called if ann.mirror else ()) == set(cards[3:])

    run(scenario())


async def quiet_for(player: Player, seconds: float) -> list[object]:
    """The messages a player gets within ``seconds``."""
    got: list[object] = []
    try:
        while True:
            got.append(await player.client.receive(seconds))
    except TimeoutError:
        return got


def test_the_deal_is_kept_by_the_server_not_worked_out_from_the_date(tmp_path: Path) -> None:
    from forage.history.daily import daily_deal

    async def scenario() -> tuple[tuple[int, ...], tuple[int, ...]]:
        clock = Clock()
        async with rooms_at(tmp_path, clock=clock) as rooms:
            ann = await daily(rooms, "Ann")
            bob = await daily(rooms, "Bob")
            first = secret_cards(rooms, ann)
            assert secret_cards(rooms, bob) == first  # the same deal for everyone that day
            clock.next_day()
            cy = await daily(rooms, "Cy")
            return first, secret_cards(rooms, cy)

    first, second = run(scenario())
    assert first != second
    assert first != daily_deal(DAY).cards and second != daily_deal(DAY + timedelta(1)).cards


def test_a_second_daily_resumes_the_try_then_is_played(store_at: StoreAt) -> None:
    async def scenario() -> None:
        async with rooms_at(store_at.folder, url=store_at.url, clock=Clock()) as rooms:
            ann = await daily(rooms, "Ann")
            await ann.read_until(DealOut)
            for _ in range(3):
                await ann.place_first()
                await ann.read_until(TurnOut)
            before = ann.mirror
            await ann.close()
            again = await daily(rooms, "ann", ann.token)  # any case: the same name
            assert (again.room, again.token) == (ann.room, ann.token)
            await again.read_until(DealOut)
            while again.mirror is not None and again.mirror.turn < 4:
                await again.read()
            assert again.mirror is not None and before is not None
            assert again.mirror.moves == before.moves and again.mirror.called == before.called
            end = await again.play_to_end()
            assert len(end.results[0].record["moves"]) == 8 and end.results[0].name == "Ann"
            third = await rooms.player()
            await third.client.daily("Ann", ann.token)
            assert await refusal(third.client) == ("played", None)

    run(scenario())


def test_a_registered_name_needs_its_token(store_at: StoreAt) -> None:
    async def scenario() -> None:
        async with rooms_at(store_at.folder, url=store_at.url, clock=Clock()) as rooms:
            ann = await daily(rooms, "Ann")
            other = await rooms.client()
            for name, token in (("Ann", None), ("Ann", "not-her-token"), ("ＡＮＮ", None)):
                await other.daily(name, token)
                assert await refusal(other) == ("name-taken", None)
            await other.daily("Ann", ann.token)  # the right token: her try, resumed
            assert (await expect(other, JoinedOut)).room == ann.room

    run(scenario())


def test_a_name_that_reads_as_a_registered_one_needs_its_token(store_at: StoreAt) -> None:
    async def scenario() -> None:
        async with rooms_at(store_at.folder, url=store_at.url, clock=Clock()) as rooms:
            pop = await daily(rooms, "Pop")
            for name in ("\u0420\u043e\u0440", "P0P", "POP"):  # Рор, wholly Cyrillic; a zero
                other = await rooms.client()  # a connection's few failed joins each
                await other.daily(name)
                assert await refusal(other) == ("name-taken", None)
                await other.daily(name, "not-his-token")
                assert await refusal(other) == ("name-taken", None)
            await other.daily("P\u043ep")  # о Cyrillic: a mixed name is no name
            error = await expect(other, ErrorOut)
            assert error.code == "bad-message" and "cannot mix scripts" in error.message
            again = await daily(rooms, "\u0420\u043e\u0440", pop.token)  # his token: his try
            assert (again.room, again.token) == (pop.room, pop.token)
            end = await again.play_to_end()
            assert [line.name for line in end.results] == ["Pop"]

    run(scenario())


def test_guessing_tokens_or_registering_names_is_rate_limited(tmp_path: Path) -> None:
    rules = ServerRules(failed_joins=3, registrations=2)

    async def scenario() -> None:
        async with rooms_at(tmp_path, rules, clock=Clock()) as rooms:
            await daily(rooms, "Ann")
            await daily(rooms, "Bob")
            late = await rooms.client()
            await late.daily("Cy")  # a third name from the same address
            assert await refusal(late) == ("rate", None)
            guesser = await rooms.client()
            for guess in range(3):
                await guesser.daily("Ann", f"guess-{guess}")
                assert await refusal(guesser) == ("name-taken", None)
            await guesser.daily("Ann", "guess-3")
            assert await refusal(guesser) == ("rate", None)

    run(scenario())


def test_a_daily_while_in_a_room_is_a_bad_message(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, clock=Clock()) as rooms:
            ann = await daily(rooms, "Ann")
            await ann.read_until(DealOut)
            await ann.client.daily("Ann", ann.token)
            assert await refusal(ann.client) == ("bad-message", None)

    run(scenario())


async def get_json(rooms: Rooms, path: str) -> tuple[int, object]:
    """An HTTP GET of the server: its status and JSON body."""
    async with aiohttp.ClientSession() as session, session.get(rooms.url + path) as response:
        return response.status, await response.json(content_type=None)


async def get_text(rooms: Rooms, path: str) -> tuple[int, str]:
    """An HTTP GET of the server: its status and text."""
    async with aiohttp.ClientSession() as session, session.get(rooms.url + path) as response:
        return response.status, await response.text()


def test_the_leaderboard_ranks_ended_tries_and_publishes_a_day_once_it_is_over(
    store_at: StoreAt,
) -> None:
    async def scenario() -> None:
        clock = Clock()
        async with rooms_at(store_at.folder, url=store_at.url, clock=clock) as rooms:
            players = [await daily(rooms, name) for name in ("Bob", "Ann", 'Tom & "Jerry"')]
            cards = secret_cards(rooms, players[0])
            for player in players[:2]:  # Bob, then Ann, the same moves: a tie
                await player.play_to_end()
            status, body = await get_json(rooms, "/daily/leaderboard")
            assert status == 200
            today = Board.model_validate(body)
            assert today.date == DAY and not today.over and today.deal is None
            assert [(e.rank, e.name) for e in today.entries] == [(1, "Bob"), (2, "Ann")]
            assert all(e.record is None for e in today.entries)
            text = json.dumps(body)
            assert ".".join(map(str, cards)) not in text and "record" not in text
            status, _ = await get_json(rooms, f"/daily/record?date={DAY}&name=Bob")
            assert status == 404  # not before the day is over
            await players[2].client.leave()
            await players[2].read_until(LeftOut)

            clock.next_day()
            status, body = await get_json(rooms, f"/daily/leaderboard?date={DAY}")
            past = Board.model_validate(body)
            assert status == 200 and past.over and past.deal == ".".join(map(str, cards))
            assert {e.name for e in past.entries} == {"Bob", "Ann", 'Tom & "Jerry"'}
            for entry in past.entries:
                assert entry.record is not None
                status, record = await get_json(rooms, entry.record)
                assert status == 200
                game, problem = load_game(json.dumps(record))
                assert problem is None and game.result().score.final == entry.final
            status, body = await get_json(rooms, "/daily/leaderboard")
            assert Board.model_validate(body).entries == []  # the new day: nobody yet

            status, page = await get_text(rooms, f"/daily?date={DAY}")
            assert status == 200 and "<script" not in page
            assert "Tom &amp; &quot;Jerry&quot;" in page and 'Tom & "Jerry"' not in page
            assert ".".join(map(str, cards)) in page
            status, page = await get_text(rooms, "/daily")
            assert status == 200 and ".".join(map(str, cards)) not in page

    run(scenario())


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "2026-5-1", "", "2026-05-01x"])
def test_a_bad_date_is_400_with_one_line_of_json(tmp_path: Path, bad: str) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, clock=Clock()) as rooms:
            for path in ("/daily/leaderboard", "/daily/record"):
                status, text = await get_text(rooms, f"{path}?date={bad}")
                assert status == 400 and "\n" not in text.strip()
                assert json.loads(text)["error"].startswith("not a date: ")
            status, text = await get_text(rooms, f"/daily?date={bad}")
            assert status == 400

    run(scenario())


@pytest.mark.parametrize("day", [date.min, date.max])
def test_the_first_and_last_dates_there_are_have_a_board_and_a_page(
    tmp_path: Path, day: date
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, clock=Clock()) as rooms:
            asked = f"?date={day.isoformat()}"
            status, body = await get_json(rooms, "/daily/leaderboard" + asked)
            assert status == 200 and isinstance(body, dict) and body["entries"] == []
            assert body["over"] is (day < DAY)
            status, page = await get_text(rooms, "/daily" + asked)
            assert status == 200 and ("the day before" in page) is (day > date.min)
            status, body = await get_json(rooms, "/daily/record" + asked + "&name=Ann")
            assert status == 404, body

    run(scenario())


def test_a_try_left_unfinished_closes_when_its_day_is_over(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        async with rooms_at(tmp_path, clock=clock) as rooms:
            ann = await daily(rooms, "Ann")
            await ann.read_until(DealOut)
            await ann.place_first()
            await ann.read_until(TurnOut)
            await ann.close()
            room = rooms.server.service.rooms[ann.room]
            assert room.deadline() == day_end(DAY)
            clock.next_day()
            await rooms.server.service.tick_room(ann.room)
            again = await daily(rooms, "Ann", ann.token)  # the next day: a new try
            assert again.room != ann.room
            status, body = await get_json(rooms, f"/daily/leaderboard?date={DAY}")
            [entry] = Board.model_validate(body).entries
            assert status == 200
            assert entry.name == "Ann"

    run(scenario())


def test_daily_tries_do_not_count_among_the_rooms_open(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path, ServerRules(max_rooms=1), clock=Clock()) as rooms:
            await daily(rooms, "Ann")
            host = await rooms.player()
            await host.create("Bob")  # the one room this server may have open
            late = await rooms.client()
            await late.create("Cy")
            assert await refusal(late) == ("full", None)

    run(scenario())
