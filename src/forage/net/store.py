"""The rooms server's store: rooms, players, moves and results in one SQLite file.

The file is ``server.sqlite3`` in the server's data folder (:func:`forage.paths.data_dir`).
Its schema carries a version (``PRAGMA user_version``) and :data:`MIGRATIONS` bring an
older file up to date when it is opened, as the history's do. WAL mode; each room
change (the :data:`~forage.net.rooms.Event`\\ s of one action) is one transaction, written
before any player is told of it. Tokens are kept only as their SHA-256.

Every statement is in :data:`SQL`, written with named parameters (``:name``); a database
whose driver takes ``%(name)s`` gets them through :func:`pyformat`. On start, the server
reads the rooms not yet ended (:meth:`RoomStore.live_rooms`) and rebuilds each by replaying
its moves.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from forage.engine import Deal
from forage.history.store import TooNew, connect, transaction
from forage.net.rooms import (
    Created,
    Ended,
    Event,
    HostChanged,
    Kind,
    Moved,
    Phase,
    PlayerAdded,
    PlayerStatus,
    Started,
    Status,
    StoredPlayer,
    StoredRoom,
)
from forage.paths import SERVER_FILE, data_dir
from forage.record import MoveIn, placement_json, placement_of

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    # version 1: rooms, their players, moves and results
    (
        """CREATE TABLE rooms (
            code TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('room', 'daily')),
            deal TEXT NOT NULL,
            deck INTEGER NOT NULL,
            seed TEXT,
            host INTEGER,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'ended')),
            created TEXT NOT NULL,
            started TEXT,
            ended TEXT,
            end_reason TEXT
        )""",
        "CREATE INDEX rooms_by_status ON rooms (status)",
        """CREATE TABLE players (
            room TEXT NOT NULL REFERENCES rooms (code),
            player INTEGER NOT NULL,
            name TEXT NOT NULL,
            token TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('in', 'gone', 'left', 'stuck', 'dropped')),
            joined TEXT NOT NULL,
            PRIMARY KEY (room, player)
        )""",
        """CREATE TABLE moves (
            room TEXT NOT NULL REFERENCES rooms (code),
            player INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            move TEXT NOT NULL,
            placed TEXT NOT NULL,
            PRIMARY KEY (room, player, turn)
        )""",
        """CREATE TABLE results (
            room TEXT NOT NULL REFERENCES rooms (code),
            player INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            name TEXT NOT NULL,
            final INTEGER NOT NULL,
            won INTEGER NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (room, player)
        )""",
    ),
)
SCHEMA_VERSION: Final = len(MIGRATIONS)

SQL: Final[Mapping[str, str]] = {
    "add_room": (
        "INSERT INTO rooms (code, kind, deal, deck, seed, status, created)"
        " VALUES (:code, :kind, :deal, :deck, :seed, 'lobby', :now)"
    ),
    "add_player": (
        "INSERT INTO players (room, player, name, token, status, joined)"
        " VALUES (:code, :player, :name, :token, 'in', :now)"
    ),
    "set_status": "UPDATE players SET status = :status WHERE room = :code AND player = :player",
    "set_host": "UPDATE rooms SET host = :host WHERE code = :code",
    "start": "UPDATE rooms SET status = 'playing', started = :now WHERE code = :code",
    "add_move": (
        "INSERT INTO moves (room, player, turn, move, placed)"
        " VALUES (:code, :player, :turn, :move, :now)"
    ),
    "end": (
        "UPDATE rooms SET status = 'ended', ended = :now, end_reason = :reason WHERE code = :code"
    ),
    "add_result": (
        "INSERT INTO results (room, player, rank, name, final, won, record)"
        " VALUES (:code, :player, :rank, :name, :final, :won, :record)"
    ),
    "live_rooms": (
        "SELECT code, kind, deal, deck, seed, host, status FROM rooms"
        " WHERE status != 'ended' ORDER BY created, code"
    ),
    "players_of": (
        "SELECT player, name, token, status FROM players WHERE room = :code ORDER BY player"
    ),
    "moves_of": ("SELECT player, turn, move FROM moves WHERE room = :code ORDER BY turn, player"),
    "room_known": "SELECT 1 FROM rooms WHERE code = :code",
    "results_of": (
        "SELECT player, rank, name, final, won, record FROM results"
        " WHERE room = :code ORDER BY rank"
    ),
}
"""Every statement of the store, with named parameters."""


def pyformat(sql: str) -> str:
    """A statement's ``:name`` parameters written ``%(name)s``, for drivers that take those."""
    return re.sub(r"(?<![:\w]):([A-Za-z_]\w*)", r"%(\1)s", sql.replace("%", "%%"))


class StoreError(Exception):
    """The store cannot be used; the message is one line naming the file and the problem."""


@dataclass(frozen=True)
class StoredResult:
    """One player's result in an ended room, as stored."""

    player: int
    rank: int
    name: str
    final: int
    won: bool
    record: dict[str, Any]


@dataclass(frozen=True)
class LiveRooms:
    """The rooms read back on start, and one line for each stored room that could not be."""

    rooms: list[StoredRoom]
    problems: list[str]


def _now() -> str:
    """The time now as stored: ISO 8601 in UTC, to the microsecond."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _connect(path: Path) -> sqlite3.Connection:
    """The store's file, checked and migrated (as the history's is); raises sqlite3.Error,
    OSError or TooNew. A commit is durable once the WAL holds it (synchronous NORMAL): a
    crash of the server loses nothing, a power cut may lose the last moments."""
    conn = connect(path, MIGRATIONS)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


class RoomStore:
    """The server's file, open. Methods raise sqlite3.Error if the file fails meanwhile."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        """A store on an open, migrated connection."""
        self._conn = conn
        self.path = path
        self._writers: dict[type, Callable[[str, Any, str], None]] = {
            Created: self._created,
            PlayerAdded: self._player_added,
            PlayerStatus: self._status,
            HostChanged: self._host,
            Started: self._started,
            Moved: self._moved,
            Ended: self._ended,
        }

    @classmethod
    def open(cls, folder: Path | None = None) -> RoomStore:
        """Open (or create) ``server.sqlite3`` in ``folder`` (the data folder by default);
        raises StoreError naming the file and what is wrong."""
        path = (folder if folder is not None else data_dir()) / SERVER_FILE
        try:
            return cls(_connect(path), path)
        except TooNew as exc:
            raise StoreError(f"{path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: cannot be used ({exc})") from None
        except OSError as exc:
            raise StoreError(f"{path}: cannot be used ({exc.strerror or exc})") from None

    def close(self) -> None:
        """Close the file."""
        self._conn.close()

    def _run(self, statement: str, /, **params: Any) -> sqlite3.Cursor:
        """Run one of :data:`SQL`'s statements with its parameters."""
        return self._conn.execute(SQL[statement], params)

    # -- writing ------------------------------------------------------------------------------

    def apply(self, code: str, events: Sequence[Event]) -> None:
        """Store what an action changed in a room, in one transaction."""
        self.apply_all([(code, events)])

    def apply_all(self, changes: Sequence[tuple[str, Sequence[Event]]]) -> None:
        """Store what actions changed in rooms (each room's code with its events, in order),
        all in one transaction."""
        if not any(events for _, events in changes):
            return
        now = _now()
        with transaction(self._conn):
            for code, events in changes:
                for event in events:
                    self._writers[type(event)](code, event, now)

    def _created(self, code: str, event: Created, now: str) -> None:
        seed = None if event.seed is None else str(event.seed)
        self._run(
            "add_room",
            code=code,
            kind=event.kind.value,
            deal=event.deal.code,
            deck=event.deck,
            seed=seed,
            now=now,
        )

    def _player_added(self, code: str, event: PlayerAdded, now: str) -> None:
        self._run(
            "add_player",
            code=code,
            player=event.player,
            name=event.name,
            token=event.token,
            now=now,
        )

    def _status(self, code: str, event: PlayerStatus, now: str) -> None:
        self._run("set_status", code=code, player=event.player, status=event.status.value)

    def _host(self, code: str, event: HostChanged, now: str) -> None:
        self._run("set_host", code=code, host=event.host)

    def _started(self, code: str, event: Started, now: str) -> None:
        self._run("start", code=code, now=now)

    def _moved(self, code: str, event: Moved, now: str) -> None:
        move = json.dumps(placement_json(event.placement), separators=(",", ":"))
        self._run("add_move", code=code, player=event.player, turn=event.turn, move=move, now=now)

    def _ended(self, code: str, event: Ended, now: str) -> None:
        self._run("end", code=code, now=now, reason=str(event.reason))
        for rank, line in enumerate(event.results, 1):
            self._run(
                "add_result",
                code=code,
                player=line.player,
                rank=rank,
                name=line.name,
                final=line.final,
                won=int(line.won),
                record=json.dumps(line.record, separators=(",", ":")),
            )

    # -- reading ------------------------------------------------------------------------------

    def knows(self, code: str) -> bool:
        """Whether a room of this code was ever stored."""
        return self._run("room_known", code=code).fetchone() is not None

    def live_rooms(self) -> LiveRooms:
        """Every room not yet ended, as stored; a room that cannot be read is named instead."""
        rooms, problems = [], []
        for code, kind, deal, deck, seed, host, status in self._run("live_rooms").fetchall():
            try:
                rooms.append(self._room(code, kind, deal, deck, seed, host, status))
            except (ValueError, TypeError, KeyError) as exc:
                problems.append(f"room {code}: cannot be read ({exc})")
        return LiveRooms(rooms, problems)

    def _room(
        self, code: str, kind: str, deal: str, deck: int, seed: str | None, host: Any, status: str
    ) -> StoredRoom:
        players = tuple(
            StoredPlayer(int(player), str(name), str(token), Status(state))
            for player, name, token, state in self._run("players_of", code=code)
        )
        moves = tuple(
            Moved(int(player), int(turn), placement_of(MoveIn.model_validate_json(move)))
            for player, turn, move in self._run("moves_of", code=code)
        )
        return StoredRoom(
            code=code,
            kind=Kind(kind),
            deal=Deal.from_code(deal),
            deck=int(deck),
            seed=None if seed is None else int(seed),
            host=None if host is None else int(host),
            phase=Phase(status),
            players=players,
            moves=moves,
        )

    def results(self, code: str) -> list[StoredResult]:
        """An ended room's results, highest final first (none for another room)."""
        return [
            StoredResult(int(p), int(rank), str(name), int(final), bool(won), json.loads(record))
            for p, rank, name, final, won, record in self._run("results_of", code=code)
        ]
