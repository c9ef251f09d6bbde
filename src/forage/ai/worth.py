"""The expert's worth of a woodland: what its squares are expected to add before the end.

A search that looks a few placements ahead needs a value for the woodland it stops at. The
*worth* is a sum over the woodland's top squares: each square has a *kind* (a food die by
face and whether it sits on a split area, a mouse, a bare food area, a bare split area,
Edwood) and is worth ``base[kind] + per_area[kind] * A``, where ``A`` is how many food areas
of the square's colours are expected among the placements still to come (from the cards
that could still be drawn: a green die is worth more when many bramble areas are coming).
The weights, one set per number of placements left, are learnt from the expert's own games
by least squares (``benchmarks/learn_worth.py`` with its fits in ``benchmarks/worth_fit.py``
writes ``data/expert-worth.json``); see
docs/performance.md for how they were made and what they gave.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from forage.ai.sim import NO_WORTH, Worth
from forage.carddata import data_text
from forage.engine import Deck
from forage.engine.areas import COLOURS, FOOD_FACES
from forage.engine.board import (
    CODES,
    DIE_COLOUR,
    FACE_INDEX,
    IS_EDWOOD,
    IS_MOUSE,
    IS_SPLIT,
    SQUARES,
    PackedWoodland,
)

KIND_NAMES: Final = (
    *(f"die {face}{' split' if split else ''}" for face in FOOD_FACES for split in (False, True)),
    "mouse",
    "bare food",
    "bare split",
    "edwood",
)
"""The kinds of square, in the order of a model's weights."""

MOST_LEFT: Final = 7
"""The most placements left after a placement (9 cards: the first laid, one never played)."""

Outlook = tuple[float, float, float]
"""The mean number of food areas of each colour (B, C, M) on a card still to come."""


def _kind(code: int) -> tuple[int, tuple[int, ...]]:
    """A code's kind (an index into :data:`KIND_NAMES`, -1 for no square) and its colours."""
    sq = SQUARES[code]
    if sq is None:
        return -1, ()
    if IS_EDWOOD[code]:
        return KIND_NAMES.index("edwood"), ()
    colour = DIE_COLOUR[code]
    if colour >= 0:
        if IS_MOUSE[code]:
            return KIND_NAMES.index("mouse"), (colour,)
        return 2 * (FACE_INDEX[code] - 1) + IS_SPLIT[code], (colour,)
    colours = tuple(COLOURS.index(c) for c in sq.area.colours)
    return KIND_NAMES.index("bare food" if len(colours) == 1 else "bare split"), colours


KINDS: Final = tuple(_kind(code) for code in range(CODES))
"""Each square code's kind and the colours whose coming areas scale its worth."""


def food_areas(deck: Deck, number: int) -> tuple[int, int, int]:
    """How many food areas of each colour (B, C, M) a card has."""
    letters = [a.value for a in deck[number].areas]
    return letters.count("B"), letters.count("C"), letters.count("M")


def outlook(deck: Deck, cards: Iterable[int]) -> Outlook:
    """The mean food areas of each colour over ``cards`` (none: an even third of five each)."""
    numbers = list(cards)
    if not numbers:
        return (5 / 3, 5 / 3, 5 / 3)
    totals = [0, 0, 0]
    for number in numbers:
        for colour, count in enumerate(food_areas(deck, number)):
            totals[colour] += count
    return (
        round(totals[0] / len(numbers), 3),
        round(totals[1] / len(numbers), 3),
        round(totals[2] / len(numbers), 3),
    )


def features(board: PackedWoodland, areas: Sequence[float]) -> list[float]:
    """A woodland's features for a model: per kind, the count of its squares, then the sum
    of their coming areas; ``areas`` is the expected food areas of each colour to come."""
    count = len(KIND_NAMES)
    row = [0.0] * (2 * count)
    for code in board.values():
        kind, colours = KINDS[code]
        if kind < 0:
            continue
        row[kind] += 1
        if colours:
            row[count + kind] += sum(areas[c] for c in colours) / len(colours)
    return row


@dataclass(frozen=True)
class WorthModel:
    """Learnt weights: for each number of placements left, ``base`` and ``per_area`` by kind."""

    base: tuple[tuple[float, ...], ...]
    """``base[r - 1][kind]``: a square's worth with ``r`` placements left, before its areas."""
    per_area: tuple[tuple[float, ...], ...]
    """``per_area[r - 1][kind]``: its worth per expected food area of its colours to come."""

    def weights(self, remaining: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The (base, per-area) weights with this many placements left (the furthest set
        beyond the model's range)."""
        index = min(remaining, len(self.base)) - 1
        return self.base[index], self.per_area[index]

    def table(self, remaining: int, coming: Outlook) -> Worth:
        """The worth of each square code with ``remaining`` placements left, when a card to
        come has ``coming`` food areas of each colour on average."""
        return _table(self, remaining, coming)

    def to_json(self) -> dict[str, object]:
        """The model as the JSON of ``data/expert-worth.json`` (weights only)."""
        return {
            "kinds": list(KIND_NAMES),
            "weights": [
                {"placements_left": r + 1, "base": list(b), "per_area": list(p)}
                for r, (b, p) in enumerate(zip(self.base, self.per_area, strict=True))
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> WorthModel:
        """The model of a parsed ``expert-worth.json``."""
        if data.get("kinds") != list(KIND_NAMES):
            raise ValueError("expert-worth.json: its kinds are not this version's")
        rows = data.get("weights")
        if not isinstance(rows, list) or not rows:
            raise ValueError("expert-worth.json: no weights")
        base = tuple(tuple(float(w) for w in row["base"]) for row in rows)
        per_area = tuple(tuple(float(w) for w in row["per_area"]) for row in rows)
        if any(len(w) != len(KIND_NAMES) for w in (*base, *per_area)):
            raise ValueError("expert-worth.json: a weight row of the wrong length")
        return cls(base, per_area)


@lru_cache(maxsize=256)
def _table(model: WorthModel, remaining: int, coming: Outlook) -> Worth:
    """The worth table of a model (cached: a search asks for the same few many times)."""
    if remaining <= 0:
        return NO_WORTH
    base, per_area = model.weights(remaining)
    areas = [remaining * share for share in coming]
    table = [0.0] * CODES
    for code, (kind, colours) in enumerate(KINDS):
        if kind < 0:
            continue
        value = base[kind]
        if colours:
            value += per_area[kind] * sum(areas[c] for c in colours) / len(colours)
        table[code] = value
    return Worth(table)


@cache
def learnt_model() -> WorthModel:
    """The expert's worth model shipped with the game (``data/expert-worth.json``)."""
    return WorthModel.from_json(json.loads(data_text("expert-worth.json")))
