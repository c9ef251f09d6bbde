"""The engine's one board representation: squares as small ints, positions as named tuples.

A square of the woodland is a *code*, an int below :data:`CODES` that packs its area, its die
and Edwood; a woodland is a ``dict`` from a packed square index to a code. The pydantic
models (:class:`~forage.engine.woodland.Square`, :class:`~forage.engine.woodland.Woodland`)
are the face of these values, built from them on demand, as python-chess keeps bitboards
behind ``piece_at()``. Every table here is generated from the models at load time.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from forage.engine.areas import COLOURS, FOOD_FACES, MOUSE_FACE, Area
from forage.engine.woodland import Die, Square, die, square

# -- square codes --------------------------------------------------------------------------

FACES: Final = (MOUSE_FACE, *FOOD_FACES)
"""Die faces by face index: 0 is the mouse, then 1, 3, 6, 10 and 15."""
COLOUR_INDEX: Final = {colour: index for index, colour in enumerate(COLOURS)}
"""A colour's index in B, C, M order: its place in supply counts and its bit in a mask."""

_DIE_SHIFT: Final = 3
_FACE_SHIFT: Final = 5
_EDWOOD_FLAG: Final = 1 << 8
CODES: Final = 1 << 9
"""How many square codes there are: every code is below this."""


def mask_of(area: Area) -> int:
    """The area's types as a bit mask, one bit per colour index."""
    return _MASKS[area]


_MASKS: Final = {area: sum(1 << COLOUR_INDEX[colour] for colour in area.colours) for area in Area}


def encode(area: Area, die_: Die | None = None, edwood: bool = False) -> int:
    """The code of a top square: its area, its die (if any) and Edwood."""
    code = mask_of(area) | (_EDWOOD_FLAG if edwood else 0)
    if die_ is not None:
        code |= (COLOUR_INDEX[die_.colour] + 1) << _DIE_SHIFT
        code |= FACES.index(die_.value) << _FACE_SHIFT
    return code


def _all_squares() -> tuple[Square | None, ...]:
    squares: dict[int, Square] = {}
    for area in Area:
        candidates = [square(area), square(area, edwood=True)]
        candidates += [square(area, die(c, v)) for c in COLOURS for v in FACES]
        for sq in candidates:
            squares[encode(sq.area, sq.die, sq.edwood)] = sq
    return tuple(squares.get(code) for code in range(CODES))


SQUARES: Final = _all_squares()
"""The square of each code (None for codes no square has): the models' face of a code."""
POINTS: Final = tuple(sq.points if sq is not None else 0 for sq in SQUARES)
"""What each code adds to the base score, from :attr:`Square.points` (R15)."""
DIE_COLOUR: Final = tuple(
    COLOUR_INDEX[sq.die.colour] if sq is not None and sq.die is not None else -1 for sq in SQUARES
)
"""The colour index of each code's die, or -1 without one."""
DIE_VALUE: Final = tuple(sq.die.value if sq is not None and sq.die else 0 for sq in SQUARES)
"""The face of each code's die (the mouse is -2), or 0 without one."""
IS_MOUSE: Final = tuple(sq is not None and sq.die is not None and sq.die.mouse for sq in SQUARES)
IS_EDWOOD: Final = tuple(sq is not None and sq.edwood for sq in SQUARES)
IS_SPLIT: Final = tuple(sq is not None and not sq.area.is_food for sq in SQUARES)
FACE_INDEX: Final = tuple(
    FACES.index(sq.die.value) if sq is not None and sq.die is not None else 0 for sq in SQUARES
)
"""The face index of each code's die (0 for the mouse, or without a die)."""


# -- squares of the grid -------------------------------------------------------------------

_OFFSET: Final = 128
_STRIDE: Final = 256
REACH: Final = 100
"""Coordinates beyond this can never touch a woodland of at most 18 cards (3 areas each)."""


def pack(x: int, y: int) -> int:
    """The packed index of square (x, y), for |x| and |y| up to :data:`REACH`."""
    return x + _OFFSET + (y + _OFFSET) * _STRIDE


def unpack(index: int) -> tuple[int, int]:
    """The square (x, y) of a packed index."""
    return index % _STRIDE - _OFFSET, index // _STRIDE - _OFFSET


def step(dx: int, dy: int) -> int:
    """The packed distance of a move by (dx, dy)."""
    return dx + dy * _STRIDE


NEIGHBOURS: Final = (step(1, 0), step(-1, 0), step(0, 1), step(0, -1))
"""The packed distances to the four orthogonal neighbours of a square."""

PackedWoodland = dict[int, int]
"""A woodland: packed square index to square code, for the covered squares."""


# -- positions -------------------------------------------------------------------------------


class Position(NamedTuple):
    """The state of a game between turns; never changed in place, so undo is a pop."""

    board: PackedWoodland
    counts: tuple[int, int, int]
    """Dice left in the supply, in B, C, M order."""
    edwood: bool
    """Whether Edwood is still to hand."""
    hand: tuple[int, ...]
    next_draw: int
    """Index into the deal of the next card to draw."""
    base: int
    """The base score (R15), kept up to date move by move."""
    first: int
    """Colour mask gathered under R8a by the first card played, or -1 before it (R18)."""
