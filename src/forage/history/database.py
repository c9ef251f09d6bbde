"""The history's SQLite file: its schema and migrations, opening it, and its connection.

The file is ``history.sqlite3`` in :func:`forage.paths.data_dir`. Its schema carries a version
(``PRAGMA user_version``) and :data:`MIGRATIONS` bring an older file up to date when it is
opened. WAL mode and a busy timeout let two games running at once both record; each game is
written in one transaction. Nothing here ever stops play: a damaged file is moved aside and
a new one started, an unusable folder gives a file that records nothing; either way
:attr:`HistoryDatabase.notice` holds the one line to show the player. The store of games
(:mod:`forage.history.store`) and the analyses kept (:mod:`forage.history.analyses`) use
the one connection.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Final, Self, TypeVar

from forage import sqlite
from forage.history.games import now_utc
from forage.paths import HISTORY_FILE, data_dir
from forage.sqlite import Migrations, TooNew

DB_NAME: Final = HISTORY_FILE
BUSY_SECONDS: Final = 10.0
"""How long a write waits for another process's transaction before giving up."""
READ_BUSY_SECONDS: Final = 2.0
"""How long ``forage stats`` and ``history`` wait for a file another process has locked."""

GAME_COLUMNS_V4: Final = (
    "id, player, status, mode, deal, seed, deck, recipes, dice_total, mice, split_dice, "
    "edwood, base, bonus, final, rating, recipes_met, stuck, won, moves, hints, undos, "
    "started, ended, daily, app_version, record, par, par_proven"
)
"""Every column of the games table up to version 4, in order."""

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    # version 1: the games, the settings (the last player), the achievements unlocked
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            player TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
            mode TEXT NOT NULL CHECK (mode IN ('standard', 'recipe')),
            deal TEXT NOT NULL,
            seed TEXT,
            deck INTEGER NOT NULL DEFAULT 1,
            recipes TEXT,
            dice_total INTEGER NOT NULL,
            mice INTEGER NOT NULL,
            split_dice INTEGER NOT NULL,
            edwood INTEGER NOT NULL,
            base INTEGER NOT NULL,
            bonus INTEGER NOT NULL,
            final INTEGER NOT NULL,
            rating TEXT NOT NULL,
            recipes_met TEXT NOT NULL DEFAULT '',
            stuck INTEGER NOT NULL,
            won INTEGER,
            moves INTEGER NOT NULL,
            hints INTEGER NOT NULL DEFAULT 0,
            undos INTEGER NOT NULL DEFAULT 0,
            started TEXT NOT NULL,
            ended TEXT NOT NULL,
            daily TEXT,
            app_version TEXT NOT NULL,
            record TEXT NOT NULL
        )""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE achievements (
            player TEXT NOT NULL,
            id TEXT NOT NULL,
            game INTEGER NOT NULL REFERENCES games (id),
            unlocked TEXT NOT NULL,
            PRIMARY KEY (player, id)
        )""",
    ),
    # version 2: the deal's par, which may be found after the game is stored; indexes
    (
        "ALTER TABLE games ADD COLUMN par INTEGER",
        "ALTER TABLE games ADD COLUMN par_proven INTEGER",
        "CREATE INDEX games_by_player ON games (player, status, ended)",
        "CREATE INDEX games_by_deal ON games (deal)",
    ),
    # version 3: analyses remembered (a game's review), keyed by what decides them
    (
        """CREATE TABLE analyses (
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            stored TEXT NOT NULL,
            PRIMARY KEY (kind, key)
        )""",
    ),
    # version 4: the first try at each puzzle (history/puzzles.py); a puzzle's achievement
    # is stored with game 0
    (
        """CREATE TABLE puzzle_tries (
            player TEXT NOT NULL,
            puzzle INTEGER NOT NULL,
            day TEXT NOT NULL,
            tried TEXT NOT NULL,
            solved INTEGER NOT NULL,
            rating INTEGER NOT NULL,
            PRIMARY KEY (player, puzzle)
        )""",
    ),
    # version 5: games played in a room (mode 'room', the room's code, the player's place
    # of how many), and the tries of a server's online daily (mode 'daily-online', its
    # room's code). SQLite cannot change a CHECK constraint, so the table is built again,
    # every row and id kept (in the one transaction of the migration).
    (
        """CREATE TABLE games_v5 (
            id INTEGER PRIMARY KEY,
            player TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
            mode TEXT NOT NULL CHECK (mode IN ('standard', 'recipe', 'room', 'daily-online')),
            deal TEXT NOT NULL,
            seed TEXT,
            deck INTEGER NOT NULL DEFAULT 1,
            recipes TEXT,
            dice_total INTEGER NOT NULL,
            mice INTEGER NOT NULL,
            split_dice INTEGER NOT NULL,
            edwood INTEGER NOT NULL,
            base INTEGER NOT NULL,
            bonus INTEGER NOT NULL,
            final INTEGER NOT NULL,
            rating TEXT NOT NULL,
            recipes_met TEXT NOT NULL DEFAULT '',
            stuck INTEGER NOT NULL,
            won INTEGER,
            moves INTEGER NOT NULL,
            hints INTEGER NOT NULL DEFAULT 0,
            undos INTEGER NOT NULL DEFAULT 0,
            started TEXT NOT NULL,
            ended TEXT NOT NULL,
            daily TEXT,
            app_version TEXT NOT NULL,
            record TEXT NOT NULL,
            par INTEGER,
            par_proven INTEGER,
            room TEXT,
            placing INTEGER,
            players INTEGER
        )""",
        f"INSERT INTO games_v5 ({GAME_COLUMNS_V4}) SELECT {GAME_COLUMNS_V4} FROM games",
        "DROP TABLE games",
        "ALTER TABLE games_v5 RENAME TO games",
        "CREATE INDEX games_by_player ON games (player, status, ended)",
        "CREATE INDEX games_by_deal ON games (deal)",
    ),
)
SCHEMA_VERSION: Final = len(MIGRATIONS)

T = TypeVar("T")


class HistoryUnreadable(Exception):
    """The history file cannot be read (``forage stats``, ``history``); the message names it."""


ROW_KINDS: Final = {"game": "games", "puzzle try": "puzzle tries", "achievement": "achievements"}
"""The kinds of stored row that are checked as they are read, and their plurals."""


def migrate(conn: sqlite3.Connection, migrations: Migrations = MIGRATIONS) -> None:
    """Bring the schema up to the last of ``migrations`` (by default the history's, up to
    :data:`SCHEMA_VERSION`); raises TooNew for a newer file."""
    sqlite.migrate(conn, migrations)


def connect(path: Path, migrations: Migrations = MIGRATIONS) -> sqlite3.Connection:
    """Open an SQLite file (by default the history's) in WAL mode, checked and migrated;
    raises sqlite3.DatabaseError if damaged, TooNew if a newer forage wrote it."""
    return sqlite.connect(path, migrations, BUSY_SECONDS)


def move_aside(path: Path) -> Path:
    """Rename a damaged history file (and its WAL files) with a timestamp; the new name."""
    stamp = now_utc().strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            extra.rename(target.with_name(target.name + suffix))
    return target


def _reason(error: BaseException) -> str:
    """A short reason for a failure, without a traceback."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


class HistoryDatabase:
    """The history file, open: one connection, used under one lock; every use of it is safe
    when the file is unusable (:meth:`safely`)."""

    def __init__(
        self,
        conn: sqlite3.Connection | None,
        path: Path,
        notice: str | None = None,
        strict: bool = False,
    ) -> None:
        """The file on an open connection, or (conn None) one that records nothing; a
        ``strict`` one raises HistoryUnreadable where another gives its default."""
        self._conn = conn
        self.path = path
        self.strict = strict
        self.notice = notice
        """One line for the player: the file was moved aside, or history is off, and why."""
        self._lock = threading.Lock()
        self.unreadable: dict[str, set[int]] = {kind: set() for kind in ROW_KINDS}
        """By kind of row (:data:`ROW_KINDS`), the ids of those that could not be read
        (edited by hand): left out."""

    @classmethod
    def open(cls, folder: Path | None = None) -> Self:
        """Open (or create) the history in ``folder`` (the data folder by default); never raises."""
        path = (folder if folder is not None else data_dir()) / DB_NAME

        try:
            return cls(connect(path), path)
        except TooNew as exc:
            return cls._off(path, f"the history file {path} was {exc}")
        except sqlite3.OperationalError as exc:  # cannot open or write: leave the file be
            return cls._off(path, f"cannot use {path} ({_reason(exc)})")
        except sqlite3.DatabaseError:  # not a database, or damaged
            try:
                moved = move_aside(path)
            except OSError as exc:
                return cls._off(
                    path,
                    f"the history file {path} is damaged and cannot be moved aside "
                    f"({_reason(exc)})",
                )
        except (OSError, sqlite3.Error) as exc:
            return cls._off(path, f"cannot use {path} ({_reason(exc)})")
        notice = f"the history file was damaged: moved it to {moved.name} and started a new one"
        try:
            return cls(connect(path), path, notice)
        except (OSError, sqlite3.Error, TooNew) as exc:
            return cls._off(path, f"cannot use {path} ({_reason(exc)})")

    @classmethod
    def _off(cls, path: Path, why: str) -> Self:
        """A history that records nothing, and why."""
        return cls(None, path, f"{why}: going on without history")

    @classmethod
    def read(cls, folder: Path | None = None) -> Self:
        """Open the history in ``folder`` to read only: no journal switch, no migration,
        nothing written. A missing file reads as an empty history; one that cannot be read
        raises HistoryUnreadable naming the file."""
        path = (folder if folder is not None else data_dir()) / DB_NAME
        if not path.exists() and not path.is_symlink():
            return cls(None, path, strict=True)
        if path.is_dir():
            raise HistoryUnreadable(f"{path}: is a folder, not a history file")
        try:
            conn = sqlite3.connect(
                f"{path.absolute().as_uri()}?mode=ro",
                uri=True,
                timeout=READ_BUSY_SECONDS,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise HistoryUnreadable(f"{path}: cannot be read ({_reason(exc)})") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(READ_BUSY_SECONDS * 1000)}")
            version = sqlite.user_version(conn)
            if version > SCHEMA_VERSION:
                raise HistoryUnreadable(f"{path}: written by a newer forage (schema {version})")
        except sqlite3.Error as exc:
            conn.close()
            raise HistoryUnreadable(f"{path}: cannot be read ({_reason(exc)})") from None
        except BaseException:
            conn.close()
            raise
        return cls(conn, path, strict=True)

    @property
    def enabled(self) -> bool:
        """Whether games are being recorded."""
        return self._conn is not None

    def close(self) -> None:
        """Close the file."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Self:
        """The file itself, closed when the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the file."""
        self.close()

    def safely(self, default: T, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run work on the connection; on any database or file error, note it and give default."""
        conn = self._conn
        if conn is None:
            return default
        with self._lock:
            before = self._unreadable_count()
            try:
                return work(conn)
            except (sqlite3.Error, OSError) as exc:
                if self.strict:
                    raise HistoryUnreadable(
                        f"{self.path}: cannot be read ({_reason(exc)})"
                    ) from None
                self.notice = f"the history could not be used ({_reason(exc)})"
                return default
            except (ValueError, TypeError, KeyError, ArithmeticError, RecursionError) as exc:
                self.notice = f"the history holds a row it cannot read ({_reason(exc)})"
                return default
            finally:
                if self._unreadable_count() > before:
                    self.notice = self.unreadable_line()

    def _unreadable_count(self) -> int:
        return sum(len(ids) for ids in self.unreadable.values())

    def unreadable_line(self) -> str | None:
        """``1 stored game could not be read (left out)`` (and puzzle tries, achievements),
        or None when all could be."""
        named = [
            f"{len(ids)} stored {kind if len(ids) == 1 else ROW_KINDS[kind]}"
            for kind, ids in self.unreadable.items()
            if ids
        ]
        if not named:
            return None
        return f"{' and '.join(named)} could not be read (left out)"
