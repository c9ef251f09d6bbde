"""How much the expert beats greedy by, deal by deal, on a range of seeds.

Both bots play the standard game (or the recipe challenge with ``--recipes``) on the deal
of every seed in the range; printed: each bot's mean, the expert's mean lead with its
standard error, the deals won and lost, and the seconds a game. Seeds 0-999 are the ones
the expert's settings were chosen on and 10000 and up the ones its worth was learnt on
(benchmarks/learn_worth.py), so held-out figures use, say, 2000-2199 or 3000-3999.

``--set NAME=VALUE`` (repeatable) changes one of the expert's settings
(``forage.ai.bots.Expert``: ``samples``, ``candidates``, ``beam``, ``margin``...);
``--save FILE`` writes the seeds, the settings and both bots' scores as JSON;
``--against FILE`` compares this expert with a saved run's, deal by deal on the same
seeds (the paired difference has a far smaller error than either lead).

    uv run python benchmarks/expert_strength.py [FIRST LAST] [--recipes] [--workers 2]
        [--set NAME=VALUE ...] [--save FILE] [--against FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

from forage.ai.bots import Expert, expert_for
from forage.ai.games import bot_game
from forage.record import write_atomic

Task = tuple[int, str, bool, Expert]


def game(task: Task) -> tuple[int, float]:
    """One bot game: its final score and the CPU seconds it took."""
    seed, policy, recipes, settings = task
    began = time.process_time()
    score = bot_game(seed, policy, recipes=recipes, settings=settings)
    return score, time.process_time() - began


def expert_settings(assignments: Sequence[str], recipes: bool = False) -> Expert:
    """The shipped expert of the game kind with each ``NAME=VALUE`` applied (a number or
    true/false)."""
    types = {f.name: getattr(f.type, "__name__", f.type) for f in dataclasses.fields(Expert)}
    numeric = {name: kind for name, kind in types.items() if kind in ("int", "float", "bool")}
    changes: dict[str, int | float | bool] = {}
    for assignment in assignments:
        name, _, text = assignment.partition("=")
        if name not in numeric:
            raise SystemExit(f"--set: {name!r} is not one of {', '.join(sorted(numeric))}")
        try:
            if numeric[name] == "bool":
                changes[name] = {"true": True, "false": False}[text.lower()]
            else:
                changes[name] = int(text) if numeric[name] == "int" else float(text)
        except (KeyError, ValueError):
            article = "an" if numeric[name] == "int" else "a"
            raise SystemExit(f"--set {name}: {text!r} is not {article} {numeric[name]}") from None
    return dataclasses.replace(expert_for(recipes), **changes)


def mean_and_error(values: Sequence[float]) -> str:
    """A mean with its standard error, as ``+1.23 ± 0.45``."""
    error = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{statistics.mean(values):+.2f} ± {error:.2f}"


def main() -> None:
    """Play both bots on the range and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int, nargs="?", default=2000)
    parser.add_argument("last", type=int, nargs="?", default=2199, help="inclusive")
    parser.add_argument("--recipes", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--save", type=Path, metavar="FILE")
    parser.add_argument("--against", type=Path, metavar="FILE")
    args = parser.parse_args()
    settings = expert_settings(args.set, args.recipes)
    seeds = list(range(args.first, args.last + 1))
    before = json.loads(args.against.read_text(encoding="utf-8")) if args.against else None
    if before is not None and before["seeds"] != seeds:
        sys.exit("--against: that run was on other seeds")
    results = {}
    with Pool(args.workers) as pool:
        for policy in ("greedy", "expert"):
            tasks = [(s, policy, args.recipes, settings) for s in seeds]
            results[policy] = pool.map(game, tasks)
    greedy = [score for score, _ in results["greedy"]]
    expert = [score for score, _ in results["expert"]]
    lead = [e - g for e, g in zip(expert, greedy, strict=True)]
    for policy, scores in (("greedy", greedy), ("expert", expert)):
        seconds = statistics.mean(t for _, t in results[policy])
        print(f"{policy:7} mean {statistics.mean(scores):.2f}  ({seconds:.3f} s a game)")
    print(
        f"expert - greedy on seeds {seeds[0]}-{seeds[-1]}: {mean_and_error(lead)} "
        f"(standard error); expert ahead on {sum(d > 0 for d in lead)}, "
        f"behind on {sum(d < 0 for d in lead)} of {len(lead)}"
    )
    if before is not None:
        change = [e - b for e, b in zip(expert, before["expert"], strict=True)]
        print(
            f"this expert - the saved one, deal by deal: {mean_and_error(change)}; "
            f"better on {sum(d > 0 for d in change)}, worse on {sum(d < 0 for d in change)}"
        )
    if args.save is not None:
        changed = {
            f.name: getattr(settings, f.name)
            for f in dataclasses.fields(Expert)
            if f.name != "model"
            and getattr(settings, f.name) != getattr(expert_for(args.recipes), f.name)
        }
        data = {"seeds": seeds, "settings": changed, "greedy": greedy, "expert": expert}
        write_atomic(args.save, json.dumps(data) + "\n")


if __name__ == "__main__":
    main()
