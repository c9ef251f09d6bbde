"""The rooms' database: one schema and one set of statements for SQLite and PostgreSQL.

:data:`MIGRATIONS` is the schema, version by version; :data:`SQL` every statement of the
store, with named parameters (``:name``; :func:`pyformat` writes them ``%(name)s`` for
psycopg). A :class:`Database` runs them: :class:`SqliteDatabase` on the server's file,
:class:`forage.net.postgres.PostgresDatabase` on a PostgreSQL database several servers
share. Its errors are one line: :class:`StoreError` (it cannot be opened),
:class:`StoreFault` (a statement failed) and :class:`Conflict` (a key written meanwhile).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from forage.sqlite import TooNew, connect

SQLITE_BUSY_SECONDS: Final = 2.0
"""How long an SQLite statement of the rooms' store waits for a lock held elsewhere before it
fails (and is tried again: :mod:`forage.net.patience`)."""

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
    # version 2: the online daily (days and their secrets, names, tries); what several
    # servers on one database share (a room's version, times and connections, the messages
    # for players connected to another server, the servers running)
    (
        "ALTER TABLE rooms ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE rooms ADD COLUMN active DOUBLE PRECISION",
        "ALTER TABLE rooms ADD COLUMN deadline DOUBLE PRECISION",
        "ALTER TABLE rooms ADD COLUMN ended_at DOUBLE PRECISION",
        "CREATE INDEX rooms_by_deadline ON rooms (status, deadline)",
        "ALTER TABLE players ADD COLUMN server TEXT",
        "ALTER TABLE players ADD COLUMN gone_since DOUBLE PRECISION",
        "CREATE INDEX players_by_server ON players (server)",
        """CREATE TABLE daily_days (
            day TEXT PRIMARY KEY,
            seed TEXT NOT NULL UNIQUE,
            deal TEXT NOT NULL,
            created TEXT NOT NULL,
            ended INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE daily_names (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            token TEXT NOT NULL,
            registered TEXT NOT NULL
        )""",
        """CREATE TABLE daily_tries (
            day TEXT NOT NULL REFERENCES daily_days (day),
            name_key TEXT NOT NULL REFERENCES daily_names (name_key),
            room TEXT NOT NULL UNIQUE REFERENCES rooms (code),
            started TEXT NOT NULL,
            PRIMARY KEY (day, name_key)
        )""",
        """CREATE TABLE messages (
            room TEXT NOT NULL,
            version INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            server TEXT NOT NULL,
            player INTEGER NOT NULL,
            body TEXT NOT NULL,
            sent DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (room, version, seq)
        )""",
        "CREATE INDEX messages_by_time ON messages (sent)",
        "CREATE TABLE servers (id TEXT PRIMARY KEY, seen DOUBLE PRECISION NOT NULL)",
    ),
    # version 3: what each name of the daily looks like (protocol.name_skeleton), one name
    # to a look; the store works it out for the names registered before
    # (RoomStore.fill_skeletons)
    (
        "ALTER TABLE daily_names ADD COLUMN skeleton TEXT",
        "CREATE UNIQUE INDEX daily_names_by_skeleton ON daily_names (skeleton)",
    ),
)
SCHEMA_VERSION: Final = len(MIGRATIONS)
STAMP: Final = "%Y-%m-%dT%H:%M:%S.%fZ"
"""How stored times are written: ISO 8601 in UTC, to the microsecond."""
TABLES: Final = (
    "rooms",
    "players",
    "moves",
    "results",
    "daily_days",
    "daily_names",
    "daily_tries",
    "messages",
    "servers",
)
"""Every table of the store (the rights a PostgreSQL role needs are on these)."""
CHANNEL: Final = "forage_rooms"
"""The PostgreSQL notification channel on which servers tell each other of a room's change."""
LISTENING: Final = ""
"""The first of a shared database's notifications: listening from now (anything told
before may have been missed)."""

_ROOM_COLUMNS: Final = (
    "SELECT code, kind, deal, deck, seed, host, status, version, active, ended_at,"
    " end_reason, daily_tries.day FROM rooms LEFT JOIN daily_tries ON daily_tries.room = code"
)

SQL: Final[Mapping[str, str]] = {
    "add_room": (
        "INSERT INTO rooms (code, kind, deal, deck, seed, status, created)"
        " VALUES (:code, :kind, :deal, :deck, :seed, 'lobby', :now)"
    ),
    "add_player": (
        "INSERT INTO players (room, player, name, token, status, joined, server)"
        " VALUES (:code, :player, :name, :token, 'in', :now, :server)"
    ),
    "set_status": "UPDATE players SET status = :status WHERE room = :code AND player = :player",
    "set_connection": (
        "UPDATE players SET server = :server, gone_since = :since"
        " WHERE room = :code AND player = :player"
    ),
    "set_host": "UPDATE rooms SET host = :host WHERE code = :code",
    "start": "UPDATE rooms SET status = 'playing', started = :now WHERE code = :code",
    "add_move": (
        "INSERT INTO moves (room, player, turn, move, placed)"
        " VALUES (:code, :player, :turn, :move, :now)"
    ),
    "end": (
        "UPDATE rooms SET status = 'ended', ended = :now, ended_at = :at, end_reason = :reason"
        " WHERE code = :code"
    ),
    "try_ended": (
        "UPDATE daily_days SET ended = ended + 1"
        " WHERE day = (SELECT day FROM daily_tries WHERE room = :code)"
    ),
    "add_result": (
        "INSERT INTO results (room, player, rank, name, final, won, record)"
        " VALUES (:code, :player, :rank, :name, :final, :won, :record)"
    ),
    "live_rooms": f"{_ROOM_COLUMNS} WHERE status != 'ended' ORDER BY created, code",
    "room": f"{_ROOM_COLUMNS} WHERE code = :code",
    "players_of": (
        "SELECT player, name, token, status, server, gone_since FROM players"
        " WHERE room = :code ORDER BY player"
    ),
    "moves_of": "SELECT player, turn, move FROM moves WHERE room = :code ORDER BY turn, player",
    "room_known": "SELECT 1 FROM rooms WHERE code = :code",
    "results_of": (
        "SELECT player, rank, name, final, won, record FROM results"
        " WHERE room = :code ORDER BY rank"
    ),
    # several servers on one database (PostgreSQL)
    "lock_room": (
        "SELECT rooms.version, players.player, players.server FROM rooms"
        " LEFT JOIN players ON players.room = rooms.code"
        " WHERE rooms.code = :code FOR UPDATE OF rooms"
    ),
    "set_state": (
        "UPDATE rooms SET version = :version, active = :active, deadline = :deadline"
        " WHERE code = :code"
    ),
    "add_message": (
        "INSERT INTO messages (room, version, seq, server, player, body, sent)"
        " VALUES (:code, :version, :seq, :server, :player, :body, :sent)"
    ),
    "messages_since": (
        "SELECT version, player, body FROM messages"
        " WHERE room = :code AND version > :version AND server = :server"
        " ORDER BY version, seq"
    ),
    "drop_messages": "DELETE FROM messages WHERE sent < :before",
    "notify": "SELECT pg_notify(:channel, :payload)",
    "due_rooms": (
        "SELECT code FROM rooms WHERE status != 'ended' AND deadline <= :now"
        " ORDER BY deadline LIMIT :most"
    ),
    "seen": (
        "INSERT INTO servers (id, seen) VALUES (:id, :seen)"
        " ON CONFLICT (id) DO UPDATE SET seen = :seen"
    ),
    "dead_servers": "SELECT id FROM servers WHERE seen < :before ORDER BY id",
    "held_by": "SELECT room, player FROM players WHERE server = :id ORDER BY room, player",
    "holders": "SELECT player, server FROM players WHERE room = :code",
    "drop_server": "DELETE FROM servers WHERE id = :id",
    # the online daily
    "add_day": (
        "INSERT INTO daily_days (day, seed, deal, created) VALUES (:day, :seed, :deal, :now)"
        " ON CONFLICT DO NOTHING"
    ),
    "day": "SELECT seed, deal FROM daily_days WHERE day = :day",
    "ended_tries": "SELECT ended FROM daily_days WHERE day = :day",
    "add_name": (
        "INSERT INTO daily_names (name_key, name, skeleton, token, registered)"
        " VALUES (:key, :name, :skeleton, :token, :now) ON CONFLICT DO NOTHING"
    ),
    "name": (
        "SELECT name, token, name_key FROM daily_names"
        " WHERE name_key = :key OR skeleton = :skeleton"
        " ORDER BY CASE WHEN name_key = :key THEN 0 ELSE 1 END LIMIT 1"
    ),
    "unskeletoned": (
        "SELECT name_key, name FROM daily_names WHERE skeleton IS NULL"
        " ORDER BY registered, name_key"
    ),
    "set_skeleton": (
        "UPDATE daily_names SET skeleton = :skeleton WHERE name_key = :key AND skeleton IS NULL"
    ),
    "add_try": (
        "INSERT INTO daily_tries (day, name_key, room, started) VALUES (:day, :key, :code, :now)"
    ),
    "try": (
        "SELECT daily_tries.room, rooms.status FROM daily_tries"
        " JOIN rooms ON rooms.code = daily_tries.room"
        " WHERE daily_tries.day = :day AND daily_tries.name_key = :key"
    ),
    "finished": (
        "SELECT results.name, results.final, rooms.ended_at FROM daily_tries"
        " JOIN rooms ON rooms.code = daily_tries.room"
        " JOIN results ON results.room = daily_tries.room"
        " WHERE daily_tries.day = :day AND rooms.status = 'ended'"
        " ORDER BY results.final DESC, rooms.ended_at, daily_tries.room"
    ),
    "daily_record": (
        "SELECT results.record FROM daily_tries JOIN results ON results.room = daily_tries.room"
        " WHERE daily_tries.day = :day AND daily_tries.name_key = :key"
    ),
}
"""Every statement of the store, with named parameters. ``lock_room`` and ``notify`` are
PostgreSQL's alone (SQLite has one writer and one server)."""


def pyformat(sql: str) -> str:
    """A statement's ``:name`` parameters written ``%(name)s``, for drivers that take those."""
    return re.sub(r"(?<![:\w]):([A-Za-z_]\w*)", r"%(\1)s", sql.replace("%", "%%"))


class StoreError(Exception):
    """The store cannot be used; the message is one line naming the database and the problem."""


class StoreFault(Exception):
    """A statement failed (the database went away, a disk filled); one line."""


class Conflict(StoreFault):
    """A row that another server wrote meanwhile has the same key."""


@dataclass(frozen=True)
class Ran:
    """What a statement gave: its rows (none for a change) and how many rows it changed."""

    rows: list[tuple[Any, ...]]
    count: int


def first_line(error: BaseException) -> str:
    """An error's message on one line (a driver's may run over several)."""
    text = str(error).strip().splitlines()
    return text[0].strip() if text else type(error).__name__


@contextmanager
def faults(where: str, taken: type[BaseException], failed: type[BaseException]) -> Iterator[None]:
    """A driver's errors as the store's, naming the database: ``taken`` (a key written
    meanwhile) as Conflict, any other ``failed`` as StoreFault."""
    try:
        yield
    except taken as exc:
        raise Conflict(f"{where}: {first_line(exc)}") from None
    except failed as exc:
        raise StoreFault(f"{where}: {first_line(exc)}") from None


class Database(ABC):
    """A database that runs :data:`SQL`'s statements, on a connection of the calling thread's
    own (opened when the thread first needs one), so that the store's threads
    (:class:`forage.net.patience.StoreThreads`) may use it at once."""

    shared: bool = False
    """Whether several servers may use the database at once (each action then locks its
    room, and the servers tell each other of changes)."""
    where: str = ""
    """The database as messages name it (a file, or an address without its password)."""
    writers: int = 1
    """How many threads may write to it at once."""

    def __init__(self) -> None:
        """A database with no thread's transaction open."""
        self._local = threading.local()

    @property
    def _depth(self) -> int:
        """How deep the calling thread's transactions are nested (0: none open)."""
        depth: int = getattr(self._local, "depth", 0)
        return depth

    @_depth.setter
    def _depth(self, depth: int) -> None:
        self._local.depth = depth

    @abstractmethod
    def run(self, statement: str, /, **params: Any) -> Ran:
        """Run one of :data:`SQL`'s statements; raises Conflict or StoreFault."""

    @abstractmethod
    def _begin(self) -> None: ...

    @abstractmethod
    def _commit(self) -> None: ...

    @abstractmethod
    def _rollback(self) -> None: ...

    @abstractmethod
    def close(self) -> None:
        """Close every thread's connection."""

    @contextmanager
    def batched(self) -> Iterator[None]:
        """Statements sent without waiting for each one's answer until one is read (a
        network database's round trips saved); as they are, elsewhere."""
        yield

    def notifications(self) -> AsyncIterator[str]:
        """The payloads of the other servers' notifications, as they come, after
        :data:`LISTENING` (a shared database only)."""
        raise StoreFault(f"{self.where}: only a shared database tells of other servers")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction (within one already open, a part of it); rolled back on error."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._begin()
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._rollback()
            raise
        self._depth = 0
        self._commit()


class Connections:
    """One connection for each thread that asks, opened by ``opener`` when it first does;
    all closed together."""

    def __init__(self, opener: Any) -> None:
        """Connections made by ``opener()`` (a callable)."""
        self._opener = opener
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()

    def mine(self) -> Any:
        """The calling thread's connection (opened now if it has none)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self.replace()
        return conn

    def adopt(self, conn: Any) -> None:
        """Make an open connection the calling thread's."""
        self._local.conn = conn
        with self._lock:
            self._all.append(conn)

    def replace(self) -> Any:
        """A new connection for the calling thread (its old one failed, or it had none)."""
        conn = self._opener()
        self.adopt(conn)
        return conn

    def close(self) -> None:
        """Close every connection opened."""
        with self._lock:
            found, self._all = self._all, []
        for conn in found:
            with contextlib.suppress(Exception):
                conn.close()


class SqliteDatabase(Database):
    """The server's SQLite file, a connection for each thread (WAL: readers never wait for
    the writer)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        """A database on an open, migrated connection (the calling thread's)."""
        super().__init__()
        self.path = path
        self.where = str(path)
        self.connections = Connections(self._connect)
        _set_up(conn)
        self.connections.adopt(conn)

    @classmethod
    def open(cls, path: Path) -> SqliteDatabase:
        """The file, checked and migrated (as the history's is); raises StoreError. A commit
        is durable once the WAL holds it (synchronous NORMAL): a crash of the server loses
        nothing, a power cut may lose the last moments."""
        try:
            conn = connect(path, MIGRATIONS, SQLITE_BUSY_SECONDS)
        except TooNew as exc:
            raise StoreError(f"{path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: cannot be used ({exc})") from None
        except OSError as exc:
            raise StoreError(f"{path}: cannot be used ({exc.strerror or exc})") from None
        return cls(conn, path)

    def _connect(self) -> sqlite3.Connection:
        """Another thread's connection to the file."""
        with self._faults():
            conn = sqlite3.connect(
                self.path,
                timeout=SQLITE_BUSY_SECONDS,
                isolation_level=None,
                check_same_thread=False,
            )
            _set_up(conn)
            return conn

    @property
    def conn(self) -> sqlite3.Connection:
        """The calling thread's connection."""
        conn: sqlite3.Connection = self.connections.mine()
        return conn

    def _faults(self) -> AbstractContextManager[None]:
        return faults(self.where, sqlite3.IntegrityError, sqlite3.Error)

    def run(self, statement: str, /, **params: Any) -> Ran:
        """Run one of :data:`SQL`'s statements; raises Conflict or StoreFault."""
        with self._faults():
            cursor = self.conn.execute(SQL[statement], params)
            return Ran(cursor.fetchall(), cursor.rowcount)

    def _begin(self) -> None:
        with self._faults():
            self.conn.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        with self._faults():
            self.conn.execute("COMMIT")

    def _rollback(self) -> None:
        conn = self.conn
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")

    def close(self) -> None:
        """Close the file."""
        self.connections.close()


def _set_up(conn: sqlite3.Connection) -> None:
    """A connection of the rooms' store as it runs: its waits for a lock short (a statement
    that fails is tried again), a commit durable once the WAL holds it."""
    conn.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_SECONDS * 1000)}")
    conn.execute("PRAGMA synchronous = NORMAL")
