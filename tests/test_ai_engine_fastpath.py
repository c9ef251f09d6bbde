"""``Game.outcomes`` on the packed hot path equals resolving every spot with ``resolve``."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forage.carddata import standard_deck
from forage.engine import ROTATIONS, Area, Card, Deal, Deck, Game, Outcome, Placement, Reason
from forage.engine.resolve import resolve


def reference_outcomes(game: Game) -> list[Outcome]:
    """Every legal placement the slow, obvious way: each candidate spot through resolve."""
    if game.is_over():
        return []
    squares = game.woodland.squares
    found = []
    for number in game.hand:
        card = game.deck[number]
        for rotation in ROTATIONS:
            footprint = card.footprint(rotation)
            for x, y in game.candidate_spots(card, rotation):
                placement = Placement(card=number, rotation=rotation, x=x, y=y)
                outcome = resolve(squares, game.supply, footprint, placement)
                if outcome.legal:
                    found.append(outcome)
                elif outcome.reason in (Reason.NO_MOUSE_DIE, Reason.EDWOOD_USED):
                    alternative = game._legal_by_choice(placement)
                    if alternative is not None:
                        found.append(alternative)
    return found


def check(game: Game, rng: random.Random) -> None:
    while True:
        fast = list(game.outcomes())
        assert fast == reference_outcomes(game)
        assert game.is_stuck() == (not fast and not game.is_finished())
        if not fast:
            break
        for outcome in fast:
            assert outcome == game.outcome(outcome.placement)
        game.push(rng.choice(fast).placement)


@st.composite
def custom_games(draw: st.DrawFn) -> tuple[Game, int]:
    size = draw(st.integers(3, 7))
    numbers = draw(st.lists(st.integers(1, 40), min_size=size, max_size=size, unique=True))
    palette = tuple(draw(st.lists(st.sampled_from(tuple(Area)), min_size=1, max_size=4)))
    cards = [
        Card(number=n, areas=tuple(draw(st.sampled_from(palette)) for _ in range(6)))  # type: ignore[arg-type]
        for n in numbers
    ]
    deal = Deal(cards=tuple(draw(st.permutations(numbers))))
    return Game(deal, Deck.of(cards)), draw(st.integers(0, 2**16))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(custom_games())
def test_fast_outcomes_equal_the_reference_on_custom_decks(case: tuple[Game, int]) -> None:
    game, seed = case
    check(game, random.Random(seed))


def test_fast_outcomes_equal_the_reference_on_the_real_deck() -> None:
    check(Game(Deal.from_seed(12), standard_deck()), random.Random(12))
