"""Proving a puzzle: the best and second-best first placement of a position, by exact search.

A puzzle's position has every card left known (the draw order of the deal), so its best
final score is a fact, found by :class:`~forage.ai.search.ExactSearch` (exhaustive). Its
first placements are grouped by what a player chooses (card, rotation and spot; every mouse
colour choice of one spot belongs to it) and only the best two groups' values are needed: a
group whose upper bound cannot beat the second best so far is never searched.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from forage.ai.search import ExactSearch
from forage.ai.sim import Move
from forage.engine import Game, Placement

NONE_ELSE: Final = -1
"""The second-best value when no other first placement is legal."""


class CardSpot(NamedTuple):
    """A placement as the player chooses it, its mouse colours aside: the card, its rotation
    index and its spot."""

    card: int
    rotation: int
    spot: int


def card_spot(move: Move) -> CardSpot:
    """The card, rotation and spot a move chooses, its mouse colours aside."""
    return CardSpot(move.card, move.rotation, move.spot)


class Proof(NamedTuple):
    """The outcome of the exhaustive search of a position's first placements."""

    best: int
    """The highest final score any line reaches."""
    second: int
    """The highest final score of a line starting with another choice (:data:`NONE_ELSE`
    if there is none)."""
    solution: list[Placement]
    """A line reaching ``best``, its first placement the best choice."""
    tempting: int
    """How many first choices raise the score at once by more than the answer does."""
    greedy_right: bool
    """Whether the placement with the best immediate gain (the greedy bot's) is the answer."""

    @property
    def unique(self) -> bool:
        """Whether exactly one first choice reaches the best score."""
        return self.second < self.best


def prove(game: Game, variants: bool = True) -> Proof | None:
    """The best and second-best first choices of a game's position, proven by exhaustive
    search; None when the game is over. With ``variants`` false, placements take only their
    default mouse colours (R8c)."""
    search = ExactSearch.of_game(game, variants=variants)
    sim, start, deal = search.sim, search.start, search.deal
    moves = sim.all_moves(start, variants=variants)
    if not moves or game.is_over():
        return None
    best, second = NONE_ELSE, NONE_ELSE
    best_choice: CardSpot | None = None
    best_move = moves[0]
    gains: dict[CardSpot, int] = {}
    for move in sorted(moves, key=lambda m: -m.gain):
        choice = card_spot(move)
        gains[choice] = max(gains.get(choice, move.gain), move.gain)
        child = sim.apply(start, move, deal)
        floor = best if choice == best_choice else second
        if search.upper_bound(child) <= floor:
            continue
        value = search.exact(child, floor)
        if value <= floor:
            continue
        if choice == best_choice:
            best, best_move = value, move
        elif value > best:
            second, best, best_choice, best_move = best, value, choice, move
        else:
            second = value
    line = [best_move, *search.exact_line(sim.apply(start, best_move, deal))]
    greedy = sim.greedy(start)
    answer_gain = gains[card_spot(best_move)]
    return Proof(
        best=best,
        second=second,
        solution=[sim.placement(m) for m in line],
        tempting=sum(1 for gain in gains.values() if gain > answer_gain),
        greedy_right=greedy is not None and card_spot(greedy) == card_spot(best_move),
    )
