"""A game of Forage: the deal, the turns, legal placements, undo and the result (R12-R19)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from pydantic import BaseModel, ConfigDict

from forage.engine.areas import ROTATIONS, Rotation
from forage.engine.board import COLOUR_INDEX, REACH, Position, encode, pack, unpack
from forage.engine.cards import Card, Deck, Recipe
from forage.engine.deal import HAND_SIZE, Deal
from forage.engine.outcome import (
    Outcome,
    Resolved,
    legal_outcome,
    mouse_choices,
    refused,
    supply_of,
    woodland_square,
)
from forage.engine.placement import Placement
from forage.engine.rules import (
    CardShape,
    Reason,
    Refusal,
    covers,
    lay,
    mouse_variants,
    resolve,
    scan,
    shape_of,
)
from forage.engine.scoring import (
    WIN_LINE,
    RecipeProgress,
    RecipeResult,
    Score,
    check_recipes,
    rating,
    recipe_progress,
    score,
)
from forage.engine.woodland import Supply, Woodland


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


class Replayed(NamedTuple):
    """How far a list of placements got: how many were made, and the first refusal."""

    applied: int
    refusal: Outcome | None


@lru_cache(maxsize=1024)
def shape(card: Card) -> CardShape:
    """A card's shape for the rules' fast path (shared, built once per card)."""
    return shape_of(card)


_new_tuple = tuple.__new__
"""Builds the named tuples of the hot loop without their Python-level ``__new__``."""

CACHE_LIMIT: Final = 200_000
"""Interned placements are forgotten past this many."""
_PLACEMENTS: dict[tuple[int, int, int], Placement] = {}


def placement_at(card: int, rotation: int, spot: int) -> Placement:
    """The (shared) placement of a card at a rotation index and packed spot, default mice."""
    key = (card, rotation, spot)
    found = _PLACEMENTS.get(key)
    if found is None:
        if len(_PLACEMENTS) > CACHE_LIMIT:
            _PLACEMENTS.clear()
        x, y = unpack(spot)
        found = _PLACEMENTS[key] = Placement(card=card, rotation=ROTATIONS[rotation], x=x, y=y)
    return found


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
        board = {pack(dx, dy): encode(area) for dx, dy, area in first.footprint(Rotation.R0)}
        self.moves: list[Placement] = []
        self._stack: list[Position] = [
            Position(
                board=board,
                counts=Supply().counts(),
                edwood=True,
                hand=tuple(deal.cards[1 : 1 + HAND_SIZE]),
                next_draw=min(1 + HAND_SIZE, len(deal.cards)),
                base=0,
                first=-1,
            )
        ]
        self._stuck: list[bool | None] = [None]
        """Whether each position on the stack is stuck (R13), worked out when first asked."""
        self._woodlands: list[Woodland | None] = [None]
        """Each position's woodland as models, built when first asked."""

    @classmethod
    def at(
        cls,
        deal: Deal,
        deck: Deck,
        position: Position,
        recipe_book: Mapping[int, Recipe] | None = None,
    ) -> Game:
        """A game on a deal set up at a position of one's own (puzzles, tests)."""
        game = cls(deal, deck, recipe_book)
        game._stack = [position]
        return game

    # -- state -------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current state."""
        return self._stack[-1]

    @property
    def woodland(self) -> Woodland:
        """The woodland now: the top area of every covered square, with its card."""
        woodland = self._woodlands[-1]
        if woodland is None:
            woodland = self._woodlands[-1] = self._woodland_now()
        return woodland

    def _woodland_now(self) -> Woodland:
        """The models of the current board, each square with the card it belongs to."""
        start = self.deck[self.deal.cards[0]]
        owner = {pack(dx, dy): start.number for dx, dy, _ in start.footprint(Rotation.R0)}
        for placement in self.moves:
            turned = shape(self.deck[placement.card]).turns[ROTATIONS.index(placement.rotation)]
            spot = pack(placement.x, placement.y)
            for d in turned.offsets:
                owner[spot + d] = placement.card
        squares = {
            unpack(p): woodland_square(code, owner.get(p, 0))
            for p, code in self.position.board.items()
        }
        return Woodland.model_construct(squares=squares)

    @property
    def supply(self) -> Supply:
        """The supply now."""
        pos = self.position
        return supply_of(pos.counts, pos.edwood)

    @property
    def hand(self) -> tuple[int, ...]:
        """The card numbers in hand, in the order they were drawn."""
        return self.position.hand

    @property
    def base(self) -> int:
        """The base score now (R15)."""
        return self.position.base

    @property
    def deal_size(self) -> int:
        """How many cards the deal holds in all: the first card, the hand, the draw pile."""
        return len(self.deal.cards)

    @property
    def draw_pile(self) -> int:
        """How many cards are left to draw."""
        return self.deal_size - self.position.next_draw

    @property
    def turn(self) -> int:
        """The number of the turn being played, from 1."""
        return len(self.moves) + 1

    @property
    def turns(self) -> int:
        """How many turns the deal has (8 for nine cards): one for each card but the first."""
        return self.deal_size - 1

    def card(self, number: int) -> Card:
        """The card with this number."""
        return self.deck[number]

    def shape(self, number: int) -> CardShape:
        """The rules' shape of a card of this game."""
        return shape(self.deck[number])

    # -- rules ---------------------------------------------------------------------------------

    def outcome(self, placement: Placement, choose_mice: bool = False) -> Outcome:
        """What a placement would do now, or why it is refused (R5-R11); changes nothing.

        With ``choose_mice``, a placement without mouse colours that the defaults make
        illegal takes the first choice of colours that is legal instead, if there is one
        (R8c); the outcome's placement then names the colours.
        """
        if self.is_over():
            return refused(placement, Reason.GAME_OVER)
        if placement.card not in self.position.hand:
            return refused(placement, Reason.NOT_IN_HAND)
        if abs(placement.x) > REACH or abs(placement.y) > REACH:
            return refused(placement, Reason.NO_OVERLAP)
        pos = self.position
        turned = self.shape(placement.card).turns[ROTATIONS.index(placement.rotation)]
        spot = pack(placement.x, placement.y)
        if not covers(pos.board, spot, turned):
            return refused(placement, Reason.NO_OVERLAP)
        unders = tuple(pos.board.get(spot + d, 0) for d in turned.offsets)
        choice: dict[int, int] = {}
        stray = False  # a colour named for a square the card does not cover
        if placement.mouse:
            cells = {unpack(spot + d): i for i, d in enumerate(turned.offsets)}
            for m in placement.mouse:
                cell = cells.get((m.x, m.y))
                if cell is None:
                    stray = True
                else:
                    choice[cell] = COLOUR_INDEX[m.colour]
        result = resolve(unders, pos.counts, pos.edwood, turned, choice or None, stray=stray)
        if isinstance(result, Refusal):
            cause = unpack(spot + turned.offsets[result.cell]) if result.cell >= 0 else None
            if not (choose_mice and result.choice_may_help and not placement.mouse):
                return refused(placement, result.reason, cause)
            found = next(mouse_variants(unders, pos.counts, pos.edwood, turned), None)
            if found is None:
                return refused(placement, result.reason, cause)
            result = found
        return self._legal(placement, Resolved(pos, turned, spot, unders, result))

    @staticmethod
    def _legal(placement: Placement, resolved: Resolved) -> Outcome:
        """The outcome of a resolved placement, its placement naming any chosen colours."""
        if resolved.result.choice and not placement.mouse:
            placement = placement.model_copy(
                update={"mouse": mouse_choices(resolved.turned, resolved.spot, resolved.result)}
            )
        return legal_outcome(placement, resolved)

    def mouse_options(self, placement: Placement) -> list[Outcome]:
        """Every legal outcome of a placement over the choices of mouse colours (R8c).

        The defaults come first when they are legal; each outcome names its colours.
        """
        bare = placement.model_copy(update={"mouse": ()}) if placement.mouse else placement
        first = self.outcome(bare, choose_mice=True)
        if first.resolved is None:
            return []
        pos, turned, spot, unders, _ = first.resolved
        return [
            self._legal(bare, Resolved(pos, turned, spot, unders, result))
            for result in mouse_variants(unders, pos.counts, pos.edwood, turned)
        ]

    def push(self, move: Placement | Outcome) -> Outcome:
        """Make a placement if it is legal and draw a card (R12); returns its outcome.

        Given an outcome just worked out for this position, it is made as it is, without
        resolving it again; a placement is made with exactly the mouse colours it names.
        """
        if isinstance(move, Outcome):
            resolved = move.resolved
            outcome = (
                move
                if resolved is not None and resolved.position is self.position
                else self.outcome(move.placement)
            )
        else:
            outcome = self.outcome(move)
        resolved = outcome.resolved
        if resolved is None:
            return outcome
        placement = outcome.placement
        self._stack.append(
            lay(
                self.position,
                placement.card,
                resolved.turned,
                resolved.spot,
                resolved.result,
                self.deal.cards,
            )
        )
        self._stuck.append(None)
        self._woodlands.append(None)
        self.moves.append(placement)
        return outcome

    def copy(self) -> Game:
        """An independent game at the same position, with the same history to undo."""
        return self.rewound(len(self.moves))

    def rewound(self, moves: int) -> Game:
        """An independent game as this one stood after its first ``moves`` placements, with
        that history to undo; this game does not change."""
        if not 0 <= moves <= len(self.moves):
            raise ValueError(f"the game has {len(self.moves)} placements, not {moves}")
        twin = copy.copy(self)
        kept = moves + 1
        twin.moves = self.moves[:moves]
        twin._stack = self._stack[:kept]
        twin._stuck = self._stuck[:kept]
        twin._woodlands = self._woodlands[:kept]
        return twin

    def pop(self) -> Placement:
        """Undo the last placement and return it."""
        if not self.moves:
            raise IndexError("no placement to undo")
        self._stack.pop()
        self._stuck.pop()
        self._woodlands.pop()
        return self.moves.pop()

    def outcomes(self, card_number: int | None = None) -> Iterator[Outcome]:
        """Every legal placement of the hand cards (or one card) with its outcome.

        In the order of the hand, rotation, then y and x of the top-left. Placements use
        the default mouse colours (R8c); where those are refused but a choice of colours
        is legal, the first such choice (see :meth:`outcome`).
        """
        if self.is_over():
            return
        pos = self.position
        numbers = pos.hand if card_number is None else (card_number,)
        for number in numbers:
            if number not in pos.hand:
                continue
            card_shape = self.shape(number)
            for rotation, spot, unders, result in scan(
                pos.board, pos.counts, pos.edwood, card_shape
            ):
                resolved = _new_tuple(
                    Resolved, (pos, card_shape.turns[rotation], spot, unders, result)
                )
                yield self._legal(placement_at(number, rotation, spot), resolved)

    def is_finished(self) -> bool:
        """Whether every card of the deal has been placed (R12)."""
        return not self.position.hand

    def is_stuck(self) -> bool:
        """Whether cards remain but none can be placed, ending the game (R13)."""
        if self.is_finished():
            return False
        stuck = self._stuck[-1]
        if stuck is None:
            pos = self.position
            stuck = self._stuck[-1] = not any(
                next(scan(pos.board, pos.counts, pos.edwood, self.shape(n), ordered=False), None)
                for n in pos.hand
            )
        return stuck

    def is_over(self) -> bool:
        """Whether the game has ended, finished or stuck."""
        return self.is_finished() or self.is_stuck()

    # -- scoring -------------------------------------------------------------------------------

    def score(self) -> Score:
        """The score breakdown now (R15, R17)."""
        pos = self.position
        return score(pos.board, check_recipes(pos.board, self.recipes, pos.first))

    def result(self) -> GameResult:
        """The score, recipes and standing of the game now (R15-R19)."""
        pos = self.position
        checks = check_recipes(pos.board, self.recipes, pos.first)
        breakdown = score(pos.board, checks)
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
            recipes=[
                RecipeResult(number=r.number, name=r.name, met=c.met, bonus=c.bonus)
                for r, c in zip(self.recipes, checks, strict=True)
            ],
            target=target,
            won=won,
        )

    def result_after(self, outcome: Outcome) -> GameResult:
        """The score, recipes and standing the game would have after a legal outcome of this
        position (R15-R19), worked out on a copy: the game does not change."""
        twin = self.copy()
        if not twin.push(outcome).legal:
            raise ValueError(f"not a legal placement: {outcome.placement}")
        return twin.result()

    def recipe_progress(self, outcome: Outcome | None = None) -> list[RecipeProgress | None]:
        """How far the woodland is towards each recipe's condition that is a count (R18),
        now or after a legal ``outcome`` of this position (worked out on a copy); None for
        a condition that is no count. Changes nothing."""
        board = self.position.board
        if outcome is not None:
            twin = self.copy()
            if not twin.push(outcome).legal:
                raise ValueError(f"not a legal placement: {outcome.placement}")
            board = twin.position.board
        return recipe_progress(board, self.recipes)

    def replay(self, placements: Sequence[Placement]) -> Replayed:
        """Push placements in order until one is refused."""
        for index, placement in enumerate(placements):
            outcome = self.push(placement)
            if not outcome.legal:
                return Replayed(index, outcome)
        return Replayed(len(placements), None)
