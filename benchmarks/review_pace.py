"""How soon the review is ready after a game played at a person's pace.

The game screen (Textual, headless) plays each deal with the app's real services: worker
processes, the history in a fresh data folder, the moves reviewed while the player thinks.
Each turn the expert's hint-free greedy placement is made after ``--pace`` seconds (a
person reading the woodland); after the last one the end screen opens. Measured from the
last placement: when the end screen shows the deal's par, and when the review (``r``) is
complete. The deals are standard games and recipe challenges (the slowest to review).

    uv run python benchmarks/review_pace.py [--pace 5] [--seeds 1 2] [--recipes-seeds 3 4]
        [--baseline] [--json]

The target: the review complete at most 1 s after the last placement, par shown with the
end screen (docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

READY_SECONDS = 120.0
"""How long to wait for the par or the review before giving up on a deal."""


async def play(seed: int, recipes: bool, pace: float, ahead: bool = True) -> dict[str, Any]:
    """Play one deal at ``pace`` seconds a move; the seconds from the last placement until
    the par is shown and the review is complete. ``ahead``: review while the player thinks
    (False: the baseline, nothing analysed until the game ends)."""
    from textual.widgets import Static

    from forage.app.app import ForageApp
    from forage.app.recorder import Recorder
    from forage.app.screens import EndScreen, GameScreen
    from forage.app.screens.review import ReviewScreen

    app = ForageApp(
        seed=seed,
        recipes=recipes,
        offer_resume=False,
        show_par=True,
        analyse_while_playing=ahead,
        recorder=Recorder("bench"),
    )
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        while not session.game.is_over():
            await asyncio.sleep(pace)
            outcomes = [o for o in session.game.outcomes() if not o.placement.mouse]
            best = max(outcomes, key=lambda o: (o.score_change, -o.placement.y, -o.placement.x))
            session.go_to(best.placement)
            screen.action_place()
            last = time.perf_counter()
            await pilot.pause()
        par_at = review_at = None
        deadline = last + READY_SECONDS
        while time.perf_counter() < deadline and par_at is None:
            if isinstance(app.screen, EndScreen):
                text = str(app.screen.query_one("#end-par", Static).content)
                if "working it out" not in text:
                    par_at = time.perf_counter() - last
            await asyncio.sleep(0.01)
        await pilot.press("r")
        while time.perf_counter() < deadline:
            review = app.screen
            if isinstance(review, ReviewScreen) and review.result is not None:
                review_at = time.perf_counter() - last
                break
            await asyncio.sleep(0.01)
    app.services.close()
    return {"seed": seed, "recipes": recipes, "par": par_at, "review": review_at}


def main(argv: list[str] | None = None) -> int:
    """Play the deals, print each one's figures and the worst."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pace", type=float, default=5.0, help="seconds a move (5)")
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--recipes-seeds", type=int, nargs="*", default=[3, 4])
    parser.add_argument(
        "--baseline", action="store_true", help="analyse nothing while playing (the baseline)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.environ["FORAGE_HOME"] = tempfile.mkdtemp(prefix="forage-bench-")
    runs = [(s, False) for s in args.seeds] + [(s, True) for s in args.recipes_seeds]
    found = [
        asyncio.run(play(seed, recipes, args.pace, not args.baseline)) for seed, recipes in runs
    ]
    reviews = [r["review"] for r in found if r["review"] is not None]
    summary = {
        "pace": args.pace,
        "baseline": args.baseline,
        "deals": found,
        "review_worst": max(reviews) if reviews else None,
        "review_median": statistics.median(reviews) if reviews else None,
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    for run in found:
        kind = "recipe challenge" if run["recipes"] else "standard game"
        par = "not shown" if run["par"] is None else f"{run['par']:.2f} s"
        review = "not done" if run["review"] is None else f"{run['review']:.2f} s"
        print(f"seed {run['seed']} ({kind}): par {par}, review {review} after the last move")
    if reviews:
        print(f"review: median {summary['review_median']:.2f} s, worst {max(reviews):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
