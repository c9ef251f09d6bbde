"""The analyses kept in the history file (a game's review, a deal's par): the AI's memory
(:class:`forage.ai.memory.Memory`), in the ``analyses`` table, on the history's connection."""

from __future__ import annotations

import sqlite3

from forage.history.database import HistoryDatabase
from forage.history.games import now_utc, timestamp
from forage.sqlite import transaction


class AnalysisMemory:
    """The analyses kept in an open history file; safe to use when the file is unusable."""

    def __init__(self, database: HistoryDatabase) -> None:
        """The analyses of this history file."""
        self.database = database

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

        self.database.safely(None, work)

    def remembered(self, kind: str, key: str) -> str | None:
        """An analysis kept under this key, or None."""
        sql = "SELECT value FROM analyses WHERE kind = ? AND key = ?"

        def work(conn: sqlite3.Connection) -> str | None:
            found = conn.execute(sql, (kind, key)).fetchone()
            return found[0] if found is not None and isinstance(found[0], str) else None

        return self.database.safely(None, work)
