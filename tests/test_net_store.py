"""The rooms server's store (forage.net.store): what a room's events leave in SQLite, and
the live rooms read back and rebuilt as they were."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from room_helpers import place_first, play_out, room_of

from forage.net.rooms import Room, RoomRules, Status, Update
from forage.net.store import SCHEMA_VERSION, SQL, RoomStore, StoreError, pyformat
from forage.paths import SERVER_FILE
from forage.record import load_game


def stored(store: RoomStore, room: Room, update: Update) -> Update:
    store.apply(room.code, update.events)
    return update


def test_a_live_room_read_back_is_rebuilt_as_it_was(tmp_path: Path) -> None:
    store = RoomStore.open(tmp_path)
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "token-1", 0.0, seed=77)
    stored(store, room, made)
    for name in ("Bob", "Cy"):
        stored(store, room, room.join(name, f"token-{name}", 0.0))
    stored(store, room, room.start(1, 1.0))
    for player in (1, 2, 3, 1):
        stored(store, room, place_first(room, player))
    stored(store, room, room.leave(2, 2.0))
    store.close()

    again = RoomStore.open(tmp_path)
    found = again.live_rooms()
    assert found.problems == []
    [back] = found.rooms
    assert (back.code, back.deal, back.seed, back.host, back.phase) == (
        "ROOMCODE",
        room.deal,
        77,
        1,
        room.phase,
    )
    rebuilt = Room.restore(back, 50.0, RoomRules())
    assert rebuilt.turn == room.turn == 2
    for player, seat in room.seats.items():
        twin = rebuilt.seats[player]
        assert (twin.name, twin.token, twin.status) == (seat.name, seat.token, seat.status)
        assert twin.game is not None and seat.game is not None
        assert twin.game.moves == seat.game.moves
    assert rebuilt.seats[2].status is Status.LEFT


def test_tokens_are_kept_only_as_their_hash(tmp_path: Path) -> None:
    store = RoomStore.open(tmp_path)
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "secret-token-of-ann", 0.0)
    stored(store, room, made)
    store.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"secret-token-of-ann" not in data
    assert room.seats[1].token.encode() in data


def test_an_ended_room_is_not_live_and_its_results_stay(tmp_path: Path) -> None:
    store = RoomStore.open(tmp_path)
    stored(store, *Room.create("LIVEROOM", room_of().deal, "Ann", "t", 0.0))
    room, made = Room.create("ENDEDROOM", room_of().deal, "Ann", "t1", 0.0)
    stored(store, room, made)
    stored(store, room, room.join("Bob", "t2", 0.0))
    stored(store, room, room.start(1, 1.0))
    for update in play_out(room):
        stored(store, room, update)
    assert [r.code for r in store.live_rooms().rooms] == ["LIVEROOM"]
    results = store.results("ENDEDROOM")
    assert [r.rank for r in results] == [1, 2]
    assert [r.final for r in results] == [line.final for line in room.results]
    for result in results:
        game, refusal = load_game(json.dumps(result.record))
        assert refusal is None and game.result().score.final == result.final
    assert store.knows("ENDEDROOM") and not store.knows("NOSUCHROOM")


def test_the_file_carries_its_schema_version(tmp_path: Path) -> None:
    RoomStore.open(tmp_path).close()
    with sqlite3.connect(tmp_path / SERVER_FILE) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_newer_or_damaged_file_is_one_line_naming_it(tmp_path: Path) -> None:
    RoomStore.open(tmp_path).close()
    path = tmp_path / SERVER_FILE
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer forage") as newer:
        RoomStore.open(tmp_path)
    assert str(path) in str(newer.value) and "\n" not in str(newer.value)
    for extra in tmp_path.glob(f"{SERVER_FILE}-*"):
        extra.unlink()
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot be used") as damaged:
        RoomStore.open(tmp_path)
    assert str(path) in str(damaged.value)


def test_a_stored_room_that_cannot_be_read_is_named_and_the_rest_load(tmp_path: Path) -> None:
    store = RoomStore.open(tmp_path)
    for code in ("GOODROOM", "BADROOM2"):
        stored(store, *Room.create(code, room_of().deal, "Ann", "t", 0.0))
    store._conn.execute("UPDATE rooms SET deal = 'no deal' WHERE code = 'BADROOM2'")
    found = store.live_rooms()
    assert [r.code for r in found.rooms] == ["GOODROOM"]
    assert len(found.problems) == 1 and found.problems[0].startswith("room BADROOM2:")


def test_statements_switch_to_pyformat_parameters() -> None:
    assert pyformat("UPDATE t SET a = :a, b = '50%' WHERE c = :c_2 AND d::text = 'x'") == (
        "UPDATE t SET a = %(a)s, b = '50%%' WHERE c = %(c_2)s AND d::text = 'x'"
    )
    for statement in SQL.values():
        assert ":" not in pyformat(statement).replace("::", "")
