"""The AI's fast simulator agrees with the engine (RULINGS R5-R11, R15, R17-R19)."""

from __future__ import annotations

import heapq
import random

from helpers import custom_games, legal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forage.ai.sim import Scored, Simulator, State, Worth, simulator_for, state_of
from forage.ai.worth import KIND_NAMES, WorthModel
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement


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
        mine = {
            sim.placement(m): (m.gain, m.result.counts, m.result.edwood)
            for m in sim.all_moves(state)
        }
        assert mine == engine
        # Every other choice of mouse colours the simulator offers is legal with the engine.
        variants = sim.all_moves(state, variants=True)
        for move in variants:
            outcome = game.outcome(sim.placement(move))
            assert outcome.legal, (sim.placement(move), outcome.reason)
            assert outcome.score_change == move.gain
            assert outcome.supply is not None
            assert move.result.counts == outcome.supply.counts()
        if not variants:
            assert game.is_over()
            break
        move = rng.choice(variants)
        after = sim.apply(state, move, game.deal.cards)
        assert game.push(sim.placement(move)).legal
        now = state_of(game)
        assert after.board == now.board
        assert after.hand == now.hand
        assert (after.counts, after.edwood, after.base) == (now.counts, now.edwood, now.base)
        assert after.first == now.first
        if game.is_over():
            break
    assert sim.final(state_of(game)) == game.result().score.final


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(custom_games(recipes=True))
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
    assert [sim.placement(m) for m in sim.all_moves(state_of(game))] == legal(game)


KIND_WEIGHTS = st.lists(st.floats(-3, 3), min_size=len(KIND_NAMES), max_size=len(KIND_NAMES))
WORTHS = st.builds(
    lambda base, per_area, left, coming: WorthModel((tuple(base),), (tuple(per_area),)).table(
        left, coming
    ),
    KIND_WEIGHTS,
    KIND_WEIGHTS,
    st.sampled_from([0, 1, 4]),
    st.tuples(st.floats(0, 5), st.floats(0, 5), st.floats(0, 5)),
)
"""Worth tables of random learnt models (the bounds must hold for any worth per code)."""


def positions(game: Game, seed: int) -> list[tuple[Simulator, State]]:
    """The simulator's state at every turn of a random game."""
    rng = random.Random(seed)
    sim = simulator_for(game)
    found = []
    while not game.is_over():
        state = state_of(game)
        found.append((sim, state))
        moves = sim.all_moves(state)
        game.push(sim.placement(rng.choice(moves)))
    return found


def bound_of(sim: Simulator, worth: Worth, scored: Scored, board: dict[int, int]) -> float:
    """The sum of the cell bounds of a scored placement's squares below."""
    move = scored.move
    cells = sim.shapes[move.card].turns[move.rotation].cells
    return sum(worth.bounds[c.area][board.get(move.spot + c.offset, 0)] for c in cells)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(custom_games(recipes=True), WORTHS, st.integers(1, 3))
def test_bounds_cap_every_placement_and_pruning_changes_no_result(
    case: tuple[Game, int], worth: Worth, n: int
) -> None:
    game, seed = case
    for sim, state in positions(game, seed):
        board, counts, edwood = state.board, state.counts, state.edwood
        for card in set(state.hand):
            every = sim.best_scored(board, counts, edwood, card, worth, 0)
            for scored in every:
                # the value with worth, and the gain alone, are both within the bound
                top_value = max(scored.value, scored.move.gain)
                assert top_value <= bound_of(sim, worth, scored, board) + 1e-9
            # the n best, found with pruning, are the n best of all (earlier first on ties)
            given = every[: len(every) // 3]
            best = sim.best_scored(board, counts, edwood, card, worth, n, given)
            assert best == heapq.nlargest(n, [*given, *every], key=lambda t: t.value)
            top = sim.best_scored(board, counts, edwood, card, worth, 1)
            assert len(top) == min(1, len(every))
            if top:
                assert top[0] == max(every, key=lambda t: t.value)
