"""Scoring and recipe challenges: RULINGS R15-R19, worked by hand."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers import base_of, dice_of, first_gathered, game_of, place, play, score_of, woodland

from forage.carddata import standard_deck
from forage.engine import Colour, Game, Woodland, rating

ALL_B = "B B B B B B"
RECIPES = standard_deck().recipes()

Cells = list[tuple[int, int, str, str | None]]


def bonus(numbers: Sequence[int], cells: Cells, first: Sequence[str] = ()) -> int:
    """The recipes' total bonus on a woodland."""
    result, _ = score_of(woodland(cells), [RECIPES[n] for n in numbers], [Colour(c) for c in first])
    return result.bonus


def met(number: int, cells: Cells, first: Sequence[str] = ()) -> tuple[bool, int]:
    """Whether one recipe is met on a woodland, and its bonus."""
    _, results = score_of(woodland(cells), [RECIPES[number]], [Colour(c) for c in first])
    (result,) = results
    assert result.number == number
    return result.met, result.bonus


def row(*dice: str | None, y: int = 0) -> Cells:
    """Dice left to right on row ``y``, each on a food area of its own colour (B if none)."""
    return [(x, y, d[0] if d and d != "E" else "B", d) for x, d in enumerate(dice)]


def stacked_game(path: Sequence[tuple[int, int]], recipes: tuple[int, int] | None = None) -> Game:
    """Five all-B cards, cards 2-5 placed upright at these positions."""
    game = game_of(*[ALL_B] * 5, recipes=recipes)
    for number, (x, y) in enumerate(path, start=2):
        play(game, place(number, x, y))
    assert game.is_finished()
    return game


# Worked by hand in test_r16: five B dice, 10 6 6 6 6 (34) and 10 10 6 6 3 (35).
PATH_34 = [(-1, -2)] * 4
PATH_35 = [(-1, -1), (-1, 0), (-1, -1), (-1, 0)]
PATH_50 = [(0, 0)] * 4

# -- R15 base score ----------------------------------------------------------------------------


def test_r15_sum_of_faces_and_a_mouse_counts_minus_two_once() -> None:
    result, _ = score_of(woodland(row("B10", "C3", "Mm")))
    assert (result.dice_total, result.mice, result.split_dice, result.edwood) == (11, 1, 0, False)
    assert result.base == 11  # not 9: the mouse face is the penalty
    assert result.final == result.base and result.bonus == 0


def test_r15_each_die_on_a_split_area_costs_one() -> None:
    cells: Cells = [(0, 0, "BC", "B3"), (1, 0, "CM", "Mm"), (2, 0, "BM", None), (3, 0, "C", "C6")]
    result, _ = score_of(woodland(cells))
    assert (result.dice_total, result.mice, result.split_dice) == (7, 1, 2)
    assert result.base == 7 - 2


def test_r15_edwood_costs_five() -> None:
    result, _ = score_of(woodland([*row("B6", "C1"), (0, 1, "M", "E")]))
    assert result.edwood
    assert result.base == 7 - 5
    assert base_of(woodland([*row("B6", "C1"), (0, 1, "M", "E")])) == 2


def test_r15_empty_woodland_scores_nothing() -> None:
    result, _ = score_of(woodland([(0, 0, "B", None), (1, 0, "BC", None)]))
    assert result.base == 0 and result.dice_total == 0


def test_r15_game_score_with_mice_split_dice_and_edwood() -> None:
    # Two B mice at (0,2), (1,2); Edwood on a C area at (1,0); B1 dice at (0,3), (1,3), (0,4);
    # then a BM split moves a B1 die up: 1 + 1 + 1 - 2 - 2 - 1 (split) - 5 (Edwood).
    game = game_of("C C C C C C", ALL_B, ALL_B, ALL_B, "BM B B B B B", ALL_B)
    play(game, place(2, 0, 2), place(3, 0, 3), place(4, 1, -2), place(5, 0, 4))
    result = game.score()
    assert (result.dice_total, result.mice, result.split_dice, result.edwood) == (-1, 2, 1, True)
    assert result.base == -1 - 1 - 5
    assert game.position.base == base_of(game.woodland) == result.base


# -- R16 rating --------------------------------------------------------------------------------

MUSH = "There's mush-room for improvement"
CHEST = "Chest-nut quite good enough"
TREE = "A satisfac-tree gathering"
BERRY = "A berry good harvest"
WOOD = "What a wood-erful haul!"
MOUSE = "It's unani-mouse: you're a fantastic forager!"


@pytest.mark.parametrize(
    ("points", "phrase"),
    [
        (-30, MUSH),
        (0, MUSH),
        (29, MUSH),
        (30, CHEST),
        (34, CHEST),
        (35, TREE),
        (39, TREE),
        (40, BERRY),
        (44, BERRY),
        (45, WOOD),
        (49, WOOD),
        (50, MOUSE),
        (200, MOUSE),
    ],
)
def test_r16_rating_boundaries(points: int, phrase: str) -> None:
    assert rating(points) == phrase


def test_r16_standard_game_of_35_is_a_win() -> None:
    # (0,0) and (0,1) are covered by all four cards: 1 3 6 10; (-1,0), (-1,1) by three: 1 3 6;
    # (0,2) by two: 1 3.
    game = stacked_game(PATH_35)
    result = game.result()
    assert sorted(d.value for _, d in dice_of(game.woodland)) == [3, 6, 6, 10, 10]
    assert result.score.base == 35
    assert result.rating == TREE
    assert result.finished and result.won is True


def test_r16_standard_game_of_34_is_not_a_win() -> None:
    # (0,0) is covered by all four cards: 1 3 6 10; four more dice come with card 3: 1 3 6.
    game = stacked_game(PATH_34)
    result = game.result()
    assert sorted(d.value for _, d in dice_of(game.woodland)) == [6, 6, 6, 6, 10]
    assert result.score.base == 34
    assert result.rating == CHEST
    assert result.won is False


def test_r16_unfinished_game_is_neither_won_nor_lost() -> None:
    game = game_of(*[ALL_B] * 5)
    play(game, place(2, 0, 0))
    assert game.result().won is None
    assert not game.result().finished


# -- R17 target --------------------------------------------------------------------------------


def test_r17_target_is_the_sum_of_the_recipe_targets() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B, recipes=(4, 11))
    assert game.result().target == 34 + 19
    assert [r.target for r in game.recipes] == [34, 19]
    assert game_of(ALL_B, ALL_B).result().target is None


def test_r17_reaching_the_target_exactly_wins() -> None:
    # 34 + Blackberry Pie 1 (first card placed B dice) + Extra Special 3 = 38 = 18 + 20.
    game = stacked_game(PATH_34, recipes=(15, 18))
    result = game.result()
    assert (result.score.base, result.score.bonus, result.score.final) == (34, 4, 38)
    assert [(r.met, r.bonus) for r in result.recipes] == [(True, 1), (True, 3)]
    assert result.target == 38
    assert result.won is True


def test_r17_one_short_of_the_target_loses_even_above_35() -> None:
    # 34 + Chestnut Soup 0 + Blackberry Pie 1 = 35 < 36; as a standard game 35 would win.
    game = stacked_game(PATH_34, recipes=(13, 15))
    result = game.result()
    assert result.score.final == 35
    assert result.target == 36
    assert result.won is False


def test_r17_final_is_base_plus_bonuses() -> None:
    # Blackberry Jam doubles B (50 more); Homemade doubles C or M, both 0.
    game = stacked_game(PATH_50, recipes=(4, 10))
    result = game.result()
    assert result.score.base == 50
    assert result.score.bonus == 50
    assert result.score.final == 100
    assert result.won is True


# -- R18 conditions ----------------------------------------------------------------------------

SAME_CASES = [
    # (recipe, woodland, first-turn colours, met, bonus)
    (1, row("B10"), (), True, 6),
    (1, row("B15", "B6", "C10", "M10"), (), False, 0),
    (2, row("C10"), (), True, 6),
    (2, row("C15", "B10"), (), False, 0),
    (3, row("M10", "M1"), (), True, 6),
    (3, row("M6", "M15"), (), False, 0),
    (4, row("B6", "Bm", "C3"), (), True, 4),
    (4, row("Bm", "C10"), (), True, -2),
    (4, row("C10"), (), True, 0),
    (5, row("C6", "C10", "Cm", "B3"), (), True, 14),
    (6, row("M15", "B3"), (), True, 15),
    (6, row("Mm", "Mm"), (), True, -4),
    (7, row("M1", "M3", "M6", "M10", "M15"), (), True, 5),
    (7, row("M1", "M3", "M6", "M10", "Mm"), (), False, 0),
    (7, row("M1", "M3", "M6", "M10", "B1"), (), False, 0),
    (8, row("B1", "B1", "B1", "B1", "B1"), (), True, 5),
    (8, row("B1", "B1", "B1", "Bm", "B1"), (), False, 0),
    (9, row("C1", "C1", "C3", "C1", "C1", "M1"), (), True, 5),
    (9, row("C1", "C1", "C1", "C1"), (), False, 0),
    (10, row("B10", "C3", "M6"), (), True, 3),
    (10, row("B10", "C3", "Mm"), (), True, -2),
    (10, row("B10", "C3"), (), True, 0),
    (11, row("B1", "C15"), (), True, 2),
    (11, row("B10", "C10", "M10"), (), False, 0),
    (13, row("B1"), ("C",), True, 1),
    (13, row("C10"), ("B", "M"), False, 0),
    (14, row("B1"), ("M",), True, 1),
    (14, row("M10"), ("C",), False, 0),
    (15, row("C1"), ("B", "C"), True, 1),
    (15, row("B10"), (), False, 0),
    (16, row("B1", "C3", "M6"), (), True, 2),
    (16, row("B1", "Cm"), (), False, 0),
    (16, [*row("B1", "C3"), (0, 1, "M", "E")], (), False, 0),
    (17, row("B1", "B1", "B1", "B1", "C1", "C1", "C1", "C1", "M1", "M1", "M1", "M1"), (), True, 4),
    (17, row("B1", "B1", "B1", "B1", "C1", "C1", "C1", "C1", "M1", "M1", "M1"), (), False, 0),
    (17, row("B1", "B1", "B1", "Bm", "C1", "C1", "C1", "C1", "M1", "M1", "M1", "M1"), (), False, 0),
]


@pytest.mark.parametrize(("number", "cells", "first", "is_met", "points"), SAME_CASES)
def test_r18_recipe_condition(
    number: int, cells: Cells, first: tuple[str, ...], is_met: bool, points: int
) -> None:
    assert met(number, cells, first) == (is_met, points)


def test_r18_every_recipe_has_cases_met_and_not_met() -> None:
    covered = {(number, is_met) for number, _, _, is_met, _ in SAME_CASES}
    covered |= {(12, True), (12, False), (18, True), (18, False)}  # tested below
    doublings = {4, 5, 6, 10}  # always met (R18)
    for number in range(1, 19):
        assert (number, True) in covered
        assert number in doublings or (number, False) in covered


def fifteen(*, mice: int = 0, missing: int = 0) -> Cells:
    """All 15 dice on three rows, ``mice`` of them mice, ``missing`` left in the supply."""
    cells: Cells = []
    for y, colour in enumerate("BCM"):
        for x in range(5):
            cells.append((x, y, colour, f"{colour}1"))
    for i in range(mice):
        x, y, area, _ = cells[i * 4]
        cells[i * 4] = (x, y, area, f"{area}m")
    return cells[missing:]


def test_r18_grandmas_all_fifteen_dice_any_faces() -> None:
    assert met(12, fifteen()) == (True, 5)
    assert met(12, fifteen(mice=3)) == (True, 5)
    assert met(12, fifteen(missing=1)) == (False, 0)


def test_r18_extra_special_three_connected_food_dice_of_one_colour() -> None:
    l_shape: Cells = [(0, 0, "B", "B1"), (1, 0, "B", "B3"), (1, 1, "BC", "B6")]
    assert met(18, l_shape) == (True, 3)
    line: Cells = [(0, 5, "M", "M1"), (0, 6, "M", "M1"), (0, 7, "M", "M1")]
    assert met(18, line) == (True, 3)


@pytest.mark.parametrize(
    "cells",
    [
        [(0, 0, "B", "B1"), (1, 1, "B", "B1"), (2, 2, "B", "B1")],  # diagonal only
        [(0, 0, "B", "B1"), (1, 0, "B", "Bm"), (2, 0, "B", "B1")],  # a mouse breaks it
        [(0, 0, "B", "B1"), (1, 0, "C", "C1"), (2, 0, "B", "B1")],  # other colour between
        [(0, 0, "B", "B1"), (1, 0, "B", None), (2, 0, "B", "B1")],  # empty area between
        [(0, 0, "B", "B1"), (1, 0, "B", "B1"), (0, 1, "C", "C1"), (1, 1, "C", "C1")],  # two pairs
        [(0, 0, "B", "B1"), (2, 0, "B", "B1"), (4, 0, "B", "B1")],  # gaps
    ],
)
def test_r18_extra_special_not_met(cells: Cells) -> None:
    assert met(18, cells) == (False, 0)


def test_r18_gather_on_first_turn_counts_only_the_first_card() -> None:
    # Turn 1 places B dice, turn 2 places C dice: Blackberry Pie yes, Chestnut Soup no.
    game = game_of("B B B B C C", ALL_B, "C C C C C C", ALL_B, recipes=(15, 13))
    play(game, place(2, 0, -2), place(3, 0, 2))
    assert first_gathered(game.position) == (Colour.B,)
    assert [str(d) for _, d in sorted(dice_of(game.woodland))] == ["B1", "C1", "B1", "C1"]
    assert first_gathered(game.position) == (Colour.B,)
    assert [(r.name, r.met) for r in game.result().recipes] == [
        ("Blackberry Pie", True),
        ("Chestnut Soup", False),
    ]


def test_r18_gather_on_first_turn_mice_do_not_count() -> None:
    # The first card puts only C mice (and Edwood) on bare B areas.
    game = game_of(ALL_B, "C C C C C C", ALL_B, recipes=(13, 15))
    play(game, place(2, 0, 0))
    assert first_gathered(game.position) == ()
    assert [r.met for r in game.result().recipes] == [False, False]


def test_r18_gather_on_first_turn_follows_undo() -> None:
    game = game_of(ALL_B, "C C C C C C", "B B B B B C", recipes=(13, 15))
    play(game, place(2, 1, 2))  # a C mouse at (1,2): nothing gathered
    game.pop()
    play(game, place(3, 0, 0))  # five B dice
    assert first_gathered(game.position) == (Colour.B,)
    assert [r.met for r in game.result().recipes] == [False, True]


def test_r18_first_turn_gather_reports_each_colour() -> None:
    game = game_of("B C M B C M", "B C M B C M", ALL_B)
    outcome = game.push(place(2, 0, 0))
    assert set(outcome.gathered) == {Colour.B, Colour.C, Colour.M}


# -- R19 two recipes ---------------------------------------------------------------------------


def test_r19_point_bonuses_add() -> None:
    cells = row("B10", "C15")
    assert bonus([1, 11], cells) == 6 + 2
    assert bonus([1, 2], cells) == 6  # Chestnut Tart not met: adds nothing


def test_r19_doublings_of_different_colours_each_double() -> None:
    cells = row("B6", "C10", "M15")
    assert bonus([4, 6], cells) == 6 + 15
    assert bonus([5, 4], cells) == 10 + 6


@pytest.mark.parametrize("order", [(4, 10), (10, 4)])
def test_r19_same_colour_doubled_twice_counts_four_times(order: tuple[int, int]) -> None:
    # B is the lowest colour before any bonus (6 < 10 < 15), so Blackberry Jam and Homemade
    # both double it: B counts 4 x 6 = 24, a bonus of 18. (Choosing the lowest after Jam's
    # doubling would pick C and give 6 + 10 = 16.)
    assert bonus(order, row("B6", "C10", "M15")) == 18


def test_r19_homemade_and_point_bonus_add() -> None:
    assert bonus([10, 11], row("B15", "C3", "M6")) == 3 + 2


def test_r19_homemade_lowest_total_includes_mice() -> None:
    # B: 6 - 2 - 2 = 2 is lower than C's 3 once mice count.
    assert bonus([10], [*row("B6", "Bm", "Bm"), *row("C3", "M6", y=1)]) == 2
    # A colour with no dice in the woodland totals 0.
    assert bonus([10], row("B6", "C3")) == 0


def test_r19_homemade_tie_gives_the_same_amount() -> None:
    assert bonus([10], row("B3", "C3", "M6")) == 3
    assert bonus([10, 5], row("B3", "C3", "M6")) == 3 + 3


def test_r19_game_result_lists_both_recipes() -> None:
    game = stacked_game(PATH_50, recipes=(1, 11))
    results = game.result().recipes
    assert [(r.number, r.name, r.met, r.bonus) for r in results] == [
        (1, "Blackberry Liqueur", True, 6),
        (11, "Scrumptious", False, 0),
    ]


def test_helper_woodland_builds_what_it_says() -> None:
    built: Woodland = woodland([(0, 0, "BC", "Cm"), (1, 0, "B", "E")])
    assert built[(0, 0)].die is not None and built[(0, 0)].die.mouse
    assert built[(1, 0)].edwood and built[(1, 0)].die is None
