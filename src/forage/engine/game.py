"""A game of Forage: the deal, the turns, legal placements, undo and the result (R12-R19)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from forage.engine.areas import ROTATIONS, Colour, Rotation
from forage.engine.cards import Card, Deck, Recipe
from forage.engine.deal import Deal
from forage.engine.packed import (
    CardShape,
    Cells,
    Resolved,
    outcome_of,
    pack_pos,
    packed_square,
    placement_at,
    scan,
    shape_of,
    unpack_pos,
)
from forage.engine.placement import Placement
from forage.engine.resolve import AreaEffect, Outcome, Reason, resolve
from forage.engine.scoring import WIN_LINE, RecipeResult, Score, rating, score
from forage.engine.woodland import Pos, Square, Supply, Woodland, square


class Position(BaseModel):
    """The state of a game between turns; immutable, so undo is a pop."""

    model_config = ConfigDict(frozen=True)

    woodland: Woodland
    supply: Supply = Field(default_factory=Supply)
    hand: tuple[int, ...]
    next_draw: int
    """Index into the deal of the next card to draw."""
    base: int = 0
    """The base score (R15), kept up to date move by move."""
    first_gathered: tuple[Colour, ...] = ()
    """Colours gathered under R8a by the first card played (R18)."""


PackedPosition = tuple[
    Position, dict[int, int], dict[int, Square], dict[int, tuple[AreaEffect, Colour | None]]
]
"""A position with its woodland packed: codes and squares by packed index, and an effect memo."""


class GameResult(BaseModel):
    """Where a game stands: score, recipes, finished or stuck, won or not."""

    model_config = ConfigDict(frozen=True)

    finished: bool
    stuck: bool
    score: Score
    rating: str
    recipes: list[RecipeResult]
    target: int | None
    won: bool | None


class Game:
    """A game on a deal: push placements, pop them to undo, ask what any placement would do."""

    def __init__(
        self, deal: Deal, deck: Deck, recipe_book: Mapping[int, Recipe] | None = None
    ) -> None:
        """Lay out the deal's first card and draw the hand (R12).

        ``recipe_book`` gives the recipes by number when the deck's cards carry none
        (a custom deck); by default the deck's own recipes are used.
        """
        missing = [n for n in deal.cards if n not in deck]
        if missing:
            raise ValueError(f"card {missing[0]} is not in the deck")
        recipe_cards: list[Recipe] = []
        if deal.recipes is not None:
            recipe_decks = deck.recipes() if recipe_book is None else recipe_book
            for number in deal.recipes:
                if number not in recipe_decks:
                    raise ValueError(f"recipe {number} is not a known recipe")
                recipe_cards.append(recipe_decks[number])
        self.deal = deal
        self.deck = deck
        self.recipes: tuple[Recipe, ...] = tuple(recipe_cards)
        first = deck[deal.cards[0]]
        start = {
            (dx, dy): square(area, card=first.number)
            for dx, dy, area in first.footprint(Rotation.R0)
        }
        self.moves: list[Placement] = []
        self._stack: list[Position] = [
            Position(
                woodland=Woodland(squares=start),
                hand=tuple(deal.cards[1:3]),
                next_draw=min(3, len(deal.cards)),
            )
        ]
        self._stuck: list[bool | None] = [None]
        """Whether each position on the stack is stuck (R13), worked out when first asked."""
        self._shapes: dict[int, CardShape] = {}
        self._packed: PackedPosition | None = None
        """The current position's woodland packed for the hot path (see ``packed``)."""

    # -- state -------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current state."""
        return self._stack[-1]

    @property
    def woodland(self) -> Woodland:
        """The woodland now."""
        return self.position.woodland

    @property
    def supply(self) -> Supply:
        """The supply now."""
        return self.position.supply

    @property
    def hand(self) -> tuple[int, ...]:
        """The card numbers in hand, in the order they were drawn."""
        return self.position.hand

    @property
    def draw_pile(self) -> int:
        """How many cards are left to draw."""
        return len(self.deal.cards) - self.position.next_draw

    @property
    def turn(self) -> int:
        """The number of the turn being played, from 1."""
        return len(self.moves) + 1

    @property
    def turns(self) -> int:
        """How many turns the deal has (8 for nine cards)."""
        return len(self.deal.cards) - 1

    def card(self, number: int) -> Card:
        """The card with this number."""
        return self.deck[number]

    # -- rules ---------------------------------------------------------------------------------

    def outcome(self, placement: Placement) -> Outcome:
        """What a placement would do now, or why it is refused (R5-R11); changes nothing."""
        if self.is_over():
            return Outcome(placement=placement, reason=Reason.GAME_OVER)
        if placement.card not in self.position.hand:
            return Outcome(placement=placement, reason=Reason.NOT_IN_HAND)
        card = self.deck[placement.card]
        return resolve(
            self.position.woodland.squares,
            self.position.supply,
            card.footprint(placement.rotation),
            placement,
        )

    def push(self, placement: Placement) -> Outcome:
        """Make a placement if it is legal and draw a card (R12); returns its outcome."""
        outcome = self.outcome(placement)
        if not outcome.legal:
            return outcome
        pos = self.position
        squares = dict(pos.woodland.squares)
        squares.update(outcome.squares(placement.card))
        hand = tuple(n for n in pos.hand if n != placement.card)
        next_draw = pos.next_draw
        if next_draw < len(self.deal.cards):
            hand += (self.deal.cards[next_draw],)
            next_draw += 1
        assert outcome.supply is not None
        self._stack.append(
            Position(
                woodland=Woodland.model_construct(squares=squares),
                supply=outcome.supply,
                hand=hand,
                next_draw=next_draw,
                base=pos.base + outcome.score_change,
                first_gathered=outcome.gathered if not self.moves else pos.first_gathered,
            )
        )
        self._stuck.append(None)
        self.moves.append(placement)
        return outcome

    def copy(self) -> Game:
        """An independent game at the same position, with the same history to undo."""
        twin = copy.copy(self)
        twin.moves = list(self.moves)
        twin._stack = list(self._stack)
        twin._stuck = list(self._stuck)
        twin._shapes = dict(self._shapes)
        twin._packed = None
        return twin

    def pop(self) -> Placement:
        """Undo the last placement and return it."""
        if not self.moves:
            raise IndexError("no placement to undo")
        self._stack.pop()
        self._stuck.pop()
        return self.moves.pop()

    def candidate_spots(self, card: Card, rotation: Rotation) -> list[Pos]:
        """Every top-left position at which the rotated card would cover the woodland."""
        squares = self.position.woodland.squares
        spots = {(x - dx, y - dy) for x, y in squares for dx, dy, _ in card.footprint(rotation)}
        return sorted(spots, key=lambda p: (p[1], p[0]))

    def outcomes(self, card_number: int | None = None) -> Iterator[Outcome]:
        """Every legal placement of the hand cards (or one card) with its outcome.

        Placements use the default mouse colours (R8c); where the default is refused but a
        choice of colours makes the placement legal, the first such choice is used.
        """
        if self.is_over():
            return
        _, _, tops, memo = self._packed_position()
        for number, rotation, spot, cells, _, result in self._scan(card_number):
            if isinstance(result, tuple):
                placement = placement_at(number, rotation, spot)
                yield outcome_of(placement, spot, cells, tops, result, memo)
            else:
                x, y = unpack_pos(spot)
                placement = Placement(card=number, rotation=ROTATIONS[rotation], x=x, y=y)
                alternative = self._legal_by_choice(placement)
                if alternative is not None:
                    yield alternative

    def _packed_position(self) -> PackedPosition:
        """The current woodland as packed codes and as squares, by packed square index."""
        pos = self.position
        if self._packed is None or self._packed[0] is not pos:
            board: dict[int, int] = {}
            tops: dict[int, Square] = {}
            for (x, y), sq in pos.woodland.squares.items():
                key = pack_pos(x, y)
                board[key] = packed_square(sq)
                tops[key] = sq
            self._packed = (pos, board, tops, {})
        return self._packed

    def _scan(
        self, card_number: int | None = None
    ) -> Iterator[tuple[int, int, int, Cells, tuple[int, ...], Resolved | int]]:
        """Resolve every candidate placement on the packed hot path (see ``packed``).

        Yields (card, rotation index, packed spot, cells, codes below, result) for the legal
        placements and for those a choice of mouse colours might make legal, in the order
        of hand, rotation, then y and x of the spot.
        """
        pos = self.position
        numbers = pos.hand if card_number is None else (card_number,)
        _, board, _, _ = self._packed_position()
        supply = pos.supply
        counts = (supply.B, supply.C, supply.M)
        edwood = supply.edwood
        for number in numbers:
            if number not in pos.hand:
                continue
            shape = self._shapes.get(number)
            if shape is None:
                shape = self._shapes[number] = shape_of(self.deck[number])
            for rotation, spot, unders, result in scan(board, counts, edwood, shape):
                yield number, rotation, spot, shape.cells[rotation], unders, result

    def _legal_by_choice(self, placement: Placement) -> Outcome | None:
        """A legal outcome reached by choosing split-area mouse colours, if one exists."""
        card = self.deck[placement.card]
        footprint = card.footprint(placement.rotation)
        splits = [
            (placement.x + dx, placement.y + dy, area)
            for dx, dy, area in footprint
            if not area.is_food and (placement.x + dx, placement.y + dy) in self.woodland
        ]
        if not splits:
            return None
        squares = self.position.woodland.squares
        supply = self.position.supply

        def search(index: int, chosen: dict[Pos, Colour]) -> Outcome | None:
            if index == len(splits):
                if not chosen:
                    return None
                trial = resolve(squares, supply, footprint, placement.with_mouse(chosen))
                return trial if trial.legal else None
            x, y, area = splits[index]
            found = search(index + 1, chosen)
            if found is not None:
                return found
            for colour in area.colours:
                found = search(index + 1, {**chosen, (x, y): colour})
                if found is not None:
                    return found
            return None

        return search(0, {})

    def legal_placements(self, card_number: int | None = None) -> list[Placement]:
        """Every legal placement of the hand cards (or one card)."""
        return [o.placement for o in self.outcomes(card_number)]

    def has_legal_placement(self) -> bool:
        """Whether some hand card can be placed (R13)."""
        return next(self.outcomes(), None) is not None

    def is_finished(self) -> bool:
        """Whether every card of the deal has been placed (R12)."""
        return not self.position.hand

    def is_stuck(self) -> bool:
        """Whether cards remain but none can be placed, ending the game (R13)."""
        if self.is_finished():
            return False
        stuck = self._stuck[-1]
        if stuck is None:
            stuck = self._stuck[-1] = not self._any_legal()
        return stuck

    def _any_legal(self) -> bool:
        for number, rotation, spot, _, _, result in self._scan():
            if isinstance(result, tuple):
                return True
            x, y = unpack_pos(spot)
            placement = Placement(card=number, rotation=ROTATIONS[rotation], x=x, y=y)
            if self._legal_by_choice(placement) is not None:
                return True
        return False

    def is_over(self) -> bool:
        """Whether the game has ended, finished or stuck."""
        return self.is_finished() or self.is_stuck()

    # -- scoring -------------------------------------------------------------------------------

    def score(self) -> Score:
        """The score breakdown now (R15, R17)."""
        return self.result().score

    def result(self) -> GameResult:
        """The score, recipes and standing of the game now (R15-R19)."""
        pos = self.position
        breakdown, recipe_results = score(pos.woodland, self.recipes, pos.first_gathered)
        finished = self.is_over()
        target = sum(r.target for r in self.recipes) if self.recipes else None
        won: bool | None = None
        if finished:
            won = breakdown.final >= target if target is not None else breakdown.base >= WIN_LINE
        return GameResult(
            finished=finished,
            stuck=self.is_stuck(),
            score=breakdown,
            rating=rating(breakdown.base),
            recipes=recipe_results,
            target=target,
            won=won,
        )

    def replay(self, placements: Sequence[Placement]) -> tuple[int, Outcome | None]:
        """Push placements in order until one is refused; returns (count applied, refusal)."""
        for index, placement in enumerate(placements):
            outcome = self.push(placement)
            if not outcome.legal:
                return index, outcome
        return len(placements), None
