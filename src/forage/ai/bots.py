"""Bots that play whole games: ``greedy`` and ``expert`` (issue 4).

Neither looks at the draw pile. ``greedy`` takes the placement with the best immediate base
score. ``expert`` looks two placements ahead and averages the second over every card that
could still be drawn (the cards of the deck not seen yet), with a small bonus for dice left
where later cards can raise them. Both are deterministic: ties go to the first placement in
the engine's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from forage.ai.sim import C_DCOL, C_FACE, C_SPLIT, Move, Simulator, State, recipe_bonus
from forage.carddata import standard_deck
from forage.engine import Deal, Deck, Game, Recipe

POLICIES: Final = ("greedy", "expert")

EXPERT_WIDTH: Final = 10
"""How many of the best-looking placements the expert looks further into."""


def unseen_cards(
    game_numbers: Sequence[int], seen: Sequence[int], recipes: Sequence[int]
) -> list[int]:
    """The cards that could still be drawn: the deck less the cards seen and the recipes."""
    gone = set(seen) | set(recipes)
    return [n for n in game_numbers if n not in gone]


def potential(board: dict[int, int]) -> float:
    """A small bonus for a woodland's prospects: food dice that later cards may raise."""
    total = 0.0
    for code in board.values():
        if C_DCOL[code] >= 0:
            face = C_FACE[code]
            if face == 0:
                continue
            if face < 5:
                total += _RAISE_VALUE[face]
            if C_SPLIT[code]:
                total += 0.3
    return total


_RAISE_VALUE: Final = (0.0, 0.3, 0.5, 0.7, 0.9, 0.0)
"""The worth of a die showing each face index (1, 3, 6, 10) being on top, to be raised."""


@dataclass
class Expert:
    """The expert policy's settings."""

    width: int = EXPERT_WIDTH
    potential_weight: float = 1.0
    pool: list[int] = field(default_factory=list)


def greedy_move(sim: Simulator, state: State) -> Move | None:
    """The placement with the best immediate base score (first one on ties)."""
    best: Move | None = None
    for move in sim.all_moves(state):
        if best is None or move.gain > best.gain:
            best = move
    return best


def _board_after(state: State, move: Move, sim: Simulator) -> dict[int, int]:
    board = dict(state.board)
    spot = move.spot
    for d, code in zip(sim.shapes[move.card].offsets[move.rotation], move.new, strict=True):
        board[spot + d] = code
    return board


def expert_move(
    sim: Simulator,
    state: State,
    pool: Sequence[int],
    draw_pile: int,
    settings: Expert | None = None,
) -> tuple[Move, float] | None:
    """The expert's placement and the score it expects after the next placement too.

    The expert never sees the draw pile: the next card is averaged over ``pool``.

    ``pool`` lists the cards that could still be drawn, ``draw_pile`` how many will be.
    """
    settings = settings or Expert()
    moves = sim.all_moves(state, variants=True)
    if not moves:
        return None
    recipes = sim.recipes
    last = len(state.hand) == 1 and draw_pile == 0
    weight = 0.0 if last else settings.potential_weight

    def first_value(move: Move, board: dict[int, int] | None = None) -> float:
        value = float(state.base + move.gain)
        if recipes:
            board = board if board is not None else _board_after(state, move, sim)
            first = move.gathered if state.first < 0 else state.first
            value += recipe_bonus(board, recipes, first)
        return value

    if last:
        scored = [(first_value(m), i) for i, m in enumerate(moves)]
        value, index = max(scored, key=lambda t: (t[0], -t[1]))
        return moves[index], value

    # Rank by the immediate result plus prospects, then look deeper into the best few.
    ranked: list[tuple[float, int, dict[int, int]]] = []
    for i, move in enumerate(moves):
        board = _board_after(state, move, sim)
        ranked.append((first_value(move, board) + weight * potential(board), i, board))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    best: tuple[float, int, float] | None = None
    for _, i, board in ranked[: settings.width]:
        move = moves[i]
        hand = list(state.hand)
        hand.remove(move.card)
        value = first_value(move, board)
        other = hand[0] if hand else None
        g_other = (
            sim.best_gain(board, move.counts, move.edwood, other) if other is not None else None
        )
        if draw_pile > 0 and pool:
            total = 0.0
            for card in pool:
                g = sim.best_gain(board, move.counts, move.edwood, card)
                options = [x for x in (g, g_other) if x is not None]
                total += max(options) if options else 0.0
            value += total / len(pool)
        elif g_other is not None:
            value += g_other
        rank = value + weight * 0.5 * potential(board)
        if best is None or rank > best[0]:
            best = (rank, i, value)
    assert best is not None
    return moves[best[1]], best[2]


def play(
    sim: Simulator,
    deal: Deal,
    policy: str,
    start: State,
    numbers: Sequence[int],
    settings: Expert | None = None,
) -> tuple[State, list[Move]]:
    """Play a game from ``start`` to the end with a policy; the final state and the moves."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})")
    cards = deal.cards
    recipes = deal.recipes or ()
    state = start
    played: list[Move] = []
    while state.hand:
        if policy == "greedy":
            move = greedy_move(sim, state)
        else:
            pool = unseen_cards(numbers, cards[: state.next_draw], recipes)
            choice = expert_move(sim, state, pool, len(cards) - state.next_draw, settings)
            move = choice[0] if choice is not None else None
        if move is None:
            break
        played.append(move)
        state = sim.apply(state, move, cards)
    return state, played


def bot_game(
    seed: int,
    policy: str,
    recipes: bool = False,
    deck: Deck | None = None,
    sim: Simulator | None = None,
) -> int:
    """The final score a policy reaches on the deal of a seed."""
    deck = deck or standard_deck()
    deal = Deal.from_seed(seed, recipes=recipes)
    game = Game(deal, deck)
    if sim is None or tuple(sim.recipes) != tuple(game.recipes):
        sim = Simulator(deck, game.recipes)
    from forage.ai.sim import state_of

    final, _ = play(sim, deal, policy, state_of(game), deck.numbers)
    return sim.final(final)


def recipes_of(game: Game) -> tuple[Recipe, ...]:
    """The recipes of a game, for a simulator."""
    return game.recipes
