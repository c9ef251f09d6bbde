"""Area types, dice colours, die faces and rotations (RULINGS R1-R3)."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final


class Colour(StrEnum):
    """A food type and its dice colour: bramble, fallen leaves or soil litter (R2)."""

    B = "B"
    C = "C"
    M = "M"


COLOURS: Final = (Colour.B, Colour.C, Colour.M)


class Area(StrEnum):
    """An area of a card: a food area of one type or a split area of two (R1, R2)."""

    B = "B"
    C = "C"
    M = "M"
    BC = "BC"
    BM = "BM"
    CM = "CM"

    @property
    def is_food(self) -> bool:
        """Whether the area has food on it (one type) rather than being split."""
        return _IS_FOOD[self]

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The area's types in B, C, M order."""
        return _AREA_COLOURS[self]


_IS_FOOD: Final = {area: len(area.value) == 1 for area in Area}
_AREA_COLOURS: Final = {area: tuple(Colour(letter) for letter in area.value) for area in Area}


class Rotation(IntEnum):
    """A card's rotation in degrees clockwise (R3)."""

    R0 = 0
    R90 = 90
    R180 = 180
    R270 = 270

    def turned(self, clockwise: bool = True) -> Rotation:
        """The rotation a quarter turn on, clockwise or counter-clockwise."""
        step = 90 if clockwise else 270
        return Rotation((self.value + step) % 360)


ROTATIONS: Final = (Rotation.R0, Rotation.R90, Rotation.R180, Rotation.R270)

MOUSE_FACE: Final = -2
FOOD_FACES: Final = (1, 3, 6, 10, 15)
BASKET_FACE: Final = 15
DICE_PER_COLOUR: Final = 5
SPLIT_DIE_POINTS: Final = -1
"""What a die standing on a split area costs, beside its face (R15)."""
EDWOOD_POINTS: Final = -5
"""What Edwood in the woodland costs (R15)."""
_NEXT_FACE: Final = {1: 3, 3: 6, 6: 10, 10: 15, 15: 15}


def raised(value: int) -> int:
    """The face a food die shows after going up one step (R8a); 15 stays 15."""
    return _NEXT_FACE[value]


def rotate_cell(column: int, row: int, rotation: Rotation) -> tuple[int, int]:
    """Where the upright area at (column, row) lands after rotating the card (R3)."""
    if rotation == Rotation.R0:
        return column, row
    if rotation == Rotation.R90:
        return 2 - row, column
    if rotation == Rotation.R180:
        return 1 - column, 2 - row
    return row, 1 - column


UPRIGHT_CELLS: Final = ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2))
"""The six areas of an upright card, row by row, left to right, as (column, row) (R1)."""
