"""A called game (forage.engine.called): the engine's game on a deal whose cards are called
one at a time, drawn as the engine draws them, waiting for a call rather than ending."""

from __future__ import annotations

import pytest
from helpers import card, place

from forage.carddata import standard_deck
from forage.engine import Deal, Deck, Game
from forage.engine.called import CalledGame
from forage.engine.deal import DECK_SIZE, HAND_SIZE

FIRST_KNOWN = 1 + HAND_SIZE
"""The cards a called game starts with: the first card and the hand."""


@pytest.mark.parametrize(("seed", "recipes"), [(1, False), (5, True), (12, False)])
@pytest.mark.parametrize("call_first", [False, True], ids=["placed-then-called", "called-first"])
def test_a_called_game_is_the_engines_game_on_the_whole_deal_at_every_turn(
    seed: int, recipes: bool, call_first: bool
) -> None:
    """Each card called after the turn's placement (or before it), the called game stands
    where the engine's game on the whole deal stands: board, hand, draws, score."""
    deal = Deal.from_seed(seed, recipes=recipes)
    whole = Game(deal, standard_deck())
    called = CalledGame(Deal(cards=deal.cards[:FIRST_KNOWN], recipes=deal.recipes), whole.deck)
    to_call = list(deal.cards[FIRST_KNOWN:])
    assert (called.turns, called.draw_pile) == (whole.turns, whole.draw_pile)
    while not whole.is_over():
        outcome = next(whole.outcomes())
        if call_first and to_call:
            called.call(to_call.pop(0))
        assert called.push(outcome.placement).legal
        whole.push(outcome.placement)
        if not call_first and to_call:
            assert called.awaits_call() and not called.is_over()
            called.call(to_call.pop(0))
        assert called.position == whole.position
        assert (called.turns, called.draw_pile) == (whole.turns, whole.draw_pile)
        assert called.is_over() == whole.is_over()
    assert called.score() == whole.score()
    assert called.result() == whole.result()


def test_a_deal_is_called_to_the_deck_size_and_no_further() -> None:
    deal = Deal.from_seed(3)
    called = CalledGame(Deal(cards=deal.cards[:FIRST_KNOWN]), standard_deck())
    for number in deal.cards[FIRST_KNOWN:]:
        called.call(number)
    assert len(called.deal.cards) == DECK_SIZE == called.CARDS
    spare = next(n for n in range(1, 19) if n not in deal.cards)
    with pytest.raises(ValueError, match="no card is to be called"):
        called.call(spare)


@pytest.mark.parametrize(("number", "said"), [(99, "not in the deck"), (1, "appears twice")])
def test_a_card_the_game_cannot_take_is_a_clear_error(number: int, said: str) -> None:
    deal = Deal.from_seed(3)
    called = CalledGame(Deal(cards=deal.cards[:FIRST_KNOWN]), standard_deck())
    with pytest.raises(ValueError, match=said):
        called.call(deal.cards[0] if number == 1 else number)
    assert called.deal.cards == deal.cards[:FIRST_KNOWN]


ALL_B, ALL_C, ALL_M = "B B B B B B", "C C C C C C", "M M M M M M"


def test_a_kept_card_that_fits_nowhere_waits_for_the_call_before_the_game_is_stuck() -> None:
    """Card 2 laid on card 1 makes bramble mice and uses Edwood: the leaf card kept fits
    nowhere (R13), but the next card is still to be called, so the game waits; with that
    card drawn (another leaf card) it is stuck."""
    deck = Deck.of([card(n + 1, areas) for n, areas in enumerate((ALL_M, ALL_B, ALL_C, ALL_C))])
    game = CalledGame(Deal(cards=(1, 2, 3)), deck)
    assert game.push(place(2, 0, 0)).legal
    assert game.hand == (3,) and game.awaits_call()
    assert not game.is_over() and not game.result().finished
    game.call(4)
    assert game.hand == (3, 4) and not game.awaits_call()
    assert game.is_stuck() and game.result().stuck
