"""An SQLite file of forage's, opened as every one is: WAL mode, a busy timeout, checked,
and migrated to the schema its user knows (``PRAGMA user_version``), in one transaction.

The history (:mod:`forage.history.database`) and the rooms' store
(:mod:`forage.net.database`) each give their own migrations and waits.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

Migrations = Sequence[Sequence[str]]
"""A schema, version by version: the statements that bring version n-1 to n."""


class TooNew(Exception):
    """The file was written by a newer forage, whose schema this one does not know."""


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


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version a file says it has."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, migrations: Migrations) -> None:
    """Bring the schema up to the last of ``migrations`` in one transaction that also sets
    ``user_version``; raises TooNew for a newer file."""
    latest = len(migrations)
    if user_version(conn) == latest:
        return
    with transaction(conn):
        version = user_version(conn)  # another process may have migrated meanwhile
        if version > latest:
            raise TooNew(f"written by a newer forage (schema {version})")
        for steps in migrations[version:]:
            for statement in steps:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {latest}")


def connect(path: Path, migrations: Migrations, busy_seconds: float) -> sqlite3.Connection:
    """Open an SQLite file in WAL mode, checked and migrated, its writes waiting up to
    ``busy_seconds`` for another's; raises sqlite3.DatabaseError if damaged, TooNew if a
    newer forage wrote it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(
        path, timeout=busy_seconds, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")
        if user_version(conn) > len(migrations):
            raise TooNew(f"written by a newer forage (schema {user_version(conn)})")
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"damaged ({check})")
        conn.execute("PRAGMA journal_mode = WAL")
        migrate(conn, migrations)
    except BaseException:
        conn.close()
        raise
    return conn
