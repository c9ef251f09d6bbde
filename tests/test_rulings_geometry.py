"""Cards and geometry: RULINGS R1-R6, checked on hand-worked examples."""

from __future__ import annotations

import pytest
from helpers import card, dice_of, die_at, game_of, place, play, supply_of
from pydantic import ValidationError

from forage.engine import ROTATIONS, Area, Card, Colour, Effect, Reason, Rotation
from forage.engine.areas import rotate_cell

# A card whose six areas are all different, so every area can be followed through a turn.
MIXED = "B C M BC BM CM"


# -- R1 areas ----------------------------------------------------------------------------------


def test_r1_areas_are_listed_row_by_row_left_to_right() -> None:
    c = card(1, MIXED)
    assert c.footprint(Rotation.R0) == (
        (0, 0, Area.B),
        (1, 0, Area.C),
        (0, 1, Area.M),
        (1, 1, Area.BC),
        (0, 2, Area.BM),
        (1, 2, Area.CM),
    )
    assert c.size(Rotation.R0) == (2, 3)


def test_r1_a_card_has_exactly_six_areas() -> None:
    with pytest.raises(ValidationError):
        Card(number=1, areas=("B", "B", "B", "B", "B"))  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Card(number=1, areas=("B",) * 7)  # type: ignore[arg-type]


def test_r1_food_areas_have_one_type_split_areas_two() -> None:
    assert [a.is_food for a in Area] == [True, True, True, False, False, False]
    assert all(len(a.colours) == (1 if a.is_food else 2) for a in Area)


# -- R2 types ----------------------------------------------------------------------------------


def test_r2_type_letters_and_split_codes_in_bcm_order() -> None:
    assert [c.value for c in Colour] == ["B", "C", "M"]
    assert Area("BC").colours == (Colour.B, Colour.C)
    assert Area("BM").colours == (Colour.B, Colour.M)
    assert Area("CM").colours == (Colour.C, Colour.M)
    for wrong in ("CB", "MB", "MC", "BB", "X", ""):
        with pytest.raises(ValueError):
            Area(wrong)


def test_r2_card_refuses_unknown_area_codes() -> None:
    with pytest.raises(ValidationError):
        Card(number=1, areas=("B", "B", "B", "B", "B", "CB"))  # type: ignore[arg-type]


# -- R3 rotation -------------------------------------------------------------------------------

# The ruling's table worked by hand for every upright cell.
R3_TABLE = {
    Rotation.R0: {(0, 0): (0, 0), (1, 0): (1, 0), (0, 1): (0, 1), (1, 1): (1, 1)},
    Rotation.R90: {(0, 0): (2, 0), (1, 0): (2, 1), (0, 1): (1, 0), (1, 1): (1, 1), (0, 2): (0, 0)},
    Rotation.R180: {(0, 0): (1, 2), (1, 0): (0, 2), (0, 1): (1, 1), (1, 2): (0, 0)},
    Rotation.R270: {(0, 0): (0, 1), (1, 0): (0, 0), (0, 1): (1, 1), (0, 2): (2, 1), (1, 2): (2, 0)},
}


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_r3_rotate_cell_follows_the_table(rotation: Rotation) -> None:
    for (c, r), expected in R3_TABLE[rotation].items():
        assert rotate_cell(c, r, rotation) == expected


def test_r3_footprints_of_a_mixed_card_worked_by_hand() -> None:
    c = card(1, MIXED)
    assert c.footprint(Rotation.R90) == (
        (0, 0, Area.BM),
        (1, 0, Area.M),
        (2, 0, Area.B),
        (0, 1, Area.CM),
        (1, 1, Area.BC),
        (2, 1, Area.C),
    )
    assert c.footprint(Rotation.R180) == (
        (0, 0, Area.CM),
        (1, 0, Area.BM),
        (0, 1, Area.BC),
        (1, 1, Area.M),
        (0, 2, Area.C),
        (1, 2, Area.B),
    )
    assert c.footprint(Rotation.R270) == (
        (0, 0, Area.C),
        (1, 0, Area.BC),
        (2, 0, Area.CM),
        (0, 1, Area.B),
        (1, 1, Area.M),
        (2, 1, Area.BM),
    )


def test_r3_quarter_turns_are_three_wide_two_tall() -> None:
    c = card(1, MIXED)
    assert c.size(Rotation.R90) == c.size(Rotation.R270) == (3, 2)
    assert c.size(Rotation.R180) == (2, 3)
    for rotation in ROTATIONS:
        width, height = c.size(rotation)
        cells = {(dx, dy) for dx, dy, _ in c.footprint(rotation)}
        assert cells == {(x, y) for x in range(width) for y in range(height)}


def test_r3_rotation_turns_clockwise_and_back() -> None:
    assert Rotation.R0.turned() is Rotation.R90
    assert Rotation.R270.turned() is Rotation.R0
    assert Rotation.R0.turned(clockwise=False) is Rotation.R270
    for rotation in ROTATIONS:
        assert rotation.turned().turned(clockwise=False) is rotation


# -- R4 woodland grid --------------------------------------------------------------------------


def test_r4_starting_card_lies_upright_at_origin() -> None:
    game = game_of(MIXED, "B B B B B B", "B B B B B B")
    areas = {pos: sq.area.value for pos, sq in game.woodland.squares.items()}
    assert areas == {
        (0, 0): "B",
        (1, 0): "C",
        (0, 1): "M",
        (1, 1): "BC",
        (0, 2): "BM",
        (1, 2): "CM",
    }
    assert all(sq.card == 1 for sq in game.woodland.squares.values())


def test_r4_placement_is_top_left_of_rotated_card_and_may_be_negative() -> None:
    # Card 2 at 90 degrees with its top-left at (-2, -1): its areas land at (-2..0, -1..0).
    game = game_of("B B B B B B", MIXED, "B B B B B B")
    play(game, place(2, -2, -1, 90))
    expected = {
        (-2, -1): "BM",
        (-1, -1): "M",
        (0, -1): "B",
        (-2, 0): "CM",
        (-1, 0): "BC",
        (0, 0): "C",
    }
    for pos, area in expected.items():
        assert game.woodland[pos].area.value == area
        assert game.woodland[pos].card == 2
    assert game.woodland.bounds() == (-2, -1, 1, 2)


# -- R5 overlap --------------------------------------------------------------------------------


@pytest.mark.parametrize(("x", "y", "rotation"), [(2, 0, 0), (0, 3, 0), (-2, 0, 0), (0, -2, 90)])
def test_r5_touching_is_not_overlapping(x: int, y: int, rotation: int) -> None:
    game = game_of("B B B B B B", "B B B B B B", "B B B B B B")
    before = game.position
    outcome = game.push(place(2, x, y, rotation))
    assert outcome.reason is Reason.NO_OVERLAP
    assert game.position == before
    assert game.moves == []


def test_r5_one_covered_area_is_enough_and_the_rest_join_without_dice() -> None:
    game = game_of("B B B B B B", "B B B B B B", "B B B B B B")
    # Only the card's top-left area covers (1, 2); five areas lie on empty table.
    play(game, place(2, 1, 2))
    assert die_at(game, 1, 2) == "B1"
    for pos in [(2, 2), (1, 3), (2, 3), (1, 4), (2, 4)]:
        assert game.woodland[pos].card == 2
        assert die_at(game, *pos) is None
    assert len(game.woodland) == 11
    assert supply_of(game) == (4, 5, 5, True)


def test_r5_outcome_reports_new_areas() -> None:
    game = game_of("B B B B B B", "B B B B B B", "B B B B B B")
    outcome = game.outcome(place(2, 1, 2))
    assert [e.effect for e in outcome.effects] == [Effect.PLACED] + [Effect.NEW] * 5
    assert all(e.below is None for e in outcome.effects[1:])


# -- R6 dice live on top -----------------------------------------------------------------------


def test_r6_covering_moves_the_die_up_and_the_covered_area_is_gone() -> None:
    game = game_of("B B B B B B", "B B B B B B", "B B B B B B")
    play(game, place(2, 0, 0))
    assert die_at(game, 0, 0) == "B1"
    play(game, place(3, 0, 1))
    # (0,1) was card 2's area with B1: the die went up onto card 3, raised.
    assert game.woodland[(0, 1)].card == 3
    assert die_at(game, 0, 1) == "B3"
    # Card 2 is still the top at (0,0) with its die; no square holds two areas or two dice.
    assert game.woodland[(0, 0)].card == 2
    assert die_at(game, 0, 0) == "B1"
    assert len(game.woodland) == 8
    on_table = sum(1 for _ in dice_of(game.woodland))
    assert on_table + game.supply.B == 5


def test_r6_covering_returns_an_unmatched_die() -> None:
    game = game_of("B B B B B B", "B B B B B B", "C C C C C C")
    play(game, place(2, 0, 0))
    assert supply_of(game) == (0, 5, 5, True)
    play(game, place(3, 0, 1))
    # Three B dice covered by C areas went back; four C mice stand on top (one on a bare area).
    assert [die_at(game, x, y) for x, y in [(0, 1), (1, 1), (0, 2), (1, 2)]] == ["Cmouse"] * 4
    assert supply_of(game) == (3, 1, 5, True)
    dice = {pos: str(d) for pos, d in dice_of(game.woodland)}
    assert dice == {
        (0, 0): "B1",
        (1, 0): "B1",
        (0, 1): "Cmouse",
        (1, 1): "Cmouse",
        (0, 2): "Cmouse",
        (1, 2): "Cmouse",
    }
