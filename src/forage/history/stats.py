"""Statistics of a player's finished games: pure functions of the stored history.

Only finished games count; an abandoned game appears in the history but in no figure here.
A game played in a room counts as any game (it is played by the same rules, without hints
or undos), a recipe challenge's among the recipe challenges; the rooms have figures of
their own too: how many were played to their end, and in how many the player came first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from statistics import fmean
from typing import TYPE_CHECKING, Final

from forage.engine.scoring import SCORE_LIMIT
from forage.history.puzzles import PuzzleStats, run_to

if TYPE_CHECKING:
    from forage.history.games import StoredGame

BUCKET: Final = 10
"""The width of a bar of the score distribution, in points."""
RECENT: Final = 20
"""How many of the latest scores the trend shows."""
MOST_BUCKETS: Final = 2 * SCORE_LIMIT // BUCKET + 1
"""The most buckets the distribution lists, empty ones included: enough for every score
the rules can give."""


def streaks(wins: Sequence[bool]) -> tuple[int, int]:
    """(current, best) runs of wins in a sequence of results, oldest first."""
    best = run = 0
    for won in wins:
        run = run + 1 if won else 0
        best = max(best, run)
    return run, best


def recipes_beaten(games: Sequence[StoredGame]) -> list[int]:
    """The recipes beaten: both recipes of every recipe challenge won, in number order."""
    beaten: set[int] = set()
    for game in games:
        if game.finished and game.is_challenge and game.won:
            beaten.update(game.recipes)
    return sorted(beaten)


def daily_run(games: Sequence[StoredGame], day: str) -> int:
    """How many days running, ending on ``day`` (YYYY-MM-DD), have a finished daily deal."""
    played = {date.fromisoformat(g.daily) for g in games if g.finished and g.daily is not None}
    return run_to(played, date.fromisoformat(day))


def distribution(scores: Sequence[int], width: int = BUCKET) -> list[tuple[int, int]]:
    """(bucket start, count) for each ``width``-point bucket, lowest score to highest: every
    bucket between, empty or not, where there are at most :data:`MOST_BUCKETS`, else only
    those that hold a score."""
    counts = Counter(score // width * width for score in scores)
    if not counts:
        return []
    low, high = min(counts), max(counts)
    if (high - low) // width < MOST_BUCKETS:
        return [(start, counts[start]) for start in range(low, high + 1, width)]
    return sorted(counts.items())


@dataclass(frozen=True)
class Statistics:
    """One player's figures (CONTRACT.md, ``forage stats --json``)."""

    player: str
    games: int
    wins: int
    win_rate: float | None
    best: int | None
    mean: float | None
    streak_current: int
    streak_best: int
    recipe_played: int
    recipe_won: int
    recipes_beaten: list[int]
    abandoned: int
    distribution: list[tuple[int, int]]
    recent: list[int]
    puzzles: PuzzleStats = field(default_factory=PuzzleStats)
    """The player's puzzle tries: solved, rating, streak."""
    rooms_played: int = 0
    """Finished games played in a room."""
    rooms_first: int = 0
    """Of those, the rooms the player came first in (a shared first place counts)."""


def statistics(
    player: str,
    games: Sequence[StoredGame],
    abandoned: int = 0,
    puzzles: PuzzleStats | None = None,
) -> Statistics:
    """The statistics of a player's games, oldest first (abandoned ones are left out), and
    their puzzle figures."""
    done = [g for g in games if g.finished]
    scores = [g.final for g in done]
    wins = sum(1 for g in done if g.won)
    current, best_run = streaks([bool(g.won) for g in done])
    recipe = [g for g in done if g.is_challenge]
    rooms = [g for g in done if g.mode == "room"]
    return Statistics(
        player=player,
        games=len(done),
        wins=wins,
        win_rate=round(wins / len(done), 4) if done else None,
        best=max(scores) if scores else None,
        mean=round(fmean(scores), 2) if scores else None,
        streak_current=current,
        streak_best=best_run,
        recipe_played=len(recipe),
        recipe_won=sum(1 for g in recipe if g.won),
        recipes_beaten=recipes_beaten(done),
        abandoned=abandoned,
        distribution=distribution(scores),
        recent=scores[-RECENT:],
        puzzles=puzzles or PuzzleStats(),
        rooms_played=len(rooms),
        rooms_first=sum(1 for g in rooms if g.placing == 1),
    )
