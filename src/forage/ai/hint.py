"""The hint: the suggested placement for the current hand.

The hint never looks at the draw pile: it plays the expert bot's choice, which averages over
every card that could still be drawn. It is always a legal placement of the engine. The
look ahead's choice comes first, in a tenth of the time; the play-outs then confirm it or
change it. With nothing left to draw (the last two placements) there is nothing to
average: the hint is the exact search's proven best.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from forage.ai.bots import ExpertChoice, expert_move, unseen_cards
from forage.ai.search import ExactSearch
from forage.ai.sim import simulator_for, state_of
from forage.ai.workers import pooled
from forage.engine import Game, Placement
from forage.record import placement_json


@dataclass(frozen=True)
class Hint:
    """A suggested placement, the base score right after it, and the expected final score."""

    placement: Placement
    score: int
    """The base score after the placement (as ``forage moves`` reports it)."""
    expected: float
    """The score expected after the next placement too, averaged over the possible draws."""
    gain: int
    """How much the placement adds to the base score at once."""
    final: bool = True
    """Whether this is the hint (False: the look ahead's choice, before its play-outs)."""
    proven: bool = False
    """Whether it is proven best and ``expected`` the final score it reaches (nothing is
    left to draw: the exact search)."""

    def to_json(self) -> dict[str, Any]:
        """The hint as the ``hint --json`` object."""
        return placement_json(self.placement) | {
            "score": self.score,
            "gain": self.gain,
            "expected": round(self.expected, 2),
            "proven": self.proven,
        }


def hint(
    game: Game,
    workers: int = 1,
    early: Callable[[Hint], None] | None = None,
    executor: Executor | None = None,
) -> Hint | None:
    """The suggested placement for the hand now, or None when the game is over.

    With an ``executor`` (the app's shared workers), or ``workers`` 2 (two worker processes
    of its own, :func:`forage.ai.workers.worker_pool`), the expert plays its candidates out
    there: a quicker hint, the same one. ``early`` is given the answer so far (``final``
    False) as soon as the look ahead has one, before the play-outs.
    """
    if game.is_over():
        return None
    sim = simulator_for(game)
    state = state_of(game)
    recipes = game.deal.recipes or ()
    pool = unseen_cards(game.deck.numbers, game.deal.cards[: state.next_draw], recipes)

    def hint_of(choice: ExpertChoice, final: bool) -> Hint:
        outcome = game.outcome(sim.placement(choice.move))
        assert outcome.legal, "the search plays by the engine's own rules"
        base = game.base + outcome.score_change
        proven = game.draw_pile == 0
        return Hint(outcome.placement, base, choice.expected, outcome.score_change, final, proven)

    def so_far(choice: ExpertChoice) -> None:
        if early is not None:
            early(hint_of(choice, final=False))

    if game.draw_pile == 0:  # nothing left to chance: the exact search's proven best
        top = ExactSearch(sim, state, game.deal.cards).best(state)
        if top.move is None:
            return None
        return hint_of(ExpertChoice(top.move, float(top.value)), final=True)
    if executor is not None:
        choice = expert_move(sim, state, pool, game.draw_pile, None, executor, so_far)
    else:
        with pooled(workers) if workers > 1 else nullcontext() as own:
            choice = expert_move(sim, state, pool, game.draw_pile, None, own, so_far)
    return None if choice is None else hint_of(choice, final=True)
