"""Positions for a lesson of ``forage learn``: seeded deals where its goal can be met.

For each seed in the range the deal is played greedily (the placement that raises the
base score most; in a recipe challenge the final score) for up to ``--moves`` turns; at
each position the first hand card's placements are checked against the goal
(``forage.learn.CHECKS``). Printed, best first: how many placements meet it (fewer: the
mark matters more), the moves made, the deal code, those moves and one placement that
meets it: a ``Lesson``'s ``deal``, ``moves`` and ``spot``.

    uv run python benchmarks/find_lessons.py GOAL [FIRST LAST] [--moves 6] [--at-least 1]

GOAL is one of the ``forage.learn.Goal`` values but ``spot`` (gather, raise, split,
die-rules, mouse, edwood, run-out, score, target); ``target`` searches recipe
challenges at their last turn.
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

from forage.carddata import standard_deck
from forage.engine import Deal, Game, Outcome
from forage.learn import CHECKS, Goal


class GoalPosition(NamedTuple):
    """A position where the first hand card can meet the goal."""

    meeting: int
    moves_made: int
    seed: int
    deal: str
    moves: tuple[str, ...]
    spot: str


def greedy(game: Game, challenge: bool) -> Outcome | None:
    """The placement that raises the score most (the final score in a challenge)."""
    outcomes = [o for o in game.outcomes() if not o.placement.mouse]
    if not outcomes:
        return None
    if challenge:
        return max(outcomes, key=lambda o: game.result_after(o).score.final)
    return max(outcomes, key=lambda o: o.score_change)


def search(goal: Goal, seed: int, most_moves: int, least_moves: int) -> GoalPosition | None:
    """The first position of a seed's greedy game where the goal can be met, if any."""
    challenge = goal is Goal.TARGET
    game = Game(Deal.from_seed(seed, recipes=challenge), standard_deck())
    check = CHECKS[goal]
    for made in range(most_moves + 1):
        if game.is_over():
            return None
        last_turn = game.turn == game.turns
        if made >= least_moves and (last_turn or not challenge):
            first = game.hand[0]
            meeting = [o for o in game.outcomes(first) if not o.placement.mouse and check(game, o)]
            if meeting:
                return GoalPosition(
                    len(meeting),
                    made,
                    seed,
                    game.deal.code,
                    tuple(p.notation() for p in game.moves),
                    meeting[0].placement.notation(),
                )
        best = greedy(game, challenge)
        if best is None:
            return None
        game.push(best)
    return None


def main() -> None:
    """Search the seeds and print the best positions found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("goal", choices=[g.value for g in Goal if g is not Goal.SPOT])
    parser.add_argument("first", type=int, nargs="?", default=1)
    parser.add_argument("last", type=int, nargs="?", default=300)
    parser.add_argument("--moves", type=int, default=6, help="greedy moves at the most")
    parser.add_argument("--at-least", type=int, default=0, help="greedy moves at the least")
    parser.add_argument("--show", type=int, default=8, help="how many positions to print")
    args = parser.parse_args()
    goal = Goal(args.goal)
    most = 8 if goal is Goal.TARGET else args.moves
    found = [
        f
        for seed in range(args.first, args.last + 1)
        if (f := search(goal, seed, most, args.at_least)) is not None
    ]
    found.sort(key=lambda f: (f.meeting, f.moves_made, f.seed))
    for f in found[: args.show]:
        print(
            f"{f.meeting:3} meet  seed {f.seed:4}  {f.deal}  moves {list(f.moves)}  spot {f.spot}"
        )


if __name__ == "__main__":
    main()
