"""The AI's fast simulator agrees with the engine (RULINGS R5-R11, R15, R17-R19)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forage.ai.sim import Simulator, placement_of, simulator_for, state_of
from forage.carddata import standard_deck
from forage.engine import Area, Card, Deal, Deck, Game, Placement

RECIPE_NUMBERS = tuple(range(1, 19))


def engine_moves(game: Game) -> dict[Placement, tuple[int, tuple[int, int, int], bool]]:
    """The engine's legal placements with score change and supply afterwards."""
    found = {}
    for outcome in game.outcomes():
        supply = outcome.supply
        assert supply is not None
        found[outcome.placement] = (
            outcome.score_change,
            (supply.B, supply.C, supply.M),
            supply.edwood,
        )
    return found


def check_game(game: Game, rng: random.Random) -> None:
    """Play a random game, checking the simulator against the engine at every turn."""
    sim = simulator_for(game)
    while True:
        state = state_of(game)
        engine = engine_moves(game)
        mine = {placement_of(m): (m.gain, m.counts, m.edwood) for m in sim.all_moves(state)}
        assert mine == engine
        # Every other choice of mouse colours the simulator offers is legal with the engine.
        variants = sim.all_moves(state, variants=True)
        for move in variants:
            outcome = game.outcome(placement_of(move))
            assert outcome.legal, (placement_of(move), outcome.reason)
            assert outcome.score_change == move.gain
            assert outcome.supply is not None
            assert move.counts == (outcome.supply.B, outcome.supply.C, outcome.supply.M)
        if not variants:
            assert game.is_over()
            break
        move = rng.choice(variants)
        after = sim.apply(state, move, game.deal.cards)
        assert game.push(placement_of(move)).legal
        now = state_of(game)
        assert after.board == now.board
        assert after.hand == now.hand
        assert (after.counts, after.edwood, after.base) == (now.counts, now.edwood, now.base)
        assert after.first == now.first
        if game.is_over():
            break
    assert sim.final(state_of(game)) == game.result().score.final


@st.composite
def custom_games(draw: st.DrawFn) -> tuple[Game, int]:
    """A custom deck of 3 to 6 cards (any areas, often several split ones), maybe recipes."""
    size = draw(st.integers(3, 6))
    numbers = draw(st.lists(st.integers(1, 18), min_size=size, max_size=size, unique=True))
    palette = tuple(draw(st.lists(st.sampled_from(tuple(Area)), min_size=1, max_size=4)))
    cards = [
        Card(number=n, areas=tuple(draw(st.sampled_from(palette)) for _ in range(6)))  # type: ignore[arg-type]
        for n in numbers
    ]
    recipes = None
    if draw(st.booleans()):
        pair = draw(st.lists(st.sampled_from(RECIPE_NUMBERS), min_size=2, max_size=2, unique=True))
        recipes = (pair[0], pair[1])
    deal = Deal(cards=tuple(draw(st.permutations(numbers))), recipes=recipes)
    game = Game(deal, Deck.of(cards), recipe_book=standard_deck().recipes())
    return game, draw(st.integers(0, 2**16))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(custom_games())
def test_simulator_matches_engine_on_custom_decks(case: tuple[Game, int]) -> None:
    game, seed = case
    check_game(game, random.Random(seed))


def test_simulator_matches_engine_on_the_real_deck() -> None:
    deck = standard_deck()
    for seed in (0, 1):
        game = Game(Deal.from_seed(seed, recipes=seed == 1), deck)
        check_game(game, random.Random(seed))


def test_simulator_orders_moves_like_the_engine() -> None:
    game = Game(Deal.from_seed(7), standard_deck())
    sim = Simulator(game.deck)
    assert [placement_of(m) for m in sim.all_moves(state_of(game))] == game.legal_placements()
