"""Dice, the supply and the woodland of top areas (RULINGS R4-R6, R15)."""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from forage.engine.areas import (
    COLOURS,
    DICE_PER_COLOUR,
    EDWOOD_POINTS,
    FOOD_FACES,
    MOUSE_FACE,
    SPLIT_DIE_POINTS,
    Area,
    Colour,
)

Pos = tuple[int, int]
"""A square of the woodland grid as (x, y); x grows right, y grows down (R4)."""


class Die(BaseModel):
    """A die in the woodland: its colour and the face it shows (-2 is the mouse)."""

    model_config = ConfigDict(frozen=True)

    colour: Colour
    value: int

    @property
    def mouse(self) -> bool:
        """Whether the die shows the mouse face."""
        return self.value == MOUSE_FACE

    def __str__(self) -> str:
        """The die as colour and face, for example ``B10`` or ``Mmouse``."""
        return f"{self.colour.value}{'mouse' if self.mouse else self.value}"


_DICE: Final = {  # every colour and face is valid: built without validation, to start quickly
    (colour, value): Die.model_construct(colour=colour, value=value)
    for colour in COLOURS
    for value in (*FOOD_FACES, MOUSE_FACE)
}


def die(colour: Colour, value: int) -> Die:
    """The (shared, immutable) die of this colour showing this face."""
    return _DICE[(colour, value)]


class Square(BaseModel):
    """The top area at one square of the woodland, with its die or Edwood (R6)."""

    model_config = ConfigDict(frozen=True)

    area: Area
    die: Die | None = None
    edwood: bool = False
    card: int = Field(default=0, description="number of the card this area belongs to")

    @property
    def points(self) -> int:
        """What this square adds to the base score (R15)."""
        total = 0
        if self.die is not None:
            total += self.die.value
            if not self.area.is_food:
                total += SPLIT_DIE_POINTS
        if self.edwood:
            total += EDWOOD_POINTS
        return total


_SQUARES: dict[tuple[Area, Die | None, bool, int], Square] = {}


def square(area: Area, die_: Die | None = None, edwood: bool = False, card: int = 0) -> Square:
    """The (shared, immutable) square with these contents."""
    key = (area, die_, edwood, card)
    found = _SQUARES.get(key)
    if found is None:
        if (
            area.__class__ is Area
            and (die_ is None or die_.__class__ is Die)
            and edwood.__class__ is bool
            and card.__class__ is int
        ):  # already the fields' types: nothing to validate (the engine's tables start so)
            found = Square.model_construct(area=area, die=die_, edwood=edwood, card=card)
        else:
            found = Square(area=area, die=die_, edwood=edwood, card=card)
        _SQUARES[key] = found
    return found


class Supply(BaseModel):
    """The dice not in the woodland, per colour, and whether Edwood is still to hand."""

    model_config = ConfigDict(frozen=True)

    B: int = Field(default=DICE_PER_COLOUR, ge=0, le=DICE_PER_COLOUR)
    C: int = Field(default=DICE_PER_COLOUR, ge=0, le=DICE_PER_COLOUR)
    M: int = Field(default=DICE_PER_COLOUR, ge=0, le=DICE_PER_COLOUR)
    edwood: bool = True

    def __getitem__(self, colour: Colour) -> int:
        """Dice of this colour left in the supply."""
        return int(getattr(self, colour.value))

    def counts(self) -> tuple[int, int, int]:
        """Dice left in B, C, M order."""
        return self.B, self.C, self.M


class Woodland(BaseModel):
    """The table: the top area of every covered square, keyed by (x, y)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    squares: dict[Pos, Square]

    def __getitem__(self, pos: Pos) -> Square:
        """The top area at a square."""
        return self.squares[pos]

    def get(self, pos: Pos) -> Square | None:
        """The top area at a square, or None on empty table."""
        return self.squares.get(pos)

    def __contains__(self, pos: object) -> bool:
        """Whether a card covers this square."""
        return pos in self.squares

    def positions(self) -> list[Pos]:
        """The covered squares, sorted by y then x."""
        return sorted(self.squares, key=lambda p: (p[1], p[0]))

    def __len__(self) -> int:
        """How many squares are covered."""
        return len(self.squares)

    def bounds(self) -> tuple[int, int, int, int]:
        """The bounding box (min x, min y, max x, max y) of the covered squares."""
        xs = [x for x, _ in self.squares]
        ys = [y for _, y in self.squares]
        return min(xs), min(ys), max(xs), max(ys)
