"""The sizes of terminal forage draws in: the least it needs and the most it takes.

A terminal (or a browser tab under ``forage serve``) may report any size; a huge one would
make every frame huge, so sizes beyond :data:`MAX_COLUMNS` x :data:`MAX_ROWS` are taken as
that. Imported by the web server too, so it imports nothing.
"""

from __future__ import annotations

from typing import Final

MIN_COLUMNS: Final = 60
MIN_ROWS: Final = 20
"""Below this the game asks for a larger terminal."""
MAX_COLUMNS: Final = 1000
MAX_ROWS: Final = 500
"""A larger terminal is drawn at this size."""


def clamp_size(columns: object, rows: object) -> tuple[int, int]:
    """A reported size as forage uses it: whole numbers from 1 up to the largest it takes
    (anything that is not a whole number counts as 80 x 24)."""
    return _clamp(columns, 80, MAX_COLUMNS), _clamp(rows, 24, MAX_ROWS)


def _clamp(value: object, default: int, most: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, str):
        text = value.strip()
        digits = text.isascii() and text.isdigit()  # not "²" nor other scripts' digits
        if not digits or len(text) > 9:
            return most if digits else default
        value = int(text)
    if not isinstance(value, int):
        return default
    return max(1, min(most, value))
