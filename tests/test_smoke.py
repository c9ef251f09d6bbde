"""A first game played to the end through the public engine API."""

from helpers import base_of

from forage.carddata import standard_deck
from forage.engine import Deal, Game


def test_greedy_game_reaches_the_end_with_consistent_score() -> None:
    game = Game(Deal.from_seed(1), standard_deck())
    while not game.is_over():
        best = max(game.outcomes(), key=lambda o: o.score_change)
        assert game.push(best.placement).legal
    assert game.result().finished
    assert game.position.base == base_of(game.woodland) == game.score().base
