"""Small builders for exact game situations: custom decks, placements and woodlands."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from forage.carddata import standard_deck
from forage.engine import (
    Area,
    Card,
    Colour,
    Deal,
    Deck,
    Die,
    Game,
    MouseChoice,
    Placement,
    Rotation,
    Square,
    Woodland,
)

MOUSE = -2


def card(number: int, areas: str) -> Card:
    """A custom card from six space-separated area codes, upright, row by row (R1)."""
    codes = areas.split()
    assert len(codes) == 6, areas
    return Card(number=number, areas=tuple(Area(code) for code in codes))  # type: ignore[arg-type]


def game_of(*areas: str, recipes: tuple[int, int] | None = None) -> Game:
    """A game whose deal is these custom cards in order, numbered 1, 2, 3, ...

    The first card starts the woodland upright at (0, 0); cards 2 and 3 form the hand.
    With ``recipes``, the built-in recipes of those numbers are the challenge.
    """
    cards = [card(index + 1, text) for index, text in enumerate(areas)]
    deal = Deal(cards=tuple(c.number for c in cards), recipes=recipes)
    return Game(deal, Deck.of(cards), recipe_book=standard_deck().recipes())


def place(
    number: int,
    x: int,
    y: int,
    rotation: int = 0,
    mouse: Mapping[tuple[int, int], str] | None = None,
) -> Placement:
    """The placement of card ``number`` with its rotated top-left at (x, y)."""
    choices = tuple(
        MouseChoice(x=mx, y=my, colour=Colour(colour)) for (mx, my), colour in (mouse or {}).items()
    )
    return Placement(card=number, rotation=Rotation(rotation), x=x, y=y, mouse=choices)


def play(game: Game, *placements: Placement) -> Game:
    """Push placements that must all be legal; returns the game."""
    for placement in placements:
        outcome = game.push(placement)
        assert outcome.legal, (placement, outcome.reason)
    return game


def die_at(game: Game, x: int, y: int) -> str | None:
    """The die on the top area at (x, y) as ``B3`` or ``Bmouse``, ``E`` for Edwood, or None."""
    sq = game.woodland.get((x, y))
    assert sq is not None, f"no area at {(x, y)}"
    if sq.edwood:
        return "E"
    return None if sq.die is None else str(sq.die)


def supply_of(game: Game) -> tuple[int, int, int, bool]:
    """The supply as (B, C, M, Edwood still to hand)."""
    s = game.supply
    return s.B, s.C, s.M, s.edwood


def woodland(cells: Iterable[tuple[int, int, str, str | None]]) -> Woodland:
    """A woodland from (x, y, area, die) where die is like ``B10``, ``Mm`` (mouse) or ``E``."""
    squares: dict[tuple[int, int], Square] = {}
    for x, y, area, what in cells:
        if what is None:
            squares[(x, y)] = Square(area=Area(area))
        elif what == "E":
            squares[(x, y)] = Square(area=Area(area), edwood=True)
        else:
            colour = Colour(what[0])
            value = MOUSE if what[1:] == "m" else int(what[1:])
            squares[(x, y)] = Square(area=Area(area), die=Die(colour=colour, value=value))
    return Woodland(squares=squares)


def dice_row(*dice: str, area: str | None = None, y: int = 0) -> list[tuple[int, int, str, str]]:
    """Dice laid left to right on row ``y``, each on a food area of its colour (or ``area``)."""
    return [(x, y, area or d[0], d) for x, d in enumerate(dice)]
