"""Turns and deals: RULINGS R12 (setup and turns), R13 (stuck games), R14 (reproducible deals)."""

from __future__ import annotations

import pytest
import reference
from helpers import base_of, game_of, legal, place, play

from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement, Reason, Rotation
from forage.engine.deal import SplitMix64, shuffled

ALL_B = "B B B B B B"
ALL_C = "C C C C C C"
ALL_M = "M M M M M M"
SEEDS = [0, 1, 42, 2**40, 123456789]


def greedy(game: Game) -> list[Placement]:
    """Play the highest-scoring placement each turn until the game ends; the moves made."""
    while not game.is_over():
        best = max(game.outcomes(), key=lambda o: o.score_change)
        assert game.push(best.placement).legal
    return list(game.moves)


# -- R12 setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_r12_deck_1_is_the_first_nine_and_deck_2_the_last_nine(seed: int) -> None:
    order = shuffled(range(1, 19), seed)
    assert sorted(order) == list(range(1, 19))
    deck1 = Deal.from_seed(seed)
    deck2 = Deal.from_seed(seed, deck=2)
    assert deck1.cards == tuple(order[:9])
    assert deck2.cards == tuple(order[9:])
    assert deck1.recipes is None and deck2.recipes is None


@pytest.mark.parametrize("seed", SEEDS)
def test_r12_recipe_challenge_is_first_two_recipes_then_nine(seed: int) -> None:
    order = shuffled(range(1, 19), seed)
    challenge = Deal.from_seed(seed, recipes=True)
    assert challenge.recipes == (order[0], order[1])
    assert challenge.cards == tuple(order[2:11])
    # The same shuffle as the standard game, seen from the other side.
    standard = Deal.from_seed(seed).cards + Deal.from_seed(seed, deck=2).cards
    assert challenge.recipes + challenge.cards == standard[:11]


def test_r12_other_deck_belongs_to_the_standard_game() -> None:
    deal = Deal.from_seed(7)
    other = deal.other_deck()
    assert other is not None
    assert set(other.cards) == set(Deal.from_seed(7, deck=2).cards)
    assert set(other.cards) | set(deal.cards) == set(range(1, 19))
    assert Deal.from_seed(7, recipes=True).other_deck() is None
    with pytest.raises(ValueError):
        Deal.from_seed(7, deck=3)


def test_r12_first_card_starts_the_woodland_and_two_form_the_hand() -> None:
    deal = Deal.from_seed(42)
    deck = standard_deck()
    game = Game(deal, deck)
    first = deck[deal.cards[0]]
    assert {pos: sq.area for pos, sq in game.woodland.squares.items()} == {
        (dx, dy): area for dx, dy, area in first.footprint(Rotation.R0)
    }
    assert game.hand == deal.cards[1:3]
    assert game.draw_pile == 6
    assert game.turns == 8
    assert game.supply.counts() == (5, 5, 5) and game.supply.edwood


def test_r12_each_turn_plays_one_card_and_draws_one() -> None:
    deal = Deal.from_seed(1)
    game = Game(deal, standard_deck())
    for turn in range(1, 9):
        assert game.turn == turn
        assert not game.is_over()
        hand = game.hand
        best = max(game.outcomes(), key=lambda o: o.score_change)
        assert game.push(best.placement).legal
        kept = tuple(n for n in hand if n != best.placement.card)
        drawn = deal.cards[turn + 2 : turn + 3]
        assert game.hand == kept + drawn
        assert game.draw_pile == max(0, 6 - turn)
    # The game ends when the last card is placed: 8 turns for 9 cards.
    assert game.is_finished() and game.is_over() and not game.is_stuck()
    assert len(game.moves) == 8
    assert game.result().finished
    assert game.outcome(place(deal.cards[-1], 0, 0)).reason is Reason.GAME_OVER


def test_r12_short_deals_end_when_the_last_card_is_placed() -> None:
    game = game_of(ALL_B, ALL_B, ALL_B)
    assert game.turns == 2 and game.draw_pile == 0
    play(game, place(2, 0, 0))
    assert game.hand == (3,) and not game.is_over()
    play(game, place(3, 0, 0))
    assert game.is_finished()


# -- R13 stuck ---------------------------------------------------------------------------------


def stuck_game() -> Game:
    """Card 2 covers the start card with five B mice and Edwood; no C card can go anywhere."""
    game = game_of(ALL_M, ALL_B, ALL_C, ALL_C, ALL_C)
    play(game, place(2, 0, 0))
    return game


def test_r13_no_legal_placement_ends_the_game() -> None:
    game = stuck_game()
    assert game.hand == (3, 4)
    assert legal(game) == []
    assert game.is_over()
    assert game.is_stuck()
    assert game.is_over()
    assert not game.is_finished()
    result = game.result()
    assert result.stuck and result.finished
    assert result.won is False
    assert result.score.base == base_of(game.woodland) == -2 * 5 - 5


def test_r13_stuck_game_refuses_further_placements() -> None:
    game = stuck_game()
    assert game.outcome(place(3, 5, 5)).reason is Reason.GAME_OVER
    assert game.push(place(3, 0, -2)).reason is Reason.GAME_OVER


def test_r13_undo_unsticks() -> None:
    game = stuck_game()
    game.pop()
    assert not game.is_stuck()
    assert not game.is_over()


def test_r13_stuck_when_every_hand_card_is_refused() -> None:
    # Before card 2 the woodland has bare areas; after it, every square holds a B mouse or
    # Edwood, so a C card covers a mouse of another colour and a B card needs Edwood again.
    game = game_of(ALL_M, ALL_B, ALL_C, ALL_B)
    assert not game.is_stuck()
    play(game, place(2, 0, 0))
    assert game.hand == (3, 4)
    assert game.is_stuck()


# -- R14 reproducible deals --------------------------------------------------------------------

GOLDEN = {
    0: ("1.9.11.7.18.17.15.2.3", "14.12.6.4.10.5.16.13.8", "1.9:11.7.18.17.15.2.3.14.12"),
    1: ("11.8.5.12.14.7.13.9.2", "17.4.10.3.16.18.15.1.6", "11.8:5.12.14.7.13.9.2.17.4"),
    42: ("4.12.15.5.1.9.14.13.17", "6.16.18.8.7.10.3.11.2", "4.12:15.5.1.9.14.13.17.6.16"),
    2**40: ("8.10.5.11.3.15.12.14.17", "7.2.9.16.6.18.1.13.4", "8.10:5.11.3.15.12.14.17.7.2"),
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_r14_golden_deals(seed: int) -> None:
    deck1, deck2, challenge = GOLDEN[seed]
    assert Deal.from_seed(seed).code == deck1
    assert Deal.from_seed(seed, deck=2).code == deck2
    assert Deal.from_seed(seed, recipes=True).code == challenge


def test_r14_generator_is_standard_splitmix64() -> None:
    # Reference outputs of SplitMix64 from seed 0 (Vigna's splitmix64.c).
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


@pytest.mark.parametrize("seed", [*SEEDS, 7, 2**64 - 1])
def test_r14_same_seed_same_deal(seed: int) -> None:
    order = reference.deal_order(seed)
    assert Deal.from_seed(seed).cards == tuple(order[:9])
    assert Deal.from_seed(seed, deck=2).cards == tuple(order[9:])
    challenge = Deal.from_seed(seed, recipes=True)
    assert (challenge.recipes, challenge.cards) == ((order[0], order[1]), tuple(order[2:11]))


def test_r14_different_seeds_give_different_deals() -> None:
    assert len({Deal.from_seed(seed).code for seed in range(50)}) == 50


def test_r14_deal_code_format_and_round_trip() -> None:
    standard = Deal(cards=(5, 12, 3, 1, 9, 17, 2, 8, 14))
    assert standard.code == "5.12.3.1.9.17.2.8.14"
    challenge = Deal(cards=(5, 12, 3, 1, 9, 17, 2, 8, 14), recipes=(4, 11))
    assert challenge.code == "4.11:5.12.3.1.9.17.2.8.14"
    for deal in (standard, challenge, Deal(cards=(7,))):
        assert Deal.from_code(deal.code) == deal
    assert Deal.from_code(" 1.2.3 \n") == Deal(cards=(1, 2, 3))


@pytest.mark.parametrize(
    "code",
    ["", "1..2", "1.2.", "x", "1.2.3:4", "1:2.3", "1.1", "1.1:2.3", "1.2:", "-1.2", "1,2"],
)
def test_r14_bad_deal_codes_are_refused(code: str) -> None:
    with pytest.raises(ValueError):
        Deal.from_code(code)


def test_r14_same_deal_and_moves_give_the_same_game() -> None:
    deal = Deal.from_seed(42, recipes=True)
    first = Game(deal, standard_deck())
    moves = greedy(first)
    second = Game(Deal.from_code(deal.code), standard_deck())
    applied, refusal = second.replay(moves)
    assert (applied, refusal) == (len(moves), None)
    assert second.position == first.position
    assert second.result() == first.result()


def test_a_rewound_game_is_the_game_replayed_to_that_move_and_the_game_is_unchanged() -> None:
    deal = Deal.from_seed(7, recipes=True)
    game = Game(deal, standard_deck())
    moves = greedy(game)
    end = (game.position, game.result())
    for n in range(len(moves) + 1):
        rewound = game.rewound(n)
        fresh = Game(deal, standard_deck())
        fresh.replay(moves[:n])
        assert rewound.moves == moves[:n]
        assert rewound.position == fresh.position
        assert rewound.result() == fresh.result()
        assert rewound.woodland == fresh.woodland
        if n:
            assert rewound.pop() == moves[n - 1]
            assert rewound.position == game.rewound(n - 1).position
    assert (game.moves, game.position, game.result()) == (moves, *end)


@pytest.mark.parametrize("moves", [-1, 9])
def test_a_game_cannot_be_rewound_to_moves_it_has_not_made(moves: int) -> None:
    game = Game(Deal.from_seed(7), standard_deck())
    play(game, *greedy(game.copy())[:8])
    with pytest.raises(ValueError, match="8 placements"):
        game.rewound(moves)
