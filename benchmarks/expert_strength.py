"""How much the expert beats greedy by, deal by deal, on a range of seeds (issue 12, part 4).

Both bots play the standard game (or the recipe challenge with ``--recipes``) on the deal
of every seed in the range; printed: each bot's mean, the expert's mean lead with its
standard error, the deals won and lost, and the seconds a game. Seeds 0-999 are the ones
the first expert was set up on and 10000 and up the ones its worth was learnt on
(benchmarks/learn_worth.py), so held-out figures use, say, 2000-2199 or 3000-3999.

    uv run python benchmarks/expert_strength.py [FIRST LAST] [--recipes] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from multiprocessing import Pool

from forage.ai.bots import bot_game


def game(task: tuple[int, str, bool]) -> tuple[int, float]:
    """One bot game: its final score and the CPU seconds it took."""
    seed, policy, recipes = task
    began = time.process_time()
    score = bot_game(seed, policy, recipes=recipes)
    return score, time.process_time() - began


def main() -> None:
    """Play both bots on the range and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int, nargs="?", default=2000)
    parser.add_argument("last", type=int, nargs="?", default=2199, help="inclusive")
    parser.add_argument("--recipes", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.first, args.last + 1)
    results = {}
    with Pool(args.workers) as pool:
        for policy in ("greedy", "expert"):
            results[policy] = pool.map(game, [(s, policy, args.recipes) for s in seeds])
    greedy = [score for score, _ in results["greedy"]]
    expert = [score for score, _ in results["expert"]]
    lead = [e - g for e, g in zip(expert, greedy, strict=True)]
    error = statistics.stdev(lead) / len(lead) ** 0.5
    for policy, scores in (("greedy", greedy), ("expert", expert)):
        seconds = statistics.mean(t for _, t in results[policy])
        print(f"{policy:7} mean {statistics.mean(scores):.2f}  ({seconds:.3f} s a game)")
    print(
        f"expert - greedy on seeds {seeds[0]}-{seeds[-1]}: {statistics.mean(lead):+.2f} "
        f"± {error:.2f} (standard error); expert ahead on {sum(d > 0 for d in lead)}, "
        f"behind on {sum(d < 0 for d in lead)} of {len(lead)}"
    )


if __name__ == "__main__":
    main()
