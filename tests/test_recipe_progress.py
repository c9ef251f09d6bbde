"""How far a woodland is towards each recipe whose condition is a count (R18): the engine's
counts against counts made here from the woodland's squares, and met exactly when the
count is reached."""

from __future__ import annotations

import random

from forage.carddata import standard_deck
from forage.engine import Colour, Deal, Game, RecipeKind, Woodland
from forage.engine.woodland import Pos

RECIPES = standard_deck().recipes()
COUNTED = {
    RecipeKind.ALL_FIVE,
    RecipeKind.ALL_DICE,
    RecipeKind.AWARD_WINNING,
    RecipeKind.EXTRA_SPECIAL,
}


def food(wood: Woodland, colour: Colour) -> set[Pos]:
    """Where the woodland's food dice (not mice) of a colour are."""
    return {
        pos
        for pos, square in wood.squares.items()
        if square.die is not None and not square.die.mouse and square.die.colour is colour
    }


def largest(squares: set[Pos]) -> int:
    """The largest group of orthogonally adjacent squares, counted by a flood fill."""
    best, seen = 0, set()
    for start in squares:
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            x, y = stack.pop()
            size += 1
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in squares and near not in seen:
                    seen.add(near)
                    stack.append(near)
        best = max(best, size)
    return best


def expected(kind: RecipeKind, colour: Colour | None, wood: Woodland) -> tuple[int, int]:
    """The count a condition asks for, read off the woodland's squares, and its goal."""
    if kind is RecipeKind.ALL_FIVE:
        assert colour is not None
        return len(food(wood, colour)), 5
    if kind is RecipeKind.ALL_DICE:
        return sum(1 for s in wood.squares.values() if s.die is not None), 15
    if kind is RecipeKind.AWARD_WINNING:
        return sum(min(4, len(food(wood, c))) for c in Colour), 12
    return max(largest(food(wood, c)) for c in Colour), 3


def test_each_counted_recipe_s_progress_is_its_count_and_met_when_reached() -> None:
    rng = random.Random(7)
    numbers = sorted(RECIPES)
    checked = {kind: 0 for kind in COUNTED}
    reached = {kind: 0 for kind in COUNTED}
    for seed in range(60):
        pair = tuple(rng.sample(numbers, 2))
        deal = Deal.from_seed(seed, recipes=True)
        game = Game(Deal(cards=deal.cards, recipes=pair), standard_deck())
        while True:
            progress = game.recipe_progress()
            result = game.result()
            for recipe, count, met in zip(game.recipes, progress, result.recipes, strict=True):
                if recipe.kind not in COUNTED:
                    assert count is None
                    continue
                assert count is not None
                assert (count.have, count.need) == expected(
                    recipe.kind, recipe.colour, game.woodland
                )
                assert met.met == (count.have >= count.need)
                checked[recipe.kind] += 1
                reached[recipe.kind] += met.met
            if game.is_over():
                break
            outcomes = list(game.outcomes())
            greedy = max(outcomes, key=lambda o: o.score_change)
            game.push(greedy if seed % 2 else rng.choice(outcomes))
    assert all(checked[kind] > 20 for kind in COUNTED), checked
    assert reached[RecipeKind.EXTRA_SPECIAL] > 0 and reached[RecipeKind.ALL_FIVE] > 0


def test_progress_after_a_drop_is_worked_out_on_a_copy() -> None:
    game = Game(Deal(cards=Deal.from_seed(3).cards, recipes=(12, 9)), standard_deck())
    before = game.recipe_progress()
    outcome = max(game.outcomes(), key=lambda o: o.score_change)
    after = game.recipe_progress(outcome)
    assert game.recipe_progress() == before and not game.moves
    game.push(outcome)
    assert game.recipe_progress() == after
