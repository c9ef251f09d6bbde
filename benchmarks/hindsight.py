"""How far a player who saw the draw order would get: greedy, the expert, and par's beam
search knowing the whole order, on the deals of a range of seeds.

No player who cannot see the draw pile can reach the last figure, so the gap between it and
the expert bounds what a stronger expert could still gain. Printed: each player's mean
final score, and how its dice end (mean count by face, mice, Edwood). Standard game, deck 1.

    uv run python benchmarks/hindsight.py [FIRST LAST] [--width 12] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from multiprocessing import Pool

from forage.ai.bots import Expert
from forage.ai.games import play
from forage.ai.search import Line, beam_line
from forage.ai.sim import Simulator, simulator_for, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.engine.areas import FOOD_FACES
from forage.engine.board import DIE_COLOUR, DIE_VALUE, IS_EDWOOD, IS_MOUSE

PLAYERS = ("greedy", "expert", "hindsight")

Ending = dict[str, float]
"""How a line ended: its final score and counts of its dice by face, mice and Edwood."""


def ending(sim: Simulator, line: Line) -> Ending:
    """The final score of a line and what its woodland's top squares hold."""
    codes = list(line.state.board.values())
    dice = Counter(DIE_VALUE[c] for c in codes if DIE_COLOUR[c] >= 0 and not IS_MOUSE[c])
    return {
        "final": sim.final(line.state),
        **{f"on {face}": float(dice[face]) for face in FOOD_FACES},
        "mice": float(sum(IS_MOUSE[c] for c in codes)),
        "edwood": float(sum(IS_EDWOOD[c] for c in codes)),
    }


def endings(task: tuple[int, int]) -> list[Ending]:
    """How each player's line ends on the deal of a seed (``width``: the hindsight beam's)."""
    seed, width = task
    deck = standard_deck()
    deal = Deal.from_seed(seed)
    game = Game(deal, deck)
    sim = simulator_for(game)
    start = state_of(game)
    lines = [play(sim, deal, policy, start, deck.numbers) for policy in ("greedy", "expert")]
    lines.append(beam_line(sim, start, deal.cards, width, Expert().worth))
    return [ending(sim, line) for line in lines]


def main() -> None:
    """Play the three on the range and print their means."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int, nargs="?", default=8000)
    parser.add_argument("last", type=int, nargs="?", default=8099, help="inclusive")
    parser.add_argument("--width", type=int, default=12, help="the hindsight beam's width")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tasks = [(seed, args.width) for seed in range(args.first, args.last + 1)]
    with Pool(args.workers) as pool:
        results = pool.map(endings, tasks)
    print(f"seeds {args.first}-{args.last}, means a deal:")
    for index, player in enumerate(PLAYERS):
        rows = [result[index] for result in results]
        cells = "  ".join(f"{key} {statistics.mean(r[key] for r in rows):.2f}" for key in rows[0])
        print(f"{player:9} {cells}")


if __name__ == "__main__":
    main()
