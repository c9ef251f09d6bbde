"""The daily deal: the same deal for everyone on a date (UTC), and a share line without spoilers.

The deal of a date is ``Deal.from_seed(daily_seed(day, recipes), recipes=recipes)`` where
``daily_seed`` is the first eight bytes, big-endian, of the SHA-256 of the UTF-8 text
``forage-daily:YYYY-MM-DD`` (with ``:recipes`` appended for the recipe challenge). Neither
depends on the machine or on the version of Python, so the deal is the same everywhere.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from datetime import UTC, date, datetime
from functools import cache
from typing import Final

from forage.engine import Deal


def daily_seed(day: date, recipes: bool = False) -> int:
    """The seed of a date's deal: SHA-256 of ``forage-daily:YYYY-MM-DD[:recipes]``, 64 bits."""
    text = f"forage-daily:{day.isoformat()}" + (":recipes" if recipes else "")
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


@cache
def daily_deal(day: date, recipes: bool = False) -> Deal:
    """The deal everyone plays on a date: a standard game's deck 1, or a recipe challenge."""
    return Deal.from_seed(daily_seed(day, recipes), recipes=recipes)


def today() -> date:
    """Today's date in UTC, which decides the daily deal."""
    return datetime.now(UTC).date()


def parse_day(text: str) -> date:
    """A date written YYYY-MM-DD; raises ValueError saying what is wrong."""
    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not a date: {text!r} (expected YYYY-MM-DD)") from None


MOVE_MARKS: Final = {"gain": "🟩", "level": "🟨", "loss": "🟥"}
"""The share line's mark of a move by what it did to the score; ``ASCII_MARKS`` in plain ASCII."""
ASCII_MARKS: Final = {"gain": "+", "level": "=", "loss": "-"}


def move_marks(changes: Sequence[int], plain: bool = False) -> str:
    """One mark a move, by its change of the base score: a gain, nothing, a loss."""
    marks = ASCII_MARKS if plain else MOVE_MARKS
    return "".join(
        marks["gain" if change > 0 else "loss" if change < 0 else "level"] for change in changes
    )


def share_key(plain: bool = False) -> str:
    """What the share line's marks mean, in one line (``plain``: its ASCII marks)."""
    marks = ASCII_MARKS if plain else MOVE_MARKS
    return (
        f"one mark a move: {marks['gain']} gained points, {marks['level']} kept the score, "
        f"{marks['loss']} lost points"
    )


def share_line(
    day: date,
    final: int,
    rating: str,
    par: int | None = None,
    recipes_met: int | None = None,
    recipes_total: int = 2,
    changes: Sequence[int] = (),
    plain: bool = False,
) -> str:
    """One line to tell friends how the day's deal went, without giving the deal away:
    the date, the score, the rating, par, and a mark for each move (``changes``, each
    move's change of the base score); ``plain`` writes it in ASCII."""
    kind = " recipe challenge" if recipes_met is not None else ""
    parts = [f"Forage daily{kind} {day.isoformat()}: {final} points", rating]
    if par is not None:
        diff = final - par
        against = "on par" if diff == 0 else f"{abs(diff)} {'above' if diff > 0 else 'below'} par"
        parts.append(f"par {par}, {against}")
    if recipes_met is not None:
        parts.append(f"recipes met {recipes_met}/{recipes_total}")
    if changes:
        parts.append(move_marks(changes, plain))
    return (" | " if plain else " · ").join(parts)


def osc52(text: str) -> str:
    """The OSC 52 escape that asks the terminal to put ``text`` on the clipboard."""
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"\x1b]52;c;{encoded}\x07"
