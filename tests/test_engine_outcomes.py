"""``Game.outcomes`` lists exactly the placements ``Game.outcome`` calls legal, spot by spot."""

from __future__ import annotations

import random

from helpers import custom_games
from hypothesis import HealthCheck, given, settings

from forage.carddata import standard_deck
from forage.engine import ROTATIONS, Deal, Game, Outcome, Placement


def every_spot(game: Game) -> list[Outcome]:
    """Each hand card at each rotation and every top-left near the woodland, asked one by one
    (with the first legal choice of mouse colours where the defaults are refused)."""
    if game.is_over():
        return []
    xs = [x for x, _ in game.woodland.squares]
    ys = [y for _, y in game.woodland.squares]
    found = []
    for number in game.hand:
        for rotation in ROTATIONS:
            for y in range(min(ys) - 3, max(ys) + 2):
                for x in range(min(xs) - 3, max(xs) + 2):
                    placement = Placement(card=number, rotation=rotation, x=x, y=y)
                    outcome = game.outcome(placement, choose_mice=True)
                    if outcome.legal:
                        found.append(outcome)
    return found


def check(game: Game, rng: random.Random) -> None:
    while True:
        listed = list(game.outcomes())
        assert listed == every_spot(game)
        assert game.is_stuck() == (not listed and not game.is_finished())
        if not listed:
            break
        for outcome in listed:
            # asked again, with the colours it names, the placement says the same
            assert outcome == game.outcome(outcome.placement)
        game.push(rng.choice(listed))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(custom_games())
def test_outcomes_list_every_legal_spot_on_custom_decks(case: tuple[Game, int]) -> None:
    game, seed = case
    check(game, random.Random(seed))


def test_outcomes_list_every_legal_spot_on_the_real_deck() -> None:
    check(Game(Deal.from_seed(12), standard_deck()), random.Random(12))
