"""Whole games: a policy played from a position to the end, or on a seed's whole deal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from forage.ai.bots import POLICIES, Expert, expert_move, greedy_move, unseen_cards
from forage.ai.search import Line
from forage.ai.sim import Move, Simulator, State, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Deck, Game


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
    settings: Expert | None = None,
) -> int:
    """The final score a policy reaches on the deal of a seed (``settings``: the expert's)."""
    run = _bot_run(seed, policy, recipes, deck, sim, settings)
    return run.sim.final(run.line.state)


def bot_played(
    seed: int, policy: str, recipes: bool = False, settings: Expert | None = None
) -> Game:
    """The whole game a policy plays on the deal of a seed, as the engine's game (built-in
    deck), so that it can be written as a record and reviewed."""
    run = _bot_run(seed, policy, recipes, None, None, settings)
    game = run.game
    applied, refusal = game.replay([run.sim.placement(move) for move in run.line.moves])
    if refusal is not None:  # pragma: no cover - the simulator is the engine's own rules
        move = run.line.moves[applied]
        raise RuntimeError(f"internal error: the {policy} bot's move {move} is refused")
    return game


class BotRun(NamedTuple):
    """A bot's game on a seed's deal: the fresh game, its simulator, the line played."""

    game: Game
    sim: Simulator
    line: Line


def _bot_run(
    seed: int,
    policy: str,
    recipes: bool,
    deck: Deck | None,
    sim: Simulator | None,
    settings: Expert | None,
) -> BotRun:
    """A seed's fresh game, a simulator for it, and the line the policy plays on it."""
    deck = deck or standard_deck()
    deal = Deal.from_seed(seed, recipes=recipes)
    game = Game(deal, deck)
    if sim is None or tuple(sim.recipes) != tuple(game.recipes):
        sim = Simulator(deck, game.recipes)
    return BotRun(game, sim, play(sim, deal, policy, state_of(game), deck.numbers, settings))
