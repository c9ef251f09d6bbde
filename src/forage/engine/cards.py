"""Cards, their recipes and their footprints in the woodland (RULINGS R1, R3, R17-R18)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from forage.engine.areas import ROTATIONS, UPRIGHT_CELLS, Area, Colour, Rotation, rotate_cell


class RecipeKind(StrEnum):
    """The kinds of recipe condition (R18)."""

    EXACT_TEN = "exact-ten"
    DOUBLE = "double"
    ALL_FIVE = "all-five"
    ALL_DICE = "all-dice"
    BASKET = "basket"
    HOMEMADE = "homemade"
    FIRST_TURN = "first-turn"
    EXTRA_SPECIAL = "extra-special"
    AWARD_WINNING = "award-winning"
    MOUSE_FREE = "mouse-free"


class Recipe(BaseModel):
    """The recipe on a card's back: a target number, a condition and a bonus (R17, R18)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    number: int = Field(ge=1)
    name: str
    target: int = Field(ge=0)
    kind: RecipeKind
    colour: Colour | None = None
    condition: str
    bonus: int | Literal["x2"]

    @property
    def doubles(self) -> bool:
        """Whether the bonus doubles a colour's total instead of adding points."""
        return self.bonus == "x2"

    @property
    def bonus_text(self) -> str:
        """The bonus as printed on the card."""
        if self.bonus == "x2":
            return "x2"
        return f"{self.bonus} pt" if self.bonus == 1 else f"{self.bonus} pts"

    @property
    def numbers_text(self) -> str:
        """Its number toward the target (R17) and its bonus, each named apart:
        ``target 24, bonus 6 pts``."""
        return f"target {self.target}, bonus {self.bonus_text}"


PlacedArea = tuple[int, int, Area]
"""One area of a placed card: (dx, dy, area) from the card's top-left."""


class Card(BaseModel):
    """A card: its draw-order number, six upright areas row by row, and its recipe (R1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1)
    areas: Annotated[tuple[Area, Area, Area, Area, Area, Area], Field()]
    recipe: Recipe | None = None

    @field_validator("areas", mode="before")
    @classmethod
    def _six_areas(cls, value: object) -> object:
        if isinstance(value, list | tuple) and len(value) != 6:
            raise ValueError(f"a card has 6 areas, not {len(value)}")
        return value

    @cached_property
    def footprints(self) -> dict[Rotation, tuple[PlacedArea, ...]]:
        """The card's areas at each rotation, in R9's order (top row first, left to right)."""
        result: dict[Rotation, tuple[PlacedArea, ...]] = {}
        for rotation in ROTATIONS:
            cells = [
                (*rotate_cell(column, row, rotation), area)
                for (column, row), area in zip(UPRIGHT_CELLS, self.areas, strict=True)
            ]
            cells.sort(key=lambda cell: (cell[1], cell[0]))
            result[rotation] = tuple(cells)
        return result

    def footprint(self, rotation: Rotation) -> tuple[PlacedArea, ...]:
        """The card's areas at a rotation, as (dx, dy, area) in R9's order."""
        return self.footprints[rotation]

    def size(self, rotation: Rotation) -> tuple[int, int]:
        """The card's (width, height) in areas at a rotation (R3)."""
        return (2, 3) if rotation in (Rotation.R0, Rotation.R180) else (3, 2)


class Deck(BaseModel):
    """A set of cards by number: the built-in 18 or a custom deck."""

    model_config = ConfigDict(frozen=True)

    cards: dict[int, Card]

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Deck:
        """A deck of the given cards; numbers must be distinct."""
        by_number: dict[int, Card] = {}
        for card in cards:
            if card.number in by_number:
                raise ValueError(f"card {card.number} appears twice")
            by_number[card.number] = card
        return cls(cards=by_number)

    def __getitem__(self, number: int) -> Card:
        """The card with this number."""
        return self.cards[number]

    def __contains__(self, number: object) -> bool:
        """Whether the deck has a card with this number."""
        return number in self.cards

    def __len__(self) -> int:
        """How many cards the deck has."""
        return len(self.cards)

    @property
    def numbers(self) -> list[int]:
        """The card numbers in ascending order."""
        return sorted(self.cards)

    def recipes(self) -> Mapping[int, Recipe]:
        """The recipes on the cards' backs, by card number."""
        return {n: c.recipe for n, c in self.cards.items() if c.recipe is not None}
