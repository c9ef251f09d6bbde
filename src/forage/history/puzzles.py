"""A player's puzzle tries: the solved count, the daily streak and a puzzle rating.

Only the first try at each puzzle counts. The rating is an Elo rating against the puzzles'
own ratings: it starts at :data:`START_RATING` and each try moves it by :data:`K` times
the result (1 solved, 0 not) less the result expected from the two ratings. The streak
counts days running on which the day's puzzle was solved on that day.
"""

from __future__ import annotations

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


def run_to(days: set[date], last: date) -> int:
    """How many days running, ending on ``last``, are in ``days``."""
    run = 0
    while last in days:
        run += 1
        last -= timedelta(days=1)
    return run


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
        streak_best=max(run_to(days, day) for day in days) if days else 0,
    )
