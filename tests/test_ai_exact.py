"""The exact search of the last placements, against the engine's own brute force: seed
5020's seventh move (the expert's look misses the best line), and random positions."""

from __future__ import annotations

import random

from helpers import brute_force, choices, custom_games
from hypothesis import given, settings

from forage.ai.bots import expert_ranking, unseen_cards
from forage.ai.hint import hint
from forage.ai.review import ReviewSettings, review_move
from forage.ai.search import ExactSearch
from forage.ai.sim import simulator_for, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement

EXPERT_LINE_5020 = "12@1,0 4r90@-1,-1 1r90@1,2 5r180@0,1 3@0,2 6r180@1,-1 15@0,0 13@1,-2"
"""The expert bot's game on seed 5020 (47 points), pinned here: an expert game takes seconds.
Its seventh move, 15@0,0, leads to 47 at best; 13r180@-1,0 leads to 50."""


def game_5020(moves: int) -> Game:
    """Seed 5020's game after the expert's first ``moves`` moves."""
    game = Game(Deal.from_seed(5020), standard_deck())
    line = [Placement.from_notation(n) for n in EXPERT_LINE_5020.split()]
    assert game.replay(line[:moves]).refusal is None
    return game


def after(game: Game, placement: Placement) -> Game:
    """A copy of a game with one more placement made."""
    copy = game.copy()
    copy.push(placement)
    return copy


def each_first_value(game: Game) -> dict[Placement, int]:
    """The best final score after each legal placement (every card, rotation, spot and mouse
    colour choice), by the engine's brute force."""
    return {p: brute_force(after(game, p)) for p in choices(game)}


def test_seed_5020_move_7_is_proven_three_points_short_of_the_best() -> None:
    game = game_5020(6)
    values = each_first_value(game)
    top = max(values.values())
    played = Placement.from_notation(EXPERT_LINE_5020.split()[6])
    assert (top, values[played]) == (50, 47)
    start = Game(Deal.from_seed(5020), standard_deck())
    entry = review_move(start, [*game.moves, played], 6, ReviewSettings())
    assert entry.proven and entry.label != "best"
    assert entry.loss == 3
    assert (entry.expected_played, entry.expected_best) == (values[played], top)
    assert values[game.outcome(entry.best).placement] == top
    assert entry.to_json()["proven"] is True


def test_seed_5020_last_move_is_proven_best() -> None:
    start = Game(Deal.from_seed(5020), standard_deck())
    line = [Placement.from_notation(n) for n in EXPERT_LINE_5020.split()]
    entry = review_move(start, line, 7, ReviewSettings())
    last = game_5020(7)
    top = max(last.base + last.outcome(p).score_change for p in choices(last))
    assert entry.proven and entry.label == "best" and entry.loss == 0
    assert entry.expected_played == entry.expected_best == top == 47


def test_the_hint_on_seed_5020_sixth_position_finishes_on_fifty() -> None:
    game = game_5020(6)
    found = hint(game)
    assert found is not None and found.proven and found.expected == 50
    game.push(found.placement)
    assert brute_force(game) == 50  # the best last placement after it reaches 50
    last = hint(game)
    assert last is not None and last.proven
    game.push(last.placement)
    assert game.is_over() and game.score().final == 50


def test_the_experts_ranking_with_two_placements_left_starts_with_the_proven_best() -> None:
    game = game_5020(6)
    sim, state = simulator_for(game), state_of(game)
    pool = unseen_cards(game.deck.numbers, game.deal.cards[: state.next_draw], ())
    ranking = expert_ranking(sim, state, pool, game.draw_pile)
    assert ranking[0].expected == 50
    assert brute_force(after(game, sim.placement(ranking[0].move))) == 50


@settings(max_examples=40, deadline=None)
@given(custom_games(recipes=True))
def test_the_exact_search_of_the_last_placements_is_the_brute_force(
    drawn: tuple[Game, int],
) -> None:
    game, seed = drawn
    rng = random.Random(seed)
    left = rng.choice((1, 2, 2))  # placements left: the last two most often
    while len(game.hand) + game.draw_pile > left and not game.is_over():
        game.push(rng.choice(choices(game)))
    if game.is_over():
        return
    search = ExactSearch.of_game(game)
    best = search.best(search.start)
    assert best.value == brute_force(game.copy())
    line = search.exact_line(search.start)
    assert line[:1] == ([best.move] if best.move is not None else [])
    game.replay([search.sim.placement(m) for m in line])
    assert game.is_over() and game.score().final == best.value


# -- three placements left: one card to draw ---------------------------------------------------

EXPERT_LINE_5015 = (
    "11r180@1,-1 10r180@0,-2 16r180@-1,0 8r90@-2,2 6r90@-1,2 12r270@0,2 17@-1,2 1r90@1,2"
)
"""The expert bot's game on seed 5015, pinned. Its sixth move, 12r270@0,2, is expected to
finish on 42.4 with the best play after it; 1r90@1,2 on 43.1."""


def with_last_card(game: Game, card: int) -> Game:
    """A copy of a game with one card left to draw, that card being ``card``."""
    deal = Deal(cards=(*game.deal.cards[:-1], card), recipes=game.deal.recipes)
    copy = Game(deal, game.deck, recipe_book=standard_deck().recipes())
    assert copy.replay(game.moves).refusal is None
    return copy


def brute_expectation(game: Game, placement: Placement, pool: list[int]) -> float:
    """The mean over ``pool`` of the best final score after ``placement`` with that card
    drawn last, by the engine's brute force."""
    return sum(brute_force(after(with_last_card(game, c), placement)) for c in pool) / len(pool)


@settings(max_examples=6, deadline=None)
@given(custom_games(recipes=True))
def test_the_expectation_search_with_one_card_to_draw_is_the_brute_force(
    drawn: tuple[Game, int],
) -> None:
    game, seed = drawn
    cards = game.deal.cards
    if len(cards) < 5:
        return
    # Four cards dealt (the woodland's, two in hand, one to draw): three placements left at
    # once; the cards never dealt can come as the last.
    game = Game(
        Deal(cards=cards[:4], recipes=game.deal.recipes),
        game.deck,
        recipe_book=standard_deck().recipes(),
    )
    assert (len(game.hand), game.draw_pile) == (2, 1)
    pool = unseen_cards(game.deck.numbers, game.deal.cards[:-1], game.deal.recipes or ())
    search = ExactSearch.of_game(game)
    found = search.best_expected(search.start, pool)
    assert found.proven and found.best is not None
    if found.best.move is None:
        assert not choices(game)
        return
    # The brute force of every first placement takes minutes: the best and a few others.
    best = game.outcome(search.sim.placement(found.best.move)).placement
    others = random.Random(seed).sample(choices(game), 3)
    values = {p: brute_expectation(game, p, pool) for p in [best, *others]}
    assert abs(values[best] - found.best.value) < 1e-9
    assert all(v <= found.best.value + 1e-9 for v in values.values())
    for move in search.sim.all_moves(search.start, variants=True):
        placement = game.outcome(search.sim.placement(move)).placement
        if placement in values:
            assert abs(search.expected(search.start, move, pool) - values[placement]) < 1e-9


def test_seed_5015_move_6_exact_values_and_the_proven_best_outside_the_ranking() -> None:
    start = Game(Deal.from_seed(5015), standard_deck())
    line = [Placement.from_notation(n) for n in EXPERT_LINE_5015.split()]
    quick = review_move(start, line, 5, ReviewSettings())
    assert quick.expected_played == 42.4 and quick.exact  # the exact value, even in budget
    proven = review_move(start, line, 5, ReviewSettings(exact=True))
    assert proven.proven and proven.best == Placement.from_notation("1r90@1,2")
    assert (proven.expected_played, proven.expected_best) == (42.4, 43.1)
    assert proven.loss == 0.7 and proven.label == "good"
