"""PostgreSQL under the rooms' store (``forage serve --db postgresql://...``), for several
servers sharing one database.

The driver is psycopg 3 (the ``postgresql`` extra): a connection for each of the store's
threads, in autocommit mode with explicit transactions, runs the store's statements
(:data:`~forage.net.store.SQL` written ``%(name)s``), and an asyncio connection LISTENs for
the other servers' changes (:meth:`PostgresDatabase.notifications`). The schema's version is
kept in the table ``schema_version``; :data:`~forage.net.store.MIGRATIONS` run in one
transaction under an advisory lock, so servers starting together migrate once. A role that
owns nothing but its schema (or, once the tables exist, has only SELECT, INSERT, UPDATE and
DELETE on them) is enough: see docs/serve.md.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final

try:
    import psycopg
    from psycopg import errors
except ImportError:  # pragma: no cover - the extra is not installed
    psycopg = None  # type: ignore[assignment]

from forage.net.database import (
    CHANNEL,
    LISTENING,
    MIGRATIONS,
    SQL,
    Connections,
    Database,
    Ran,
    StoreError,
    StoreFault,
    faults,
    first_line,
    pyformat,
)

PG_SQL: Final = {name: pyformat(statement) for name, statement in SQL.items()}
"""The store's statements as psycopg takes them."""
READS: Final = frozenset(name for name, text in SQL.items() if text.startswith("SELECT"))
"""The statements whose rows are read."""
MIGRATION_LOCK: Final = 0x666F72616765
"""The advisory lock held while the schema is migrated (``forage`` in ASCII)."""
CONNECT_SECONDS: Final = 5
"""How long a connection may take to open (the database is then down: tried again later)."""
WRITERS: Final = 4
"""How many of the store's threads act on rooms at once, each on its own connection."""


def shown(url: str) -> str:
    """A database address as messages name it: its password hidden."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


class PostgresDatabase(Database):
    """A PostgreSQL database that several servers share."""

    shared = True
    writers = WRITERS

    def __init__(self, conn: psycopg.Connection[Any], url: str) -> None:
        """A database on an open, migrated connection (the calling thread's)."""
        super().__init__()
        self.url = url
        self.where = shown(url)
        self.connections = Connections(self._connect)
        self.connections.adopt(conn)

    @classmethod
    def open(cls, url: str) -> PostgresDatabase:
        """Connect and migrate; raises StoreError in one line naming the database."""
        if psycopg is None:
            raise StoreError(
                f"{shown(url)}: PostgreSQL needs psycopg: install forage-solitaire[postgresql]"
            )
        try:
            conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS)
        except (psycopg.Error, ValueError) as exc:
            raise StoreError(f"{shown(url)}: cannot connect ({first_line(exc)})") from None
        try:
            migrate(conn)
        except psycopg.Error as exc:
            conn.close()
            raise StoreError(f"{shown(url)}: cannot be used ({first_line(exc)})") from None
        except StoreError as exc:
            conn.close()
            raise StoreError(f"{shown(url)}: {exc}") from None
        return cls(conn, url)

    def _connect(self) -> psycopg.Connection[Any]:
        """A new connection (for a thread that has none, or whose connection failed)."""
        with self._faults():
            return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_SECONDS)

    @property
    def conn(self) -> psycopg.Connection[Any]:
        """The calling thread's connection, opened again if the database closed it (it
        restarted, say) while no transaction of it was open."""
        conn: psycopg.Connection[Any] = self.connections.mine()
        if conn.closed and not self._depth:
            conn = self.connections.replace()
        return conn

    def _faults(self) -> AbstractContextManager[None]:
        """psycopg's errors as the store's (in a pipeline, an error comes when its answers
        are read, at the latest at its end)."""
        return faults(self.where, errors.UniqueViolation, psycopg.Error)

    def run(self, statement: str, /, **params: Any) -> Ran:
        """Run one of the store's statements; raises Conflict or StoreFault."""
        with self._faults():
            cursor = self.conn.execute(PG_SQL[statement], params)
            if statement in READS:  # in a pipeline, this waits for the answer
                return Ran(cursor.fetchall(), 0)
            return Ran([], cursor.rowcount)

    @contextmanager
    def batched(self) -> Iterator[None]:
        """psycopg's pipeline mode: statements go out without waiting for each answer."""
        with self._faults(), self.conn.pipeline():
            yield

    def _begin(self) -> None:
        with self._faults():
            self.conn.execute("BEGIN")

    def _commit(self) -> None:
        with self._faults():
            self.conn.execute("COMMIT")

    def _rollback(self) -> None:
        conn = self.connections.mine()
        if not conn.closed:
            with contextlib.suppress(psycopg.Error):
                conn.execute("ROLLBACK")

    def close(self) -> None:
        """Close every thread's connection."""
        self.connections.close()

    async def notifications(self) -> AsyncIterator[str]:
        """:data:`LISTENING` once listening, then the payloads of the servers'
        notifications of room changes, as they come; raises StoreFault when the connection
        fails."""
        try:
            listener = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_SECONDS
            )
        except psycopg.Error as exc:
            raise StoreFault(f"{self.where}: {first_line(exc)}") from None
        try:
            await listener.execute(f"LISTEN {CHANNEL}")
            yield LISTENING
            async for notice in listener.notifies():
                yield notice.payload
        except psycopg.Error as exc:
            raise StoreFault(f"{self.where}: {first_line(exc)}") from None
        finally:
            await listener.close()


def migrate(conn: psycopg.Connection[Any]) -> None:
    """Bring the schema up to date in one transaction, under an advisory lock so that
    servers starting together migrate once; raises StoreError for a newer schema."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        found = conn.execute("SELECT to_regclass('schema_version')").fetchone()
        if found is None or found[0] is None:
            conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        row = conn.execute("SELECT version FROM schema_version").fetchone()
        version = 0 if row is None else int(row[0])
        if version > len(MIGRATIONS):
            raise StoreError(f"written by a newer forage (schema {version})")
        if version == len(MIGRATIONS):
            return
        for steps in MIGRATIONS[version:]:
            for statement in steps:
                conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = %s", (len(MIGRATIONS),))
