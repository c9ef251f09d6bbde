"""The built-in deck (RULINGS R1, R2, R12, R17, R18) and its data file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from forage.carddata import parse_card_file, standard_deck
from forage.engine import Area, Card, Colour, RecipeKind, Rotation

DATA = Path(__file__).resolve().parents[1] / "data" / "cards.json"

# The rulebook's recipe list: number (draw order), name, target, bonus.
RULEBOOK = {
    1: ("Blackberry Liqueur", 24, 6),
    2: ("Chestnut Tart", 24, 6),
    3: ("Garlic Mushrooms", 24, 6),
    4: ("Blackberry Jam", 34, "x2"),
    5: ("Chestnut Spread", 34, "x2"),
    6: ("Pickled Mushrooms", 34, "x2"),
    7: ("Mushroom Risotto", 22, 5),
    8: ("Blackberry Cordial", 22, 5),
    9: ("Chestnut Flour", 22, 5),
    10: ("Homemade", 26, "x2"),
    11: ("Scrumptious", 19, 2),
    12: ("Grandma's", 20, 5),
    13: ("Chestnut Soup", 18, 1),
    14: ("Mushroom Soup", 18, 1),
    15: ("Blackberry Pie", 18, 1),
    16: ("Mouse-free", 18, 2),
    17: ("Award Winning", 21, 4),
    18: ("Extra Special", 20, 3),
}

# What each recipe's condition is about (R18).
KINDS = {
    1: (RecipeKind.EXACT_TEN, Colour.B),
    2: (RecipeKind.EXACT_TEN, Colour.C),
    3: (RecipeKind.EXACT_TEN, Colour.M),
    4: (RecipeKind.DOUBLE, Colour.B),
    5: (RecipeKind.DOUBLE, Colour.C),
    6: (RecipeKind.DOUBLE, Colour.M),
    7: (RecipeKind.ALL_FIVE, Colour.M),
    8: (RecipeKind.ALL_FIVE, Colour.B),
    9: (RecipeKind.ALL_FIVE, Colour.C),
    10: (RecipeKind.HOMEMADE, None),
    11: (RecipeKind.BASKET, None),
    12: (RecipeKind.ALL_DICE, None),
    13: (RecipeKind.FIRST_TURN, Colour.C),
    14: (RecipeKind.FIRST_TURN, Colour.M),
    15: (RecipeKind.FIRST_TURN, Colour.B),
    16: (RecipeKind.MOUSE_FREE, None),
    17: (RecipeKind.AWARD_WINNING, None),
    18: (RecipeKind.EXTRA_SPECIAL, None),
}


def cards() -> list[Card]:
    deck = standard_deck()
    return [deck[n] for n in deck.numbers]


def test_eighteen_cards_numbered_1_to_18() -> None:
    assert [c.number for c in cards()] == list(range(1, 19))
    assert len(standard_deck()) == 18


def test_each_card_has_one_split_and_five_food_areas() -> None:
    for c in cards():
        assert len(c.areas) == 6
        assert sum(not a.is_food for a in c.areas) == 1, c.number
        assert sum(a.is_food for a in c.areas) == 5, c.number


def test_each_food_type_fills_thirty_food_areas() -> None:
    food = Counter(a for c in cards() for a in c.areas if a.is_food)
    assert food == {Area.B: 30, Area.C: 30, Area.M: 30}


def test_each_split_pair_on_six_cards() -> None:
    splits = Counter(a for c in cards() for a in c.areas if not a.is_food)
    assert splits == {Area.BC: 6, Area.BM: 6, Area.CM: 6}


def test_every_card_shows_all_three_types() -> None:
    for c in cards():
        shown = {colour for a in c.areas for colour in a.colours}
        assert shown == {Colour.B, Colour.C, Colour.M}, c.number


def rotation_twins(deck: list[Card]) -> list[tuple[int, int]]:
    """Pairs of cards that look the same at some rotation.

    Quarter turns give a 3x2 shape, so two upright cards can only look alike at 0 or 180.
    """
    seen: dict[tuple[Area, ...], int] = {}
    twins = []
    for c in deck:
        looks = {tuple(area for _, _, area in c.footprint(r)) for r in (Rotation.R0, Rotation.R180)}
        for look in looks:
            if look in seen:
                twins.append((seen[look], c.number))
            seen[look] = c.number
    return twins


def test_no_two_cards_the_same_under_rotation() -> None:
    assert rotation_twins(cards()) == []


def test_rotation_twins_finds_a_half_turned_copy() -> None:
    c = cards()[0]
    half_turned = tuple(area for _, _, area in c.footprint(Rotation.R180))
    copy = Card(number=99, areas=half_turned)  # type: ignore[arg-type]
    assert rotation_twins([*cards(), copy]) != []


def test_split_area_sits_in_at_least_four_positions() -> None:
    positions = {next(i for i, a in enumerate(c.areas) if not a.is_food) for c in cards()}
    assert len(positions) >= 4


def test_recipes_match_the_rulebook() -> None:
    for c in cards():
        recipe = c.recipe
        assert recipe is not None
        name, target, bonus = RULEBOOK[c.number]
        assert (recipe.number, recipe.name, recipe.target, recipe.bonus) == (
            c.number,
            name,
            target,
            bonus,
        )
        assert (recipe.kind, recipe.colour) == KINDS[c.number]
        assert recipe.condition


def test_recipe_numbers_and_targets_in_deck_recipes() -> None:
    recipes = standard_deck().recipes()
    assert sorted(recipes) == list(range(1, 19))
    assert sum(r.target for r in recipes.values()) == sum(t for _, t, _ in RULEBOOK.values())


# -- the data file -----------------------------------------------------------------------------


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def test_data_file_parses_to_the_standard_deck() -> None:
    assert parse_card_file(DATA.read_text(encoding="utf-8")) == standard_deck()


def broken(change: str) -> str:
    data = raw()
    first = data["cards"][0]
    if change == "area":
        first["areas"][0] = "X"
    elif change == "reversed-split":
        first["areas"][3] = "CB"
    elif change == "five-areas":
        first["areas"] = first["areas"][:5]
    elif change == "number":
        first["number"] = 0
    elif change == "duplicate":
        data["cards"][1]["number"] = first["number"]
    elif change == "extra-key":
        first["colour"] = "B"
    elif change == "no-cards":
        del data["cards"]
    elif change == "bonus":
        first["recipe"]["bonus"] = "x3"
    elif change == "kind":
        first["recipe"]["kind"] = "tasty"
    elif change == "target-type":
        first["recipe"]["target"] = "many"
    elif change == "top-level-extra":
        data["extra"] = 1
    return json.dumps(data)


@pytest.mark.parametrize(
    "change",
    [
        "area",
        "reversed-split",
        "five-areas",
        "number",
        "duplicate",
        "extra-key",
        "no-cards",
        "bonus",
        "kind",
        "target-type",
        "top-level-extra",
    ],
)
def test_malformed_data_file_is_refused(change: str) -> None:
    with pytest.raises((ValidationError, ValueError)):
        parse_card_file(broken(change))


def test_data_file_that_is_not_json_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_card_file("{not json")


def test_broken_helper_really_changes_the_file() -> None:
    assert json.loads(broken("area")) != raw()
