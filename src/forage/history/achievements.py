"""Achievements: defined as data (data/achievements.json), checked by pure functions.

Each achievement names a ``check`` and its parameters. A check looks at one finished game
and the player's finished games up to and including it, oldest first, or (a puzzle's) at
the player's puzzle figures; it never looks at the screen. :func:`newly_unlocked` gives
what a game unlocks that was not unlocked before, :func:`puzzle_unlocked` what a puzzle
try does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Final

from pydantic import BaseModel, ConfigDict, model_validator

from forage.carddata import data_text
from forage.history.puzzles import PuzzleStats
from forage.history.stats import daily_run, recipes_beaten, streaks
from forage.i18n import _
from forage.record import load_game

if TYPE_CHECKING:
    from forage.history.games import StoredGame

FORMAT: Final = "forage-achievements/1"

GameCheck = Callable[["Achievement", "StoredGame", Sequence["StoredGame"]], bool]
"""Whether a game just stored, among the player's stored games, unlocks an achievement."""
PuzzleCheck = Callable[["Achievement", PuzzleStats], bool]
"""Whether the player's puzzle figures unlock an achievement."""


class Achievement(BaseModel):
    """One achievement: its id and name, what it asks, and the check that decides it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    description: str
    check: str
    value: int = 0
    max_help: int | None = None
    """For ``par``: the most hints and undos together that the game may have used."""

    @model_validator(mode="after")
    def _known_check(self) -> Achievement:
        if self.check not in CHECKS and self.check not in PUZZLE_CHECKS:
            known = ", ".join(sorted([*CHECKS, *PUZZLE_CHECKS]))
            raise ValueError(f"unknown check {self.check!r} (known: {known})")
        return self


def achievement_name(achievement: Achievement) -> str:
    """An achievement's name as a player reads it, in their language (``--json`` and the
    data keep the English)."""
    return _(achievement.name)


def achievement_description(achievement: Achievement) -> str:
    """What an achievement asks, in the player's language."""
    return _(achievement.description)


class AchievementFile(BaseModel):
    """The achievements data file."""

    model_config = ConfigDict(extra="forbid")

    format: str
    achievements: list[Achievement]

    @model_validator(mode="after")
    def _check(self) -> AchievementFile:
        if self.format != FORMAT:
            raise ValueError(f"unknown format {self.format!r} (expected {FORMAT!r})")
        ids = [a.id for a in self.achievements]
        if len(set(ids)) != len(ids):
            raise ValueError("an achievement id appears twice")
        return self


@lru_cache(maxsize=256)
def highest_die(record: str) -> int:
    """The highest die showing in the woodland at the end of a stored game's record (0 for a
    record that no longer reads)."""
    try:
        game, _ = load_game(record)
    except ValueError:
        return 0
    faces = (sq.die.value for sq in game.woodland.squares.values() if sq.die is not None)
    return max(faces, default=0)


def _die_at_least(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return highest_die(game.record) >= a.value


def _no_mice(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return game.all_placed and game.score.mice == 0


def _edwood_kept(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return game.all_placed and not game.score.edwood


def _score_at_least(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return game.final >= a.value


def _par(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    if game.par is None or game.final < game.par + a.value:
        return False
    return a.max_help is None or game.hints + game.undos <= a.max_help


def _wins(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return sum(1 for g in history if g.won) >= a.value


def _recipe_wins(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return sum(1 for g in history if g.won and g.is_challenge) >= a.value


def _recipes_beaten(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return len(recipes_beaten(history)) >= a.value


def _win_streak(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    current, _ = streaks([bool(g.won) for g in history])
    return current >= a.value


def _daily_streak(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return game.daily is not None and daily_run(history, game.daily) >= a.value


def _games(a: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    return len(history) >= a.value


CHECKS: Final[dict[str, GameCheck]] = {
    "die-at-least": _die_at_least,
    "no-mice": _no_mice,
    "edwood-kept": _edwood_kept,
    "score-at-least": _score_at_least,
    "par": _par,
    "wins": _wins,
    "recipe-wins": _recipe_wins,
    "recipes-beaten": _recipes_beaten,
    "win-streak": _win_streak,
    "daily-streak": _daily_streak,
    "games": _games,
}
"""What each ``check`` of the data file on a game means, by name."""


def _puzzle_streak(a: Achievement, figures: PuzzleStats) -> bool:
    return figures.streak_best >= a.value


def _puzzles_solved(a: Achievement, figures: PuzzleStats) -> bool:
    return figures.solved >= a.value


PUZZLE_CHECKS: Final[dict[str, PuzzleCheck]] = {
    "puzzle-streak": _puzzle_streak,
    "puzzles-solved": _puzzles_solved,
}
"""The checks on a player's puzzle figures, decided after each puzzle try."""


def parse_achievements(text: str) -> list[Achievement]:
    """Validate the achievements file's text; the achievements in order."""
    return AchievementFile.model_validate(json.loads(text)).achievements


@cache
def all_achievements() -> tuple[Achievement, ...]:
    """Every achievement of the game, in the data file's order."""
    return tuple(parse_achievements(data_text("achievements.json")))


def achieved(achievement: Achievement, game: StoredGame, history: Sequence[StoredGame]) -> bool:
    """Whether a finished game, with the player's finished games up to it, earns this (a
    puzzle's achievement is earned by puzzle tries, never by a game)."""
    check = CHECKS.get(achievement.check)
    return game.finished and check is not None and check(achievement, game, history)


def newly_unlocked(
    game: StoredGame,
    history: Sequence[StoredGame],
    already: set[str],
    achievements: Sequence[Achievement] | None = None,
) -> list[Achievement]:
    """The achievements a finished game unlocks that were not in ``already``."""
    pool = all_achievements() if achievements is None else achievements
    return [a for a in pool if a.id not in already and achieved(a, game, history)]


def puzzle_unlocked(
    figures: PuzzleStats, already: set[str], achievements: Sequence[Achievement] | None = None
) -> list[Achievement]:
    """The puzzle achievements a player's figures earn that were not in ``already``."""
    pool = all_achievements() if achievements is None else achievements
    return [
        a
        for a in pool
        if a.id not in already and a.check in PUZZLE_CHECKS and PUZZLE_CHECKS[a.check](a, figures)
    ]
