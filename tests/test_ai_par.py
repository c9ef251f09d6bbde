"""Par: exact on small deals (checked by brute force), and its moves replay to its score."""

from __future__ import annotations

import time

import pytest
from helpers import EXPERT_GOLDEN, brute_force

from forage.ai.bots import Expert
from forage.ai.games import bot_game
from forage.ai.par import Effort, ParResult, par
from forage.ai.search import beam_line
from forage.ai.sim import simulator_for, state_of
from forage.carddata import standard_deck
from forage.engine import Card, Deal, Deck, Game, Placement
from forage.engine.areas import Area

MEDIUM = Effort(exact_nodes=5_000, beams=(8,))
"""Enough search for these tests, far less than par's full effort."""


def custom_game(*areas: str, recipes: tuple[int, int] | None = None) -> Game:
    cards = [
        Card(number=i + 1, areas=tuple(Area(a) for a in text.split()))  # type: ignore[arg-type]
        for i, text in enumerate(areas)
    ]
    deal = Deal(cards=tuple(c.number for c in cards), recipes=recipes)
    return Game(deal, Deck.of(cards), recipe_book=standard_deck().recipes())


def replays_to(game: Game, placements: list[Placement]) -> int:
    refusal = game.replay(placements).refusal
    assert refusal is None, refusal.placement
    return game.result().score.final


THREE_CARD_DECKS = [
    ("B B B BC B B", "B C BM B B B", "B B B B CM C"),
    ("B C M BC C M", "CM M C C B M", "BM B M C C B"),
]
"""Small deals the engine's brute force solves quickly."""


def test_par_matches_brute_force_on_three_card_custom_decks() -> None:
    for areas in THREE_CARD_DECKS:
        game = custom_game(*areas)
        result = par(game)
        assert result.proven
        assert result.score == brute_force(custom_game(*areas))
        assert replays_to(custom_game(*areas), result.placements) == result.score


def test_par_matches_brute_force_with_recipes() -> None:
    # Two-card deals keep the engine's brute force quick; the recipes decide the best spot.
    areas = ("C C B BC B M", "B B M BM M C")
    for recipes in ((9, 17), (3, 12), (1, 14)):
        result = par(custom_game(*areas, recipes=recipes))
        assert result.proven
        assert result.score == brute_force(custom_game(*areas, recipes=recipes))


def test_par_is_exact_on_a_four_card_deal_of_the_real_deck() -> None:
    deck = standard_deck()
    deal = Deal(cards=Deal.from_seed(4).cards[:4])
    result = par(Game(deal, deck))
    assert result.proven
    assert replays_to(Game(deal, deck), result.placements) == result.score
    # No line may beat it: the greedy line, for one.
    game = Game(deal, deck)
    while not game.is_over():
        game.push(max(game.outcomes(), key=lambda o: o.score_change).placement)
    assert game.result().score.final <= result.score


def test_par_on_a_full_deal_replays_and_beats_the_bots() -> None:
    deck = standard_deck()
    game = Game(Deal.from_seed(2), deck)
    result = par(game, MEDIUM)
    assert replays_to(Game(Deal.from_seed(2), deck), result.placements) == result.score
    assert result.score >= EXPERT_GOLDEN[2]  # the expert's pinned score, an expert game of 3 s
    assert result.score >= bot_game(2, "greedy")


class Clock:
    """A clock running ``rate`` times as fast as the real one."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.real = time.perf_counter
        self.began = self.real()

    def __call__(self) -> float:
        return self.began + (self.real() - self.began) * self.rate


@pytest.fixture(scope="module")
def par_of_seed_9() -> ParResult:
    """Par of seed 9's deal on the real clock, searched once for the tests that compare."""
    return par(Game(Deal.from_seed(9), standard_deck()), MEDIUM)


def test_par_is_the_same_on_a_fast_or_a_slow_clock(
    par_of_seed_9: ParResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(Deal.from_seed(9), standard_deck())
    expected = (par_of_seed_9.score, par_of_seed_9.placements)
    for rate in (10.0, 0.1):
        monkeypatch.setattr(time, "perf_counter", Clock(rate))
        result = par(game.copy(), MEDIUM)
        monkeypatch.undo()
        assert (result.score, result.placements) == expected, rate


def test_par_is_the_same_after_a_busy_start(par_of_seed_9: ParResult) -> None:
    # A search that already ran (caches warm, tables grown) gives the same par again.
    par(Game(Deal.from_seed(10), standard_deck()), MEDIUM)
    again = par(Game(Deal.from_seed(9), standard_deck()), MEDIUM)
    assert (again.score, again.placements) == (par_of_seed_9.score, par_of_seed_9.placements)


def test_par_starts_after_the_moves_so_far() -> None:
    deck = standard_deck()
    deal = Deal(cards=Deal.from_seed(2).cards[:4])
    game = Game(deal, deck)
    first = max(game.outcomes(), key=lambda o: o.score_change).placement
    game.push(first)
    result = par(game)
    assert result.proven
    assert result.placements and result.placements[0].card in game.hand
    check = Game(deal, deck)
    check.push(first)
    assert replays_to(check, result.placements) == result.score


def test_par_of_a_finished_game_is_its_score() -> None:
    game = custom_game("B B B BC B B", "B C BM B B B")
    game.push(max(game.outcomes(), key=lambda o: o.score_change).placement)
    result = par(game)
    assert result.proven and result.placements == []
    assert result.score == game.result().score.final


def test_beam_line_wide_enough_is_exhaustive() -> None:
    # A beam that keeps every placement of every state searches every line: the best of them.
    for areas in THREE_CARD_DECKS:
        game = custom_game(*areas)
        sim = simulator_for(game)
        line = beam_line(sim, state_of(game), game.deal.cards, 10**6, Expert().worth, keep=10**6)
        assert sim.final(line.state) == brute_force(custom_game(*areas))
        placements = [sim.placement(move) for move in line.moves]
        assert replays_to(custom_game(*areas), placements) == sim.final(line.state)


@pytest.mark.parametrize("width", [1, 3])
def test_beam_line_plays_a_full_deal_to_the_end(width: int) -> None:
    # Every card is placed (a line is a whole game, never the start's score standing alone)
    # and the moves replay in the engine to the line's score.
    deck = standard_deck()
    game = Game(Deal.from_seed(7), deck)
    sim = simulator_for(game)
    line = beam_line(sim, state_of(game), game.deal.cards, width, Expert().worth)
    assert not line.state.hand
    assert len(line.moves) == len(game.hand) + game.draw_pile
    placements = [sim.placement(move) for move in line.moves]
    assert replays_to(Game(Deal.from_seed(7), deck), placements) == sim.final(line.state)


@pytest.mark.parametrize("recipes", [False, True])
def test_a_pruned_beam_finds_the_same_line_as_resolving_every_states_best(recipes: bool) -> None:
    # Pruning by the beam's best values so far only skips placements that could not make it.
    expert = Expert()
    for seed in range(3):
        game = Game(Deal.from_seed(seed, recipes=recipes), standard_deck())
        sim, start = simulator_for(game), state_of(game)
        for width in (2, 3, 24):
            pruned = beam_line(sim, start, game.deal.cards, width, expert.worth)
            full = beam_line(sim, start, game.deal.cards, width, expert.worth, prune=False)
            assert pruned.moves == full.moves
            assert sim.final(pruned.state) == sim.final(full.state)
