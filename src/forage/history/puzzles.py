"""A player's puzzle tries: the solved count, the daily streak and a puzzle rating.

Only the first try at each puzzle counts. The rating is an Elo rating against the puzzles'
own ratings: it starts at :data:`START_RATING` and each try moves it by :data:`K` times
the result (1 solved, 0 not) less the result expected from the two ratings. The streak
counts days running on which the day's puzzle was solved on that day.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final

START_RATING: Final = 1200
"""A player's puzzle rating before the first try."""
K: Final = 32
"""How far one try can move the rating."""


@dataclass(frozen=True)
class PuzzleTry:
    """A player's first try at a puzzle."""

    puzzle: int
    """The puzzle's id."""
    day: date
    """The date whose puzzle it is."""
    tried: date
    """The date (UTC) of the try."""
    solved: bool
    rating: int
    """The player's puzzle rating after the try."""


@dataclass(frozen=True)
class PuzzleStats:
    """A player's puzzle figures (``forage stats --json``'s ``puzzles``)."""

    tried: int = 0
    solved: int = 0
    rating: int = START_RATING
    streak_current: int = 0
    streak_best: int = 0


def expected(rating: int, puzzle_rating: int) -> float:
    """The result a player of ``rating`` is expected to get on a puzzle of ``puzzle_rating``."""
    return 1 / (1 + 10 ** ((puzzle_rating - rating) / 400))


def rating_after(rating: int, puzzle_rating: int, solved: bool) -> int:
    """The player's rating after a try."""
    return round(rating + K * ((1 if solved else 0) - expected(rating, puzzle_rating)))


def solved_days(tries: Sequence[PuzzleTry]) -> set[date]:
    """The days whose puzzle was solved on that day."""
    return {t.day for t in tries if t.solved and t.day == t.tried}


def _whole(name: str, value: object, low: int, high: int) -> int:
    """A stored whole number, checked to lie from ``low`` to ``high``; ValueError if not."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name}: not a whole number from {low} to {high} ({str(value)[:20]!r})")
    return value


def _day(name: str, value: object) -> date:
    """A stored date, YYYY-MM-DD; ValueError if it is not one."""
    if not isinstance(value, str):
        raise ValueError(f"{name}: not a date")
    return date.fromisoformat(value)


def stored_try(
    puzzle: object, day: object, tried: object, solved: object, rating: object, before: int
) -> PuzzleTry:
    """A try as stored, read back after a try that left the rating at ``before``: a puzzle
    id from 1, two dates, solved 0 or 1, and a rating at most :data:`K` from ``before``
    (one try moves it no further); ValueError naming the first value that is not."""
    return PuzzleTry(
        puzzle=_whole("puzzle", puzzle, 1, sys.maxsize),
        day=_day("day", day),
        tried=_day("tried", tried),
        solved=bool(_whole("solved", solved, 0, 1)),
        rating=_whole("rating", rating, before - K, before + K),
    )


def run_to(days: set[date], last: date) -> int:
    """How many days running, ending on ``last``, are in ``days``."""
    run = 0
    while last in days:
        run += 1
        if last == date.min:
            break
        last -= timedelta(days=1)
    return run


def longest_run(days: set[date]) -> int:
    """The most days running in ``days`` (each run counted once, from its last day)."""
    ends = (d for d in days if d == date.max or d + timedelta(days=1) not in days)
    return max((run_to(days, end) for end in ends), default=0)


def puzzle_stats(tries: Sequence[PuzzleTry], today: date) -> PuzzleStats:
    """A player's figures from their tries, oldest first; the current streak ends today
    (or yesterday, while today's puzzle is still to do)."""
    if not tries:
        return PuzzleStats()
    days = solved_days(tries)
    current = run_to(days, today) or run_to(days, today - timedelta(days=1))
    return PuzzleStats(
        tried=len(tries),
        solved=sum(1 for t in tries if t.solved),
        rating=tries[-1].rating,
        streak_current=current,
        streak_best=longest_run(days),
    )
