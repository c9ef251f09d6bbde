"""How long ``forage review FILE --json`` takes on a whole game, here and in another checkout.

The game is the expert bot's on a seed's deal (written once with ``forage bot --record``).
Each run starts the command as a fresh process with a fresh data folder (so nothing is
remembered: the moves and par are all worked out), then once more on the same folder (the
review read back). With ``--against DIR`` the other checkout runs the same file in the same
rounds, the two taking turns. Printed: wall-clock seconds of each run and the medians, and
their ratio.

    uv run python benchmarks/review.py [--seed 2100] [--runs 3] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def forage(tree: Path, home: Path, *args: str) -> float:
    """Wall-clock seconds of one ``forage`` command of a checkout, with this data folder."""
    began = time.perf_counter()
    subprocess.run(
        ["uv", "run", "--quiet", "--project", str(tree), "forage", *args],
        check=True,
        capture_output=True,
        cwd=tree,
        env={**os.environ, "FORAGE_HOME": str(home)},
    )
    return time.perf_counter() - began


def main() -> None:
    """Time the review of one expert game in this checkout and, if given, another."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here} | ({"against": args.against.resolve()} if args.against else {})
    fresh: dict[str, list[float]] = {name: [] for name in trees}
    again: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.json"
        bot = ("bot", "--games", "1", "--seed", str(args.seed), "--policy", "expert")
        forage(here, Path(folder) / "bot", *bot, "--record", str(record))
        for run in range(args.runs):
            for name, tree in trees.items():
                home = Path(folder) / f"{name}-{run}"
                fresh[name].append(forage(tree, home, "review", str(record), "--json"))
                again[name].append(forage(tree, home, "review", str(record), "--json"))
                print(
                    f"run {run + 1} {name}: {fresh[name][-1]:.2f} s, again {again[name][-1]:.2f} s",
                    flush=True,
                )
    for name in trees:
        print(
            f"{name}: median {statistics.median(fresh[name]):.2f} s, "
            f"asked again {statistics.median(again[name]):.2f} s"
        )
    if args.against:
        ratio = statistics.median(fresh["this"]) / statistics.median(fresh["against"])
        print(f"ratio of the medians (fresh data folder): {ratio:.2f}")


if __name__ == "__main__":
    main()
