"""The history store: every game played, the achievements unlocked and the puzzles tried.

The file and its connection are :class:`~forage.history.database.HistoryDatabase`'s; the
store adds recording games and what is read from them (statistics, scoreboards, the daily
deal's result), and reaches the analyses kept in the same file (:attr:`HistoryStore.analyses`).
Nothing here ever raises: an error gives a default and :attr:`HistoryStore.notice` says why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from functools import cached_property
from typing import Any

from forage.engine import Game
from forage.history.achievements import Achievement, newly_unlocked, puzzle_unlocked
from forage.history.analyses import AnalysisMemory
from forage.history.database import HistoryDatabase, connect
from forage.history.games import (
    PlayInfo,
    StoredGame,
    from_row,
    game_row,
    stored_player,
)
from forage.history.puzzle_tries import add_try, tries_of
from forage.history.puzzles import PuzzleStats, PuzzleTry, puzzle_stats
from forage.history.stats import Statistics, statistics
from forage.players import check_player, login_name
from forage.sqlite import TooNew, transaction

__all__ = [
    "HistoryStore",
    "PuzzleRecorded",
    "Recorded",
    "ScoreLine",
    "Scoreboard",
    "TooNew",
    "connect",
    "transaction",
]
"""``TooNew``, ``connect`` and ``transaction`` are the database's, named here too for the
rooms' store (:mod:`forage.net.store`), which opens its own file with them."""


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


class HistoryStore(HistoryDatabase):
    """The history file, open; every method is safe to call when the store is unusable."""

    @cached_property
    def analyses(self) -> AnalysisMemory:
        """The analyses kept in the file (reviews, pars): the AI's memory."""
        return AnalysisMemory(self)

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

        return self.safely(None, work)

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

        return self.safely([], work)

    def set_last_player(self, name: str) -> None:
        """Remember the player's name as the default for next time."""
        player = check_player(name)

        def work(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                _set(conn, "last_player", player)

        self.safely(None, work)

    # -- reading --------------------------------------------------------------------------------

    def last_player(self) -> str | None:
        """The name last played under, if any (and if it is a name the store accepts)."""

        def work(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT value FROM settings WHERE key = 'last_player'").fetchone()
            try:
                return None if row is None else stored_player(row[0])
            except ValueError:  # edited by hand: not a name the store accepts
                return None

        return self.safely(None, work)

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
        return self.safely([], lambda conn: _stored(conn, sql, args, self.unreadable["game"]))

    def game(self, game_id: int) -> StoredGame | None:
        """The stored game with this id, or None if there is none (or it cannot be read)."""
        sql = "SELECT * FROM games WHERE id = ?"

        def work(conn: sqlite3.Connection) -> StoredGame | None:
            found = _stored(conn, sql, (game_id,), self.unreadable["game"])
            return found[0] if found else None

        return self.safely(None, work)

    def proven_par(self, deal: str) -> int | None:
        """The par proven for a deal code by an earlier game's end screen, if any."""
        sql = "SELECT * FROM games WHERE deal = ? AND par_proven = 1"

        def work(conn: sqlite3.Connection) -> int | None:
            return _best_par(_stored(conn, sql, (deal,), self.unreadable["game"]))

        return self.safely(None, work)

    def finished(self, player: str) -> list[StoredGame]:
        """A player's finished games, oldest first (what statistics are made of)."""
        return self.safely([], lambda conn: _finished(conn, player, None, self.unreadable["game"]))

    def abandoned_count(self, player: str) -> int:
        """How many games the player abandoned (of those that can be read)."""
        sql = "SELECT * FROM games WHERE player = ? AND status = 'abandoned'"
        return self.safely(
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
        return self.safely([], lambda conn: tries_of(conn, player, self.unreadable["puzzle try"]))

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
                unreadable = self.unreadable["puzzle try"]
                if not add_try(conn, player, puzzle, puzzle_rating, day, solved, tried, unreadable):
                    return None
                _set(conn, "last_player", player)
                figures = puzzle_stats(tries_of(conn, player), tried)
                already = set(_unlocked(conn, player))
                found = puzzle_unlocked(figures, already)
                for achievement in found:
                    conn.execute(
                        "INSERT INTO achievements (player, id, game, unlocked) VALUES (?, ?, 0, ?)",
                        (player, achievement.id, tried.isoformat()),
                    )
            return PuzzleRecorded(figures, found)

        return self.safely(None, work)

    def unlocked(self, player: str) -> dict[str, str]:
        """The achievements a player has unlocked: id to the date (YYYY-MM-DD) of unlocking."""
        return self.safely({}, lambda conn: _unlocked(conn, player, self.unreadable["achievement"]))

    def scoreboard(self, deal: str, first_only: bool = False) -> Scoreboard:
        """Every player's best finished game on a deal code, best first, with the deal's par
        (the best par noted on any game of the deal).

        With ``first_only`` each player's first finished game counts instead of the best
        (as for the daily deal).
        """
        return self.safely(
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

        return self.safely(None, work)


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
