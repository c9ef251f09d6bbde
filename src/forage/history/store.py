"""The history store: every game played, in one SQLite file in the data folder.

The file is ``history.sqlite3`` in :func:`forage.paths.data_dir`. Its schema carries a version
(``PRAGMA user_version``) and :data:`MIGRATIONS` bring an older file up to date when it is
opened. WAL mode and a busy timeout let two games running at once both record; each game is
written in one transaction. Nothing here ever stops play: a damaged file is moved aside and
a new one started, an unusable folder gives a store that records nothing; either way
:attr:`HistoryStore.notice` holds the one line to show the player.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

from forage.engine import Game
from forage.history.achievements import Achievement, newly_unlocked, puzzle_unlocked
from forage.history.games import (
    PlayInfo,
    StoredGame,
    check_player,
    from_row,
    game_row,
    login_name,
    now_utc,
    stored_player,
    timestamp,
)
from forage.history.puzzles import (
    START_RATING,
    PuzzleStats,
    PuzzleTry,
    puzzle_stats,
    rating_after,
    stored_try,
)
from forage.history.stats import Statistics, statistics
from forage.paths import HISTORY_FILE, data_dir

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
    # of how many). SQLite cannot change a CHECK constraint, so the table is built again,
    # every row and id kept (in the one transaction of the migration).
    (
        """CREATE TABLE games_v5 (
            id INTEGER PRIMARY KEY,
            player TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
            mode TEXT NOT NULL CHECK (mode IN ('standard', 'recipe', 'room')),
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


class TooNew(Exception):
    """The file was written by a newer forage, whose schema this one does not know."""


class HistoryUnreadable(Exception):
    """The history file cannot be read (``forage stats``, ``history``); the message names it."""


ROW_KINDS: Final = {"game": "games", "puzzle try": "puzzle tries", "achievement": "achievements"}
"""The kinds of stored row that are checked as they are read, and their plurals."""


def _stored(
    conn: sqlite3.Connection,
    sql: str,
    args: Sequence[Any] = (),
    unreadable: set[int] | None = None,
) -> list[StoredGame]:
    """The stored games a query over ``games`` (all columns) selects, in its order; a row
    that cannot be read (edited by hand: a value the rules cannot give) is left out, its
    id added to ``unreadable``."""
    cursor = conn.execute(sql, args)
    names = [d[0] for d in cursor.description]
    games = []
    for values in cursor:
        row = dict(zip(names, values, strict=True))
        try:
            games.append(from_row(row))
        except (ValueError, TypeError, KeyError):
            if unreadable is not None:
                found = row.get("id")
                unreadable.add(found if isinstance(found, int) else -1)
    return games


@dataclass(frozen=True)
class PuzzleRecorded:
    """A puzzle try just stored: the player's puzzle figures after it, and the
    achievements it unlocked."""

    figures: PuzzleStats
    achievements: list[Achievement] = field(default_factory=list)


@dataclass(frozen=True)
class Recorded:
    """A game just stored, and the achievements it unlocked."""

    game: StoredGame
    achievements: list[Achievement] = field(default_factory=list)


@dataclass(frozen=True)
class ScoreLine:
    """One player's line on a deal's scoreboard."""

    player: str
    best: int
    won: bool
    games: int
    game_id: int


@dataclass(frozen=True)
class Scoreboard:
    """A deal's scoreboard: each player's line, best first, and the deal's par when known."""

    deal: str
    lines: tuple[ScoreLine, ...] = ()
    par: int | None = None


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, taken at once so that two writers queue rather than fail."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, migrations: Sequence[Sequence[str]] = MIGRATIONS) -> None:
    """Bring the schema up to the last of ``migrations`` (by default the history's, up to
    :data:`SCHEMA_VERSION`) in one transaction that also sets ``user_version``; raises
    TooNew for a newer file."""
    latest = len(migrations)
    if _user_version(conn) == latest:
        return
    with transaction(conn):
        version = _user_version(conn)  # another process may have migrated meanwhile
        if version > latest:
            raise TooNew(f"written by a newer forage (schema {version})")
        for steps in migrations[version:]:
            for statement in steps:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {latest}")


def connect(path: Path, migrations: Sequence[Sequence[str]] = MIGRATIONS) -> sqlite3.Connection:
    """Open an SQLite file (by default the history's) in WAL mode, checked and migrated;
    raises sqlite3.DatabaseError if damaged, TooNew if a newer forage wrote it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(
        path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        if _user_version(conn) > len(migrations):
            raise TooNew(f"written by a newer forage (schema {_user_version(conn)})")
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"damaged ({check})")
        conn.execute("PRAGMA journal_mode = WAL")
        migrate(conn, migrations)
    except BaseException:
        conn.close()
        raise
    return conn


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


class HistoryStore:
    """The history file, open; every method is safe to call when the store is unusable."""

    def __init__(
        self,
        conn: sqlite3.Connection | None,
        path: Path,
        notice: str | None = None,
        strict: bool = False,
    ) -> None:
        """A store on an open connection, or (conn None) one that records nothing; a
        ``strict`` store raises HistoryUnreadable where another gives its default."""
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
    def open(cls, folder: Path | None = None) -> HistoryStore:
        """Open (or create) the history in ``folder`` (the data folder by default); never raises."""
        path = (folder if folder is not None else data_dir()) / DB_NAME

        def off(why: str) -> HistoryStore:
            return cls(None, path, f"{why}: going on without history")

        try:
            return cls(connect(path), path)
        except TooNew as exc:
            return off(f"the history file {path} was {exc}")
        except sqlite3.OperationalError as exc:  # cannot open or write: leave the file be
            return off(f"cannot use {path} ({_reason(exc)})")
        except sqlite3.DatabaseError:  # not a database, or damaged
            try:
                moved = move_aside(path)
            except OSError as exc:
                return off(
                    f"the history file {path} is damaged and cannot be moved aside ({_reason(exc)})"
                )
        except (OSError, sqlite3.Error) as exc:
            return off(f"cannot use {path} ({_reason(exc)})")
        notice = f"the history file was damaged: moved it to {moved.name} and started a new one"
        try:
            return cls(connect(path), path, notice)
        except (OSError, sqlite3.Error, TooNew) as exc:
            return off(f"cannot use {path} ({_reason(exc)})")

    @classmethod
    def read(cls, folder: Path | None = None) -> HistoryStore:
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
            version = _user_version(conn)
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

    def __enter__(self) -> HistoryStore:
        """The store itself, closed when the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the file."""
        self.close()

    def _safely(self, default: T, work: Callable[[sqlite3.Connection], T]) -> T:
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

    # -- writing --------------------------------------------------------------------------------

    def record(self, game: Game, info: PlayInfo, once: bool = False) -> Recorded | None:
        """Store a game (finished, or abandoned if not over) in one transaction.

        Returns the stored game and, for a finished game, the achievements it unlocked; None
        when nothing was stored (history off, an error, or a game without a move). With
        ``once``, a game stored already (the same player, deal, start, status and moves) is
        given back instead of being stored again.
        """
        if not game.moves:
            return None
        try:
            row = game_row(game, info)
        except ValueError as exc:  # a player name that cannot be stored
            self.notice = f"the game was not recorded ({exc})"
            return None

        def work(conn: sqlite3.Connection) -> Recorded:
            with transaction(conn):
                same = (
                    once
                    and conn.execute(
                        "SELECT id FROM games WHERE player = ? AND deal = ? AND started = ? "
                        "AND status = ? AND record = ?",
                        [row[k] for k in ("player", "deal", "started", "status", "record")],
                    ).fetchone()
                )
                if same:  # stored already, by a forage stopped before it could say so
                    return Recorded(_game(conn, int(same[0])), [])
                columns = ", ".join(row)
                marks = ", ".join(f":{name}" for name in row)
                cursor = conn.execute(f"INSERT INTO games ({columns}) VALUES ({marks})", row)
                game_id = int(cursor.lastrowid or 0)
                _set(conn, "last_player", row["player"])
                stored = _game(conn, game_id)
                unlocked = _unlock(conn, stored) if stored.finished else []
            return Recorded(stored, unlocked)

        return self._safely(None, work)

    def set_par(self, game_id: int, par: int, proven: bool) -> list[Achievement]:
        """Note the par of a stored game's deal; returns the achievements this unlocks."""

        def work(conn: sqlite3.Connection) -> list[Achievement]:
            with transaction(conn):
                conn.execute(
                    "UPDATE games SET par = ?, par_proven = ? WHERE id = ?",
                    (par, int(proven), game_id),
                )
                stored = _game(conn, game_id)
                return _unlock(conn, stored) if stored.finished else []

        return self._safely([], work)

    def remember(self, kind: str, key: str, value: str) -> None:
        """Keep an analysis (``kind``, e.g. ``review``) under a key that names everything
        that decides it (the deal, the moves, the settings and the analysis's version)."""

        def work(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                conn.execute(
                    "INSERT OR REPLACE INTO analyses (kind, key, value, stored) "
                    "VALUES (?, ?, ?, ?)",
                    (kind, key, value, timestamp(now_utc())),
                )

        self._safely(None, work)

    def remembered(self, kind: str, key: str) -> str | None:
        """An analysis kept under this key, or None."""
        sql = "SELECT value FROM analyses WHERE kind = ? AND key = ?"

        def work(conn: sqlite3.Connection) -> str | None:
            found = conn.execute(sql, (kind, key)).fetchone()
            return found[0] if found is not None and isinstance(found[0], str) else None

        return self._safely(None, work)

    def set_last_player(self, name: str) -> None:
        """Remember the player's name as the default for next time."""
        player = check_player(name)

        def work(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                _set(conn, "last_player", player)

        self._safely(None, work)

    # -- reading --------------------------------------------------------------------------------

    def last_player(self) -> str | None:
        """The name last played under, if any (and if it is a name the store accepts)."""

        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT value FROM settings WHERE key = 'last_player'").fetchone()
            try:
                return None if row is None else stored_player(row[0])
            except ValueError:  # edited by hand: not a name the store accepts
                return None

        return self._safely(None, work)

    def default_player(self) -> str:
        """The last name used, else the login name."""
        return self.last_player() or login_name()

    def games(
        self, player: str | None = None, limit: int | None = None, finished_only: bool = False
    ) -> list[StoredGame]:
        """Stored games, newest first: one player's or everyone's, finished or all."""
        where, args = _where(player, finished_only)
        sql = f"SELECT * FROM games {where} ORDER BY ended DESC, id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return self._safely([], lambda conn: _stored(conn, sql, args, self.unreadable["game"]))

    def game(self, game_id: int) -> StoredGame | None:
        """The stored game with this id, or None if there is none (or it cannot be read)."""
        sql = "SELECT * FROM games WHERE id = ?"

        def work(conn: sqlite3.Connection) -> StoredGame | None:
            found = _stored(conn, sql, (game_id,), self.unreadable["game"])
            return found[0] if found else None

        return self._safely(None, work)

    def proven_par(self, deal: str) -> int | None:
        """The par proven for a deal code by an earlier game's end screen, if any."""
        sql = "SELECT * FROM games WHERE deal = ? AND par_proven = 1"

        def work(conn: sqlite3.Connection) -> int | None:
            return _best_par(_stored(conn, sql, (deal,), self.unreadable["game"]))

        return self._safely(None, work)

    def finished(self, player: str) -> list[StoredGame]:
        """A player's finished games, oldest first (what statistics are made of)."""
        return self._safely([], lambda conn: _finished(conn, player, None, self.unreadable["game"]))

    def abandoned_count(self, player: str) -> int:
        """How many games the player abandoned (of those that can be read)."""
        sql = "SELECT * FROM games WHERE player = ? AND status = 'abandoned'"
        return self._safely(
            0, lambda conn: len(_stored(conn, sql, (player,), self.unreadable["game"]))
        )

    def statistics(self, player: str, today: date | None = None) -> Statistics:
        """A player's statistics (finished games only; abandoned ones are counted apart),
        their puzzle streak counted to ``today`` (UTC today by default)."""
        puzzles = puzzle_stats(self.puzzle_tries(player), today or datetime.now(UTC).date())
        return statistics(
            player, self.finished(player), self.abandoned_count(player), puzzles=puzzles
        )

    def puzzle_tries(self, player: str) -> list[PuzzleTry]:
        """A player's first tries at puzzles, oldest first (none in a file older than the
        puzzles, read without migrating)."""
        return self._safely(
            [], lambda conn: _puzzle_tries(conn, player, self.unreadable["puzzle try"])
        )

    def record_puzzle(
        self, player: str, puzzle: int, puzzle_rating: int, day: date, solved: bool, tried: date
    ) -> PuzzleRecorded | None:
        """Store a player's first try at a puzzle and return the figures after it and the
        achievements it unlocked; None if the puzzle was tried before (or nothing stored)."""
        try:
            check_player(player)
        except ValueError as exc:
            self.notice = f"the puzzle was not recorded ({exc})"
            return None

        def work(conn: sqlite3.Connection) -> PuzzleRecorded | None:
            with transaction(conn):
                known = conn.execute(
                    "SELECT 1 FROM puzzle_tries WHERE player = ? AND puzzle = ?", (player, puzzle)
                ).fetchone()
                if known:
                    return None
                before = _puzzle_tries(conn, player, self.unreadable["puzzle try"])
                rating = before[-1].rating if before else START_RATING
                conn.execute(
                    "INSERT INTO puzzle_tries (player, puzzle, day, tried, solved, rating) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        player,
                        puzzle,
                        day.isoformat(),
                        tried.isoformat(),
                        int(solved),
                        rating_after(rating, puzzle_rating, solved),
                    ),
                )
                _set(conn, "last_player", player)
                figures = puzzle_stats(_puzzle_tries(conn, player), tried)
                already = set(_unlocked(conn, player))
                found = puzzle_unlocked(figures, already)
                for achievement in found:
                    conn.execute(
                        "INSERT INTO achievements (player, id, game, unlocked) VALUES (?, ?, 0, ?)",
                        (player, achievement.id, tried.isoformat()),
                    )
            return PuzzleRecorded(figures, found)

        return self._safely(None, work)

    def unlocked(self, player: str) -> dict[str, str]:
        """The achievements a player has unlocked: id to the date (YYYY-MM-DD) of unlocking."""
        return self._safely(
            {}, lambda conn: _unlocked(conn, player, self.unreadable["achievement"])
        )

    def scoreboard(self, deal: str, first_only: bool = False) -> Scoreboard:
        """Every player's best finished game on a deal code, best first, with the deal's par
        (the best par noted on any game of the deal).

        With ``first_only`` each player's first finished game counts instead of the best
        (as for the daily deal).
        """
        return self._safely(
            Scoreboard(deal),
            lambda conn: _scoreboard(conn, deal, first_only, self.unreadable["game"]),
        )

    def daily_result(self, player: str, day: date, recipes: bool = False) -> StoredGame | None:
        """The player's first finished attempt at a day's deal: the one that counts."""
        mode = "recipe" if recipes else "standard"
        sql = (
            "SELECT * FROM games WHERE player = ? AND daily = ? AND mode = ? "
            "AND status = 'finished' ORDER BY ended, id LIMIT 1"
        )

        def work(conn: sqlite3.Connection) -> StoredGame | None:
            found = _stored(conn, sql, (player, day.isoformat(), mode), self.unreadable["game"])
            return found[0] if found else None

        return self._safely(None, work)


def _puzzle_tries(
    conn: sqlite3.Connection, player: str, unreadable: set[int] | None = None
) -> list[PuzzleTry]:
    """A player's puzzle tries, oldest first; none where the file has no such table. A try
    that cannot be read (a value no try can give) is left out, its rowid added to
    ``unreadable``."""
    known = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'puzzle_tries'"
    ).fetchone()
    if not known:
        return []
    rows = conn.execute(
        "SELECT rowid, puzzle, day, tried, solved, rating FROM puzzle_tries WHERE player = ? "
        "ORDER BY rowid",
        (player,),
    )
    tries: list[PuzzleTry] = []
    for rowid, puzzle, day, tried, solved, rating in rows:
        before = tries[-1].rating if tries else START_RATING
        try:
            tries.append(stored_try(puzzle, day, tried, solved, rating, before))
        except ValueError:
            if unreadable is not None:
                unreadable.add(rowid)
    return tries


def _unlocked(
    conn: sqlite3.Connection, player: str, unreadable: set[int] | None = None
) -> dict[str, str]:
    """A player's achievements: id to the date (YYYY-MM-DD) of unlocking. A row that
    cannot be read (an id not text, a date that is none) is left out, its rowid added to
    ``unreadable``."""
    found: dict[str, str] = {}
    sql = "SELECT rowid, id, unlocked FROM achievements WHERE player = ?"
    for rowid, name, when in conn.execute(sql, (player,)):
        try:
            if not isinstance(name, str) or not isinstance(when, str):
                raise ValueError("not text")
            found[name] = date.fromisoformat(when[:10]).isoformat()
        except ValueError:
            if unreadable is not None:
                unreadable.add(rowid)
    return found


def _where(player: str | None, finished_only: bool) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    if player is not None:
        clauses.append("player = ?")
        args.append(player)
    if finished_only:
        clauses.append("status = 'finished'")
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), args


def _set(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO settings (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def _game(conn: sqlite3.Connection, game_id: int) -> StoredGame:
    found = _stored(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
    if not found:
        raise sqlite3.DataError(f"no game {game_id}")
    return found[0]


def _finished(
    conn: sqlite3.Connection,
    player: str,
    upto: StoredGame | None = None,
    unreadable: set[int] | None = None,
) -> list[StoredGame]:
    """A player's finished games, oldest first; with ``upto``, only those up to that game."""
    sql = "SELECT * FROM games WHERE player = ? AND status = 'finished'"
    args: list[Any] = [player]
    if upto is not None:
        sql += " AND (ended, id) <= (?, ?)"
        args += [upto.ended, upto.id]
    return _stored(conn, sql + " ORDER BY ended, id", args, unreadable)


def _unlock(conn: sqlite3.Connection, game: StoredGame) -> list[Achievement]:
    """Check the achievements after a game and store those newly unlocked (in a transaction)."""
    upto = _finished(conn, game.player, game)
    already = set(_unlocked(conn, game.player))
    found = newly_unlocked(game, upto, already)
    for achievement in found:
        conn.execute(
            "INSERT INTO achievements (player, id, game, unlocked) VALUES (?, ?, ?, ?)",
            (game.player, achievement.id, game.id, game.ended),
        )
    return found


def _best_par(games: Sequence[StoredGame]) -> int | None:
    """The best par noted on any of these games, if one has a par."""
    return max((g.par for g in games if g.par is not None), default=None)


def _scoreboard(
    conn: sqlite3.Connection, deal: str, first_only: bool, unreadable: set[int] | None = None
) -> Scoreboard:
    sql = "SELECT * FROM games WHERE deal = ? ORDER BY ended, id"
    games = _stored(conn, sql, (deal,), unreadable)
    lines: dict[str, ScoreLine] = {}
    for game in (g for g in games if g.finished):
        seen = lines.get(game.player)
        if seen is None:
            lines[game.player] = ScoreLine(game.player, game.final, bool(game.won), 1, game.id)
        elif not first_only and game.final > seen.best:
            lines[game.player] = ScoreLine(
                game.player, game.final, bool(game.won), seen.games + 1, game.id
            )
        else:
            lines[game.player] = replace(seen, games=seen.games + 1)
    ranked = sorted(lines.values(), key=lambda line: (-line.best, line.player))
    return Scoreboard(deal, tuple(ranked), _best_par(games))
