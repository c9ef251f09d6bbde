"""Scoring: the base score, the rating, and recipe conditions and bonuses (R15-R19)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from pydantic import BaseModel, ConfigDict

from forage.engine.areas import BASKET_FACE, COLOURS, DICE_PER_COLOUR, Colour
from forage.engine.cards import Recipe, RecipeKind
from forage.engine.woodland import Woodland

WIN_LINE: Final = 35
"""A standard game scoring this much or more is a win, as on Board Game Arena (R16)."""

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

    model_config = ConfigDict(frozen=True)

    number: int
    name: str
    met: bool
    bonus: int


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


def colour_totals(woodland: Woodland) -> dict[Colour, int]:
    """Each colour's total: the sum of its dice faces, mice at -2 (R18)."""
    totals = dict.fromkeys(COLOURS, 0)
    for _, d in woodland.dice():
        totals[d.colour] += d.value
    return totals


def _food_dice(woodland: Woodland, colour: Colour) -> list[tuple[int, int]]:
    return [pos for pos, d in woodland.dice() if d.colour == colour and not d.mouse]


def _has_chain_of_three(woodland: Woodland) -> bool:
    """Whether three food dice of one colour lie on orthogonally connected areas."""
    for colour in COLOURS:
        left = set(_food_dice(woodland, colour))
        while left:
            stack = [left.pop()]
            size = 0
            while stack:
                x, y = stack.pop()
                size += 1
                for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if near in left:
                        left.remove(near)
                        stack.append(near)
            if size >= 3:
                return True
    return False


def condition_met(recipe: Recipe, woodland: Woodland, first_gathered: Iterable[Colour]) -> bool:
    """Whether a recipe's condition holds on this woodland (R18)."""
    kind = recipe.kind
    colour = recipe.colour
    dice = [d for _, d in woodland.dice()]
    if kind is RecipeKind.EXACT_TEN:
        return any(d.colour == colour and d.value == 10 for d in dice)
    if kind in (RecipeKind.DOUBLE, RecipeKind.HOMEMADE):
        return True
    if kind is RecipeKind.ALL_FIVE:
        mine = [d for d in dice if d.colour == colour]
        return len(mine) == DICE_PER_COLOUR and not any(d.mouse for d in mine)
    if kind is RecipeKind.ALL_DICE:
        return len(dice) == DICE_PER_COLOUR * len(COLOURS)
    if kind is RecipeKind.BASKET:
        return any(d.value == BASKET_FACE for d in dice)
    if kind is RecipeKind.FIRST_TURN:
        return colour in set(first_gathered)
    if kind is RecipeKind.EXTRA_SPECIAL:
        return _has_chain_of_three(woodland)
    if kind is RecipeKind.AWARD_WINNING:
        return all(sum(1 for d in dice if d.colour == c and not d.mouse) >= 4 for c in COLOURS)
    if kind is RecipeKind.MOUSE_FREE:
        return not any(d.mouse for d in dice) and woodland.edwood_at() is None
    raise ValueError(f"unknown recipe kind {kind}")  # pragma: no cover


def evaluate_recipes(
    recipes: Sequence[Recipe], woodland: Woodland, first_gathered: Iterable[Colour]
) -> list[RecipeResult]:
    """Each recipe's result, point bonuses adding and doublings multiplying (R18, R19)."""
    gathered = tuple(first_gathered)
    totals = colour_totals(woodland)
    multiplier = dict.fromkeys(COLOURS, 1)
    results: list[RecipeResult] = []
    for recipe in recipes:
        met = condition_met(recipe, woodland, gathered)
        bonus = 0
        if met and recipe.doubles:
            if recipe.kind is RecipeKind.HOMEMADE:
                lowest = min(totals.values())
                target = next(c for c in COLOURS if totals[c] == lowest)
            else:
                assert recipe.colour is not None
                target = recipe.colour
            bonus = multiplier[target] * totals[target]
            multiplier[target] *= 2
        elif met and isinstance(recipe.bonus, int):
            bonus = recipe.bonus
        results.append(RecipeResult(number=recipe.number, name=recipe.name, met=met, bonus=bonus))
    return results


def score(
    woodland: Woodland,
    recipes: Sequence[Recipe] = (),
    first_gathered: Iterable[Colour] = (),
) -> tuple[Score, list[RecipeResult]]:
    """The full score breakdown of a woodland, counted from scratch (R15, R17-R19)."""
    dice_total = mice = split_dice = 0
    for sq in woodland.squares.values():
        if sq.die is not None:
            dice_total += sq.die.value
            mice += sq.die.mouse
            split_dice += not sq.area.is_food
    edwood = woodland.edwood_at() is not None
    base = dice_total - split_dice - (5 if edwood else 0)
    results = evaluate_recipes(recipes, woodland, first_gathered)
    bonus = sum(r.bonus for r in results)
    return (
        Score(
            dice_total=dice_total,
            mice=mice,
            split_dice=split_dice,
            edwood=edwood,
            base=base,
            bonus=bonus,
            final=base + bonus,
        ),
        results,
    )
