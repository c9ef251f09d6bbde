"""The rules of Forage as a pure engine: no I/O, no drawing.

The vocabulary: :class:`Card`, :class:`Placement`, :class:`Woodland`, :class:`Game`,
:class:`Outcome`. Ask a :class:`Game` what a placement would do (``outcome``), make it
(``push``), undo it (``pop``) and list the legal ones (``outcomes``). Behind the models is
one board representation (:mod:`forage.engine.board`) and one statement of each rule
(:mod:`forage.engine.rules`, :mod:`forage.engine.scoring`).
"""

from forage.engine.areas import COLOURS, ROTATIONS, Area, Colour, Rotation
from forage.engine.board import Position
from forage.engine.cards import Card, Deck, Recipe, RecipeKind
from forage.engine.deal import Deal
from forage.engine.game import Game, GameResult, Replayed
from forage.engine.outcome import AreaEffect, Outcome
from forage.engine.placement import MouseChoice, Placement
from forage.engine.rules import Effect, Reason
from forage.engine.scoring import RecipeProgress, RecipeResult, Score, rating
from forage.engine.woodland import Die, Square, Supply, Woodland

__all__ = [
    "COLOURS",
    "ROTATIONS",
    "Area",
    "AreaEffect",
    "Card",
    "Colour",
    "Deal",
    "Deck",
    "Die",
    "Effect",
    "Game",
    "GameResult",
    "MouseChoice",
    "Outcome",
    "Placement",
    "Position",
    "Reason",
    "Recipe",
    "RecipeKind",
    "RecipeProgress",
    "RecipeResult",
    "Replayed",
    "Rotation",
    "Score",
    "Square",
    "Supply",
    "Woodland",
    "rating",
]
