"""The ``puzzle_tries`` table of the history file: a player's first try at each puzzle, read
back with every value checked (:func:`forage.history.puzzles.stored_try`), and a try added
in the caller's transaction."""

from __future__ import annotations

import sqlite3
from datetime import date

from forage.history.puzzles import START_RATING, PuzzleTry, rating_after, stored_try


def tries_of(
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


def add_try(
    conn: sqlite3.Connection,
    player: str,
    puzzle: int,
    puzzle_rating: int,
    day: date,
    solved: bool,
    tried: date,
    unreadable: set[int] | None = None,
) -> bool:
    """Add a player's first try at a puzzle, their rating moved from their last try's;
    False (nothing added) if they tried the puzzle before."""
    known = conn.execute(
        "SELECT 1 FROM puzzle_tries WHERE player = ? AND puzzle = ?", (player, puzzle)
    ).fetchone()
    if known:
        return False
    before = tries_of(conn, player, unreadable)
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
    return True
