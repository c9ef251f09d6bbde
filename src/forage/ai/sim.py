"""Search on the engine's own board: moves, worth and bounds for the bots and par.

States are the engine's :class:`~forage.engine.board.Position` and every rule is the
engine's (:mod:`forage.engine.rules`, :mod:`forage.engine.scoring`); what this module adds is
what a search needs: a move as a small named tuple, a *worth* of the woodland left for later
cards, and bounds that let a search skip placements that cannot make its best few.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Final, NamedTuple

from forage.engine import ROTATIONS, Area, Deck, Game, Placement, Recipe
from forage.engine.areas import MOUSE_FACE
from forage.engine.board import CODES, POINTS, PackedWoodland, Position, encode, unpack
from forage.engine.game import shape
from forage.engine.outcome import mouse_choices
from forage.engine.rules import (
    BARE,
    EDWOOD,
    FOOD_DIE,
    MOUSE_DIE,
    NOTHING,
    STEPS,
    CardShape,
    Resolution,
    laid,
    lay,
    mouse_variants,
    scan,
)
from forage.engine.scoring import recipe_bonus
from forage.engine.woodland import die

State = Position
"""A position between turns: the engine's own."""


class Move(NamedTuple):
    """A legal placement and what it does."""

    card: int
    rotation: int
    """Rotation index 0-3 (0, 90, 180, 270 degrees)."""
    spot: int
    """Packed top-left square."""
    result: Resolution

    @property
    def gain(self) -> int:
        """The change of the base score."""
        return self.result.gain


class Scored(NamedTuple):
    """A placement with the value a search gives it."""

    value: float
    move: Move


def _value(scored: Scored) -> float:
    """The value of a scored placement."""
    return scored.value


_new = tuple.__new__
"""Builds the named tuples of the hot loop without their Python-level ``__new__``."""

EPSILON: Final = 1e-9
"""Slack for rounding when a bound is compared with a value summed in another order."""
NO_BOUND: Final = -1e9
"""The bound of a cell whose area cannot go on the code below (the placement is illegal)."""


def _outcomes(area: Area) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """For an area of this type, each code below it may go on with what it can become
    there: (code below, ((base-score change, new code), ...)), from :data:`STEPS`."""
    mice = [encode(area, die(c, MOUSE_FACE)) for c in area.colours]
    edwood = encode(area, edwood=True)
    found = []
    for under, step in enumerate(STEPS[area]):
        gain, code = step.gain, step.code
        if step.need == NOTHING or step.need == EDWOOD:
            outcomes = [(gain, code)]
        elif step.need == FOOD_DIE:
            bare = BARE[code]
            outcomes = [(gain, code), (gain - POINTS[code] + POINTS[bare], bare)]
        elif step.need == MOUSE_DIE:
            outcomes = [(gain + POINTS[new], new) for new in (*mice, edwood)]
        else:
            continue
        found.append((under, tuple(outcomes)))
    return tuple(found)


OUTCOMES: Final = {area: _outcomes(area) for area in Area}
"""For each area type, what it can make on each code below it may cover (:func:`_outcomes`)."""


def _cell_bound(area: Area, values: Sequence[float]) -> list[float]:
    """For an area of this type, the most a placement can gain on each code below.

    The gain is the larger of the base-score change and that change plus the change of
    the square's worth; the sum over a card's six cells bounds the placement's value.
    """
    bound = [NO_BOUND] * CODES
    for under, outcomes in OUTCOMES[area]:
        was = values[under]
        bound[under] = max([max(g, g + values[new] - was) for g, new in outcomes])
    return bound


class Worth:
    """A worth per square code (what a square is expected to add to later placements),
    with the bounds that let a search skip placements that cannot beat the best so far."""

    __slots__ = ("bounds", "values")

    def __init__(self, values: Sequence[float]) -> None:
        """The worth of each square code."""
        self.values: tuple[float, ...] = tuple(values)
        self.bounds: dict[Area, list[float]] = {
            area: _cell_bound(area, self.values) for area in Area
        }


NO_WORTH: Final = Worth([0.0] * CODES)
"""Every square worth nothing: values are base-score gains."""


class Simulator:
    """The engine's rules for one deck (and its recipes), as a search asks them."""

    def __init__(self, deck: Deck, recipes: Sequence[Recipe] = ()) -> None:
        """The deck's card shapes, shared with the engine."""
        self.deck = deck
        self.shapes: dict[int, CardShape] = {n: shape(deck[n]) for n in deck.numbers}
        self.recipes = tuple(recipes)

    # -- moves -------------------------------------------------------------------------------

    def moves(
        self,
        board: PackedWoodland,
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        variants: bool = False,
    ) -> list[Move]:
        """Every legal placement of one card, in the engine's order (rotation, y, x).

        Each with the default mouse colours or, where those are refused, the first choice
        that is legal, as ``Game.outcomes`` lists them; with ``variants``, every other
        choice of split-area mouse colours that changes the outcome follows it.
        """
        card_shape = self.shapes[card]
        result: list[Move] = []
        for rot, spot, unders, found in scan(board, counts, edwood, card_shape):
            result.append(_new(Move, (card, rot, spot, found)))
            if variants and (found.choosable or found.choice):
                turned = card_shape.turns[rot]
                others = mouse_variants(unders, counts, edwood, turned)
                result.extend(Move(card, rot, spot, r) for r in others if r.new != found.new)
        return result

    def all_moves(self, state: State, variants: bool = False) -> list[Move]:
        """Every legal placement of every hand card."""
        result: list[Move] = []
        for card in dict.fromkeys(state.hand):
            result.extend(self.moves(state.board, state.counts, state.edwood, card, variants))
        return result

    def best_scored(
        self,
        board: PackedWoodland,
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        worth: Worth | None,
        n: int,
        given: Sequence[Scored] = (),
        ordered: bool = False,
        at_least: float = NO_BOUND,
    ) -> list[Scored]:
        """The ``n`` best of ``given`` and the card's placements (earlier ones first on ties);
        with ``n`` 0, ``given`` and all of them.

        A placement's value is its base-score gain; with ``worth`` it also counts the change
        of the woodland's worth: the new squares' less the covered ones'. Placements whose
        bound shows they cannot make the ``n`` best, or cannot reach ``at_least``, are not
        resolved (so with ``at_least`` only the best of those that reach it are sure).
        """
        values = (worth or NO_WORTH).values
        found: list[Scored] = list(given)
        # The n best values so far (a min-heap): a placement must beat the least of them.
        best = heapq.nlargest(n, (s.value for s in given)) if n else []
        heapq.heapify(best)
        least = at_least - EPSILON
        floor = [max(best[0] - EPSILON, least) if n and len(best) == n else least]
        bounds = (worth or NO_WORTH).bounds if n else None
        for rot, spot, unders, r in scan(
            board, counts, edwood, self.shapes[card], ordered=ordered, bounds=bounds, floor=floor
        ):
            value: float = r.gain
            if worth is not None:
                value += sum(map(values.__getitem__, r.new)) - sum(map(values.__getitem__, unders))
            found.append(_new(Scored, (value, _new(Move, (card, rot, spot, r)))))
            if n:
                if len(best) < n:
                    heapq.heappush(best, value)
                elif value > best[0]:
                    heapq.heapreplace(best, value)
                if len(best) == n:
                    floor[0] = max(best[0] - EPSILON, least)
        if not n:
            return found
        return heapq.nlargest(n, found, key=_value)

    def best_over_hand(
        self,
        state: State,
        worth: Worth | None,
        n: int,
        ordered: bool = False,
        at_least: float = NO_BOUND,
    ) -> list[Scored]:
        """The ``n`` best placements of every hand card (:meth:`best_scored`, the cards in
        hand order; those short of ``at_least`` may be left out)."""
        found: list[Scored] = []
        for card in dict.fromkeys(state.hand):
            found = self.best_scored(
                state.board,
                state.counts,
                state.edwood,
                card,
                worth,
                n,
                found,
                ordered=ordered,
                at_least=at_least,
            )
        return found

    def can_move(self, state: State) -> bool:
        """Whether any hand card has a legal placement (R13: else the game ends)."""
        return any(
            next(scan(state.board, state.counts, state.edwood, self.shapes[card]), None) is not None
            for card in dict.fromkeys(state.hand)
        )

    def greedy(self, state: State) -> Move | None:
        """The legal placement with the best gain, the first in the engine's order on ties."""
        found = self.best_over_hand(state, None, 1, ordered=True)
        return found[0].move if found else None

    # -- laying and scoring --------------------------------------------------------------------

    def board_after(self, board: PackedWoodland, move: Move) -> PackedWoodland:
        """A copy of a woodland with a move's card laid."""
        return laid(board, self.shapes[move.card].turns[move.rotation], move.spot, move.result.new)

    def apply(self, state: State, move: Move, deal: Sequence[int]) -> State:
        """The state after a move, the next card drawn from ``deal``."""
        turned = self.shapes[move.card].turns[move.rotation]
        return lay(state, move.card, turned, move.spot, move.result, deal)

    def final(self, state: State) -> int:
        """The final score of a state: base plus recipe bonuses (R15, R17-R19)."""
        if not self.recipes:
            return state.base
        return state.base + recipe_bonus(state.board, self.recipes, state.first)

    def placement(self, move: Move) -> Placement:
        """The engine placement of a move, naming any chosen mouse colours."""
        x, y = unpack(move.spot)
        turned = self.shapes[move.card].turns[move.rotation]
        mouse = mouse_choices(turned, move.spot, move.result)
        return Placement(card=move.card, rotation=ROTATIONS[move.rotation], x=x, y=y, mouse=mouse)


def state_of(game: Game) -> State:
    """The search's state of a game's current position (the engine's own)."""
    return game.position


def simulator_for(game: Game) -> Simulator:
    """A simulator for a game's deck and recipes."""
    return Simulator(game.deck, game.recipes)
