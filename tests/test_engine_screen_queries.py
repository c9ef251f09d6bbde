"""What the game screen asks the engine: the area that causes a refusal, and the standing
after a previewed placement (without changing the game)."""

from __future__ import annotations

from helpers import game_of, place, play

from forage.carddata import standard_deck
from forage.engine import Deal, Game, Reason

ALL_B = "B B B B B B"
ALL_C = "C C C C C C"
ALL_M = "M M M M M M"


def b_mice() -> Game:
    """An all-B card on an all-M one: B mice at (0,1), (1,1), (0,2), (1,2); hand 3 and 4."""
    game = game_of(ALL_M, ALL_B, ALL_B, ALL_C, ALL_B)
    play(game, place(2, 0, 1))
    return game


def test_a_refusal_names_the_square_of_the_mouse_that_causes_it() -> None:
    game = b_mice()
    # card 4 (all C) two rows up: its bottom row lies on M areas, then on the mice below
    for y, expected in ((-1, (0, 1)), (0, (0, 1)), (1, (0, 1))):
        outcome = game.outcome(place(4, 0, y))
        assert outcome.reason is Reason.COVERS_MOUSE
        assert outcome.cause == expected
        square = game.woodland[expected]
        assert square.die is not None and square.die.mouse
    # shifted right, the first mouse the card meets in reading order is at (1, 1)
    outcome = game.outcome(place(4, 1, -1))
    assert outcome.reason is Reason.COVERS_MOUSE and outcome.cause == (1, 1)


def test_a_refusal_without_one_cause_names_no_square() -> None:
    game = b_mice()
    outcome = game.outcome(place(4, 10, 10))
    assert outcome.reason is Reason.NO_OVERLAP and outcome.cause is None
    assert next(game.outcomes()).cause is None  # a legal placement


def test_edwood_already_used_is_caused_by_the_mouse_to_cover() -> None:
    game = b_mice()
    play(game, place(3, 1, 2))  # card 3 (all B) covers the mouse at (1, 2) with Edwood
    assert game.woodland[(1, 2)].edwood
    outcome = game.outcome(place(5, -1, 0))  # all B over the B mice at (0, 1) and (0, 2)
    assert outcome.reason is Reason.EDWOOD_USED
    assert outcome.cause == (0, 1)


def test_the_second_mouse_of_one_card_is_the_cause_once_edwood_covers_the_first() -> None:
    outcome = b_mice().outcome(place(3, 0, 0))  # all B over the B mice at (0,1) and (1,1)
    assert outcome.reason is Reason.EDWOOD_USED and outcome.cause == (1, 1)


def test_result_after_is_the_standing_after_the_drop_and_changes_nothing() -> None:
    deal = Deal.from_seed(5, recipes=True)
    game = Game(deal, standard_deck())
    before = (game.position, list(game.moves))
    checked = 0
    for outcome in list(game.outcomes())[::7]:
        after = game.result_after(outcome)
        fresh = Game(deal, standard_deck())
        assert fresh.push(outcome.placement).legal
        assert after == fresh.result()
        assert (game.position, list(game.moves)) == before
        checked += 1
    assert checked > 5
