"""The rooms server's store (forage.net.store), in SQLite and in PostgreSQL: what a room's
events leave, the live rooms read back and rebuilt as they were, the online daily's days,
names, tries and board, and what several servers share."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from postgres import Cluster, StoreAt
from room_helpers import place_first, play_out, room_of

from forage.engine import Deal
from forage.net.daily import daily_rules
from forage.net.database import SCHEMA_VERSION, SQL, Conflict, StoreError, pyformat
from forage.net.rooms import Kind, Phase, Room, RoomRules, Status, TryStarted, Update, token_hash
from forage.net.store import Registered, Relayed, RelayedAt, RoomStore
from forage.paths import SERVER_FILE
from forage.record import load_game

DAY = date(2026, 3, 14)


def opened(at: StoreAt) -> RoomStore:
    """The test's store, open."""
    return RoomStore.open(at.folder, at.url)


def raw(store: RoomStore, sql: str) -> list[tuple[Any, ...]]:
    """Run SQL on the store's own connection (to look at it, or to damage it)."""
    cursor = store.db.conn.execute(sql)  # type: ignore[attr-defined]
    return list(cursor.fetchall()) if cursor.description is not None else []


def stored(store: RoomStore, room: Room, update: Update) -> Update:
    store.apply(room.code, update.events)
    return update


def test_a_live_room_read_back_is_rebuilt_as_it_was(store_at: StoreAt) -> None:
    store = opened(store_at)
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "token-1", 0.0, seed=77)
    stored(store, room, made)
    for name in ("Bob", "Cy"):
        stored(store, room, room.join(name, f"token-{name}", 0.0))
    stored(store, room, room.start(1, 1.0))
    for player in (1, 2, 3, 1):
        stored(store, room, place_first(room, player))
    stored(store, room, room.leave(2, 2.0))
    store.close()

    again = opened(store_at)
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


def test_a_room_read_as_stored_keeps_connections_times_and_its_end(store_at: StoreAt) -> None:
    store = opened(store_at)
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "token-1", 0.0)
    stored(store, room, made)
    stored(store, room, room.join("Bob", "token-2", 0.0))
    stored(store, room, room.start(1, 1.0))
    stored(store, room, room.disconnect(2, 7.5))
    store.set_state(room.code, 4, room.active, room.deadline())
    back = store.room(room.code)
    assert back is not None and back.version == 4 and back.active == 1.0
    again = Room.restore(back, 99.0, RoomRules(), as_stored=True)
    assert again.seats[1].connected and not again.seats[2].connected
    assert again.seats[2].gone_since == 7.5 and again.deadline() == room.deadline()
    for update in play_out(room):
        stored(store, room, update)
    ended = store.room(room.code)
    assert ended is not None and ended.ended is not None
    over = Room.restore(ended, 99.0, RoomRules(), as_stored=True)
    assert over.phase is Phase.ENDED and over.results == room.results
    assert over.ended_at == room.ended_at
    assert store.room("NOSUCHROOM") is None


def test_tokens_are_kept_only_as_their_hash(store_at: StoreAt) -> None:
    store = opened(store_at)
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "secret-token-of-ann", 0.0)
    stored(store, room, made)
    store.register("ann", "Ann", token_hash("secret-token-of-bob"))
    assert raw(store, "SELECT token FROM players") == [(token_hash("secret-token-of-ann"),)]
    assert raw(store, "SELECT token FROM daily_names") == [(token_hash("secret-token-of-bob"),)]
    store.close()
    if store_at.url is None:
        data = b"".join(p.read_bytes() for p in store_at.folder.iterdir() if p.is_file())
        assert b"secret-token-of-ann" not in data and b"secret-token-of-bob" not in data
        assert room.seats[1].token.encode() in data


def test_an_ended_room_is_not_live_and_its_results_stay(store_at: StoreAt) -> None:
    store = opened(store_at)
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


def test_the_database_carries_its_schema_version(store_at: StoreAt) -> None:
    opened(store_at).close()
    if store_at.url is None:
        with sqlite3.connect(store_at.folder / SERVER_FILE) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    else:
        store = opened(store_at)
        assert raw(store, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]


def test_a_newer_schema_is_one_line_naming_the_database(store_at: StoreAt) -> None:
    store = opened(store_at)
    if store_at.url is None:
        raw(store, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    else:
        raw(store, f"UPDATE schema_version SET version = {SCHEMA_VERSION + 1}")
    store.close()
    with pytest.raises(StoreError, match="newer forage") as newer:
        opened(store_at)
    message = str(newer.value)
    assert store.where in message and "\n" not in message
    if store_at.url is not None:
        assert store_at.url.split(":")[2].split("@")[0] not in message  # no password shown


def test_a_damaged_file_or_an_unreachable_database_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / SERVER_FILE
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot be used") as damaged:
        RoomStore.open(tmp_path)
    assert str(path) in str(damaged.value)
    url = "postgresql://someone:hunter2@127.0.0.1:1/forage?connect_timeout=2"
    with pytest.raises(StoreError, match="cannot connect") as away:
        RoomStore.open(url=url)
    assert "\n" not in str(away.value) and "hunter2" not in str(away.value)
    assert str(away.value).startswith("postgresql://someone:***@127.0.0.1:1/forage")


def test_a_stored_room_that_cannot_be_read_is_named_and_the_rest_load(
    store_at: StoreAt,
) -> None:
    store = opened(store_at)
    for code in ("GOODROOM", "BADROOM2"):
        stored(store, *Room.create(code, room_of().deal, "Ann", "t", 0.0))
    raw(store, "UPDATE rooms SET deal = 'no deal' WHERE code = 'BADROOM2'")
    found = store.live_rooms()
    assert [r.code for r in found.rooms] == ["GOODROOM"]
    assert len(found.problems) == 1 and found.problems[0].startswith("room BADROOM2:")


def test_statements_switch_to_pyformat_parameters() -> None:
    assert pyformat("UPDATE t SET a = :a, b = '50%' WHERE c = :c_2 AND d::text = 'x'") == (
        "UPDATE t SET a = %(a)s, b = '50%%' WHERE c = %(c_2)s AND d::text = 'x'"
    )
    for statement in SQL.values():
        assert ":" not in pyformat(statement).replace("::", "")


# -- the online daily ---------------------------------------------------------------------------


def test_a_days_deal_is_drawn_once_and_kept(store_at: StoreAt) -> None:
    store = opened(store_at)
    draws = iter([41, 42])
    first = store.day_deal(DAY, lambda: next(draws))
    assert (first.secret, first.deal) == (41, Deal.from_seed(41))
    assert store.day_deal(DAY, lambda: next(draws)) == first  # not drawn again
    assert store.past_deal(DAY) == first.deal and store.past_deal(date(2026, 3, 15)) is None


def test_two_days_never_have_the_same_secret(store_at: StoreAt) -> None:
    store = opened(store_at)
    draws = iter([7, 7, 7, 8])  # a draw that repeats itself
    one = store.day_deal(DAY, lambda: next(draws))
    other = store.day_deal(date(2026, 3, 15), lambda: next(draws))
    assert (one.secret, other.secret) == (7, 8)


def test_a_name_is_registered_once(store_at: StoreAt) -> None:
    store = opened(store_at)
    assert store.register("ann", "Ann", "hash-1")
    assert not store.register("ann", "ANN", "hash-2")
    assert store.registered("ann") == Registered("Ann", "hash-1", "ann")
    assert store.registered("bob") is None


def test_a_name_that_reads_as_a_registered_one_finds_it_and_is_not_registered(
    store_at: StoreAt,
) -> None:
    store = opened(store_at)
    assert store.register("pop", "Pop", "hash-1")
    for key, name in (("\u0440\u043e\u0440", "Рор"), ("p0p", "P0P")):  # Cyrillic; a zero
        assert not store.register(key, name, "hash-2")
        assert store.registered(key) == Registered("Pop", "hash-1", "pop")
    assert store.registered("pap") is None
    assert raw(store, "SELECT COUNT(*) FROM daily_names") == [(1,)]


def test_names_registered_before_skeletons_were_kept_get_theirs_the_first_first(
    store_at: StoreAt, monkeypatch: pytest.MonkeyPatch
) -> None:
    from forage.history.store import connect
    from forage.net import postgres
    from forage.net.database import MIGRATIONS

    before = MIGRATIONS[:2]
    if store_at.url is None:
        conn: Any = connect(store_at.folder / SERVER_FILE, before)
    else:
        monkeypatch.setattr(postgres, "MIGRATIONS", before)
        conn = postgres.PostgresDatabase.open(store_at.url).conn
        monkeypatch.undo()
    for key, name, when in (("pop", "Pop", "1"), ("\u0440\u043e\u0440", "Рор", "2")):
        conn.execute(
            "INSERT INTO daily_names (name_key, name, token, registered)"
            f" VALUES ('{key}', '{name}', 'hash-{when}', '{when}')"
        )
    conn.close()
    store = opened(store_at)
    assert raw(store, "SELECT name, skeleton FROM daily_names ORDER BY registered") == [
        ("Pop", "pop"),
        ("Рор", None),  # reads as Pop, registered first
    ]
    assert store.registered("\u0440\u043e\u0440") == Registered("Рор", "hash-2", "рор")
    assert store.registered("p0p") == Registered("Pop", "hash-1", "pop")
    assert not store.register("p0p", "P0P", "hash-3")


def daily_try(store: RoomStore, code: str, name: str, day: date = DAY) -> Room:
    """A try at a day's deal, stored as the server stores it, not yet played."""
    store.register(name.casefold(), name, token_hash(f"token-{name}"))
    dealt = store.day_deal(day, lambda: 1234)
    room, update = Room.create(
        code,
        dealt.deal,
        name,
        f"token-{name}",
        0.0,
        kind=Kind.DAILY,
        rules=daily_rules(RoomRules(), day),
    )
    started = room.start(1, 0.0)
    store.apply(code, [*update.events, *started.events, TryStarted(day, name.casefold())])
    return room


def test_a_days_tries_rank_by_final_then_by_who_finished_first(store_at: StoreAt) -> None:
    store = opened(store_at)
    rooms = [daily_try(store, f"ROOM000{i}", name) for i, name in enumerate(("Ann", "Bob", "Cy"))]
    assert store.daily_try(DAY, "ann") is not None
    tried = store.daily_try(DAY, "bob")
    assert tried is not None and (tried.room, tried.ended) == ("ROOM0001", False)
    assert store.finished(DAY) == []  # none has ended
    for at, room in ((1.0, rooms[1]), (2.0, rooms[0])):  # Bob before Ann, the same final
        for update in play_out(room, at):
            stored(store, room, update)
    stored(store, rooms[2], rooms[2].leave(1, 3.0))  # Cy stops at once
    board = store.finished(DAY)
    finals = {room.seats[1].name: room.results[0].final for room in rooms}
    assert finals["Ann"] == finals["Bob"] != finals["Cy"]
    in_order = sorted(["Bob", "Ann", "Cy"], key=lambda name: -finals[name])  # stable: who first
    assert [line.name for line in board] == in_order
    assert [line.final for line in board] == [finals[name] for name in in_order]
    assert [line.finished for line in board if line.name != "Cy"] == sorted(
        line.finished for line in board if line.name != "Cy"
    )
    ended = store.daily_try(DAY, "bob")
    assert ended is not None and ended.ended
    record = store.daily_record(DAY, "ann")
    assert record is not None
    game, refusal = load_game(json.dumps(record))
    assert refusal is None and game.result().score.final == board[1].final
    assert store.daily_record(DAY, "nobody") is None
    assert store.finished(date(2026, 3, 15)) == []


def test_a_second_try_the_same_day_is_refused_by_the_store(store_at: StoreAt) -> None:
    store = opened(store_at)
    daily_try(store, "ROOM0001", "Ann")
    with pytest.raises(Conflict):
        daily_try(store, "ROOM0002", "Ann")
    assert not store.knows("ROOM0002")  # the whole transaction was undone


# -- several servers on one database -------------------------------------------------------------


def test_messages_for_another_server_are_kept_for_it_alone(
    tmp_path: Path, postgres: Cluster
) -> None:
    at = StoreAt(tmp_path, postgres.schema())
    store, other = opened(at), opened(at)
    with store.locked("NOSUCHROOM") as nothing:
        assert nothing is None
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "t", 0.0)
    stored(store, room, made)
    stored(other, room, room.join("Bob", "t2", 0.0))
    assert store.holders("ROOMCODE") == {1: store.server, 2: other.server}
    with store.locked("ROOMCODE") as held:
        assert held is not None and held.version == 0
        assert held.holders == {1: store.server, 2: other.server}  # read with the lock
        store.tell("ROOMCODE", 3, [Relayed(2, '{"type":"lobby"}', other.server)], 10.0)
        store.tell("ROOMCODE", 4, [Relayed(2, '{"type":"deal"}', other.server)], 12.0)
    lobby = RelayedAt(3, Relayed(2, '{"type":"lobby"}', other.server))
    deal = RelayedAt(4, Relayed(2, '{"type":"deal"}', other.server))
    assert other.told_since("ROOMCODE", 2) == [lobby, deal]
    assert other.told_since("ROOMCODE", 3) == [deal]
    assert store.told_since("ROOMCODE", 0) == []
    store.forget_told(11.0)
    assert other.told_since("ROOMCODE", 0) == [deal]


def test_servers_that_stop_saying_they_run_are_dead_and_their_players_known(
    store_at: StoreAt,
) -> None:
    store = opened(store_at)
    other = opened(store_at)
    room, made = Room.create("ROOMCODE", room_of().deal, "Ann", "t", 0.0)
    stored(other, room, made)
    store.seen(100.0)
    other.seen(50.0)
    assert store.dead_servers(60.0) == [other.server]
    assert store.held_by(other.server) == [("ROOMCODE", 1)]
    store.drop_server(other.server)
    assert store.dead_servers(60.0) == []
    store.set_state("ROOMCODE", 1, 0.0, 30.0)
    assert store.due_rooms(29.0) == [] and store.due_rooms(30.0) == ["ROOMCODE"]


def test_a_file_of_the_first_schema_is_brought_up_to_date_with_its_rooms(tmp_path: Path) -> None:
    from forage.history.store import connect
    from forage.net.database import MIGRATIONS

    conn = connect(tmp_path / SERVER_FILE, MIGRATIONS[:1])
    conn.execute(
        "INSERT INTO rooms (code, kind, deal, deck, status, created)"
        f" VALUES ('OLDROOM2', 'room', '{room_of().deal.code}', 1, 'lobby', 'then')"
    )
    conn.execute(
        "INSERT INTO players (room, player, name, token, status, joined)"
        " VALUES ('OLDROOM2', 1, 'Ann', 'hash', 'in', 'then')"
    )
    conn.close()
    store = RoomStore.open(tmp_path)
    assert raw(store, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    [room] = store.live_rooms().rooms
    assert (room.code, room.version, room.players[0].connected) == ("OLDROOM2", 0, False)
    assert store.day_deal(DAY, lambda: 5).secret == 5  # the daily's tables are there
