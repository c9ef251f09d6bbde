"""The seats kept in the data folder (``rooms.json``, forage.net.identity): kept by server
and room, written atomically for the player alone, a damaged file read as holding none; a
link that keeps its seat writes it before the ``joined`` answer is acted on, follows the
turn, and forgets it once the room has ended, the player has left it, or the server no
longer has it; and the one player name of a data folder, remembered from ``room`` and
``daily --online`` and read by ``history`` and ``stats``."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path
from unittest import mock

import pytest
from helpers import run_forage
from room_serving import QUICK, link_play_to_end, link_until, rooms_at, run
from serving import free_port

from forage.history.store import HistoryStore
from forage.net.identity import (
    Seat,
    daily_token,
    forget_seat,
    keep_seat,
    seat_in,
    seats,
    seats_path,
)
from forage.net.link import News, Refused, RoomLink
from forage.net.protocol import JoinedOut

ANN = Seat("http://127.0.0.1:8000", "ABCD2345", "tok-ann", "Ann", 3)


def test_a_seat_is_kept_by_server_and_room_for_the_player_alone() -> None:
    assert seats() == [] and seat_in(ANN.server, ANN.room) is None
    keep_seat(ANN)
    other = Seat("http://Other:9000/", "WXYZ6789", "tok-other", "Ann")
    keep_seat(other)
    assert seat_in("http://127.0.0.1:8000/", "ABCD2345") == ANN  # the same server, written so
    assert seat_in("http://other:9000", "WXYZ6789") == other
    assert seat_in("http://other:9000", "ABCD2345") is None
    assert seats() == [ANN, other] and seats("http://OTHER:9000") == [other]
    keep_seat(Seat(ANN.server, ANN.room, "tok-ann", "Ann", 5))  # the turn goes on
    assert seat_in(ANN.server, ANN.room) == Seat(ANN.server, ANN.room, "tok-ann", "Ann", 5)
    forget_seat(ANN.server, ANN.room)
    forget_seat(ANN.server, ANN.room)  # forgetting one not kept does nothing
    assert seats() == [other]
    if os.name == "posix":
        assert stat.S_IMODE(seats_path().stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "text",
    [
        "[not what forage writes",
        "[]",
        '{"http://127.0.0.1:8000": []}',
        " " * 1_000_001,
        "{" * 100_000,
    ],
)
def test_a_damaged_seats_file_reads_as_none_and_is_written_afresh(text: str) -> None:
    seats_path().parent.mkdir(parents=True, exist_ok=True)
    seats_path().write_text(text, encoding="utf-8")
    assert seats() == [] and seat_in(ANN.server, ANN.room) is None
    keep_seat(ANN)
    assert seats() == [ANN]


def test_a_seat_forage_did_not_write_is_passed_over() -> None:
    keep_seat(ANN)
    data = json.loads(seats_path().read_text(encoding="utf-8"))
    table = data["http://127.0.0.1:8000"]
    good = table["ABCD2345"]
    table["not a code"] = good
    table["EFGH2345"] = {**good, "turn": "three"}
    table["JKLM2345"] = {**good, "token": 7}
    table["NPQR2345"] = {**good, "server": "http://elsewhere:1"}
    seats_path().write_text(json.dumps(data), encoding="utf-8")
    assert seats() == [ANN]
    assert seat_in(ANN.server, "EFGH2345") is None


def test_a_seat_is_written_atomically() -> None:
    keep_seat(ANN)
    before = seats_path().read_bytes()
    with (
        mock.patch("forage.files.os.replace", side_effect=OSError(28, "No space left")),
        pytest.raises(OSError),
    ):
        keep_seat(Seat(ANN.server, "WXYZ6789", "tok", "Ann"))
    assert seats_path().read_bytes() == before  # never half written
    assert [p.name for p in seats_path().parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_link_keeps_its_seat_before_acting_on_joined_and_forgets_it_at_the_end(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            kept_when_told: list[Seat | None] = []

            def told(news: News) -> None:
                if isinstance(news.message, JoinedOut):
                    kept_when_told.append(seat_in(rooms.url, news.message.room))

            ann.watch(told)
            await ann.create("Ann")
            code, token = ann.state.room, ann.state.token
            assert kept_when_told == [Seat(rooms.url, code, token, "Ann", 0)]
            bob = RoomLink(rooms.url, retry_seconds=QUICK)  # keeps none
            await bob.join(code, "Bob")
            await link_until(ann, lambda link: len(link.state.players) == 2)
            assert await ann.start()
            await link_until(ann, lambda link: link.state.game is not None)
            async with asyncio.timeout(10):  # the turn follows the room
                while (seat := seat_in(rooms.url, code)) is None or seat.turn != 1:
                    await asyncio.sleep(0.05)
            ends = await asyncio.gather(link_play_to_end(ann), link_play_to_end(bob))
            assert ends[0] == ends[1]
            assert seats() == []  # the room has ended: nothing to take back
            for link in (ann, bob):
                await link.close()

    run(scenario())


def test_a_seat_left_or_whose_room_is_gone_is_forgotten(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            await ann.create("Ann")
            seat = seat_in(rooms.url, ann.state.room)
            assert seat is not None
            await ann.leave()
            assert seats() == []
            keep_seat(seat)  # a seat in a room the server no longer has
            again = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            with pytest.raises(Refused) as refused:
                await again.rejoin(seat)
            assert refused.value.code == "no-room"
            assert seats() == []

    run(scenario())


def test_a_kept_seat_is_taken_back_by_a_new_link(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = RoomLink(rooms.url, retry_seconds=QUICK)
            await ann.create("Ann")
            bob = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            await bob.join(ann.state.room, "Bob")
            await link_until(ann, lambda link: len(link.state.players) == 2)
            assert await ann.start()
            await link_until(bob, lambda link: link.state.game is not None)
            player = bob.state.player
            await bob.close()  # the program gone: the seat stays
            seat = seat_in(rooms.url, ann.state.room)
            assert seat is not None and seat.name == "Bob"
            back = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            await back.rejoin(seat)
            await link_until(back, lambda link: link.state.game is not None)
            assert (back.state.player, back.state.token, back.name) == (player, seat.token, "Bob")
            ends = await asyncio.gather(link_play_to_end(ann), link_play_to_end(back))
            assert ends[0] == ends[1]
            for link in (ann, back):
                await link.close()

    run(scenario())


def test_the_name_given_to_a_room_is_the_data_folders_for_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORAGE_HOME", str(tmp_path / "home"))
    env = dict(os.environ)
    nowhere = f"http://127.0.0.1:{free_port()}"
    joined = run_forage("room", "join", "ABCD2345", "--name", "Hana", "--server", nowhere, env=env)
    assert joined.returncode == 2 and "cannot reach" in joined.stderr
    # the daily asks for a token under the name remembered (kept before asking)
    daily = run_forage("daily", "--online", "--server", nowhere, env=env)
    assert daily.returncode == 2
    assert daily_token(nowhere, "Hana") is not None
    stats = run_forage("stats", "--json", env=env)
    assert json.loads(stats.stdout)["player"] == "Hana"
    history = run_forage("history", env=env)
    assert history.stdout == "No games stored for Hana yet.\n"
    with HistoryStore.read(tmp_path / "home") as store:
        assert store.last_player() == "Hana"
    read = run_forage("stats", "--player", "Ivo", "--json", env=env)  # reading keeps the name
    assert read.returncode == 0
    with HistoryStore.read(tmp_path / "home") as store:
        assert store.last_player() == "Hana"
