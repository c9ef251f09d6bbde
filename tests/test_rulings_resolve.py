"""Resolving a placement: RULINGS R7-R11, every branch worked by hand on custom decks.

Pictures in the comments show the woodland as ``area:die`` with ``-`` for no die,
``m`` for a mouse die and ``E`` for Edwood; x grows right, y grows down.
"""

from __future__ import annotations

import pytest
from helpers import base_of, die_at, edwood_of, game_of, place, play, supply_of

from forage.engine import Area, Effect, Game, Placement, Reason

ALL_B = "B B B B B B"
ALL_C = "C C C C C C"
ALL_M = "M M M M M M"


def refused(game: Game, placement: Placement, reason: Reason) -> None:
    """Assert a placement is refused with this reason and changes nothing."""
    before = game.position
    moves = list(game.moves)
    outcome = game.push(placement)
    assert outcome.reason is reason
    assert not outcome.legal
    assert game.position == before
    assert game.moves == moves


def edwood_on_table(fifth: str = ALL_B, sixth: str = ALL_B) -> Game:
    """B supply empty, Edwood used at (1,0), B mice at (0,2) and (1,2); hand is cards 5, 6.

    ::

              x=0     x=1     x=2
        y=-2  .       B:-     B:-
        y=-1  .       B:-     B:-
        y=0   C:-     B:E     B:-
        y=1   C:-     C:-     .
        y=2   B:Bm    B:Bm    .
        y=3   B:B1    B:B1    .
        y=4   B:B1    B:-     .
        y=5   B:-     B:-     .
    """
    game = game_of(ALL_C, ALL_B, ALL_B, ALL_B, fifth, sixth)
    play(game, place(2, 0, 2), place(3, 0, 3))
    assert supply_of(game) == (0, 5, 5, True)
    play(game, place(4, 1, -2))
    assert die_at(game, 1, 0) == "E"
    assert supply_of(game) == (0, 5, 5, False)
    return game


def edwood_free_b_empty(*extra: str) -> Game:
    """B supply empty and Edwood still to hand; B mice at (0,0) and (1,0).

    ::

        y=-3  B:-     B:-
        y=-2  B:B1    B:B1
        y=-1  B:B1    B:-
        y=0   B:Bm    B:Bm
        y=1   C:-     C:-
        y=2   C:-     C:-

    The hand is cards 4 and 5, ``extra`` (default all-B cards).
    """
    rest = list(extra) + [ALL_B] * (2 - len(extra))
    game = game_of(ALL_C, ALL_B, ALL_B, *rest)
    play(game, place(2, 0, -2), place(3, 0, -3))
    assert supply_of(game) == (0, 5, 5, True)
    return game


def mice_above_edwood() -> Game:
    """B mice at (0,1), (1,1), (0,2) and Edwood at (1,2); hand is cards 4 (all C), 5 (all B).

    ::

        y=0   M:-     M:-     .
        y=1   B:Bm    B:Bm    .
        y=2   B:Bm    B:E     B:-
        y=3   B:-     B:B1    B:-
        y=4   .       B:-     B:-
    """
    game = game_of(ALL_M, ALL_B, ALL_B, ALL_C, ALL_B)
    play(game, place(2, 0, 1), place(3, 1, 2))
    assert die_at(game, 1, 2) == "E"
    assert supply_of(game) == (1, 5, 5, False)
    return game


# -- R7 ----------------------------------------------------------------------------------------


def bm_holding_green(last: str) -> Game:
    """A BM split area at (0,0) holding a green (B) die; the hand holds ``last``."""
    game = game_of(ALL_B, ALL_B, "BM B B B B B", last, ALL_B)
    play(game, place(2, 0, 0), place(3, 0, 0))
    assert game.woodland[(0, 0)].area is Area.BM
    assert die_at(game, 0, 0) == "B1"
    assert game.hand == (4, 5)
    return game


def test_r7_split_area_holding_green_die_is_green_only() -> None:
    game = bm_holding_green("M B B B B B")
    position = play(game, place(4, 0, 0)).position
    # Brown on a BM area with a green die does not match: the die goes back, a mouse comes.
    assert die_at(game, 0, 0) == "Mmouse"
    assert supply_of(game) == (1, 5, 4, True)
    assert position.base == 6 * 4 - 2


def test_r7_split_area_holding_green_die_matches_green() -> None:
    game = bm_holding_green("B B B B B B")
    outcome = game.push(place(4, 0, 0))
    assert outcome.effects[0].effect is Effect.RAISED
    assert die_at(game, 0, 0) == "B3"


def test_r7_bare_split_area_counts_as_both_types() -> None:
    for letter in ("B", "M"):
        game = game_of("BM B B B B B", f"{letter} B B B B B", ALL_B)
        outcome = game.push(place(2, 0, 0))
        assert outcome.effects[0].effect is Effect.PLACED
        assert die_at(game, 0, 0) == f"{letter}1"


def test_r7_bare_split_area_does_not_match_its_missing_type() -> None:
    game = game_of("BM B B B B B", "C B B B B B", ALL_B)
    play(game, place(2, 0, 0))
    assert die_at(game, 0, 0) == "Cmouse"


def test_r7_food_die_counts_as_its_colour_not_the_area_below() -> None:
    # A B area showing a B die is covered by a BM split: shares B, the die moves up.
    game = game_of(ALL_B, ALL_B, "BM B B B B B")
    play(game, place(2, 0, 0))
    outcome = game.push(place(3, 0, 0))
    assert outcome.effects[0].effect is Effect.MOVED
    assert die_at(game, 0, 0) == "B1"


# -- R8a ---------------------------------------------------------------------------------------


def test_r8a_new_die_at_1_on_matching_empty_area() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B)
    outcome = game.push(place(2, 0, 2))
    assert [e.effect for e in outcome.effects[:2]] == [Effect.PLACED, Effect.PLACED]
    assert die_at(game, 0, 2) == die_at(game, 1, 2) == "B1"
    assert supply_of(game) == (3, 5, 5, True)
    assert outcome.gathered == ("B",)


def test_r8a_raise_steps_1_3_6_10_15_and_15_stays_15() -> None:
    game = game_of(*[ALL_B] * 8)
    seen = []
    for number in range(2, 9):
        play(game, place(number, 0, 0))
        seen.append(die_at(game, 0, 0))
        assert game.supply.B == 0
    assert seen == ["B1", "B3", "B6", "B10", "B15", "B15", "B15"]


def test_r8a_raise_reports_the_effect() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B)
    play(game, place(2, 0, 0))
    outcome = game.outcome(place(3, 0, 0))
    assert [e.effect for e in outcome.effects] == [Effect.RAISED] * 5 + [Effect.NO_DIE_LEFT]
    assert [str(e.die) for e in outcome.effects[:5]] == ["B3"] * 5
    assert outcome.score_change == 10


def test_r8a_supply_empty_places_no_die() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B)
    outcome = game.push(place(2, 0, 0))
    # Six matching B areas but five B dice: the sixth in area order gets none.
    assert outcome.effects[5].effect is Effect.NO_DIE_LEFT
    assert die_at(game, 1, 2) is None
    assert [die_at(game, x, y) for y in range(3) for x in range(2)][:5] == ["B1"] * 5
    assert supply_of(game) == (0, 5, 5, True)


def test_r8a_food_die_only_of_the_new_areas_colour() -> None:
    # A C area on a bare split BC: a C die (orange), not B.
    game = game_of("BC B B B B B", "C B B B B B", ALL_B)
    play(game, place(2, 0, 0))
    assert die_at(game, 0, 0) == "C1"


# -- R8b ---------------------------------------------------------------------------------------


def test_r8b_split_on_matching_die_moves_it_unchanged() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B, "B B BC B B B", ALL_B)
    play(game, place(2, 0, 0), place(3, 0, 0))
    assert die_at(game, 0, 1) == "B3"
    outcome = game.push(place(4, 0, 0))
    assert outcome.effects[2].effect is Effect.MOVED
    assert str(outcome.effects[2].die) == "B3"
    assert die_at(game, 0, 1) == "B3"
    assert game.woodland[(0, 1)].area is Area.BC
    assert supply_of(game) == (0, 5, 5, True)


def test_r8b_split_on_matching_empty_area_does_nothing() -> None:
    game = game_of(ALL_C, "BC C C C C C", ALL_C)
    outcome = game.push(place(2, 0, 0))
    assert outcome.effects[0].effect is Effect.NOTHING
    assert die_at(game, 0, 0) is None
    assert supply_of(game) == (5, 0, 5, True)


# -- R8c ---------------------------------------------------------------------------------------


def test_r8c_mismatch_returns_die_and_places_mouse() -> None:
    game = game_of(ALL_B, ALL_B, "C B B B B B")
    play(game, place(2, 0, 0))
    outcome = game.push(place(3, 0, 0))
    first = outcome.effects[0]
    assert first.effect is Effect.MOUSE
    assert str(first.returned) == "B1"
    assert str(first.die) == "Cmouse"
    assert die_at(game, 0, 0) == "Cmouse"
    assert supply_of(game) == (1, 4, 5, True)


def test_r8c_mismatch_on_empty_area_places_mouse() -> None:
    game = game_of(ALL_M, ALL_B, ALL_B)
    outcome = game.push(place(2, 0, 2))
    assert [e.effect for e in outcome.effects[:2]] == [Effect.MOUSE, Effect.MOUSE]
    assert all(e.returned is None for e in outcome.effects)
    assert die_at(game, 0, 2) == die_at(game, 1, 2) == "Bmouse"
    assert supply_of(game) == (3, 5, 5, True)


def split_mouse(start: str, split: str, first: str | None = None) -> Game:
    """A split area (card 3's bottom-right) placed alone on the start card's (0,0).

    With ``first``, card 2 is played at (0,2) before (to change the supply).
    """
    game = game_of(start, first or ALL_B, f"B B B B B {split}", ALL_B)
    if first is not None:
        play(game, place(2, 0, 2))
    return game


@pytest.mark.parametrize(
    ("start", "split", "colour"),
    [(ALL_M, "BC", "B"), (ALL_B, "CM", "C"), (ALL_C, "BM", "B")],
)
def test_r8c_split_mouse_tie_goes_b_before_c_before_m(start: str, split: str, colour: str) -> None:
    game = split_mouse(start, split)
    outcome = game.push(place(3, -1, -2))
    assert outcome.effects[5].effect is Effect.MOUSE
    assert die_at(game, 0, 0) == f"{colour}mouse"
    assert (0, 0) in outcome.mouse_choice_possible


def test_r8c_split_mouse_default_colour_with_more_dice_left() -> None:
    # Two B mice leave B at 3: a BC split on bare M takes C (5 left).
    game = split_mouse(ALL_M, "BC", first=ALL_B)
    assert supply_of(game) == (3, 5, 5, True)
    play(game, place(3, -1, -2))
    assert die_at(game, 0, 0) == "Cmouse"
    # Two C mice leave C at 3: the same split takes B.
    game = split_mouse(ALL_M, "BC", first=ALL_C)
    assert supply_of(game) == (5, 3, 5, True)
    play(game, place(3, -1, -2))
    assert die_at(game, 0, 0) == "Bmouse"


def test_r8c_split_mouse_default_counts_dice_returned_by_the_placement() -> None:
    # B supply empty. Card 3's BM split at (0,0) mismatches a C die; its five M areas send
    # five B dice back first (R9), so at the split B and M both have 5: the tie gives B.
    game = game_of("C B B B B B", "C B B B B B", "BM M M M M M")
    play(game, place(2, 0, 0))
    assert supply_of(game) == (0, 4, 5, True)
    play(game, place(3, 0, 0))
    assert die_at(game, 0, 0) == "Bmouse"
    assert [die_at(game, x, y) for y in range(3) for x in range(2)][1:] == ["Mmouse"] * 5
    assert supply_of(game) == (4, 5, 0, True)


@pytest.mark.parametrize("colour", ["B", "C"])
def test_r8c_split_mouse_chosen_colour(colour: str) -> None:
    game = split_mouse(ALL_M, "BC", first=ALL_B)
    outcome = game.push(place(3, -1, -2, mouse={(0, 0): colour}))
    assert outcome.legal
    assert die_at(game, 0, 0) == f"{colour}mouse"


def test_r8c_edwood_when_supply_lacks_the_colour() -> None:
    game = game_of(ALL_M, ALL_B, ALL_B)
    outcome = game.push(place(2, 0, 0))
    assert [e.effect for e in outcome.effects] == [Effect.MOUSE] * 5 + [Effect.EDWOOD]
    assert die_at(game, 1, 2) == "E"
    assert supply_of(game) == (0, 5, 5, False)


def test_r8c_split_takes_other_colour_before_edwood() -> None:
    # B supply empty: a BM split on bare C takes an M mouse, Edwood stays to hand.
    game = edwood_free_b_empty("B BM B B B B")
    outcome = game.push(place(4, -1, 2))
    assert [e.below is not None for e in outcome.effects] == [False, True] + [False] * 4
    assert die_at(game, 0, 2) == "Mmouse"
    assert supply_of(game) == (0, 5, 4, True)


def test_r8c_split_gets_edwood_when_supply_has_neither_colour() -> None:
    # B runs out on cards 2 and 3, C on cards 4 (one mouse) and 5 (four dice); then card 6's
    # BC split lands alone on bare M at (0,0).
    game = game_of("M M B B B B", ALL_B, ALL_B, ALL_C, ALL_C, "B B B B B BC", ALL_B)
    play(game, place(2, 0, 1), place(3, 0, 2), place(4, 1, 4), place(5, 1, 5))
    assert supply_of(game) == (0, 0, 5, True)
    assert die_at(game, 0, 0) is None
    refused(game, place(6, -1, -2, mouse={(0, 0): "C"}), Reason.BAD_MOUSE_COLOUR)
    outcome = game.push(place(6, -1, -2))
    assert outcome.effects[5].effect is Effect.EDWOOD
    assert die_at(game, 0, 0) == "E"
    assert supply_of(game) == (0, 0, 5, False)


def test_r8c_illegal_when_no_mouse_die_and_edwood_used() -> None:
    game = edwood_on_table()
    # Card 5's bottom-right B area on bare C (0,0): needs a B mouse; none, Edwood used.
    refused(game, place(5, -1, -2), Reason.NO_MOUSE_DIE)


# -- R8d ---------------------------------------------------------------------------------------


def two_b_mice(third: str, fourth: str = ALL_B) -> Game:
    """B mice at (0,2) and (1,2) under bare M above and bare B below; B supply 3."""
    game = game_of(ALL_M, ALL_B, third, fourth)
    play(game, place(2, 0, 2))
    assert die_at(game, 0, 2) == die_at(game, 1, 2) == "Bmouse"
    return game


def test_r8d_edwood_covers_mouse_and_returns_it() -> None:
    game = two_b_mice(ALL_B)
    outcome = game.push(place(3, 1, 2))
    assert outcome.effects[0].effect is Effect.EDWOOD
    assert str(outcome.effects[0].returned) == "Bmouse"
    assert die_at(game, 1, 2) == "E"
    # (1,3) and (1,4) got new B dice from the supply (3 -> 1), then the mouse came back.
    assert die_at(game, 1, 3) == die_at(game, 1, 4) == "B1"
    assert supply_of(game) == (2, 5, 5, False)
    assert game.position.base == base_of(game.woodland) == -2 + 1 + 1 - 5


def test_r8d_split_sharing_the_mouse_colour_may_use_edwood() -> None:
    game = two_b_mice("BC C C C C C")
    outcome = game.push(place(3, 1, 2))
    assert outcome.legal
    assert die_at(game, 1, 2) == "E"


def test_r8d_covers_mouse_when_colour_not_shared() -> None:
    for areas in (ALL_C, "CM B B B B B"):
        game = two_b_mice(areas)
        refused(game, place(3, 1, 2), Reason.COVERS_MOUSE)


def test_r8d_mouse_on_a_split_area_has_its_own_colour_only() -> None:
    # A BM split on bare C takes a B mouse (tie). An M area shares the split's M but not the
    # mouse's B: refused. A B area may cover it with Edwood.
    game = game_of(ALL_C, "B B B B B BM", ALL_M, ALL_B)
    play(game, place(2, -1, -2))
    assert game.woodland[(0, 0)].area is Area.BM
    assert die_at(game, 0, 0) == "Bmouse"
    refused(game, place(3, 0, 0), Reason.COVERS_MOUSE)
    outcome = game.push(place(4, 0, 0))
    assert outcome.effects[0].effect is Effect.EDWOOD
    assert die_at(game, 0, 0) == "E"


def test_r8d_edwood_used_already() -> None:
    game = edwood_on_table()
    # Card 5 covers the B mouse at (0,2) with a B area; Edwood stands at (1,0) already.
    refused(game, place(5, -1, 2), Reason.EDWOOD_USED)


def test_r8d_edwood_needed_twice_in_one_placement() -> None:
    game = two_b_mice(ALL_B)
    refused(game, place(3, 0, 2), Reason.EDWOOD_USED)


# -- R8e ---------------------------------------------------------------------------------------


def test_r8e_covers_edwood() -> None:
    game = edwood_on_table()
    refused(game, place(5, 1, -1), Reason.COVERS_EDWOOD)
    # Even an area of a type that would match the area below.
    refused(game, place(5, 0, 0), Reason.COVERS_EDWOOD)


# -- R9 ----------------------------------------------------------------------------------------


def test_r9_returned_dice_feed_mice_of_the_same_placement() -> None:
    # B supply empty. Card 3's B area at (0,0) needs a B mouse before, in area order, its M
    # area at (1,0) sends a B die back. Returns come first, so the mouse is a die, not Edwood.
    game = game_of("C B B B B B", "C B B B B B", "B M B B B B")
    play(game, place(2, 0, 0))
    assert supply_of(game) == (0, 4, 5, True)
    play(game, place(3, 0, 0))
    assert die_at(game, 0, 0) == "Bmouse"
    assert die_at(game, 1, 0) == "Mmouse"
    assert supply_of(game) == (0, 5, 4, True)


def test_r9_returned_dice_do_not_feed_new_food_dice() -> None:
    # B supply empty. The C area at (0,0) sends a B die back before (1,2) asks for a new B
    # die, but matches come first: (1,2) gets none and the returned die stays in the supply.
    game = game_of(ALL_B, ALL_B, "C B B B B B")
    play(game, place(2, 0, 0))
    outcome = game.push(place(3, 0, 0))
    assert outcome.effects[5].effect is Effect.NO_DIE_LEFT
    assert die_at(game, 1, 2) is None
    assert supply_of(game) == (1, 4, 5, True)


def test_r9_a_mouse_returned_by_edwood_feeds_a_mouse() -> None:
    # B supply empty, Edwood to hand. Card 4 at (1,1): (1,1) B on bare C needs a B mouse;
    # (1,2) B covers a B mouse (R8d). The covered mouse returns before mice are placed, so
    # (1,1) gets it and Edwood goes to (1,2): one Edwood, legal.
    game = game_of(ALL_C, ALL_B, ALL_B, ALL_B, ALL_B)
    play(game, place(2, 0, 2), place(3, 0, 3))
    assert supply_of(game) == (0, 5, 5, True)
    outcome = game.push(place(4, 1, 1))
    assert outcome.legal
    assert die_at(game, 1, 1) == "Bmouse"
    assert die_at(game, 1, 2) == "E"
    assert supply_of(game) == (0, 5, 5, False)
    assert outcome.score_change == -2 + 2 - 5 + 2


def test_r9_food_dice_are_taken_before_mice() -> None:
    # B supply at 1. Card 3's B area at (0,0) (on bare C) needs a B mouse and comes first in
    # area order; its B area at (1,0) (on bare B) needs a new B die. The match takes the last
    # B die, so the mouse must be Edwood.
    game = game_of("C B B B B B", ALL_B, ALL_B)
    play(game, place(2, 0, 1))
    assert supply_of(game) == (1, 5, 5, True)
    outcome = game.push(place(3, 0, -1))
    assert [e.effect for e in outcome.effects[2:4]] == [Effect.EDWOOD, Effect.PLACED]
    assert die_at(game, 0, 0) == "E"
    assert die_at(game, 1, 0) == "B1"
    assert supply_of(game) == (0, 5, 5, False)


def test_r9_new_food_dice_go_in_area_order() -> None:
    # One B die left and two matching bare B areas: the top-left one gets it.
    game = game_of(ALL_B, ALL_B, "C C C C B B")
    play(game, place(2, 0, 1))
    assert supply_of(game) == (1, 5, 5, True)
    play(game, place(3, 0, -2))
    assert die_at(game, 0, 0) == "B1"
    assert die_at(game, 1, 0) is None


def test_r9_mice_go_in_area_order() -> None:
    # Two B mice wanted, one B die left: the first in area order gets it, then Edwood.
    game = game_of(ALL_M, ALL_B, ALL_B, ALL_B)
    play(game, place(2, 0, 1))
    assert supply_of(game) == (1, 5, 5, True)
    play(game, place(3, 0, -2))
    assert die_at(game, 0, 0) == "Bmouse"
    assert die_at(game, 1, 0) == "E"


# -- R10 ---------------------------------------------------------------------------------------


def test_r10_edwood_once_per_game_and_stays() -> None:
    game = edwood_on_table()
    assert edwood_of(game.woodland) == (1, 0)
    # A legal placement elsewhere leaves him where he is.
    play(game, place(5, 0, 4))
    assert edwood_of(game.woodland) == (1, 0)
    assert not game.supply.edwood
    # He is never needed twice: the next need is refused.
    refused(game, place(6, -1, 2), Reason.EDWOOD_USED)


def test_r10_edwood_use_is_implied_and_undone_by_pop() -> None:
    game = two_b_mice(ALL_B)
    game.push(place(3, 1, 2))
    assert not game.supply.edwood
    game.pop()
    assert game.supply.edwood
    assert edwood_of(game.woodland) is None
    assert die_at(game, 1, 2) == "Bmouse"


# -- R11 ---------------------------------------------------------------------------------------


def test_r11_game_over_first() -> None:
    game = game_of(ALL_B, ALL_B)
    play(game, place(2, 0, 0))
    assert game.is_over()
    refused(game, place(7, 50, 50), Reason.GAME_OVER)
    refused(game, place(2, 0, 0), Reason.GAME_OVER)


def test_r11_not_in_hand_before_no_overlap() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B, ALL_B)
    refused(game, place(4, 50, 50), Reason.NOT_IN_HAND)  # in the deal, not drawn yet
    refused(game, place(1, 0, 0), Reason.NOT_IN_HAND)  # the starting card
    refused(game, place(99, 0, 0), Reason.NOT_IN_HAND)  # not in the deck at all


def test_r11_no_overlap_before_mouse_colour() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B)
    refused(game, place(2, 50, 50, mouse={(50, 50): "M"}), Reason.NO_OVERLAP)


def test_r11_covered_areas_in_area_order_edwood_first() -> None:
    game = edwood_on_table(fifth=ALL_C)
    # Card 5 at (0,0): (1,0) holds Edwood (area 2), (0,2) a B mouse under C (area 5).
    refused(game, place(5, 0, 0), Reason.COVERS_EDWOOD)


def test_r11_covered_areas_in_area_order_mouse_first() -> None:
    game = mice_above_edwood()
    # Card 4 (all C) at (0,1): a B mouse at (0,1) comes before Edwood at (1,2).
    refused(game, place(4, 0, 1), Reason.COVERS_MOUSE)
    # Card 5 (all B) at (0,1): the mice may be covered (with Edwood), Edwood may not.
    refused(game, place(5, 0, 1), Reason.COVERS_EDWOOD)


def test_r11_covering_checks_before_placing_mice() -> None:
    game = edwood_on_table(fifth="B B B C B B")
    # At (0,1): (0,1) needs a B mouse (none, Edwood used) and (0,2) would need Edwood, but
    # (1,2) is a C area on a B mouse: covers-mouse wins.
    refused(game, place(5, 0, 1), Reason.COVERS_MOUSE)


def test_r11_placing_in_area_order_mouse_before_edwood() -> None:
    game = edwood_free_b_empty()
    # Card 4 at (1,0): (1,0) covers a B mouse (takes Edwood), then (1,1) needs a B mouse.
    refused(game, place(4, 1, 0), Reason.NO_MOUSE_DIE)


def test_r11_placing_in_area_order_edwood_needed_twice() -> None:
    game = game_of(ALL_C, ALL_M, ALL_B, ALL_B, "C C B C M M", ALL_B)
    play(game, place(2, 0, 2), place(3, 0, 3), place(4, 0, 5))
    assert die_at(game, 0, 2) == die_at(game, 1, 2) == "Mmouse"
    assert supply_of(game) == (0, 5, 3, True)
    # Card 5 at (0,0): (0,1) needs a B mouse (Edwood stands in), then (0,2) covers an M
    # mouse, which needs Edwood again. The returned M mouse cannot help a B need.
    refused(game, place(5, 0, 0), Reason.EDWOOD_USED)


def test_r11_bad_mouse_colour_in_area_order() -> None:
    game = edwood_on_table(fifth="B B B BM B B", sixth="B B B B B BM")
    # Card 5 at (-1,-1): BM on bare C at (0,0) chooses B (none left), then (0,1) needs a B
    # mouse (none, Edwood used): the choice comes first.
    refused(game, place(5, -1, -1, mouse={(0, 0): "B"}), Reason.BAD_MOUSE_COLOUR)
    # Without the choice the BM area takes an M mouse and (0,1) fails.
    refused(game, place(5, -1, -1), Reason.NO_MOUSE_DIE)
    play(game, place(5, 0, 4))  # somewhere harmless, to draw card 6
    assert game.hand == (6,)
    # Card 6 at (-1,-1): B on bare C at (0,0) fails before the bad choice at (0,1).
    refused(game, place(6, -1, -1, mouse={(0, 1): "B"}), Reason.NO_MOUSE_DIE)


def test_r11_choice_for_area_without_mouse_is_reported_last() -> None:
    game = edwood_on_table()
    # (-1,-1) is empty table and gets no mouse, but (0,0) fails first.
    refused(game, place(5, -1, -1, mouse={(-1, -1): "B"}), Reason.NO_MOUSE_DIE)


def test_r11_bad_mouse_colour_for_area_without_mouse() -> None:
    game = game_of(ALL_M, ALL_B, ALL_B)
    for where in [(0, 0), (0, 3), (9, 9)]:  # bare start area, empty table, off the card
        refused(game, place(2, 0, 2, mouse={where: "B"}), Reason.BAD_MOUSE_COLOUR)
    # R8d: Edwood covers, no mouse die is placed there.
    game = two_b_mice(ALL_B)
    refused(game, place(3, 1, 2, mouse={(1, 2): "B"}), Reason.BAD_MOUSE_COLOUR)


def test_r11_bad_mouse_colour_the_area_does_not_have() -> None:
    game = game_of(ALL_M, ALL_B, "B B B B B BC")
    refused(game, place(2, 0, 2, mouse={(0, 2): "C"}), Reason.BAD_MOUSE_COLOUR)
    assert game.push(place(2, 0, 2, mouse={(0, 2): "B"})).legal
    refused(game, place(3, -1, -2, mouse={(0, 0): "M"}), Reason.BAD_MOUSE_COLOUR)


def test_r11_bad_mouse_colour_the_supply_lacks() -> None:
    game = edwood_free_b_empty("BM C C C C C")
    refused(game, place(4, 0, 1, mouse={(0, 1): "B"}), Reason.BAD_MOUSE_COLOUR)
    outcome = game.push(place(4, 0, 1, mouse={(0, 1): "M"}))
    assert outcome.legal
    assert die_at(game, 0, 1) == "Mmouse"


def test_r11_refusal_carries_a_message() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B)
    outcome = game.outcome(place(2, 9, 9))
    assert outcome.reason is Reason.NO_OVERLAP
    assert outcome.message
    assert game.outcome(place(2, 0, 0)).message == ""


def test_r11_reason_codes_are_the_rulings() -> None:
    assert [r.value for r in Reason] == [
        "game-over",
        "not-in-hand",
        "no-overlap",
        "covers-edwood",
        "covers-mouse",
        "edwood-used",
        "no-mouse-die",
        "bad-mouse-colour",
    ]
