"""The AI's simulator against the reference reading of the rulings (RULINGS R3-R11, R15,
R17-R19): the placements it lists, what each does, and the final score."""

from __future__ import annotations

import heapq
import itertools
import random

import reference
from helpers import custom_games, legal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forage.ai.sim import Move, Scored, Simulator, State, Worth, simulator_for, state_of
from forage.ai.worth import KIND_NAMES, WorthModel
from forage.carddata import standard_deck
from forage.engine import Colour, Deal, Game, MouseChoice, Placement, Rotation

Key = tuple[int, int, int, int]
"""A placement without its mouse colours: (card, rotation in degrees, x, y)."""

Effect = tuple[tuple[tuple[tuple[int, int], reference.Top], ...], tuple[int, int, int], bool]
"""What a placement leaves: the sorted top areas, the supply (B, C, M) and Edwood to hand."""


def effect_of(result: reference.Result) -> Effect:
    """A legal reference result as a comparable value."""
    supply = (result.supply["B"], result.supply["C"], result.supply["M"])
    return tuple(sorted(result.tops.items())), supply, result.edwood_free


def covered(game: Game, key: Key) -> list[tuple[int, int, str]]:
    """The split areas of a placement that lie on the woodland, as (x, y, area), by the
    reference's rotation."""
    number, rotation, x, y = key
    tops = game.woodland.squares
    laid = reference.footprint(game.deck[number].areas, rotation, x, y)
    return [(sx, sy, a.value) for sx, sy, a in laid if (sx, sy) in tops and not a.is_food]


def reference_effects(game: Game, key: Key) -> set[Effect]:
    """Every distinct legal outcome of a placement over all mouse colour choices, by the
    reference."""
    number, rotation, x, y = key
    splits = covered(game, key)
    found: set[Effect] = set()
    for picks in itertools.product(*[(None, *area) for _, _, area in splits]):
        mouse = tuple(
            MouseChoice(x=sx, y=sy, colour=Colour(pick))
            for (sx, sy, _), pick in zip(splits, picks, strict=True)
            if pick is not None
        )
        placement = Placement(card=number, rotation=Rotation(rotation), x=x, y=y, mouse=mouse)
        result = reference.resolve(game, placement)
        if result.reason is None:
            found.add(effect_of(result))
    return found


def reference_keys(game: Game) -> set[Key]:
    """Every placement of a hand card the reference finds legal with some mouse colours."""
    squares = set(game.woodland.squares)
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    keys: set[Key] = set()
    for number in set(game.hand):
        for rotation in (0, 90, 180, 270):
            width, height = (2, 3) if rotation in (0, 180) else (3, 2)
            for x in range(min(xs) - width + 1, max(xs) + 1):
                for y in range(min(ys) - height + 1, max(ys) + 1):
                    key = (number, rotation, x, y)
                    laid = reference.footprint(game.deck[number].areas, rotation, x, y)
                    if not any((fx, fy) in squares for fx, fy, _ in laid):
                        continue  # covers nothing: refused by R5 (no-overlap)
                    plain = Placement(card=number, rotation=Rotation(rotation), x=x, y=y)
                    result = reference.resolve(game, plain)
                    # Where the default mouse colours run out of dice, another choice of
                    # split-area colours may leave a die for a later area.
                    retry = result.reason in ("no-mouse-die", "edwood-used")
                    if result.reason is None or (retry and reference_effects(game, key)):
                        keys.add(key)
    return keys


def sim_effect(game: Game, sim: Simulator, state: State, move: Move) -> Effect:
    """What the simulator says a move leaves, read back through the engine's models."""
    after = sim.apply(state, move, game.deal.cards)
    book = {r.number: r for r in game.recipes}
    tops = reference.tops_of(Game.at(game.deal, game.deck, after, recipe_book=book))
    return tuple(sorted(tops.items())), after.counts, after.edwood


def check_game(game: Game, rng: random.Random, every_variant: bool = True) -> None:
    """Play a random game, checking the simulator against the reference at every turn."""
    sim = simulator_for(game)
    numbers = [r.number for r in game.recipes]
    first: set[str] | None = None
    while True:
        state = state_of(game)
        tops = reference.tops_of(game)
        variants = sim.all_moves(state, variants=True)
        by_key: dict[Key, list[Effect]] = {}
        for move in variants:
            placement = sim.placement(move)
            key = (move.card, int(placement.rotation), placement.x, placement.y)
            expected = reference.resolve(game, placement)
            assert expected.reason is None, (placement, expected.reason)
            effect = sim_effect(game, sim, state, move)
            assert effect == effect_of(expected), placement
            by_key.setdefault(key, []).append(effect)
            gain = reference.base_score(expected.tops) - reference.base_score(tops)
            assert move.gain == gain, placement
        assert set(by_key) == reference_keys(game)
        for key, effects in by_key.items():
            assert len(set(effects)) == len(effects), key  # each variant changes the outcome
            if every_variant or len(covered(game, key)) <= 2:
                assert set(effects) == reference_effects(game, key), key
        if not variants:
            break
        move = rng.choice(variants)
        if first is None:
            first = reference.resolve(game, sim.placement(move)).gathered
        assert game.push(sim.placement(move)).legal
        if game.is_over():
            break
    final = state_of(game)
    tops = reference.tops_of(game)
    _, bonus = reference.recipe_bonus(numbers, tops, first or set())
    assert sim.final(final) == reference.base_score(tops) + bonus


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(custom_games(recipes=True))
def test_simulator_matches_the_reference_on_custom_decks(case: tuple[Game, int]) -> None:
    game, seed = case
    check_game(game, random.Random(seed), every_variant=False)


def test_simulator_matches_the_reference_on_the_real_deck() -> None:
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
