"""How long a first-placement hint takes, and how soon its first suggestion is there.

For each seed in the range, the hint for the deal's first placement (``forage.ai.hint.hint``,
one worker, as the game screen asks) is timed in CPU seconds (``time.process_time``) in a
fresh process of this checkout and, with ``--against DIR``, of another checkout in the
same run, the two taking turns seed by seed so that a busy machine slows both alike.
Printed: each seed's times and hints, the mean of each and their ratio (with the standard
error of the mean of the per-seed ratios), and for this checkout how soon the look ahead's
choice (the "Hint so far" the game screen shows at once) is there.

    uv run python benchmarks/hint.py [FIRST LAST] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

CHILD = """
import json, sys, time
from forage.ai.hint import hint
from forage.carddata import standard_deck
from forage.engine import Deal, Game

game = Game(Deal.from_seed(int(sys.argv[1])), standard_deck())
early = []
began = time.process_time()
kwargs = {}
if "early" in hint.__code__.co_varnames:
    kwargs["early"] = lambda _: early.append(time.process_time() - began)
found = hint(game, **kwargs)
spent = time.process_time() - began
print(json.dumps({"cpu": spent, "hint": found.placement.notation(), "early": early[:1]}))
"""
"""Times one first-placement hint in the checkout it runs in (older ones have no ``early``)."""


def timed(tree: Path, seed: int) -> dict[str, object]:
    """One hint of a seed's first placement, timed in a fresh process of ``tree``."""
    done = subprocess.run(
        ["uv", "run", "--quiet", "--project", str(tree), "python", "-c", CHILD, str(seed)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Time the first-placement hints of the seeds in the range, here and against a tree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int, nargs="?", default=2100)
    parser.add_argument("last", type=int, nargs="?", default=2111, help="inclusive")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here} | ({"against": args.against.resolve()} if args.against else {})
    times: dict[str, list[float]] = {name: [] for name in trees}
    firsts: list[float] = []
    same = 0
    for seed in range(args.first, args.last + 1):
        hints = {}
        for name, tree in trees.items():
            found = timed(tree, seed)
            times[name].append(float(found["cpu"]))  # type: ignore[arg-type]
            hints[name] = found["hint"]
            if name == "this" and found["early"]:
                firsts.append(float(found["early"][0]))  # type: ignore[index]
        same += len(set(hints.values())) == 1
        row = "  ".join(f"{n} {times[n][-1]:.2f} s {hints[n]}" for n in trees)
        print(f"seed {seed}: {row}", flush=True)
    for name in trees:
        print(
            f"{name}: {statistics.mean(times[name]):.3f} s a hint (CPU), max {max(times[name]):.3f}"
        )
    if args.against:
        ratios = [a / b for a, b in zip(times["this"], times["against"], strict=True)]
        error = statistics.stdev(ratios) / len(ratios) ** 0.5 if len(ratios) > 1 else 0.0
        print(
            f"ratio of the means {sum(times['this']) / sum(times['against']):.2f}; "
            f"mean of the ratios {statistics.mean(ratios):.2f} ± {error:.2f}; "
            f"the same hint on {same} of {len(ratios)} deals"
        )
    if firsts:
        print(
            f"first suggestion: {max(firsts):.3f} s at most, {statistics.mean(firsts):.3f} s mean"
        )


if __name__ == "__main__":
    main()
