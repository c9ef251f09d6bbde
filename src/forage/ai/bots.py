"""Bots that play whole games: ``greedy`` and ``expert`` (issue 4).

Neither looks at the draw pile. ``greedy`` takes the placement with the best immediate base
score. ``expert`` looks three placements ahead: the next one is averaged over every card that
could still be drawn (the cards of the deck not seen yet), the one after that is tried with
the card then kept; positions are compared by score plus a *worth* of the food dice left on
top for later cards to raise. Both are deterministic: ties go to the first placement in the
engine's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from forage.ai.sim import Move, Simulator, State, Worth, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Deck, Game
from forage.engine.board import CODES, DIE_COLOUR, FACE_INDEX, IS_EDWOOD, IS_MOUSE, IS_SPLIT, Board
from forage.engine.scoring import recipe_bonus

POLICIES: Final = ("greedy", "expert")

EXPERT_WIDTH: Final = 10
"""How many of the best-looking placements the expert looks further into."""


def unseen_cards(
    game_numbers: Sequence[int], seen: Sequence[int], recipes: Sequence[int]
) -> list[int]:
    """The cards that could still be drawn: the deck less the cards seen and the recipes."""
    gone = set(seen) | set(recipes)
    return [n for n in game_numbers if n not in gone]


def worth_table(
    faces: Sequence[float], split: float, mouse: float, edwood: float, scale: float
) -> Worth:
    """A worth per square code: what a square is expected to add to later placements."""
    table = [0.0] * CODES
    for code in range(1, CODES):
        if IS_EDWOOD[code]:
            table[code] = edwood * scale
        elif DIE_COLOUR[code] >= 0:
            if IS_MOUSE[code]:
                table[code] = mouse * scale
            else:
                table[code] = (faces[FACE_INDEX[code]] + (split if IS_SPLIT[code] else 0.0)) * scale
    return Worth(table)


@dataclass(frozen=True)
class Expert:
    """The expert policy's settings (tuned on seeds 0-99 against greedy)."""

    width: int = EXPERT_WIDTH
    """How many of the best-looking placements get the look further ahead."""
    faces: tuple[float, ...] = (0.0, 0.6, 1.0, 1.4, 1.8, 0.0)
    """The worth of a food die on top by face index (-, 1, 3, 6, 10, 15)."""
    split: float = 0.5
    """Extra worth of a food die on a split area (moving it onto food adds 1)."""
    mouse: float = -1.0
    """Worth of a mouse die (it blocks its area for good)."""
    edwood: float = 0.0
    horizon: int = 4
    """Placements left at which worth counts in full; it fades linearly below."""
    depth: int = 3
    """2: look at the next placement; 3: also at the one after with the card kept."""
    replies: int = 2
    """At depth 3, how many of the best next placements get the third look."""
    end_replies: int = 2
    """The same when the third look is at the last placement of the game."""

    def worth(self, remaining: int) -> Worth:
        """The worth table with this many placements still to come."""
        key = (self, remaining)
        found = _WORTH.get(key)
        if found is None:
            scale = min(1.0, max(0, remaining) / self.horizon)
            found = _WORTH[key] = worth_table(
                self.faces, self.split, self.mouse, self.edwood, scale
            )
        return found


_WORTH: dict[tuple[Expert, int], Worth] = {}


class Choice(NamedTuple):
    """The expert's placement and the score it expects after the next placement too."""

    move: Move
    expected: float


class Line(NamedTuple):
    """A game played out: the final state and the moves that led there."""

    state: State
    moves: list[Move]


def board_worth(board: Board, worth: Worth) -> float:
    """The total worth of a woodland's squares."""
    values = worth.values
    return sum(values[code] for code in board.values())


def greedy_move(sim: Simulator, state: State) -> Move | None:
    """The placement with the best immediate base score (first one on ties)."""
    return sim.greedy(state)


def expert_move(
    sim: Simulator,
    state: State,
    pool: Sequence[int],
    draw_pile: int,
    settings: Expert | None = None,
) -> Choice | None:
    """The expert's placement and the score it expects after the next placement too.

    The expert never sees the draw pile: the next card is averaged over ``pool``, the cards
    that could still be drawn; ``draw_pile`` is how many will be. Each placement is valued by
    its gain, the best gain of the next placement (of the card kept or the card drawn) and
    the worth of the woodland left for the placements after that.
    """
    ranking = expert_ranking(sim, state, pool, draw_pile, settings)
    return ranking[0] if ranking else None


def expert_ranking(
    sim: Simulator,
    state: State,
    pool: Sequence[int],
    draw_pile: int,
    settings: Expert | None = None,
) -> list[Choice]:
    """The placements the expert looks into, its choice first and the rest in its order.

    The same valuation as :func:`expert_move` (ties to the earlier placement in the
    engine's order); on the last placement every legal one is ranked, otherwise the
    ``width`` best-looking ones.
    """
    settings = settings or Expert()
    moves = sim.all_moves(state, variants=True)
    if not moves:
        return []
    recipes = sim.recipes
    remaining = len(state.hand) - 1 + draw_pile  # placements left after this one

    def bonus(move: Move, board: Board) -> int:
        """The recipes' bonus on the woodland after a move (0 in a standard game)."""
        if not recipes:
            return 0
        first = move.result.gathered if state.first < 0 else state.first
        return recipe_bonus(board, recipes, first)

    if remaining == 0:
        scored = []
        for i, move in enumerate(moves):
            board = sim.board_after(state.board, move) if recipes else state.board
            scored.append((state.base + move.gain + bonus(move, board), i))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [Choice(moves[index], float(final)) for final, index in scored]

    # Rank by the immediate result and the worth left, then look further into the best few.
    worth1 = settings.worth(remaining)
    worth2 = settings.worth(remaining - 1)
    ranked: list[tuple[float, int, Board, int]] = []
    for i, move in enumerate(moves):
        board = sim.board_after(state.board, move)
        extra = bonus(move, board)
        ranked.append((move.gain + extra + board_worth(board, worth1), i, board, extra))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    worth3 = settings.worth(remaining - 2)
    deep = settings.depth >= 3 and remaining >= 2
    # Two placements from the end the third look is the last one: make it (nearly) exact.
    reply_width = settings.replies if remaining > 2 else settings.end_replies
    found: list[tuple[float, int, float]] = []
    # The next placement: the best few of the card kept and of a card drawn (first on ties).
    replies_wanted = reply_width if deep else 1
    for _, i, board, extra in ranked[: settings.width]:
        move = moves[i]
        hand = list(state.hand)
        hand.remove(move.card)
        other = hand[0] if hand else None
        counts, edwood = move.result.counts, move.result.edwood
        kept = (
            sim.best_scored(board, counts, edwood, other, worth2, replies_wanted)
            if other is not None
            else []
        )
        value = float(move.gain + extra)
        expected = float(state.base + move.gain + extra)
        draws: Sequence[int | None] = pool if draw_pile > 0 and pool else [None]
        total_value = total_gain = 0.0
        for card in draws:
            top = (
                sim.best_scored(board, counts, edwood, card, worth2, replies_wanted, kept)
                if card is not None
                else kept
            )
            if not top:
                total_value += board_worth(board, worth2)
                continue
            if not deep:
                pick = top[0]
                total_value += pick.value + board_worth(board, worth2)
                total_gain += pick.move.gain
                continue
            best_reply: tuple[float, int] | None = None
            for _, second in top:
                after = sim.board_after(board, second)
                left = card if second.card == other else other
                reply = second.gain + board_worth(after, worth3)
                if left is not None:
                    third = sim.best_scored(
                        after, second.result.counts, second.result.edwood, left, worth3, 1
                    )
                    if third:
                        reply += third[0].value
                if best_reply is None or reply > best_reply[0]:
                    best_reply = (reply, second.gain)
            assert best_reply is not None
            total_value += best_reply[0]
            total_gain += best_reply[1]
        value += total_value / len(draws)
        expected += total_gain / len(draws)
        found.append((value, i, expected))
    # A stable sort keeps the placements looked into in their order on equal values.
    found.sort(key=lambda t: -t[0])
    return [Choice(moves[i], expected) for _, i, expected in found]


def play(
    sim: Simulator,
    deal: Deal,
    policy: str,
    start: State,
    numbers: Sequence[int],
    settings: Expert | None = None,
) -> Line:
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
            move = choice.move if choice is not None else None
        if move is None:
            break
        played.append(move)
        state = sim.apply(state, move, cards)
    return Line(state, played)


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
    return sim.final(play(sim, deal, policy, state_of(game), deck.numbers).state)
