"""Scoring: the base score, the rating, and recipe conditions and bonuses (R15-R19).

All of it reads the board's codes, so the engine and the AI's searches score alike; what a
square adds to the base score is :attr:`Square.points` (R15), tabled as ``board.POINTS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from pydantic import BaseModel, ConfigDict

from forage.engine.areas import (
    BASKET_FACE,
    COLOURS,
    DICE_PER_COLOUR,
    EDWOOD_POINTS,
    MOUSE_FACE,
    SPLIT_DIE_POINTS,
)
from forage.engine.board import (
    COLOUR_INDEX,
    DIE_COLOUR,
    DIE_VALUE,
    IS_EDWOOD,
    IS_MOUSE,
    IS_SPLIT,
    NEIGHBOURS,
    POINTS,
    PackedWoodland,
)
from forage.engine.cards import Recipe, RecipeKind

WIN_LINE: Final = 35
"""A standard game scoring this much or more is a win, as on Board Game Arena (R16)."""
DICE: Final = DICE_PER_COLOUR * len(COLOURS)
"""Every die of the game: the most a woodland holds."""
SCORE_LIMIT: Final = 2 * DICE * BASKET_FACE
"""No score (base, recipe bonus, final) is further from 0 than this: every die on a basket
is the highest base (R15), and two recipes add at most as much again (R19: a colour's
total, at most five baskets, doubled twice)."""

RATINGS: Final = (
    (50, "It's unani-mouse: you're a fantastic forager!"),
    (45, "What a wood-erful haul!"),
    (40, "A berry good harvest"),
    (35, "A satisfac-tree gathering"),
    (30, "Chest-nut quite good enough"),
)
LOWEST_RATING: Final = "There's mush-room for improvement"


def rating(score: int) -> str:
    """The rulebook's phrase for a score (R16)."""
    for floor, phrase in RATINGS:
        if score >= floor:
            return phrase
    return LOWEST_RATING


class RecipeResult(BaseModel):
    """Whether a recipe's condition is met and the points it adds (R18, R19)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    number: int
    name: str
    met: bool
    bonus: int


class ScoreParts(NamedTuple):
    """The base score as points that add up to it (R15)."""

    food: int
    """The faces of the food dice."""
    mice: int
    """The mouse dice, at their face each."""
    split: int
    """What the dice on split areas cost."""
    edwood: int
    """What Edwood costs, if he is in the woodland."""


class Score(BaseModel):
    """A score breakdown (R15, R17)."""

    model_config = ConfigDict(frozen=True)

    dice_total: int
    mice: int
    split_dice: int
    edwood: bool
    base: int
    bonus: int
    final: int

    @property
    def parts(self) -> ScoreParts:
        """The base score as points that add up to it."""
        return ScoreParts(
            food=self.dice_total - self.mice * MOUSE_FACE,
            mice=self.mice * MOUSE_FACE,
            split=self.split_dice * SPLIT_DIE_POINTS,
            edwood=EDWOOD_POINTS if self.edwood else 0,
        )


class Survey(NamedTuple):
    """What the recipe conditions read off a woodland, per colour in B, C, M order (R18)."""

    totals: tuple[int, int, int]
    """Each colour's total: the sum of its dice faces, mice at -2."""
    dice: tuple[int, int, int]
    """Dice of each colour in the woodland, mice included."""
    food: tuple[frozenset[int], ...]
    """The squares of each colour's food dice (dice not showing the mouse face)."""
    faces: frozenset[tuple[int, int]]
    """(colour index, face) of every food die."""
    mice: bool
    edwood: bool


def survey(board: PackedWoodland) -> Survey:
    """The facts the recipe conditions ask about a woodland."""
    totals = [0, 0, 0]
    dice = [0, 0, 0]
    food: list[set[int]] = [set(), set(), set()]
    faces: set[tuple[int, int]] = set()
    mice = edwood = False
    for pos, code in board.items():
        edwood = edwood or IS_EDWOOD[code]
        colour = DIE_COLOUR[code]
        if colour < 0:
            continue
        totals[colour] += DIE_VALUE[code]
        dice[colour] += 1
        if IS_MOUSE[code]:
            mice = True
        else:
            food[colour].add(pos)
            faces.add((colour, DIE_VALUE[code]))
    return Survey(
        (totals[0], totals[1], totals[2]),
        (dice[0], dice[1], dice[2]),
        tuple(frozenset(f) for f in food),
        frozenset(faces),
        mice,
        edwood,
    )


def largest_group(squares: frozenset[int]) -> int:
    """How many of these squares the largest orthogonally connected group holds."""
    largest = 0
    left = set(squares)
    while left:
        group = [left.pop()]
        for pos in group:  # grows while it is walked
            for d in NEIGHBOURS:
                if pos + d in left:
                    left.discard(pos + d)
                    group.append(pos + d)
        largest = max(largest, len(group))
    return largest


EXTRA_SPECIAL_GROUP: Final = 3
"""Extra Special: this many food dice of one colour on connected areas (R18)."""
AWARD_WINNING_EACH: Final = 4
"""Award Winning: this many food dice of each colour (R18)."""


COUNTED_KINDS: Final = frozenset(
    {
        RecipeKind.ALL_FIVE,
        RecipeKind.ALL_DICE,
        RecipeKind.AWARD_WINNING,
        RecipeKind.EXTRA_SPECIAL,
    }
)
"""The conditions that are counts (:func:`counted`)."""


class RecipeProgress(NamedTuple):
    """How far a woodland is towards a recipe's condition that is a count (R18): the
    condition holds once ``have`` reaches ``need``."""

    have: int
    need: int


def counted(recipe: Recipe, facts: Survey) -> RecipeProgress | None:
    """The count a recipe's condition asks for, on a woodland: a colour's food dice of
    five (all five, without mice), the dice in play of fifteen (Grandma's), the food dice
    of each colour up to four (Award Winning), the most food dice of one colour connected,
    of three (Extra Special); None for a condition that is no count."""
    kind = recipe.kind
    if kind is RecipeKind.ALL_FIVE:
        assert recipe.colour is not None
        return RecipeProgress(len(facts.food[COLOUR_INDEX[recipe.colour]]), DICE_PER_COLOUR)
    if kind is RecipeKind.ALL_DICE:
        return RecipeProgress(sum(facts.dice), DICE)
    if kind is RecipeKind.AWARD_WINNING:
        each = AWARD_WINNING_EACH
        have = sum(min(len(squares), each) for squares in facts.food)
        return RecipeProgress(have, each * len(facts.food))
    if kind is RecipeKind.EXTRA_SPECIAL:
        group = max(largest_group(squares) for squares in facts.food)
        return RecipeProgress(group, EXTRA_SPECIAL_GROUP)
    return None


def condition_met(recipe: Recipe, facts: Survey, first: int) -> bool:
    """Whether a recipe's condition holds (R18); ``first`` is the first-turn colour mask.
    A condition that is a count holds once its count is reached (:func:`counted`)."""
    kind = recipe.kind
    if kind in COUNTED_KINDS:
        progress = counted(recipe, facts)
        assert progress is not None
        return progress.have >= progress.need
    colour = COLOUR_INDEX[recipe.colour] if recipe.colour is not None else -1
    if kind is RecipeKind.EXACT_TEN:
        return (colour, 10) in facts.faces
    if kind in (RecipeKind.DOUBLE, RecipeKind.HOMEMADE):
        return True
    if kind is RecipeKind.BASKET:
        return any(face == BASKET_FACE for _, face in facts.faces)
    if kind is RecipeKind.FIRST_TURN:
        return first > 0 and bool(first >> colour & 1)
    if kind is RecipeKind.MOUSE_FREE:
        return not facts.mice and not facts.edwood
    raise ValueError(f"unknown recipe kind {kind}")  # pragma: no cover


def recipe_progress(
    board: PackedWoodland, recipes: Sequence[Recipe]
) -> list[RecipeProgress | None]:
    """How far a woodland is towards each recipe's condition that is a count (None for
    one that is not), as :func:`counted` says (R18)."""
    facts = survey(board)
    return [counted(recipe, facts) for recipe in recipes]


class RecipeCheck(NamedTuple):
    """A recipe's condition and bonus on one woodland."""

    met: bool
    bonus: int


def check_recipes(
    board: PackedWoodland, recipes: Sequence[Recipe], first: int
) -> list[RecipeCheck]:
    """Each recipe's result, point bonuses adding and doublings multiplying (R18, R19)."""
    if not recipes:
        return []
    facts = survey(board)
    totals = facts.totals
    multiplier = [1, 1, 1]
    checks = []
    for recipe in recipes:
        met = condition_met(recipe, facts, first)
        bonus = 0
        if met and recipe.doubles:
            if recipe.kind is RecipeKind.HOMEMADE:
                target = totals.index(min(totals))  # ties: any, the amount is the same
            else:
                assert recipe.colour is not None
                target = COLOUR_INDEX[recipe.colour]
            bonus = multiplier[target] * totals[target]
            multiplier[target] *= 2
        elif met and isinstance(recipe.bonus, int):
            bonus = recipe.bonus
        checks.append(RecipeCheck(met, bonus))
    return checks


def recipe_bonus(board: PackedWoodland, recipes: Sequence[Recipe], first: int) -> int:
    """The recipes' bonus on a woodland (R18, R19)."""
    return sum(check.bonus for check in check_recipes(board, recipes, first))


def score(board: PackedWoodland, checks: Sequence[RecipeCheck] = ()) -> Score:
    """The score breakdown of a woodland, counted from scratch, with its recipes' checks
    (R15, R17)."""
    dice_total = mice = split_dice = 0
    edwood = False
    for code in board.values():
        edwood = edwood or IS_EDWOOD[code]
        if DIE_COLOUR[code] >= 0:
            dice_total += DIE_VALUE[code]
            mice += IS_MOUSE[code]
            split_dice += IS_SPLIT[code]
    base = sum(POINTS[code] for code in board.values())
    bonus = sum(check.bonus for check in checks)
    return Score(
        dice_total=dice_total,
        mice=mice,
        split_dice=split_dice,
        edwood=edwood,
        base=base,
        bonus=bonus,
        final=base + bonus,
    )
