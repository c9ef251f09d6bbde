"""Seeded shuffles, deals and deal codes (RULINGS R12, R14)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from forage.i18n import N_
from forage.wording import SaidError, said

SEED_LIMIT: Final = 1 << 64
"""Seeds are whole numbers from 0 up to, not including, this (R14: 64 bits)."""
_MASK64: Final = SEED_LIMIT - 1
STANDARD_NUMBERS: Final = tuple(range(1, 19))
DECK_SIZE: Final = 9
"""The cards of a standard game's deal: the first starts the woodland, the rest are played (R12)."""
HAND_SIZE: Final = 2
"""The cards in hand while the deal has cards left to draw (R12)."""
MOST_CARDS: Final = len(STANDARD_NUMBERS)
"""The most cards a deal holds: the whole deck (so the most placements of a game)."""


class SplitMix64:
    """A small 64-bit generator whose output is the same on every platform and Python (R14)."""

    def __init__(self, seed: int) -> None:
        """Start the generator from any integer seed (taken modulo 2**64)."""
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection so that no value is favoured."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next()
            if value < limit:
                return value % n


def check_seed(seed: int) -> int:
    """The seed itself; raises ValueError if it is not in 0 <= seed < 2**64."""
    if not 0 <= seed < SEED_LIMIT:
        raise SaidError(
            said(N_("a seed is a whole number from 0 to 2**64 - 1, not {seed}"), seed=_shown(seed))
        )
    return seed


def _shown(number: int) -> str:
    text = str(number)
    return text if len(text) <= 30 else f"{text[:12]}...{text[-6:]} ({len(text)} digits)"


def shuffled(items: Sequence[int], seed: int) -> list[int]:
    """The items shuffled by Fisher-Yates with SplitMix64 from ``seed``."""
    result = list(items)
    rng = SplitMix64(seed)
    for i in range(len(result) - 1, 0, -1):
        j = rng.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


class Deal(BaseModel):
    """The card numbers in draw order, and the two recipe numbers of a challenge (R14)."""

    model_config = ConfigDict(frozen=True)

    cards: tuple[int, ...]
    recipes: tuple[int, int] | None = None

    @model_validator(mode="after")
    def _check(self) -> Deal:
        if not 1 <= len(self.cards) <= MOST_CARDS:
            raise ValueError(f"a deal has 1 to {MOST_CARDS} cards, not {len(self.cards)}")
        if len(set(self.cards)) != len(self.cards):
            raise ValueError("a card appears twice in the deal")
        if self.recipes is not None and self.recipes[0] == self.recipes[1]:
            raise ValueError("the two recipes must be different cards")
        return self

    @classmethod
    def from_seed(
        cls,
        seed: int,
        *,
        recipes: bool = False,
        deck: int = 1,
        numbers: Sequence[int] = STANDARD_NUMBERS,
    ) -> Deal:
        """The deal of a seed: a standard game's deck 1 or 2, or a recipe challenge (R12).

        Raises ValueError for a seed outside 0 <= seed < :data:`SEED_LIMIT`.
        """
        check_seed(seed)
        order = shuffled(numbers, seed)
        if recipes:
            return cls.checked(tuple(order[2 : 2 + DECK_SIZE]), (order[0], order[1]))
        if deck not in (1, 2):
            raise ValueError(f"deck must be 1 or 2, not {deck}")
        start = 0 if deck == 1 else DECK_SIZE
        return cls.checked(tuple(order[start : start + DECK_SIZE]))

    @property
    def code(self) -> str:
        """The deal code: ``5.12.3...`` or, with recipes, ``4.11:5.12.3...`` (CONTRACT)."""
        cards = ".".join(str(n) for n in self.cards)
        if self.recipes is None:
            return cards
        return f"{self.recipes[0]}.{self.recipes[1]}:{cards}"

    @classmethod
    def from_code(cls, code: str) -> Deal:
        """Parse a deal code; raises ValueError naming what is wrong."""
        text = code.strip()
        if not re.fullmatch(CODE, text):
            raise SaidError(
                said(
                    N_("not a deal code: {code} (expected like 4.11:5.12.3.1.9.17.2.8.14)"),
                    code=repr(code),
                )
            )
        recipes: tuple[int, int] | None = None
        if ":" in text:
            head, _, text = text.partition(":")
            parts = [int(p) for p in head.split(".")]
            if len(parts) != 2:
                raise SaidError(
                    said(
                        N_("a deal code names two recipes before ':', not {count}"),
                        count=len(parts),
                    )
                )
            recipes = (parts[0], parts[1])
        cards = tuple(int(p) for p in text.split("."))
        return cls.checked(cards, recipes)

    @classmethod
    def checked(cls, cards: tuple[int, ...], recipes: tuple[int, int] | None = None) -> Deal:
        """A deal of these cards and recipes; raises a plain ValueError saying what is wrong."""
        try:
            return cls(cards=cards, recipes=recipes)
        except ValidationError as exc:
            message = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
            raise ValueError(message) from None

    def other_deck(self, numbers: Sequence[int] = STANDARD_NUMBERS) -> Deal | None:
        """The standard game's other nine cards, in ascending order, or None (R12)."""
        if self.recipes is not None or len(self.cards) != DECK_SIZE:
            return None
        rest = tuple(n for n in numbers if n not in self.cards)
        if len(rest) != DECK_SIZE:
            return None
        return Deal(cards=rest)


CODE: Final = r"(\d+\.\d+:)?\d+(\.\d+)*"
"""The pattern of a deal code (compiled on first use: ``re`` keeps it)."""
