"""Puzzles: positions near a game's end with one best placement, and the puzzle of each day.

A puzzle is a position from a real game, two placements from the end, the deal's draw
order known, where exactly one first placement (card, rotation and spot) reaches the best
final score; ``best`` and ``second`` were proven by exhaustive search when the puzzles were
made (``scripts/make_puzzles.py``, docs/puzzles.md). The shipped puzzles are
``data/puzzles.json``; the puzzle of a date is the same for everyone.
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from forage.carddata import data_text
from forage.engine import Game, Outcome, Placement
from forage.engine.deal import shuffled
from forage.record import GameRecord, MoveIn, build_game

FORMAT: Final = "forage-puzzles/1"
"""The format tag of the puzzle file."""
FILE: Final = "puzzles.json"
"""The puzzle file's name in data/."""
EPOCH: Final = date(2026, 1, 1)
"""The first day of the daily order; every other date counts from it."""
ORDER_SEED: Final = 20260101
"""The seed of the fixed shuffle that orders the puzzles into days."""


class Puzzle(BaseModel):
    """A position, the placements left, the proven best line, and the two best scores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int = Field(ge=1)
    record: GameRecord
    """The game so far: the deal in draw order and the placements made (CONTRACT)."""
    left: int = Field(ge=2, le=3)
    """The placements still to make."""
    solution: list[MoveIn]
    """A line of placements reaching ``best``; its first is the only one that can."""
    best: int
    """The highest final score any line from the position reaches."""
    second: int
    """The highest final score of a line whose first placement is another."""
    rating: int = Field(ge=0)
    """How hard the puzzle is (its difficulty, as the screen calls it), on the scale of
    the player's puzzle rating."""

    def game(self) -> Game:
        """The game at the puzzle's position."""
        game, placements = build_game(self.record)
        game.replay(placements)
        return game

    def line(self) -> list[Placement]:
        """The best line, as placements (its first is the answer)."""
        whole = self.record.model_copy(update={"moves": [*self.record.moves, *self.solution]})
        return build_game(whole)[1][len(self.record.moves) :]

    def line_outcomes(self) -> list[Outcome]:
        """What each placement of the best line does, made in turn from the position."""
        game = self.game()
        return [game.push(placement) for placement in self.line()]

    def to_data(self) -> dict[str, Any]:
        """The puzzle as JSON data, its moves written as a record writes them."""
        return {
            "id": self.id,
            "record": self.record.to_data(),
            "left": self.left,
            "solution": GameRecord(moves=self.solution).to_data()["moves"],
            "best": self.best,
            "second": self.second,
            "rating": self.rating,
        }

    def contract_json(self, day: date) -> dict[str, Any]:
        """The puzzle as ``forage puzzle --json`` prints it (CONTRACT.md)."""
        data = self.to_data()
        del data["rating"]
        return {"date": day.isoformat(), **data}


class PuzzleFile(BaseModel):
    """The puzzle file: its format, the seed it was made from, and the puzzles."""

    model_config = ConfigDict(extra="forbid")

    format: str
    seed: int
    puzzles: list[Puzzle]


def parse_puzzles(text: str) -> PuzzleFile:
    """Validate the puzzle file's text; raises ValueError naming what is wrong."""
    found = PuzzleFile.model_validate(json.loads(text))
    if found.format != FORMAT:
        raise ValueError(f"puzzle file format {found.format!r} is not {FORMAT!r}")
    return found


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles, in the file's order."""
    return tuple(parse_puzzles(data_text(FILE)).puzzles)


@cache
def _daily_order(count: int) -> tuple[int, ...]:
    """The puzzles' indexes in the order the days take them."""
    return tuple(shuffled(list(range(count)), ORDER_SEED))


def puzzle_index(day: date, count: int) -> int:
    """The index of a date's puzzle among ``count`` puzzles: each run of ``count`` days
    from :data:`EPOCH` takes every puzzle once."""
    return _daily_order(count)[(day - EPOCH).days % count]


def daily_puzzle(day: date) -> Puzzle:
    """The puzzle everyone gets on a date (UTC)."""
    shipped = puzzles()
    return shipped[puzzle_index(day, len(shipped))]
